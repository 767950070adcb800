"""The IRIs the code relies on: the ontology's namespace and the named graphs of a built KB."""

PF = "https://folio.example/ns#"
XSD = "http://www.w3.org/2001/XMLSchema#"
GRAPH_ONTOLOGY = "https://folio.example/graph/ontology"
GRAPH_DATA = "https://folio.example/graph/data"
GRAPH_INFERRED = "https://folio.example/graph/inferred"
PREFIXES = {  # the prefixes every RDF serialization of the KB writes (the entity base, `id:`, is the site's)
    "pf": PF,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": XSD,
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "schema": "https://schema.org/",
    "dcterms": "http://purl.org/dc/terms/",
}
