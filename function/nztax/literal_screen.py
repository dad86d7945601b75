"""A cheap, exact test that a pattern cannot match a text: none of the literal words it needs is there.

In: a compiled pattern. Out: `needs(pattern)`, the literal strings of which at least one occurs in
every text the pattern matches (None when no such set can be read from it), and `Screened`, the
pattern behind that test: `search`, `finditer`, `findall`, `sub`, `split` answer at once, as the
pattern would, when the text holds none of them (`match` and a pattern anchored at the start try one
place only, and run as they are); `screen_patterns(namespace)` puts every module-level pattern of
a module behind it.

Why: the readers try a few hundred patterns on the whole question, most of them alternations of
cue words with a word boundary or a look-behind in front, for which Python's engine has no prefix
to skip ahead with and so tries every branch at every character. A 999-character question cost as
much as eleven normal ones, most of it in searches that found nothing; a substring test per
literal is a fast scan in C, and the literals are read once per pattern, not per question.

Exact by construction: a literal is read only from what every match must contain (a run of literal
characters in sequence, a class of listed characters, a group, every branch of an alternation, a
repeat of at least one), never from a look-around or a group with flags of its own. Case-insensitive
patterns compare lower-cased ASCII only: for any other text (or literal) Unicode's case folding
("ſ" matches "s") would need more than `str.lower`, so the pattern runs as it is. Texts shorter than `SCREEN_FROM` run as they
are: there a search costs little, and no question of ordinary length pays for reading the literals.
"""

from __future__ import annotations

import re
import sys
from re import _parser
from re._constants import (AT, AT_BEGINNING, AT_BEGINNING_STRING, ATOMIC_GROUP, BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT,
                           POSSESSIVE_REPEAT, SUBPATTERN)

SCREEN_FROM = 200  # characters
_UNREAD = object()
_END = sys.maxsize  # (as `re` takes an end position left out)


def _most_selective(candidates: list[frozenset[str] | None]) -> frozenset[str] | None:
    """Of several sets each of which a match must meet, the one whose shortest literal is longest."""
    known = [c for c in candidates if c]
    return max(known, key=lambda c: (min(map(len, c)), -len(c))) if known else None


def _needs(sequence) -> frozenset[str] | None:
    candidates, run = [], []
    for op, av in sequence:
        if op is LITERAL:
            run.append(chr(av))
            continue
        if op is AT:  # (a word boundary or an anchor takes no characters: the run goes on)
            continue
        if run:
            candidates.append(frozenset(["".join(run)]))
            run = []
        if op is SUBPATTERN:
            _, add_flags, del_flags, body = av
            if not (add_flags or del_flags):
                candidates.append(_needs(body))
        elif op is BRANCH:
            each = [_needs(branch) for branch in av[1]]
            if all(each):
                candidates.append(frozenset().union(*each))
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
            least, _, body = av
            if least >= 1:
                candidates.append(_needs(body))
        elif op is ATOMIC_GROUP:
            candidates.append(_needs(av))
        elif op is IN and av and all(item_op is LITERAL for item_op, _ in av):
            candidates.append(frozenset(chr(c) for _, c in av))  # (a class of listed characters: one of them)
    if run:
        candidates.append(frozenset(["".join(run)]))
    return _most_selective(candidates)


def needs(pattern: re.Pattern) -> frozenset[str] | None:
    """The literals of which every match of `pattern` holds one (lower-cased for a case-insensitive
    pattern), or None."""
    if not isinstance(pattern.pattern, str):
        return None
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    if len(parsed) and parsed[0] in ((AT, AT_BEGINNING), (AT, AT_BEGINNING_STRING)):
        return None  # (anchored at the start: tried at one place only, it costs little; a screen would read the whole text)
    found = _needs(parsed)
    if found is None or not pattern.flags & re.IGNORECASE:
        return found
    return frozenset(s.lower() for s in found) if all(s.isascii() for s in found) else None


class Screened:
    """`pattern`, tried only on a text that holds one of the literals it needs."""

    __slots__ = ("pattern_object", "_needs", "_folds")

    def __init__(self, pattern: re.Pattern):
        self.pattern_object = pattern
        self._needs = _UNREAD
        self._folds = bool(pattern.flags & re.IGNORECASE)

    def cannot_match(self, text, pos: int = 0, endpos: int = _END) -> bool:
        """True only when no match of the pattern can be in `text[pos:endpos]` (False: it may be).
        (A match takes its literals from the part searched; only a look-behind sees before `pos`.)"""
        if not isinstance(text, str):
            return False
        pos, endpos = max(pos, 0), min(max(endpos, 0), len(text))
        if endpos - pos < SCREEN_FROM:
            return False
        if pos or endpos < len(text):
            text = text[pos:endpos]
        if self._needs is _UNREAD:
            self._needs = needs(self.pattern_object)
        if self._needs is None:
            return False
        if self._folds:
            if not text.isascii():
                return False
            text = text.lower()
        return not any(literal in text for literal in self._needs)

    def search(self, string, pos=0, endpos=_END):
        return None if self.cannot_match(string, pos, endpos) else self.pattern_object.search(string, pos, endpos)

    def match(self, string, pos=0, endpos=_END):  # (tried at `pos` only: no screen)
        return self.pattern_object.match(string, pos, endpos)

    def fullmatch(self, string, pos=0, endpos=_END):  # (tried at `pos` only: no screen)
        return self.pattern_object.fullmatch(string, pos, endpos)

    def finditer(self, string, pos=0, endpos=_END):
        return iter(()) if self.cannot_match(string, pos, endpos) else self.pattern_object.finditer(string, pos, endpos)

    def findall(self, string, pos=0, endpos=_END):
        return [] if self.cannot_match(string, pos, endpos) else self.pattern_object.findall(string, pos, endpos)

    def split(self, string, *args, **kwargs):
        return [string] if self.cannot_match(string) else self.pattern_object.split(string, *args, **kwargs)

    def sub(self, repl, string, *args, **kwargs):
        return string if self.cannot_match(string) else self.pattern_object.sub(repl, string, *args, **kwargs)

    def subn(self, repl, string, *args, **kwargs):
        return (string, 0) if self.cannot_match(string) else self.pattern_object.subn(repl, string, *args, **kwargs)

    def __getattr__(self, name):  # pattern, flags, groups, groupindex, scanner
        return getattr(self.pattern_object, name)

    def __repr__(self) -> str:
        return f"Screened({self.pattern_object!r})"


def _screened(value):
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        return Screened(value)
    return value


def screen_patterns(namespace: dict) -> None:
    """Put each pattern of a module's namespace (alone, or in a list, tuple or dict of patterns) behind
    the screen. Called at the end of a reading module, so modules importing its patterns get these."""
    for name, value in list(namespace.items()):
        if isinstance(value, re.Pattern):
            namespace[name] = _screened(value)
        elif isinstance(value, list) and value and all(isinstance(v, re.Pattern) for v in value):
            value[:] = [_screened(v) for v in value]
        elif isinstance(value, tuple) and value and all(isinstance(v, re.Pattern) for v in value):
            namespace[name] = tuple(_screened(v) for v in value)
        elif isinstance(value, dict) and value and all(isinstance(v, re.Pattern) for v in value.values()):
            for key in value:
                value[key] = _screened(value[key])
