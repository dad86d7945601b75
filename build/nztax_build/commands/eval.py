"""`nztax eval retrieval|queries|answers|bank|units|units-in-posts|realposts|paraphrases|realpost-search|frame-readings|scope-score|supplement…|all [--golden FILE] [--out FILE]`.

Each target is a module `nztax_build.<module>` with `run(args) -> int`, imported only when it runs;
a target whose module is not in this build is skipped with a note. `all` runs every target with its
default golden file and output, and returns the worst exit code.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import sys

from nztax.settings import get_settings

# target -> (module implementing it, its golden file in tests/golden/, its report in .work/eval/);
# None: the module's own defaults. Another target is one line here.
TARGETS = {
    "retrieval": ("nztax_build.evaluate_retrieval", None, None),
    "queries": ("nztax_build.evaluate_retrieval", "search_queries.yaml", "queries.md"),  # held-out, dev + frozen test
    "answers": ("nztax_build.evaluate_answers", None, None),
    "bank": ("nztax_build.evaluate_answers", "question_bank.yaml", "bank.md"),            # held-out, dev + frozen test
    "units": ("nztax_build.evaluate_units", "question_bank.yaml", "units.md"),             # held-out paraphrases; frozen-part openings
    "units-in-posts": ("nztax_build.evaluate_units_in_posts", "question_bank.yaml", "units_in_posts.md"),  # the same, inside stories
    "realposts": ("nztax_build.evaluate_realposts", "realposts.yaml", "realposts.md"),        # real public posts, dev + frozen test
    "paraphrases": ("nztax_build.evaluate_paraphrases", "realposts_paraphrases.yaml", "paraphrases.md"),  # dev posts reworded: invariance
    "paraphrases2": ("nztax_build.evaluate_paraphrases", "realposts_paraphrases_2.yaml", "paraphrases_2.md"),  # reworded again by other writers
    "paraphrases3": ("nztax_build.evaluate_paraphrases", "realposts_paraphrases_3.yaml", "paraphrases_3.md"),  # and again, held out
    "realpost-search": ("nztax_build.evaluate_retrieval", "realposts.yaml", "realpost_search.md"),  # the same posts as queries
    "frame-readings": ("nztax_build.evaluate_frame", None, "frame_readings.md"),             # the frame model, out of fold
    "scope-score": ("nztax_build.evaluate_scope_score", None, "scope_score.md"),  # one score over the scope readings, out of fold
    "supplement": ("nztax_build.evaluate_answers", "question_bank_dev2.yaml", "supplement.md"),  # development only
    "supplement2": ("nztax_build.evaluate_answers", "question_bank_dev3.yaml", "supplement2.md"),  # development only
    "supplement3": ("nztax_build.evaluate_answers", "question_bank_dev4.yaml", "supplement3.md"),  # development only
    "supplement4": ("nztax_build.evaluate_answers", "question_bank_dev5.yaml", "supplement4.md"),  # development only
    "supplement5": ("nztax_build.evaluate_answers", "question_bank_dev6.yaml", "supplement5.md"),  # development only
    "supplement6": ("nztax_build.evaluate_answers", "question_bank_dev7.yaml", "supplement6.md"),  # development only
    "supplement7": ("nztax_build.evaluate_answers", "question_bank_dev8.yaml", "supplement7.md"),  # development only
    "supplement8": ("nztax_build.evaluate_answers", "question_bank_dev9.yaml", "supplement8.md"),  # development only
    "supplement9": ("nztax_build.evaluate_answers", "question_bank_dev10.yaml", "supplement9.md"),  # development only
    "supplement10": ("nztax_build.evaluate_answers", "question_bank_dev11.yaml", "supplement10.md"),  # development only
    "supplement11": ("nztax_build.evaluate_answers", "question_bank_dev12.yaml", "supplement11.md"),  # development only
    "supplement12": ("nztax_build.evaluate_answers", "question_bank_dev13.yaml", "supplement12.md"),  # development only
    "supplement13": ("nztax_build.evaluate_answers", "question_bank_dev14.yaml", "supplement13.md"),  # development only
    "supplement14": ("nztax_build.evaluate_answers", "question_bank_dev15.yaml", "supplement14.md"),  # development only
    "supplement15": ("nztax_build.evaluate_answers", "question_bank_dev16.yaml", "supplement15.md"),  # development only
    "supplement16": ("nztax_build.evaluate_answers", "question_bank_dev17.yaml", "supplement16.md"),  # development only
    "supplement17": ("nztax_build.evaluate_answers", "question_bank_dev18.yaml", "supplement17.md"),  # development only
    "supplement18": ("nztax_build.evaluate_answers", "question_bank_dev19.yaml", "supplement18.md"),  # development only
    "supplement19": ("nztax_build.evaluate_answers", "question_bank_dev20.yaml", "supplement19.md"),  # development only
    "supplement20": ("nztax_build.evaluate_answers", "question_bank_dev21.yaml", "supplement20.md"),  # development only
    "supplement21": ("nztax_build.evaluate_answers", "question_bank_dev22.yaml", "supplement21.md"),  # development only
    "supplement22": ("nztax_build.evaluate_answers", "question_bank_dev23.yaml", "supplement22.md"),  # development only
    "supplement23": ("nztax_build.evaluate_answers", "question_bank_dev24.yaml", "supplement23.md"),  # development only
    "supplement24": ("nztax_build.evaluate_answers", "question_bank_dev25.yaml", "supplement24.md"),  # development only
    "supplement25": ("nztax_build.evaluate_answers", "question_bank_dev26.yaml", "supplement25.md"),  # development only
    "supplement26": ("nztax_build.evaluate_answers", "question_bank_dev27.yaml", "supplement26.md"),  # development only
    "supplement27": ("nztax_build.evaluate_answers", "question_bank_dev28.yaml", "supplement27.md"),  # development only
    "supplement28": ("nztax_build.evaluate_answers", "question_bank_dev29.yaml", "supplement28.md"),  # development only
    "supplement29": ("nztax_build.evaluate_answers", "question_bank_dev30.yaml", "supplement29.md"),  # development only
    "supplement30": ("nztax_build.evaluate_answers", "question_bank_dev31.yaml", "supplement30.md"),  # development only
    "supplement31": ("nztax_build.evaluate_answers", "question_bank_dev32.yaml", "supplement31.md"),  # development only
    "supplement32": ("nztax_build.evaluate_answers", "question_bank_dev33.yaml", "supplement32.md"),  # development only
    "supplement33": ("nztax_build.evaluate_answers", "question_bank_dev34.yaml", "supplement33.md"),  # development only
    "supplement34": ("nztax_build.evaluate_answers", "question_bank_dev35.yaml", "supplement34.md"),  # development only
    "supplement35": ("nztax_build.evaluate_answers", "question_bank_dev36.yaml", "supplement35.md"),  # development only
    "supplement36": ("nztax_build.evaluate_answers", "question_bank_dev37.yaml", "supplement36.md"),  # development only
    "supplement37": ("nztax_build.evaluate_answers", "question_bank_dev38.yaml", "supplement37.md"),  # development only
    "supplement38": ("nztax_build.evaluate_answers", "question_bank_dev39.yaml", "supplement38.md"),  # development only
    "supplement39": ("nztax_build.evaluate_answers", "question_bank_dev40.yaml", "supplement39.md"),  # development only
    "supplement40": ("nztax_build.evaluate_answers", "question_bank_dev41.yaml", "supplement40.md"),  # development only
    "supplement41": ("nztax_build.evaluate_answers", "question_bank_dev42.yaml", "supplement41.md"),  # development only
    "supplement42": ("nztax_build.evaluate_answers", "question_bank_dev43.yaml", "supplement42.md"),  # development only
    "supplement43": ("nztax_build.evaluate_answers", "question_bank_dev44.yaml", "supplement43.md"),  # development only
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", nargs="?", default="all", choices=[*TARGETS, "all"],
                        help="what to evaluate (default all)")
    parser.add_argument("--golden", help="golden file (default: tests/golden/<target>.yaml)")
    parser.add_argument("--out", help="report file (default: .work/eval/<target>.md)")
    parser.add_argument("--index", help="index directory (default: settings.index_dir)")
    parser.add_argument("--sweep", action="store_true", help="retrieval: also sweep RRF k and fusion weights")
    parser.add_argument("--model", help="answer through this litellm model (its key set) or scripted:<frames.yaml>; "
                                        "reports are written beside the offline ones (docs/llm.md)")


def _run_target(name: str, args: argparse.Namespace) -> int | None:
    module_name, golden, report = TARGETS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise
    args = copy.copy(args)
    settings = get_settings()
    if golden and not getattr(args, "golden", None):
        args.golden = str(settings.home / "tests" / "golden" / golden)
    if report and not getattr(args, "out", None):
        args.out = str(settings.work_dir / "eval" / report)
    return int(module.run(args) or 0)


def run(args: argparse.Namespace) -> int:
    if args.target != "all":
        code = _run_target(args.target, args)
        if code is None:
            print(f"nztax eval {args.target}: not available in this build", file=sys.stderr)
            return 2
        return code
    if args.golden or args.out:
        print("nztax eval all: --golden/--out apply to one target; using each target's defaults", file=sys.stderr)
    worst = 0
    # Through a model only the answer evaluations change (bank and the real posts): the rest read no model.
    from nztax_build.eval_model import MODEL_TARGETS

    for name in (MODEL_TARGETS if getattr(args, "model", None) else TARGETS):
        target_args = copy.copy(args)
        target_args.target, target_args.golden, target_args.out = name, None, None
        code = _run_target(name, target_args)
        if code is None:
            print(f"[eval] {name}: skipped (not in this build)", file=sys.stderr)
            continue
        worst = max(worst, code)
    return worst
