"""Steps that answer from a route declaration alone: a new kind of question is one stored query and one
declaration (docs/ROUTES.md), no Python."""

from __future__ import annotations

from datetime import date

from service.engine.routes import answer_limit, day, names, when
from service.engine.state import State
from service.queries import Cell
from service.vocab import XSD


def listed(st: State) -> bool:
    """`graph.list`: the rows of the declaration's `list` query, each named by its first column that holds a thing
    of the graph (by its label) or, failing that, by its first value, said as the declaration's `say.some`
    ("{count|award|awards}: {items}."), or its `say.none` when there are no rows (without one the step passes).
    With a `say.item` template each row is said by it from its columns ("{award}{+year| ({year})}"), a date as
    "4 October 2025"; a single row is said by `say.one` from its columns when the declaration has one.
    `{period}` is the period the question names ("between 1 January 2023 and 31 December 2023"), empty when it
    names none; `{latest}` is 1 when it asks for the latest ("the most recent one"), else 0; `{named}` the first
    thing the question names ("her book"), empty when it names none; `{kinds}` the kind it names, in the plural
    ("plants"). Passes when the question does not give a value the query needs."""
    assert st.way is not None
    route = st.way.route
    run = st.query("list")
    if run is None:
        return False
    column = next((c for c in run.columns if any(c in r and r[c].kind == "iri" for r in run.rows)), None)
    column = column or (run.columns[0] if run.columns else "")
    cells = [r[column] for r in run.rows if column in r]
    say = st.engine.declarations[route].say
    if "item" in say:  # each row said by the declaration's `item` template
        shown = list(dict.fromkeys(
            st.engine.sentence(f"{route}.item", **{k: _shown(v) for k, v in r.items()})
            for r in run.rows if column in r
        ))  # fmt: skip
    else:
        shown = list(dict.fromkeys(c.label or c.value for c in cells))
    if not shown and "none" not in say:
        st.plan.sparql.pop()  # read for nothing: no `say.none`, so with no rows the next way answers
        return False
    st.plan.route = route
    st.exact = True
    st.listed = list(dict.fromkeys(c.value for c in cells if c.kind == "iri" and c.value in st.engine.entities))
    if len(st.listed) == 1 and st.q.period is not None:
        # the rows of one thing in a period (the times a workshop was given in 2023): it, then each row's own
        after = next((c for c in run.columns[run.columns.index(column) + 1 :]
                      if any(c in r and r[c].kind == "iri" for r in run.rows)), None)  # fmt: skip
        st.listed += [v for r in run.rows if after and after in r and (v := r[after].value) in st.engine.entities]
    ref = st.read_query(run, ", ".join(shown[:10]) or "0 rows")
    period = when(st, st.q.period.start, st.q.period.end) if st.q.period is not None else ""
    latest = int(st.q.has("last"))
    named = next((e.display for e in st.q.entities if e.kind != "person"), "")
    kinds = st.engine.class_labels[st.q.class_named[0]][1].lower() if st.q.class_named else ""
    rows = [r for r in run.rows if column in r]
    if len(rows) == 1 and "one" in say:  # one row, said whole by `say.one` from its columns
        st.tell(f"{route}.one", ref, named=named, **{k: _shown(v) for k, v in rows[0].items()})
    elif shown:
        st.tell(f"{route}.some", ref, count=len(shown), items=names(shown, answer_limit(st)), period=period,
                latest=latest, named=named, kinds=kinds)  # fmt: skip
    else:
        st.tell(f"{route}.none", ref, period=period, latest=latest, named=named, kinds=kinds)
    return True


def _shown(cell: Cell) -> str:
    """A cell as an answer says it: a thing by its label, a date as "4 October 2025", anything else as it is."""
    if cell.label:
        return cell.label
    if cell.datatype == XSD + "date":
        return day(date.fromisoformat(cell.value[:10]))
    return cell.value
