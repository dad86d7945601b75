"""Slots: amounts are money only where the text makes them money, each with its period and role
(issue 11). Expected values are what the person typing means, not what the parser returns."""

from decimal import Decimal

import pytest

from nztax.rules import default_rules
from nztax.slots import find_money, find_tax_code, read_slots, resolve_tax_year

RULES = default_rules()


@pytest.mark.parametrize("text,value,period", [
    ("How much tax on $85k?", "85000", "annual"),
    ("I earn 85,000 a year", "85000", "annual"),
    ("tax on $85 000", "85000", "annual"),
    ("tax on $85.000", "85000", "annual"),
    ("a 1.2m salary", "1200000", "annual"),
    ("I earn eighty-five thousand a year", "85000", "annual"),
    ("I earn $8\u200b5,000", "85000", "annual"),
    ("about 1.5k a week", "1500", "weekly"),
    ("$1,200 p/w", "1200", "weekly"),
    ("$3,500 a month", "3500", "monthly"),
    ("$2,400 per fortnight", "2400", "fortnightly"),
    ("$3,500 every four weeks", "3500", "four_weekly"),
    ("$30 an hour", "30", "hourly"),
    ("85000nzd", "85000", "annual"),
    ("weekly pay of $880", "880", "weekly"),
    ("this week's gross was $712.60", "712.60", "weekly"),
    ("last fortnights pay was $2,300", "2300", "fortnightly"),
    ("last month's wages were about $5,100", "5100", "monthly"),
])
def test_amounts_with_their_period(text, value, period):
    amounts = find_money(text)
    assert [(a.value, a.period) for a in amounts] == [(Decimal(value), period)]


@pytest.mark.parametrize("text", [
    "How do I file my US 1040 as an American living in Auckland?",
    "What does IR330 ask for?", "section LC 15", "I'm 67 years old", "the 2024-25 tax year", "since 2019",
    "40 hours a week", "I have 2 kids", "10.5%", "What is the 183-day rule?", "Am I resident after 325 days away?",
    "why do only 90 cents go to my loan", "the return for the year to 31/3/2026", "can I withdraw it at 65?",
])
def test_numbers_that_are_not_money(text):
    assert find_money(text) == []


@pytest.mark.parametrize("text", [
    "I want to put some savings into an S&P 500 fund and invest in it monthly",   # an index's name
    "My money is in a NZX 50 tracker that I invest in",
    "Can my kids under 16 earn money from a paper round tax free?",              # an age, with a money word near
    "my child is under-18 and earns pocket money",
])
def test_a_number_that_is_part_of_a_name_or_an_age_is_not_money(text):
    assert find_money(text) == []


@pytest.mark.parametrize("text, value", [
    ("I invest $500 a month in an S&P index fund", 500),     # a currency sign makes it money, name or not
    ("PAYE 450 on my pay this week", 450),                   # a payslip's label, not a name
    ("my son under 16 earns $2,000 a year", 2000),
])
def test_money_beside_a_name_or_an_age_stays_money(text, value):
    assert [a.value for a in find_money(text)] == [Decimal(value)]


def test_an_amount_called_a_credit_is_not_an_income():
    slots = read_slots("My friend says the IETC is worth $1,040 a year now. Is that right?", RULES)
    assert slots.incomes == []


def test_a_pay_too_big_for_its_period_is_questioned_not_used():
    slots = read_slots("my fortnightly pay is $70,000", RULES)
    assert slots.questioned and slots.annual_income() is None
    assert read_slots("my fortnightly pay is $2,700", RULES).annual_income() == Decimal(2700 * 26)


def test_a_loss_is_questioned():
    assert read_slots("I made a loss of -$5,000 on my rental", RULES).annual_income() is None


def test_the_period_asked_about_is_kept_apart_from_the_amount():
    slots = read_slots("I earn $70,000 and contribute 3% to KiwiSaver. How much comes out of each fortnightly pay?", RULES)
    assert slots.annual_income() == Decimal(70000)
    assert slots.asked_period == "fortnightly" and slots.kiwisaver_rate == 3.0
    assert read_slots("What will my monthly take-home pay be on $65,000?", RULES).asked_period == "monthly"


def test_hourly_pay_with_hours_and_weeks():
    slots = read_slots("$45 an hour, 40 hours a week, 52 weeks: income tax in a year?", RULES)
    assert slots.annual_income() == Decimal(45 * 40 * 52)


def test_amounts_add_up_only_when_the_text_says_so():
    two_jobs = read_slots("Main salary $170,000, second employer pays me $20,000, and I have a student loan", RULES)
    assert [a.role for a in two_jobs.amounts] == ["main_job", "second_job"]
    assert two_jobs.annual_income() == Decimal(190000) and two_jobs.student_loan is True
    partner = read_slots("my partner earns $90k and I earn $40k", RULES)
    assert partner.annual_income() == Decimal(40000)
    for text in ("tax on $70k vs $80k", "a pay rise from $60k to $75k"):
        compared = read_slots(text, RULES)
        assert compared.comparison and compared.annual_income() == Decimal(60000 if "rise" in text else 70000)
    donation = read_slots("I donated $600 and earn $50,000", RULES)
    assert [a.role for a in donation.amounts] == ["donation", "income"]


