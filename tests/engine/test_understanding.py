"""The intent catalogue, the classifier's margin and the decision rules (issue 11)."""

from decimal import Decimal

import numpy as np
import pytest

from nztax.decide import decide
from nztax.rules import default_rules
from nztax.say import fact_values, fill
from nztax.slots import read_slots
from nztax.tools import TOOLS
from nztax.understand import Catalogue, Classification, IntentClassifier, default_catalogue

RULES = default_rules()
CATALOGUE = default_catalogue()


def test_every_calculation_names_a_registered_tool():
    for intent in CATALOGUE.intents:
        if intent.does == "calculate":
            assert intent.tool in TOOLS, intent.name


def test_every_lead_fills_from_every_complete_year_that_has_its_sections():
    from nztax.composer import TOPIC_SECTIONS

    for year in RULES.complete_years():
        rules = RULES.years[year]
        values = fact_values(rules)
        for intent in CATALOGUE.intents:
            sections = [name for topic in intent.topics for name in TOPIC_SECTIONS[topic]]
            has_all = all(getattr(rules.data, name) is not None for name in sections)
            if intent.lead and has_all:
                assert fill(intent.lead, values) is not None, (intent.name, year)
            elif intent.lead:
                # A year without the topic's figures (bright-line before 2025-26) answers from its
                # sources instead of stating another year's figure.
                assert fill(intent.lead, values) is None, (intent.name, year)
    assert fill(CATALOGUE.get("bright_line").lead, fact_values(RULES.years["2026-27"])) is not None


def test_leads_carry_no_figures_of_their_own():
    # Figures come from the rules data through placeholders, never from the catalogue's text.
    import re

    for intent in CATALOGUE.intents:
        assert not re.search(r"\$\d|\d%", intent.lead or ""), intent.name


def test_a_bad_catalogue_is_refused_with_the_reason(tmp_path):
    bad = tmp_path / "intents.yaml"
    bad.write_text("intents:\n- name: x\n  does: compute\n  examples: [a]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="does must be one of"):
        Catalogue.load(bad)
    bad.write_text("intents:\n- name: x\n  does: fact\n  prefers: [moon]\n  examples: [a]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown slot features"):
        Catalogue.load(bad)
    # A bare off (or on, yes, no) is a boolean to YAML: the word "off" would never be matched.
    bad.write_text("intents:\n- name: x\n  does: refuse\n  decisive_sequences: [[[keep], [off, out of]]]\n  examples: [a]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="quote it"):
        Catalogue.load(bad)


def _toy(tmp_path):
    path = tmp_path / "intents.yaml"
    path.write_text(
        "intents:\n"
        "- {name: tax, does: calculate, tool: calculate_income_tax, needs: [income], examples: [tax on my salary]}\n"
        "- {name: rates, does: fact, lead: rates, examples: [what are the rates]}\n", encoding="utf-8")
    return Catalogue.load(path)


def test_the_margin_decides_whether_the_classifier_is_sure(tmp_path):
    catalogue = _toy(tmp_path)
    vectors = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    import dataclasses

    from nztax.settings import get_settings

    settings = dataclasses.replace(get_settings(), intent_lexical_weight=0.0, intent_slot_weight=0.0,
                                   intent_avoid_weight=0.0, intent_neighbours=1, intent_margin=0.1, intent_min_score=0.3)
    classifier = IntentClassifier(catalogue, vectors, settings)
    clear = classifier.classify("x", np.array([0.95, 0.31]))
    assert clear.intent.name == "tax" and clear.confident
    close = classifier.classify("x", np.array([0.72, 0.69]))
    assert close.intent.name == "tax" and not close.confident


def test_a_keyword_written_in_capitals_is_named_only_in_capitals(tmp_path):
    """An intent's keyword in capitals is an acronym: "pie" in running text does not name it, the
    same keyword in lower case names its intent in either case."""
    path = tmp_path / "intents.yaml"
    path.write_text(
        "intents:\n"
        "- {name: pir, does: fact, lead: pir, keywords: [pir, PIE], examples: [what is my rate]}\n"
        "- {name: rates, does: fact, lead: rates, examples: [what are the rates]}\n", encoding="utf-8")
    classifier = IntentClassifier(Catalogue.load(path), np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32))
    vector = np.array([0.0, 1.0])
    assert classifier.classify("Is a PIE taxed?", vector).named == ("pir",)
    assert classifier.classify("what pir do I use", vector).named == ("pir",)
    assert classifier.classify("my pie chart of the rates", vector).named == ()


def test_a_decline_in_its_own_words_is_sure_unless_the_question_is_about_nz_tax(tmp_path):
    import dataclasses

    from nztax.settings import get_settings

    path = tmp_path / "intents.yaml"
    path.write_text(
        "intents:\n"
        "- {name: rates, does: fact, lead: rates, keywords: [tax rates], examples: [what are the tax rates]}\n"
        "- {name: abroad, does: decline, keywords: [australian], decisive_unless: [nz tax], examples: [tax in another country]}\n",
        encoding="utf-8")
    settings = dataclasses.replace(get_settings(), intent_lexical_weight=0.0, intent_slot_weight=0.0,
                                   intent_avoid_weight=0.0, intent_neighbours=1, intent_margin=0.1, intent_min_score=0.3)
    classifier = IntentClassifier(Catalogue.load(path), np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32), settings)
    close = np.array([0.69, 0.72])  # the decline ahead, but inside the margin
    assert classifier.classify("what are the Australian tax rates", close).confident
    assert not classifier.classify("do I pay NZ tax on my Australian income", close).confident
    assert not classifier.classify("what are the tax rates over there", close).confident


