"""The verifier (main seed, Algorithm 8; the Kai seed): a model's answer is untrusted text, kept only when
every claim in it is found in the evidence its sentence cites. Not the question: a question is anyone's text (a
shared link carries one), and what only it says must not become the site's statement.

1. Citations: `[S2]`, `[S1, S3]`. A number that was not supplied is dropped; a sentence left without a
   valid citation is dropped (as the composer drops one); no sentence left: no answer.
2. Links: Markdown links, URLs and site paths the server did not supply are removed (the link text stays).
3. Claims, per sentence, looked up in the sources it cites (and the person's own names): catalog names (the
   graph's labels), numbers (two digits or more, years, durations), proper nouns, acronyms and technical tokens
   (dotted, camelCase, with digits or + #), and every ordinary content word, in some form or as a synonym of
   the site's lexicon, and a negation. Any absent: a problem.
4. A phone number, a birth date or an age is a problem wherever it came from.

Any problem, or no valid source left, and the answer is rejected: the plan abstains as it did before.
The known limits are in docs/MODEL.md.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from service.engine.engine import Engine
from service.fallback.evidence import Evidence, Item
from service.text import stem, terms, words
from service.vocab import PREFIXES

MAX_ANSWER = 1500  # characters
COMMON_ENGLISH = 20_000  # a capitalised word this common in English, first in a sentence, names nothing
DONT_KNOW = "I don't know that one"

_PREFIXED = re.compile(r"(?<![\w<])([A-Za-z][\w-]*):([A-Za-z_][\w-]*)")
_IRI = re.compile(r"<([^<>\s]+)>")
_CITE = re.compile(r"\[\s*(S\d+(?:\s*[,;]\s*S\d+)*)\s*\]|\((S\d+(?:\s*[,;]\s*S\d+)*)\)")
_SID = re.compile(r"S\d+")
_MD_LINK = re.compile(r"\[([^\]\n]{0,200})\]\(\s*([^)\s]{0,500})[^)]*\)")
_URL = re.compile(r"(?:https?|ftp|mailto|javascript|data|file):[^\s\])>\"']+|www\.[^\s\])>\"']+"
                  r"|(?<![\w/.])/(?:wiki|id|console|sparql|api|static|lab)/[^\s\])>\"']*", re.I)  # fmt: skip
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])|(?<=\])\s*(?=[A-Z\"“])")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#._/'’-]*[A-Za-z0-9+#]|[A-Za-z0-9]")
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_SMALL = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1}  # fmt: skip
_DURATION = re.compile(r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an?)"
                       r"[\s-]+(year|month|week|day|hour|minute|decade)s?\b", re.I)  # fmt: skip
_PHONE = re.compile(r"(?<!\w)\+?\(?\d[\d\s().\-/]{6,}\d(?!\w)")
_NOT_PHONE = re.compile(r"^\d{4}\s*[-–/]\s*\d{2,4}$|^\d{4}-\d{2}-\d{2}$")
_BIRTH = re.compile(r"\b(born|birth|birthday|birthdate|date of birth|d\.o\.b|dob|\d+\s*(?:years?|yrs?)[\s-]old|"
                    r"aged\s+\d+)\b", re.I)  # fmt: skip
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&]+s?$")
_TECH = re.compile(r"[._/+#]|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]")
_COMMON = {"yes", "no", "however", "also", "both", "there", "then", "today", "currently", "later", "earlier",
           "before", "after", "since", "during", "until", "while", "most", "many", "several", "each", "every",
           "one", "two", "three", "first", "second", "next", "last", "according", "based", "overall",
           # words about the sources rather than the world: what a sentence claims is in the words around them
           "portfolio", "site", "page", "list", "lists", "listed", "show", "shows", "shown", "say", "says", "said",
           "mention", "mentions", "mentioned", "describe", "describes", "described", "record", "records",
           "recorded", "include", "includes", "included", "count", "counts", "total", "result", "results",
           "source", "sources", "evidence", "passage", "article", "wiki", "graph"}  # fmt: skip


@dataclass
class Verdict:
    ok: bool
    text: str  # the checked answer, or DONT_KNOW
    cited: list[str] = field(default_factory=list)  # S-numbers the kept sentences cite, in order
    problems: list[str] = field(default_factory=list)
    dropped_citations: list[str] = field(default_factory=list)
    removed_links: list[str] = field(default_factory=list)
    dropped_sentences: int = 0


@dataclass(frozen=True)
class Names:
    """The graph's labels, looked up by their first word (folded)."""

    first: dict[str, list[tuple[tuple[str, ...], bool]]]  # word -> (label words, case matters)
    people: frozenset[str]  # the person's names and the site's, in lower case: always allowed
    common: frozenset[str]  # words a sentence may start with without naming anything
    english: Callable[[str], int]  # how common a word is in English (the speller's dictionary)

    @classmethod
    def of(cls, engine: Engine) -> Names:
        first: dict[str, list[tuple[tuple[str, ...], bool]]] = {}
        for e in engine.entities.values():
            for label in {e.label, e.display}:
                words = tuple(_WORD.findall(label))
                if not words or len(label) < 3:
                    continue
                cased = any(c.isupper() for c in label)
                first.setdefault(words[0].lower(), []).append((words, cased))
        people = {w.lower() for n in engine.voice.names for w in _WORD.findall(n)}
        people |= {w.lower() for w in _WORD.findall(str(engine.kb.site.name))}
        common = set(engine.stopwords) | set(engine.search_stopwords) | _COMMON | _FUNCTION
        return cls(first, frozenset(people), frozenset(common), engine.speller.english)


