"""The function as it was at an earlier commit, on the index that commit builds itself, measured
beside today's by the bench.

In: the repository, a git ref (NZTAX_BENCH_BASELINE) and the bench's scratch directory. Out: a
`Side` (function directory and index directory) for today's checkout and, from `checkout_and_build`,
one for the ref: a detached git worktree of it whose own `nztax build` (its own code, its own bundled
corpus) has built its index; `remove` deletes the worktree. An index built by today's code is no
fair input for an older function: the index format, the stored start-up parts and the learned
readings change between commits, and an older function meeting a newer index trains or rebuilds
at start-up (or refuses it), which is not what it did on its own index.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Variables naming this checkout's own paths (or a model): the baseline's build uses its own defaults.
_OWN_VARIABLES = ("NZTAX_HOME", "NZTAX_INDEX_DIR", "NZTAX_WORK_DIR", "NZTAX_CORPUS_DIR", "NZTAX_SITE_SRC",
                  "NZTAX_RULES_DIR", "NZTAX_UNITS_DIR", "NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE", "PYTHONPATH")
BUILD_TIMEOUT_S = 3600


class BaselineError(RuntimeError):
    """The ref could not be checked out or its build failed (the message says which)."""


@dataclass(frozen=True)
class Side:
    label: str
    function_dir: Path
    index_dir: Path
    tree: Path | None = None  # the baseline's worktree, removed after the measurement


def _git(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(home), *args], capture_output=True, text=True, timeout=timeout)


def side_env(function_dir: Path, home: Path | None = None) -> dict[str, str]:
    """The environment a side's processes run in: its own `nztax` (and `nztax_build`) first on the
    path, none of this checkout's path variables, no model."""
    env = {k: v for k, v in os.environ.items() if k not in _OWN_VARIABLES}
    paths = [str(function_dir)]
    if home is not None:
        paths.append(str(home / "build"))
        env["NZTAX_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


# Run by the ref's own code on a copied index: the files its start-up reads beside the index.
_OWN_START_UP_FILES = """
import sys
from pathlib import Path
from nztax.settings import get_settings
from nztax_build.indexer import compile_for_cold_start
compile_for_cold_start(get_settings(), Path(sys.argv[1]))
"""


def checkout_and_build(home: Path, ref: str, scratch: Path, embedding_caches: list[Path] = (),
                       progress=print, index_from: Path | None = None) -> Side:
    """Check `ref` out beside the bench's scratch files and build its index with its own code.

    `index_from` (NZTAX_BENCH_BASELINE_INDEX): an index whose parse, chunk, index and FAQ outputs
    the ref's build makes alike (no change to those stages in between); it is copied in and only
    the files a start reads beside it are written again, by the ref's own code, which takes minutes
    less than a whole build on a busy machine."""
    tree = Path(scratch) / "baseline_tree"
    remove(home, tree)
    # --force: a record left by an earlier run whose directory has gone does not block this one.
    added = _git(home, "worktree", "add", "--force", "--detach", str(tree), ref)
    if added.returncode != 0:
        raise BaselineError(f"cannot check out {ref}: {added.stderr.strip()[-300:]}")
    # Texts embedded before are not embedded again (the cache is keyed by the embedder and each text's hash).
    for cache in embedding_caches:
        if Path(cache).is_dir():
            shutil.copytree(cache, tree / ".work" / "embeddings", dirs_exist_ok=True)
            break
    if index_from is not None:
        progress(f"copying {index_from} for {ref}; its own code writes the start-up files beside it")
        shutil.copytree(index_from, tree / "index", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("parts.pickle", "regex.pickle", "data.pickle", "dense_vectors.bin"))
        command = ["-c", _OWN_START_UP_FILES, str(tree / "index")]
    else:
        progress(f"building the index of {ref} with its own code (nztax build in {tree})")
        command = ["-c", "import sys; from nztax_build.cli import main; sys.exit(main())", "build"]
    env = side_env(tree / "function", tree)
    env["NZTAX_INDEX_DIR"] = str(tree / "index")
    built = subprocess.run([sys.executable, *command], cwd=tree, env=env, capture_output=True, text=True,
                           timeout=BUILD_TIMEOUT_S)
    if built.returncode != 0 or not (tree / "index" / "manifest.json").exists():
        raise BaselineError(f"the build of {ref} failed: {(built.stderr or built.stdout).strip()[-400:]}")
    commit = _git(home, "rev-parse", "--short", ref).stdout.strip() or ref
    return Side(f"`{commit}`", tree / "function", tree / "index", tree)


def remove(home: Path, tree: Path | None) -> None:
    """Delete a baseline worktree and git's record of it; nothing happens when there is none."""
    if tree is None:
        return
    # Only this worktree's record is touched: the repository is shared with other checkouts.
    if Path(tree).exists():
        _git(home, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(tree, ignore_errors=True)