def test_a_refusal_is_not_turned_into_a_decline_close_behind_it(tmp_path):
    import dataclasses

    from nztax.settings import get_settings

    path = tmp_path / "intents.yaml"
    path.write_text(
        "intents:\n"
        "- {name: mislead, does: refuse, examples: [hide my income]}\n"
        "- {name: gst, does: decline, keywords: [gst], examples: [register for gst]}\n", encoding="utf-8")
    settings = dataclasses.replace(get_settings(), intent_lexical_weight=0.0, intent_slot_weight=0.0, intent_avoid_weight=0.0,
                                   intent_neighbours=1, intent_margin=0.1, intent_min_score=0.3, refuse_margin=0.15,
                                   refuse_min_score_unworded=0.6)
    classifier = IntentClassifier(Catalogue.load(path), np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32), settings)
    near_both = np.array([0.8, 0.7])  # the refusal ahead, the decline (in its own word) close behind
    assert classifier.classify("hide my gst income", near_both).intent.name == "mislead"


def _classification(name: str, confident: bool, runner: str = "rates_fact") -> Classification:
    return Classification(intent=CATALOGUE.get(name), score=1.0, runner_up=CATALOGUE.get(runner),
                          runner_up_score=0.99 if not confident else 0.5, confident=confident)


def test_below_the_margin_the_engine_never_calculates():
    d = decide("tax on $85,000", _classification("income_tax", confident=False), RULES)
    assert d.action != "calculate" and not d.calls


def test_a_calculation_without_an_income_asks_for_it():
    d = decide("how much tax do I pay?", _classification("income_tax", confident=True), RULES)
    assert d.action == "clarify" and d.missing == ["income"]


def test_hourly_pay_without_hours_asks_for_them():
    d = decide("tax on $30 an hour", _classification("income_tax", confident=True), RULES)
    assert d.action == "clarify" and d.missing == ["hours"]


def test_a_comparison_is_answered_for_each_amount_not_summed():
    d = decide("tax on $70k vs $80k", _classification("income_tax", confident=True), RULES)
    assert [args["taxable_income"] for _, args in d.calls] == [70000, 80000]


def test_jobs_that_add_up_are_summed():
    d = decide("main job $50,000 and a second job $15,000, total income tax?",
               _classification("income_tax", confident=True), RULES)
    assert [args["taxable_income"] for _, args in d.calls] == [65000]


def test_a_partners_income_is_not_added():
    d = decide("my partner earns $90k and I earn $40k, how much tax do I pay?",
               _classification("income_tax", confident=True), RULES)
    assert [args["taxable_income"] for _, args in d.calls] == [40000]


def test_the_year_meant_is_irds_year():
    d = decide("tax on $50,000 for the 2025 year", _classification("income_tax", confident=True), RULES)
    assert d.tax_year == "2024-25" and d.calls[0][1]["tax_year"] == "2024-25"


def test_no_ird_number_means_nd():
    d = decide("no IRD number yet, $2,000 a fortnight, how much PAYE?", _classification("paye", confident=True), RULES)
    assert d.calls[0][1]["tax_code"] == "ND"


def test_a_small_amount_with_no_period_is_one_pay():
    d = decide("Paid four-weekly, $9,200 gross each time, code M. PAYE?", _classification("paye", confident=True), RULES)
    assert d.calls == [("calculate_paye", {"gross_pay": 9200.0, "pay_frequency": "four_weekly", "tax_code": "M",
                                           "tax_year": d.tax_year})]


def test_four_weekly_written_with_a_digit_is_the_period_not_four_dollars():
    d = decide("4 weekly pay 3,200 on M, paye?", _classification("paye", confident=True), RULES)
    assert [(args["gross_pay"], args["pay_frequency"]) for _, args in d.calls] == [(3200.0, "four_weekly")]


