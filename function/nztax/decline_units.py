"""Decline units: a question another body answers, read by its meaning against the answer units.

In: `data/decline_units.yaml` (general questions of a category, each under the subject it is declined
to: employment law, Inland Revenue's own procedure, another country's tax by the concepts only its
system has), the engine (its query embedder and unit matcher), a settled decision, its frame and the
question's vector. Out: `overrule(...)` -> the decision, declined to that subject when the question
reads as a decline unit.

A question the engine would answer with a fact, a topic or an ask-back (never a sum it works out or
a rule it works on stated figures, a refusal or a decline already) is declined when the question, or one of its asking sentences, is at
least `decline_unit_score` near a decline unit's wording and nearer it by `decline_unit_margin` than
any answer unit's wording (no reading compared: the nearest unit's cosine, as the decline's is); an
asking sentence read as another tax system's concept (`another_system`) in a post that places itself
nowhere in New Zealand's system (tax_place.py) needs only to be nearer, the two readings agreeing. A
post is read whole only when none of its asking sentences reads as an answer unit's question: "My
employer never gave me payslips. How can I check the PAYE taken?" asks a tax question in a story about pay.
Except a post placed nowhere in New Zealand's system whose whole telling reads as another system's concept:
its asking sentence may be any tax question (whether tax is owed on a payment), the story says whose tax it is,
and the two readings (the place and the concept) agree, so that whole reading need only lead.
The answer units are the competition: a tax question about the same payment or home stands nearer
its own unit, so only a question nearer the other body's subject than any New Zealand tax rule we
answer is turned away. The trace's row is `decline_unit_nearer`, with the wording it read as.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from nztax.decision_rows import table
from nztax.frame import note_opened
from nztax.tax_place import placed_in_new_zealand
from nztax.yaml_data import load_yaml

DATA_FILE = Path(__file__).parent / "data" / "decline_units.yaml"
# The engine's answers a decline unit may overrule: a topic's lead, a retrieved sentence, an ask-back.
OVERRULED = frozenset({"fact", "topic", "clarify"})
ROW = "decline_unit_nearer"


@dataclass(frozen=True)
class DeclineReading:
    subject: str
    wording: str      # the decline unit's wording the text is nearest
    text: str         # the question or the asking sentence read so
    score: float      # its cosine to that wording
    unit_score: float  # its cosine to the nearest answer unit's wording


class DeclineUnits:
    def __init__(self, rows: list[tuple[str, str]], vectors: np.ndarray, another_system: frozenset[str] = frozenset()):
        self.rows, self.vectors, self.another_system = rows, vectors, another_system

    @classmethod
    def load(cls, embed, path: Path = DATA_FILE) -> "DeclineUnits":
        data = load_yaml(path.read_text(encoding="utf-8")) or {}
        subjects = data.get("subjects") or {}
        another_system = frozenset(data.get("another_system") or ())
        known = table().scopes
        unknown = sorted((set(subjects) | another_system) - set(known))
        if unknown:
            raise ValueError(f"{path.name}: subject(s) {unknown} are not scopes in decisions.yaml")
        rows = [(subject, " ".join(str(q).split())) for subject, wordings in subjects.items() for q in wordings or ()]
        vectors = np.stack([np.asarray(embed(q), dtype=np.float32) for _, q in rows]) if rows else np.zeros((0, 1), np.float32)
        return cls(rows, vectors, another_system)

    def reading(self, text: str, vector, unit_cosines) -> DeclineReading | None:
        """The decline unit `text` (with its vector) is nearest, with that cosine and the nearest answer unit's."""
        if vector is None or not self.rows:
            return None
        vector = np.asarray(vector, dtype=np.float32)
        cosines = self.vectors @ vector
        row = int(np.argmax(cosines))
        units = unit_cosines(vector)
        return DeclineReading(self.rows[row][0], self.rows[row][1], text, float(cosines[row]),
                              float(np.max(units)) if units.size else -1.0)

    def read(self, asked: list[tuple[str, object]], unit_cosines, score: float, margin: float,
             whole: tuple[str, object] | None = None, unplaced: bool = False) -> DeclineReading | None:
        """The reading of whichever asking text (with its vector) leads its nearest answer unit by the most,
        when it is at least `score` near a decline unit and leads by at least `margin`. The `whole` post
        is read too unless one of its asking sentences reads as an answer unit's question (at least
        `score` near it, and nearer than to any decline unit), and then needs twice the margin: a post
        asking a tax question of its own is not declined for the story around it, while one whose
        asking sentence names nothing ("Do I have to let them in?") is read with the story naming it.
        `unplaced`: the post places itself nowhere in New Zealand's system, so an asking sentence read as
        another system's concept need only lead (by more than nothing), and so does the whole post read so,
        whatever its asking sentences read as."""
        readings = [(r, 0.0 if unplaced and r.subject in self.another_system else margin)
                    for r in (self.reading(t, v, unit_cosines) for t, v in asked) if r is not None]
        read_whole = None if whole is None else self.reading(*whole, unit_cosines)
        if read_whole is not None and unplaced and read_whole.subject in self.another_system:
            # (A post placed nowhere in New Zealand's system whose whole telling is another system's concept:
            # the two readings agree on the post as a whole, however its asking sentences read on their own;
            # a question whether tax is owed reads as a unit's question, and the story says whose tax.)
            readings.append((read_whole, 0.0))
        elif read_whole is not None and not any(r.unit_score >= max(score, r.score) for r, _ in readings):
            # (A story read whole carries its telling too: twice the margin, as a unit over a decline needs.)
            readings.append((read_whole, 2 * margin))
        kept = [r for r, lead in readings if r.score >= score and r.score - r.unit_score >= lead and r.score > r.unit_score]
        return max(kept, key=lambda r: r.score - r.unit_score, default=None)