def test_the_noun_right_after_an_amount_names_it():
    side = read_slots("My side business made $20k profit on top of my $60k salary", RULES)
    assert [a.role for a in side.amounts] == ["other_income", "income"]
    interest = read_slots("I earn $60,000 and get $5,000 of interest", RULES)
    assert [a.role for a in interest.amounts] == ["income", "investment_income"]


def test_a_pay_that_looks_like_a_year_and_money_words_without_a_sign():
    assert [(a.value, a.period) for a in find_money("paye on 2000 weekly gross")] == [(Decimal(2000), "weekly")]
    assert find_money("my income in 2025 weekly") == []
    assert [a.value for a in find_money("whats the take home on 120,000")] == [Decimal(120000)]


def test_a_dash_between_a_date_and_an_amount_is_not_a_minus_sign():
    (amount,) = find_money("my payslip dated 20 Dec 2024 - $1000 weekly")
    assert (amount.value, amount.period, amount.questioned) == (Decimal(1000), "weekly", None)
    (loss,) = find_money("a loss of -$5,000")
    assert loss.questioned


def test_a_number_with_a_thousands_separator_is_an_amount():
    assert [a.value for a in find_money("how much ietc do i get on 68,500")] == [Decimal(68500)]
    assert find_money("1,000 hours a year") == []


def test_a_bare_number_under_a_years_pay_is_questioned():
    (amount,) = find_money("i earn 4000 how much tax")
    assert amount.questioned
    # A pay period named elsewhere in the question is the amount's.
    (amount,) = find_money("paid fortnightly, 2,100 gross. PAYE on M?")
    assert not amount.questioned


def test_conditions_are_slots():
    assert read_slots("I'm on working for families, earn 50k", RULES).wff
    assert read_slots("I get NZ Super and work part time", RULES).benefit_or_super
    assert read_slots("I don't have an IRD number yet", RULES).no_ird_number
    ks = read_slots("KS 4%, employer 3%, salary 60k", RULES)
    assert ks.kiwisaver and ks.kiwisaver_rate == 4.0 and ks.employer_rate == 3.0
    assert read_slots("no student loan, 60k", RULES).student_loan is False


@pytest.mark.parametrize("text", [
    "single, no kids, not on any benefit or super, earning 48k",
    "my partner doesn't get Working for Families and I earn 52k",
    "no WFF here, salary $61,000",
])
def test_a_condition_said_not_to_apply_is_not_a_condition(text):
    slots = read_slots(text, RULES)
    assert not slots.wff and not slots.benefit_or_super and not slots.nz_super
    assert slots.denies_conditions


def test_a_condition_after_a_negation_in_another_clause_still_counts():
    slots = read_slots("I'm not sure how it works, but I get Working for Families on 40k", RULES)
    assert slots.wff and not slots.denies_conditions


@pytest.mark.parametrize("text,roles", [
    # Words asking about PAYE later in the question do not make the pay a deduction.
    ("900 a week on M code, what's the paye", {"900": "income"}),
    ("$1,843 came off my pay", {"1843": "deduction"}),
    # Words that lead the next amount belong to it.
    ("a student on 12k a year with PIE income of $500", {"12000": "income", "500": "pie_income"}),
    ("sole trader, net income 40k, how much do I owe", {"40000": "income"}),
])
def test_roles_belong_to_the_amount_they_describe(text, roles):
    found = {f"{a.value.normalize():f}": a.role for a in find_money(text)}
    assert found == roles


@pytest.mark.parametrize("text,roles", [
    # Rent received is a rental's takings (taxed after its costs); rent paid is an expense.
    ("i get 22k in rent and 40k wages", {"22000": "rent_received", "40000": "income"}),
    ("i earn 45k and pay $520 a week rent", {"45000": "income", "520": "expense"}),
    # A list's later amount with no words of its own shares the list's role.
    ("gave $1,200 to the hospice and $300 to the SPCA", {"1200": "donation", "300": "donation"}),
    ("spent $2,000 on a laptop and $300 on a phone, earn 80k", {"2000": "expense", "300": "expense", "80000": "income"}),
    ("I donated $500 and earn $60,000", {"500": "donation", "60000": "income"}),
])
def test_what_an_amount_is_follows_the_words_around_it(text, roles):
    assert {f"{a.value.normalize():f}": a.role for a in find_money(text)} == roles


@pytest.mark.parametrize("text,calendar", [
    ("I earned $65,000 from January to December 2025", True),
    ("my income for the calendar year", True),
    ("I earned $65,000 in the year to 31 March 2025", False),
])
def test_a_calendar_year_is_noticed(text, calendar):
    assert read_slots(text, RULES).calendar_year is calendar


