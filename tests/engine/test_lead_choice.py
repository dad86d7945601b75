"""A fact answer no unit matched opens with the sentence that answers the question asked (lead_choice.py)."""

from types import SimpleNamespace

from nztax.lead_choice import choose, lead_sentences, topics_named, without_topic

LEAD = ("You pay provisional tax for a year if your residual income tax was more than $5,000 the year before. "
        "Under the standard option it is last year's residual income tax plus 5%, paid in three instalments.")


def _hit(text: str, url: str = "https://www.ird.govt.nz/x") -> SimpleNamespace:
    return SimpleNamespace(text=text, url=url, parent_id=url, title="t", section="")


def test_a_bare_yes_or_no_stays_with_its_sentence():
    assert lead_sentences("No. Only the part over $180,000 is taxed at 39%. Each band is taxed on its own.") == [
        "No. Only the part over $180,000 is taxed at 39%.", "Each band is taxed on its own."]


def test_the_leads_sentence_that_answers_comes_first():
    opening = choose("What is the uplift under the standard option?", LEAD, [], "2026-27", False, 0.5)
    assert opening.sentence is None
    assert opening.lead.startswith("Under the standard option")
    assert "You pay provisional tax" in opening.lead  # the rest of the lead follows


def test_a_lead_opening_no_is_not_reordered():
    lead = "No. Only the part over $180,000 is taxed at 39%. The standard option uplift is 5%."
    assert choose("What is the standard option uplift?", lead, [], "2026-27", False, 0.5).lead == lead


def test_a_passage_sentence_far_ahead_of_the_lead_opens_instead():
    hit = _hit("The accounting income method (AIM) lets you pay provisional tax as you earn, through AIM-capable software.")
    opening = choose("What is the accounting income method (AIM) for provisional tax?", LEAD, [hit], "2026-27", False, 0.5)
    assert opening.sentence and opening.sentence.startswith("The accounting income method")
    assert opening.hit is hit and opening.score > opening.lead_score + 0.5


def test_a_passage_sentence_only_a_little_ahead_leaves_the_lead_to_open():
    hit = _hit("Residual income tax over $5,000 means provisional tax is due in the next year, in instalments.")
    asked = "Is residual income tax over the threshold due as provisional tax?"
    opening = choose(asked, LEAD, [hit], "2026-27", False, 0.5)
    assert opening.sentence is None
    # Without the margin the passage sentence would open: the margin decides, not the scorer alone.
    assert choose(asked, LEAD, [hit], "2026-27", False, 0.0).sentence == hit.text
    # Asked when, the passage saying when ("in instalments") opens whatever the margin: the lead does not say it.
    assert choose("When is residual income tax over the threshold due as provisional tax?", LEAD, [hit], "2026-27",
                  False, 0.5).sentence == hit.text


def test_passages_for_the_question_alone_are_fetched_only_when_the_lead_covers_too_little():
    asked = []

    def question_hits():
        asked.append(True)
        return [_hit("Payroll giving lets employees donate straight from their pay and get the credit each payday.")]

    opening = choose("How does payroll giving work?", LEAD, [], "2026-27", False, 0.5, question_hits)
    assert asked and opening.sentence and "Payroll giving" in opening.sentence
    asked.clear()
    choose("What is the standard option uplift for provisional tax?", LEAD, [], "2026-27", False, 0.5, question_hits)
    assert not asked


def test_a_list_counts_by_its_item_that_answers_and_puts_it_first():
    from nztax.passage_sentences import best_sentences, list_items

    listed = ("You can: apply for a special deduction rate for your second job; Ask your employer for a tax code change; "
              "Apply for an exemption if you are a full-time student earning under the threshold.")
    assert [item for _, item in list_items(listed)][2].startswith("Apply for an exemption")
    assert list_items("The rate is 12%; it applies to every dollar.") == []  # a clause after a semicolon is no item
    many = _hit(listed, "https://www.ird.govt.nz/list")
    one = _hit("A full-time student earning under the threshold can apply for an exemption from deductions.",
               "https://www.ird.govt.nz/one")
    chosen = best_sentences("Can a full-time student apply for an exemption?", [many, one], 2, tax_year="2026-27")
    quoted = dict((hit.url, s) for s, hit in chosen)
    assert quoted[many.url].startswith("You can: Apply for an exemption")  # its answering item first


