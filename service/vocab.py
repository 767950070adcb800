"""The IRIs the code relies on: the ontology's namespace and the named graphs of a built KB."""

PF = "https://folio.example/ns#"
XSD = "http://www.w3.org/2001/XMLSchema#"
GRAPH_ONTOLOGY = "https://folio.example/graph/ontology"
GRAPH_DATA = "https://folio.example/graph/data"
GRAPH_INFERRED = "https://folio.example/graph/inferred"