def test_a_confident_decline_is_final_and_an_unsure_one_is_looked_up():
    assert decide("How do I register for GST?", _classification("decline_gst", True), RULES).action == "decline"
    assert decide("How do I register for GST?", _classification("decline_gst", False), RULES).action == "topic"


def test_a_question_near_nothing_whose_nearest_way_out_is_a_decline_is_declined():
    from nztax.settings import get_settings
    floor = get_settings().intent_min_score
    question = "how many weeks' notice does the law give me before redundancy?"

    def near(score: float) -> Classification:
        return Classification(intent=CATALOGUE.get("employee_expenses"), score=score,
                              runner_up=CATALOGUE.get("decline_not_tax"), runner_up_score=score - 0.01, confident=False)

    assert decide(question, near(floor - 0.02), RULES).action == "decline"
    assert decide(question, near(floor + 0.1), RULES).action == "fact"  # near enough to a rule: answered


def test_slots_read_for_a_decision_keep_their_values():
    slots = read_slots("$2,400 per fortnight with KS 4% and a student loan", RULES)
    assert slots.incomes[0].value == Decimal(2400) and slots.kiwisaver_rate == 4.0 and slots.student_loan


def test_one_pay_without_its_frequency_asks_how_often():
    d = decide("How much PAYE comes out of $4,000?", _classification("paye", confident=True), RULES)
    assert d.action == "clarify" and d.missing == ["frequency"]


def test_a_second_jobs_pay_without_its_code_asks_for_it():
    d = decide("My second job pays $400 a week, how much PAYE?", _classification("paye", confident=True), RULES)
    assert d.action == "clarify" and d.missing == ["secondary_code"]


def test_monthly_donations_are_a_years_donations():
    d = decide("I donate $250 a month, what is my donation tax credit for the year?",
               _classification("donation_credit", confident=True), RULES)
    assert d.calls[0][1]["donations"] == 3000


def test_a_dated_pay_is_worked_out_with_that_days_rates():
    d = decide("PAYE on a $1,200 weekly pay dated 14 June 2024 on tax code M", _classification("paye", confident=True), RULES)
    assert d.calls[0][1]["pay_date"] == "2024-06-14" and d.tax_year == "2024-25"


def test_an_earlier_years_answer_quotes_no_undated_figures():
    from types import SimpleNamespace

    from nztax.passage_sentences import best_sentences

    hit = SimpleNamespace(text="The repayment threshold is $24,128 a year. Repayments are deducted from each pay.",
                          parent_id="p", title="t", url="u", section="")
    past = best_sentences("student loan repayment threshold", [hit], 3, tax_year="2023-24", past_year=True)
    assert all("$24,128" not in s for s, _ in past)
    assert any("$24,128" in s for s, _ in best_sentences("student loan repayment threshold", [hit], 3, tax_year="2026-27"))


def test_a_long_question_still_finds_the_sentence_that_answers_it():
    from types import SimpleNamespace

    from nztax.passage_sentences import best_sentences

    crypto = SimpleNamespace(text="A gain when you sell or exchange a crypto-asset you bought to sell is income. "
                                  "Keep records of each acquisition and disposal.", parent_id="c", title="c", url="c", section="")
    other = SimpleNamespace(text="Tell each PIE fund your prescribed investor rate. Interest is taxed at your rate.",
                            parent_id="o", title="o", url="o", section="")
    # Its amounts and the words no passage has ("later", "about") do not crowd out "bitcoin" -> "crypto-asset".
    chosen = best_sentences("I've got about $40,000 profit on Bitcoin that I bought to sell later. Do I tell IRD?",
                            [crypto, other], 1, tax_year="2026-27")
    assert chosen and chosen[0][0].startswith("A gain when you sell")
    # A passage sharing only the words every tax passage has is no answer.
    assert best_sentences("How are staking rewards taxed?", [other], 1, tax_year="2026-27") == []


def test_a_sequence_matches_its_steps_in_order_within_the_gap():
    from nztax.understand import follows_in_order

    sequence = (("so",), ("ird", "they"), ("never", "won't"), ("see", "find out"))
    assert follows_in_order(" so that ird will never see it ", (sequence,), gap=1)
    assert not follows_in_order(" so that ird will never see it ", (sequence,), gap=0)  # "will" sits between
    assert not follows_in_order(" ird never sees it so ", (sequence,), gap=3)  # out of order
    assert follows_in_order(" so they won't find out ", (sequence,), gap=0)  # a two-word step
    assert follows_in_order(" so they won't find out ", ((("edit",), ("payslip",)), sequence), gap=0)  # any one of several
    later = (("tell",), ("ird",), (), ("actually",))  # an empty step: the next comes anywhere later
    assert follows_in_order(" tell ird i lived in bali . i was in fact and actually here ", (later,), gap=0)
    assert not follows_in_order(" i was actually here so tell ird ", (later,), gap=0)
