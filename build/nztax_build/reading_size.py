"""The size of what the engine knows about questions, counted the way issue 36 counts it.

In: a package directory (`function/nztax` of any checkout). Out: a markdown table of
- the regular expressions the question-reading modules compile at import, and their alternatives:
  all of them, and those written in code (each `cue_words` list counted as one alternative: with it
  stubbed out, what is left of each pattern is the code's own);
- the cue phrases of `data/intents.yaml` (every keyword and decisive word or sequence item);
- the alternations written in code that list English words (`word_lists_in_code`: seven or more
  words of three letters or more, not counting the formats the engine's own format patterns read:
  numbers in words, months, pay periods, currencies);
- the lines and `return`s of `decide()`;
- comments that quote words: a quoted fragment of two words or more in a `#` comment of a module or a
  data file (a quoted format like "85k" has one word), and of them those quoting a question (the
  fragment ends in "?").

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
from functools import lru_cache
from pathlib import Path
from re import _parser

import yaml

# The modules that read a question (slots.py and decide.py at filing, and the modules they were split
# into since), and understand.py; those not in a checkout are skipped.
READING_MODULES = (
    "slots", "decide", "understand", "text_cleaning", "amount_grammar", "amount_roles", "amount_owners",
    "money_reader", "worked_amounts", "question_conditions", "years", "ages", "question_turns", "clarify_checks",
    "calculation_plan", "calculator_calls", "decision_table", "decision_rows", "input_figures", "frame", "example_figures", "pay_questions",
    "short_query", "follow_up", "stated", "left_out", "lead_choice", "ask_backs", "reading_switches", "sum_inputs",
    "decide_outcomes",
)
CUE_FIELDS = ("keywords", "decisive", "decisive_unless", "decisive_always", "nearness_unless", "decisive_sequences")
WORD_LIST_MIN = 7  # words in one alternation that make it a word list
QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _alternations(items):
    """The branches of each alternation in a parsed pattern, nested ones included."""
    for op, value in items:
        subs = []
        if op is _parser.BRANCH:
            yield value[1]
            subs = value[1]
        elif isinstance(value, _parser.SubPattern):
            subs = [value]
        elif isinstance(value, (list, tuple)):
            for part in value:
                if isinstance(part, _parser.SubPattern):
                    subs.append(part)
                elif isinstance(part, (list, tuple)):
                    subs += [p for p in part if isinstance(p, _parser.SubPattern)]
        for sub in subs:
            yield from _alternations(sub)


def alternatives(pattern: re.Pattern) -> int:
    """How many alternatives the pattern's alternations hold, nested ones included (0 for none)."""
    return sum(len(branches) for branches in _alternations(_parser.parse(pattern.pattern, pattern.flags)))


def _literal_word(branch) -> str | None:
    chars = [chr(value) if op is _parser.LITERAL else None for op, value in branch]
    word = "".join(chars) if None not in chars else ""
    return word if re.fullmatch(r"[a-z][a-z' -]*[a-z]", word) else None


def _word_alternations(items):
    """The plain-word alternatives of each alternation in a parsed pattern."""
    for branches in _alternations(items):
        yield [w for w in map(_literal_word, branches) if w]


@lru_cache(maxsize=None)
def _is_format_word(word: str) -> bool:
    """Read by one of the engine's format patterns: a number in words, a month, a pay period, a currency."""
    formats = []
    for module, names in (("text_cleaning", ("UNIT_WORDS", "_TENS", "_SCALES")), ("amount_grammar", ("MONTH_NAMES", "FREQ_AFTER", "FOREIGN_AFTER")),
                          ("slots", ("UNIT_WORDS", "_TENS", "_SCALES", "MONTH_NAMES", "FREQ_AFTER", "FOREIGN_AFTER"))):
        try:
            loaded = importlib.import_module(f"nztax.{module}")
        except ImportError:
            continue
        formats += [getattr(loaded, n) for n in names if hasattr(loaded, n)]
    for f in formats:
        if isinstance(f, dict):
            if word in f:
                return True
            continue
        pattern = re.compile(f, re.I) if isinstance(f, str) else f
        # (A currency's adjective reads only before "dollars".)
        if any(pattern.fullmatch(w) or pattern.match(w) and pattern.match(w).end() == len(w) for w in (word, word + " dollars")):
            return True
    return False


