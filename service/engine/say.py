"""Sentence templates: the engine's answers in the engine language (a route's `say:`, messages.yaml), filled with
what a step found and the person's voice. An owner rewords any of them in their own folder.

    {works}            a value the step gives, or one of the voice's ({short}, {their}, {They}, {is} ...)
    {count|work|works} the number and the word that agrees with it: "1 work", "3 works"
    {count?uses|use}   the word that agrees with the number, without it: "uses", "use"
    {+year| in {year}} the words after `|` when the value is there and not empty, else nothing

The words inside `|` may hold fields of their own ("{count|{one}|{many}}"). A template that names a value the
step does not give is a mistake found by the tests, never shown: the field is left as written.
"""

from __future__ import annotations

from collections.abc import Mapping


def render(template: str, values: Mapping[str, object]) -> str:
    out: list[str] = []
    i = 0
    while i < len(template):
        c = template[i]
        if c != "{":
            out.append(c)
            i += 1
            continue
        end = _closing(template, i)
        if end < 0:
            out.append(template[i:])
            break
        out.append(_field(template[i + 1 : end], values))
        i = end + 1
    return "".join(out)


def _closing(text: str, start: int) -> int:
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _split(body: str) -> list[str]:
    """The arms of a field, split at the `|` outside nested fields."""
    parts, depth, last = [], 0, 0
    for j, c in enumerate(body):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(body[last:j])
            last = j + 1
    parts.append(body[last:])
    return parts


def _field(body: str, values: Mapping[str, object]) -> str:
    arms = _split(body)
    head = arms[0]
    if head.startswith("+") and len(arms) == 2:  # {+year| ({year})}: the words only when the value is there
        return render(arms[1], values) if values.get(head[1:]) not in (None, "") else ""
    if len(arms) == 1:
        return str(values[head]) if head in values else "{" + body + "}"
    name, bare = (head.split("?", 1)[0], True) if "?" in head else (head, False)
    first = head.split("?", 1)[1] if bare else None
    if name not in values:
        return "{" + body + "}"
    n = values[name]
    one, many = (first, arms[1]) if bare else (arms[1], arms[2] if len(arms) > 2 else arms[1])
    word = render(one if n == 1 else many, values)  # type: ignore[arg-type]
    return word if bare else f"{n} {word}"