def _story(text: str, asking: list[str]) -> SimpleNamespace:
    frame = {"asking": asking, "story": True}
    return SimpleNamespace(asked=text, trace=SimpleNamespace(frame=frame))


def test_a_storys_opening_is_weighed_against_its_asking_sentence_wherever_it_stands():
    """The background names the lead's first sentence's words (residual income tax over $5,000); the
    story asks about the uplift. The lead's uplift sentence opens, with the asking sentence at the end
    or at the front; a one-line question is weighed as asked."""
    from nztax.say import weighed_against

    background = ("I pay provisional tax for the year because my residual income tax was more than $5,000 the year "
                  "before, and I pay provisional tax every year.")
    asked = "What is the uplift under the standard option?"
    for text in (f"{background} {asked}", f"{asked} {background}"):
        story = _story(text, [asked])
        assert weighed_against(story) == asked
        assert choose(weighed_against(story), LEAD, [], "2026-27", False, 0.5).lead.startswith("Under the standard option")
    # (Weighed against the whole story, the background's words would open with the lead's first sentence.)
    assert choose(f"{background} {asked}", LEAD, [], "2026-27", False, 0.5).lead.startswith("You pay provisional tax")
    one_line = SimpleNamespace(asked=asked, trace=SimpleNamespace(frame={"asking": [asked], "story": False}))
    assert weighed_against(one_line) == asked


KS_LEAD = ("KiwiSaver employee contributions are 3.5%, 4%, 6%, 8% or 10% of your gross pay, and your employer must add "
           "at least 3.5%. You can apply for a temporary rate reduction to 3%.")
UNPAID = _hit("Contributions are worked out on the pay actually paid, so none are due for a period of unpaid leave "
              "with no pay.")


def test_a_lead_not_naming_the_situation_asked_gives_way_to_a_sentence_that_does():
    asked = "Are KiwiSaver contributions due on unpaid leave?"
    opening = choose(asked, KS_LEAD, [UNPAID], "2026-27", False, 0.5, situations=frozenset({"unpaid_leave"}))
    assert opening.sentence == UNPAID.text
    # Family: the same question with no situation read keeps the lead, whose rates the scorer ranks first.
    assert choose(asked, KS_LEAD, [UNPAID], "2026-27", False, 5.0).sentence is None


def test_a_lead_naming_the_situation_keeps_its_place():
    lead = KS_LEAD + " No contributions are due while you are on unpaid leave."
    opening = choose("Are KiwiSaver contributions due on unpaid leave?", lead, [UNPAID], "2026-27", False, 5.0,
                     situations=frozenset({"unpaid_leave"}))
    assert opening.sentence is None


def test_with_no_sentence_naming_the_situation_the_lead_stays():
    other = _hit("The employer pays ESCT on its contributions at the employee's rate.")
    opening = choose("Are KiwiSaver contributions due on unpaid leave?", KS_LEAD, [other], "2026-27", False, 0.5,
                     situations=frozenset({"unpaid_leave"}))
    assert opening.sentence is None and opening.lead.startswith("KiwiSaver employee")

# What the question asks of the topic (its aspect): the lead, written for the topic's central
# question, opens only when it says that.
AMOUNT_LEAD = ("The independent earner tax credit is worth at most $520 a year, for incomes from $24,000 to $70,000. "
               "It is not for people on Working for Families.")
TOPIC = ("ietc", "independent earner tax credit")


