"""Metamorphic checks on how answers open (issue 37): the same subject asked for a figure and asked
yes-or-no opens differently, and a question naming one asset class never opens with another's rule.
The questions are generated from templates here, not taken from any bank or post."""

from __future__ import annotations

import re

import pytest

from nztax.sentences import sentences

ANSWER_WORD = re.compile(r"^(?:Yes|No|Not)\b")
FIGURE_IN = re.compile(r"\d")
# Each asset class and the words that name it (this test's own, independent of opening_fit's data).
ASSETS = {"crypto": ("crypto-assets", r"crypto"), "shares": ("shares in a listed company", r"\bshares?\b|\bstocks?\b"),
          "land": ("a section of land", r"\bland\b|\bpropert(?:y|ies)\b|\bhouses?\b")}
GAIN = ("Is the gain taxed when I sell {a} I have held for five years?", "Do I owe tax on the profit from selling {a}?",
        "I made money selling {a} last month - is that taxable?")


def first_sentence(engine, question: str) -> str:
    answer = engine.answer(question, use_faq=False, mode="offline").answer
    paragraph = next((b for b in answer.split("\n\n") if b.strip() and not b.lstrip().startswith("#")), "")
    return (sentences(paragraph.strip()) or [""])[0]


# Two subjects, each with a unit answering whether and a unit giving the figure, and a question of
# each kind in words neither unit's wordings use.
PAIRS = [
    {"whether": ("Do I have to use the fair dividend rate method?", ["Is the fair dividend rate method compulsory?",
                 "Must I use FDR for my overseas shares?"], "Not always: other methods can be used, depending on the investment."),
     "figure": ("What rate does the fair dividend rate method use?", ["What percentage is the fair dividend rate?",
                "How much is the FDR rate?"], "The fair dividend rate method treats {fdr_rate} of the opening market value as income."),
     "ask_figure": "How much is the fair dividend rate at present?",
     "ask_whether": "Is it compulsory to use the fair dividend rate method?"},
    {"whether": ("Is the ACC earners' levy charged on interest?", ["Do I pay ACC levy on my bank interest?",
                 "Is interest liable for the earners' levy?"], "No. The levy is charged on earnings from work, not on interest."),
     "figure": ("What is the ACC earners' levy rate?", ["How much is the ACC levy?", "What percentage is the earners' levy?"],
                "The levy is {acc_rate} of liable earnings in {year}."),
     "ask_figure": "What rate is the ACC earners' levy this year?",
     "ask_whether": "Is ACC levy taken from interest income?"},
]


def with_units(engine, units):
    """An engine on the same index and parts whose Ask box serves only these units."""
    from functools import partial

    from nztax.engine import Engine, _reading_of
    from nztax.unit_match import UnitMatcher, code_names, embed_rows, paraphrase_rows

    other = Engine(engine.rules, engine.retriever, engine.faq, engine.settings)
    other._classifier, other._speller, other._frame_model = engine.classifier, engine.speller, engine.frame_model
    other._sections, other._parts_tried = engine.citation_sections(), True
    other._unit_matcher = UnitMatcher(units, embed_rows(paraphrase_rows(units), engine.embedder), engine.settings,
                                      partial(_reading_of, engine.rules), code_names(engine.rules))
    return other


def _unit(kind: str, pair: dict, n: int):
    from nztax.units import Unit

    q, also, lead = pair[kind]
    return Unit(question=q, slug=f"{kind}-{n}", topic="t", topic_title="T", also=tuple(also), lead=lead)


@pytest.mark.parametrize("n", range(len(PAIRS)))
def test_a_figure_question_and_a_yes_or_no_question_on_one_subject_open_differently(engine, n):
    pair = PAIRS[n]
    both = with_units(engine, [_unit("whether", pair, n), _unit("figure", pair, n)])
    asked_figure, asked_whether = first_sentence(both, pair["ask_figure"]), first_sentence(both, pair["ask_whether"])
    assert asked_figure != asked_whether
    assert FIGURE_IN.search(asked_figure), asked_figure
    assert ANSWER_WORD.match(asked_whether), asked_whether


@pytest.mark.parametrize("n", range(len(PAIRS)))
def test_a_figure_question_is_never_opened_by_a_whether_unit_without_a_figure(engine, n):
    pair = PAIRS[n]
    only_whether = with_units(engine, [_unit("whether", pair, n)])
    opening = first_sentence(only_whether, pair["ask_figure"])
    assert not (ANSWER_WORD.match(opening) and not FIGURE_IN.search(opening)), opening


@pytest.mark.parametrize("asset", sorted(ASSETS))
def test_a_question_naming_one_asset_class_never_opens_with_anothers_rule(engine, asset):
    words, own = ASSETS[asset]
    for template in GAIN:
        opening = first_sentence(engine, template.format(a=words))
        others = [name for name, (_, pattern) in ASSETS.items() if name != asset and re.search(pattern, opening, re.I)]
        assert not others or re.search(own, opening, re.I), (asset, template, opening)