@pytest.mark.parametrize("text", ["acc levy on 60000", "ietc on 45000", "kiwisaver on 52000"])
def test_a_levy_or_credit_on_a_bare_number_makes_it_money(text):
    (amount,) = find_money(text)
    assert not amount.questioned and amount.is_income


@pytest.mark.parametrize("text,code", [
    ("my tax code is M SL", "M SL"), ("I'm on ME", "ME"), ("on tax code sh", "SH"), ("an ND code", "ND"),
    ("tell me about it", None), ("can you help me", None), ("3500 M SL four weekly", "M SL"),
])
def test_tax_codes(text, code):
    assert find_tax_code(text) == code


@pytest.mark.parametrize("text,year", [
    ("in 2024-25", "2024-25"), ("2024/25", "2024-25"), ("the 2025 income year", "2024-25"), ("the 2025 year", "2024-25"),
    ("year ending 31 March 2026", "2025-26"), ("last year", "2025-26"), ("this tax year", "2026-27"),
    ("next year", "2027-28"), ("how much tax", None),
    # Two-digit years and a financial year named by its end: IRD's year ending in March of the second.
    ("paye on 900 a week 23/24", "2023-24"), ("acc levy 25-26 on 70k", "2025-26"), ("FY24 tax on 48k", "2023-24"),
    ("fy 2026 income tax", "2025-26"), ("worked 24-25 hours a week", None), ("from 20-30k", None),
])
def test_tax_years(text, year):
    assert resolve_tax_year(text, RULES, "2026-27")[0] == year


def test_a_couples_income_is_questioned():
    assert read_slots("We earn 120k between us. How much tax do we pay?", RULES).annual_income() is None


def test_a_bare_small_number_is_questioned_not_taxed():
    assert read_slots("tax on 50?", RULES).annual_income() is None


def test_a_pay_date_sets_the_day_and_its_tax_year():
    slots = read_slots("PAYE on a $1,200 weekly pay dated 14 June 2024 on tax code M", RULES)
    assert slots.pay_date == "2024-06-14" and slots.tax_year == "2024-25"


def test_a_code_named_with_the_word_code_after_it():
    assert read_slots("I'm on the S code there", RULES).tax_code == "S"


@pytest.mark.parametrize("text,income", [
    ("whats the tax on 62k salery", 62000),                                # 'salery' is not a 'sale'
    ("Is going from 90k to 100k worth it? The take-home?", 90000),          # 'worth it' is not a value
])
def test_role_words_match_whole_words(text, income):
    assert read_slots(text, RULES).annual_income() == income


def test_an_amount_something_is_worth_is_not_an_income():
    assert read_slots("the IETC is worth $1,040", RULES).incomes == []


@pytest.mark.parametrize("text,income", [
    # The person asked about is the one whose income counts; the other person's is never added.
    ("My wife made $25k profit from hairdressing. I'm on $90k salary. How much tax does she owe?", 25000),
    ("I earn $80k and my wife earns $50k. How much tax does she pay?", 50000),
    ("my partner earns $90k and I earn $40k, how much tax do I pay?", 40000),
    ("my husband makes 60k, how much tax does he pay", 60000),
    # Nobody named in the asking sentence: the only income told of is the one asked about.
    ("My son (19) made $9,800 from a mowing round. Tax owed?", 9800),
    # "she" without anyone it can be is the boss, not another person's income.
    ("My boss said she'll pay me $60k. What's my tax?", 60000),
])
def test_the_income_is_the_person_asked_abouts(text, income):
    amounts = read_slots(text, RULES).amounts
    assert [a.value for a in amounts if a.role != "partner"] == [income]


def test_one_amount_of_two_people_is_questioned():
    slots = read_slots("me and my partner earn 140k together, how much tax do we pay?", RULES)
    assert slots.annual_income() is None and "each person" in slots.questioned[0].questioned


@pytest.mark.parametrize("text,extra_only", [
    ("I got paid $3,000 for some work on the side. How much tax?", True),
    ("What's the tax on a 5k bonus?", True),
    ("I made $12k from my side hustle this year, no other income. how much tax", False),
    ("Base salary is 92k and I got a 6k bonus on top. Total tax?", False),
])
def test_extra_money_with_nothing_said_of_the_rest(text, extra_only):
    assert read_slots(text, RULES).extra_only is extra_only


def test_a_label_right_before_an_amount_names_a_deduction():
    assert [a.role for a in read_slots("my payslip says PAYE 612.40, is that right?", RULES).amounts] == ["deduction"]
    assert [a.role for a in read_slots("paye on 2000 weekly gross", RULES).amounts] == ["income"]


