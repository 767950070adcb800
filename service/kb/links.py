"""Link checks the shapes cannot express: every entity the data points at exists, every article is about
an existing entity, and every entity an article links to exists."""

from __future__ import annotations

import rdflib

from service.errors import Problem
from service.kb.rdf import ParsedTurtle
from service.kb.wiki import Article


def entity_names(graph: rdflib.Graph, base: str) -> dict[str, str]:
    """Local name -> IRI for every typed subject under the entity base."""
    return {
        str(s)[len(base) :]: str(s)
        for s in set(graph.subjects(rdflib.RDF.type, None))
        if isinstance(s, rdflib.URIRef) and str(s).startswith(base)
    }


def check_data_links(data: ParsedTurtle, base: str) -> list[Problem]:
    known = entity_names(data.graph, base)
    problems = []
    reported: set[str] = set()
    for s, p, o in data.graph:
        if isinstance(o, rdflib.URIRef) and str(o).startswith(base) and p != rdflib.RDF.type:
            name = str(o)[len(base) :]
            if name not in known and name not in reported:
                reported.add(name)
                path, line = data.where(str(s))
                problems.append(Problem(path or "data", line, "link", f"points at {name}, which is not defined"))
    return problems


def check_article_links(articles: list[Article], known: dict[str, str]) -> list[Problem]:
    with_article = {a.name for a in articles}
    problems = []
    for a in articles:
        if a.name not in known:
            problems.append(Problem(a.path, 2, "link", f"the article is about {a.entity}, which is not an entity"))
        for target, line in a.links:
            kind, _, name = target.strip("/").partition("/")
            if kind == "id" and name not in known:
                problems.append(Problem(a.path, line, "link", f"links to /id/{name}, which is not an entity"))
            if kind == "wiki" and name not in with_article:
                problems.append(Problem(a.path, line, "link", f"links to /wiki/{name}, which has no article"))
    return problems
