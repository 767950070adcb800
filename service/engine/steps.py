"""The named steps a route declaration's ways run (service/language/declarations.py STEPS): reusable readers of
the analysed question and the graph, each answering one kind of question or passing. A step answers by drafting
sentences and setting the route it answers as; it passes by returning False."""

from __future__ import annotations

from collections.abc import Callable

from service.engine import about, career, generic, lists, refuse, relations, routes, texts
from service.engine.state import State

Step = Callable[[State], bool]

STEPS: dict[str, Step] = {
    "refuse.private": refuse.private,
    "refuse.opinion": refuse.opinion,
    "refuse.out_of_scope": refuse.out_of_scope,
    "refuse.unnamed_opinion": refuse.unnamed_opinion,
    "refuse.thing_alone": refuse.thing_alone,
    "refuse.unpublished": refuse.unpublished,
    "refuse.third_party": refuse.third_party,
    "refuse.everyday": refuse.everyday,
    "routes.ambiguous": routes.ambiguous,
    "lists.pivot": lists.pivot,
    "lists.comparison": lists.comparison,
    "career.place_of": career.place_of,
    "career.events_in_place": career.events_in_place,
    "career.career": career.career,
    "relations.dates": relations.dates,
    "lists.count": lists.count,
    "relations.relation": relations.relation,
    "relations.fact": relations.fact,
    "relations.of_kind": relations.of_kind,
    "lists.ongoing": lists.ongoing,
    "lists.role_named": lists.role_named,
    "lists.period": lists.period,
    "texts.described_work": texts.described_work,
    "texts.described_skills": texts.described_skills,
    "lists.class_list": lists.class_list,
    "about.authored_answer": about.authored_answer,
    "about.contact_or_recent": about.contact_or_recent,
    "about.answer_of_route": about.answer_of_route,
    "texts.define": texts.define,
    "texts.lexicon_definition": texts.lexicon_definition,
    "texts.explain": texts.explain,
    "lists.with_all": lists.with_all,
    "lists.concept_works": lists.concept_works,
    "about.person_named": about.person_named,
    "relations.described_neighbour": relations.described_neighbour,
    "routes.entity_answer": routes.entity_answer,
    "lists.all_works": lists.all_works,
    "texts.top_passage": texts.top_passage,
    "texts.named_work_passage": texts.named_work_passage,
    "lists.works_filtered": lists.works_filtered,
    "graph.list": generic.listed,
}
