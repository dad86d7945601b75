/* nztax calculators in the browser, part three: PAYE on an extra pay and the year-end square-up.
 *
 * In: the kit of exact-money helpers and tools that calculators_tools.js builds for one rules
 * document (makeCalculators). Out: calculate_extra_pay_paye and calculate_year_end_square_up, the
 * ports of function/nztax/calculators/extra_pay.py and square_up.py, step for step, so their JSON
 * equals the Python to the cent (tests/site/test_calculator_parity.py). Registered with `extend`
 * (in the browser this file loads just before calculators.js, which hands it on; under node
 * calculators.js requires it).
 */
(function (root, factory) {
  "use strict";
  if (typeof module !== "undefined" && module.exports) module.exports = factory;
  // On a calculator page this file loads before calculators.js (which binds the form as it runs):
  // queued for it; a later copy (instant navigation) extends the running one.
  else if (root.NZTaxCalc) root.NZTaxCalc.extend(factory);
  else (root.NZTaxCalcExtensions = root.NZTaxCalcExtensions || []).push(factory);
})(typeof window !== "undefined" ? window : globalThis, function (kit) {
  "use strict";
  const { Q, ZERO, qmax, qmin, qfloor, exact, exactAmount, truncateCents, roundCents, cents, asNumber, rateNumber, toDouble,
    roundFloat, fmtCommas2, fmtG, dayNumber, ToolArgumentError, PERIODS_PER_YEAR, PRIMARY_CODES, yearRules, parseFrequency,
    parseTaxCode, resolvePayDate, asRate, taxOnBands, marginalRate, loanDeductionForPay, tools } = kit;

  const PAYS_IN_FOUR_WEEKS = { weekly: 4, fortnightly: 2, four_weekly: 1, monthly: 1 };
  const FLAT_RATE_CODES = ["ND", "NSW"];

  function isoOfDay(n) { return new Date(n * 86400000).toISOString().slice(0, 10); }
  function given(v) { return v !== null && v !== undefined; }

  function secondaryLowThreshold(codeRate, bands) {
    for (const band of bands) {
      if (exact(band.rate).eq(codeRate)) return band.from === 0 ? 0 : Number(qfloor(exactAmount(band.from))) + 1;
    }
    throw new ToolArgumentError("tax_code", "no tax band has this secondary code's rate");
  }

  function calculate_extra_pay_paye({ extra_pay, pay_frequency, regular_pay = null, recent_earnings = null, tax_code = "M",
    on_leaving = false, redundancy = false, tax_year = null, pay_date = null, kiwisaver_rate = null }) {
    const frequency = parseFrequency(pay_frequency);
    const code = parseTaxCode(tax_code);
    const [rules, day, basis] = resolvePayDate(pay_date, tax_year);
    const section = rules.section("extra_pay");
    if (!given(regular_pay) && !given(recent_earnings)) {
      throw new ToolArgumentError("regular_pay", "give regular_pay (the usual gross pay) or recent_earnings (what the rule annualises; 0 for a first pay)");
    }
    const extra = exactAmount(extra_pay);
    const acc = rules.section("acc_levy");
    const accRate = exact(acc.rate);
    const notes = [];
    const twoPays = Boolean(on_leaving && section.leaving_two_pays);
    if (on_leaving && !section.leaving_two_pays) notes.push("Before 1 April 2025 an extra pay on leaving used the same four-week rule as any other extra pay.");
    let span, multiplier, rule;
    if (twoPays) {
      span = 2; multiplier = new Q(BigInt(PERIODS_PER_YEAR[frequency]), 2n); rule = "last two pay periods";
    } else {
      span = PAYS_IN_FOUR_WEEKS[frequency];
      multiplier = new Q(frequency === "monthly" ? 12n : 13n);
      rule = frequency === "monthly" ? "the month before" : "four weeks before";
    }
    const earnings = given(recent_earnings) ? exactAmount(recent_earnings) : exactAmount(regular_pay).mul(BigInt(span));
    const annualised = earnings.mul(multiplier);

    let threshold = 0, levy = ZERO, rate, incomeTax, grossedUp, method;
    if (FLAT_RATE_CODES.includes(code.base)) {
      if (code.studentLoan) throw new ToolArgumentError("tax_code", `${code.base} cannot carry a student loan (SL) suffix`);
      rate = exact(rules.section("flat_codes").codes[code.base].rate);
      const whole = new Q(qfloor(extra));
      levy = redundancy ? ZERO : whole.mul(accRate);
      incomeTax = whole.mul(rate);
      grossedUp = null;
      method = `${code.base}: the code's flat rate on the whole-dollar extra pay (IRD: the rate you usually would)`;
    } else {
      if (!PRIMARY_CODES.includes(code.base) && code.base !== "CAE" && code.base !== "EDW") {
        threshold = secondaryLowThreshold(exact(rules.secondaryPeriod(day).codes[code.base].rate), section.bands);
      }
      const base = annualised.add(BigInt(threshold));
      grossedUp = qfloor(base.add(extra));
      rate = marginalRate(new Q(grossedUp), section.bands);
      incomeTax = extra.mul(rate);
      const cap = exactAmount(acc.max_liable_earnings);
      if (redundancy) levy = ZERO;
      else if (new Q(grossedUp).le(cap)) levy = extra.mul(accRate);
      else if (base.le(cap)) levy = cap.sub(base).mul(accRate);
      method = `extra pay: (${rule} x ${fmtG(toDouble(multiplier))}` + (threshold ? ` + the ${code.base} code's low threshold` : "")
        + " + the extra pay) picks the band rate, applied to the whole extra pay" + (redundancy ? "" : " with the ACC levy") + ", truncated";
    }
    const paye = truncateCents(incomeTax.add(levy));
    const levyPart = truncateCents(levy);

    let studentLoan = ZERO;
    if (code.studentLoan) {
      const loan = rules.section("student_loan");
      if (PRIMARY_CODES.includes(code.base)) {
        const regular = given(regular_pay) ? exactAmount(regular_pay) : ZERO;
        studentLoan = cents(truncateCents(loanDeductionForPay(loan, regular.add(extra), frequency, false)))
          .sub(cents(truncateCents(loanDeductionForPay(loan, regular, frequency, false))));
      } else {
        studentLoan = loanDeductionForPay(loan, extra, frequency, true);
      }
    }
    const studentLoanAmount = truncateCents(studentLoan);
    let ksRate = given(kiwisaver_rate) ? asRate(kiwisaver_rate, "kiwisaver_rate") : ZERO;
    if (redundancy && kiwisaver_rate) {
      notes.push("No KiwiSaver is deducted from a redundancy payment or retiring allowance.");
      ksRate = ZERO;
    }
    const kiwisaver = truncateCents(extra.mul(ksRate));
    const net = extra.sub(cents(paye)).sub(cents(studentLoanAmount)).sub(cents(kiwisaver));
    const result = {
      tax_year: rules.year,
      pay_date: day,
      rates_basis: basis,
      pay_frequency: frequency,
      tax_code: code.name,
      extra_pay: asNumber(truncateCents(extra)),
      annualising_rule: grossedUp === null ? "flat rate" : rule,
      earnings_annualised: asNumber(truncateCents(earnings)),
      annualised_income: asNumber(truncateCents(annualised)),
      secondary_threshold: threshold,
      grossed_up_income: grossedUp === null ? null : Number(grossedUp),
      tax_rate: rateNumber(rate),
      acc_levy_rate: redundancy ? 0 : rateNumber(accRate),
      paye: asNumber(paye),
      income_tax: asNumber(paye - levyPart),
      acc_levy: asNumber(levyPart),
      student_loan: asNumber(studentLoanAmount),
      kiwisaver_employee: asNumber(kiwisaver),
      net_extra_pay: asNumber(truncateCents(net)),
      kept_share: extra.isZero() ? 0 : roundFloat(toDouble(net.div(extra)), 4),
      method,
      notes,
      source: twoPays && section.leaving_source ? section.leaving_source : section.source,
    };
    if (grossedUp !== null && PRIMARY_CODES.includes(code.base)) {
      result.year_end = yearEndView(rules, annualised, extra, cents(paye - levyPart));
    }
    return result;
  }

  function yearEndView(rules, annualised, extra, withheld) {
    const bands = rules.section("income_tax").bands;
    const [withExtra] = taxOnBands(annualised.add(extra), bands);
    const [without] = taxOnBands(annualised, bands);
    const due = roundCents(withExtra.sub(without));
    return {
      assumed_other_income: asNumber(roundCents(annualised)),
      income_tax_due_on_extra_pay: asNumber(due),
      income_tax_withheld: asNumber(roundCents(withheld)),
      over_withheld: asNumber(roundCents(withheld) - due),
      marginal_rate_reached: rateNumber(marginalRate(annualised.add(extra), bands)),
      note: "an estimate: the real square-up uses the year's actual income from every source",
    };
  }

  // -- the year-end square-up ------------------------------------------------------------------------
  function payDates(rules, pays) {
    const start = dayNumber(rules.start);
    const out = [];
    for (let k = 1; k <= pays; k++) out.push(isoOfDay(start + Math.floor((k * rules.days) / pays) - 1));
    return out;
  }

  function yearOfPaye(rules, annual, frequency, taxCode) {
    const pays = PERIODS_PER_YEAR[frequency];
    const gross = asNumber(truncateCents(annual.div(BigInt(pays))));
    let incomeTax = ZERO, ietc = ZERO;
    const code = parseTaxCode(taxCode);
    for (const day of payDates(rules, pays)) {
      const pay = tools.calculate_paye({ gross_pay: gross, pay_frequency: frequency, tax_code: code.base, tax_year: rules.year, pay_date: day });
      incomeTax = incomeTax.add(exactAmount(pay.income_tax));
      if (code.base === "ME") {
        const plain = tools.calculate_paye({ gross_pay: gross, pay_frequency: frequency, tax_code: "M", tax_year: rules.year, pay_date: day });
        ietc = ietc.add(exactAmount(plain.paye)).sub(exactAmount(pay.paye));
      }
    }
    return { income_tax: incomeTax, ietc, pays, gross_per_pay: gross };
  }

  function yearOfPayeFlat(rules, annual, frequency, code) {
    const pays = PERIODS_PER_YEAR[frequency];
    const gross = asNumber(truncateCents(annual.div(BigInt(pays))));
    let total = ZERO;
    for (const day of payDates(rules, pays)) {
      total = total.add(exactAmount(tools.calculate_paye({ gross_pay: gross, pay_frequency: frequency, tax_code: code, tax_year: rules.year, pay_date: day }).income_tax));
    }
    return total;
  }

  function studentLoanView(rules, hasLoan, wages, other, dates) {
    if (!hasLoan) return { has_loan: false, end_of_year_repayment: 0 };
    const loan = rules.section("student_loan");
    const threshold = exactAmount(loan.annual_threshold);
    const minimum = given(loan.other_income_minimum) ? exactAmount(loan.other_income_minimum) : ZERO;
    let owed = ZERO;
    if (other.ge(minimum) && wages.add(other).gt(threshold)) owed = exact(loan.rate).mul(other.sub(qmax(threshold.sub(wages), ZERO)));
    const reason = "Deductions from salary and wages are full and final: there is no end-of-year repayment on them. "
      + (owed.gt(ZERO) ? `Income other than salary or wages of $${fmtCommas2(toDouble(other))} adds an end-of-year repayment, due ${dates.tax_to_pay_due}.`
        : "Other income is too small to add an end-of-year repayment.");
    return { has_loan: true, other_income: asNumber(roundCents(other)), end_of_year_repayment: asNumber(roundCents(qmax(owed, ZERO))),
      reason, source: loan.other_income_source || loan.source };
  }

  function calculate_year_end_square_up({ tax_year = null, salary_wages = 0, salary_paye = null, tax_code = "M", pay_frequency = "fortnightly",
    second_job_wages = 0, second_job_paye = null, second_job_tax_code = "S", extra_pays = 0, extra_pays_paye = null, redundancy = false,
    paid_parental_leave = 0, paid_parental_leave_tax = null, nz_super = 0, nz_super_tax = null, interest = 0, rwt = null,
    schedular_payments = 0, withholding_tax = null, self_employed_profit = 0, provisional_tax_paid = 0, student_loan = false,
    donations = 0, receives_working_for_families = false }) {
    const rules = yearRules(tax_year, "income_tax", "paye", "acc_levy", "year_end");
    const frequency = parseFrequency(pay_frequency);
    const acc = rules.section("acc_levy");
    const accRate = exact(acc.rate), cap = exactAmount(acc.max_liable_earnings);
    const mainCode = parseTaxCode(tax_code);
    if (!PRIMARY_CODES.includes(mainCode.base)) throw new ToolArgumentError("tax_code", "the main job's code is M or ME (with or without SL)");
    let secondCode;
    try { secondCode = parseTaxCode(second_job_tax_code); } catch (exc) {
      if (exc instanceof ToolArgumentError) throw new ToolArgumentError("second_job_tax_code", exc.toolMessage);
      throw exc;
    }
    if (PRIMARY_CODES.includes(secondCode.base)) throw new ToolArgumentError("second_job_tax_code", "a second job uses a secondary code (SB, S, SH, ST or SA) or ND");
    const notes = [], why = [];
    const salary = exactAmount(salary_wages), extras = exactAmount(extra_pays), second = exactAmount(second_job_wages);
    const withheldWithoutLevy = (value, gross, room) => {
      const liable = room === null ? gross : qmin(gross, qmax(room, ZERO));
      return exactAmount(value).sub(cents(roundCents(liable.mul(accRate))));
    };

    let ietcViaCode = ZERO, mainTax, mainHow;
    if (given(salary_paye)) { mainTax = withheldWithoutLevy(salary_paye, salary, cap); mainHow = "PAYE as given, less its ACC levy"; }
    else if (!salary.isZero()) {
      const year = yearOfPaye(rules, salary, frequency, mainCode.base);
      mainTax = year.income_tax; ietcViaCode = year.ietc;
      mainHow = `worked out: ${year.pays} ${frequency} pays of $${fmtCommas2(year.gross_per_pay)} on ${mainCode.base}`;
    } else { mainTax = ZERO; mainHow = "no main job"; }

    let extrasTax, extrasHow;
    if (given(extra_pays_paye)) {
      extrasTax = withheldWithoutLevy(extra_pays_paye, extras, redundancy ? ZERO : cap.sub(salary));
      extrasHow = "PAYE as given" + (redundancy ? "" : ", less its ACC levy");
    } else if (!extras.isZero()) {
      const regular = asNumber(truncateCents(salary.div(BigInt(PERIODS_PER_YEAR[frequency]))));
      const periods = rules.section("paye").periods;
      const extra = calculate_extra_pay_paye({ extra_pay: asNumber(truncateCents(extras)), pay_frequency: frequency, regular_pay: regular,
        tax_code: mainCode.base, redundancy, pay_date: periods[periods.length - 1].to });
      extrasTax = exactAmount(extra.income_tax);
      extrasHow = `worked out by the extra-pay method at ${fmtG(extra.tax_rate * 100)}%`;
    } else { extrasTax = ZERO; extrasHow = ""; }

    let secondTax, secondHow;
    if (given(second_job_paye)) { secondTax = withheldWithoutLevy(second_job_paye, second, null); secondHow = "PAYE as given, less its ACC levy"; }
    else if (!second.isZero()) { secondTax = yearOfPayeFlat(rules, second, frequency, secondCode.base); secondHow = `worked out on ${secondCode.base}`; }
    else { secondTax = ZERO; secondHow = ""; }

    const taxGiven = (amount, tax, argument) => {
      if (!amount.isZero() && !given(tax)) throw new ToolArgumentError(argument, `give ${argument}: the tax deducted from that income (0 if none)`);
      return exactAmount(tax || 0);
    };
    const ppl = exactAmount(paid_parental_leave), nzs = exactAmount(nz_super), interestAmount = exactAmount(interest);
    const schedular = exactAmount(schedular_payments), business = exactAmount(self_employed_profit);
    const sources = [
      ["main job", salary, mainTax, mainHow],
      ["extra pays", extras, extrasTax, extrasHow],
      ["second job", second, secondTax, secondHow],
      ["paid parental leave", ppl, taxGiven(ppl, paid_parental_leave_tax, "paid_parental_leave_tax"), "as given"],
      ["NZ Super", nzs, taxGiven(nzs, nz_super_tax, "nz_super_tax"), "as given"],
      ["schedular payments", schedular, taxGiven(schedular, withholding_tax, "withholding_tax"), "withholding tax as given"],
      ["interest", interestAmount, taxGiven(interestAmount, rwt, "rwt"), "RWT as given"],
      ["self-employed profit", business, exactAmount(provisional_tax_paid), "provisional tax paid"],
    ];
    const totalIncome = sources.reduce((sum, s) => sum.add(s[1]), ZERO);

    const bands = rules.section("income_tax").bands;
    const [incomeTaxTotal] = taxOnBands(totalIncome, bands);
    const ietcResult = tools.calculate_ietc({ annual_income: asNumber(roundCents(totalIncome)), tax_year: rules.year,
      receives_working_for_families, receives_nz_super: !nzs.isZero() });
    const ietc = exactAmount(ietcResult.annual_credit);
    const rows = [];
    let stacked = ZERO;
    for (const [name, amount, taxPaid, how] of sources) {
      if (amount.isZero() && taxPaid.isZero()) continue;
      const [before] = taxOnBands(stacked, bands);
      const [after] = taxOnBands(stacked.add(amount), bands);
      stacked = stacked.add(amount);
      const due = after.sub(before);
      rows.push({ source: name, income: asNumber(roundCents(amount)), tax_due: asNumber(roundCents(due)), tax_paid: asNumber(roundCents(taxPaid)),
        difference: asNumber(roundCents(taxPaid) - roundCents(due)), how });
    }
    if (!ietc.isZero() && rows.length) {
      rows[0].tax_due = asNumber(roundCents(exactAmount(rows[0].tax_due).sub(ietc)));
      rows[0].difference = asNumber(roundCents(exactAmount(rows[0].tax_paid).sub(exactAmount(rows[0].tax_due))));
    }
    const taxDue = roundCents(qmax(incomeTaxTotal.sub(ietc), ZERO));
    const taxPaid = sources.reduce((sum, s) => sum + roundCents(s[2]), 0n);
    const balance = taxDue - taxPaid;

    for (const row of rows) {
      const diff = exactAmount(row.difference);
      if (diff.abs().lt(1n)) continue;
      const side = diff.gt(ZERO) ? "more" : "less";
      why.push(`Your ${row.source} had $${fmtCommas2(Math.abs(row.difference))} ${side} tax taken than the tax on it `
        + `($${fmtCommas2(row.tax_paid)} taken, $${fmtCommas2(row.tax_due)} due on $${fmtCommas2(row.income)}).`);
    }
    if (!ietcViaCode.isZero() && ietcViaCode.gt(ietc.add(1n))) {
      why.push(`The ME code allowed for $${fmtCommas2(asNumber(roundCents(ietcViaCode)))} of the independent earner tax credit through PAYE, `
        + `but on the year's total income of $${fmtCommas2(asNumber(roundCents(totalIncome)))} the credit is $${fmtCommas2(asNumber(roundCents(ietc)))}, so the difference is paid back.`);
    }
    if (!extras.isZero() && extrasTax.gt(ZERO)) why.push("An extra pay is taxed at the rate its annualised total reaches; if the year's real income is lower, part of that tax comes back.");
    if (!second.isZero() && secondCode.base !== "ND") why.push(`The second job's code (${secondCode.base}) takes one flat rate on every dollar of it; the year's bands may ask more or less.`);

    const yearEnd = rules.section("year_end");
    const needsIr3 = business.gt(exactAmount(yearEnd.untaxed_income_limit));
    const endYear = parseInt(rules.end.slice(0, 4), 10);
    const dates = { tax_to_pay_due: `${yearEnd.tax_to_pay_due} ${endYear + 1}`, return_due: `${yearEnd.return_due} ${endYear}` };
    let writtenOff = false, outcome, summary;
    if (balance > 0n) {
      writtenOff = !needsIr3 && given(yearEnd.write_off_limit) && cents(balance).le(exactAmount(yearEnd.write_off_limit));
      outcome = "bill";
      summary = `Tax to pay: $${fmtCommas2(asNumber(balance))}` + (writtenOff
        ? ` - written off automatically (IRD writes off an automatically calculated bill of $${fmtG(yearEnd.write_off_limit)} or less).`
        : `, due ${dates.tax_to_pay_due}.`);
    } else if (balance < 0n) {
      outcome = "refund"; summary = `Refund: $${fmtCommas2(asNumber(-balance))}.`;
    } else {
      outcome = "nothing"; summary = "Nothing to pay and no refund.";
    }
    if (needsIr3) {
      notes.push(`Untaxed income over $${fmtG(yearEnd.untaxed_income_limit)} (self-employed profit): file an IR3 return by ${dates.return_due}; `
        + "an IR3 filer's bill is not written off.");
    }
    if (ietcResult.reason.startsWith("Not available")) notes.push("No independent earner tax credit. " + ietcResult.reason);

    const loan = studentLoanView(rules, student_loan, salary.add(extras).add(second).add(ppl).add(nzs), interestAmount.add(schedular).add(business), dates);
    const credit = donations ? tools.calculate_donation_tax_credit({ donations: asNumber(roundCents(exactAmount(donations))),
      taxable_income: asNumber(roundCents(totalIncome)), tax_year: rules.year }).credit : 0;
    return Object.assign({
      tax_year: rules.year,
      result: outcome,
      amount: asNumber(balance < 0n ? -balance : balance),
      summary,
      written_off: writtenOff,
      total_income: asNumber(roundCents(totalIncome)),
      income_tax: asNumber(roundCents(incomeTaxTotal)),
      ietc: asNumber(roundCents(ietc)),
      ietc_through_paye: asNumber(roundCents(ietcViaCode)),
      tax_due: asNumber(taxDue),
      tax_paid: asNumber(taxPaid),
      sources: rows,
      why,
      student_loan: loan,
      donation_tax_credit: credit,
      ir3_required: needsIr3,
    }, dates, {
      notes: notes.concat(["ACC earners' levy is left out: it is not part of the income tax square-up."]),
      composite_rates: rules.section("income_tax").composite_rates,
      source: yearEnd.source,
      write_off_source: yearEnd.write_off_source === undefined ? null : yearEnd.write_off_source,
    });
  }

  return { calculate_extra_pay_paye, calculate_year_end_square_up };
});
