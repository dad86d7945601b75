"""The size of what the engine knows about questions, counted the way issue 36 counts it.

In: a package directory (`function/nztax` of any checkout). Out: a markdown table of
- the regular expressions the question-reading modules compile at import, and their alternatives:
  all of them, and those written in code (each `cue_words` list counted as one alternative: with it
  stubbed out, what is left of each pattern is the code's own);
- the cue phrases of `data/intents.yaml` (every keyword and decisive word or sequence item);
- the lines and `return`s of `decide()`;
- comments that quote words: a quoted fragment of two words or more in a `#` comment of a module or a
  data file (what a comment quoting a question looks like; a quoted format like "85k" has one word).

Run: `python -m nztax_build.reading_size [PACKAGE_DIR]`. To count an old commit, extract its
`function/` and pass that directory's `nztax`: the modules are imported from there, in a fresh process.
"""

from __future__ import annotations

import ast
import importlib
import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import yaml

# The modules that read a question (slots.py and decide.py at filing, and the modules they were split
# into since), and understand.py; those not in a checkout are skipped.
READING_MODULES = (
    "slots", "decide", "understand", "text_cleaning", "amount_grammar", "amount_roles", "amount_owners",
    "money_reader", "worked_amounts", "question_conditions", "years", "ages", "question_turns", "clarify_checks",
    "calculation_plan", "calculator_calls", "decision_table", "frame", "example_figures", "pay_questions",
    "short_query", "follow_up", "stated", "left_out", "lead_choice",
)
CUE_FIELDS = ("keywords", "decisive", "decisive_unless", "decisive_always", "nearness_unless", "decisive_sequences")
QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def alternatives(pattern: re.Pattern) -> int:
    """How many alternatives the pattern's alternations hold, nested ones included (0 for none)."""
    from re import _parser

    def walk(items) -> int:
        total = 0
        for op, value in items:
            if op is _parser.BRANCH:
                total += len(value[1]) + sum(walk(branch) for branch in value[1])
            elif isinstance(value, (list, tuple)):
                for part in value:
                    if isinstance(part, _parser.SubPattern):
                        total += walk(part)
                    elif isinstance(part, (list, tuple)):
                        total += sum(walk(p) for p in part if isinstance(p, _parser.SubPattern))
            elif isinstance(value, _parser.SubPattern):
                total += walk(value)
        return total

    return walk(_parser.parse(pattern.pattern, pattern.flags))


def _patterns_in(value, depth: int = 0):
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)


def _module_level_names(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    names.add(n.id)
    return names


def compiled(package: Path, stub_cues: bool) -> dict[str, list[int]]:
    """{module: [patterns, alternatives]} for the reading modules, imported from `package`'s parent."""
    sys.path.insert(0, str(package.parent))
    if stub_cues and (package / "cue_words.py").exists():
        cue_words = importlib.import_module("nztax.cue_words")
        cue_words.alternatives = lambda name: "CUE"
        cue_words.cue = lambda name: re.compile("CUE", re.I)
    out = {}
    for name in READING_MODULES:
        path = package / f"{name}.py"
        if not path.exists():
            continue
        module = importlib.import_module(f"nztax.{name}")
        seen: dict[int, re.Pattern] = {}
        for attr in _module_level_names(path):
            for p in _patterns_in(getattr(module, attr, None)):
                seen[id(p)] = p
        out[name] = [len(seen), sum(alternatives(p) for p in seen.values())]
    return out


def _in_fresh_process(package: Path, stub_cues: bool) -> dict[str, list[int]]:
    code = f"import json, sys; from pathlib import Path; from nztax_build.reading_size import compiled; " \
           f"print(json.dumps(compiled(Path({str(package)!r}), {stub_cues})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(Path(__file__).resolve().parents[1]), "PATH": ""})
    return json.loads(done.stdout)


def cue_phrases(package: Path) -> int:
    def leaves(value) -> int:
        return sum(leaves(v) for v in value) if isinstance(value, list) else 1

    data = yaml.safe_load((package / "data" / "intents.yaml").read_text(encoding="utf-8"))
    return sum(leaves(intent.get(field, [])) for intent in data["intents"] for field in CUE_FIELDS)


def decide_size(package: Path) -> tuple[int, int]:
    """(lines, returns) of decide() in decide.py."""
    for node in ast.parse((package / "decide.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and node.name == "decide":
            return node.end_lineno - node.lineno + 1, sum(isinstance(n, ast.Return) for n in ast.walk(node))
    return 0, 0


def _comments(path: Path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.string
    else:
        for line in text.splitlines():
            m = re.search(r"(?:^|\s)#(?!\S*['\"]\s*$).*", line)
            if m:
                yield m.group(0)


def quoting_comments(package: Path) -> int:
    """Comments with a quoted fragment of two words or more, in the modules and data files."""
    files = sorted(package.glob("*.py")) + sorted((package / "data").glob("*.yaml"))
    return sum(1 for path in files for comment in _comments(path)
               if any(len(WORD.findall(q)) >= 2 for q in QUOTED.findall(comment)))


def measure(package: Path) -> dict:
    every = _in_fresh_process(package, stub_cues=False)
    in_code = _in_fresh_process(package, stub_cues=True)
    lines, returns = decide_size(package)
    return {
        "modules": sorted(every),
        "patterns": sum(p for p, _ in every.values()),
        "alternatives": sum(a for _, a in every.values()),
        "alternatives_in_code": sum(a for _, a in in_code.values()),
        "per_module": {m: every[m] + [in_code[m][1]] for m in every},
        "cue_phrases": cue_phrases(package),
        "decide_lines": lines, "decide_returns": returns,
        "quoting_comments": quoting_comments(package),
    }


def main(argv: list[str]) -> int:
    package = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "function" / "nztax"
    m = measure(package.resolve())
    print(f"| part | {package} |\n|---|---|")
    print(f"| compiled regexes in the reading modules ({len(m['modules'])}) | {m['patterns']} |")
    print(f"| their alternatives: all / written in code | {m['alternatives']} / {m['alternatives_in_code']} |")
    print(f"| cue phrases in intents.yaml | {m['cue_phrases']} |")
    print(f"| decide(): lines, returns | {m['decide_lines']}, {m['decide_returns']} |")
    print(f"| comments quoting words (two or more in quotes) | {m['quoting_comments']} |")
    print("\n| module | patterns | alternatives | in code |\n|---|---|---|---|")
    for name, (patterns, alts, in_code) in sorted(m["per_module"].items(), key=lambda kv: -kv[1][2]):
        print(f"| {name} | {patterns} | {alts} | {in_code} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
