# A build that failed after its upload: its staged graphs go, and the live ones stay as they were.
DROP SILENT GRAPH $staged_ontology ;
DROP SILENT GRAPH $staged_data ;
DROP SILENT GRAPH $staged_inferred ;
DROP SILENT GRAPH $staged_marker
