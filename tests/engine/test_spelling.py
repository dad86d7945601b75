"""Spelling: misspelt words are read as the catalogue words they were meant to be; words the
sources use, numbers and codes are left as typed."""

from nztax.spelling import Speller

SPELLER = Speller.from_texts(
    asking=["paye on a weekly pay", "take home with a student loan", "independent earner tax credit", "government contribution"],
    sources=["Shearing gangs are casual agricultural employees."],
    cutoff=0.85, min_length=5,
)


def test_misspelt_asking_words_are_put_right():
    assert SPELLER.correct("paye on 2000 weekley gross, code M") == "paye on 2000 weekly gross, code M"
    assert SPELLER.correct("take home with a studen loan") == "take home with a student loan"
    assert SPELLER.correct("the independant earner credit") == "the independent earner credit"


def test_known_words_short_words_and_numbers_stay_as_typed():
    for text in ("shearing gang", "SL ME 85,000", "Manchester flat"):
        assert SPELLER.correct(text) == text


def test_a_known_word_with_an_ending_is_not_a_misspelling():
    # "annually" is "annual" with an ending, not a misspelling of it; "annuall" is one.
    speller = Speller.from_texts(asking=["take home annual pay", "paying weekly"], sources=[], cutoff=0.8, min_length=5)
    assert speller.correct("take home annually") == "take home annually"
    assert speller.correct("annuall pay") == "annual pay"


def test_the_engine_reads_the_corrected_question(engine):
    out = engine.answer("paye on 880 weekley, code M", use_faq=False, mode="offline").to_json()
    # IR335 Sept 2026: weekly $880 on M -> $148.40 (nz_tax_facts.md §8).
    assert [t["name"] for t in out["tools"]] == ["calculate_paye"] and "$148.40" in out["answer"]


def test_a_known_word_with_an_ending_is_left_as_typed():
    speller = Speller(targets=["filled", "claim"], known=["file", "claim", "tax"], cutoff=0.8, min_length=4)
    assert speller.correct("not filed yet, taxes claimed") == "not filed yet, taxes claimed"


def test_a_dictionary_word_is_not_corrected_to_a_catalogue_word():
    # "customers" is close to the catalogue's "customs" but is an English word of its own.
    speller = Speller.from_texts(asking=["customs duty on a parcel"], sources=[], cutoff=0.85, min_length=5,
                                 is_word={"customers"}.__contains__)
    assert speller.correct("my customers pay cash") == "my customers pay cash"
    assert speller.correct("custms duty") == "customs duty"


def test_the_engines_speller_knows_the_embedders_english_words(engine):
    assert engine.speller.correct("Many customers pay me in cash") == "Many customers pay me in cash"


def test_family_a_prefixed_word_is_not_spelt_into_the_bare_word():
    # Dropping a prefix changes who or what is meant: a coworker is not a worker, a non-resident not a resident.
    speller = Speller.from_texts(asking=["worker partner residents calculated invest contractor"], sources=[],
                                 cutoff=0.75, min_length=5, kept=None)
    for word in ("coworker", "expartner", "nonresidents", "miscalculated", "reinvest", "subcontractor", "coworkers"):
        assert speller.correct(f"my {word} pays") == f"my {word} pays"
    # A typo's one letter before the word, or a letter missing inside it, is still put right.
    assert speller.correct("xpartner and contrctor") == "partner and contractor"


def test_a_word_for_a_person_is_never_spelt_into_another_word():
    speller = Speller.from_texts(asking=["workplace rules"], sources=[], cutoff=0.5, min_length=5)
    assert speller.correct("my workmate and housemates") == "my workmate and housemates"
    assert speller.correct("workplce") == "workplace"