@pytest.mark.parametrize("text,profit,role", [
    # Takings less the costs stated with them: 83,000 - 27,400 = 55,600.
    ("She took in $83,000 in bookings and her costs (gear, travel, software) were $27,400.", 55600, "other_income"),
    # A rental's rent less its costs, not the rent paid where they live: 26,000 - 19,000 = 7,000.
    ("Salary $72,000. My flat is rented out at $500 a week and the costs (rates, insurance) were $19,000. "
     "I pay $560 a week rent where I live.", 7000, "investment_income"),
    # The weeks it was let: 475 x 50 - 17,200 = 6,550.
    ("My tenant pays me $475 a week, I only got 50 weeks of rent. Expenses were $17,200.", 6550, "investment_income"),
])
def test_takings_less_costs_is_the_profit(text, profit, role):
    slots = read_slots(text, RULES)
    assert [a.value for a in slots.amounts if a.role == role] == [profit] and not slots.gross_only


def test_takings_without_costs_are_not_an_income():
    slots = read_slots("My cleaning business brought in $95k in sales this year", RULES)
    assert slots.gross_only and slots.annual_income() is None


def test_a_day_rate_over_the_days_and_a_restated_amount():
    assert read_slots("consulting at $1,200 per day, 20 days this year", RULES).annual_income() == 24000
    assert read_slots("consulting at $1,200 per day this year", RULES).questioned
    restated = read_slots("$300 a week on top of my 52k day job, $15,600 for the year", RULES)
    assert [a.value for a in restated.amounts] == [300, 52000]


def test_a_price_is_not_an_income():
    slots = read_slots("We're buying a $780k house. I'm on $118,000.", RULES)
    assert slots.annual_income() == 118000


def test_a_salary_started_partway_through_the_year():
    assert read_slots("I moved here in August and started a job on 92k", RULES).part_year
    assert not read_slots("I started a job on 92k", RULES).part_year


@pytest.mark.parametrize("text,questioned", [
    ("i make 3k how much tax is that", True),                       # a pay, of which period?
    ("take home on $2,400 on the M code?", True),
    ("i make 3k a fortnight, how much tax", False),                 # the period is said
    ("net pay on $2,400 each week on M?", False),
    ("I earn $6k over the summer holidays, do I pay tax?", False),   # a whole year's earnings
    ("earned 7k this tax year from tutoring", False),
])
def test_a_small_pay_with_a_sign_but_no_period_is_questioned(text, questioned):
    (amount,) = read_slots(text, RULES).amounts
    assert bool(amount.questioned) is questioned


@pytest.mark.parametrize("text,values", [
    ("my return for the year to 31/3/2025 showed a profit of 48,000", [Decimal(48000)]),   # a date, not $31
    ("sole trader: profit 80k, I drew 50k in drawings. Is tax on the 80 or the 50?", [Decimal(80000), Decimal(50000)]),
    ("can I cash in my KiwiSaver at 60 without tax?", []),                                   # an age
    ("I'm paid at 30 an hour for 38 hours a week", [Decimal(30)]),                          # a pay rate
])
def test_dates_ages_and_amounts_named_again_in_thousands(text, values):
    assert [a.value for a in read_slots(text, RULES).amounts] == values


def test_drawings_are_not_income():
    slots = read_slots("profit was 75k and I took 40k in drawings", RULES)
    assert [(a.value, a.role) for a in slots.amounts] == [(Decimal(75000), "other_income"), (Decimal(40000), "other")]


@pytest.mark.parametrize("text,value,role,code", [
    ("fortnightly paye $2,750 ME code", Decimal(2750), "income", "ME"),   # "M"/"ME" before "code" is the code
    ("paye on $1,500 M SL weekly", Decimal(1500), "income", "M SL"),
    ("my payslip says PAYE 612.40, is that right?", Decimal("612.40"), "deduction", None),  # a payslip's label
])
def test_a_code_after_an_amount_is_a_code_and_the_amount_its_pay(text, value, role, code):
    slots = read_slots(text, RULES)
    (amount,) = slots.amounts
    assert (amount.value, amount.role, slots.tax_code) == (value, role, code)


@pytest.mark.parametrize("text,gain", [
    # The gain is the sale less the purchase less the sale's costs.
    ("Bought 2 ETH for $6,200 and sold them for $9,000. I earn 70k. Tax on that?", Decimal(2800)),
    ("bought a townhouse for $810,000 and sold it 18 months later for $845,000 after $9,500 in agent fees", Decimal(25500)),
])
def test_a_purchase_and_a_sale_are_read_as_the_gain(text, gain):
    gains = [a for a in read_slots(text, RULES).amounts if a.role == "investment_income"]
    assert [a.value for a in gains] == [gain]


def test_a_sale_for_less_than_it_cost_is_questioned():
    slots = read_slots("bought shares for $12,000 and sold them for $9,000, how much tax?", RULES)
    assert slots.questioned and slots.income_amount() is None


def test_rent_of_a_place_let_at_a_weekly_figure_is_received_less_its_costs():
    # $550 x 52 = $28,600 received, less $7,000 of rates and insurance = $21,600.
    slots = read_slots("my rental is let at $550 a week, rates and insurance cost $7,000. Salary 70k. Extra tax?", RULES)
    assert [(a.value, a.role) for a in slots.amounts if a.role == "investment_income"] == [(Decimal(21600), "investment_income")]


