"""Decide: what the engine does with an understood question, decided once.

In: the question's `Slots`, its `Classification` (understand.py), the history, an explicit tax year
and the rule book. Out: a `Decision` — one action (calculate, fact, topic, clarify, decline,
refuse), the calculator calls with their arguments, or the one question to ask back.

Rules, in order:
1. A confident refuse or decline intent is final (fixed copy).
2. Below the confidence bar the engine never calculates: it asks one question (which sum, or the
   income it needs) or answers from retrieval.
3. A calculation needs its slots: a missing income, an hourly rate without hours, or an amount
   that makes no sense for its period ("$70,000 a fortnight") is asked about, not computed.
4. The period asked about is the period answered: "monthly take-home on $65,000" runs the
   take-home calculator with monthly pays; "$45 an hour … in a year" the annual income tax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, Decimal

from nztax import pay_questions
from nztax.calculators.paye import PRIMARY_CODES
from nztax.contract import tax_year_starting
from nztax.rules import FLAT_CODES, SECONDARY_CODES, RuleBook, current_tax_year
from nztax.settings import get_settings
from nztax.slots import (CODE_ASKED, EARNED_OVERSEAS, EMPLOYER_PUTS_IN, EVERY_PAY_WORDS, EXTRA_INCOME, HELD_PAST_BRIGHT_LINE,
                         HOUSEHOLD_QUESTIONED, INCOME_LIKE_ROLES, MONTH_NAMES, ONLY_INCOME, OTHER_INCOME_ROLES, PAY_FREQUENCIES,
                         PERIODS_PER_YEAR, PROPERTY_HELD_UNKNOWN, SALE_PRICE_ONLY, SECOND_JOB_WORDS, TAX_FIGURE_AFTER, UNIT_WORDS,
                         Money, Slots, clean_text, find_tax_codes, months_to_march, read_slots)
from nztax.understand import Classification, IntentSpec, default_catalogue, says_any

# The student loan deduction asked about: "sl on …", "how much student loan comes off …".
LOAN_ASKED = re.compile(r"^\W*sl\b|\b(?:sl|student loan)\s+(?:on|off|from|for|deduction|repayment|come|comes|taken)\b|"
                        r"\bhow much (?:sl|student loan)\b", re.I)
# "should I put S or SH", "which one do I give them": a choice of code asked for.
CODE_CHOICE_ASKED = re.compile(r"\bshould i (?:put|use|give|pick|choose|go with|be on|tick)\b|\bwhich\b|\bwhat code\b|\bdo i (?:put|use|give)\b", re.I)
# How many amounts a comparison ("$70k vs $80k") answers at most.
MAX_COMPARED = 3
# A question this short after earlier turns, or one opening like a follow-up, is read together with
# the last turn ("what about with KS?").
FOLLOW_UP_MAX_WORDS = 4
FOLLOW_UP = re.compile(r"^\s*(and|but|also|what about|how about|what if|and if|with|without|same|now|ok|okay|"
                       r"instead|if i|for)\b", re.I)
# A second question in the same message: "What's the tax on $90k and what's my take home?"
SECOND_PART = re.compile(r"\?\s+(?=\S)|[,;]?\s+(?:and|also|plus)(?:\s+then)?\s+(?=(?:what|how|whats|what's)\b|"
                         r"(?:is|do|does|can|will|would)\s+(?:i|it|that|this|my|the|there|you)\b)", re.I)
ASKS = re.compile(r"(?:what|how|whats|which|when|where|who|why|is|are|am|do|does|did|can|could|will|would|should|any)\b", re.I)
# A figure of their own ("how much tax will I pay", "what's my …"), and a
# topic question asking for their own sum ("How much tax will I pay on my shares?").
# "how much of it goes to tax": what comes off an amount of their own.
GOES_TO_TAX = r"\bhow much\b[^?]*\b(?:goes|go|going)\s+(?:to|in|on)\s+(?:extra\s+)?tax\b"
OWN_FIGURE = re.compile(r"\bhow (?:much|many dollars)\b.*\b(i|my|me)\b|\bshould i be on\b|\bhow much (tax|paye)\b|\bwhat'?s my\b|\bwhat is my\b|\bdo i owe\b|"
                        r"\bwill i (pay|get|owe)\b|\bmy tax\b(?!\s*code)|\bis my tax right\b|"
                        r"\b(which|what)\b[^?]*\b(should i|do i need|do i use|am i on|should i be on|do i (?:put|tick|pick|choose|select|go with))\b|"
                        r"\bwork out (my|the [^?]*\bmy)\b|\bam i up for\b|\bthe tax on my\b|"
                        # "what ESCT rate applies to my …"
                        r"\b(?:what|which)\b[^?]*\bappl(?:y|ies) to (?:me|my)\b|"
                        # the same of someone they ask for: "how much tax does she owe?"
                        r"\bhow much (?:nz |new zealand )?(?:tax|paye)?\s*(?:does|will|would|should|did) (?:she|he|they|my \w+)\b|"
                        r"\b(?:does|will|would) (?:she|he|they) owe\b|"
                        # a code or rate for their own job or fund, or someone's they ask for: "secondary code for my
                        # weekend job?", "which PIR must I put", "what PIR should my flatmate pick", "is it S or SH I should be using?"
                        r"(?:^\W*|\b(?:which|what)\s+)(?:[\w-]+\s+){0,2}(?:code|pir|rate)\b[^?.]{0,25}\bfor (?:my|his|her|our|their)\b|"
                        r"\b(?:which|what)\b[^?]*\b(?:must|should) (?:i|he|she|they|we|my \w+)\b|"
                        r"\bis it \w+ or \w+\b[^?]*\bshould\b|" + GOES_TO_TAX, re.I)
# A figure of their own foretold: "how much WFF will we get", "what will my refund be".
PREDICTS_OWN = re.compile(r"\bhow much\b[^?]*\b(?:will|would|am i going to|are we going to)\s+(?:i|we|she|he|they)\s+(?:get|receive|be paid|be getting)\b|"
                          r"\bwhat (?:will|would) (?:my|our|his|her|their)\b[^?]*\bbe\b", re.I)
# One rate asked of their own case: "what ESCT rate applies to my employer's contributions?", "esct rate on
# my employer ks", "Employer KiwiSaver 3.5%, what ESCT rate?", "how much ESCT comes off it?".
OWN_RATE_ASKED = re.compile(r"^(?=.*\b(?:my|me|i|i'm|im|employer(?!s)|boss)\b)(?=.*\b(?:rate\b(?!s)|how much)\b)", re.I | re.S)
# The rates themselves, or how they work: "What are the ESCT rate thresholds?", "how does ESCT work?".
RATES_TABLE_ASKED = re.compile(r"\b(?:rates|thresholds?|bands?|brackets?|table|how does|how do|explain|mean|what (?:is|'s|s) (?:esct|a pir|pir)\b(?!\s+rate))", re.I)
# A figure asked for (not "will I get it?"), and a figure the rule itself gives: its most, or what is paid in.
FIGURE_ASKED = re.compile(r"\bhow (?:much|many dollars)\b|\bwhat|\bwhich\b|\bwork(?:ing)? out\b|\bcalculate\b", re.I)
RULE_FIGURE_ASKED = re.compile(r"\bhow much\b[^?]*\b(?:can|could)\b|\b(?:most|max|maximum|full)\b|\bhow much does the\b|"
                               r"\bwhat\s*(?:%|(?:percent(?:age)?|(?:is the |'s the )?rate)\b)", re.I)  # "what % is it now?"
# Words that only continue an earlier turn: "ok and what about for two of them".
CONTINUES = re.compile(r"^\s*(?:(?:ok|okay|right|so)\s*,?\s*)?(?:and|but|also|what about|how about|same)\b", re.I)
# A short question about "it", "that" or "this" with nothing before it: what it means must be asked.
BARE_PRONOUN = re.compile(r"\b(?:it|that|this|them)\b(?!\s+(?:year|week|fortnight|month|time|tax year|income year)\b)", re.I)
BARE_QUESTION_MAX_WORDS = 5
# Words that say nothing of what "it" is: "Quick one - is that deductible or not?", "do I have to pay
# tax on it?". A question of only these and a bare pronoun names no subject.
SUBJECTLESS_WORDS = frozenset("""
    a an and any are am be been but can claim claimable could deduct deductible did do does eligible entitled for get
    got have hey hi how i i'm im is it its just me much need not now of ok okay on one or owe pay paid please question
    quick really right should so still tax taxable taxed that the them then these this those to what whats what's when
    whether which will would yes you
