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


def checkout_and_build(home: Path, ref: str, scratch: Path, embedding_caches: list[Path] = (),
                       progress=print) -> Side:
    """Check `ref` out beside the bench's scratch files and build its index with its own code."""
    tree = Path(scratch) / "baseline_tree"
    remove(home, tree)
    added = _git(home, "worktree", "add", "--detach", str(tree), ref)
    if added.returncode != 0:
        raise BaselineError(f"cannot check out {ref}: {added.stderr.strip()[-300:]}")
    # Texts embedded before are not embedded again (the cache is keyed by the embedder and each text's hash).
    for cache in embedding_caches:
        if Path(cache).is_dir():
            shutil.copytree(cache, tree / ".work" / "embeddings", dirs_exist_ok=True)
            break
    progress(f"building the index of {ref} with its own code (nztax build in {tree})")
    built = subprocess.run([sys.executable, "-c", "import sys; from nztax_build.cli import main; sys.exit(main())",
                            "build"], cwd=tree, env=side_env(tree / "function", tree),
                           capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    if built.returncode != 0 or not (tree / "index" / "manifest.json").exists():
        raise BaselineError(f"the build of {ref} failed: {(built.stderr or built.stdout).strip()[-400:]}")
    commit = _git(home, "rev-parse", "--short", ref).stdout.strip() or ref
    return Side(f"`{commit}`", tree / "function", tree / "index", tree)


def remove(home: Path, tree: Path | None) -> None:
    """Delete a baseline worktree (and git's record of it); nothing happens when there is none."""
    if tree is None:
        return
    if Path(tree).exists():
        _git(home, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(tree, ignore_errors=True)
    _git(home, "worktree", "prune")