def test_of_several_months_named_the_latest_names_the_tax_year():
    # Sold in June 2026 (tax year 1 April 2026 to 31 March 2027), bought in May 2024.
    slots = read_slots("bought a section in May 2024 for $300,000 and sold it in June 2026 for $340,000", RULES)
    assert slots.tax_year == "2026-27"


def test_pays_for_the_months_named_make_up_the_years_income():
    # $3,000 a month from June to March is 10 months, $30,000; with $9,000 for April and May: $39,000.
    slots = read_slots("I earned $9,000 from April to May at my first job, then $3,000 a month from June to March "
                       "at the new one. Tax for the year?", RULES)
    assert slots.adds_up and slots.annual_income() == Decimal(39000)


def test_an_old_and_a_new_salary_are_not_added():
    slots = read_slots("My old job paid 60k and my new job pays 70k, how much more will I take home?", RULES)
    assert slots.annual_income() != Decimal(130000)


def test_hours_worked_in_the_year_make_an_hourly_rate_a_years_income():
    # $45 x 1,200 hours = $54,000 ("1,200" was once read as 200 hours a week).
    slots = read_slots("freelance tutor, $45 an hour, about 1,200 hours this year", RULES)
    assert slots.hours_per_year == Decimal(1200) and slots.hours_per_week is None
    assert slots.annual_income() == Decimal(54000)


def test_the_kiwisaver_rate_is_the_one_said_of_kiwisaver_not_a_mortgage_rate():
    slots = read_slots("we have a $500,000 mortgage at 6.2%. I earn $5,000 a month and put 6% into KiwiSaver", RULES)
    assert slots.kiwisaver_rate == 6.0


@pytest.mark.parametrize("text,expected", [
    ("my payslip shows PAYE of $212.40 on a $1,200 week", [(Decimal("212.40"), "deduction"), (Decimal(1200), "income")]),
    ("what comes off a $2,600 fortnight on M SL?", [(Decimal(2600), "income")]),
])
def test_a_pay_period_right_after_the_amount_and_a_payslips_line(text, expected):
    slots = read_slots(text, RULES)
    assert [(a.value, a.role) for a in slots.amounts] == expected
    assert slots.amounts[-1].period in ("weekly", "fortnightly")


@pytest.mark.parametrize("text,year,calendar", [
    ("how much tax did I pay on $58,000 in 2024?", "2024-25", True),      # 2024 alone: Jan-Mar or Apr-Dec?
    ("the 2025 tax year, salary $58,000", "2024-25", False),              # IRD's name: ends March 2025
    ("graduated in 2023 and now earn $58,000, what's my tax?", None, False),  # a year of something else
])
def test_a_calendar_year_alone_is_asked_about_and_a_year_of_something_else_is_not_the_tax_year(text, year, calendar):
    slots = read_slots(text, RULES, "2026-27")
    assert (slots.tax_year, slots.calendar_year) == (year, calendar)


def test_a_rate_without_its_sign_is_not_money_and_words_leading_the_next_amount_are_its():
    slots = read_slots("pir 10.5 or 17.5? income 52k, kiwisaver fund earned 4k", RULES)
    assert [(a.value, a.role) for a in slots.amounts] == [(Decimal(52000), "income"), (Decimal(4000), "pie_income")]


@pytest.mark.parametrize("text,expected", [
    ("I coach year 9s at netball and earn $4,200 a year from it", [(Decimal(4200), "income")]),      # a school year
    ("I'm a pensioner of 78 with $14,000 of taxable income", [(Decimal(14000), "income")]),           # an age
    ("52, wages $71,000 a year, how much tax?", [(Decimal(71000), "income")]),                       # an age opening it
    ("52,000 a year in wages, how much tax?", [(Decimal(52000), "income")]),                          # not an age
    ("the IETC is supposed to be $520, right? I earn $50,000", [(Decimal(520), "value"), (Decimal(50000), "income")]),
    ("my shop brings in $90,000 a year", [(Decimal(90000), "takings")]),
    ("my aunt's estate left me $80,000", [(Decimal(80000), "other")]),                              # not income
])
def test_ages_school_years_rule_figures_takings_and_inheritances(text, expected):
    assert [(a.value, a.role) for a in read_slots(text, RULES).amounts] == expected


@pytest.mark.parametrize("text,extra", [
    ("I'm getting $2,500 of back pay next week, how much tax comes off?", True),
    ("a $3,000 pay rise from April, how much more tax is that?", True),
    ("got a pay rise to 75k, how much tax now?", False),        # a new salary, not extra money
])
def test_extra_money_on_top_of_the_years_income(text, extra):
    assert read_slots(text, RULES).extra_only is extra


@pytest.mark.parametrize("text,questioned,asked", [
    ("how much PAYE comes out of my $850 pay", True, None),            # one pay, of which period?
    ("what tax comes off $2,000", True, None),
    ("I earn $700 a week, paid every 2 weeks. PAYE each payday?", False, "fortnightly"),
])
def test_a_pay_with_no_period_is_questioned_and_every_2_weeks_is_fortnightly(text, questioned, asked):
    slots = read_slots(text, RULES)
    assert bool(slots.amounts[0].questioned) is questioned and slots.asked_period == asked