def test_a_lead_that_does_not_say_how_gives_way_to_a_passage_that_does():
    hit = _hit("You get the credit by giving your employer the right tax code, or after the end of the year.")
    question = "How do I get the IETC — is it through my tax code?"
    opening = choose(question, AMOUNT_LEAD, [hit], "2026-27", False, 0.5, topic=TOPIC)
    assert opening.sentence == hit.text
    assert opening.score < opening.lead_score + 0.5  # it would not have won on the margin
    # A question asking none of the aspects: the margin decides.
    assert choose("Who can get the independent earner tax credit through a tax code?", AMOUNT_LEAD, [hit], "2026-27",
                  False, 0.5, topic=TOPIC).sentence is None


def test_a_passage_saying_the_aspect_about_nothing_else_asked_does_not_open():
    # (It says how, but shares no word with the question beyond the intent's topic.)
    hit = _hit("You apply for the independent earner tax credit by filing an income tax return.")
    assert choose("How does the IETC work?", AMOUNT_LEAD, [hit], "2026-27", False, 0.5, topic=TOPIC).sentence is None


def test_the_leads_sentence_that_says_how_comes_first():
    lead = AMOUNT_LEAD + " You get the credit by using the ME tax code in each pay."
    opening = choose("How do I get the independent earner credit?", lead, [], "2026-27", False, 0.5, topic=TOPIC)
    assert opening.sentence is None and opening.lead.startswith("You get the credit by using the ME tax code")


def test_a_definition_is_what_opens_a_question_asking_what_a_term_is():
    lead = ("Your tax code tells your employer how much tax to take from each pay: M for your main job, WT for "
            "schedular payments (contractors).")
    hit = _hit("Schedular payments are payments to contractors for certain types of work listed in the Income Tax Act.")
    opening = choose("As a contractor, tax is taken off my invoices — what are schedular payments?", lead, [hit],
                     "2026-27", False, 0.5, topic=("tax codes", "schedular", "contractor"))
    assert opening.sentence == hit.text


CRYPTO_PAGE = (
    "Income from crypto-assets is taxable when:\n\n"
    "- you acquired the crypto-asset for the purpose of selling or exchanging it. IRD considers this is often the case "
    "for crypto-assets, because many do not produce income such as dividends.\n"
    "- you trade crypto-assets as a business, or use them in a profit-making scheme.\n"
    "- you received it as payment for goods or services, or as salary or wages.\n"
    "- you got it through mining or staking.\n\n"
    "What counts is your main purpose at the time you acquired (for example bought or mined) the crypto-asset; if it "
    "changes later, that does not matter. If you mean to sell or exchange it some day, that is a purpose of disposal "
    "however long you plan to hold it. What you say your purpose was must fit what you actually do and the "
    "circumstances, such as the kind of asset, how you bought it, how many similar transactions you make and how long "
    "you hold it.\n\nIf one of these applies, a gain when you sell, exchange or spend the crypto-asset is income, and a "
    "loss may be deductible.")
SHARES_PAGE = (
    "New Zealand has no general capital gains tax, but tax rules decide whether an amount you receive is income, and "
    "they can apply to what you get when you sell shares. Amounts from selling shares are income if you bought the "
    "shares mainly to sell them, if you deal in shares as a business, or if the shares were part of a profit-making "
    "scheme. A long-term investor who bought shares for the dividends usually does not pay tax on the gain.")


def test_a_topic_answer_on_crypto_never_opens_with_the_share_rule_its_words_fit_better():
    # The share rule shares more of the question's words ("long-term") than the crypto rule does and,
    # with the share page's other sentence, is all that clears the coverage bar: the sentences on the
    # question's subject are then scored again without them.
    from nztax.say import topic

    crypto = SimpleNamespace(text=CRYPTO_PAGE, url="https://www.ird.govt.nz/crypto", parent_id="crypto",
                             title="Crypto-assets", section="When gains are taxable")
    shares = SimpleNamespace(text=SHARES_PAGE, url="https://www.ird.govt.nz/shares", parent_id="shares",
                             title="Share investments", section="Selling shares")
    for question in ("I have held crypto for 5 years as a long-term investment, do I pay tax when I sell?",
                     "As a long-term investor in bitcoin, do I pay tax when I sell after 5 years?"):
        decision = SimpleNamespace(asked=question, tax_year="2026-27", trace=None, complex_situation=False)
        opening = topic(decision, None, [crypto, shares], "2026-27").answer.split("\n\n")[0]
        assert "crypto" in opening and "shares" not in opening, (question, opening)


