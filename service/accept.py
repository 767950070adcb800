"""Content negotiation: which offered media type an Accept header prefers.

The ranking is python-mimeparse's (RFC 9110 section 12.5.1): each offer takes the quality of the most specific
range that matches it (`text/csv;q=0` beats `text/*`, which beats `*/*`), the highest quality wins, and a tie
goes to the server's preference: the default first, then the offers in the order given. A header that cannot
be parsed as a whole is read range by range, and ranges that are not `type/subtype` are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import mimeparse


def _ranges(accept: str) -> list[str]:
    """The header's ranges that parse (an unparseable one would make the whole header fail)."""
    kept = []
    for part in accept.split(","):
        if not part.strip():
            continue
        try:
            mimeparse.parse_media_range(part)
        except ValueError:
            continue
        kept.append(part)
    return kept


def choose(accept: str, offers: Mapping[str, object] | Iterable[str], default: str) -> str | None:
    """The offered media type the Accept header prefers; the default when there is no header; None when the
    header accepts none of the offers (the caller answers 406)."""
    if not accept.strip():
        return default
    ranges = _ranges(accept)
    if not ranges:
        return None
    preferred = [default, *(m for m in offers if m != default)]
    # mimeparse breaks ties in favour of the later offer: most preferred last
    best: str = mimeparse.best_match(list(reversed(preferred)), ",".join(ranges))
    return best or None
