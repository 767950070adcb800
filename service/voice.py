"""How the engine speaks of the person, and how the person is named in the engine's phrases.

site.yaml says who the portfolio is about: `person_name` (as written), `short_name` and `pronoun` (she, he,
they, or a mapping of its five forms). Missing fields default to the person's graph label, its short label
(or first word) and "they". Messages use `{short}`, `{They}`, `{their}` ... (str.format); the engine's cue
phrases use `$they`, `$them`, `$their`, `$theirs`, `$themselves` and `$person`, each standing for every
pronoun and every name of the person, so "where did $they work" also reads "where did he work", "where do
they work" and "where did Ada work", whatever pronoun the owner chose.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from service.text import words


@dataclass(frozen=True)
class Pronoun:
    subject: str
    obj: str  # the object form ("him")
    possessive: str
    possessive_pronoun: str
    reflexive: str
    plural: bool = False  # takes "do", "are", "were", "have" ("they are")

    @classmethod
    def of(cls, spec: Any) -> Pronoun:
        """site.yaml's `pronoun:`: she, he or they, or a mapping of the five forms (and `plural`)."""
        if isinstance(spec, Mapping):
            s, o, p, pp, r = (str(spec.get(k, "")).strip().lower() for k in _FORMS)
            if all((s, o, p, pp, r)):
                return cls(s, o, p, pp, r, plural=bool(spec.get("plural", False)))
        return PRONOUNS.get(str(spec or "they").strip().lower(), PRONOUNS["they"])


_FORMS = ("subject", "object", "possessive", "possessive_pronoun", "reflexive")
PRONOUNS = {
    "she": Pronoun("she", "her", "her", "hers", "herself"),
    "he": Pronoun("he", "him", "his", "his", "himself"),
    "they": Pronoun("they", "them", "their", "theirs", "themselves", plural=True),
}
# a verb next to a plural subject: "does they" -> "do they", "they works" -> "they work"
_BEFORE = {"does": "do", "is": "are", "was": "were", "has": "have", "doesn": "don", "isn": "aren", "wasn": "weren",
           "hasn": "haven"}  # fmt: skip
_AFTER = {"does": "do", "is": "are", "was": "were", "has": "have", "works": "work", "lives": "live",
          "knows": "know", "uses": "use", "makes": "make", "builds": "build", "likes": "like", "thinks": "think",
          "studies": "study"}  # fmt: skip
_PLACEHOLDER = re.compile(r"\$(they|them|their|theirs|themselves|person|short|name)\b")


@dataclass(frozen=True)
class Voice:
    name: str  # the person's name as written ("Ada Byte")
    short: str  # the name used in running text ("Ada")
    pronoun: Pronoun
    names: tuple[str, ...]  # every name of the person a visitor may type, folded words joined by spaces
    email: str = ""
    site: str = ""

    @classmethod
    def of(
        cls,
        site: Mapping[str, Any],
        label: str,
        short_label: str | None = None,
        other_names: Iterable[str] = (),
    ) -> Voice:
        name = str(site.get("person_name") or label).strip()
        short = str(site.get("short_name") or short_label or name.split()[0]).strip()
        forms = {name, short, label, *(n for n in other_names if n)}
        parts = name.split()
        if len(parts) > 1:
            forms |= {parts[0], parts[-1]}
        names = tuple(sorted({" ".join(words(f)) for f in forms if words(f)}, key=lambda n: (-len(n), n)))
        return cls(name, short, Pronoun.of(site.get("pronoun")), names, str(site.get("contact_email") or ""),
                   str(site.get("name") or ""))  # fmt: skip

    # -- speaking --------------------------------------------------------------------------

    @cached_property
    def f(self) -> dict[str, str]:
        """The fields messages use, for f-strings: `v.f['Their']`."""
        return self.fields()

    def fields(self) -> dict[str, str]:
        p = self.pronoun
        out = {"name": self.name, "short": self.short, "they": p.subject, "them": p.obj, "their": p.possessive,
               "theirs": p.possessive_pronoun, "themselves": p.reflexive, "email": self.email, "site": self.site,
               "is": "are" if p.plural else "is", "was": "were" if p.plural else "was",
               "has": "have" if p.plural else "has", "does": "do" if p.plural else "does"}  # fmt: skip
        for key in ("they", "them", "their", "theirs", "themselves"):
            out[key.capitalize()] = out[key][:1].upper() + out[key][1:]
        return out

    def say(self, template: str, **values: object) -> str:
        """A message template filled: `{short}`, `{They}`, `{their}`, `{email}` and the values given. A name it
        does not know stays as written, and braces that are no template leave the text as it is."""
        try:
            return template.format_map(_Fields(self.f | {k: str(v) for k, v in values.items()}))
        except (ValueError, IndexError):
            return template

    # -- understanding ------------------------------------------------------------------------

    def _alternatives(self, slot: str) -> list[tuple[str, bool]]:
        """What a placeholder may stand for, each with whether it is a plural subject."""
        if slot == "short":
            return [(self.short.lower(), False)]
        if slot == "name":
            return [(self.name.lower(), False)]
        names = [(n, False) for n in self.names]
        if slot == "person":
            return names
        attr = {"they": "subject", "them": "obj", "their": "possessive", "theirs": "possessive_pronoun",
                "themselves": "reflexive"}[slot]  # fmt: skip
        pronouns = dict.fromkeys([*PRONOUNS.values(), self.pronoun])
        out = [(getattr(p, attr), p.plural and slot == "they") for p in pronouns]
        if slot == "their":
            out += [(f"{n} s", False) for n, _ in names]
        if slot == "themselves":
            out.append(("themself", False))
        return out + (names if slot in ("they", "them", "their") else [])

    def expand(self, phrase: str) -> list[str]:
        """Every reading of a phrase with placeholders ("where does $they work"), in lower case."""
        slots = _PLACEHOLDER.findall(phrase)
        if not slots:
            return [phrase]
        out: list[str] = []
        pieces = _PLACEHOLDER.split(phrase)  # text, slot, text, slot, ..., text
        alone = len(slots) == 1 and not pieces[0].strip() and not pieces[2].strip()  # a word of a word list
        options = [[(v, p) for v, p in self._alternatives(s) if not (alone and " " in v and s != "person")]
                   for s in slots]  # fmt: skip
        for choice in itertools.product(*options):
            for agree in (False, True) if any(plural for _, plural in choice) else (False,):
                text = pieces[0]
                for n, (value, plural) in enumerate(choice):
                    after = pieces[2 * n + 2]
                    if plural and agree:  # "where does $they work" also reads "where do they work"
                        text, after = _agree_before(text), _agree_after(after)
                    text += value + after
                out.append(text)
        return list(dict.fromkeys(" ".join(o.split()) for o in out))

    def expand_all(self, doc: Any) -> Any:
        """A language document with every list of phrases expanded (and single strings filled)."""
        if isinstance(doc, list):
            return [x for item in doc
                    for x in (self.expand(item) if isinstance(item, str) else [self.expand_all(item)])]  # fmt: skip
        if isinstance(doc, dict):
            return {k: self.expand_all(v) for k, v in doc.items()}
        if isinstance(doc, str) and "$" in doc:
            return self.expand(doc)[0]
        return doc


class _Fields(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _agree_before(text: str) -> str:
    head, _, last = text.rstrip().rpartition(" ")
    if last in _BEFORE:
        return f"{head} {_BEFORE[last]} ".lstrip()
    return text


def _agree_after(text: str) -> str:
    first, sep, rest = text.lstrip().partition(" ")
    if first in _AFTER:
        return f" {_AFTER[first]}{sep}{rest}"
    return text
