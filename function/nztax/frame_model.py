"""Learned readings for the question frame: what a sentence asks, what a question is about, and each
amount's kind and owner.

In: the labelled examples in `data/frame_examples.yaml` and an embedder (the shipped query embedder).
Out: `FrameModel`, four small multinomial logistic regressions (numpy), each over the embedder's
vector of a piece of text plus hashed words around it. Trained deterministically (zero start, full
batch, fixed steps), so the same examples and embedder give the same weights; `save` writes them
beside the index at build time (`MODEL_FILE`), `load_or_train` reads them at query time and trains
on the fly when they are missing or were made from other examples or another embedder.

    model = FrameModel.train(embedder)
    model.asks(["why is my tax so high?"])              # [('why', 0.93)]
    model.amount_readings("my payslip shows $9,200 of PAYE", [(17, 23)])
    # [(('tax_withheld', 0.8), ('me', 0.9), {'tax_withheld': 0.8, 'income': 0.1, ...})]
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from nztax.yaml_data import load_yaml
from nztax.literal_screen import screen_patterns

log = logging.getLogger("nztax.frame_model")

EXAMPLES_FILE = Path(__file__).parent / "data" / "frame_examples.yaml"
MODEL_FILE = "frame_model.npz"
HASH_DIMS = 256            # hashed word features per reading
WINDOW_WORDS = 6           # words either side of an amount that describe it
STEPS = 300                # gradient steps (full batch)
# Scope has the most classes over the fewest examples each, and at 300 steps it had not settled: the
# examples themselves were read little better than out of fold (scope out of fold on the same
# examples: 300 steps 0.795, 600 0.806, 1000 0.817).
READING_STEPS = {"scope": 1000}
LEARNING_RATE = 0.5
L2 = 1e-3
READINGS = ("asks", "scope", "kind", "owner")
IN_SCOPE = "nz_tax"          # the scope class that is New Zealand personal income tax
# How much each part of the features weighs, per reading: the embedder's unit-length vector is scaled
# up so that the meaning is not outweighed by the hashed words (out-of-fold accuracy on the examples,
# 5 folds: scope 0.47 -> 0.76, asks 0.71 -> 0.93, kind 0.72 -> 0.76, owner 0.84 -> 0.89). What a
# question is about is read from its meaning alone: hashed words made scope a matter of keywords.
# Scope at weight 3, not 6: at 6 it read short payroll and KiwiSaver-rate questions as employment law
# or KiwiSaver scheme rules at over 0.8 (0.747 out of fold at 3 against 0.759 at 6).
VECTOR_WEIGHT = {"asks": 6.0, "scope": 3.0, "amount": 3.0}
WORDS_WEIGHT = {"asks": 1.0, "scope": 0.0, "amount": 1.0}
FORMAT = 4                 # 4: scope trained longer; 3: weighted features (a stored model of another format is retrained)
# Models trained in this process, by (embedder id, examples digest): training is deterministic, so
# an engine, an index build and a test in one process share one.
_TRAINED: dict[tuple, dict] = {}
MARKUP = re.compile(r"\[([^\]|]+)\|(\w+)\|(\w+)\]")
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\$|%", re.I)
CLAUSE_BREAK = re.compile(r"[.,;:!?()]|\b(?:and|but|while|whereas|whilst|plus)\b", re.I)
SENTENCE_END = re.compile(r"(?<!\d)[.!?]+(?=\s|$)|(?<=\d)[.!?]+(?=\s+[A-Z]|$)|[!?]+")
NUMBER = re.compile(r"[$€£]?\s?\d[\d,. ]*(?:k|m|mil)?\b%?", re.I)


def _hash(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) % HASH_DIMS


def _hashed(tokens: list[str]) -> np.ndarray:
    out = np.zeros(HASH_DIMS, dtype=np.float32)
    for t in tokens:
        out[_hash(t)] = 1.0
    return out


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def sentence_tokens(text: str) -> list[str]:
    """Words, word pairs and the opening words of a sentence (how a question opens says what it asks)."""
    ws = words(NUMBER.sub(" NUM ", text))
    return ([*ws, *(f"{a}_{b}" for a, b in zip(ws, ws[1:])), *(f"F:{w}" for w in ws[:3]),
             *(f"F2:{a}_{b}" for a, b in zip(ws[:3], ws[1:4]))])


def amount_window(text: str, start: int, end: int) -> tuple[str, list[str]]:
    """The words around an amount (the amount itself left out, other numbers as NUM), and its lexical
    tokens: each side's words marked by side and nearness."""
    # Only the amount's own sentence describes it: a next sentence that asks is the question, not a label.
    before, after = SENTENCE_END.split(text[:start])[-1], SENTENCE_END.split(text[end:])[0]
    left = words(NUMBER.sub(" NUM ", before))[-WINDOW_WORDS:]
    right = words(NUMBER.sub(" NUM ", after))[:WINDOW_WORDS]
    itself = text[start:end]
    # The amount's own clause, back to the last break: of two people's incomes joined by "and", the
    # second amount's clause names only its own earner.
    clause = words(CLAUSE_BREAK.split(NUMBER.sub(" NUM ", text[max(0, start - 120):start]))[-1])[-WINDOW_WORDS:]
    tokens = [*(f"L:{w}" for w in left), *(f"R:{w}" for w in right), *(f"L1:{w}" for w in left[-2:]),
              *(f"R1:{w}" for w in right[:2]), *(f"C:{w}" for w in clause)]
    if "%" in itself:
        tokens.append("IS:percent")
    if re.search(r"\d\.\d\d\b", itself):
        tokens.append("IS:cents")
    return " ".join([*left, "amount", *right]), tokens


