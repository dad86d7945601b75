"""What is asked decides scope, not the words of a sentence of context (issue 36).

Metamorphic families on the real engine (fixture index, shipped embedder), sentences made up for the
test: a New Zealand tax question with a sentence naming another country in passing (the poster's past,
a partner's employer abroad) is answered as it is alone; a question about another subject (a bank's
rates, a home loan, an employer's duties) stays declined when a sentence of context adds a tax word.
The readings: the frame's `asked_scope_in` (the scope reading of the asking sentences alone) and the
intent reading of those sentences, rows `asked_about_nz_personal_tax` and
`asked_outside_nz_personal_tax` in data/decisions.yaml."""

from __future__ import annotations

import itertools

import pytest

from nztax.frame import read_frame
from nztax.slots import Slots

NEW_ZEALAND_ASKED = ["What tax code should I use for my second job?",
                     "How much tax comes off a $3,000 bonus if I earn $70,000 a year?",
                     "Do I need to file an IR3 for the rent from my spare room?",
                     "Is the interest on my savings account taxed?",
                     "Can I claim a tax credit for donations to my church?"]
ANOTHER_COUNTRY_SAID = ["I moved here from Ireland last year.",
                        "In Australia I never had to think about tax codes.",
                        "My partner still works for a company in Canada.",
                        "Back in South Africa my employer did all of this for me."]
OTHER_SUBJECT_ASKED = ["Can my boss cut my rostered hours without asking me first?",
                       "Which bank gives the best interest rate on a six-month term deposit?",
                       "Should we fix our home loan for two years or stay on the floating rate?",
                       "How much notice does my employer have to give before making me redundant?",
                       "Is my employer allowed to refuse my request for annual leave over Christmas?"]
TAX_WORDS_SAID = ["I already pay RWT on my savings interest.",
                  "We're both on the 30% tax rate.",
                  "My payslips always show PAYE and KiwiSaver coming off.",
                  "I'm on the M tax code at that job."]


@pytest.mark.parametrize("asked", NEW_ZEALAND_ASKED)
def test_family_another_country_said_in_passing_is_answered_as_alone(engine, asked):
    alone, _ = engine.understand(asked, None, None)
    assert alone.action != "decline", alone.trace.to_json()
    for said in ANOTHER_COUNTRY_SAID:
        decision, _ = engine.understand(f"{said} {asked}", None, None)
        assert decision.action != "decline", (said, asked, decision.trace.to_json())


@pytest.mark.parametrize("asked,said", list(itertools.product(OTHER_SUBJECT_ASKED, TAX_WORDS_SAID)))
def test_family_a_tax_word_in_context_does_not_take_in_another_subject(engine, asked, said):
    alone, _ = engine.understand(asked, None, None)
    assert alone.action == "decline", alone.trace.to_json()
    decision, _ = engine.understand(f"{said} {asked}", None, None)
    assert decision.action == "decline", (said, asked, decision.trace.to_json())


class _Model:
    """A frame model that records the texts each scope reading is given."""

    def __init__(self):
        self.read: list[tuple[str, ...]] = []

    def asks(self, sentences):
        return [("how", 0.9) for _ in sentences]

    def scope_reading(self, *texts):
        self.read.append(texts)
        return "nz_tax", 0.9, 0.9, "banking"

    def amount_readings(self, text, spans):
        return []


@pytest.mark.parametrize("text, alone", [
    ("Is the interest on my savings account taxed?", False),                       # nothing but what is asked
    ("I moved here last year. Is the interest on my savings account taxed?", True),  # a sentence of context too
    ("I moved here last year. The bank pays interest monthly.", False),            # nothing asked in words
])
def test_the_asking_sentences_are_read_alone_only_beside_other_words(text, alone):
    model = _Model()
    frame = read_frame(text, Slots(), model)
    assert (frame.asked_scope_in is not None) is alone
    assert model.read[-1][-1] == text  # (the whole post's reading is still the frame's scope)
    if alone:
        assert model.read[0] == ("Is the interest on my savings account taxed?",)
