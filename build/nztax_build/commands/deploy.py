"""`nztax deploy`: stage and deploy the /ask function and the static site.

In: settings (NZTAX_GCP_PROJECT, NZTAX_SITE_URL, ... see nztax.settings), the built site/,
index/ and function/. Out: the staged directories under .work/deploy/ and the gcloud/firebase
runs; `--dry-run` prints the exact commands and touches nothing. `--rollback` first swaps
site/ and index/ with their `.prev` builds (kept by the publish step), then deploys those.
Exit codes: 0 deployed (or printed), 1 a deploy command failed, 2 bad configuration or build.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from datetime import datetime, UTC


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dry-run", action="store_true", help="print the commands, stage and run nothing")
    parser.add_argument(
        "--only", choices=("all", "function", "site"), default="all", help="deploy one part (default: both)"
    )
    parser.add_argument(
        "--rollback",
        action="store_true",
        help="swap site/ and index/ back to their previous published builds, then deploy them",
    )
    parser.add_argument("--message", help="release message for the site (default: a UTC timestamp)")


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from nztax_build import deploy, publish

    settings = get_settings()
    paths = deploy.DeployPaths.from_settings(settings)
    try:
        cfg = deploy.DeployConfig.from_settings(settings, dry_run=args.dry_run)
    except deploy.DeployError as exc:
        print(f"nztax deploy: {exc}", file=sys.stderr)
        return 2
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")
    message = args.message or f"nztax {'rollback' if args.rollback else 'build'} {stamp}"
    commands = deploy.plan(cfg, paths, args.only, message)

    if args.only in ("all", "function") and not args.rollback:
        try:
            deploy.check_embedder(cfg, paths.index_dir)
        except deploy.DeployError as exc:
            print(f"nztax deploy: {exc}", file=sys.stderr)
            return 2

    if args.dry_run:
        if args.rollback:
            for live in _rollback_targets(paths, args.only):
                print(f"# would swap {live} with {publish.prev_path(live)}")
        print(f"# stage {paths.function_stage}: {paths.function_src}/ + {paths.index_dir}/ + requirements.txt")
        print(f"# stage {paths.hosting_stage}: firebase.json + {paths.site_dir}/")
        ask_problem = deploy.site_ask_url_problem(paths.site_dir) if args.only in ("all", "site") else None
        if ask_problem and (paths.site_dir / "index.html").is_file():
            print(f"# warning: a real deploy would stop here: {ask_problem}")
        for command in commands:
            print(command.shell())
        return 0

    if args.rollback:
        targets = _rollback_targets(paths, args.only)
        # Roll back all or nothing: a site from one build beside an index from another is worse.
        missing = [str(publish.prev_path(t)) for t in targets if not publish.prev_path(t).is_dir()]
        if missing:
            print(f"nztax deploy: nothing to roll back to: {', '.join(missing)} missing", file=sys.stderr)
            return 2
        try:
            for live in targets:
                publish.rollback(live)
                print(f"rolled back {live} to its previous build", file=sys.stderr)
        except (publish.PublishError, OSError) as exc:
            print(f"nztax deploy: rollback failed: {exc}", file=sys.stderr)
            return 2

    try:
        deploy.check_build(paths, args.only)
        for binary in sorted({c.argv[0] for c in commands}):
            if shutil.which(binary) is None:
                raise deploy.DeployError(f"`{binary}` is not on PATH (see docs/operations.md for the installs)")
        if args.only in ("all", "function"):
            extras = deploy.function_extras(cfg, paths.index_dir)
            requirements = deploy.function_requirements(paths.home / "pyproject.toml", extras)
            stage = deploy.stage_function(paths, requirements)
            compiled = sum(1 for _ in stage.rglob("*.pyc"))
            print(f"staged function: {stage} ({compiled} modules precompiled for {deploy.RUNTIME}"
                  + ("" if compiled else ": no local interpreter of that version, so it compiles them at start") + ")",
                  file=sys.stderr)
        if args.only in ("all", "site"):
            deploy.stage_hosting(paths, cfg)
            print(f"staged site: {paths.hosting_stage}", file=sys.stderr)
    except (deploy.DeployError, OSError) as exc:
        print(f"nztax deploy: {exc}", file=sys.stderr)
        return 2

    for done, command in enumerate(commands):
        print(f"deploying {command.label}: {command.shell()}", file=sys.stderr)
        result = subprocess.run(command.argv, cwd=command.cwd, check=False)
        if result.returncode != 0:
            deployed = ", ".join(c.label for c in commands[:done]) or "nothing"
            print(
                f"nztax deploy: {command.label} deploy failed (exit {result.returncode}); "
                f"deployed before the failure: {deployed}. The previous {command.label} stays live.",
                file=sys.stderr,
            )
            return 1
    print("deployed: " + ", ".join(c.label for c in commands), file=sys.stderr)
    return 0


def _rollback_targets(paths, only: str):
    targets = []
    if only in ("all", "site"):
        targets.append(paths.site_dir)
    if only in ("all", "function"):
        targets.append(paths.index_dir)
    return targets