@pytest.mark.parametrize("text,expected", [
    # Search-box fragments: a year's second part is not the start of a space-grouped number, a pay "wk"
    # or "yr" is not a count of weeks or years, "1100 m" is the code M, a "k" amount after a code's name.
    ("secondary st code 2023-24 500 pw tax", [("500", "weekly")]),
    ("tax on 52,000 yr ended 31 march 2025", [("52000", "annual")]),
    ("payslip paye 212.38 on 1200 wk m", [("212.38", "annual"), ("1200", "weekly")]),
    ("worked 6 wk over summer at $900 a week", [("900", "weekly")]),
    ("weekly 1100 m", [("1100", "weekly")]),
    ("house sold for 1.2 m", [("1200000", "annual")]),
    ("m vs me code 50k", [("50000", "annual")]),
])
def test_terse_queries_are_read_as_typed(text, expected):
    assert [(a.value, a.period) for a in read_slots(text, RULES, "2026-27").amounts] == [(Decimal(v), p) for v, p in expected]


@pytest.mark.parametrize("text,role", [
    ("paye 1,300 per fortnight code m", "income"),          # the one amount beside a code is the pay
    ("my payslip says paye 212.38, is that right", "deduction"),
    ("can i use sb on 2nd job total 40k", "total"),
    ("gov contribution if i put in 600 this yr", "contribution"),
    ("gave 3,300 to charity only earned 2,700", "income"),  # the later amount: earning said right before it
])
def test_the_role_of_the_amount_that_matters(text, role):
    assert read_slots(text, RULES, "2026-27").amounts[-1].role == role


def test_a_code_ending_a_search_query():
    assert find_tax_code("paye 800 wk me") == "ME" and find_tax_code("1200 fortnightly m sl") == "M SL"
    assert find_tax_code("how much tax for me") is None


def test_pie_income_named_earlier_in_its_sentence():
    # "PIE income is tiny, like $150": the comma does not cut the amount off from what it is.
    amounts = read_slots("I earned $29,000 last year. My KiwiSaver PIE income is small, about $300 a year.", RULES, "2026-27").amounts
    assert [(a.value, a.role) for a in amounts] == [(Decimal("29000"), "income"), (Decimal("300"), "pie_income")]


@pytest.mark.parametrize("text,expected", [
    # A word holding a month's letters is no date ("turnover" is no "nov"): takings less costs, a profit.
    ("contractor, turnover 96k and costs 30k", [(Decimal(66000), "other_income")]),
    # The noun after an amount can be two words long.
    ("salary 52k plus 3k savings account interest", [(Decimal(52000), "income"), (Decimal(3000), "investment_income")]),
    # A rental's costs listed by name; "penal rates" are pay and a price is no income.
    ("rates: 2,600 | insurance: 1,900 | property manager: 2,100",
     [(Decimal(2600), "expense"), (Decimal(1900), "expense"), (Decimal(2100), "expense")]),
    ("base $60,000 plus $4,000 of penal rates", [(Decimal(60000), "income"), (Decimal(4000), "income")]),
    ("purchase price 710,000, salary 95,000", [(Decimal(710000), "other"), (Decimal(95000), "income")]),
    # What someone is charged for a service is not their income; what they charge is.
    ("the bookkeeper quoted us $1,150 for the year's accounts", [(Decimal(1150), "expense")]),
    ("the invoice from the electrician is $640, is it deductible?", [(Decimal(640), "expense")]),
    ("I charge $70 an hour as a sole trader", [(Decimal(70), "income")]),
    # A payslip's numbering is not money.
    ("Fortnight 12 | Gross 2,450.00 | Code M", [(Decimal(2450), "income")]),
])
def test_roles_of_amounts_in_lists_and_pasted_lines(text, expected):
    assert [(a.value, a.role) for a in read_slots(text, RULES).amounts] == expected


@pytest.mark.parametrize("text,rate,hours", [
    ("fortnightly net on 30 hrs at $31.20, code M", Decimal("31.20"), Decimal(30)),
    ("Ordinary 37.50 hrs @ 24.10 | Code M", Decimal("24.10"), Decimal("37.50")),
    ("Rate: 28.00 | Hours per week: 25 | code M", Decimal(28), Decimal(25)),
    ("I work 16 hours a week at $23.95", Decimal("23.95"), Decimal(16)),
])
def test_an_hourly_rate_after_its_hours_or_a_rate_label(text, rate, hours):
    slots = read_slots(text, RULES)
    assert [(a.value, a.period) for a in slots.amounts] == [(rate, "hourly")] and slots.hours_per_week == hours


def test_a_tax_code_inside_quotes_is_read():
    assert find_tax_code("pasted from my contract: 'Salary $61,000 | Tax code ME'.") == "ME"


