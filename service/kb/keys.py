"""Keys the build adds beside the reasoner's inferences, so that a stored query looks up what it would otherwise
compute over every triple of a property:

- name keys: every name and other name of a skill in lower case (`pf:nameKey`). A stored query that finds a skill
  by name in any case looks its key up through the store's index instead of comparing every label in lower case
  (queries/works-using-skill-named.rq): its work is one lookup at any size of graph;
- list ranks: the place of every named thing in a list of things, key works first in their key order, then the
  other works by tier, then everything else (`pf:listRank`). A query ordering the neighbours of a thing reads each
  one's rank, instead of two OPTIONALs that Oxigraph evaluates as hash joins over every work's tier and key rank
  (queries/entity-neighbours.rq);
- dated spans: the days a work with no monthly activity counts as active (`pf:datedFrom`, `pf:datedUntil`): from
  its start to its end, else to its publication; a work of a kind dated once (`pf:datedOnce true` on the kind:
  writing, talks, papers) on its start alone; a work with neither that has a tier is still going and has no
  `pf:datedUntil`. A query over a period reads these two values instead of a MINUS over every month of activity
  and every work of a dated-once kind (queries/works-in-period.rq)."""

from __future__ import annotations

import rdflib
from rdflib.namespace import RDF, RDFS, SKOS

from service.queries import name_key
from service.vocab import PF

NAME_KEY = rdflib.URIRef(PF + "nameKey")
LIST_RANK = rdflib.URIRef(PF + "listRank")
DATED_FROM = rdflib.URIRef(PF + "datedFrom")
DATED_UNTIL = rdflib.URIRef(PF + "datedUntil")
_SKILL = rdflib.URIRef(PF + "Skill")
_TIER = rdflib.URIRef(PF + "tier")
_KEY_RANK = rdflib.URIRef(PF + "keyRank")
_DATED_ONCE = rdflib.URIRef(PF + "datedOnce")
_ACTIVE_MONTH = rdflib.URIRef(PF + "activeMonth")
_START, _END, _PUBLISHED = (rdflib.URIRef(PF + p) for p in ("startDate", "endDate", "published"))
NO_TIER, NO_KEY_RANK = 9, 1000  # a thing that is no work comes after every work; a work that is no key work, after
# every key work of its tier


def name_keys(*graphs: rdflib.Graph) -> rdflib.Graph:
    """The name keys of every skill the graphs type (stated or inferred) and name (rdfs:label, skos:altLabel)."""
    skills = {s for g in graphs for s in g.subjects(RDF.type, _SKILL)}
    keys = rdflib.Graph()
    for g in graphs:
        for p in (RDFS.label, SKOS.altLabel):
            for s, name in g.subject_objects(p):
                if s in skills and isinstance(name, rdflib.Literal):
                    keys.add((s, NAME_KEY, rdflib.Literal(name_key(str(name)))))
    return keys


def list_ranks(*graphs: rdflib.Graph) -> rdflib.Graph:
    """The list rank of every thing the graphs name with rdfs:label: tier × 10,000 + key rank, a thing with no
    tier as tier 9 and a work with no key rank as 1,000 (the order `COALESCE(?tier, 9) COALESCE(?keyRank, 1000)`)."""
    tiers: dict[rdflib.term.Node, int] = {}
    ranks: dict[rdflib.term.Node, int] = {}
    named: set[rdflib.term.Node] = set()
    for g in graphs:
        for s, value in g.subject_objects(_TIER):
            tiers[s] = int(value.toPython()) if isinstance(value, rdflib.Literal) else NO_TIER
        for s, value in g.subject_objects(_KEY_RANK):
            ranks[s] = int(value.toPython()) if isinstance(value, rdflib.Literal) else NO_KEY_RANK
        named.update(s for s in g.subjects(RDFS.label) if isinstance(s, rdflib.URIRef))
    out = rdflib.Graph()
    for s in named:
        rank = tiers.get(s, NO_TIER) * 10_000 + ranks.get(s, NO_KEY_RANK)
        out.add((s, LIST_RANK, rdflib.Literal(rank)))
    return out


def dated_spans(*graphs: rdflib.Graph) -> rdflib.Graph:
    """The dated span of every work with a start date and no monthly activity: `pf:datedFrom` its start;
    `pf:datedUntil` its end, else its publication, else its start when one of its kinds (stated or inferred) is
    dated once; none when it is still going (a work with a tier and none of these). A work with no tier and
    nothing to end it gets no span, as it is no work a list shows. A kind is dated once in the ontology or in the
    owner's own files."""
    once = {c for g in graphs for c, flag in g.subject_objects(_DATED_ONCE)
            if isinstance(flag, rdflib.Literal) and flag.toPython() is True}

    def first(p: rdflib.URIRef, s: rdflib.term.Node) -> rdflib.term.Node | None:
        return next((o for g in graphs for o in g.objects(s, p)), None)

    active = {s for g in graphs for s in g.subjects(_ACTIVE_MONTH)}
    out = rdflib.Graph()
    for s, start in {(s, o) for g in graphs for s, o in g.subject_objects(_START)}:
        if s in active:
            continue
        until = first(_END, s)
        if until is None:
            until = first(_PUBLISHED, s)
        if until is None and any(t in once for g in graphs for t in g.objects(s, RDF.type)):
            until = start
        if until is None and first(_TIER, s) is None:
            continue
        out.add((s, DATED_FROM, start))
        if until is not None:
            out.add((s, DATED_UNTIL, until))
    return out