_names: dict[int, tuple[weakref.ref[Engine], Names]] = {}


def names_of(engine: Engine) -> Names:
    found = _names.get(id(engine))
    if found is None or found[0]() is not engine:
        found = (weakref.ref(engine), Names.of(engine))
        _names[id(engine)] = found
    return found[1]


class _Haystack:
    """What a sentence's claims may come from, in lower case: its tokens, stems, numbers, durations and text."""

    def __init__(self, texts: list[str], people: frozenset[str]) -> None:
        self.text = " ".join(" ".join(t.split()) for t in texts).lower()
        self.stems = set(terms(self.text))
        self.negates = any(w in _NEGATION or w.endswith("n't") for w in _WORD.findall(self.text.replace("’", "'")))
        self.words = {w.lower().strip("'’") for w in _WORD.findall(self.text)} | people
        self.words |= {w.rstrip("s") for w in self.words}
        self.numbers = {n.replace(",", "") for n in _NUMBER.findall(self.text)}
        self.durations = {_duration(m) for m in _DURATION.finditer(self.text)}

    def has_phrase(self, words: tuple[str, ...]) -> bool:
        pattern = r"(?<!\w)" + r"\W+".join(re.escape(w.lower()) for w in words) + r"(?!\w)"
        return re.search(pattern, self.text) is not None


def _duration(m: re.Match[str]) -> str:
    amount = m.group(1).lower()
    value = str(_SMALL[amount]) if amount in _SMALL else amount
    return f"{value} {m.group(2).lower()}"


def verify(content: object, evidence: Evidence, engine: Engine) -> Verdict:
    if not isinstance(content, str) or not content.strip():
        return Verdict(False, DONT_KNOW, problems=["no answer text"])
    text = content.strip()
    if len(text) > MAX_ANSWER:
        return Verdict(False, DONT_KNOW, problems=[f"longer than {MAX_ANSWER} characters"])
    if text.lower().startswith("i don't know") or text.lower().startswith("i do not know"):
        return Verdict(False, DONT_KNOW, problems=["the model did not know"])
    verdict = Verdict(False, DONT_KNOW)
    text = _strip_links(text, evidence.urls, verdict)
    names = names_of(engine)
    kept: list[str] = []
    for sentence in _SENTENCE.split(" ".join(text.split())):
        ids = [sid for m in _CITE.finditer(sentence) for sid in _SID.findall(m.group(0))]
        valid = list(dict.fromkeys(s for s in ids if evidence.get(s) is not None))
        verdict.dropped_citations += [s for s in ids if evidence.get(s) is None]
        bare = re.sub(r"\s+([.,;:!?])", r"\1", _CITE.sub("", sentence)).strip()
        if not bare:
            continue
        if not valid:
            verdict.dropped_sentences += 1
            continue
        sources = [item for s in valid if (item := evidence.get(s)) is not None]
        hay = _Haystack([f"{i.title} {i.text} {_named_classes(i, engine)}" for i in sources], names.people)
        verdict.problems += _private(bare) + _claims(bare, hay, names) + _ordinary(bare, hay, names, engine.synonyms)
        kept.append(f"{bare} [{', '.join(valid)}]")
        verdict.cited += [s for s in valid if s not in verdict.cited]
    if not kept:
        verdict.problems.append("no sentence with a valid source")
    if verdict.problems:
        return verdict
    verdict.ok, verdict.text = True, " ".join(kept)
    return verdict


def _named_classes(item: Item, engine: Engine) -> str:
    """For a SPARQL result, the names of the classes its query asks for ("pf:Work": work, works): what its rows
    are. Nothing else of the query's text, which the model wrote, counts as evidence."""
    if item.kind != "graph" or not item.ref.startswith("sparql:"):
        return ""
    named = {PREFIXES[p] + local for p, local in _PREFIXED.findall(item.ref) if p in PREFIXES}
    named |= set(_IRI.findall(item.ref))
    return " ".join(" ".join(engine.class_labels[iri]) for iri in named if iri in engine.class_labels)


