"""The dense vectors stored beside the index as plain float32 (`dense_vectors.bin`): a start reads
the same rows `dense.faiss` holds without importing faiss, and a stale or damaged copy is never
trusted (the rows then come from `dense.faiss`)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest

from nztax.index import DENSE_FILE, DENSE_VECTORS_FILE, load_index, save_dense_vectors, stored_dense_vectors

from .conftest import FIXTURE_CHUNKS, HashEmbedder, make_settings


@pytest.fixture(scope="module")
def hash_index(tmp_path_factory):
    from nztax_build.indexer import embed_and_index

    settings = make_settings(tmp_path_factory.mktemp("hash_index"))
    embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder())
    return settings.index_dir


@pytest.fixture
def index_copy(hash_index, tmp_path):
    target = tmp_path / "index"
    shutil.copytree(hash_index, target)
    (target / DENSE_VECTORS_FILE).unlink(missing_ok=True)
    return target


def test_stored_rows_are_the_faiss_rows_and_the_start_skips_faiss(index_copy):
    from_faiss = load_index(index_copy)
    assert from_faiss.flat is not None  # nothing stored yet: read from dense.faiss
    assert save_dense_vectors(index_copy) == len(from_faiss.children) > 0
    stored = load_index(index_copy)
    assert stored.flat is None
    assert stored.vectors.dtype == np.float32 and np.array_equal(stored.vectors, from_faiss.vectors)
    assert np.array_equal(stored.page_vectors, from_faiss.page_vectors)
    assert stored.dense.ntotal == len(stored.children)  # the faiss index itself, read when asked for
    probe = f"import sys; from nztax.index import load_index; load_index({str(index_copy)!r}); print('faiss' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "False"


def test_a_changed_dense_index_makes_the_stored_rows_stale(index_copy):
    save_dense_vectors(index_copy)
    raw = bytearray((index_copy / DENSE_FILE).read_bytes())
    raw[-4:] = np.float32(0.5).tobytes()  # the last row's last value, as a rebuilt index would differ
    (index_copy / DENSE_FILE).write_bytes(bytes(raw))
    assert stored_dense_vectors(index_copy) is None
    loaded = load_index(index_copy)
    assert loaded.flat is not None and loaded.vectors[-1, -1] == np.float32(0.5)


@pytest.mark.parametrize("damage", ["flip", "cut", "header"])
def test_a_damaged_copy_is_ignored(index_copy, damage):
    save_dense_vectors(index_copy)
    expected = load_index(index_copy).vectors.copy()
    path = index_copy / DENSE_VECTORS_FILE
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[-3] ^= 0xFF
    elif damage == "cut":
        del raw[len(raw) // 2:]
    else:
        raw[:1] = b"["
    path.write_bytes(bytes(raw))
    assert stored_dense_vectors(index_copy) is None
    loaded = load_index(index_copy)
    assert loaded.flat is not None and np.array_equal(loaded.vectors, expected)
