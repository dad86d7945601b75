/* nztax calculators in the browser, part two: the calculator ports.
 *
 * In: the exact-money kit (calculators_money.js), the rules data emitted at build time and a
 * "today" (ISO date). Out: makeCalculators, whose callTool returns the same JSON as
 * nztax.tools.call_tool to the cent (IRD's truncation and rounding at the same points as
 * function/nztax/calculators/*.py; tests/site/test_calculator_parity.py), and extend, through which
 * calculators_pay.js adds its tools. No DOM. Under node `module.exports`; in the browser
 * window.NZTaxCalcParts.tools (the first copy kept on instant navigation, so tools extended into it
 * stay), loaded after calculators_money.js and before calculators_pay.js and calculators.js.
 */
(function (root, factory) {
  "use strict";
  if (typeof module !== "undefined" && module.exports) module.exports = factory(require("./calculators_money.js"));
  else {
    const parts = (root.NZTaxCalcParts = root.NZTaxCalcParts || {});
    parts.tools = parts.tools || factory(parts.money);
  }
})(typeof window !== "undefined" ? window : globalThis, function (money) {
  "use strict";
  const {
    Q, ZERO, qmax, qmin, qfloor, qtrunc, exact, exactAmount, truncateCents, roundCents, cents, asNumber,
    rateNumber, toDouble, roundFloat, fmtCommas0, fmtCommas2, fmtG, fmtLongDate, dayNumber,
    ToolArgumentError, RulesError, PERIODS_PER_YEAR, FREQUENCY_ALIASES, SECONDARY_CODES, FLAT_CODES,
    PRIMARY_CODES, TAX_CODES, WEEKS_PER_YEAR, KIWISAVER_YEAR_START_MONTH, taxYearFor, YearRules,
    localIsoDate
  } = money;

  const EXTENSIONS = [];
  /** Add the tools `factory(kit)` returns to every calculator set made from now on. */
  function extend(factory) { EXTENSIONS.push(factory); }

  /** The calculators bound to one rules document and a "today" (ISO date). */
  function makeCalculators(rulesDoc, today) {
    const years = {};
    for (const [y, data] of Object.entries(rulesDoc.years)) years[y] = new YearRules(y, data);
    const todayIso = today || localIsoDate(new Date());

    function getYear(year) {
      if (!(year in years)) {
        throw new RulesError(`unknown tax year '${year}' (known: ${Object.keys(years).sort().join(", ")})`);
      }
      return years[year];
    }
    function yearRules(taxYear, ...sections) {
      const year = taxYear || taxYearFor(todayIso);
      try {
        const rules = getYear(year);
        for (const name of sections) rules.section(name);
        return rules;
      } catch (exc) {
        if (exc instanceof RulesError) throw new ToolArgumentError("tax_year", exc.message);
        throw exc;
      }
    }
    function rulesForDate(payDate, taxYear, ...sections) {
      const year = taxYearFor(payDate);
      if (taxYear && taxYear !== year) throw new ToolArgumentError("pay_date", `pay date ${payDate} is in tax year ${year}, not ${taxYear}`);
      return yearRules(year, ...sections);
    }
    function parseFrequency(value) {
      const key = String(value).trim().toLowerCase().replace(/ /g, "_");
      if (!(key in FREQUENCY_ALIASES)) throw new ToolArgumentError("pay_frequency", `unknown pay frequency '${value}' (use weekly, fortnightly, four_weekly or monthly)`);
      return FREQUENCY_ALIASES[key];
    }
    function asRate(value, argument) {
      let rate = exact(value);
      if (rate.gt(1n)) rate = rate.div(100n);
      if (rate.lt(0n) || rate.gt(1n)) throw new ToolArgumentError(argument, `${argument} must be between 0 and 100 percent`);
      return rate;
    }
    function parseDate(value, argument) {
      if (value === null || value === undefined) return null;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || isNaN(dayNumber(value))) {
        throw new ToolArgumentError(argument, `${argument} must be a date like 2026-07-31, not '${value}'`);
      }
      return value;
    }
    function taxOnBands(income, bands) {
      let total = ZERO;
      const slices = [];
      for (const band of bands) {
        const lower = exactAmount(band.from);
        const upper = band.to === null ? null : exactAmount(band.to);
        if (income.le(lower)) break;
        const top = upper === null ? income : qmin(income, upper);
        const amount = top.sub(lower);
        const tax = amount.mul(exact(band.rate));
        total = total.add(tax);
        slices.push({ lower: band.from, upper: band.to, rate: exact(band.rate), amount, tax });
      }
      return [total, slices];
    }
    function marginalRate(income, bands) {
      for (const band of bands) if (band.to === null || income.le(exactAmount(band.to))) return exact(band.rate);
      return exact(bands[bands.length - 1].rate);
    }

    // -- income tax ------------------------------------------------------------------------------
    function calculate_income_tax({ taxable_income, tax_year = null }) {
      const rules = yearRules(tax_year, "income_tax");
      const section = rules.section("income_tax");
      const income = exactAmount(taxable_income);
      const [total, slices] = taxOnBands(income, section.bands);
      const effective = income.isZero() ? 0 : toDouble(total.div(income));
      return {
        tax_year: rules.year,
        taxable_income: asNumber(roundCents(income)),
        total_tax: asNumber(roundCents(total)),
        effective_rate: roundFloat(effective, 4),
        marginal_rate: rateNumber(marginalRate(income, section.bands)),
        breakdown: slices.map((s) => ({
          band_from: s.lower, band_to: s.upper, rate: rateNumber(s.rate),
          income_in_band: asNumber(roundCents(s.amount)), tax: asNumber(roundCents(s.tax)),
        })),
        composite_rates: rules.year === "2024-25",
        source: section.source,
      };
    }

    // -- ACC levy ----------------------------------------------------------------------------------
    function calculate_acc_levy({ income, tax_year = null }) {
      const rules = yearRules(tax_year, "acc_levy");
      const acc = rules.section("acc_levy");
      const amount = exactAmount(income);
      const cap = exactAmount(acc.max_liable_earnings);
      const capped = amount.ge(cap);
      const levy = capped ? truncateCents(exactAmount(acc.max_levy)) : roundCents(amount.mul(exact(acc.rate)));
      return {
        tax_year: rules.year,
        rate: rateNumber(exact(acc.rate)),
        max_liable_earnings: asNumber(truncateCents(exactAmount(acc.max_liable_earnings))),
        max_levy: asNumber(truncateCents(exactAmount(acc.max_levy))),
        liable_income: asNumber(roundCents(qmin(amount, cap))),
        annual_levy: asNumber(levy),
        capped,
        source: acc.source,
      };
    }

    // -- student loan ------------------------------------------------------------------------------
    function loanDeductionForPay(loan, gross, frequency, secondary) {
      const threshold = secondary ? ZERO : exactAmount(loan.period_thresholds[frequency]);
      return qmax(new Q(qfloor(gross)).sub(threshold), ZERO).mul(exact(loan.rate));
    }
    function calculate_student_loan_repayment({ income, tax_year = null, pay_frequency = null, gross_pay = null, secondary_income = false }) {
      const rules = yearRules(tax_year, "student_loan");
      const loan = rules.section("student_loan");
      if (gross_pay !== null && pay_frequency === null) {
        throw new ToolArgumentError("pay_frequency", "give pay_frequency with gross_pay (how often that pay is paid)");
      }
      const threshold = secondary_income ? ZERO : exactAmount(loan.annual_threshold);
      const over = qmax(exactAmount(income).sub(threshold), ZERO);
      const perPay = {};
      if (pay_frequency !== null) {
        const frequency = parseFrequency(pay_frequency);
        const gross = gross_pay !== null ? exactAmount(gross_pay) : exactAmount(income).div(BigInt(PERIODS_PER_YEAR[frequency]));
        Object.assign(perPay, {
          pay_frequency: frequency,
          gross_pay: asNumber(truncateCents(gross)),
          period_threshold: secondary_income ? 0 : loan.period_thresholds[frequency],
          deduction_per_pay: asNumber(truncateCents(loanDeductionForPay(loan, gross, frequency, secondary_income))),
        });
      }
      return {
        tax_year: rules.year,
        threshold: secondary_income ? 0 : asNumber(truncateCents(exactAmount(loan.annual_threshold))),
        rate: rateNumber(exact(loan.rate)),
        income_over_threshold: asNumber(truncateCents(over)),
        annual_repayment: asNumber(truncateCents(over.mul(exact(loan.rate)))),
        period_thresholds: Object.assign({}, loan.period_thresholds),
        secondary_income,
        ...perPay,
        method: "annual approximation; employers deduct per pay period over the pay-period threshold"
          + (secondary_income ? " (a secondary job's pay: every dollar)" : ""),
        source: secondary_income ? loan.secondary_source : loan.source,
      };
    }

    // -- IETC ----------------------------------------------------------------------------------------
    function creditForPeriod(annualIncome, period) {
      const income = qfloor(annualIncome);
      if (new Q(income).lt(exactAmount(period.income_from)) || new Q(income).ge(exactAmount(period.income_to))) return ZERO;
      const over = income - qtrunc(exactAmount(period.abatement_from));
      const abatement = new Q(over > 0n ? over : 0n).mul(exact(period.abatement_rate));
      return qmax(exactAmount(period.amount).sub(abatement), ZERO);
    }
    // The credit is worked per whole month of the tax year (IRD: none for a month with any excluded payment in it).
    const MONTHS_IN_YEAR = 12;
    function calculate_ietc({ annual_income, tax_year = null, receives_working_for_families = false,
      receives_benefit = false, receives_nz_super = false, months_eligible = null }) {
      const rules = yearRules(tax_year, "ietc");
      const section = rules.section("ietc");
      const base = { tax_year: rules.year, source: section.source };
      const exclusions = [
        [receives_working_for_families, "you or your partner are entitled to Working for Families tax credits"],
        [receives_benefit, "you receive an income-tested benefit"],
        [receives_nz_super, "you receive NZ Superannuation or a veteran's pension"],
      ];
      const excluded = exclusions.filter(([flag]) => flag).map(([, why]) => why);
      const months = months_eligible !== null ? months_eligible : (excluded.length ? 0 : MONTHS_IN_YEAR);
      if (months === 0) {
        const reason = excluded.length
          ? `Not available for any month in which ${excluded[0]}; taken as every month of the year. If that was only part of the year, the credit is paid for the other whole months.`
          : "Not available: no month of the year was free of Working for Families, a benefit, NZ Super or a veteran's pension.";
        return Object.assign({}, base, { eligible: false, annual_credit: 0, months_eligible: 0, reason });
      }
      if (months < MONTHS_IN_YEAR && section.periods.length > 1) {
        throw new ToolArgumentError("months_eligible", `a part-year credit is not worked out for ${rules.year}: the credit's range changed part-way through that year, and IRD's part-year rule for it is not in the rules data`);
      }
      const income = exactAmount(annual_income);
      let credit = ZERO;
      for (const p of section.periods) {
        const share = new Q(BigInt(dayNumber(p.to) - dayNumber(p.from) + 1), BigInt(rules.days));
        credit = credit.add(creditForPeriod(income, p).mul(share));
      }
      const annual = roundCents(credit.mul(new Q(BigInt(months), BigInt(MONTHS_IN_YEAR))));
      const last = section.periods[section.periods.length - 1];
      let reason;
      if (income.lt(exactAmount(last.income_from))) reason = `Income is below $${fmtCommas0(last.income_from)}, so no credit.`;
      else if (annual === 0n) reason = `Income is at or above $${fmtCommas0(last.income_to)}, so the credit has fully abated.`;
      else if (section.periods.length > 1) reason = "Part-year rules: the credit is worked out separately before and from the date the thresholds changed.";
      else if (income.gt(exactAmount(last.abatement_from))) {
        const pct = toDouble(exact(last.abatement_rate).mul(100n));
        reason = `Income is over $${fmtCommas0(last.abatement_from)}, so the credit is reduced by ${fmtG(pct)}% of each dollar over.`;
      } else reason = "Full credit.";
      if (months < MONTHS_IN_YEAR && annual > 0n) {
        const yearCredit = `$${fmtCommas2(asNumber(roundCents(credit)))}`;
        reason = (reason === "Full credit." ? "" : reason + " ") + `Worked for ${months} of the 12 months (none for a month with any Working for Families, benefit, NZ Super or veteran's pension in it): ${months}/12 of the year's ${yearCredit}.`;
      }
      return Object.assign({}, base, { eligible: annual > 0n, annual_credit: asNumber(annual), months_eligible: months, reason });
    }

    // -- PAYE ----------------------------------------------------------------------------------------
    function parseTaxCode(value) {
      const text = String(value).trim().toUpperCase().replace(/[\s_-]+/g, " ");
      const m = /^(ME|M|SB|SH|ST|SA|S|ND|NSW|CAE|EDW) ?(SL)?$/.exec(text);
      if (!m || !TAX_CODES.includes(m[1] + (m[2] ? " SL" : ""))) {
        throw new ToolArgumentError("tax_code", `unknown or unsupported tax code '${value}' (supported: ${TAX_CODES.join(", ")})`);
      }
      return { base: m[1], studentLoan: Boolean(m[2]), name: m[2] ? `${m[1]} SL` : m[1] };
    }
    function resolvePayDate(payDate, taxYear) {
      const day = parseDate(payDate, "pay_date");
      if (day !== null) return [rulesForDate(day, taxYear, "paye"), day, "rates in force on the pay date"];
      const rules = yearRules(taxYear, "paye");
      if (rules.covers(todayIso)) return [rules, todayIso, "rates in force today"];
      const periods = rules.section("paye").periods;
      const last = periods[periods.length - 1];
      return [rules, last.from, `rates in force from ${fmtLongDate(last.from)} (give pay_date for earlier pays)`];
    }
    function primaryWeekly(annual, rules, day, withIetc) {
      const income = new Q(annual);
      const [tax] = taxOnBands(income, rules.payePeriod(day).bands);
      const acc = rules.section("acc_levy");
      const levy = income.ge(exactAmount(acc.max_liable_earnings)) ? exactAmount(acc.max_levy) : income.mul(exact(acc.rate));
      const ietc = withIetc ? creditForPeriod(income, rules.ietcPeriod(day)) : ZERO;
      const weekly = cents(truncateCents(qmax(tax.add(levy).sub(ietc), ZERO).div(BigInt(WEEKS_PER_YEAR))));
      const weeklyAcc = cents(truncateCents(levy.div(BigInt(WEEKS_PER_YEAR))));
      return [weekly, weeklyAcc, ietc];
    }
    function calculate_paye({ gross_pay, pay_frequency, tax_code = "M", tax_year = null, pay_date = null, kiwisaver_rate = null }) {
      const frequency = parseFrequency(pay_frequency);
      const code = parseTaxCode(tax_code);
      const [rules, day, basis] = resolvePayDate(pay_date, tax_year);
      const pays = BigInt(PERIODS_PER_YEAR[frequency]);
      const gross = exactAmount(gross_pay);
      const whole = qfloor(gross);
      const accRate = exact(rules.section("acc_levy").rate);
      let paye, accPart, annual = null, ietc = ZERO, method, codeRate = null;
      if (PRIMARY_CODES.includes(code.base)) {
        annual = qfloor(gross.mul(pays));
        let weekly, weeklyAcc;
        [weekly, weeklyAcc, ietc] = primaryWeekly(annual, rules, day, code.base === "ME");
        paye = truncateCents(weekly.mul(BigInt(WEEKS_PER_YEAR)).div(pays));
        accPart = truncateCents(weeklyAcc.mul(BigInt(WEEKS_PER_YEAR)).div(pays));
        method = "annualised (IRD payroll specification): annual tax + ACC levy" + (ietc.isZero() ? "" : " - IETC") + ", / 52, truncated";
      } else {
        if (FLAT_CODES.includes(code.base)) {
          if (code.studentLoan) throw new ToolArgumentError("tax_code", `${code.base} cannot carry a student loan (SL) suffix`);
          codeRate = exact(rules.section("flat_codes").codes[code.base].rate);
        } else {
          codeRate = exact(rules.secondaryPeriod(day).codes[code.base].rate);
        }
        paye = truncateCents(new Q(whole).mul(codeRate.add(accRate)));
        accPart = truncateCents(new Q(whole).mul(accRate));
        method = "flat rate on whole-dollar gross (code rate + ACC levy rate), truncated";
      }
      const studentLoan = code.studentLoan
        ? loanDeductionForPay(rules.section("student_loan"), gross, frequency, !PRIMARY_CODES.includes(code.base)) : ZERO;
      const studentLoanAmount = truncateCents(studentLoan);
      const kiwisaver = kiwisaver_rate !== null && kiwisaver_rate !== undefined
        ? truncateCents(gross.mul(asRate(kiwisaver_rate, "kiwisaver_rate"))) : 0n;
      const net = gross.sub(cents(paye)).sub(cents(studentLoanAmount)).sub(cents(kiwisaver));
      const result = {
        tax_year: rules.year,
        pay_date: day,
        rates_basis: basis,
        pay_frequency: frequency,
        tax_code: code.name,
        gross_pay: asNumber(truncateCents(gross)),
        paye: asNumber(paye),
        income_tax: asNumber(paye - accPart),
        acc_levy: asNumber(accPart),
        student_loan: asNumber(studentLoanAmount),
        kiwisaver_employee: asNumber(kiwisaver),
        net_pay: asNumber(truncateCents(net)),
        method,
        source: rules.section("paye").source,
      };
      if (annual !== null) result.annualised_earnings = Number(annual);
      if (codeRate !== null) result.combined_rate = rateNumber(codeRate.add(accRate));
      if (!ietc.isZero()) result.ietc_annual = asNumber(truncateCents(ietc));
      if (kiwisaver_rate !== null && kiwisaver_rate !== undefined) result.kiwisaver_rate = rateNumber(asRate(kiwisaver_rate, "kiwisaver_rate"));
      return result;
    }

    // -- KiwiSaver, ESCT and the government contribution ------------------------------------------
    function kiwisaverYearFor(iso) {
      const year = parseInt(iso.slice(0, 4), 10), month = parseInt(iso.slice(5, 7), 10);
      const first = month >= KIWISAVER_YEAR_START_MONTH ? year : year - 1;
      return `${first}-${String((first + 1) % 100).padStart(2, "0")}`;
    }
    function governmentContributionRules(kiwisaverYear) {
      try {
        const first = parseInt(String(kiwisaverYear).slice(0, 4), 10);
        if (!/^\d{4}/.test(String(kiwisaverYear))) throw new RulesError("invalid year");
        return getYear(taxYearFor(`${first}-07-01`)).section("government_contribution");
      } catch (exc) {
        if (exc instanceof RulesError) throw new ToolArgumentError("kiwisaver_year", `no government contribution rules for KiwiSaver year '${kiwisaverYear}': ${exc.message}`);
        throw exc;
      }
    }
    function governmentContribution(member, annualIncome, age, gc) {
      if (age !== null && !(gc.min_age <= age && age < gc.max_age)) {
        return [ZERO, `Not paid: members must be at least ${gc.min_age} and under ${gc.max_age} (NZ Super age).`];
      }
      if (gc.income_cap !== null && annualIncome !== null && annualIncome.gt(exactAmount(gc.income_cap))) {
        return [ZERO, `Not paid: income over $${fmtCommas0(gc.income_cap)}.`];
      }
      const amount = qmin(member.mul(exact(gc.match_rate)), exactAmount(gc.maximum));
      const perDollar = toDouble(exact(gc.match_rate).mul(100n));
      return [amount, `${fmtG(perDollar)} cents per dollar of member contributions, up to $${fmtCommas2(gc.maximum)}.`];
    }
    function calculate_kiwisaver({ gross_pay, employee_rate = null, employer_rate = null, esct_threshold_income = null,
      tax_year = null, pay_frequency = "annual", member_contributions = null, annual_income = null, age = null,
      kiwisaver_year = null }) {
      const rules = yearRules(tax_year, "kiwisaver", "esct");
      const ks = rules.section("kiwisaver");
      const gross = exactAmount(gross_pay);
      const empRate = employee_rate !== null ? asRate(employee_rate, "employee_rate") : exact(ks.default_employee_rate);
      const erRate = employer_rate !== null ? asRate(employer_rate, "employer_rate") : exact(ks.employer_minimum_rate);
      const employee = truncateCents(gross.mul(empRate));
      const employer = truncateCents(gross.mul(erRate));
      let threshold;
      if (esct_threshold_income !== null) threshold = exactAmount(esct_threshold_income);
      else {
        const key = String(pay_frequency).trim().toLowerCase();
        const pays = ["annual", "annually", "yearly"].includes(key) ? 1 : PERIODS_PER_YEAR[parseFrequency(pay_frequency)];
        threshold = gross.add(cents(employer)).mul(BigInt(pays));
      }
      const band = rules.section("esct").bands.find((b) => b.to === null || threshold.le(exactAmount(b.to)));
      const esctRate = exact(band.rate);
      const esct = truncateCents(new Q(qfloor(cents(employer))).mul(esctRate));
      const result = {
        tax_year: rules.year,
        employee_rate: rateNumber(empRate),
        employer_rate: rateNumber(erRate),
        employee_contribution: asNumber(employee),
        employer_contribution: asNumber(employer),
        esct_threshold_income: asNumber(roundCents(threshold)),
        esct_rate: rateNumber(esctRate),
        esct: asNumber(esct),
        employer_contribution_net: asNumber(employer - esct),
        government_contribution: null,
        source: ks.source,
      };
      if (member_contributions !== null) {
        const year = kiwisaver_year || kiwisaverYearFor(todayIso);
        const gc = governmentContributionRules(year);
        const [amount, reason] = governmentContribution(exactAmount(member_contributions),
          annual_income === null ? null : exactAmount(annual_income), age, gc);
        Object.assign(result, {
          kiwisaver_year: year,
          government_contribution: asNumber(roundCents(amount)),
          government_contribution_reason: reason,
          government_contribution_source: gc.source,
        });
      }
      return result;
    }

    // -- take-home pay -----------------------------------------------------------------------------
    function calculate_take_home_pay({ annual_salary, tax_code = "M", kiwisaver_rate = null, student_loan = false,
      pay_frequency = "fortnightly", tax_year = null }) {
      const code = parseTaxCode(tax_code);
      if (!PRIMARY_CODES.includes(code.base)) throw new ToolArgumentError("tax_code", "take-home pay is worked out for a main job: use M, ME, M SL or ME SL");
      const hasLoan = student_loan || code.studentLoan;
      const frequency = parseFrequency(pay_frequency);
      const rules = yearRules(tax_year, "income_tax", "paye");
      const year = rules.year;
      const salary = exactAmount(annual_salary);
      const incomeTax = calculate_income_tax({ taxable_income: annual_salary, tax_year: year }).total_tax;
      const accLevy = calculate_acc_levy({ income: annual_salary, tax_year: year }).annual_levy;
      const ietc = code.base === "ME" ? calculate_ietc({ annual_income: annual_salary, tax_year: year }).annual_credit : 0;
      const loan = hasLoan ? calculate_student_loan_repayment({ income: annual_salary, tax_year: year }).annual_repayment : 0;
      const ksRate = kiwisaver_rate !== null ? asRate(kiwisaver_rate, "kiwisaver_rate") : ZERO;
      const kiwisaver = asNumber(truncateCents(salary.mul(ksRate)));
      let net = salary;
      for (const x of [incomeTax, accLevy, loan, kiwisaver]) net = net.sub(exactAmount(x));
      net = net.add(exactAmount(ietc));
      const pays = BigInt(PERIODS_PER_YEAR[frequency]);
      const perPayGross = asNumber(truncateCents(salary.div(pays)));
      const pay = calculate_paye({ gross_pay: perPayGross, pay_frequency: frequency, tax_code: hasLoan ? `${code.base} SL` : code.base,
        tax_year: year, kiwisaver_rate });
      return {
        tax_year: year,
        annual_salary: asNumber(truncateCents(salary)),
        tax_code: hasLoan ? `${code.base} SL` : code.base,
        income_tax: incomeTax,
        acc_levy: accLevy,
        ietc,
        student_loan: loan,
        kiwisaver_employee: kiwisaver,
        net_pay: asNumber(truncateCents(net)),
        annual_method: "end-of-year: annual income tax rates" + (year === "2024-25" ? " (composite rates)" : "")
          + ", ACC levy on the salary, student loan over the annual threshold (an approximation of per-pay deductions)",
        per_pay: {
          pay_frequency: frequency, gross_pay: pay.gross_pay, paye: pay.paye, student_loan: pay.student_loan,
          kiwisaver_employee: pay.kiwisaver_employee, net_pay: pay.net_pay, pay_date: pay.pay_date, method: pay.method,
        },
        source: rules.section("income_tax").source,
      };
    }

    // -- donations ---------------------------------------------------------------------------------
    function calculate_donation_tax_credit({ donations, taxable_income, tax_year = null }) {
      const rules = yearRules(tax_year, "donation_credit");
      const rule = rules.section("donation_credit");
      if (!Array.isArray(donations) && donations < 0) throw new ToolArgumentError("donations", "donations must not be negative");
      const gifts = (Array.isArray(donations) ? donations : [donations]).map(exactAmount);
      const minimum = exactAmount(rule.minimum_donation);
      let eligible = ZERO, total = ZERO;
      for (const g of gifts) { total = total.add(g); if (g.ge(minimum)) eligible = eligible.add(g); }
      const income = exactAmount(taxable_income);
      const claimable = qmin(eligible, income);
      return {
        tax_year: rules.year,
        total_donations: asNumber(roundCents(total)),
        eligible_donations: asNumber(roundCents(eligible)),
        capped_by_income: eligible.gt(income),
        rate: rateNumber(exact(rule.rate), 4),
        credit: asNumber(roundCents(claimable.mul(exact(rule.rate)))),
        minimum_donation: rule.minimum_donation,
        claim_years: rule.claim_years,
        source: rule.source,
      };
    }

    // -- PIR -----------------------------------------------------------------------------------------
    function find_prescribed_investor_rate({ taxable_income, pie_income, prior_taxable_income = null, prior_pie_income = null,
      nz_resident = true, tax_year = null }) {
      const rules = yearRules(tax_year, "pir");
      const pir = rules.section("pir");
      const fallback = exact(pir.default_rate);
      if (!nz_resident) return { tax_year: rules.year, rate: rateNumber(fallback), reason: "Non-residents use the default rate.", source: pir.source };
      if (pir.rates.some((tier) => tier.taxable_income_max == null)) {
        // A year whose limits no IRD page we hold confirms: refused, as the Python refuses it.
        throw new RulesError(`the income limits for the lower prescribed investor rates in ${rules.year} are not `
          + `confirmed on an Inland Revenue page I hold; IRD's Find my PIR tool works out your rate: ${pir.finder || pir.source}`);
      }
      const yearsChecked = [[taxable_income, pie_income]];
      if (prior_taxable_income !== null) yearsChecked.push([prior_taxable_income, prior_pie_income || 0]);
      let best = fallback;
      for (const [taxable, pie] of yearsChecked) {
        const t = exactAmount(taxable), total = exactAmount(taxable).add(exactAmount(pie));
        for (const tier of pir.rates) {
          if (t.le(exactAmount(tier.taxable_income_max)) && total.le(exactAmount(tier.total_income_max))) {
            best = qmin(best, exact(tier.rate));
            break;
          }
        }
      }
      const reason = best.eq(fallback) ? "Income is above the lower-rate thresholds in both years." : "Lowest rate that either of the last two tax years qualifies for.";
      return { tax_year: rules.year, rate: rateNumber(best), years_checked: yearsChecked.length, reason, source: pir.source };
    }

    // -- secondary tax code ----------------------------------------------------------------------------
    function choose_secondary_tax_code({ total_annual_income, student_loan = false, tax_year = null, pay_date = null }) {
      const [rules, day] = resolvePayDate(pay_date, tax_year);
      const period = rules.secondaryPeriod(day);
      const income = exactAmount(total_annual_income);
      const chosen = SECONDARY_CODES.find((c) => period.codes[c].income_to === null || income.le(exactAmount(period.codes[c].income_to)));
      const rate = exact(period.codes[chosen].rate);
      const accRate = exact(rules.section("acc_levy").rate);
      return {
        tax_year: rules.year,
        tax_code: student_loan ? `${chosen} SL` : chosen,
        rate: rateNumber(rate),
        rate_with_acc_levy: rateNumber(rate.add(accRate)),
        student_loan_rate: student_loan ? rateNumber(exact(rules.section("student_loan").rate)) : null,
        thresholds: SECONDARY_CODES.map((c) => ({ tax_code: c, income_up_to: period.codes[c].income_to, rate: rateNumber(exact(period.codes[c].rate)) })),
        source: rules.section("secondary_codes").source,
      };
    }

    // -- Working for Families and FamilyBoost (nztax.calculators.wff, nztax.calculators.familyboost) ------
    function calculate_working_for_families({ family_income, children = null, in_work = false, tax_year = null }) {
      const rules = yearRules(tax_year, "working_for_families");
      const rule = rules.section("working_for_families");
      const income = exactAmount(family_income);
      const over = qmax(ZERO, income.sub(exactAmount(rule.abatement_threshold)));
      const abatement = over.mul(exact(rule.abatement_rate));
      const result = {
        tax_year: rules.year, family_income: asNumber(roundCents(income)), abatement_threshold: rule.abatement_threshold,
        abatement_rate: rule.abatement_rate, income_over_threshold: asNumber(roundCents(over)),
        abatement: asNumber(roundCents(abatement)), source: rule.source,
      };
      if (rule.abatement_from) result.abatement_from = rule.abatement_from;
      if (!children) return result;
      result.children = children;
      if (rule.ftc_eldest_child === null || rule.ftc_eldest_child === undefined) {
        result.ftc_amounts_stated = false;
        result.note = `No IRD page this site holds states the family tax credit amounts for ${rules.year}; only the abatement is worked out.`;
        return result;
      }
      const full = exactAmount(rule.ftc_eldest_child).add(new Q(BigInt(children - 1)).mul(exactAmount(rule.ftc_each_other_child)));
      const ftc = qmax(ZERO, full.sub(abatement));
      result.full_credit = asNumber(roundCents(full));
      result.credit_after_abatement = asNumber(roundCents(ftc));
      const iw = rules.data.in_work_tax_credit;
      if (in_work && iw) {
        let iwFull = ZERO;
        for (const p of iw.periods) {
          const amount = exactAmount(p.up_to_three_children).add(new Q(BigInt(Math.max(children - 3, 0))).mul(exactAmount(p.each_child_after_third)));
          iwFull = iwFull.add(amount.mul(new Q(BigInt(dayNumber(p.to) - dayNumber(p.from) + 1), BigInt(rules.days))));
        }
        const leftOver = qmax(ZERO, abatement.sub(full));
        const iwtc = qmax(ZERO, iwFull.sub(leftOver));
        Object.assign(result, { in_work_full: asNumber(roundCents(iwFull)), in_work_after_abatement: asNumber(roundCents(iwtc)),
          total: asNumber(roundCents(ftc.add(iwtc))), in_work_source: iw.source });
      }
      return result;
    }

    function quarterOf(iso) {
      const y = parseInt(iso.slice(0, 4), 10), firstMonth = 3 * Math.floor((parseInt(iso.slice(5, 7), 10) - 1) / 3) + 1;
      const lastDay = new Date(Date.UTC(y, firstMonth + 2, 0)).getUTCDate();
      const pad = (n) => String(n).padStart(2, "0");
      return [`${y}-${pad(firstMonth)}-01`, `${y}-${pad(firstMonth + 2)}-${pad(lastDay)}`];
    }
    function calculate_familyboost({ ece_fees, household_income, quarter = null }) {
      const day = parseDate(quarter, "quarter") || todayIso;
      const [first, last] = quarterOf(day);
      let rules;
      try { rules = getYear(taxYearFor(first)); } catch (exc) {
        if (exc instanceof RulesError) throw new ToolArgumentError("quarter", exc.message);
        throw exc;
      }
      const section = rules.data.familyboost;
      const period = section ? section.periods.find((p) => p.from <= first && first <= p.to) : undefined;
      if (!period) throw new ToolArgumentError("quarter", `FamilyBoost does not cover the quarter starting ${fmtLongDate(first)} (it began on 1 July 2024)`);
      const fees = exactAmount(ece_fees), income = exactAmount(household_income);
      const share = fees.mul(exact(period.rate));
      const over = qmax(ZERO, income.sub(exactAmount(period.abatement_threshold)));
      let cap = qmax(ZERO, exactAmount(period.quarterly_max).sub(over.mul(exact(period.abatement_rate))));
      if (income.ge(exactAmount(period.income_limit))) cap = ZERO;
      return {
        quarter_start: first, quarter_end: last, tax_year: rules.year, settings_from: period.from,
        ece_fees: asNumber(roundCents(fees)), household_income: asNumber(roundCents(income)),
        rate: period.rate, share_of_fees: asNumber(roundCents(share)), quarterly_max: period.quarterly_max,
        abatement_threshold: period.abatement_threshold, abatement_rate: period.abatement_rate, income_limit: period.income_limit,
        reduced_max: asNumber(roundCents(cap)), payment: asNumber(roundCents(qmin(share, cap))), source: section.source,
      };
    }

    const TOOLS = {
      calculate_income_tax, calculate_paye, calculate_acc_levy, calculate_student_loan_repayment, calculate_ietc,
      calculate_kiwisaver, calculate_take_home_pay, calculate_donation_tax_credit, find_prescribed_investor_rate,
      choose_secondary_tax_code, calculate_working_for_families, calculate_familyboost,
    };
    // Calculators in other files (calculators_pay.js) get the same exact-money helpers and tools.
    const kit = { Q, ZERO, qmax, qmin, qfloor, exact, exactAmount, truncateCents, roundCents, cents, asNumber, rateNumber, toDouble,
      roundFloat, fmtCommas2, fmtG, dayNumber, ToolArgumentError, PERIODS_PER_YEAR, PRIMARY_CODES, yearRules, parseFrequency,
      parseTaxCode, resolvePayDate, asRate, taxOnBands, marginalRate, loanDeductionForPay, tools: TOOLS };
    for (const extension of EXTENSIONS) Object.assign(TOOLS, extension(kit));

    /** Like nztax.tools.call_tool: never throws; problems come back as {"error": {...}}. */
    function callTool(name, args) {
      const fn = TOOLS[name];
      if (!fn) return { error: { code: "unknown_tool", message: `unknown tool '${name}'` } };
      try {
        return fn(Object.assign({}, args));
      } catch (exc) {
        if (exc instanceof ToolArgumentError) return { error: { code: "invalid_argument", argument: exc.argument, message: `${exc.argument}: ${exc.toolMessage}` } };
        if (exc instanceof RulesError) return { error: { code: "rules_unavailable", message: exc.message } };
        return { error: { code: "tool_failed", message: `${name} failed: ${exc && exc.message}` } };
      }
    }

    return { callTool, tools: TOOLS, years: Object.keys(years).sort(), yearRules: (y) => getYear(y), today: todayIso, taxYearFor };
  }


  return { makeCalculators, extend };
});