@pytest.mark.parametrize("text,tax_year,pay_date", [
    # A payslip's date written day/month/year sets the rates of that day (IRD's year ends on 31 March).
    ("Pay date 05/06/2024 | Fortnightly | Gross 2,000.00 | Code M", "2024-25", "2024-06-05"),
    ("payslip dated 28/02/2026, weekly gross 900, code M", "2025-26", "2026-02-28"),
    ("w/e 09/08/25 | Gross 1,100.00", "2025-26", "2025-08-09"),
    ("Year ended 31/03/2025 | Salary 70,000", "2024-25", None),
    ("started 14/04/2019, salary 70,000", None, None),   # a start date is not a pay date
])
def test_numeric_dates_on_payslips(text, tax_year, pay_date):
    slots = read_slots(text, RULES)
    assert (slots.tax_year, slots.pay_date) == (tax_year, pay_date)


@pytest.mark.parametrize("text,questioned", [
    ("my wife and I together earn 150k, how much tax do we pay?", True),
    ("combined income 120,000 - tax for us?", True),
    ("what's our tax on 130k combined", True),
    ("both my jobs combined are 60k, what tax do I pay?", False),
    ("we saved together 20k, and my salary is 85k. tax?", False),
])
def test_a_couples_income_put_together_is_questioned(text, questioned):
    amounts = read_slots(text, RULES).amounts
    assert bool(amounts[-1].questioned) is questioned


@pytest.mark.parametrize("text,expected", [
    # A pasted table's header names the figures under it.
    ("Year | Staff no | Salary | Hours\n2026-27 | 5120 | 71,400 | 38", [(Decimal(71400), "annual", "income")]),
    # A payslip's gross takes the payslip's own period, or the one the question names.
    ("Week 22 | Gross 910.00 | Code M | PAYE ?", [(Decimal(910), "weekly", "income")]),
    ("Gross 2,250.00 | Code M. what PAYE should come off that fortnight?", [(Decimal(2250), "fortnightly", "income")]),
    # Reference and staff numbers, and numbers written with a leading zero, are not money.
    ("IRD letter ref 7731-220: total income $48,900.00", [(Decimal(48900), "annual", "total")]),
    ("Employee 00812 | Gross 1,400.00 weekly", [(Decimal(1400), "weekly", "income")]),
    # A payslip's labels before figures with cents; a terse "sl 60k" is still the income.
    ("Interest 310.40 | RWT 102.43 | Salary 58,000", [(Decimal("310.40"), "annual", "investment_income"),
                                                      (Decimal("102.43"), "annual", "deduction"),
                                                      (Decimal(58000), "annual", "income")]),
    ("sl 60k per year how much", [(Decimal(60000), "annual", "income")]),
    # A year-to-date figure is the year's so far.
    ("Gross YTD 3,100 is all I earned this year", [(Decimal(3100), "annual", "income")]),
])
def test_pasted_payslips_statements_and_tables(text, expected):
    assert [(a.value, a.period, a.role) for a in read_slots(text, RULES).amounts] == expected


def test_one_of_two_offers_asked_about_by_its_figure_is_the_one_worked_out():
    slots = read_slots("offer A is $92,000, offer B $88,000 plus a car. take-home on the $88,000 offer?", RULES)
    assert [a.value for a in slots.incomes] == [Decimal(88000)] and not slots.comparison


def test_an_hourly_rate_and_the_weeks_gross_it_makes_are_one_pay():
    slots = read_slots("Ordinary 38.00 hrs @ 25.00 | Gross 950.00 | Code M | week 14", RULES)
    assert [(a.value, a.period) for a in slots.incomes] == [(Decimal(950), "weekly")]


@pytest.mark.parametrize("text,foreign,incomes", [
    # Another currency's money is never worked out as New Zealand dollars.
    ("I'm on 85,000 AUD in Perth", [Decimal(85000)], []),
    ("currently on £52,000 in Leeds, offered NZ$110,000 in Auckland", [Decimal(52000)], [Decimal(110000)]),
    ("salary US$140k", [Decimal(140000)], []),
    ("I earn $80,000 NZD", [], [Decimal(80000)]),
    ("a $1,500 weekly wage", [], [Decimal(1500)]),   # "a $" is the article, not A$
])
def test_money_in_another_currency(text, foreign, incomes):
    slots = read_slots(text, RULES)
    assert [a.value for a in slots.amounts if a.role == "foreign"] == foreign
    assert [a.value for a in slots.incomes] == incomes


@pytest.mark.parametrize("text,expected", [
    # Thousands grouped with a space, before a comma or a stop; a decimal comma before "k".
    ("weekly gross 1 480, code M", [(Decimal(1480), "weekly")]),
    ("income 38 000 and 41 000 the two years before", [(Decimal(38000), "annual"), (Decimal(41000), "annual")]),
    ("part time job 26 500. tax?", [(Decimal(26500), "annual")]),
    ("I earn 2,5k per fortnight", [(Decimal(2500), "fortnightly")]),
])
def test_amounts_written_the_way_other_countries_write_them(text, expected):
    assert [(a.value, a.period) for a in read_slots(text, RULES).amounts] == expected


