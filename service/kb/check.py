"""Read and check every input without writing anything: the first half of `build`, all of `validate`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import rdflib
from rdflib.namespace import RDFS, SKOS

from service.errors import Problem, display_path
from service.examples import marker_problem
from service.kb.domains import check_domains
from service.kb.lexicon import Lexicon, Refs, load_lexicon
from service.kb.links import check_article_links, check_data_links, check_entity_base, entity_names
from service.kb.rdf import PF, ParsedTurtle, parse_turtle
from service.kb.rules import check_rules
from service.kb.shapes import check_shapes
from service.kb.site import Site, load_site
from service.kb.sources import Sources
from service.kb.values import check_values
from service.kb.wiki import Article, read_wiki
from service.queries import QueryError, StoredQuery, example_values, load_catalog

Log = Callable[[str], None]


@dataclass
class Checked:
    sources: Sources
    site: Site | None = None
    ontology: ParsedTurtle = field(default_factory=ParsedTurtle)
    data: ParsedTurtle = field(default_factory=ParsedTurtle)
    articles: list[Article] = field(default_factory=list)
    lexicon: Lexicon = field(default_factory=Lexicon)
    catalog: dict[str, StoredQuery] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _names(graph: rdflib.Graph) -> set[str]:
    """Every lower-cased label, short label and alternative label: what a visitor may type."""
    return {
        str(o).lower()
        for p in (RDFS.label, SKOS.altLabel, rdflib.URIRef(PF + "shortLabel"))
        for o in graph.objects(None, p)
    }


def check_inputs(sources: Sources, log: Log | None = None) -> Checked:
    say = log or (lambda _msg: None)
    out = Checked(sources)
    missing = sources.missing_dirs()
    if missing:
        out.problems.extend(Problem(str(p), 0, "input", "directory not found") for p in missing)
        return out
    out.site, found = load_site(sources.data)
    out.problems.extend(found)

    out.ontology = parse_turtle(sources.ontology_files())
    out.data = parse_turtle(sources.data_files())
    shapes = parse_turtle(sources.shapes_files())
    out.problems += out.ontology.problems + out.data.problems + shapes.problems
    say(f"parsed {len(out.ontology.graph)} ontology and {len(out.data.graph)} data triples")

    out.articles, found = read_wiki(sources.wiki_files())
    out.problems.extend(found)
    unreadable = {Path(p.path).stem for p in found if p.check in ("front-matter", "encoding")}
    say(f"read {len(out.articles)} articles, {sum(len(a.passages) for a in out.articles)} passages")

    out.catalog, found = load_catalog(sources.query_files())
    out.problems.extend(found)

    syntax_ok = not (out.ontology.problems or out.data.problems or shapes.problems)
    if out.site is not None and syntax_ok:
        wrong_base = check_entity_base(out.data, out.site.entity_base, sources.data / "site.yaml")
        if wrong_base:  # every link, alias and article would be reported as pointing at nothing
            out.problems += wrong_base
            return out
        values = check_values(out.data)
        out.problems += values.problems
        known = entity_names(out.data.graph, out.site.entity_base)
        categories = {
            str(s)[len(PF) :] for s in out.ontology.graph.subjects(rdflib.RDF.type, rdflib.URIRef(PF + "SkillCategory"))
        }
        out.lexicon, found = load_lexicon(sources.lexicon_files(), Refs(set(known), _names(out.data.graph), categories))
        out.problems.extend(found)
        out.problems += check_data_links(out.data, out.site.entity_base)
        out.problems += check_article_links(out.articles, known, unreadable)
        out.problems += _check_examples(out, set(known.values()))
        out.problems += _check_route_queries(out)
        out.problems += check_shapes(out.ontology, out.data, shapes.graph, values.reported)
        typed = check_domains(out.ontology, out.data, values.subjects())
        out.problems += typed
        out.problems += check_rules(out.ontology, out.data, out.site.entity_base, out.site.person,
                                    out.site.contact_email, values.subjects())  # fmt: skip
        say("checked shapes, rules, links and lexicon")
    return out


def _check_route_queries(out: Checked) -> list[Problem]:
    """Every stored query a route declares exists, takes the parameters the route fills, and gets each it needs."""
    problems = []
    for route in out.lexicon.routes.values():
        where = f"routes/{route.name}.yaml"
        for key, use in route.queries.items():
            stored = out.catalog.get(use.query)
            if stored is None:
                problems.append(Problem(where, 0, "route", f"{route.name}: query {key} names {use.query}, which is not "
                                                           f"a stored query (queries/{use.query}.rq)"))  # fmt: skip
                continue
            unknown = sorted(set(use.params) - set(stored.params))
            needed = sorted(n for n, p in stored.params.items() if not p.optional and n not in use.params)
            if unknown or needed:
                said = f"fills ${', $'.join(unknown)}, which it does not declare" if unknown else \
                    f"leaves ${', $'.join(needed)} unfilled"  # fmt: skip
                problems.append(Problem(where, 0, "route", f"{route.name}: query {key} ({use.query}) {said}"))
    return problems


def _check_examples(out: Checked, iris: set[str]) -> list[Problem]:
    """query-examples (the engine's, with the owner's) name real queries, their parameters and existing
    entities (or markers of classes the ontology has)."""
    assert out.site is not None
    examples = out.lexicon.extra.get("query-examples") or {}
    where = display_path(out.sources.data / "lexicon" / "query-examples.yaml")
    if not isinstance(examples, dict):
        return [Problem(where, 0, "lexicon", "a mapping of query name to {parameter: value}")]
    problems = []
    ontology_terms = {str(s) for s in out.ontology.graph.subjects()}
    for name, raw in examples.items():
        query = out.catalog.get(str(name))
        if query is None or not isinstance(raw, dict):
            problems.append(Problem(where, 0, "lexicon", f"{name}: no such stored query, or not a mapping"))
            continue
        markers = {k: v for k, v in raw.items() if isinstance(v, str) and v.startswith("@")}
        for pname, value in markers.items():
            wrong = marker_problem(value, ontology_terms)
            if wrong:
                problems.append(Problem(where, 0, "lexicon", f"{name}: ${pname}: {wrong}"))
        try:
            values = example_values(query, {k: v for k, v in raw.items() if k not in markers}, out.site.entity_base)
        except QueryError as e:
            problems.append(Problem(where, 0, "lexicon", str(e)))
            continue
        unknown = set(markers) - set(query.params)
        if unknown:
            problems.append(Problem(where, 0, "lexicon", f"{name}: the example names ${sorted(unknown)[0]}, which the "
                                                         "query does not declare"))  # fmt: skip
        for pname, given in values.items():
            if query.params[pname].type == "iri" and given not in iris | ontology_terms:
                problems.append(Problem(where, 0, "lexicon", f"{name}: ${pname} = {given} is not in the graph"))
    return problems