def _strip_links(text: str, supplied: set[str], verdict: Verdict) -> str:
    def markdown(m: re.Match[str]) -> str:
        if m.group(2) not in supplied:
            verdict.removed_links.append(m.group(2))
        return m.group(1)

    def bare(m: re.Match[str]) -> str:
        url = m.group(0).rstrip(".,;:!?")
        if url in supplied:
            return m.group(0)
        verdict.removed_links.append(url)
        return m.group(0)[len(url) :]

    return _URL.sub(bare, _MD_LINK.sub(markdown, text))


def _private(sentence: str) -> list[str]:
    problems = []
    for m in _PHONE.finditer(sentence):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 8 and not _NOT_PHONE.match(m.group(0).strip()):
            problems.append(f"a phone number ({m.group(0).strip()})")
    if _BIRTH.search(sentence):
        problems.append(f"a birth date or age ({_BIRTH.search(sentence).group(0)})")  # type: ignore[union-attr]
    return problems


def _claims(sentence: str, hay: _Haystack, names: Names) -> list[str]:
    problems: list[str] = []
    for m in _NUMBER.finditer(sentence):
        n = m.group(0).rstrip(".,").replace(",", "")
        if len(re.sub(r"\D", "", n)) >= 2 and n not in hay.numbers:
            problems.append(f"the number {m.group(0).rstrip('.,')} is not in the evidence")
    for m in _DURATION.finditer(sentence):
        if _duration(m) not in hay.durations and not (m.group(1).isdigit() and len(m.group(1)) >= 2):
            problems.append(f"the duration “{m.group(0)}” is not in the evidence")
    tokens = _WORD.findall(sentence)
    for at, token in enumerate(tokens):
        for label, cased in names.first.get(token.lower(), ()):
            got = tuple(tokens[at : at + len(label)])
            same = got == label if cased else tuple(w.lower() for w in got) == tuple(w.lower() for w in label)
            if same and not hay.has_phrase(label):
                problems.append(f"the name “{' '.join(label)}” is not in the evidence")
        word = token.strip("'’").removesuffix("'s").removesuffix("’s")
        low = word.lower()
        if _TECH.search(word) and not word.replace(".", "").isdigit() and not _NUMBER.fullmatch(word):
            if low not in hay.text:
                problems.append(f"the technical term “{word}” is not in the evidence")
        elif _ACRONYM.match(word) and sum(c.isupper() for c in word) >= 2:
            if low not in hay.words and low.rstrip("s") not in hay.words:
                problems.append(f"the acronym “{word}” is not in the evidence")
        elif word[:1].isupper() and word[1:].islower() and len(word) > 1:
            if at == 0 and (low in names.common or names.english(low) >= COMMON_ENGLISH):
                continue
            if low not in hay.words and low not in _FUNCTION:
                problems.append(f"the name “{word}” is not in the evidence")
    return list(dict.fromkeys(problems))


def _ordinary(sentence: str, hay: _Haystack, names: Names, synonyms: dict[str, set[str]]) -> list[str]:
    """Claims in ordinary words ("she sold the project and was sued"): every content word of the sentence must
    be in the sources it cites, as it is or in another form (stem), or as a synonym the site's lexicon gives;
    and a negation must be in them too. Function words, the person's names and the site's stop words carry no
    claim of their own."""
    problems = []
    for token in _WORD.findall(sentence.replace("’", "'")):
        low = token.lower()
        if low in _NEGATION or low.endswith("n't"):
            if not hay.negates:
                problems.append(f"the negation “{token}” is not in the evidence")
            continue
        for word in words(low):
            if len(word) < 3 or not word.isalpha() or word in names.common or word in names.people:
                continue
            base = stem(word)
            if base not in hay.stems and not synonyms.get(base, set()) & hay.stems:
                problems.append(f"the word “{word}” is not in the evidence")
    return list(dict.fromkeys(problems))


_NEGATION = {"not", "never", "no", "none", "nothing", "neither", "nor", "without", "nobody", "nowhere", "cannot"}
_FUNCTION = {"the", "a", "an", "this", "that", "these", "those", "it", "its", "he", "she", "they", "his", "her",
             "their", "them", "in", "on", "at", "for", "from", "with", "by", "of", "to", "as", "and", "but", "or",
             "if", "when", "where", "which", "who", "what", "how", "why", "there", "here", "i", "we", "you", "some",
             "all", "any", "no", "not", "is", "was", "are", "were", "be", "has", "had", "have", "xe",
             "between", "over", "under", "about", "into", "through", "across", "among", "within"}  # fmt: skip