def of(engine) -> DeclineUnits | None:
    """The engine's decline units with their wordings embedded: stored with the engine parts at build
    (engine_parts.py), so no first question pays for embedding them; built here when the parts were not
    (two threads building at once build the same thing). None while no index is published."""
    from nztax.engine import MissingIndex  # (engine.py imports this module)

    if engine.embedder is None or isinstance(engine.retriever, MissingIndex):
        return None
    units = getattr(engine, "_decline_units", None)
    if units is None:
        units = engine._decline_units = DeclineUnits.load(engine.retriever.embed_query)
    return units


def overrule(engine, decision, frame, vector, mode: str = "offline"):
    """`decision`, declined to a decline unit's subject when the question or an asking sentence reads
    as that unit (module docstring); otherwise unchanged. Offline only: in LLM mode the model reads
    the subject (its recorded exchanges were made without decline units)."""
    if (mode != "offline" or decision.action not in OVERRULED or decision.calls or decision.rule_results
            or decision.used_history or frame is None):
        return decision
    matcher = engine.unit_matcher
    units = of(engine)
    if matcher.vectors is None or units is None:
        return decision  # (no index published: the search that follows answers 503)
    # A post is read by what it asks (a sentence leaning on its story with the opening joined: leaning.py),
    # not by its story: "My employer never gave me payslips." tells, "How can I check the PAYE taken?" asks.
    asked = [frame.read_as(s) for s in frame.asking if s != decision.question]
    found = units.read([(s, engine.retriever.embed_query(s)) for s in asked] or [(decision.question, vector)],
                       matcher.unit_cosines, engine.settings.decline_unit_score, engine.settings.decline_unit_margin,
                       (decision.question, vector) if asked else None,
                       not placed_in_new_zealand(decision.question, frame.conditions, engine.speller.knows, ""))
    if found is None:
        return decision
    if decision.trace is not None:
        decision.trace.rows.append(ROW)
        decision.trace.action = "decline"
        note_opened(decision.trace, "decline_unit", repr(found.wording),
                    f"read as the decline unit {found.wording!r} ({found.score:.2f}, the nearest answer "
                    f"unit {found.unit_score:.2f}): {found.text[:80]!r}")
    return replace(decision, action="decline", calls=[], decline_to=table().scopes[found.subject])