@dataclass
class Softmax:
    """One multinomial logistic regression: weights (features × classes) and its class names."""

    classes: tuple[str, ...]
    weights: np.ndarray
    bias: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray, labels: list[str], steps: int = STEPS) -> "Softmax":
        classes = tuple(sorted(set(labels)))
        y = np.zeros((len(labels), len(classes)), dtype=np.float32)
        for i, label in enumerate(labels):
            y[i, classes.index(label)] = 1.0
        x = x.astype(np.float32)
        w = np.zeros((x.shape[1], len(classes)), dtype=np.float32)
        b = np.zeros(len(classes), dtype=np.float32)
        # Classes weighted by the inverse square root of their size: a small class is not drowned out,
        # nor read everywhere.
        per_class = 1.0 / np.sqrt(y.sum(axis=0, keepdims=True))
        weight = (y * per_class).sum(axis=1, keepdims=True)
        weight = (weight * len(labels) / weight.sum()).astype(np.float32)
        for _ in range(steps):
            p = _softmax(x @ w + b)
            g = (p - y) * weight / len(labels)
            w -= LEARNING_RATE * (x.T @ g + L2 * w)
            b -= LEARNING_RATE * g.sum(axis=0)
        return cls(classes, w, b)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        return _softmax((x.astype(np.float32) @ self.weights + self.bias)[None, :])[0]

    def predict(self, x: np.ndarray) -> tuple[str, float]:
        p = self.probabilities(x)
        best = int(np.argmax(p))
        return self.classes[best], float(p[best])


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@lru_cache(maxsize=1)
def examples_text() -> str:
    return EXAMPLES_FILE.read_text(encoding="utf-8")