""".split())
WORD = re.compile(r"[a-z']+", re.I)
# "Am I eligible?" names nothing; "Do I pay tax?" names tax, which the rates answer.
TAX_WORD = re.compile(r"\btax(?:ed|able|es)?\b", re.I)
# Asking for a sum of their own outright: with no amount, only a figure from them can answer it.
SUM_REQUEST = re.compile(r"\b(?:work out|calculate|figure out|estimate)\b[^?]*\bmy (?:tax|pay|paye|take[- ]home|net pay|refund)\b(?!\s*code)|"
                         r"^(?=[^?]*\b(?:difference|compare|comparison|better)\b)(?=[^?]*\b(?:tax|take[- ]home|net|pay)\b)"
                         r"(?=[^?]*\b(?:offers|job offers?|salaries|roles)\b)|"
                         r"\bwhat tax (?:am i|will i be|would i be) up for\b|\bhow much tax am i up for\b", re.I)
# Asking whether tax taken is right: "is that right", "are they overtaxing me".
CHECKS_DEDUCTION = re.compile(r"\b(?:right|correct|too much|too high|overtax\w*|over[- ]tax\w*|enough|wrong|accurate|legit)\b", re.I)
# Asking whether an amount taken is right (not a tag question's "…, right?").
CHECKS_AMOUNT = re.compile(r"\b(?:right|correct|wrong|proper) amount\b|\btoo (?:much|little|high|low)\b|\benough\b|"
                           r"\b(?:over|under)[- ]?tax\w*", re.I)
# Something taken off an amount by someone else: "took tax off", "deducting", "withheld".
TAKEN_OFF = re.compile(r"\b(?:took|take|takes|taking|taken|deduct\w*|withh[eo]ld\w*|came off|comes off|coming off)\b", re.I)
PAY_WORD = re.compile(r"\b(?:pay|paid|payslip|wages?|salary|pay ?packet)\b", re.I)
# Rent from a place let out: its rates, insurance and agent's fees come off the rent.
RENTAL = re.compile(r"\b(?:rent(?:al|ed|ing)?|tenants?|landlord|let out|airbnb|bookabach|holiday home|bach)\b", re.I)
RENTAL_COST_BEFORE = re.compile(r"\b(?:rates|insurance|property manager|manager|repairs|maintenance|body corp\w*|letting|agent'?s?|"
                                r"interest|accountant|fees)\b[^.?!$\d]{0,12}\$?$", re.I)
# Someone in business on their own account, whose business expenses come off their income.
SELF_EMPLOYED = re.compile(r"self[- ]employ|freelanc|contractor|sole trader|my (own )?business|side (business|hustle)|"
                           r"\b(?:uber|doordash|airtasker|deliveroo|menulog|ola|etsy|hireup)\b|gig (?:work|economy|job)|"
                           r"delivery driver|courier driver|rideshare|ride-share", re.I)
# Calculators on earnings from work only: a sale or an investment is none of theirs.
EARNINGS_TOOLS = ("calculate_acc_levy", "calculate_paye", "calculate_take_home_pay", "calculate_kiwisaver")
# Calculators that work on a year's taxable income (the PAYE ones work on a pay).
ANNUAL_TOOLS = ("calculate_income_tax", "calculate_acc_levy", "calculate_student_loan_repayment")
# Calculators whose income is all taxable income: with no pay from work, a profit, interest or a
# gain is the income ("$45,000 profit, no salary"). (The ACC earners' levy is on earnings only.)
ALL_INCOME_TOOLS = ("calculate_income_tax", "calculate_student_loan_repayment", "calculate_ietc", "calculate_donation_tax_credit")
# "Haven't filed last year's return yet": the standard option then starts from the year before.
RETURN_NOT_FILED = re.compile(r"\b(?:not|haven'?t|havent|hasn'?t|hasnt|isn'?t|isnt|wasn'?t|wasnt|yet to|didn'?t|didnt|still to)\s+(?:yet\s+|been\s+)?(?:filed|file|submitted|done)\b|"
                              r"\breturn\b[^.?!]{0,20}\bnot (?:yet )?(?:filed|in|done)\b", re.I)
# "worth $120,000 at 1 April", "$200,000 at the start of the year": an opening market value.
OPENING_VALUE = re.compile(r"^\s*(?:at|on)\s+(?:the\s+)?(?:start|beginning|1(?:st)? april|1 apr)|^\s*(?:opening|market value)", re.I)
# "Opening market value of my foreign shares is $120,000": the value named before its amount.
OPENING_VALUE_BEFORE = re.compile(r"\b(?:opening|market) value\b[^.?!$]{0,40}$", re.I)
MARGINAL_RATE = re.compile(r"(?P<p>\d{2}(?:\.\d+)?)\s?%\s*(?:tax\s+)?(?:rate|bracket|band)|(?:on|in) the (?P<q>\d{2}(?:\.\d+)?)\s?%", re.I)
# Calculators that need the person's income from work (or all their income) to run at all.
INCOME_TOOLS = ("calculate_income_tax", "calculate_paye", "calculate_take_home_pay", "calculate_acc_levy",
                "calculate_student_loan_repayment")
# Sums whose rate follows the rest of the year's income (the ACC levy's rate does not).
RATE_DEPENDS_ON_INCOME_TOOLS = ("calculate_income_tax", "calculate_paye", "calculate_take_home_pay",
                                "calculate_student_loan_repayment")
# A sum asked for in a word or two at the end: "…, tax?", "… - how much tax?", "what's the tax".
TAX_ASKED_TERSELY = re.compile(r"(?:^|[,;:.\-–]\s*)(?:how much\s+|what'?s the\s+|whats the\s+)?(?:tax|income tax)\s*\?*\s*$|"
                               r"\bhow much (?:extra |more |additional )?(?:income )?tax\b(?! (?:credit|code|return|rate))|"
                               # "whats my total tax", "what will my income tax be"
                               r"\bwhat'?s my (?:total |overall )?(?:income )?tax\b(?! (?:code|rate|credit|return|refund))", re.I)
# "What's the tax on a 5k bonus?", "how much do I owe on it": a figure asked for.
ASKS_AMOUNT_OF_TAX = re.compile(r"\b(?:tax|paye)\s+(?:on|for|off)\b|\bhow much\b|\bowe\b", re.I)
# A sum wanted for a pay period or for what comes off a pay ("how much will come off each
# fortnight?", "take home pay weekly?"): a figure of the person's own, however it is worded.
PER_PAY_ASKED = re.compile(r"\b(?:each|every|per|a) (?:week|fortnight|month|pay(?:day)?)\b|\b(?:weekly|fortnightly|monthly)\b|"
                           r"\bhow much\b[^?]*\b(?:come|comes|coming|taken|take|taking)\s+(?:off|out)\b", re.I)
# "How much student loan …", "what's the SL …" (not "the SL code").
LOAN_DEDUCTION_ASKED = re.compile(r"\b(?:how much|what(?:'s|’s|s| is| will be)?)\b[^?.]{0,20}\b(?:student loan|sl)\b(?! code)", re.I)
# Tax taken off a pay asked about: "how much tax comes off the $500?", "what would come off a $175 shift?"
TAX_OFF_ASKED = re.compile(r"\b(?:come|comes|coming|taken|take|takes|taking|deducted|withheld)\s+(?:off|out)\b|"
                           r"\bhow much (?:tax|paye)\b|\bwhat(?:'s| is| would be)? (?:the )?(?:tax|paye) on\b", re.I)
RIT_NAMED = re.compile(r"\b(?:rit|residual income tax|terminal tax|tax to pay|tax bill)\b", re.I)
# The rental or business asked about: "how much tax on the rental?"
GROSS_ASKED_ABOUT = re.compile(r"\b(?:on|from|for|off) (?:the|my|this|that|our) (?:rental|rent|flat|house|property|unit|business|side)", re.I)
# Whether someone is a tax resident, asked; how long they have been here, said.
ASKS_IF_RESIDENT = re.compile(r"\b(?:am i|is (?:he|she|my \w+)|are (?:we|they)|would i be|will i be)\b[^.?!]{0,30}\bresident\b", re.I)
HOW_LONG_HERE = re.compile(r"\b\d+\s*(?:days?|weeks?|months?|years?|yrs?)\b|\b(?:since|in|from|on)\s+(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
                           + MONTH_NAMES + r"\b|\b(?:a|one|two|three|six) (?:days?|weeks?|months?|years?)\b|"
                           r"\bhalf a year\b|\bpermanent\w*\b|\bcitizen\b|\bhome here\b|\bbought a house\b", re.I)
# Where someone lives, said by its place ("lives in Christchurch", "house and kids are still in Nelson"):
# a home is one of the two facts residence turns on. (A place is a capitalised word.)
LIVES_IN_A_PLACE = re.compile(r"\b(?i:lives?|living|based|settled)\s+(?i:here|in\s+(?:nz\b|[A-Z]\w+))|"
                              r"\b(?i:house|home|family|wife|husband|partner|kids|children)\b[^.?!]{0,40}?\b(?i:are|is)\s+"
                              r"(?i:still\s+)?(?i:here|in\s+(?:nz\b|[A-Z]\w+))")
# Tax on an extra payment asked about by name: "off the bonus", "on my overtime", "from the redundancy".
EXTRA_ASKED_ABOUT = re.compile(r"\b(?:on|off|from|of|out of)\s+(?:the|my|this|his|her|their|a|that)\s+(?:annual\s+|year-end\s+|christmas\s+|"
                               r"performance\s+)?(?:bonus|overtime|back ?pay|redundancy|lump sum|payout)\b", re.I)
# "Getting a bonus next month on my $84k salary, how much tax comes off it": the extra pay, asked about as "it".
EXTRA_THEN_IT = re.compile(r"\b(?:a|my|the)\s+(?:annual\s+|christmas\s+|performance\s+|year-end\s+)?(?:bonus|back ?pay|lump sum|payout)\b"
                           r"(?=[^?]*\b(?:off|on|from|of)\s+it\b)", re.I)
# Income named right before an amount ("income $58k"); not "paid" or "on" ("the credit on 1,000?").
INCOME_SAID_BEFORE = re.compile(r"\b(?:income|salary|wages?|earn\w*|make|made|(?:i'?m|im|i am) on)\b[^.?!$\d]{0,12}\$?$", re.I)
# Two codes set side by side: "m vs me", "M or ME", "between code M and code ME".
CODES_SIDE_BY_SIDE = re.compile(r"\b(?:code\s+)?(?P<a>me|m|sb|sh|st|sa|s)\s+(?:vs\.?|versus|or|and|compared (?:to|with)|instead of|rather than)\s+"
                                r"(?:code\s+)?(?P<b>me|m|sb|sh|st|sa|s)\b(?:\s+(?:tax\s+)?code)?", re.I)
COMPARED_WORDS = re.compile(r"\b(?:vs\.?|versus|compared|difference|between|or|instead of|rather than)\b", re.I)
# Two or more jobs named, and a figure wanted for each of them.
TWO_JOBS = re.compile(r"\b(?:two|2|three|3|both|multiple|several)\s+(?:part[- ]time\s+)?(?:jobs|employers)\b", re.I)
EACH_JOB = re.compile(r"\beach\s+(?:of (?:my|the)\s+)?(?:jobs?|employers?|one)\b|\bfor each\b|\beach of them\b", re.I)
# "On each pay", "per pay": the answer is wanted for one pay.
EACH_PAY = re.compile(r"\b(?:each|every|per|a|one) pay(?:slip|cheque|check|day|packet)?\b", re.I)
# "how much refund will I get", "will I get some tax back": a refund asked for.
REFUND_ASKED = re.compile(r"\brefund\b|\b(?:get|getting|got) (?:some |any )?(?:money |tax )?back\b|\bmoney back\b", re.I)
EVERY_PAY = re.compile(EVERY_PAY_WORDS, re.I)
# "How much extra tax is that?": what an income on top of the main one adds.
EXTRA_TAX = re.compile(r"\b(?:extra|more|additional)\s+(?:income\s+)?tax\b|\btax on (?:the|that|this) extra\b|"
                       # "how much tax on the tutoring money?", "tax on the overseas bit": one part named of several
                       r"\b(?:how much|what(?:'s| is)?)\s+(?:[\w']+\s+){0,3}?tax (?:on|for|from) (?:the|that|this|my) (?!(?:total|whole|annual|overall|combined|entire|full|all|yearly)\b)"
                       r"(?:[\w'-]+ ){1,2}(?:money|income|earnings|bit|part|work|gig|jobs?)\b(?![^.?!]{0,15}\b(?:and|plus|&)\b)", re.I)
# An income said to be small without its amount: "a student with not much job income".
LOW_INCOME_NAMED = re.compile(r"\bnot (?:much|a lot of|a lot|very much)(?: (?:job|work|taxable|other))? income\b|\blow income\b|"
                              r"\b(?:don'?t|dont|do not) earn (?:much|a lot)\b|\b(?:hardly|barely) earn\b|\b(?:small|little|tiny) income\b|"
                              r"\bnot much (?:from|in) (?:work|my job|wages)\b", re.I)
# Wages from a job on top of a benefit or NZ Super: "on the benefit plus wages of $400".
WAGES_BESIDE = re.compile(r"\b(?:plus|and|also|as well as|with|on top of)\s+(?:my\s+|some\s+|a\s+)?(?:wages?|part[- ]time (?:work|job|wages)|"
                          r"a job|job|work)\b", re.I)
# A job named beside NZ Super, a pension or a benefit.
JOB_BESIDE = re.compile(r"\bjobs?\b|\bwork(?:ing)?\b|\bemployer\b|\bpart[- ]time\b|\bshifts?\b", re.I)
# A loss asked to be set against other income: "can I use the rental's loss to bring down the tax on my salary?"
LOSS_USED_AGAINST = re.compile(r"\b(?:loss(?:es)?|lost)\b[^?]{0,80}\b(?:against|offset|off ?set|bring down|reduce|lower|cut|take (?:that|it) off|"
                               r"use (?:it|that|them) (?:to|against))\b[^?]{0,40}\b(?:salary|wages?|pay|income|tax)\b", re.I)
LOSS_RULES = ("rental_boarders", "self_employed")
# The year something happened, not the year asked about: "someone said it was scrapped in 2025".
EVENT_YEAR = re.compile(r"\b(?:scrapped|changed|introduced|removed|abolished|repealed|announced|started|ended|cut|raised|"
                        r"increased|dropped|went up|came in|brought in)\s+(?:back\s+)?(?:in|from|on)\s+20\d\d\b", re.I)
# An extra pay from the employer on top of the salary, whose deductions are the salary's own.
EXTRA_PAY = re.compile(r"\bbonus(?:es)?\b|\bcommission\b|\bback ?pay\b|\bovertime\b|\bincentive\b|\bperformance pay\b|"
                       r"\b13th month\b|\bretention (?:payment|bonus)\b", re.I)
# "their only part-time job", "my only job": a job named as a second job's kind is still the only one.
ONLY_JOB = re.compile(r"\bonly\b[^.?!]{0,20}\bjob\b|" + ONLY_INCOME.pattern, re.I)
# A job's own pay named before the amount: "an evening job that'll pay about $12,000".
A_JOB_PAYS_BEFORE = re.compile(r"\b(?:job|work|shifts?|gig|role)\b[^.?!$\d]{0,25}\b(?:pay|pays|paying|that'?ll pay|will pay)\b"
                               r"[^.?!$\d]{0,12}\$?$", re.I)
# ESCT named as such (slots.ESCT also counts "employer contributions", which need not ask about the tax).
ESCT_NAMED = re.compile(r"\besct\b|employer (?:superannuation )?contribution tax", re.I)
# A KiwiSaver rate said to have changed, without the new rate: "I changed my KiwiSaver rate last month".
KIWISAVER_RATE_CHANGED = re.compile(r"\b(?:changed|changing|change|switched|upped|raised|increased|lowered|dropped|reduced|bumped)\s+"
                                    r"(?:my\s+)?(?:kiwisaver|ks|kiwi saver)\s+(?:rate|contributions?|percentage|%)|"
                                    r"\b(?:kiwisaver|ks)\s+(?:rate|contributions?)\s+(?:has\s+)?(?:changed|went up|went down|is changing)\b|"
                                    # a rate they say they do not know: "picked the rate, no idea what it is"
                                    r"\b(?:rate|percentage|%)\b[^.?!]{0,20}\b(?:no idea|not sure|unsure|don'?t know|dont know|can'?t remember|forgot)\b|"
                                    r"\b(?:no idea|not sure|unsure|don'?t know|dont know|can'?t remember)\s+(?:what|which)\s+(?:my\s+|the\s+)?"
                                    r"(?:kiwisaver\s+|ks\s+)?(?:rate|percentage|%)", re.I)
# Earnings beside the pay named without their amount: "starting a side business while still working".
SIDE_EARNINGS_NAMED = re.compile(r"\bside (?:business|hustle|gig|job|income)\b|\bsecond job\b|\bfreelanc\w*\b|\bcontracting\b|"
                                 r"\bself[- ]employ\w*\b", re.I)
# A pay that changed: "salary going from $64k to $68k", "pay rise from $58k to $72k".
PAY_CHANGED = re.compile(r"\b(?:go(?:ing|es)?|went|gone|rise|raise|rose|bump\w*|increas\w*|drop\w*|cut|reduc\w*|chang\w*|moved?)\b"
                         r"[^.?!]{0,20}\bfrom\b[^.?!]{0,20}\bto\b", re.I)
# When it changed, after the new pay: "from 1 January", "in October", "starting Sept".
CHANGE_MONTH = re.compile(r"[^.?!]{0,25}?\b(?:from|starting|in|on|since|as of|effective)\s+(?:the\s+)?(?:1(?:st)?\s+(?:of\s+)?)?"
                          r"(?P<m>" + MONTH_NAMES + r")\b", re.I)
# A pay that stopped or changed part-way with nothing said after: "until 30 Nov then went part time".
PAY_ENDED = re.compile(r"^[^.?!]{0,30}\buntil\b[^.?!]{0,20}\b" + MONTH_NAMES + r"\b[^.?!]{0,10}\b(?:then|and then|when|after which)\b", re.I)
# The whole tax year asked about: "for the full tax year", "for the year", "this year's tax".
YEAR_ASKED = re.compile(r"\bfor the (?:full |whole |entire )?(?:tax |income )?year\b|\bover the (?:whole |full )?(?:tax )?year\b|"
                        r"\bthis (?:tax )?year'?s\b|\bfor (?:this|the) tax year\b|\btax this (?:tax )?year\b", re.I)
# The later of two pays asked about: "on the new salary", "PAYE on the new pay".
NEW_ONE_ASKED = re.compile(r"\b(?:on|with|at|for|of|from|off|out of) (?:the|my|this|that) new (?:salary|pay|wage|wages|rate|amount|figure|income)\b|"
                           r"\bnew (?:salary|pay|wage) (?:is|of|will be)\b", re.I)
# A difference asked for: "how much more tax", "how much extra will I take home", "better off".
DIFFERENCE_ASKED = re.compile(r"\bhow much (?:more|extra|less)\b|\bdifference\b|\b(?:better|worse) off\b", re.I)
# A pay named as the new one, right before its amount: "a raise to $82,000", "offered a job at $95,000".
NEW_PAY_BEFORE = re.compile(r"\b(?:raise|rise|increase|bump(?:ed)?|go(?:ing)? up|goes up|went up|promoted|promotion|offered|offer(?: of)?|"
                            r"new (?:job|role|salary|pay|position)|(?:got|get|take|took|took on|taking|accept|accepted) (?:the|a|that) "
                            r"(?:job|role|position|offer)|(?:job|role|position) (?:paying|that pays|on|at))\b[^.?!$\d]{0,20}$", re.I)
# "What's my income tax for the year?": the whole year's tax asked for, not what one part adds.
ASKS_THE_YEARS_TAX = re.compile(r"\b(?:what'?s|whats|what is|what will be|how much is)\s+my\s+(?:income\s+)?tax\s+(?:for|this|over)\s+(?:the|this)?\s*(?:tax\s+)?year\b", re.I)
# "Total income tax for the year?": the sum over every income, not what one part of it adds.
ASKS_TOTAL = re.compile(r"\b(total|altogether|all up|overall|combined|in all)\b|"
                        r"\btax\b[^.?!]{0,20}\bfor the (?:whole|full|entire) year\b", re.I)
OWN_AMOUNT = re.compile(r"\bhow (?:much|big|large)\b[^?]*\b(i|my|me|we|our|us|she|her|he|his|him|they|their)\b|" + GOES_TO_TAX + r"|\b(?:what'?s|whats|what is) (?:the )?tax on my\b|"
                        r"^\W*(?:the\s+)?tax on my\b|\bwhat (?:do|will|would|should) (?:i|we) owe\b|"
                        r"\bwhat (?:will|would) (?:my|our)\b[^?]*\bbe\b|"
                        r"\b(?:will|would) (?:i|we) (?:get|be getting|have to pay) (?:a|any)\b|"
                        r"\bhow much\b[^?]*\b(?:they|ird|it|employer|boss|work|tax)\s+(?:take|takes|deduct|deducts|withhold|keep)s?\b", re.I)
# "Can I drop my KiwiSaver back to 3%? I'm on $67k", "can I switch to ME, I earn 52k": whether they
# may change something, which a rule answers (the income is context, not a sum to work out).
PERMISSION_ASKED = re.compile(
    r"^\W*(?:(?:so|ok|okay|and|but|hi|hey|quick q)\W+)?(?:can|could|may)\s+(?:i|we)\s+(?:still\s+|just\s+|now\s+|legally\s+|actually\s+)?"
    r"(?:drop|lower|reduce|decrease|switch|change|swap|go back|move|opt out|stop|pause|cancel|deduct|write off|"
    r"claim (?!(?:the |an? |my )?(?:ietc|independent|donations?|tax credits?|refund|it back|back)\b))\b"
    r"|\bam i allowed to\b|\bis it (?:ok|okay|allowed|legal) (?:for me )?to\b", re.I)
SUM_ASKED = re.compile(r"\bhow (?:much|many)\b|\bwhat(?:'s| is| would| will| does)?\b[^?]{0,30}\b(?:take[- ]home|cost|come to|work out|be)\b", re.I)
# Money paid for something in return (a raffle ticket, a gala dinner) is not a gift: which of several
# payments count is the rule's question, not a sum of them all.
BOUGHT_NOT_GIVEN = re.compile(r"\b(?:raffles?|tickets?|dinners?|auctions?|gala|bought|purchased?|fundraising event)\b", re.I)
# "How much can I earn before I pay tax?", "how much do I need to put in to get the full government
# contribution?": a threshold asked about, which the rule answers.
THRESHOLD_ASKED = re.compile(r"\bhow much\b[^?]*\b(?:before|until|tax[- ]free)\b|"
                             r"\bhow much\b[^?]*\b(?:need|have) to (?:put|contribute|earn|save)\b", re.I)
# An amount stated as the person's own income ("I only earn $15,000", "I'm on 78k", "my salary is $90k"),
# not a threshold being asked about ("is the first 14k tax free?").
OWN_INCOME_BEFORE = re.compile(r"\b(?:i|i'm|im|i am|i've|my|me)\b[^.?!]{0,20}?\b(?:earn\w*|make|making|on|salary|wages?|paid|"
                               r"income|get|getting|take)\b[^.?!\d]{0,20}$|"
                               # "got a raise to 80k", "my pay went up to $82,000": their new income
                               r"\b(?:got|get|getting|my)\b[^.?!]{0,12}\b(?:raise|rise|pay rise|payrise|bump|promotion|pay|salary)\s+"
                               r"(?:went up |goes up |jumps |jumped )?to\s*\$?$", re.I)
OWN_INCOME_AFTER = re.compile(r"^\s*(?:a year\s+|per year\s+)?(?:salary|income|wages?)\b", re.I)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|my|me)\b", re.I)
# Words that make a question about more than the calculators see (a disclaimer says so).
COMPLEX = re.compile(r"rental|landlord|self[- ]employ|contract(or|ing)|overseas income|foreign income|shares|crypto|"
                     r"dividends|business income|more than one (income|source)", re.I)


@dataclass
class Decision:
    action: str                       # calculate | fact | topic | clarify | decline | refuse
    question: str                     # as understood (a follow-up includes the turn it continues)
    asked: str                        # the question as typed (cleaned)
    tax_year: str
    tax_year_source: str              # request | question | history | default
    slots: Slots
    classification: Classification | None = None
    intent: IntentSpec | None = None
    calls: list[tuple[str, dict]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)   # clarify: what to ask for
    clarify_reason: str | None = None                  # clarify: why an amount was not used
    clarify_options: list[str] = field(default_factory=list)  # clarify: what it could be ("your take-home pay")
    assumptions: list[str] = field(default_factory=list)
    also_facts: list[IntentSpec] = field(default_factory=list)  # a second question answered from the rules
    default_code: str = "M"           # the main-job code assumed when none is stated
    per_job: bool = False             # several jobs' pays, each worked on its own code: shown together, not compared
    rule_results: dict[str, dict] = field(default_factory=dict)  # a fact's rule worked on stated figures (rule_sum)
    known_year: bool = True
    used_history: bool = False
    complex_situation: bool = False
    rules: RuleBook | None = field(default=None, repr=False, compare=False)  # what a plan may need to check
    # Set by the decision table (decision_table.py) from the question's frame:
    decline_to: dict | None = None     # decline: where a question that is not NZ personal income tax should go
    handed_over: list[tuple[str, dict]] = field(default_factory=list)  # calculations not run: their figures go to a calculator link
    stated: list = field(default_factory=list)  # figures the poster states (tax taken, a bill), set beside the engine's own
    trace: object | None = None        # frame.Trace: the frame and the rows that fired

    # -- what the composer reads -------------------------------------------------------------
    @property
    def scope_topic(self) -> str | None:
        return self.intent.copy if self.intent is not None else None

    @property
    def topics(self) -> list[str]:
        return list(self.intent.topics) if self.intent is not None else []


def is_follow_up(question: str, history: list[dict]) -> bool:
    return bool(history) and (bool(FOLLOW_UP.search(question)) or len(question.split()) <= FOLLOW_UP_MAX_WORDS)


def understood_text(question: str, history: list[dict] | None) -> tuple[str, bool]:
    """The text to understand: the question, with the question its conversation started from in
    front of a follow-up (nztax.follow_up)."""
    from nztax.follow_up import conversation_text

    return conversation_text(question, history)


def merge_follow_up(current: Slots, previous: Slots) -> Slots:
    """A follow-up's own slots win; what it does not say comes from the turn it continues."""
    merged = previous
    for name in ("hours_per_week", "weeks_per_year", "hours_per_year", "asked_period", "tax_code", "student_loan", "kiwisaver",
                 "kiwisaver_rate", "employer_rate", "tax_year", "year_text"):
        value = getattr(current, name)
        if value is not None:
            setattr(merged, name, value)
    if current.amounts:
        merged.amounts = current.amounts
        merged.adds_up, merged.comparison = current.adds_up, current.comparison
    for flag in ("wff", "benefit_or_super", "nz_super", "no_ird_number"):
        setattr(merged, flag, getattr(current, flag) or getattr(previous, flag))
    merged.negated = current.negated
    return merged