def test_a_sentence_dated_after_an_earlier_year_is_not_its_answer():
    """Tax for 2007-08 was due in 2009; a sentence giving 2027's due date is a later year's, while
    the date the rule started (2007) and the year after the year's end (2009) are that year's own."""
    from nztax.passage_sentences import best_sentences
    from nztax.years import names_a_later_year

    assert names_a_later_year("Tax to pay is due on 7 February 2027.", "2007-08")
    assert not names_a_later_year("Tax to pay was due on 7 February 2009.", "2007-08")
    assert not names_a_later_year("From 1 April 2007 the FIF rules apply.", "2007-08")
    assert not names_a_later_year("Tax to pay is due on 7 February 2027.", None)
    assert not names_a_later_year("The 2026-27 rates apply.", "2007-08")  # a tax year is read by the year filter
    due = _hit("If you have FIF income tax to pay, it is due on 7 February 2027. The FIF rules apply from 1 April 2007.")
    question = "When did the FIF rules start, and when was FIF income tax due?"
    earlier = [s for s, _ in best_sentences(question, [due], 2, tax_year="2007-08", past_year=True)]
    assert earlier and not any("2027" in s for s in earlier), earlier
    current = [s for s, _ in best_sentences(question, [due], 2, tax_year="2026-27", past_year=False)]
    assert any("2027" in s for s in current), current


# A lead stating the topic's rate, for a question asking when: the lead opens only when it says
# when, a passage sentence saying when opens instead, and with neither the answer says it has not
# found it (Opening.unanswered) before the lead.
RATE_LEAD = ("Employer contributions are taxed with ESCT at a rate set by your salary plus employer contributions "
             "for the previous year, from 10.5% up to 39%.")
RATE_TOPIC = ("esct", "employer superannuation contribution tax")


def test_a_when_question_is_not_answered_by_a_lead_stating_a_rate():
    opening = choose("When does my ESCT rate get worked out?", RATE_LEAD, [], "2026-27", False, 0.5, topic=RATE_TOPIC)
    assert opening.sentence is None and opening.unanswered == "aspect"
    # Family: the same lead for a question asking the rate answers it.
    assert choose("What ESCT rate applies to my employer contributions?", RATE_LEAD, [], "2026-27", False, 0.5,
                  topic=RATE_TOPIC).unanswered == ""


def test_a_passage_sentence_saying_when_opens_a_when_question():
    hit = _hit("Your employer works out your ESCT rate on 1 April each year, from your pay in the year before.")
    opening = choose("When does my ESCT rate get worked out?", RATE_LEAD, [hit], "2026-27", False, 0.5,
                     topic=RATE_TOPIC)
    assert opening.sentence == hit.text and opening.unanswered == ""


def test_a_lead_saying_when_answers_a_when_question():
    lead = RATE_LEAD + " Your employer sets the rate on 1 April each year."
    opening = choose("When does my ESCT rate get worked out?", lead, [], "2026-27", False, 0.5, topic=RATE_TOPIC)
    assert opening.sentence is None and opening.unanswered == ""
    assert opening.lead.startswith("Your employer sets the rate on 1 April")


# A question asking the topic's rule about another subject than the rule's own ("does the
# bright-line test apply to shares?": the test's words name land, the question asks about shares).
BRIGHT_LINE_LEAD = ("Under the bright-line test, the gain on residential property sold within 2 years of acquiring "
                    "it is taxable income; your main home is excluded.")
BRIGHT_LINE_TOPIC = ("bright line", "brightline", "selling property")


