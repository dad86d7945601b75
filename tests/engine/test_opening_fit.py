"""A worked example or a sentence about another subject than the question names does not open an
answer (opening_fit.py, lead_choice.py). Every name, figure and wording here is made up for the test."""

from __future__ import annotations

from types import SimpleNamespace

from nztax.lead_choice import choose
from nztax.opening_fit import (lead_on_subject, may_open, off_question, other_subject, subjects_named, turns, with_what_it_leans_on,
                               worked_example)


def _hit(text: str, section: str = "Overview", title: str = "A page") -> SimpleNamespace:
    return SimpleNamespace(text=text, url="https://www.ird.govt.nz/y", parent_id="p", title=title, section=section)


EXAMPLE = _hit("Tamati is paid $1,150 a week from his main job. Tamati's employer takes PAYE from each pay. "
               "PAYE is taken from every pay.")


def test_a_named_persons_story_is_a_worked_example_and_a_rule_is_not():
    assert worked_example("Tamati is paid $1,150 a week from his main job.", EXAMPLE)
    assert not worked_example("PAYE is taken from every pay.", EXAMPLE)


def test_a_capitalised_common_word_is_not_a_name():
    hit = _hit("Interest earned on a term deposit is income. Interest is taxed as it is paid; interest counts.")
    assert not worked_example("Interest earned on a term deposit is income.", hit)


def test_example_openers_and_example_sections():
    assert worked_example("These figures come from the weekly table for the year.", _hit("x"))
    assert worked_example("For example, a payment of $300 is taxed at 30%.", _hit("x"))
    assert worked_example("A pay of $900 gives PAYE of $150.", _hit("x", section="Example 2: a weekly pay"))


def test_a_worked_example_opens_when_the_question_asks_for_one():
    sentence = "Tamati is paid $1,150 a week from his main job."
    assert not may_open("How is PAYE worked out on a weekly pay?", sentence, EXAMPLE)
    assert may_open("Can you show an example of PAYE on a weekly pay?", sentence, EXAMPLE)


def test_a_sentence_about_another_asset_or_place_is_another_subject():
    assert other_subject("Is the gain on my crypto taxed when I sell?", "Gains on shares bought to hold are usually not taxed.", None)
    assert not other_subject("Is the gain on my crypto taxed when I sell?", "Crypto-assets bought to sell are taxed on the gain.", None)
    assert other_subject("How are dividends from NZ companies taxed?", "Overseas shares come under the FIF rules over a cost.", None)
    # Naming none of a group's members is no contradiction; naming both agrees.
    assert not other_subject("How are dividends from NZ companies taxed?", "Dividends are income.", None)
    assert not other_subject("Are my overseas shares or NZ shares taxed alike?", "Overseas shares come under FIF.", None)


def test_a_sentence_naming_nothing_is_read_by_its_passages_heading():
    hit = _hit("Income is worked out each year.", section="Foreign investment funds (FIF)")
    assert other_subject("How are dividends from NZ companies taxed?", "Income is worked out each year.", hit)
    assert not other_subject("How are dividends from NZ companies taxed?", "Income is worked out each year.", _hit("x"))


def test_a_worked_example_far_ahead_of_the_lead_does_not_open():
    lead = "PAYE is taken from each pay at the rates for the whole year's income."
    opening = choose("How much PAYE on $1,150 a week from my main job?", lead, [EXAMPLE], "2026-27", False, 0.0)
    assert opening.sentence is None or not opening.sentence.startswith("Tamati")


def test_a_lead_about_another_subject_gives_way_to_a_passage_on_the_questions_own():
    lead = "A long-term investor who holds shares for dividends does not usually pay tax on selling them."
    hit = _hit("Crypto-assets are property, and a gain from selling them is often taxable income.")
    opening = choose("Do I pay tax on a gain from selling crypto?", lead, [hit], "2026-27", False, 5.0)
    assert opening.sentence is not None and opening.sentence.startswith("Crypto-assets")
    # With no passage on the question's own subject, the lead stays: there is nothing better.
    assert choose("Do I pay tax on a gain from selling crypto?", lead, [], "2026-27", False, 5.0).sentence is None


def test_a_lead_sentence_naming_nothing_is_read_by_the_whole_lead():
    lead = "There is no general tax on gains. Gains on shares or land bought to sell are income."
    hit = _hit("Crypto-assets bought to sell or exchange are taxed on the gain.")
    opening = choose("Is there a gains tax on crypto?", lead, [hit], "2026-27", False, 5.0)
    assert opening.sentence is not None and opening.sentence.startswith("Crypto-assets")
    # Asked about shares, the same lead opens with its own first sentence.
    assert choose("Is there a gains tax on shares?", lead, [hit], "2026-27", False, 5.0).sentence is None