def question_slots(question: str, history: list[dict] | None, rules: RuleBook) -> tuple[str, bool, Slots]:
    """(the text to understand, whether it continues the last turn, its slots)."""
    from nztax.follow_up import conversation

    read = conversation(question, history, rules, current_tax_year())
    return read.text, read.continues, read.slots


# (A decimal point, "4.99%", does not end a sentence.)
FINAL_QUESTION = re.compile(r"(?:^|(?<=[.!?])\s+)((?:[^.!?]|(?<=\d)\.(?=\d))+\?)\s*$")


def final_question(question: str) -> str | None:
    """The last sentence of a question that has sentences before it, when it is a question ("… I'm 42,
    on $71,000. Do I have to register for GST?"); None otherwise."""
    m = FINAL_QUESTION.search(question.strip())
    return m.group(1).strip() if m and m.start(1) > 0 else None


def question_parts(question: str) -> list[str]:
    """The question split where a second question starts (one part when there is none). A part that
    asks nothing ("… each fortnight? M code, no KiwiSaver.") belongs to the question before it."""
    text = clean_text(question)
    spans: list[list[int]] = []   # [start, end] of each part in the text
    start = 0
    for m in [*SECOND_PART.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[start:end]
        asks = (m is not None and m.group(0).startswith("?")) or piece.rstrip().endswith("?") or ASKS.match(piece.strip())
        if spans and not asks:
            spans[-1][1] = end
        elif piece.strip(" ?"):
            spans.append([start, end])
        start = m.end() if m else len(text)
    return [text[a:b].strip().rstrip("?.! ") + "?" for a, b in spans]


def decide(question: str, classification: Classification | None, rules: RuleBook, *,
           history: list[dict] | None = None, tax_year: str | None = None, slots: Slots | None = None,
           also: list[IntentSpec] | None = None, components: list[IntentSpec] | None = None) -> Decision:
    asked = clean_text(question)
    if slots is None:
        text, used_history, slots = question_slots(asked, history, rules)
    else:
        text, used_history = understood_text(asked, history)
    current = current_tax_year()
    year, source = tax_year, "request"
    if not year:
        year, source = slots.tax_year, ("question" if slots.tax_year else "default")
        if used_history and slots.tax_year and slots.tax_year != read_slots(asked, rules, current).tax_year:
            source = "history"
    year = year or current
    d = Decision(action="topic", question=text, asked=asked, tax_year=year, tax_year_source=source, slots=slots,
                 classification=classification, used_history=used_history, known_year=year in rules.years,
                 complex_situation=bool(COMPLEX.search(asked)) or len(slots.incomes) > 1 and slots.adds_up, rules=rules)
    if classification is None:
        return d  # no understanding available (no embedder): answer from retrieval
    intent = classification.intent
    d.intent = intent
    if intent.does not in ("refuse", "decline") and (pay := pay_questions.plan(asked, slots, year)) is not None:
        # A bonus, leave paid out or redundancy on a stated pay, or the year's refund or bill on
        # stated incomes: the pay calculators work it on their own figures.
        d.action, d.calls = "calculate", pay.calls
        d.assumptions += pay.assumptions
        return d
    sure = classification.confident
    states_nothing = not slots.amounts and not (slots.student_loan or slots.kiwisaver or slots.wff or slots.flat_code
                                                 or slots.benefit_or_super or slots.no_ird_number or slots.tax_code)
    runner = classification.runner_up
    runner_does = runner.does if runner is not None else None
    gives_only = _gives_only(slots)
    donation = next((spec for spec in (intent, runner) if spec is not None and spec.tool == "calculate_donation_tax_credit"), None)
    if (not sure and runner is not None and {intent.does, runner.does} <= {"clarify", "calculate"}
            and _income_for(slots, intent.tool).income_amount() is None and _asks_own_figure(asked) and not (donation and gives_only)):
        # A sum of their own, or a question too vague to place, with nothing to work from: ask.
        d.action = "clarify"
        d.missing = ["income"]
        return d
    subjectless = all(w.lower() in SUBJECTLESS_WORDS for w in WORD.findall(asked))
    if (not used_history and states_nothing and intent.does not in ("refuse", "decline")
            and (BARE_PRONOUN.search(asked) and (len(asked.split()) <= BARE_QUESTION_MAX_WORDS
                                                  or CONTINUES.match(asked) and len(asked.split()) <= 2 * BARE_QUESTION_MAX_WORDS
                                                  or subjectless)
                 or subjectless and len(asked.split()) <= BARE_QUESTION_MAX_WORDS and not TAX_WORD.search(asked))):
        # "Is that deductible?", "Can I claim it back?", "ok and what about for two of them" with no
        # turn before it: the thing asked about is not in the question.
        _clarify(d, "question")
        return d
    missing = None if sure and intent.does in ("refuse", "decline") else _missing_before_anything(asked, intent, slots)
    if missing:
        _clarify(d, missing)
        return d
    if (not sure and intent.does == "fact" and runner is not None and runner.does == "calculate" and slots.incomes
            and TAX_OFF_ASKED.search(asked)):
        # "what student loan comes out of a $1,650 pay, code M SL?": near a fact about codes, but a sum
        # asked on a stated pay is the calculation's (which asks how often it is paid).
        intent = d.intent = runner
        runner = classification.intent
    if (intent.does == "fact" and (slots.year_of_rule or slots.calendar_year and _asked_of_a_known_calendar_year(asked, slots, rules))
            and re.search(r"20\d\d", slots.year_text or "") and not _same_rule_either_year(intent, rules, slots.year_text)):
        # "acc levy 2025", "the IETC cut-off in 2024": the tax year ending in March or the one starting
        # in April, whose figures differ. ("tax brackets 2026": the same bands either way, so it is answered.)
        _clarify(d, "which_year")
        return d
    if (not sure and intent.does == "decline" and runner is not None and classification.runner_up_score >= get_settings().intent_min_score
            and says_any(asked, intent.decisive_unless)
            and (runner.does == "fact" and not slots.amounts or runner.does == "calculate" and slots.income_amount() is not None)):
        # Held back from turning it away (words of New Zealand's own tax, or of their own pay): the
        # nearest reading that answers it ("Not company or trust, just personal: the top rate?").
        intent, runner = runner, intent
        d.intent, runner_does = intent, "decline"
    if (intent.does == "topic" and runner is not None and runner.does == "calculate"
            and _income_for(slots, "calculate_income_tax").income_amount() is not None and TAX_ASKED_TERSELY.search(asked)):
        # "sole trader turnover 140k, expenses 62k, tax?": the topic's own sum on the stated figures.
        intent, runner = runner, intent
        d.intent, runner_does, sure = intent, "topic", True
    if intent.does == "calculate" and PERMISSION_ASKED.search(asked) and not SUM_ASKED.search(asked):
        rule = _nearest_rule(classification)
        if rule is not None:
            intent, runner = rule, intent
            d.intent, runner_does, sure = intent, "calculate", True
    if (intent.name in ("tax_code_main", "secondary_code") and slots.benefit_or_super and slots.tax_code is None and JOB_BESIDE.search(asked)
            and (secondary := _calculation("choose_secondary_tax_code")) is not None):
        # "Now getting NZ Super and still doing my part-time job: what code should my job be on?": NZ Super
        # (or a benefit) is taxed as the main income, so the job takes a secondary code from the total (and
        # the main-code rule is no fallback).
        intent, runner = secondary, None
        d.intent, runner_does, sure = intent, "fact", True
    if (intent.tool in ("calculate_paye", "calculate_take_home_pay", "calculate_income_tax") and slots.benefit_or_super
            and slots.tax_code is None and not find_tax_codes(asked) and not any(re.search(rf"\b{c}\b", asked) for c in SECONDARY_CODES)
            and len(slots.incomes) == 1 and WAGES_BESIDE.search(asked)):
        # "on the benefit plus wages of $400, how much tax comes off the wages?": beside a benefit or NZ Super
        # the job is on a secondary code, which follows the total, and neither is said.
        _clarify(d, "secondary_code")
        return d
    if intent.does in ("calculate", "fact") and intent.name not in LOSS_RULES and LOSS_USED_AGAINST.search(asked) and not SUM_ASKED.search(asked):
        # "The rental made a $12k loss: can I use it to bring down the tax on my salary?": whether a loss
        # can be set against other income is the rental's (or the business's) rule, not a sum, nor an
        # employee's expenses.
        rule = max((spec for spec in default_catalogue().intents if spec.name in LOSS_RULES),
                   key=lambda spec: classification.scores.get(spec.name, 0.0))
        intent, runner = rule, intent
        d.intent, runner_does, sure = intent, "calculate", True
    if intent.does in ("refuse", "decline", "clarify", "fact", "topic"):
        both_out = intent.does == runner_does == "decline" and classification.score >= get_settings().intent_min_score
        if (not sure and intent.does == "refuse" and runner is not None and runner.does in ("fact", "topic")
                and classification.runner_up_score >= get_settings().intent_min_score):
            # Near a request to mislead but in an honest question's words ("How do I declare my cash
            # lawn-mowing properly?"): the nearest rule or topic answers it.
            intent = d.intent = runner
            sure = True
        if not sure and intent.does in ("refuse", "decline", "clarify") and not both_out:
            # Not sure enough to turn the question away: look it up instead. (Unsure only which of
            # two things out of scope it is, "my company's vehicles", it is still out of scope.) A sum
            # of their own with no amount ("… and an Australian pension: how much tax will he pay?") is
            # asked about, as a topic's is.
            d.action = "topic"
            if intent.does == "decline" and not slots.amounts and OWN_AMOUNT.search(asked):
                _clarify(d, "details")
            return d
        if (not sure and intent.does in ("fact", "topic") and runner_does == "decline"
                and classification.score < get_settings().intent_min_score):
            # Nothing in the catalogue is near, and the nearest way out is to turn it away: "How many
            # weeks' redundancy pay am I entitled to by law?" is not a tax question.
            d.action, d.intent = "decline", runner
            return d
        d.action = intent.does
        if intent.rule_sum:
            _rule_sum(d, intent, slots)
        if "wff" in d.rule_results and "children" not in d.rule_results["wff"] and CREDIT_AMOUNT_ASKED.search(asked):
            # "How much Working for Families will we get on $65k?": the credit is per child.
            _clarify(d, "children")
            return d
        if (intent.does in ("fact", "topic") and any(a.questioned == HELD_PAST_BRIGHT_LINE for a in slots.amounts)
                and _answered_as_outside_bright_line(d)):
            return d  # ("Sold the house for $900k, bought 5 years ago for $700k: the tax?")
        if intent.does == "fact" and any(a.questioned == PROPERTY_HELD_UNKNOWN for a in slots.amounts):
            # "Sold our rental for $780,000, we paid $690,000: is the gain taxable?": that turns on when it was bought.
            _clarify(d, "bought_when")
            return d
        if intent.does == "clarify":
            d.missing = ["income"] if slots.income_amount() is None and _asks_own_figure(asked) else ["question"]
        elif intent.does == "fact" and intent.asks and _own_figure_with_nothing(asked, intent, slots, states_nothing):
            # "What's my PIR?", "What tax code should I use?": their own, with nothing to go on.
            _clarify(d, intent.asks)
        elif intent.does == "fact" and intent.tool and (slots.income_amount() is not None or slots.contributions) and (
                "calculation" not in intent.show or _states_own_figures(asked, slots)):
            # A fact that depends on the stated income ("the code for my only job at $55,000"), or a
            # misconception about their own income ("I only earn $15,000, so no tax, right?"): its
            # catalogue entry names the calculator that settles it.
            _fact_sum(d, intent, slots)
        elif intent.own_sum_asks and not slots.amounts and OWN_AMOUNT.search(asked) and not THRESHOLD_ASKED.search(asked):
            # "How much tax will I pay on my shares?", "Mum gets NZ Super and a UK pension: how much tax
            # does she owe?": a figure of their own (or someone's they ask for), with no amount to work from.
            _clarify(d, "details")
        elif (intent.own_sum_asks and (OWN_AMOUNT.search(asked) or slots.extra_only and ASKS_AMOUNT_OF_TAX.search(asked))
              and any(a.role != "foreign" for a in slots.amounts) and slots.income_amount() is None and not d.rule_results):
            # "How much tax will come off my $5k bonus?": what it costs depends on the rest of their income.
            _clarify(d, _what_else_reason(slots) if slots.extra_only else "income")
        return d
    # A calculation.
    foreign = [a for a in slots.amounts if a.role == "foreign"]
    if foreign and runner_does == "decline" and runner.copy == "overseas":
        # "Moving to Brisbane, how much tax on 120k AUD there?": another country's tax on its own money.
        d.action, d.intent = "decline", runner
        return d
    if foreign and slots.income_amount() is None:
        # "My salary will be 90,000 AUD: how much NZ tax?": worked out only in New Zealand dollars.
        _clarify(d, "amount", foreign[0].questioned)
        return d
    readings = {intent.tool, runner.tool if runner is not None else None}
    if (SELF_EMPLOYED.search(asked) and slots.tax_code is None and slots.asked_period not in PAY_FREQUENCIES
            and "calculate_paye" in readings):
        # "Self-employed cleaner, $38 an hour, 1,400 hours this year: what's the tax?": no employer
        # takes PAYE; their tax is the year's income tax on the profit. (Between the two, that settles it.)
        income_tax = _calculation("calculate_income_tax")
        if income_tax is not None and intent.tool in ("calculate_paye", "calculate_income_tax"):
            sure = sure or readings == {"calculate_paye", "calculate_income_tax"}
            intent = d.intent = income_tax
    compared = _codes_compared(asked) if intent.tool == "calculate_paye" else None
    if compared and all(base_code(c) in SECONDARY_CODES for c in compared) and CODE_CHOICE_ASKED.search(asked):
        # "Should I put S or SH on the form?": which secondary code follows the year's total income,
        # not the PAYE each would take.
        secondary = _calculation("choose_secondary_tax_code")
        if secondary is not None:
            intent = d.intent = secondary
    if (intent.tool == "calculate_paye" and slots.tax_code is None and CODE_ASKED.search(asked)
            and {"second_job"} <= {a.role for a in slots.amounts} and len(slots.incomes) > 1):
        # "Main job $49,000 … weekend bar work $260 a week. Which code should the bar job use and how much tax
        # comes off each week?": the second job's code from the total, then the PAYE on its pay.
        secondary = _calculation("choose_secondary_tax_code")
        if secondary is not None:
            intent = d.intent = secondary
    if (intent.tool == "calculate_paye" and slots.names_take_home and slots.tax_code is not None and len(slots.incomes) == 1
            and not SECOND_JOB_WORDS.search(asked)):
        # "How much will I actually get paid each week after tax?": the take-home pay, which leads with
        # IRD's PAYE on the same pay and adds what else comes off it.
        take_home = _calculation("calculate_take_home_pay")
        if take_home is not None:
            intent = d.intent = take_home
    if slots.calendar_year and not slots.pay_date and not _same_sum_either_year(d, intent, slots):
        # "$65,000 in 2025, January to December": that spans two tax years (1 April to 31 March).
        # ("income tax on 70k for 2026": the same sum in 2025-26 and 2026-27, so it is answered.)
        _clarify(d, "calendar_year")
        return d
    if (EVERY_PAY.search(asked) and slots.asked_period is None and slots.incomes
            and all(a.period == "annual" for a in slots.incomes) and intent.tool in (*ANNUAL_TOOLS, "calculate_take_home_pay", "calculate_paye")):
        # "on 55k with a student loan, how much comes off each pay": one pay of a year's salary,
        # and how often it is paid is not said.
        _clarify(d, "frequency")
        return d
    if (REFUND_ASKED.search(asked) and not gives_only and intent.tool != "calculate_donation_tax_credit" and slots.tax_code is None
            and not any(a.role in ("deduction", "deduction_label") for a in slots.amounts)):
        # "stopped working in August after earning $19,000: how much refund?": a refund is the tax
        # taken off less the tax due, and what was taken off is not said. (With a code stated, "…on the
        # S code: will I get a refund?" is answered by whether the code is right.)
        _clarify(d, "tax_paid")
        return d
    if slots.gst_inclusive and intent.tool in ALL_INCOME_TOOLS:
        # "sales were $69,000 incl GST": income tax is on income and costs without GST, and the
        # question's figures have it in them.
        _clarify(d, "gst_exclusive")
        return d
    if slots.part_year_months and intent.tool in (*ALL_INCOME_TOOLS, "calculate_acc_levy") and slots.asked_period not in PAY_FREQUENCIES:
        # "Starting 1 Sept on $84,000 a year, no income before that: tax to 31 March?": the months paid.
        yearly = next(a for a in slots.amounts if a.is_income and a.period == "annual")
        earned = _truncated(yearly.value * slots.part_year_months / 12)
        slots = d.slots = replace(slots, amounts=[replace(a, value=earned, text=f"{a.text} for {slots.part_year_months} months")
                                                  if a is yearly else a for a in slots.amounts])
        d.assumptions.append(f"${yearly.value:,.0f} a year paid for the {slots.part_year_months} months from the start to "
                             f"31 March: ${earned:,.2f}, and nothing else earned in the tax year")
    if (intent.tool in (*ALL_INCOME_TOOLS, "calculate_acc_levy") and slots.asked_period not in PAY_FREQUENCIES and YEAR_ASKED.search(asked)
            and not DIFFERENCE_ASKED.search(asked)):  # ("how much more tax this year?" weighs the two pays)
        blended = _year_of_a_change(d, slots)
        if blended is False:
            _clarify(d, "after_change")
            return d
        if blended is not None:
            slots = d.slots = blended
    if (intent.tool in ("calculate_kiwisaver", "calculate_paye", "calculate_take_home_pay") and slots.kiwisaver_rate is None
            and KIWISAVER_RATE_CHANGED.search(asked)):
        # "I changed my KiwiSaver rate last month. What'll come out of my $2,400 pay now?": not the default rate;
        # nor when they say they don't know it.
        _clarify(d, "kiwisaver_rate")
        return d
    side = SIDE_EARNINGS_NAMED.search(asked)
    if (intent.tool in ANNUAL_TOOLS and ASKS_TOTAL.search(asked) and side and not ONLY_JOB.search(asked)
            and not re.search(r"\b(?:no|not|without|don'?t have)\s+(?:a\s+|any\s+)?$", asked[:side.start()], re.I)
            and len([a for a in slots.amounts if not a.questioned]) == 1 and slots.income_amount() is not None):
        # "Starting a side business while still working, salary $48,000: ACC levy in total?": the
        # business's earnings count too, and they are not said.
        _clarify(d, "side_income")
        return d
    if slots.part_year and intent.tool in ANNUAL_TOOLS and slots.asked_period not in PAY_FREQUENCIES:
        # "Moved here in August, started on 92k: my tax for the year?": only part of the salary is
        # earned in the tax year (1 April to 31 March), and how much is not said.
        _clarify(d, "part_year")
        return d
    if (runner is not None and runner.rule_sum == "provisional" and _rule_sum(d, runner, slots) and "provisional" in d.rule_results
            and any(_rit_named_before(asked, a) for a in slots.amounts)):
        # "My residual income tax came to $8,400 … turnover about $160,000. How much provisional tax?":
        # the rule's sum on the tax named, whatever else the business took in.
        d.action, d.intent = "fact", runner
        return d
    if slots.gross_only and (intent.tool in ALL_INCOME_TOOLS or intent.tool == "calculate_acc_levy"
                             and any(a.role == "takings" for a in slots.amounts)
                             or intent.tool in ("calculate_paye", "calculate_take_home_pay") and GROSS_ASKED_ABOUT.search(asked)):
        # "My cleaning business brought in $95k in sales, what's my tax?": tax is on the profit, and
        # the costs that come off the takings are not stated.
        _clarify(d, "expenses")
        return d
    if slots.business_unnamed and intent.tool in ALL_INCOME_TOOLS:
        # "The business made $60,000 profit, how much tax do I pay?": a sole trader's own income at
        # personal rates, or a company's profit taxed in the company: how it is set up decides.
        _clarify(d, "business_structure")
        return d
    if (slots.extra_only or _extra_tax_on_one_amount(slots, asked)) and intent.tool in RATE_DEPENDS_ON_INCOME_TOOLS:
        # "I got paid $3,000 for some work on the side, how much tax?": taxed at the band the rest of
        # their income reaches, which the question does not say.
        _clarify(d, _what_else_reason(slots))
        return d
    if (intent.does == "calculate" and DIFFERENCE_ASKED.search(asked) and not slots.comparison
            and len([a for a in slots.incomes if not a.questioned]) == 1
            and NEW_PAY_BEFORE.search(asked[max(0, slots.incomes[0].start - 40):slots.incomes[0].start])):
        # "If I get a raise to $82,000, how much more tax will I pay?": a difference from what they
        # earn now, which is not said.
        _clarify(d, "current_pay")
        return d
    if (slots.denies_conditions and slots.tax_code is None
            and not (slots.wff or slots.benefit_or_super or slots.no_ird_number)):
        # "…, no WFF, not on a benefit": the credit they are owed comes through the ME code, whichever
        # of two close readings is worked out.
        d.default_code = "ME"
    if (not sure and intent.tool in ALL_INCOME_TOOLS and runner_does in ("fact", "topic") and slots.income_amount() is not None
            and (EXTRA_TAX.search(asked) or TAX_ASKED_TERSELY.search(asked)
                 or intent.tool == "calculate_take_home_pay" and slots.names_take_home)):
        # "a raise from 77k to 80k - will everything be taxed at 33%? how much more tax will I pay?",
        # "on 64k, a 4k bonus: how much of it do I keep?": a sum asked for in so many words, on their own
        # figures, whatever rule is near.
        sure = True
    if not sure:
        fact = runner if runner is not None and runner.does == "fact" and runner.tool == intent.tool else None
        if runner is not None and runner.does == "fact" and runner.rule_sum and _rule_sum(d, runner, slots):
            # "Shares worth $200,000 at the start of the year: FIF income?": the rule's sum on their figure.
            d.action, d.intent = "fact", runner
            return d
        if fact is not None and "calculation" in fact.show and _states_own_figures(asked, slots):
            # Too close to call between a misconception and the sum on their own income ("If I earn
            # 200k is all of it taxed at 39%?"): the fact's answer shows the sum too.
            d.action, d.intent = "fact", fact
            _fact_sum(d, fact, slots)
            return d
        if slots.questioned:
            _clarify(d, "amount", slots.questioned[0].questioned)
        elif donation is not None and gives_only:
            # Between the credit and a sum on their pay, with only donations stated: the credit.
            d.action, d.intent = "calculate", donation
            _plan(d, donation, slots)
        elif _income_for(slots, intent.tool).income_amount() is None and _asks_own_figure(asked):
            _clarify(d, "income")
        elif runner is not None and runner.does == "calculate" and _income_for(slots, intent.tool).income_amount() is not None:
            # Clearly a sum, but which of two? Work out both, each labelled, when both can run on
            # what was said; otherwise ask which is meant.
            trials = [_trial(d, spec, slots) for spec in (intent, runner)]
            if all(trials):
                d.action = "calculate"
                for trial in trials:
                    _add_calls(d, trial)
            elif (by_rule := _rule_answer(d, intent, slots)) is not None:
                return by_rule  # the nearer reading is answered by its rule on their figure, whatever the other
            else:
                _clarify(d, "which_calculation")
                d.clarify_options = [i.label or i.name.replace("_", " ") for i in (intent, runner)]
        else:
            d.action = "topic"
        return d
    d.action = "calculate"
    named = components or []
    said_not = {"calculate_kiwisaver": slots.kiwisaver is False, "calculate_student_loan_repayment": slots.student_loan is False}
    # (A part said not to apply, "no loan, no KiwiSaver", is not worked out because its word is there.)
    components = [c for c in named if c.name in intent.covers and c.does == "calculate" and not said_not.get(c.tool)]
    if slots.names_income_tax and intent.tool in ("calculate_acc_levy", "calculate_student_loan_repayment"):
        # "What's her income tax and ACC levy on that?": the income tax it names, on the same income.
        components += [c for c in named if c.tool == "calculate_income_tax"]
    if slots.names_acc_levy and intent.tool == "calculate_income_tax":
        # "What income tax and ACC earners' levy do I owe?": the levy it names, on the same income.
        components += [c for c in named if c.tool == "calculate_acc_levy"]
    if (any(c.tool == "calculate_ietc" for c in components) and slots.tax_code is None
            and not (slots.wff or slots.benefit_or_super or slots.no_ird_number)):
        # "Take-home on $55k if I include the IETC": the credit comes through the ME code.
        d.default_code = "ME"
    _plan(d, intent, slots)
    for part in components:
        # A part of this sum the question names ("…, KS 3.5%: and the employer's contribution after
        # ESCT?") is worked out on its own as well, with its own working and source.
        if d.action == "calculate" and (trial := _trial(d, part, slots)) is not None:
            _add_calls(d, trial)
    if (d.action == "clarify" and d.missing == ["income"] and runner is not None and runner.does == "fact"
            and _asks_own_rate(asked, runner, slots)):
        # "… $210,000 in the fund. What ESCT rate should come off my employer's contribution?": the
        # rule's one rate follows their figures, which are not stated.
        _clarify(d, runner.asks)
        return d
    if (d.action == "clarify" and d.missing == ["income"] and runner is not None and runner.does == "fact"
            and not _asks_own_figure(asked) and not PER_PAY_ASKED.search(asked)):
        # Nothing this sum can work on, and no figure of their own asked for: "Does the ACC levy get
        # charged on my term deposit interest?" is the rule's question.
        d.action, d.intent, d.missing = "fact", runner, []
        return d
    for extra in also or []:
        # A second question in the same message: a calculation on the same figures, or a fact.
        if d.action != "calculate" or extra.name == intent.name or extra.name in intent.covers:
            continue  # (PAYE on a pay already shows its student loan and KiwiSaver)
        if extra.does == "fact" and extra.lead:
            d.also_facts.append(extra)
            continue
        if extra.does != "calculate" or any(name == extra.tool for name, _ in d.calls):
            continue  # (a calculator already run answers that part: "… and what PAYE comes off the weekend pay?")
        trial = _trial(d, extra, slots)
        if trial is not None:
            _add_calls(d, trial)
    _loan_deduction_first(d, intent, slots)
    return d


def _year_of_a_change(d: Decision, slots: Slots) -> Slots | None | bool:
    """A pay that changed during the tax year, asked about for the whole year: the year's income is
    each pay for its months ("from $64k to $68k from 1 January": 9 months and 3), as one income. False
    when the year's income cannot be known (no month for the change, or nothing said after an end);
    None when the question tells of no change."""
    pays = [a for a in slots.incomes if not a.questioned and a.period == "annual"]
    if (len(pays) == 2 and slots.comparison and PAY_CHANGED.search(d.asked) and not NEW_ONE_ASKED.search(d.asked)
            and d.asked.count(pays[1].text) == 1):  # ("… How much tax will I pay on $81,000?" asks about the new one)
        month = CHANGE_MONTH.match(d.asked, pays[1].end)
        if month is None:
            return False
        later = months_to_march(month.group("m"))
        year = _truncated((pays[0].value * (12 - later) + pays[1].value * later) / 12)
        d.assumptions.append(f"${pays[0].value:,.0f} a year for {12 - later} months and ${pays[1].value:,.0f} a year for "
                             f"{later} months: ${year:,.2f} for the tax year")
        whole = replace(pays[0], value=year, text=f"{pays[0].text} then {pays[1].text}")
        return replace(slots, comparison=False, adds_up=False,
                       amounts=[whole if a is pays[0] else a for a in slots.amounts if a is not pays[1]])
    if len(pays) == 1 and PAY_ENDED.search(d.asked[pays[0].end:]):
        return False  # "full time on $80,000 until 30 Nov, then part time": the rest of the year is not said
    return None


def _loan_deduction_first(d: Decision, intent: IntentSpec, slots: Slots) -> None:
    """"How much SL comes off a $720 weekly pay?": the student loan calculator's deduction from that
    pay leads, with PAYE on the same pay beside it (two jobs' PAYE each lead with their own)."""
    pays = [args for name, args in d.calls if name == "calculate_paye"]
    if (d.action == "calculate" and len(pays) == 1 and "SL" in pays[0]["tax_code"].split()
            and all(name != "calculate_student_loan_repayment" for name, _ in d.calls)
            and (intent.tool == "calculate_student_loan_repayment" or LOAN_DEDUCTION_ASKED.search(d.asked) and not slots.names_take_home)):
        d.calls.insert(d.calls.index(("calculate_paye", pays[0])), _loan_deduction_call(pays[0], d.tax_year))


def _nearest_rule(classification) -> IntentSpec | None:
    """The best-scoring fact or topic in the catalogue, if it is near enough to the question."""
    rules = [spec for spec in default_catalogue().intents if spec.does in ("fact", "topic")
             and classification.scores.get(spec.name, 0.0) >= get_settings().intent_min_score]
    return max(rules, key=lambda spec: classification.scores[spec.name], default=None)


def _answered_as_outside_bright_line(d: Decision) -> bool:
    """A property the question says was held past the bright-line period: the bright-line rule answers,
    leading with its gain not being taxed under it (say.py); False when the catalogue has no such rule."""
    rule = next((spec for spec in default_catalogue().intents if spec.does == "fact" and spec.name == "bright_line"), None)
    if rule is None:
        return False
    d.action, d.intent = "fact", rule
    d.rule_results["bright_line_outside"] = {}
    return True


def _calculation(tool: str) -> IntentSpec | None:
    """The catalogue's calculation that runs `tool`."""
    return next((spec for spec in default_catalogue().intents if spec.does == "calculate" and spec.tool == tool), None)


def _asked_of_a_known_calendar_year(asked: str, slots: Slots, rules: RuleBook) -> bool:
    """A calendar year the question asks about ("the IETC cut-off in 2024"), both of whose tax years
    the rules hold: not a pay's date, a KiwiSaver year, or when something happened ("scrapped in 2025")."""
    named = re.search(r"20\d\d", slots.year_text or "")
    if named is None or slots.pay_date or slots.kiwisaver_year or EVENT_YEAR.search(asked):
        return False
    y = int(named.group())
    return all(tax_year_starting(year) in rules.years for year in (y - 1, y))


def _same_rule_either_year(fact: IntentSpec, rules: RuleBook, year_text: str) -> bool:
    """Whether a fact's lead says the same in both tax years a calendar year's number can mean."""
    from nztax.say import fact_values, fill  # (say renders decisions; only its rule values are needed here)

    y = int(re.search(r"20\d\d", year_text).group())
    years = [tax_year_starting(y - 1), tax_year_starting(y)]
    leads = []
    for year in years:
        year_rules = rules.years.get(year)
        lead = fill(fact.lead, fact_values(year_rules)) if year_rules is not None and fact.lead else None
        if lead is None:
            return False
        # (The lead shows a year's figures as they end it; a change part-way through, such as the
        # 31 July 2024 one, shows in the section's own figures.)
        leads.append((lead.replace(year, ""), [_figures_only(getattr(year_rules.data, t, None)) for t in fact.topics]))
    return leads[0] == leads[1]


def _same_sum_either_year(d: Decision, intent: IntentSpec, slots: Slots) -> bool:
    """Whether a calculation on a calendar year's number comes out the same in both tax years it
    can mean; if so the later year is answered and the sameness said."""
    from nztax.tools import call_tool

    named = re.search(r"20\d\d", slots.year_text or "")
    if named is None or intent.tool is None:
        return False
    y = int(named.group())
    years = [tax_year_starting(y - 1), tax_year_starting(y)]
    outcomes = []
    for year in years:
        trial = replace(d, tax_year=year, calls=[], assumptions=[], known_year=year in d.rules.years)
        _plan(trial, intent, slots)
        if trial.action == "clarify" or not trial.calls:
            return False
        results = [call_tool(name, {**args, "tax_year": year}) for name, args in trial.calls]
        if any("error" in r for r in results):
            return False
        outcomes.append([{k: v for k, v in r.items() if k not in ("tax_year", "source", "sources")} for r in results])
    if outcomes[0] != outcomes[1]:
        return False
    d.tax_year = years[1]
    d.assumptions.append(f"{y} as either tax year it can mean, {years[0]} or {years[1]}: the figures are the same in both")
    return True


def _figures_only(section) -> object:
    """A rules section's figures, without its dates and source (which differ every year)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("start", "end", "source")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(section.model_dump()) if section is not None else None


def _missing_before_anything(asked: str, intent: IntentSpec, slots: Slots) -> str | None:
    """What a question needs before any reading of it can be answered, whatever it is about."""
    checked = ("deduction", "claimed") if intent.does == "calculate" and intent.tool in INCOME_TOOLS else ("deduction",)
    if (any(a.role in checked for a in slots.amounts) and _income_for(slots, intent.tool).income_amount() is None
            and CHECKS_DEDUCTION.search(asked)):
        # "My payslip says PAYE 612.40, is that right?", "I worked out my loan deduction as $88.80.
        # Right?": checking it needs the pay it came off. (A stated profit is the income to check against.)
        return "pay_to_check"
    if (slots.amounts and all(a.role == "claimed" for a in slots.amounts) and intent.does == "topic"
            and CHECKS_DEDUCTION.search(asked)):
        # "My accountant says the tax on my rental is $4,100. Does that look right?": a figure to check,
        # nothing it was worked from, and no rule that gives it.
        return "pay_to_check" if PAY_WORD.search(asked) else "details"
    if not slots.amounts and CHECKS_AMOUNT.search(asked) and TAKEN_OFF.search(asked):
        # "The bank took tax off my interest. Did they take the right amount?": checking what was
        # taken needs the figures it was taken from, and none is given.
        return "pay_to_check" if PAY_WORD.search(asked) else "details"
    if not slots.amounts and OWN_AMOUNT.search(asked) and PER_PAY_ASKED.search(asked):
        # "My son starts his first job next week. How much will they take out of his pay?": what
        # comes off a pay follows the pay, which is not given.
        return "income"
    if ((EXTRA_ASKED_ABOUT.search(asked) or EXTRA_THEN_IT.search(asked)) and slots.amounts
            and not any(a.role in OTHER_INCOME_ROLES for a in slots.amounts)):
        # "Salary $88,000. How much tax will come off the bonus?": the bonus is what is asked about, and
        # its amount is not said.
        return "extra_amount"
    if intent.asks == "residence_facts" and ASKS_IF_RESIDENT.search(asked) and not _residence_facts_said(asked):
        # "Am I a tax resident? Came over on a working holiday visa": residence follows the days here and
        # whether they have a home here, and neither is said.
        return "residence_facts"
    if (slots.second_job or TWO_JOBS.search(asked)) and len(slots.incomes) == 1 and EACH_JOB.search(asked):
        # "Two jobs making 70k between them. How much PAYE should each employer take?": one total,
        # and a figure asked for each job, which follows how the total is split.
        return "job_split"
    if not slots.amounts and SUM_REQUEST.search(asked):
        # "Can you work out my tax? I'm on tax code M": a sum of their own asked for with no figure.
        return "income"
    return None


def after_retrieval(d: Decision, found: bool) -> Decision:
    """A topic answer with nothing in the sources, for a question whose nearest intent was to turn
    it away, is turned away after all ("What's a good pavlova recipe?")."""
    if d.action == "topic" and not found and d.classification is not None:
        nearest = d.classification.intent
        if nearest.does in ("decline", "refuse"):
            d.action = nearest.does
    return d


def _rule_answer(d: Decision, intent: IntentSpec, slots: Slots) -> Decision | None:
    """What `intent` would plan, as a copy of `d`, when its plan is a rule worked on their figure
    (a second job's loan deduction); None otherwise."""
    trial = replace(d, action="calculate", calls=[], assumptions=[], rule_results={})
    _plan(trial, intent, slots)
    return trial if trial.action == "fact" and trial.rule_results else None


def _trial(d: Decision, intent: IntentSpec, slots: Slots) -> Decision | None:
    """What `intent` would calculate on these slots, as a copy of `d`; None when it would ask instead."""
    trial = replace(d, action="calculate", calls=[], assumptions=[])
    _plan(trial, intent, slots)
    return trial if trial.action == "calculate" and trial.calls else None


def _add_calls(d: Decision, trial: Decision) -> None:
    d.calls += [c for c in trial.calls if c not in d.calls]
    d.assumptions += [a for a in trial.assumptions if a not in d.assumptions]


def _rule_sum(d: Decision, intent: IntentSpec, slots: Slots) -> bool:
    """A fact's rule worked on the amount the question states ("my RIT was $8,000", "shares worth
    $120,000 on 1 April"); whether it could be."""
    from nztax.calculators.errors import ToolArgumentError
    from nztax.calculators.fif import fair_dividend_rate_income
    from nztax.calculators.provisional import standard_provisional_tax
    from nztax.calculators.wff import family_tax_credit

    if not d.known_year:
        return False
    named_rit = [a for a in slots.amounts if a.period == "annual" and a.value > 0 and _rit_named_before(d.asked, a)]
    # ("ir3 showed $9,400 tax on my income": the year's whole tax, PAYE and all, not what was left to pay.)
    stated = [a for a in slots.amounts if a.period == "annual" and a.value > 0 and (a in named_rit or not TAX_FIGURE_AFTER.match(d.asked[a.end:]))]
    stated = named_rit or stated  # ("my residual income tax was $7,200 and turnover about $95,000")
    opening = [a for a in stated if a.role == "value" or OPENING_VALUE.search(d.asked[a.end:a.end + 40])
               or OPENING_VALUE_BEFORE.search(d.asked[max(0, a.start - 60):a.start])]
    try:
        # ("a self-employed builder making around $90k": an income, not the tax on it.)
        tax_stated = named_rit or [a for a in stated if a.role not in (*INCOME_LIKE_ROLES, "takings")]
        if intent.rule_sum == "provisional" and len(tax_stated) == 1:
            d.rule_results["provisional"] = standard_provisional_tax(
                float(tax_stated[0].value), d.tax_year, last_return_filed=not RETURN_NOT_FILED.search(d.asked))
        elif intent.rule_sum == "fif" and (under := _fif_cost_under_threshold(d, slots)) is not None:
            d.rule_results["fif_under"] = under
        elif intent.rule_sum == "fif" and len(opening) == 1:
            d.rule_results["fif"] = fair_dividend_rate_income(float(opening[0].value), d.tax_year, _marginal_rate(d))
        elif intent.rule_sum == "wff" and not FAMILYBOOST.search(d.asked) and len(family := _family_incomes(slots)) in (1, 2):
            # (A couple's income together is just what Working for Families goes by: "my wife's salary is
            # $65k and mine is $80k" is a family income of $145,000.)
            d.rule_results["wff"] = family_tax_credit(float(sum((a.value for a in family), Decimal(0))), _children(d.asked), d.tax_year)
    except ToolArgumentError:
        return False  # (a year without those rules: the rule's text alone)
    return bool(d.rule_results)


def _family_incomes(slots: Slots) -> list[Money]:
    """A family's yearly incomes for Working for Families: one joint amount, or the person's own and a
    partner's; anything else (two of one person's) is not read as a family's."""
    own = [a for a in slots.incomes if a.period == "annual" and a.questioned in (None, HOUSEHOLD_QUESTIONED)]
    partner = [a for a in slots.amounts if a.role == "partner" and a.period == "annual" and not a.questioned]
    # (A household's joint amount already holds the partner's pay.)
    return own + partner if len(own) == 1 and (not partner or len(partner) == 1 and own[0].questioned is None) else []


# "how much will we get", "how much family tax credit": the credit itself asked for (not how much it is cut by).
CREDIT_AMOUNT_ASKED = re.compile(r"\bhow much\b(?![^?]*\b(?:cut|reduc\w*|abate\w*|lose|drop|go(?:es)? down|less)\b)", re.I)
# FamilyBoost (childcare fees), a Working for Families payment of its own: not the family tax credit's sum.
FAMILYBOOST = re.compile(r"\bfamily ?boost\b|\bday ?care\b|\bchildcare\b|\bece\b|\bkindy\b|\bkindergarten\b", re.I)
CHILD_COUNT = re.compile(r"\b(?P<n>\d|one|two|three|four|five|six)\s+(?:dependent\s+)?(?:kids|children|child|kid)\b|"
                         r"\b(?:a|our|one|an only)\s+(?:child|kid|baby|toddler|son|daughter)\b", re.I)


def _children(text: str) -> int | None:
    """How many dependent children the question says the family has ("two kids", "our child")."""
    m = CHILD_COUNT.search(text)
    if m is None:
        return None
    n = m.group("n")
    return 1 if n is None else int(n) if n.isdigit() else UNIT_WORDS[n.lower()]


# "shares that cost me $38,000": what the FIF interests cost, which decides whether the rules apply.
COST_WORDS = re.compile(r"\b(?:cost|costs|paid|bought|invested|purchase[ds]?)\b", re.I)
# "cost well over $50k": a bound, not the cost.
OVER_BEFORE = re.compile(r"\b(?:over|more than|above|exceed\w*)\s*$", re.I)


def _loan_asked(d: Decision, slots: Slots) -> bool:
    """Whether the question asks about the student loan deduction itself ("sl on second job 400 a week")."""
    return bool(slots.student_loan) and bool(LOAN_ASKED.search(d.asked))


def _second_job_loan(d: Decision, pay: Money) -> bool:
    """"My second job pays $240 a week and I have a student loan: how much comes off?": on any secondary
    code the loan deduction is the rate on every dollar of that job's pay, so the code need not be known.
    Turns the decision into the rule's answer with that figure; False when the year's rules lack it."""
    year = _year_data(d)
    loan = year.student_loan if year is not None else None
    rule = next((spec for spec in default_catalogue().intents if spec.rule_sum == "secondary_sl"), None)
    if loan is None or rule is None:
        return False
    rate = Decimal(str(loan.rate))
    d.action, d.intent, d.calls = "fact", rule, []
    d.rule_results["secondary_sl"] = {"pay": pay.value, "pay_frequency": pay.period, "rate": rate,
                                      "deduction": _truncated(pay.value * rate)}
    return True


def _rit_named_before(asked: str, amount: Money) -> bool:
    """Residual income tax named earlier in the amount's clause ("My residual income tax for the
    2025-26 year came to $8,400"; not "… was $7,200 and turnover was about $95,000")."""
    return bool(RIT_NAMED.search(re.split(r"[.?!;,]\s| and | but ", asked[max(0, amount.start - 80):amount.start])[-1]))


def _fif_cost_under_threshold(d: Decision, slots: Slots) -> dict | None:
    """The interests' stated cost and the year's FIF threshold, when the cost is at or under it: no FDR
    income to work out, whatever they are worth now ("bought for $38,000, worth $61,000 now")."""
    year = _year_data(d)
    fif = year.foreign_investment_funds if year is not None else None
    cost = [a for a in slots.amounts if a.role in ("expense", "other", "total") and COST_WORDS.search(d.asked[max(0, a.start - 30):a.start])
            and not OVER_BEFORE.search(d.asked[max(0, a.start - 15):a.start])]
    total = sum((a.value for a in cost), Decimal(0))
    if fif is None or not cost or total > Decimal(str(fif.de_minimis_cost)):
        return None
    return {"cost": total, "de_minimis_cost": fif.de_minimis_cost, "tax_year": d.tax_year}


def _marginal_rate(d: Decision) -> float | None:
    """"I'm on the 33% rate": a rate the question states that is one of the year's income tax rates."""
    year = _year_data(d)
    bands = year.income_tax.bands if year is not None and year.income_tax is not None else []
    for m in MARGINAL_RATE.finditer(d.asked):
        rate = float(m.group("p") or m.group("q")) / 100
        if any(abs(float(b.rate) - rate) < 1e-9 for b in bands):
            return rate
    return None


def _gives_only(slots: Slots) -> bool:
    """Donations are the only money stated: no income to work a sum on."""
    return not slots.incomes and any(a.role == "donation" for a in slots.amounts)


def _income_for(slots: Slots, tool: str | None) -> Slots:
    """With no pay from work, a profit, interest or gain is the income of a calculator on all taxable
    income, and a business's profit that of the ACC levy (its caller leaves out investment income)."""
    if slots.income_amount() is None and tool in (*ALL_INCOME_TOOLS, "calculate_acc_levy"):
        return replace(slots, amounts=[replace(a, role="income") if a.role in OTHER_INCOME_ROLES else a for a in slots.amounts])
    return slots


def _asks_own_figure(text: str) -> bool:
    return bool(OWN_FIGURE.search(text))


def _asks_own_rate(asked: str, fact: IntentSpec, slots: Slots) -> bool:
    """One rate of their own asked of a fact whose rate follows the person's figures, none of which is stated."""
    return (fact.own_rate_asks and slots.income_amount() is None and bool(OWN_RATE_ASKED.search(asked))
            and not RATES_TABLE_ASKED.search(asked))


def _own_figure_with_nothing(asked: str, fact: IntentSpec, slots: Slots, states_nothing: bool) -> bool:
    """A fact asked of their own case with nothing to work it from: "What PIR should I pick for my
    KiwiSaver?", "how much Working for Families will we get?". A code follows the situation, which a
    stated condition can settle; every other fact's figure follows amounts. ("How much can we get?",
    "what's the most?", "how much does the government put in?" ask the rule, which answers them.)"""
    if fact.asks == "situation":
        return states_nothing and _asks_own_figure(asked)
    if _asks_own_rate(asked, fact, slots):
        return True
    if fact.asks == "residence_facts" and _residence_facts_said(asked):
        return False
    return (not slots.amounts and not THRESHOLD_ASKED.search(asked) and not RULE_FIGURE_ASKED.search(asked)
            and (bool(PREDICTS_OWN.search(asked)) or _asks_own_figure(asked) and bool(FIGURE_ASKED.search(asked))))


def _residence_facts_said(asked: str) -> bool:
    """Whether the question says how long someone has been here or where they live."""
    return bool(HOW_LONG_HERE.search(asked) or LIVES_IN_A_PLACE.search(asked))


def _fact_sum(d: Decision, fact: IntentSpec, slots: Slots) -> None:
    """The calls a fact's calculator makes on the stated figures (none when it would have to ask)."""
    trial = replace(d, calls=[], assumptions=[])
    _plan(trial, fact, slots)
    if trial.action == "fact":
        d.calls, d.assumptions = trial.calls, trial.assumptions


def _states_own_figures(asked: str, slots: Slots) -> bool:
    """An income stated as the person's own, or what they put into KiwiSaver themselves."""
    return _states_own_income(asked, slots) or bool(slots.contributions)


def _states_own_income(asked: str, slots: Slots) -> bool:
    """Whether an income in the question is stated as the person's own."""
    for amount in slots.incomes:
        if amount.questioned:
            continue
        if OWN_INCOME_BEFORE.search(asked[max(0, amount.start - 45):amount.start]):
            return True
        if OWN_INCOME_AFTER.match(asked[amount.end:]) and FIRST_PERSON.search(asked):
            return True
    return False


def _truncated(value: Decimal) -> Decimal:
    """Down to the cent, as IRD truncates."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def _cents(value: Decimal) -> float:
    return float(_truncated(value))


def _extra_tax_on_one_amount(slots: Slots, asked: str) -> bool:
    """"How much extra tax do I pay on my half of the rental's $18,000?": extra on top of income the
    question does not state, when the one amount given is income besides pay (a rental's, a business's)."""
    stated = [a for a in slots.amounts if not a.questioned]
    return (bool(EXTRA_TAX.search(asked)) and len(stated) == 1 and stated[0].role in OTHER_INCOME_ROLES
            and not ONLY_INCOME.search(asked))


def _what_else_reason(slots: Slots) -> str:
    """What to ask of extra money with nothing said of the rest: for money earned abroad, residency too."""
    return "overseas_income" if slots.earned_overseas else "rest_of_income"


def _clarify(d: Decision, missing: str, reason: str | None = None) -> None:
    d.action, d.missing, d.clarify_reason = "clarify", [missing], reason


def base_code(code: str) -> str:
    """'M SL' -> 'M': the code without its student loan suffix."""
    return (code.split() or [""])[0]


def _code(slots: Slots, default: str = "M") -> str:
    code = slots.tax_code or ("ND" if slots.no_ird_number else default)
    if slots.student_loan and not code.endswith("SL") and code not in FLAT_CODES:
        code = f"{code} SL"
    return code


def _plan(d: Decision, intent: IntentSpec, slots: Slots) -> None:
    """The calculator calls for a calculation intent, or a clarifying question."""
    year = d.tax_year
    questioned = slots.questioned
    if intent.tool in EARNINGS_TOOLS and slots.income_amount() is not None:
        # ("Salary $171,000, and we sold the bach for $1.2 million: my ACC levy?": a sale is no earnings.)
        questioned = [a for a in questioned if a.questioned not in (SALE_PRICE_ONLY, PROPERTY_HELD_UNKNOWN)]
    changed = [a for a in slots.incomes if not a.questioned]
    if slots.comparison and len(changed) == 2 and NEW_ONE_ASKED.search(d.asked):
        # "My salary goes from $90,000 to $72,000 … take-home on the new salary?": the new one is asked about.
        slots = replace(slots, comparison=False, amounts=[a for a in slots.amounts if a is not changed[0]])
    if questioned and "income" in intent.needs:
        if questioned[0].one_pay and intent.tool == "calculate_paye":
            _clarify(d, "frequency")  # PAYE on one pay: how often it is paid is what is missing
        elif questioned[0].questioned == HOUSEHOLD_QUESTIONED:
            _clarify(d, "whose_income")  # tax is each person's, on their own income
        elif questioned[0].questioned == SALE_PRICE_ONLY:
            _clarify(d, "sale_cost")  # tax on a sale is on the gain, which needs what it cost
        elif questioned[0].questioned == PROPERTY_HELD_UNKNOWN:
            _clarify(d, "bought_when")  # a property's gain is taxed only inside the bright-line period
        elif questioned[0].questioned == HELD_PAST_BRIGHT_LINE and _answered_as_outside_bright_line(d):
            return  # held past the bright-line period: "bought in 2021 for $580k, sold for $640k: tax on the gain?"
        else:
            _clarify(d, "amount", questioned[0].questioned)
        return
    tool = intent.tool
    if tool in INCOME_TOOLS and _gives_only(slots):
        # Only donations stated ("payroll giving $45 a fortnight, how much off my PAYE?"): the sum
        # their figures can answer is the donation tax credit.
        tool = "calculate_donation_tax_credit"
    if tool == "calculate_donation_tax_credit":
        donations = [a for a in slots.amounts if a.role == "donation"] or [a for a in slots.amounts if not a.is_income][:1]
        if not donations and len(slots.amounts) == 1 and not INCOME_SAID_BEFORE.search(d.asked[:slots.amounts[0].start]):
            donations = slots.amounts  # ("the credit on 1,000?"; but "income $58k" is the income, and the gifts are not said)
        if not donations:
            _clarify(d, "donation")
            return
        earned = _income_for(slots, tool)  # "only $6,000 of interest" is a taxable income too
        income = earned.annual_income() if any(a is not donations[0] for a in earned.incomes) else None
        given = donations[0]
        donated = slots.annual(given) or given.value  # "$250 a month" is $3,000 a year
        if given.period in PAY_FREQUENCIES and (slots.asked_period == given.period or EACH_PAY.search(d.asked)):
            # "$45 every fortnight … the credit on each pay": payroll giving credits each pay as it goes.
            donated = given.value
        elif (len(donations) > 1 and not slots.comparison and all(slots.annual(a) for a in donations)
              and not BOUGHT_NOT_GIVEN.search(d.asked)):
            # "$1,800 to the SPCA and $600 to my church": the credit is on all the year's gifts.
            donated = sum((slots.annual(a) for a in donations), Decimal(0))
        if income is None and LOW_INCOME_NAMED.search(d.asked):
            # "a student with not much job income": the credit is capped at the taxable income, which
            # they say may be below the donations.
            _clarify(d, "income")
            return
        if income is None:
            # The credit is capped only by a taxable income below the donations: say the assumption.
            income = donated
            d.assumptions.append(f"your taxable income for the year was at least ${donated:,.0f}")
        d.calls = [(tool, {"donations": float(donated), "taxable_income": float(income), "tax_year": year})]
        return
    if tool == "find_prescribed_investor_rate":
        pie = [a for a in slots.amounts if a.role == "pie_income"]
        incomes = [a for a in slots.incomes if a not in pie]
        if not pie and len(incomes) >= 2:
            incomes, pie = incomes[:1], incomes[1:2]
        taxable = slots.annual(incomes[0]) if incomes else None
        ceiling = _pir_taxable_ceiling(d)
        if not pie and taxable is not None and ceiling is not None and taxable > ceiling:
            # Taxable income alone is over every lower rate's limit: PIE income cannot change the rate.
            d.assumptions.append(f"taxable income over ${ceiling:,.0f} in both of the last two years, so PIE income doesn't change the rate")
            d.calls = [(tool, {"taxable_income": float(taxable), "pie_income": 0.0, "tax_year": year})]
            return
        if not pie or taxable is None:
            _clarify(d, "pie_income")
            return
        d.calls = [(tool, {"taxable_income": float(taxable), "pie_income": float(pie[0].value), "tax_year": year})]
        return

    employers = [a for a in slots.amounts if EMPLOYER_PUTS_IN.search(d.asked[max(0, a.start - 40):a.start])]
    if (tool == "calculate_kiwisaver" and ESCT_NAMED.search(d.asked) and employers
            and not [a for a in slots.incomes if a not in employers]):
        # "My employer puts $3,000 a year into my KiwiSaver. How much ESCT?": its rate follows the salary.
        _clarify(d, "esct_salary")
        return
    if tool == "calculate_kiwisaver" and (slots.contributions or intent.does == "fact"):
        _plan_government_contribution(d, slots)
        return

    jobs = [a for a in slots.incomes if not a.questioned]
    asked_pay = _pay_asked_about(d.asked, slots) if tool == "choose_secondary_tax_code" else None
    if tool == "choose_secondary_tax_code" and any(a.role == "second_job" for a in jobs) and not any(
            a.role in ("main_job", "total") for a in jobs):
        # "My salary is $70,000 and I've picked up a weekend job": beside a second job, the salary is the main one.
        first = next((a for a in jobs if a.role == "income"), None)
        slots = replace(slots, amounts=[replace(a, role="main_job") if a is first else a for a in slots.amounts])
        jobs = [a for a in slots.incomes if not a.questioned]
    if (tool == "choose_secondary_tax_code" and slots.benefit_or_super and len(jobs) == 2 and not slots.comparison and not slots.between
            and all(a.role == "income" for a in jobs)):
        # "on NZ super (about $26,000 a yr) and still working part time for $32,000: which code for the job?":
        # NZ Super (or the benefit) is the main income and the job the second; the code follows both.
        first, second = sorted(jobs, key=lambda a: a.start)
        slots = replace(slots, adds_up=True, amounts=[replace(a, role="main_job") if a is first else replace(a, role="second_job") if a is second
                                                      else a for a in slots.amounts])
        jobs = [a for a in slots.incomes if not a.questioned]
    if tool == "choose_secondary_tax_code" and any(a.role == "main_job" for a in jobs):
        # "A full-time job on $48,000 and a bar that will pay about $9,000: which code?": beside a main job,
        # the other pays are the other jobs, all counted in the total the code follows (a pay asked about,
        # "what would come off a $175 shift?", is not a year's income).
        slots = replace(slots, adds_up=True, amounts=[
            replace(a, role="second_job") if a.role == "income" else a for a in slots.amounts if a is not asked_pay])
        jobs = [a for a in slots.incomes if not a.questioned]
    if (tool == "choose_secondary_tax_code" and len(jobs) == 1 and jobs[0].role == "income"
            and not ONLY_JOB.search(d.asked)
            and (jobs[0].period in (*PAY_FREQUENCIES, "hourly") and SECOND_JOB_WORDS.search(d.asked)
                 or A_JOB_PAYS_BEFORE.search(d.asked[max(0, jobs[0].start - 60):jobs[0].start])
                 or SECOND_JOB_WORDS.search(re.split(r"[.?!;]", d.asked[max(0, jobs[0].start - 60):jobs[0].start])[-1]))):
        # "Starting a second job, $300 a week. Which code?", "$24 an hour for 15 hours", "an evening job that'll pay about $12,000",
        # "a weekend job at a cafe, about $9,000 a year": a
        # job's own pay in a question about its code is that job's pay, not the year's total income.
        jobs = [replace(jobs[0], role="second_job")]
    if tool == "choose_secondary_tax_code" and jobs and all(a.role == "second_job" and a.value == jobs[0].value for a in jobs):
        # Only the second job's pay is known: its code follows the total income, which is not.
        if slots.tax_code is not None and base_code(slots.tax_code) in SECONDARY_CODES:
            call = _paye_call(d, slots, jobs[0], slots.annual(jobs[0]) or jobs[0].value, year)
            if call is not None:  # (otherwise it has asked back)
                d.calls = [call]
        elif not (_loan_asked(d, slots) and jobs[0].period in PAY_FREQUENCIES and _second_job_loan(d, jobs[0])):
            # ("sl on second job 400 a week": the loan's share is the rate on every dollar, whichever code.)
            _clarify(d, "secondary_code")
        return
    if tool == "calculate_acc_levy":
        # The levy is on earnings from work, never on interest, dividends or rent.
        slots = replace(slots, amounts=[a for a in slots.amounts if a.role not in ("investment_income", "rent_received")])
    slots = _income_for(slots, tool)
    amount = slots.income_amount()
    if amount is None:
        _clarify(d, "income")
        return
    if amount.period == "hourly" and slots.hours_per_week is None and slots.hours_per_year is None:
        _clarify(d, "hours")
        return
    if amount.period == "hourly" and slots.hours_per_year is not None:
        d.assumptions.append(f"{slots.hours_per_year.normalize():f} hours in the year")
    elif amount.period == "hourly":
        weeks = slots.weeks_per_year or Decimal(PERIODS_PER_YEAR["weekly"])
        d.assumptions.append(f"{slots.hours_per_week.normalize():f} hours a week for {weeks.normalize():f} weeks a year")
    incomes = [a for a in slots.incomes if not a.questioned]
    compared = incomes[:MAX_COMPARED] if slots.comparison and len(incomes) > 1 else [None]
    annual_total = slots.annual_income()
    invested = [a for a in slots.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned and slots.annual(a)]
    if (tool == "calculate_ietc" and annual_total is not None and invested and not (slots.adds_up and not slots.comparison)
            and any(a.is_income for a in slots.amounts)):
        # The credit is on all their income for the year: interest and dividends count as well as pay.
        annual_total += sum((slots.annual(a) for a in invested), Decimal(0))
        d.assumptions.append("interest and other investment income added to the pay: the credit is on the year's whole income")
    if len(incomes) > 1 and slots.adds_up and not slots.comparison:
        d.assumptions.append("the incomes added together for the year")
    expenses = [a for a in slots.amounts if a.role == "expense" and not a.questioned]
    spent = Decimal(0)
    if not SELF_EMPLOYED.search(d.asked):
        # A rental's own costs named before them ("Rates $3,900, insurance $1,800"), not the price it was
        # bought for nor the rent paid where they live.
        expenses = [a for a in expenses if any(a.role in ("investment_income", "rent_received") for a in slots.amounts)
                    and RENTAL.search(d.asked) and RENTAL_COST_BEFORE.search(d.asked[max(0, a.start - 25):a.start])]
    if tool in ANNUAL_TOOLS and expenses and annual_total is not None:
        # "Freelancer: income $45,000, business expenses $5,000", "rent $520 a week, rates $3,900, insurance
        # $1,800": taxed on what is left.
        spent = sum((slots.annual(a) or Decimal(0) for a in expenses), Decimal(0))
        if spent >= annual_total:
            _clarify(d, "income")
            return
        annual_total -= spent
        d.assumptions.append(f"business expenses of ${spent:,.0f} deducted from the income")

    if (tool == "calculate_income_tax" and compared == [None] and slots.asked_period not in PAY_FREQUENCIES
            and not ASKS_TOTAL.search(d.asked) and not (ASKS_THE_YEARS_TAX.search(d.asked) and not EXTRA_TAX.search(d.asked))):
        base, extra = _income_and_extra(slots, asks_extra=bool(EXTRA_TAX.search(d.asked)), asked=d.asked)
        extra -= spent  # a side business's expenses come off what it adds
        if base is not None and extra > 0:
            # The answer shows the total and what the other income adds to it.
            d.calls = [(tool, {"taxable_income": float(base + extra), "other_income": float(extra), "tax_year": year})]
            return
    if tool == "calculate_take_home_pay" and compared == [None] and slots.asked_period not in PAY_FREQUENCIES:
        base, extra = _income_and_extra(slots)
        paid_extra = [a for a in slots.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned
                      and EXTRA_PAY.search(d.asked[max(0, a.start - 30):a.end + 30])]
        if base is not None and extra > 0 and paid_extra and extra == sum((slots.annual(a) for a in paid_extra), Decimal(0)):
            # "A $5,000 bonus on top of my $65,000 salary: how much of it do I keep?": the take-home pay on
            # both, and what the bonus adds to each deduction.
            name, args = _take_home_call(d, slots, paid_extra[0], base + extra, year, "annual")
            d.calls = [(name, {**args, "other_income": float(extra)})]
            return
    codes = _codes_compared(d.asked)
    if tool in ("calculate_paye", "calculate_take_home_pay") and codes and compared == [None] and annual_total is not None:
        # "M vs ME on 50k": PAYE on the same pay under each code, and the credit that makes the difference.
        for code in codes:
            call = _paye_call(d, replace(slots, tax_code=code), amount, annual_total, year)
            if call is None:
                return
            d.calls.append(call)
        if "ME" in codes:
            d.calls.append(("calculate_ietc", {"annual_income": float(annual_total), "tax_year": year}))
        return
    if tool == "calculate_kiwisaver" and len(slots.kiwisaver_rates) == 2 and compared == [None] and annual_total is not None:
        # "3.5% vs 4% on $1,350 a week": the same pay's contribution at each rate.
        for rate in slots.kiwisaver_rates:
            call = _call_for(tool, d, replace(slots, kiwisaver_rate=rate), amount, annual_total, year)
            if call is not None and call not in d.calls:
                d.calls.append(call)
        return
    for item in compared:
        annual = slots.annual(item) if item is not None else annual_total
        if annual is None:
            _clarify(d, "income")
            return
        basis = item or amount
        call = _call_for(tool, d, slots, basis, annual, year)
        if call is None:
            return
        if call not in d.calls:  # "80k vs 70k … on the 80k" names one amount twice
            d.calls.append(call)
    if tool == "choose_secondary_tax_code" and d.calls and TAX_OFF_ASKED.search(d.asked):
        _add_second_job_paye(d, slots, d.calls[0][1], year, asked_pay)
    if (tool == "calculate_take_home_pay" and compared == [None] and d.calls
            and d.calls[0][0] == "calculate_take_home_pay" and d.calls[0][1]["pay_frequency"] == d.slots.asked_period):
        # Take-home for one pay: IRD's PAYE on that pay, to the cent, leads; the take-home
        # calculator adds the student loan and KiwiSaver on the same pay.
        pay = _paye_call(d, slots, amount, annual_total, year)
        if pay is not None:
            d.calls.insert(0, pay)


def _pay_asked_about(asked: str, slots: Slots) -> Money | None:
    """A pay with no period of its own named after the words asking what comes off it ("what would
    come off a $175 shift?")."""
    m = TAX_OFF_ASKED.search(asked)
    return next((a for a in slots.amounts if m and a.start > m.start() and a.is_income and not a.period_stated
                 and not a.questioned), None)


def _add_second_job_paye(d: Decision, slots: Slots, code_args: dict, year: str, asked_pay: Money | None) -> None:
    """"Which code should the bar use, and how much tax comes off the $500?": the second job's PAYE
    on its own pay (the pay asked about, else the second job's), on the code chosen from the total income."""
    from nztax.calculators.errors import ToolArgumentError
    from nztax.calculators.secondary import choose_secondary_tax_code

    second = asked_pay or next((a for a in slots.incomes if a.role == "second_job" and not a.questioned), None)
    if second is None:
        return
    try:
        code = choose_secondary_tax_code(**code_args)["tax_code"]
    except ToolArgumentError:
        return
    call = _paye_call(d, replace(slots, tax_code=code), second, slots.annual(second) or second.value, year)
    if call is not None and call not in d.calls:
        d.calls.append(call)
    elif call is None:
        d.action, d.missing = "calculate", []  # (the code stands; the pay's period was not clear enough to go on)


def _codes_compared(asked: str) -> list[str] | None:
    """Two tax codes set side by side ("M vs ME", "code M or ME", "between M and ME"), in order."""
    codes = list(dict.fromkeys(code for _, code in find_tax_codes(asked)))
    m = CODES_SIDE_BY_SIDE.search(asked)
    if m and len(codes) < 2:
        codes = list(dict.fromkeys([m.group("a").upper(), m.group("b").upper()]))
    return codes[:2] if len(codes) >= 2 and (m or COMPARED_WORDS.search(asked)) else None


def _year_data(d: Decision):
    """The rules data of the tax year the decision is about (None when the rule book lacks it)."""
    year = d.rules.years.get(d.tax_year) if d.rules is not None else None
    return year.data if year is not None else None


def _pir_taxable_ceiling(d: Decision) -> Decimal | None:
    """The highest taxable income any lower prescribed investor rate allows, from the year's rules."""
    year = _year_data(d)
    pir = year.pir if year is not None else None
    return max((Decimal(str(t.taxable_income_max)) for t in pir.rates), default=None) if pir is not None else None


def _government_contribution_cap(d: Decision) -> Decimal | None:
    """The income above which no government contribution is paid, from the year's rules."""
    year = _year_data(d)
    gc = year.government_contribution if year is not None else None
    return Decimal(str(gc.income_cap)) if gc is not None and gc.income_cap is not None else None


def _plan_government_contribution(d: Decision, slots: Slots) -> None:
    """The government contribution on what the person put in themselves ("I contributed $800 this
    KiwiSaver year"): their pay, if stated, only for the income cap."""
    income = slots.annual_income()
    cap = _government_contribution_cap(d)
    # "I earn $190k, do I still get it?": nothing is paid above the cap, whatever they put in.
    over_cap = income is not None and cap is not None and income > cap
    if not slots.contributions and not over_cap:
        _clarify(d, "contribution")
        return
    put_in = sum((slots.annual(a) or a.value for a in slots.contributions), Decimal(0))
    args = {"gross_pay": float(income or 0), "pay_frequency": "annual", "member_contributions": _cents(put_in),
            "tax_year": d.tax_year}
    if income is not None:
        args["annual_income"] = float(income)
    if slots.kiwisaver_year:
        args["kiwisaver_year"] = slots.kiwisaver_year
    d.calls = [("calculate_kiwisaver", args)]


def _income_and_extra(slots: Slots, asks_extra: bool = False, asked: str = "") -> tuple[Decimal | None, Decimal]:
    """(the income from work for the year, the other income on top of it): "$12,000 profit trading
    crypto and my salary is $70k" is $70,000 and $12,000. Asked what the extra costs ("52k day job …
    how much extra tax is the $15,600?"), incomes that add up are the main one and the extra."""
    jobs = [a for a in slots.incomes if not a.questioned]
    others = [a for a in slots.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned]
    if asks_extra and not others and len(jobs) > 1 and slots.adds_up and not slots.comparison:
        # The main one is named so, else the one not told as money on the side or from overseas ("I tutor
        # on the side, $8k, plus a part-time job paying $30k").
        around = {id(a): asked[max(0, a.start - 30):a.end + 20] for a in jobs}
        told_as_extra = [a for a in jobs if EXTRA_INCOME.search(around[id(a)]) or EARNED_OVERSEAS.search(around[id(a)])]
        main = next((a for a in jobs if a.role in ("main_job", "total")), None) or next(
            (a for a in jobs if a not in told_as_extra), jobs[0])
        jobs, others = [main], [a for a in jobs if a is not main]
    if not jobs or not others:
        return None, Decimal(0)
    values = [slots.annual(a) for a in (jobs if slots.adds_up else jobs[:1])]
    extra = [slots.annual(a) for a in others]
    if any(v is None for v in values + extra):
        return None, Decimal(0)
    return sum(values, Decimal(0)), sum(extra, Decimal(0))


def _pay_frequency(slots: Slots, amount: Money) -> str | None:
    if slots.asked_period in PAY_FREQUENCIES:
        return slots.asked_period
    if amount.period in PAY_FREQUENCIES:
        return amount.period
    return slots.paid_every  # how the pays fall, said in the story


def _call_for(tool: str, d: Decision, slots: Slots, amount: Money, annual: Decimal, year: str) -> tuple[str, dict] | None:
    money = float(annual)
    if tool == "calculate_income_tax":
        # A pay period asked about, or how the pays fall when the amount's own period is unsaid ("paid
        # weekly, $1,200"); a year's amount stated as one stays a year's.
        if slots.asked_period in PAY_FREQUENCIES or (slots.asked_period is None and slots.paid_every and not amount.period_stated):
            # "How much tax comes out of each fortnightly pay on 70k?" is a pay question.
            return _paye_call(d, slots, amount, annual, year)
        return tool, {"taxable_income": money, "tax_year": year}
    if tool == "calculate_acc_levy":
        args = {"annual_income": money, "tax_year": year}
        frequency = _pay_frequency(slots, amount)
        if frequency:
            args["pay_frequency"] = frequency
        return tool, args
    if tool == "calculate_student_loan_repayment":
        if slots.tax_code is None and amount.role == "second_job" and amount.period in PAY_FREQUENCIES and _second_job_loan(d, amount):
            return None  # (answered by the rule: every dollar of a second job's pay, whichever secondary code)
        if slots.tax_code is not None and base_code(slots.tax_code) in SECONDARY_CODES:
            # A secondary job's loan deduction has no threshold: the pay's own deductions show it,
            # on that job's own pay ("$42,000 main job, $9,000 weekend job on S SL").
            second = next((a for a in slots.incomes if a.role == "second_job" and not a.questioned), None)
            if second is not None:
                return _paye_call(d, slots, second, slots.annual(second) or second.value, year)
            return _paye_call(d, slots, amount, annual, year)
        weekly_hours = amount.period == "hourly" and slots.hours_per_week is not None and TAX_OFF_ASKED.search(d.asked)
        if slots.asked_period != "annual" and (_pay_frequency(slots, amount) or weekly_hours):
            # "How much student loan comes off a $5,000 monthly pay?": the employer's deduction from
            # that pay (over the pay period's threshold), not a year's repayment.
            return _paye_call(d, replace(slots, student_loan=True), amount, annual, year)
        return tool, {"annual_income": money, "tax_year": year}
    if tool == "calculate_ietc":
        return tool, {"annual_income": money, "tax_year": year, "receives_working_for_families": slots.wff,
                      "receives_benefit": slots.benefit_or_super and not slots.nz_super, "receives_nz_super": slots.nz_super}
    if tool == "choose_secondary_tax_code":
        return tool, {"total_annual_income": money, "student_loan": bool(slots.student_loan), "tax_year": year}
    if tool == "calculate_kiwisaver":
        frequency = _pay_frequency(slots, amount) or "annual"
        if frequency == "annual":
            gross = annual  # the year's income, jobs added up when the question says so
        else:  # one pay, as stated or as the year divided into the pays asked about
            gross = amount.value if frequency == amount.period else annual / PERIODS_PER_YEAR[frequency]
        args = {"gross_pay": _cents(gross), "pay_frequency": frequency, "tax_year": year}
        if slots.kiwisaver_rate is not None:
            args["employee_rate"] = slots.kiwisaver_rate
        if slots.employer_rate is not None:
            args["employer_rate"] = slots.employer_rate
        return tool, args
    if tool == "calculate_paye":
        jobs = [a for a in slots.incomes if not a.questioned]
        if len(jobs) > 1 and slots.adds_up and not slots.comparison:
            if slots.second_job or TWO_JOBS.search(d.asked) or any(a.role in ("main_job", "second_job") for a in jobs):
                # PAYE is each employer's, on its own pay: the main job's (its code follows its own
                # pay), never the jobs added up ("main one pays $40,000 and the second $8,000").
                # Each job whose own code is stated after it gets its own PAYE ("$700 a week on
                # M SL, the other $220 a week on S SL").
                codes = _codes_of(d.asked, jobs)
                if codes:
                    calls = [_paye_call(d, replace(slots, tax_code=code), job, slots.annual(job) or job.value, year)
                             for job, code in zip(jobs, codes)]
                    d.per_job = True
                    d.calls += [c for c in calls[:-1] if c is not None and c not in d.calls]
                    return calls[-1]
                main = next((a for a in jobs if a.role == "main_job"), jobs[0])
                return _paye_call(d, slots, main, slots.annual(main) or main.value, year)
            if len({a.period for a in jobs}) == 1:
                # "base pay $2,380 plus a $210 shift allowance this fortnight": parts of one pay.
                one = replace(jobs[0], value=sum((a.value for a in jobs), Decimal(0)))
                return _paye_call(d, slots, one, slots.annual(one) or one.value, year)
        return _paye_call(d, slots, amount, annual, year)
    if tool == "calculate_take_home_pay":
        code = _code(slots)
        if base_code(code) not in PRIMARY_CODES:
            return _paye_call(d, slots, amount, annual, year)  # a secondary or flat code works per pay
        frequency = _pay_frequency(slots, amount)
        return _take_home_call(d, slots, amount, annual, year, frequency or "annual")
    raise ValueError(f"no arguments are known for the calculator {tool!r}")  # the catalogue names a tool decide.py does not plan


def _codes_of(text: str, jobs: list[Money]) -> list[str] | None:
    """Each job's own tax code, when every job has one named after it and before the next job."""
    codes = find_tax_codes(text)
    ends = [j.start for j in jobs[1:]] + [len(text)]
    own = [next((c for at, c in codes if job.start < at < end), None) for job, end in zip(jobs, ends)]
    return own if all(own) else None


def _paye_call(d: Decision, slots: Slots, amount: Money, annual: Decimal, year: str) -> tuple[str, dict] | None:
    """IRD's PAYE for one pay: the pay as stated, or a year's pay divided into the pays asked about
    (monthly when neither the question nor the amount names a pay period)."""
    if amount.role == "second_job" and slots.tax_code is None:
        # A second job's PAYE depends on its secondary code, which depends on the total income (its
        # student loan deduction does not).
        if not (_loan_asked(d, slots) and amount.period in PAY_FREQUENCIES and _second_job_loan(d, amount)):
            _clarify(d, "secondary_code")
        return None
    code = _code(slots, d.default_code)
    frequency = _pay_frequency(slots, amount)
    if frequency is None and amount.period == "hourly" and slots.hours_per_week is not None:
        frequency = "weekly"  # "$25 an hour, 40 hours a week": a week's pay
    one_pay = (not amount.period_stated and amount.value <= Decimal(str(get_settings().per_pay_ceiling))
               and slots.asked_period != "annual")  # ("… over the year?": the amount is the year's)
    if one_pay and frequency is None and base_code(code) in PRIMARY_CODES:
        # "How much PAYE comes out of $4,000?": one pay, but PAYE depends on how often it is paid.
        _clarify(d, "frequency")
        return None
    frequency = frequency or "monthly"
    if amount.period == frequency or one_pay:
        # "$9,200 gross each time", "got $240 on EDW": a small amount with no period is one pay.
        gross = amount.value
    else:
        gross = annual / PERIODS_PER_YEAR[frequency]
        d.assumptions.append(f"paid {frequency.replace('_', '-')}, {PERIODS_PER_YEAR[frequency]} equal pays a year")
    args = {"gross_pay": _cents(gross), "pay_frequency": frequency, "tax_code": code, "tax_year": year}
    if slots.pay_date is not None:
        args["pay_date"] = slots.pay_date  # the rates in force on the day it was paid
    _kiwisaver_rate(d, slots, args, year)
    if slots.tax_code is None:
        d.assumptions.append(f"tax code {code}")
    return "calculate_paye", args


def _loan_deduction_call(paye_args: dict, year: str) -> tuple[str, dict]:
    """The student loan calculator on the same pay as a PAYE call: its deduction from that pay,
    with no threshold on a secondary code's pay."""
    frequency, gross = paye_args["pay_frequency"], paye_args["gross_pay"]
    return "calculate_student_loan_repayment", {
        "annual_income": _cents(Decimal(str(gross)) * PERIODS_PER_YEAR[frequency]), "tax_year": year,
        "pay_frequency": frequency, "gross_pay": gross,
        "secondary_income": base_code(paye_args["tax_code"]) not in PRIMARY_CODES}


def _kiwisaver_rate(d: Decision, slots: Slots, args: dict, year: str) -> None:
    """The employee's KiwiSaver rate for a pay: as stated, or the year's default rate when they say
    they are in KiwiSaver without a rate ("I'm in KiwiSaver at the default rate")."""
    if slots.kiwisaver_rate is not None:
        args["kiwisaver_rate"] = slots.kiwisaver_rate
        return
    year_rules = d.rules.years.get(year) if d.rules is not None and slots.kiwisaver else None
    scheme = year_rules.data.kiwisaver if year_rules is not None else None
    if scheme is not None and scheme.default_employee_rate:
        args["kiwisaver_rate"] = float(Decimal(str(scheme.default_employee_rate)) * 100)
        d.assumptions.append(f"KiwiSaver at the default rate of {args['kiwisaver_rate']:g}%")


def _take_home_call(d: Decision, slots: Slots, amount: Money, annual: Decimal, year: str, frequency: str) -> tuple[str, dict]:
    code = _code(slots, d.default_code)
    args = {"annual_salary": _cents(annual), "tax_code": base_code(code), "tax_year": year,
            "pay_frequency": frequency if frequency in PAY_FREQUENCIES else "fortnightly"}
    if slots.student_loan:
        args["student_loan"] = True
    _kiwisaver_rate(d, slots, args, year)
    if slots.tax_code is None:
        d.assumptions.append(f"tax code {code}")
    d.slots.asked_period = slots.asked_period or (frequency if frequency in PAY_FREQUENCIES else "annual")
    return "calculate_take_home_pay", args