def test_the_topics_own_words_are_taken_out_of_what_the_question_asks_about():
    assert without_topic("Does the bright-line test apply to shares?", BRIGHT_LINE_TOPIC).split() == [
        "Does", "the", "test", "apply", "to", "shares?"]
    assert without_topic("Does the bright-line test apply to shares?", ()) == "Does the bright-line test apply to shares?"


def test_a_lead_on_the_topics_own_subject_does_not_answer_another_subject_asked_of_it():
    home = _hit("Generally the bright-line test does not apply when you sell your main home.")
    home.section = "The bright-line test for residential property"
    opening = choose("Does the bright-line test apply to shares?", BRIGHT_LINE_LEAD, [home], "2026-27", False, 0.5,
                     topic=BRIGHT_LINE_TOPIC)
    assert opening.sentence is None and opening.unanswered == "off_question"
    # Family: asked of the rule's own subject, the lead answers.
    assert choose("Does the bright-line test apply to my rental property?", BRIGHT_LINE_LEAD, [home], "2026-27", False,
                  0.5, topic=BRIGHT_LINE_TOPIC).unanswered == ""


def test_a_fact_answer_says_it_has_not_found_the_point_before_a_lead_for_another_subject(engine):
    from nztax.composer import NOT_SAID_DIRECTLY

    answer = engine.answer("Does the bright-line test apply to shares?", mode="offline").answer
    first = answer.split("\n\n")[0]
    assert first.startswith(NOT_SAID_DIRECTLY + " ")
    assert "Under the bright-line test" in first  # the topic's rule follows, said as the topic's


# Another topic a whether- or which-question asks the rule about (a transitional resident's PIR):
# a passage sentence naming it opens over a lead that never does, whatever the margin.
PIR_LEAD = "Your prescribed investor rate (PIR) is 10.5%, 17.5% or 28%, set by your taxable income in the last two years."
PIR_TOPIC = ("pir", "prescribed investor rate")


def test_other_topics_named_beyond_the_questions_own():
    others = ("acc", "acc levy", "tax code", "transitional resident")
    assert topics_named("Does the ACC levy cap apply to my secondary tax code?", ("secondary tax code",), others) == (
        "acc", "acc levy")  # ("tax code" is said only inside the question's own topic)
    assert topics_named("What PIR can a transitional resident use?", PIR_TOPIC, others) == ("transitional resident",)
    assert topics_named("What PIR should I use?", PIR_TOPIC, others) == ()


def test_a_passage_naming_the_other_topic_asked_opens_over_a_lead_that_never_names_it():
    hit = _hit("A transitional resident investing in a zero-rate PIE can use a PIR of 0%.")
    asked = "I've just arrived as a transitional resident. What PIR can I use?"
    opening = choose(asked, PIR_LEAD, [hit], "2026-27", False, 5.0, topic=PIR_TOPIC,
                     asked_topics=("transitional resident",))
    assert opening.sentence == hit.text
    # Family: with no other topic asked, the margin keeps the lead; a lead naming the topic keeps it too.
    assert choose(asked, PIR_LEAD, [hit], "2026-27", False, 5.0, topic=PIR_TOPIC).sentence is None
    lead = PIR_LEAD + " A transitional resident uses the same rates."
    assert choose(asked, lead, [hit], "2026-27", False, 5.0, topic=PIR_TOPIC,
                  asked_topics=("transitional resident",)).sentence is None


def test_a_passage_ahead_on_the_margin_opens_a_why_question_only_if_it_says_why():
    asked = "Why did my ESCT rate for employer contributions go up?"
    silent = _hit("ESCT rates for employer contributions go from 10.5% up to 39%.")
    opening = choose(asked, RATE_LEAD, [silent], "2026-27", False, 0.0, topic=RATE_TOPIC)
    assert opening.sentence is None and opening.unanswered == "aspect"
    # Family: a sentence saying why opens; and asked what the rates are, the silent one may win on the margin.
    saying = _hit("Your ESCT rate for employer contributions goes up because your pay last year went over a threshold.")
    assert choose(asked, RATE_LEAD, [saying], "2026-27", False, 0.0, topic=RATE_TOPIC).sentence == saying.text
    assert choose("What are the ESCT rates for employer contributions?", RATE_LEAD, [silent], "2026-27", False, 0.0,
                  topic=RATE_TOPIC).unanswered == ""