def test_a_units_lead_opens_only_on_the_questions_subject():
    lead = "Usually not: a gain is income only if you bought them to sell."
    written_for = "Do I pay tax when I sell shares I have held for years?"
    assert not lead_on_subject("Do I pay tax when I sell crypto I have held for years?", lead, written_for)
    assert lead_on_subject("Do I pay tax when I sell shares I have held for years?", lead, written_for)
    # A question naming no subject group is not held to one.
    assert lead_on_subject("Do I pay tax on a gain?", lead, written_for)
    # An employee's question is not opened by a lead written for the self-employed.
    assert not lead_on_subject("As an employee, can I claim my phone?", "You can claim the business part of its cost.",
                               "Can self-employed people claim a phone?")
    # A unit's opening is read with the question it answers, which names its subject.
    assert lead_on_subject("I'm self-employed: how do I repay my loan?",
                           "You repay through your return, on your salary or wages plus your business profit.",
                           "How do I repay my loan if I am self-employed?")


def test_interest_and_dividends_are_different_investment_income():
    question = "What rate of withholding tax comes off dividends from a company here?"
    assert other_subject(question, "When your interest is paid, the payer takes withholding tax off it.", None)
    assert not other_subject(question, "Dividends have withholding tax taken at the rate the company uses.", None)
    assert not other_subject(question, "Withholding tax comes off interest and dividends alike.", None)


def test_a_loans_interest_is_not_investment_income():
    question = "What rate of withholding tax comes off dividends from a company here?"
    assert not other_subject(question, "Your loan is interest-free while you live here.", None)


def test_a_lead_mentioning_one_kind_of_earner_in_passing_still_opens_for_another():
    lead = "The levy is charged on earnings up to a maximum. Employees pay it through their pay."
    opening = choose("What is the levy rate for a sole trader?", lead, [], "2026-27", False, 5.0)
    assert opening.lead.startswith("The levy is charged")
    assert not other_subject("What is the levy rate for a sole trader?", "The levy is charged on earnings.", None, context=lead)


def test_the_aspect_a_question_asks_of_its_topic():
    from nztax.opening_fit import aspects_asked, states_aspect

    assert aspects_asked("How do I actually get the IETC — is it through my tax code?") == {"means"}
    assert aspects_asked("What happens if I've been using the wrong PIR?") == {"consequence"}
    assert aspects_asked("Why did my assessment show tax to pay?") == {"cause"}
    assert aspects_asked("How long does transitional residence last?") == {"duration"}
    assert aspects_asked("What are schedular payments?") == {"definition"}
    # A figure asked is no aspect of these: the lead's figures answer it.
    assert not aspects_asked("How much tax do I pay on $60,000?")
    assert not aspects_asked("What is the tax rate for income between $50,000 and $70,000?")
    assert not aspects_asked("What is the IETC worth?")
    assert not aspects_asked("What is the student loan repayment threshold?")
    assert states_aspect("You get the credit by giving your employer the right tax code.", frozenset({"means"}))
    assert not states_aspect("The credit is worth at most $520 a year.", frozenset({"means"}))


def test_a_sentence_turning_the_asked_situation_the_other_way_does_not_open():
    # (Ending a savings suspension is answered by how to end one, not how to apply for one.)
    question = "I want to end my KiwiSaver savings suspension early. Do I need a form?"
    assert not may_open(question, "You can apply for an early savings suspension if you are in hardship.", None)
    assert may_open(question, "You can end a savings suspension at any time by telling your employer.", None)
    assert may_open(question, "A savings suspension lasts from 3 months to 1 year.", None)  # (turns it neither way)
    assert may_open("Can I take a savings suspension?", "You can apply for a savings suspension after 12 months.", None)


def test_which_way_a_text_turns_a_situation():
    assert turns("What happens when my savings suspension ends?") == {"savings_suspension": frozenset({"out_of"})}
    assert turns("I came back from unpaid leave last week.") == {"unpaid_leave": frozenset({"out_of"})}
    assert turns("I am going on unpaid leave.") == {"unpaid_leave": frozenset({"into"})}
    assert turns("Do I get employer contributions during a savings suspension?") == {}


