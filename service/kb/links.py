"""Link checks the shapes cannot express: every entity the data points at exists, every article is about
an existing entity, and every entity an article links to exists."""

from __future__ import annotations

from pathlib import Path

import rdflib

from service.errors import Problem, display_path
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


def check_entity_base(data: ParsedTurtle, base: str, site_file: Path) -> list[Problem]:
    """site.yaml's entity_base must be the namespace the data's entities are written in: when none is under it,
    say so once, naming the namespace they do use and where it is declared."""
    typed = [str(s) for s in set(data.graph.subjects(rdflib.RDF.type, None)) if isinstance(s, rdflib.URIRef)]
    if not typed or any(s.startswith(base) for s in typed):
        return []
    declared = [(path, p, ns) for path, found in data.prefixes.items() for p, ns in found.items()
                if sum(s.startswith(ns) for s in typed) > 0 and "folio.example/ns" not in ns]  # fmt: skip
    declared.sort(key=lambda d: -sum(s.startswith(d[2]) for s in typed))
    text = site_file.read_text(encoding="utf-8").splitlines()
    line = next((n for n, row in enumerate(text, 1) if row.startswith("entity_base")), 0)
    if declared:
        path, prefix, ns = declared[0]
        at = next((n for n, row in enumerate(data.lines[path], 1) if f"{prefix}:" in row and ns in row), 0)
        where = f"@prefix {prefix}: <{ns}> in {path}:{at}"
        cause = f"the data's entities are under {ns} ({where})"
    else:
        cause = "none of the data's entities is under it"
    message = f"entity_base is {base}, but {cause}: make entity_base and the @prefix the same"
    return [Problem(display_path(site_file), line, "site", message)]


def check_article_links(
    articles: list[Article], known: dict[str, str], unreadable: frozenset[str] | set[str] = frozenset()
) -> list[Problem]:
    """`unreadable`: file names of articles already reported as unreadable, whose links are not repeated."""
    with_article = {a.name for a in articles} | set(unreadable)
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