def test_no_sl_means_no_student_loan():
    assert read_slots("take home 70k no ks no sl", RULES).student_loan is False
    assert read_slots("take home 70k with sl", RULES).student_loan is True


@pytest.mark.parametrize("text,period", [
    ("60k take home fortnight?", "fortnightly"), ("net week on 48k", "weekly"), ("paye month 90k", "monthly"),
])
def test_a_terse_period_after_take_home_is_the_period_asked(text, period):
    assert read_slots(text, RULES).asked_period == period


def test_a_figure_guessed_at_beside_an_income_is_the_one_to_check():
    slots = read_slots("70k take home fortnight ~2,100?", RULES)
    assert [(a.value, a.role) for a in slots.amounts] == [(Decimal(70000), "income"), (Decimal(2100), "claimed")]
    assert [(a.value, a.role) for a in read_slots("tax on about 60k?", RULES).amounts] == [(Decimal(60000), "income")]


@pytest.mark.parametrize("text,left", [
    # Conditions said not to apply are left out of what the question asks about; a rule named with the
    # same words is not.
    ("weekly net on 40 hrs at $30, M, no kiwisaver", "weekly net on 40 hrs at $30, M,"),
    ("take home 70k no ks no sl", "take home 70k"),
    ("is there no student loan threshold on a second job?", "is there no student loan threshold on a second job?"),
])
def test_conditions_said_not_to_apply_leave_the_question(text, left):
    from nztax.slots import without_denied
    assert without_denied(text) == left


def test_a_profit_said_after_its_costs_are_named_first():
    slots = read_slots("people pay me cash for gardening, after costs (fuel, tools) about 21 000 a year", RULES)
    assert [(a.value, a.role) for a in slots.amounts] == [(Decimal(21000), "other_income")]


@pytest.mark.parametrize("text,expected", [
    # A rule's own figure named before its noun is not an income.
    ("can I get the $520 tax credit on my $30,000?", [(Decimal(520), "value"), (Decimal(30000), "income")]),
    # Cash jobs and side jobs are income besides pay; a room let out is rent received.
    ("about $6,000 of cash jobs on top of my $48,000 wages", [(Decimal(6000), "other_income"), (Decimal(48000), "income")]),
    ("letting out the spare room in our place for $220 a week", [(Decimal(220), "rent_received")]),
])
def test_rule_figures_cash_jobs_and_rooms_let(text, expected):
    assert [(a.value, a.role) for a in read_slots(text, RULES).amounts] == expected


def test_months_a_property_was_held():
    import datetime as dt

    from nztax.slots import months_held

    today = dt.date(2026, 11, 26)
    assert months_held("sold it 18 months after buying it", today) == (18, 18)
    assert months_held("we've owned it for 3 years and just sold", today) == (36, 36)
    assert months_held("bought it 5 years ago, selling now", today) == (60, 60)
    # Bought some time in 2023, sold now (Nov 2026): 35 to 46 months.
    assert months_held("bought in 2023 and sold last month", today) == (35, 46)
    # A sale month named: September 2024 to August 2026 is 23 months.
    assert months_held("bought in September 2024, signed to sell it in August 2026", today) == (23, 23)
    # A sale before today's rules (sold in 2023) is not judged here; nor is a question with no holding time.
    assert months_held("bought in 2019 and sold in 2023", today) is None
    assert months_held("sold the rental for $700k", today) is None


@pytest.mark.parametrize("text,expected", [
    # An age joined to "year-old" is no amount.
    ("What PIR for my 18-year-old? He earned $8,000 last year", [("$8,000", "annual", "income")]),
    # "fn" is a fortnight's pay, written before it.
    ("fn pay 1,980 gross on M", [("1,980", "fortnightly", "income")]),
    # An amount said of last year is a year's, not a bare number to question.
    ("income 8 200 last year, what PIR?", [("8 200", "annual", "income")]),
    # An evening job is a second job.
    ("main job 58,000 + evening job about 7,500, which code?", [("58,000", "annual", "main_job"), ("7,500", "annual", "second_job")]),
    # What comes after "on top of" is the pay the extra sits on.
    ("a $2,000 bonus on top of 64k, tax?", [("$2,000", "annual", "other_income"), ("64k", "annual", "income")]),
])
def test_ages_periods_and_roles_read_from_their_words(text, expected):
    from nztax.slots import read_slots

    slots = read_slots(text)
    assert [(a.text, a.period, a.role) for a in slots.amounts] == expected
    assert not any(a.questioned for a in slots.amounts)


@pytest.mark.parametrize("text, value", [
    ("income 46,000 + PIE 1,900 from my fund", 1900),     # a separated figure after a label is money
    ("I owe IRD 1,200 from my assessment", 1200),
])
def test_a_formatted_figure_after_a_capitalised_label_stays_money(text, value):
    assert Decimal(value) in [a.value for a in find_money(text)]