def test_the_main_and_secondary_tax_codes_are_different_subjects():
    question = "Do we take student loan off a bonus for an employee on tax code 'M SL'?"
    assert other_subject(question, "How much student loan comes off a bonus on a secondary tax code?", None)
    assert not other_subject(question, "On M SL or ME SL, and on a secondary SL code, repayments come off it.", None)
    assert subjects_named("I'm on S SL at my second job")["tax_code"] == frozenset({"secondary"})
    # (Capital letters alone are no code: a country, an index, a word.)
    assert not subjects_named("I'm moving to SA with the S&P 500 fund for me")


def test_the_employers_and_the_governments_kiwisaver_contributions_are_different_subjects():
    question = "My children didn't get the KiwiSaver member tax credit. Why?"
    assert other_subject(question, "Your employer must contribute when you are a member, unless you are under 18.", None)
    assert not other_subject(question, "Members aged 16 and 17 can get the government contribution.", None)
    assert not other_subject("Are employer/government contributions worth it?", "Your employer must contribute.", None)


def test_a_sentence_leaning_on_the_one_before_opens_with_that_one():
    hit = _hit("Enrolment starts at 18. But members aged 16 or 17 can join through a provider. They pay the provider.")
    assert with_what_it_leans_on("But members aged 16 or 17 can join through a provider.", hit) == (
        "Enrolment starts at 18. But members aged 16 or 17 can join through a provider.")
    assert with_what_it_leans_on("Enrolment starts at 18.", hit) == "Enrolment starts at 18."
    # (Nothing whole before it: it stays as it is.)
    assert with_what_it_leans_on("This is the rule.", _hit("This is the rule. It applies.")) == "This is the rule."


def test_a_retrieved_sentence_leaning_on_the_one_before_does_not_open():
    hit = _hit("Your employer contributes too. This is the compulsory employer contribution.")
    assert not may_open("What is the compulsory employer contribution?", "This is the compulsory employer contribution.", hit)
    assert may_open("What is the compulsory employer contribution?", "Your employer contributes too.", hit)


def test_a_sentence_whose_subject_is_a_pronoun_for_someone_named_before_does_not_open():
    # (Who "her" is, the sentence before says: read alone, its figures look like the asker's.)
    hit = _hit("Aroha earns $4,100 a month on code M. Her monthly PAYE is $812.40. PAYE is taken from every pay.")
    assert not may_open("Why is my monthly PAYE different from the table?", "Her monthly PAYE is $812.40.", hit)
    assert may_open("Why is my monthly PAYE different from the table?", "PAYE is taken from every pay.", hit)
    # (A word that only begins like a pronoun is not one.)
    assert may_open("Is a heritage grant taxed?", "Heritage grants are taxed as income.", _hit("Heritage grants are taxed as income."))


def test_a_definition_opens_only_for_a_question_naming_its_term():
    definition = "Income year means, for a person, the 12-month period for which they return income."
    assert not may_open("My dad's tax code was wrong. Isn't that means tested?", definition, _hit(definition))
    assert may_open("What is an income year?", definition, _hit(definition))
    assert off_question("Isn't that means tested?", definition, _hit(definition))
    # (A worked example is the rule at work, on the question; a sentence beside it on its page may open instead.)
    assert not off_question("How is PAYE worked out?", "Tamati is paid $1,150 a week from his main job.", EXAMPLE)


def test_a_sentence_setting_out_a_situation_opens_only_a_question_naming_it():
    sentence = "Under 18, you can join KiwiSaver only through a scheme provider, not through your employer."
    assert not may_open("I signed the KiwiSaver forms at my new job but nothing is deducted. Where do I stand?",
                        sentence, _hit(sentence))
    assert may_open("My 16-year-old wants to join KiwiSaver. How?", sentence, _hit(sentence))
    # (A clause naming no situation sets none out.)
    assert may_open("I started a new job.", "If you are going to a new job, give your employer a KS2.", None)


def test_a_figure_under_a_heading_setting_out_a_situation_opens_only_a_question_naming_it():
    # The figure is the situation's (a reduced rate while a reduction lasts), not the asker's; a sentence
    # under that heading stating no figure, or the same figure for a question naming the situation, may open.
    sentence = "Your employer must deduct 2% while the reduction lasts."
    hit = _hit(sentence, section="What your employer does", title="Temporary rate reduction")
    assert not may_open("My boss told me my hourly rate is being reduced by $4. Is that allowed?", sentence, hit)
    assert may_open("I have a temporary rate reduction on my KiwiSaver. What does my employer deduct?", sentence, hit)
    assert may_open("My boss told me my hourly rate is being reduced by $4. Is that allowed?",
                    "Your employer keeps deducting while the reduction lasts.", hit)
    # (Under a heading naming no situation, a figure is read as before.)
    assert may_open("My boss told me my hourly rate is being reduced by $4. Is that allowed?", sentence,
                    _hit(sentence, section="What your employer does", title="Contribution rates"))
    # A figure that is neither dollars nor a rate (how long the reduction lasts) is the situation's too.
    lasting = "A reduction lasts from 3 to 12 months and can be renewed."
    assert not may_open("My boss told me my hourly rate is being reduced by $4. Is that allowed?", lasting,
                        _hit(lasting, section="What your employer does", title="Temporary rate reduction"))


