# Serve a new build: each graph the site reads is replaced by the build's staged copy, in one update
# request, which a transactional store (Oxigraph, Fuseki/TDB2, GraphDB) applies all or nothing. A staged
# graph that is missing (nothing was inferred, say) leaves its live graph empty, never the old build's.
# The $names are graph IRIs, filled by the build (service/kb/remote.py).
DROP SILENT GRAPH $ontology ;
MOVE SILENT GRAPH $staged_ontology TO GRAPH $ontology ;
DROP SILENT GRAPH $data ;
MOVE SILENT GRAPH $staged_data TO GRAPH $data ;
DROP SILENT GRAPH $inferred ;
MOVE SILENT GRAPH $staged_inferred TO GRAPH $inferred ;
DROP SILENT GRAPH $marker ;
MOVE SILENT GRAPH $staged_marker TO GRAPH $marker