def examples_digest() -> str:
    """What a trained model was made from: the example file."""
    return hashlib.sha256(examples_text().encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Example:
    """One training text and its label."""

    text: str
    label: str


class AmountExample(NamedTuple):
    """One labelled amount of an example line (`group`: the line, so a fold keeps a line's amounts together)."""

    text: str
    start: int
    end: int
    kind: str
    owner: str
    group: int


@lru_cache(maxsize=1)
def _example_file() -> dict:
    """The examples, parsed once (every reading is trained from them)."""
    return load_yaml(examples_text())


def sentence_examples(name: str) -> list[Example]:
    """The examples of a sentence reading ("asks", "scope")."""
    return [Example(text, label) for label, texts in _example_file()[name].items() for text in texts]


def amount_examples() -> list[AmountExample]:
    """Every labelled amount of the examples."""
    out = []
    for g, line in enumerate(_example_file()["amounts"]):
        plain, found = labelled_amounts(line)
        out += [AmountExample(plain, start, end, kind, owner, g) for start, end, kind, owner in found]
    return out


def labelled_amounts(line: str) -> tuple[str, list[tuple[int, int, str, str]]]:
    """A marked-up example line as plain text and its amounts: (start, end, kind, owner)."""
    plain, found, pos = [], [], 0
    length = 0
    for m in MARKUP.finditer(line):
        before = line[pos:m.start()]
        plain.append(before)
        length += len(before)
        found.append((length, length + len(m.group(1)), m.group(2), m.group(3)))
        plain.append(m.group(1))
        length += len(m.group(1))
        pos = m.end()
    plain.append(line[pos:])
    return "".join(plain), found


class FrameModel:
    """The four readings and the embedder they read through."""

    def __init__(self, embedder, readings: dict[str, Softmax], digest: str):
        self.embedder = embedder
        self.readings = readings
        self.digest = digest

    # -- features ------------------------------------------------------------------------------
    def _vectors(self, texts: list[str]) -> np.ndarray:
        """The embedder's vectors of several texts (none without an embedder). Each is embedded as a
        query is: the texts are pieces of questions, and Gemini's task type matters (as for the intent
        catalogue's examples); the index's document embeddings stay the chunks' alone."""
        if self.embedder is None or not texts:
            return np.zeros((len(texts), 0), dtype=np.float32)
        return np.stack([np.asarray(self.embedder.embed_query(t or "."), dtype=np.float32) for t in texts])

    def _weighted(self, texts: list[str], tokens: list[list[str]], reading: str) -> np.ndarray:
        return np.hstack([VECTOR_WEIGHT[reading] * self._vectors(texts),
                          WORDS_WEIGHT[reading] * np.stack([_hashed(t) for t in tokens])])

    def sentence_features(self, texts: list[str], reading: str = "asks") -> np.ndarray:
        return self._weighted(texts, [sentence_tokens(t) for t in texts], reading)

    def amount_features(self, text: str, spans: list[tuple[int, int]]) -> np.ndarray:
        return self._window_features([amount_window(text, start, end) for start, end in spans])

    def _window_features(self, windows: list[tuple[str, list[str]]]) -> np.ndarray:
        return self._weighted([w for w, _ in windows], [t for _, t in windows], "amount")

    # -- readings ------------------------------------------------------------------------------
    def asks(self, sentences: list[str]) -> list[tuple[str, float]]:
        x = self.sentence_features(sentences)
        return [self.readings["asks"].predict(row) for row in x]

    def asks_together(self, sentences: list[str]) -> tuple[str, float]:
        """What several wordings of one question ask, read together (the mean of their readings): one
        wording may read unsurely where the others agree."""
        reading = self.readings["asks"]
        p = np.mean([reading.probabilities(row) for row in self.sentence_features(sentences)], axis=0)
        best = int(np.argmax(p))
        return reading.classes[best], float(p[best])

    def scope(self, text: str, *more: str) -> tuple[str, float]:
        """What the text is about; with more texts (a long post's asking sentences and its whole story),
        the mean of their readings: the question says what is asked, the story what it is about."""
        best, sure, _, _ = self.scope_reading(text, *more)
        return best, sure

    def scope_reading(self, text: str, *more: str) -> tuple[str, float, float, str]:
        """`scope`, plus how likely the text is New Zealand personal tax at all and the likeliest other
        subject: a story spreads its chance over several neighbouring subjects, none of them sure,
        while together they say it is not tax."""
        reading = self.readings["scope"]
        p = np.mean([reading.probabilities(row) for row in self.sentence_features([text, *more], "scope")], axis=0)
        best = int(np.argmax(p))
        others = [i for i in np.argsort(-p) if reading.classes[i] != IN_SCOPE]
        in_scope = float(p[reading.classes.index(IN_SCOPE)]) if IN_SCOPE in reading.classes else 0.0
        return reading.classes[best], float(p[best]), in_scope, reading.classes[others[0]] if others else "not_money"

    def amount_readings(self, text: str, spans: list[tuple[int, int]]) -> list[tuple[tuple[str, float], tuple[str, float], dict]]:
        """(kind, how sure), (owner, how sure) of each amount at these spans of the text, and how likely
        it is of every kind: a calculator that takes several kinds (a KiwiSaver sum takes a pay or a
        contribution) asks how likely the amount is any of them."""
        if not spans:
            return []
        x = self.amount_features(text, spans)
        kind = self.readings["kind"]
        return [(kind.predict(row), self.readings["owner"].predict(row),
                 {c: float(p) for c, p in zip(kind.classes, kind.probabilities(row))}) for row in x]

    # -- training and storage ------------------------------------------------------------------
    @classmethod
    def train(cls, embedder) -> "FrameModel":
        key = (getattr(embedder, "id", None), examples_digest())
        if key in _TRAINED:
            return cls(embedder, _TRAINED[key], key[1])
        model = cls(embedder, {}, examples_digest())
        for name in ("asks", "scope"):
            rows = sentence_examples(name)
            model.readings[name] = Softmax.fit(model.sentence_features([e.text for e in rows], name), [e.label for e in rows],
                                               READING_STEPS.get(name, STEPS))
        amounts = amount_examples()
        x = model._window_features([amount_window(a.text, a.start, a.end) for a in amounts])
        for name in ("kind", "owner"):
            model.readings[name] = Softmax.fit(x, [getattr(a, name) for a in amounts], STEPS)
        _TRAINED[key] = model.readings
        return model

    def _meta(self) -> dict:
        return {"examples": self.digest, "embedder": getattr(self.embedder, "id", None), "format": FORMAT}

    def save(self, directory: Path) -> Path:
        """Write the weights beside an index (build time)."""
        target = Path(directory) / MODEL_FILE
        arrays = {}
        for name, r in self.readings.items():
            arrays[f"{name}_w"], arrays[f"{name}_b"] = r.weights, r.bias
            arrays[f"{name}_classes"] = np.array(json.dumps(r.classes))
        np.savez(target, meta=np.array(json.dumps(self._meta())), **arrays)
        return target

    @classmethod
    def load(cls, directory: Path, embedder) -> "FrameModel | None":
        """The stored model when it was made from these examples with this embedder, else None."""
        try:
            with np.load(Path(directory) / MODEL_FILE) as data:
                model = cls(embedder, {}, examples_digest())
                if json.loads(str(data["meta"])) != model._meta():
                    return None
                for name in READINGS:
                    model.readings[name] = Softmax(tuple(json.loads(str(data[f"{name}_classes"]))),
                                                   data[f"{name}_w"], data[f"{name}_b"])
                return model
        except (OSError, KeyError, ValueError):
            return None

    @classmethod
    def load_or_train(cls, directory: Path | None, embedder) -> "FrameModel":
        if directory is not None:
            stored = cls.load(directory, embedder)
            if stored is not None:
                return stored
            log.warning(json.dumps({"event": "frame_model_stale_or_missing", "file": str(Path(directory) / MODEL_FILE)}))
        return cls.train(embedder)


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