def test_a_passage_opening_in_place_of_a_lead_that_may_not_is_marked_when_it_does_not_say_why():
    # (The lead names no unpaid leave, so it may not open; the passage naming it opens either way.)
    asked = "Why are KiwiSaver contributions not due on unpaid leave?"
    opening = choose(asked, KS_LEAD, [UNPAID], "2026-27", False, 0.5, situations=frozenset({"unpaid_leave"}))
    assert opening.sentence == UNPAID.text and opening.unanswered == "aspect"
    saying = _hit("No contributions are due on unpaid leave because contributions come out of pay actually paid.")
    opening = choose(asked, KS_LEAD, [saying], "2026-27", False, 0.5, situations=frozenset({"unpaid_leave"}))
    assert opening.sentence == saying.text and opening.unanswered == ""


# A why-question naming a figure: a lead stating that figure with the condition it holds under (or
# what it is made of) says why; a lead naming the figure with no condition, or only another figure, does not.
WITHHOLDING_LEAD = ("Banks deduct withholding tax from interest at the rate you choose (10.5%, 17.5% or 30%); "
                    "without a customer number it is 45%.")
WITHHOLDING_TOPIC = ("withholding tax",)


def test_a_lead_giving_the_condition_behind_the_figure_asked_answers_why():
    opening = choose("Why is 45% taken off my interest?", WITHHOLDING_LEAD, [], "2026-27", False, 0.5,
                     topic=WITHHOLDING_TOPIC)
    assert opening.unanswered == ""
    made_of = "The no-number code takes 45% plus the levy of 1.75%: 46.75% in all."
    assert choose("Why does the no-number code take 46.75%?", made_of, [], "2026-27", False, 0.5,
                  topic=("no-number code",)).unanswered == ""


def test_a_lead_stating_the_figure_without_its_condition_does_not_answer_why():
    bare = "Banks deduct withholding tax from interest at 10.5%, 17.5%, 30% or 45%."
    assert choose("Why is 45% taken off my interest?", bare, [], "2026-27", False, 0.5,
                  topic=WITHHOLDING_TOPIC).unanswered == "aspect"
    # The condition is said of another figure than the one asked.
    assert choose("Why is 12.5% taken off my interest?", WITHHOLDING_LEAD, [], "2026-27", False, 0.5,
                  topic=WITHHOLDING_TOPIC).unanswered == "aspect"


def test_a_lead_naming_its_topic_in_other_words_than_the_question_still_speaks_for_it():
    # The question names the credit by its initials, the lead by its name: a passage sentence sharing
    # only the initials must not open over the lead on them.
    hit = _hit("The IETC is worked out on whole months.")
    asked = "someone told me the ietc = $20 a week, is that right"
    opening = choose(asked, AMOUNT_LEAD, [hit], "2026-27", False, 0.5, topic=TOPIC)
    assert opening.sentence is None and opening.lead.startswith("The independent earner tax credit is worth")
    # Family: with no topic given, the passage sentence opens (the lead shares no word with the question).
    assert choose(asked, AMOUNT_LEAD, [hit], "2026-27", False, 0.5).sentence == hit.text


def test_a_topic_keyword_the_lead_uses_in_part_does_not_reorder_it():
    lead = ("New Zealand has no general capital gains tax, so there is no capital gains tax rate. "
            "Some gains are taxed as income: property sold within the bright-line period.")
    opening = choose("made some profit on sharesies, do i pay capital gains tax?", lead, [], "2026-27", False, 0.5,
                     topic=("capital gains tax", "cgt", "some gains"))
    assert opening.lead == lead