def test_shares_are_read_as_an_investment_not_the_verb_or_a_portion():
    # Sharing a home or one's share of a cost names no investment: a question about a property that
    # says so is not kept from a lead on property.
    for text in ("My partner's sister shares the home with us", "Who shares costs with the owner?",
                 "I pay a share of the costs", "What about my share of the rates?"):
        assert "shares" not in subjects_named(text).get("asset", frozenset()), text
    for text in ("I sold shares a year ago", "Are shares taxed?", "tax on my share portfolio", "the price per share",
                 "I have shares in a listed company", "gains from the sharemarket"):
        assert "shares" in subjects_named(text)["asset"], text
    assert not other_subject("My brother shares the home with me. Is the sale of the home taxed?",
                             "A residential property sold within two years of buying it is taxed.", None)


def test_a_pie_fund_is_an_investment_of_its_own():
    # A sentence on how a PIE's income is taxed at the PIR is no answer to a question on crypto gains.
    assert subjects_named("What PIR should I give my KiwiSaver provider?")["asset"] == frozenset({"pie_fund"})
    assert other_subject("Do I pay tax on crypto gains?",
                         "Your provider pays tax on your share of the fund's gains at your PIR.", None)


def test_a_pie_fund_is_named_by_its_acronym_in_capitals_never_by_the_word_pie():
    # The acronym in capitals names the fund; "pie" alone is food or a chart (cue_words.exact_capitals),
    # but "pie" typed in lower case before a fund's words still names it.
    for text in ("Is a PIE better than my term deposit?", "which pie fund is best for tax", "what pir do I use"):
        assert "pie_fund" in subjects_named(text).get("asset", frozenset()), text
    for text in ("I drew a pie chart of my spending", "I sell pies at the market"):
        assert "pie_fund" not in subjects_named(text).get("asset", frozenset()), text


def test_a_sentence_pointing_to_a_page_does_not_open_but_a_rule_does():
    question = "How do I pay back a scholarship bond?"
    assert off_question(question, "See Repaying a bond when you leave early.", _hit("x"))
    assert off_question(question, "This section explains bonds, what you repay and when.", _hit("x"))
    assert off_question(question, "For more information on bonds, call us.", _hit("x"))
    assert not off_question(question, "You pay back a bond in instalments through myIR.", _hit("x"))
    # (Only at the start: a rule that ends pointing onwards still states the rule.)
    assert may_open(question, "You repay the bond after you leave; see Bonds for the rates.", _hit("x"))


def test_a_passage_sentence_opens_in_place_of_a_pointer_whatever_the_margin():
    lead = "See Scholarship bonds for the rule on bonds."
    bond = _hit("A scholarship bond is repaid when you leave early.")
    opening = choose("What is the rule on scholarship bonds?", lead, [bond], "2026-27", False, 0.5)
    assert opening.sentence == "A scholarship bond is repaid when you leave early."


def test_a_kiwisaver_fund_held_is_a_pie_fund_but_its_contributions_are_not():
    # A KiwiSaver fund is a PIE: its investment income is taxed at the member's PIR, so the rule for
    # shares (FIF) is another subject's. Its contributions are pay, not a holding.
    for text in ("Do I need to pay FIF tax on my KiwiSaver?", "Is my KiwiSaver fund taxed on its returns?",
                 "How are KiwiSaver investments taxed?", "Does our KiwiSaver scheme pay tax on overseas shares?"):
        assert "pie_fund" in subjects_named(text).get("asset", frozenset()), text
    for text in ("Is the employer KiwiSaver contribution 4% now?", "my KiwiSaver contributions are 3%",
                 "Do I pay tax on my KiwiSaver employer contributions?", "kiwisaver rates"):
        assert "pie_fund" not in subjects_named(text).get("asset", frozenset()), text
    assert other_subject("Do I need to pay FIF tax on my KiwiSaver?",
                         "Overseas shares come under the FIF rules when their total cost is more than $50,000.", None)
