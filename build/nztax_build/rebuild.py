"""`nztax rebuild`: after a rules file edit, regenerate only what depends on the rules, then rebuild the site.

In: the edited rules (`nztax/rules/*.yaml`), the existing index (not rebuilt: no crawl, no
re-embedding) and the FAQ answer cache. Out: re-answered FAQ entries whose answers show figures
(the rest come from the cache), `calculators/data/rules.json`, the calculator, tax-year and
what-changed pages, a fresh `site/` (mkdocs build into site.new, then published), and the list of
pages that changed: the generated sources under site_src/ and the built HTML pages under site/.

Also home of `run_mkdocs` and `diff_trees`, shared with `nztax serve`.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
import re

# Files that change on every build for reasons of their own; not "pages".
IGNORED_OUTPUTS = (".nztax-release.json",)


class RebuildError(RuntimeError):
    """The rebuild cannot run (bad rules file, no index, mkdocs failed); the message says why."""


@dataclass
class RebuildReport:
    rules_version: str
    reanswered: int = 0
    from_cache: int = 0
    source_pages: list[str] = field(default_factory=list)
    site_pages: list[str] = field(default_factory=list)
    site_other: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_mkdocs(settings, site_dir: Path, ask_url: str | None = None, env: dict | None = None) -> None:
    """`mkdocs build --strict` into `site_dir` (offline); `ask_url` overrides where the Ask box posts."""
    env = dict(os.environ if env is None else env)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    env.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    if ask_url:
        env["NZTAX_ASK_URL"] = ask_url
    home = Path(settings.home)
    config = home / "mkdocs.yml"
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "--quiet", "--config-file", str(config), "--site-dir", str(site_dir)]
    proc = subprocess.run(cmd, cwd=home, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RebuildError("mkdocs build failed:\n" + (proc.stderr or proc.stdout)[-4000:])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def diff_trees(old: Path, new: Path) -> list[str]:
    """Relative paths that differ between two built trees (added, removed or changed)."""
    def files(root: Path) -> dict[str, Path]:
        if not root.exists():
            return {}
        return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file() and p.name not in IGNORED_OUTPUTS}

    a, b = files(old), files(new)
    changed = [k for k in sorted(set(a) | set(b)) if k not in a or k not in b or a[k].stat().st_size != b[k].stat().st_size or _digest(a[k]) != _digest(b[k])]
    return changed


def rebuild(settings, log=print, publish_site: bool = True) -> RebuildReport:
    from nztax.rules import RulesError, load_rules

    from .faq import run_faq
    from .pipeline import BuildContext, StageError
    from .publish import PublishError, publish, validate_site
    from .render import load_inputs, render_site

    started = time.monotonic()
    try:
        book = load_rules(settings.rules_dir)
    except RulesError as exc:
        raise RebuildError(f"the rules data is invalid, nothing was rebuilt:\n{exc}") from None
    report = RebuildReport(rules_version=book.version())
    log(f"rebuild: rules version {report.rules_version}")

    ctx = BuildContext(settings=settings, log_stream=sys.stderr)
    try:
        summary = run_faq(ctx)
        log(f"rebuild: FAQ {summary}")
        from .unit_support import read_withheld

        for w in read_withheld(Path(settings.index_dir)):
            log(f"rebuild: withheld {w.get('page')} ({w.get('question')}): {w.get('reason')}")
        report.source_pages = render_site(load_inputs(settings))
    except StageError as exc:
        raise RebuildError(str(exc)) from None
    _record_counts(summary, report)

    home = Path(settings.home)
    live, staged = home / "site", home / "site.new"
    run_mkdocs(settings, staged)
    changed = diff_trees(live, staged)
    report.site_pages = [p for p in changed if p.endswith(".html")]
    report.site_other = [p for p in changed if not p.endswith(".html")]
    if publish_site:
        try:
            publish(staged, live, validate=validate_site, note=f"rebuild (rules {report.rules_version})")
        except PublishError as exc:
            raise RebuildError(str(exc)) from None
    report.seconds = time.monotonic() - started
    return report


def _record_counts(summary: str, report: RebuildReport) -> None:

    m = re.search(r"answered (\d+), from cache (\d+)", summary)
    if m:
        report.reanswered, report.from_cache = int(m.group(1)), int(m.group(2))