def word_lists(patterns: dict[str, re.Pattern]) -> list[tuple[str, list[str]]]:
    """(name, words) of each alternation of `WORD_LIST_MIN` or more words that are not formats."""
    found = []
    for name, pattern in patterns.items():
        for words in _word_alternations(_parser.parse(pattern.pattern, pattern.flags)):
            words = [w for w in words if len(w) >= 3 and not _is_format_word(w)]
            if len(words) >= WORD_LIST_MIN:
                found.append((name, words))
    return found


def _patterns_in(value, depth: int = 0):
    if isinstance(value, re.Pattern):
        yield value
    elif isinstance(getattr(value, "pattern_object", None), re.Pattern):
        yield value.pattern_object  # a pattern behind the literal screen (nztax/literal_screen.py)
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


def compiled(package: Path, stub_cues: bool) -> dict[str, list]:
    """{module: [patterns, alternatives, word lists]} for the reading modules, imported from
    `package`'s parent (word lists: [pattern name, words] of each alternation `word_lists` finds)."""
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
        seen: dict[int, tuple[str, re.Pattern]] = {}
        for attr in sorted(_module_level_names(path)):
            for p in _patterns_in(getattr(module, attr, None)):
                seen[id(p)] = (attr, p)
        out[name] = [len(seen), sum(alternatives(p) for _, p in seen.values()),
                     word_lists({f"{attr}#{i}": p for i, (attr, p) in enumerate(seen.values())})]
    return out


def in_fresh_process(package: Path, stub_cues: bool) -> dict[str, list]:
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


def quoting_comments(package: Path) -> tuple[int, int]:
    """(comments with a quoted fragment of two words or more, those whose fragment is a question: it
    ends in "?"), in the modules and data files."""
    files = sorted(package.glob("*.py")) + sorted((package / "data").glob("*.yaml"))
    quoted = [[q for q in QUOTED.findall(comment) if len(WORD.findall(q)) >= 2]
              for path in files for comment in _comments(path)]
    return sum(1 for q in quoted if q), sum(1 for q in quoted if any(f.rstrip().endswith("?") for f in q))


def measure(package: Path) -> dict:
    every = in_fresh_process(package, stub_cues=False)
    in_code = in_fresh_process(package, stub_cues=True)
    lines, returns = decide_size(package)
    return {
        "module_lines": sum(len((package / f"{m}.py").read_text(encoding="utf-8").splitlines()) for m in every),
        "modules": sorted(every),
        "patterns": sum(v[0] for v in every.values()),
        "alternatives": sum(v[1] for v in every.values()),
        "alternatives_in_code": sum(v[1] for v in in_code.values()),
        "per_module": {m: every[m][:2] + [in_code[m][1]] for m in every},
        "word_lists_in_code": [(m, name.split("#")[0], words) for m in in_code for name, words in in_code[m][2]],
        "cue_phrases": cue_phrases(package),
        "decide_lines": lines, "decide_returns": returns,
        "quoting_comments": quoting_comments(package),
    }


def main(argv: list[str]) -> int:
    package = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "function" / "nztax"
    m = measure(package.resolve())
    print(f"| part | {package} |\n|---|---|")
    print(f"| reading modules, their lines | {len(m['modules'])}, {m['module_lines']} |")
    print(f"| compiled regexes in them | {m['patterns']} |")
    print(f"| their alternatives: all / written in code | {m['alternatives']} / {m['alternatives_in_code']} |")
    print(f"| alternations in code listing {WORD_LIST_MIN}+ English words (not formats) | {len(m['word_lists_in_code'])} |")
    print(f"| cue phrases in intents.yaml | {m['cue_phrases']} |")
    print(f"| decide(): lines, returns | {m['decide_lines']}, {m['decide_returns']} |")
    print(f"| comments quoting words (two or more in quotes); of them a question (ending in ?) | "
          f"{m['quoting_comments'][0]}; {m['quoting_comments'][1]} |")
    print("\n| module | patterns | alternatives | in code |\n|---|---|---|---|")
    for name, (patterns, alts, in_code) in sorted(m["per_module"].items(), key=lambda kv: -kv[1][2]):
        print(f"| {name} | {patterns} | {alts} | {in_code} |")
    for module, name, words in m["word_lists_in_code"]:
        print(f"\nword list in code: {module}.{name}: {' | '.join(words[:12])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
