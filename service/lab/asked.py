"""One question put to the lab: its search words, and what every technique needs to answer it."""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.engine import Engine
from service.lab.corpus import Corpus, Piece
from service.lab.model import Hit
from service.lab.tuning import Tuning


@dataclass
class Asked:
    question: str
    words: tuple[str, ...]  # stemmed search words, without stop words: what plain search looks for
    engine: Engine
    corpus: Corpus
    tuning: Tuning

    def passage_hit(self, doc: int, score: float, why: str, ranks: tuple[tuple[int, int], ...] = ()) -> Hit:
        p = self.corpus.docs[doc]
        return Hit(p.article, p.title, p.heading, p.text, score, why, (p.id,), ranks=ranks)

    @staticmethod
    def piece_hit(piece: Piece, score: float, why: str, label: str = "") -> Hit:
        return Hit(piece.article, piece.title, piece.heading, piece.text, score, why, piece.passages, label)