DIVIDEND_LEAD = "New Zealand dividends are taxable income, and their imputation credits count as tax already paid."


def test_a_lead_never_naming_the_topic_whose_figure_is_asked_opens_as_no_answer():
    asked = "What RWT rate comes off NZ dividends?"
    opening = choose(asked, DIVIDEND_LEAD, [], "2026-27", False, 0.5, topic=("dividends",), figure_of=("rwt",))
    assert opening.sentence is None and opening.unanswered == "topic"
    # Family: a lead naming that topic may give its figure, and opens as the answer.
    lead = DIVIDEND_LEAD + " RWT is deducted from them at 33%, less the imputation credits."
    assert choose(asked, lead, [], "2026-27", False, 0.5, topic=("dividends",), figure_of=("rwt",)).unanswered == ""


# A lead that may not open for another subject (the share rules, asked of a KiwiSaver fund) gives way
# only to a passage sentence on the topic asked about as well: one on the subject alone answers another
# question of it (a KiwiSaver sentence on gross pay).
FIF_LEAD = ("Overseas shares come under the foreign investment fund (FIF) rules when their total cost is more than "
            "$50,000. Gains on selling shares are taxed only if you bought them to sell.")
FIF_TOPIC = ("shares", "fif", "foreign investment fund")


def test_a_passage_on_the_subject_alone_does_not_open_in_place_of_a_lead_on_another_subject():
    asked = "Do I need to pay FIF tax on my KiwiSaver?"
    pay = _hit("Gross pay for a KiwiSaver scheme is the employee's total salary or wages before tax.")
    opening = choose(asked, FIF_LEAD, [pay], "2026-27", False, 0.5, topic=FIF_TOPIC)
    assert opening.sentence is None and opening.unanswered == "off_question"
    # Family: a passage sentence naming the topic asked about as well opens; without the topic named
    # in the question (no keywords given), the subject's sentence opens as before.
    pie = _hit("A KiwiSaver fund is a PIE, so its FIF income is taxed in the fund at your PIR, not in your return.")
    assert choose(asked, FIF_LEAD, [pay, pie], "2026-27", False, 0.5, topic=FIF_TOPIC).sentence == pie.text
    assert choose(asked, FIF_LEAD, [pay], "2026-27", False, 0.5).sentence == pay.text
    # A question on the lead's own subject keeps the lead.
    assert choose("Do I need to pay FIF tax on my US shares?", FIF_LEAD, [pay], "2026-27", False, 0.5,
                  topic=FIF_TOPIC).unanswered == ""


BRIGHT_LINE_LEAD = "Under the bright-line test, residential property sold within 2 years of acquiring it is taxed."
BRIGHT_LINE_TOPIC = ("bright line", "bright-line")


def test_a_lead_speaking_for_the_topic_only_by_its_name_says_it_has_not_found_the_rest():
    # The lead shares no word with the question but the topic's name ("bright line" against
    # "bright-line"): it speaks for the topic, and says it has not found what is asked of it.
    asked = "Does the bright line apply to a bach I inherited from my mum?"
    assert choose(asked, BRIGHT_LINE_LEAD, [], "2026-27", False, 0.5, topic=BRIGHT_LINE_TOPIC).unanswered == "off_question"
    # Family: a question naming only the topic, or asking an aspect the lead says, is answered by it.
    for answered in ("What is the bright line?", "How long is the bright line?"):
        assert choose(answered, BRIGHT_LINE_LEAD, [], "2026-27", False, 0.5, topic=BRIGHT_LINE_TOPIC).unanswered == ""
    # A lead the question's figure check is answered by keeps its place unhedged (no aspect asked, and
    # without the credit a passage sentence answering no more would have opened unhedged too).
    opening = choose("someone told me the ietc = $20 a week, is that right", AMOUNT_LEAD,
                     [_hit("The IETC is worked out on whole months.")], "2026-27", False, 0.5, topic=TOPIC)
    assert opening.sentence is None and opening.unanswered == ""
