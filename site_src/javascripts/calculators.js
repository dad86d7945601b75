/* nztax calculators in the browser.
 *
 * In: the rules data emitted at build time (calculators/data/rules.js or rules.json, the same per-year YAML the
 * Python calculators read) and the values typed into a calculator form. Out: the same JSON results
 * as nztax.tools.call_tool, to the cent: every amount is an exact BigInt rational, and IRD's
 * truncation and rounding steps are applied at the same points as function/nztax/calculators/*.py.
 * tests/site/test_calculator_parity.py runs this file under node against the Python calculators.
 *
 * The first half is the pure calculator core (no DOM; `module.exports` under node). The second half
 * binds <form data-calc="..."> elements on calculator pages, re-run on every instant navigation:
 * inputs come from and go to the address (one history entry per committed change, restored on
 * Back), a result is removed the moment an input changes and shown again only when computed from
 * the inputs as they are, and a field the browser cannot read gets a message and no result.
 */
(function (root) {
  "use strict";

  // ---------------------------------------------------------------------------------------------
  // Exact rationals.

  function babs(a) { return a < 0n ? -a : a; }
  function gcd(a, b) { a = babs(a); b = babs(b); while (b) { const t = a % b; a = b; b = t; } return a; }

  class Q {
    constructor(n, d) {
      n = BigInt(n); d = d === undefined ? 1n : BigInt(d);
      if (d === 0n) throw new Error("division by zero");
      if (d < 0n) { n = -n; d = -d; }
      const g = gcd(n, d) || 1n;
      this.n = n / g; this.d = d / g;
    }
    static of(x) { return x instanceof Q ? x : new Q(BigInt(x)); }
    add(o) { o = Q.of(o); return new Q(this.n * o.d + o.n * this.d, this.d * o.d); }
    sub(o) { o = Q.of(o); return new Q(this.n * o.d - o.n * this.d, this.d * o.d); }
    mul(o) { o = Q.of(o); return new Q(this.n * o.n, this.d * o.d); }
    div(o) { o = Q.of(o); return new Q(this.n * o.d, this.d * o.n); }
    cmp(o) { o = Q.of(o); const l = this.n * o.d, r = o.n * this.d; return l < r ? -1 : l > r ? 1 : 0; }
    lt(o) { return this.cmp(o) < 0; }
    le(o) { return this.cmp(o) <= 0; }
    gt(o) { return this.cmp(o) > 0; }
    ge(o) { return this.cmp(o) >= 0; }
    eq(o) { return this.cmp(o) === 0; }
    isZero() { return this.n === 0n; }
    abs() { return new Q(babs(this.n), this.d); }
  }
  const ZERO = new Q(0n);

  function qmax(a, b) { return a.ge(b) ? a : b; }
  function qmin(a, b) { return a.le(b) ? a : b; }
  function floorDiv(n, d) { const q = n / d; return (n % d !== 0n && (n < 0n) !== (d < 0n)) ? q - 1n : q; }
  function qfloor(q) { return floorDiv(q.n, q.d); }
  function qtrunc(q) { return q.n / q.d; }

  /** A decimal text ("500.99", "-1.5e-7") as an exact rational. */
  function parseDecimal(text) {
    const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(String(text));
    if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) throw new Error("not a number: " + text);
    const digits = (m[2] || "") + (m[3] || "");
    let exp = (m[4] ? parseInt(m[4], 10) : 0) - (m[3] ? m[3].length : 0);
    let n = BigInt(digits === "" ? "0" : digits);
    if (m[1] === "-") n = -n;
    return exp >= 0 ? new Q(n * 10n ** BigInt(exp)) : new Q(n, 10n ** BigInt(-exp));
  }

  /** Python's Fraction.limit_denominator, step for step. */
  function limitDenominator(q, maxDen) {
    maxDen = BigInt(maxDen);
    if (q.d <= maxDen) return q;
    let p0 = 0n, q0 = 1n, p1 = 1n, q1 = 0n, n = q.n, d = q.d;
    for (;;) {
      const a = floorDiv(n, d);
      const q2 = q0 + a * q1;
      if (q2 > maxDen) break;
      [p0, q0, p1, q1] = [p1, q1, p0 + a * p1, q2];
      [n, d] = [d, n - a * d];
    }
    const k = floorDiv(maxDen - q0, q1);
    const bound1 = new Q(p0 + k * p1, q0 + k * q1);
    const bound2 = new Q(p1, q1);
    return bound2.sub(q).abs().le(bound1.sub(q).abs()) ? bound2 : bound1;
  }

  /** nztax.rules.exact: a YAML/JSON rate through its shortest decimal text, denominators <= 10^6. */
  function exact(value) { return limitDenominator(parseDecimal(String(value)), 1000000n); }
  /** nztax.calculators.money.exact_amount: a money amount through its decimal text. */
  function exactAmount(value) { return value instanceof Q ? value : parseDecimal(String(value)); }

  // Money results are BigInt cents.
  function truncateCents(q) { return qtrunc(q.mul(100n)); }
  function roundCents(q) {
    const scaled = q.mul(100n);
    const cents = qfloor(scaled.abs().add(new Q(1n, 2n)));
    return scaled.n >= 0n ? cents : -cents;
  }
  function cents(c) { return new Q(c, 100n); }
  function asNumber(c) { return Number(c) / 100; }
  function roundHalfEven(q) {
    const f = qfloor(q), rest = q.sub(f);
    const c = rest.cmp(new Q(1n, 2n));
    if (c < 0) return f;
    if (c > 0) return f + 1n;
    return f % 2n === 0n ? f : f + 1n;
  }
  /** nztax.calculators.money.rate_number: a rate as a JSON number, rounded to `places`. */
  function rateNumber(rate, places) {
    const scale = 10n ** BigInt(places === undefined ? 6 : places);
    return Number(roundHalfEven(rate.mul(scale))) / Number(scale);
  }
  /** The double nearest to a non-negative rational (round half to even), like float(Fraction). */
  function toDouble(q) {
    if (q.n === 0n) return 0;
    const neg = q.n < 0n;
    let n = babs(q.n), d = q.d;
    let e = n.toString(2).length - d.toString(2).length - 54;
    let num = e >= 0 ? n : n << BigInt(-e), den = e >= 0 ? d << BigInt(e) : d;
    let m = num / den, r = num % den;
    while (m >= (1n << 54n)) { e += 1; den <<= 1n; m = num / den; r = num % den; }
    while (m < (1n << 53n)) { e -= 1; num <<= 1n; m = num / den; r = num % den; }
    // m has 54 bits: keep 53, round half to even on the dropped bit and the remainder.
    const dropped = m & 1n; m >>= 1n; e += 1;
    if (dropped && (r !== 0n || (m & 1n))) m += 1n;
    const value = Number(m) * Math.pow(2, e);
    return neg ? -value : value;
  }
  /** The exact rational value of a double. */
  function fromDouble(x) {
    if (x === 0) return ZERO;
    let e = 0, m = Math.abs(x);
    while (!Number.isInteger(m)) { m *= 2; e += 1; }
    const q = new Q(BigInt(m), 1n << BigInt(e));
    return x < 0 ? new Q(-q.n, q.d) : q;
  }
  /** Python's round(float, places): half to even on the double's exact value. */
  function roundFloat(x, places) {
    const scale = 10n ** BigInt(places);
    return Number(roundHalfEven(fromDouble(x).mul(scale))) / Number(scale);
  }

  // Python format helpers used in the calculators' text.
  function groupThousands(intText) { return intText.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function fmtCommas0(x) { return groupThousands(String(roundHalfEven(fromDouble(x)))); }
  function fmtCommas2(x) {
    const c = roundHalfEven(fromDouble(x).mul(100n)).toString().padStart(3, "0");
    return groupThousands(c.slice(0, -2)) + "." + c.slice(-2);
  }
  function fmtG(x) { return String(Number(x.toPrecision(6))); }
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December"];
  function fmtLongDate(iso) {
    return `${parseInt(iso.slice(8, 10), 10)} ${MONTHS[parseInt(iso.slice(5, 7), 10) - 1]} ${iso.slice(0, 4)}`;
  }
  function dayNumber(iso) { return Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86400000; }

  // ---------------------------------------------------------------------------------------------
  // Errors, years and shared pieces (nztax.calculators.common).

  class ToolArgumentError extends Error {
    constructor(argument, message) { super(message); this.argument = argument; this.toolMessage = message; }
  }
  class RulesError extends Error {}

  const PERIODS_PER_YEAR = { weekly: 52, fortnightly: 26, four_weekly: 13, monthly: 12 };
  const FREQUENCY_ALIASES = {
    week: "weekly", weekly: "weekly",
    fortnight: "fortnightly", fortnightly: "fortnightly", two_weekly: "fortnightly",
    four_weekly: "four_weekly", "four-weekly": "four_weekly", "4-weekly": "four_weekly", "4_weekly": "four_weekly",
    monthly: "monthly", month: "monthly",
  };
  const SECONDARY_CODES = ["SB", "S", "SH", "ST", "SA"];
  const FLAT_CODES = ["ND", "NSW", "CAE", "EDW"];
  const PRIMARY_CODES = ["M", "ME"];
  const TAX_CODES = ["M", "ME", "M SL", "ME SL", ...SECONDARY_CODES, ...SECONDARY_CODES.map((c) => c + " SL"), ...FLAT_CODES];
  const WEEKS_PER_YEAR = 52;
  const KIWISAVER_YEAR_START_MONTH = 7;

  function taxYearFor(iso) {
    const year = parseInt(iso.slice(0, 4), 10);
    const first = iso.slice(5) >= "04-01" ? year : year - 1;
    return `${first}-${String((first + 1) % 100).padStart(2, "0")}`;
  }

  /** One year's rules (the JSON form of nztax.rules.TaxYearRules). */
  class YearRules {
    constructor(year, data) { this.year = year; this.data = data; }
    get start() { return this.data.start; }
    get end() { return this.data.end; }
    get days() { return dayNumber(this.end) - dayNumber(this.start) + 1; }
    covers(iso) { return this.start <= iso && iso <= this.end; }
    section(name) {
      const value = this.data[name];
      if (value === undefined || value === null) {
        throw new RulesError(`${this.year}: ${name.replace(/_/g, " ")} figures have not been published for this year`);
      }
      return value;
    }
    periodOn(periods, iso) {
      for (const p of periods) if (p.from <= iso && iso <= p.to) return p;
      throw new RulesError(`no period covers ${iso}`);
    }
    payePeriod(iso) { return this.periodOn(this.section("paye").periods, iso); }
    ietcPeriod(iso) { return this.periodOn(this.section("ietc").periods, iso); }
    secondaryPeriod(iso) { return this.periodOn(this.section("secondary_codes").periods, iso); }
  }

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
    function calculate_ietc({ annual_income, tax_year = null, receives_working_for_families = false,
      receives_benefit = false, receives_nz_super = false }) {
      const rules = yearRules(tax_year, "ietc");
      const section = rules.section("ietc");
      const base = { tax_year: rules.year, source: section.source };
      const exclusions = [
        [receives_working_for_families, "you or your partner are entitled to Working for Families tax credits"],
        [receives_benefit, "you receive an income-tested benefit"],
        [receives_nz_super, "you receive NZ Superannuation or a veteran's pension"],
      ];
      for (const [flag, why] of exclusions) {
        if (flag) return Object.assign({}, base, { eligible: false, annual_credit: 0, reason: `Not available: ${why}.` });
      }
      const income = exactAmount(annual_income);
      let credit = ZERO;
      for (const p of section.periods) {
        const share = new Q(BigInt(dayNumber(p.to) - dayNumber(p.from) + 1), BigInt(rules.days));
        credit = credit.add(creditForPeriod(income, p).mul(share));
      }
      const annual = roundCents(credit);
      const last = section.periods[section.periods.length - 1];
      let reason;
      if (income.lt(exactAmount(last.income_from))) reason = `Income is below $${fmtCommas0(last.income_from)}, so no credit.`;
      else if (annual === 0n) reason = `Income is at or above $${fmtCommas0(last.income_to)}, so the credit has fully abated.`;
      else if (section.periods.length > 1) reason = "Part-year rules: the credit is worked out separately before and from the date the thresholds changed.";
      else if (income.gt(exactAmount(last.abatement_from))) {
        const pct = toDouble(exact(last.abatement_rate).mul(100n));
        reason = `Income is over $${fmtCommas0(last.abatement_from)}, so the credit is reduced by ${fmtG(pct)}% of each dollar over.`;
      } else reason = "Full credit.";
      return Object.assign({}, base, { eligible: annual > 0n, annual_credit: asNumber(annual), reason });
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


  // ---------------------------------------------------------------------------------------------
  // Reading what people type into an amount field: "85,000", "$85k", "85 000", "1.2m", "85.000".
  // The same rules as the engine's money reading (nztax.router.find_amounts); tests/site/
  // test_amount_reading.py runs one table of inputs through both.

  const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;
  const SCALE = { k: 1000n, thousand: 1000n, grand: 1000n, m: 1000000n, mil: 1000000n, million: 1000000n };
  const AMOUNT_TEXT = /^(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?: \d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(k|m|mil|million|thousand|grand)?$/;

  /** {value: Q} for an amount read in full, {empty: true}, or {error: "unreadable" | "negative"}. */
  function readAmount(text) {
    let t = String(text).replace(INVISIBLE, "").replace(/[\u00a0\u202f]/g, " ").trim().toLowerCase();
    if (t === "") return { empty: true };
    let negative = false;
    if (/^[-\u2212]/.test(t)) { negative = true; t = t.slice(1).trim(); }
    t = t.replace(/^(nzd|nz\$|\$)\s*/, "");
    if (/^[-\u2212]/.test(t)) { negative = true; t = t.slice(1).trim(); }
    t = t.replace(/\s*(dollars|nzd|bucks)$/, "");
    const m = AMOUNT_TEXT.exec(t);
    if (!m) return { error: "unreadable" };
    // "85.000": a dot before exactly three digits (and no suffix) groups thousands, as "85,000".
    const digits = !m[2] && /^\d{1,3}(\.\d{3})+$/.test(m[1]) ? m[1].replace(/\./g, "") : m[1].replace(/[, ]/g, "");
    let q = parseDecimal(digits);
    if (m[2]) q = q.mul(SCALE[m[2]]);
    if (negative && q.n !== 0n) return { error: "negative" };
    return { value: q };
  }

  function localIsoDate(date) {
    const pad = (n) => String(n).padStart(2, "0");
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }

  const EXTENSIONS = [];
  /** Add the tools `factory(kit)` returns to every calculator set made from now on. */
  function extend(factory) { EXTENSIONS.push(factory); }

  const core = { makeCalculators, taxYearFor, Q, parseDecimal, exact, limitDenominator, toDouble, roundFloat, readAmount, extend };

  if (typeof module !== "undefined" && module.exports) {
    extend(require("./calculators_pay.js"));
    module.exports = core;
    return;
  }
  // Instant navigation runs a calculator page's scripts again: the first copy keeps the binding.
  if (root.NZTaxCalc) return;
  root.NZTaxCalc = core;
  // calculators_pay.js loads first on a calculator page and queues its tools here.
  for (const factory of root.NZTaxCalcExtensions || []) extend(factory);

  // ---------------------------------------------------------------------------------------------
  // The calculator forms. Every value shown is set with textContent.

  const NZD = new Intl.NumberFormat("en-NZ", { style: "currency", currency: "NZD", currencyDisplay: "narrowSymbol" });
  const FORMAT = {
    money: (v) => (v === null || v === undefined ? "—" : NZD.format(v)),
    percent: (v) => (v === null || v === undefined ? "—" : `${Number((v * 100).toFixed(4))}%`),
    bool: (v) => (v ? "yes" : "no"),
    text: (v) => (v === null || v === undefined ? "—" : String(v)),
    int: (v) => (v === null || v === undefined ? "—" : String(v)),
  };
  // [result key, label, format] per tool.
  const VIEWS = {
    calculate_income_tax: [["taxable_income", "Taxable income", "money"], ["total_tax", "Income tax for the year", "money"],
      ["effective_rate", "Effective rate", "percent"], ["marginal_rate", "Marginal rate", "percent"]],
    calculate_paye: [["tax_code", "Tax code", "text"], ["gross_pay", "Gross pay", "money"], ["paye", "PAYE (includes ACC levy)", "money"],
      ["income_tax", "of which income tax", "money"], ["acc_levy", "of which ACC earners' levy", "money"], ["ietc_annual", "IETC allowed for (year)", "money"],
      ["student_loan", "Student loan", "money"], ["kiwisaver_employee", "KiwiSaver (employee)", "money"], ["net_pay", "Net pay", "money"],
      ["annualised_earnings", "Annualised earnings", "money"], ["combined_rate", "Rate including ACC levy", "percent"], ["rates_basis", "Rates used", "text"]],
    calculate_take_home_pay: [["annual_salary", "Salary", "money"], ["tax_code", "Tax code", "text"], ["income_tax", "Income tax", "money"],
      ["acc_levy", "ACC earners' levy", "money"], ["ietc", "IETC", "money"], ["student_loan", "Student loan", "money"],
      ["kiwisaver_employee", "KiwiSaver", "money"], ["net_pay", "Take-home pay for the year", "money"]],
    calculate_acc_levy: [["rate", "Levy rate", "percent"], ["liable_income", "Liable earnings", "money"], ["max_liable_earnings", "Maximum liable earnings", "money"],
      ["annual_levy", "Levy for the year", "money"], ["capped", "At the maximum", "bool"]],
    calculate_student_loan_repayment: [["threshold", "Repayment threshold", "money"], ["rate", "Repayment rate", "percent"],
      ["income_over_threshold", "Income over the threshold", "money"], ["annual_repayment", "Repayment for the year", "money"],
      ["gross_pay", "Gross pay for one pay", "money"], ["period_threshold", "Pay-period threshold", "money"],
      ["deduction_per_pay", "Deduction from one pay", "money"]],
    calculate_ietc: [["eligible", "Eligible", "bool"], ["annual_credit", "Credit for the year", "money"], ["reason", "Why", "text"]],
    calculate_kiwisaver: [["employee_rate", "Employee rate", "percent"], ["employee_contribution", "Employee contribution", "money"],
      ["employer_rate", "Employer rate", "percent"], ["employer_contribution", "Employer contribution (gross)", "money"],
      ["esct_threshold_income", "ESCT threshold amount", "money"], ["esct_rate", "ESCT rate", "percent"], ["esct", "ESCT", "money"],
      ["employer_contribution_net", "Employer contribution after ESCT", "money"], ["government_contribution", "Government contribution", "money"],
      ["government_contribution_reason", "Government contribution rule", "text"]],
    calculate_donation_tax_credit: [["total_donations", "Donations", "money"], ["eligible_donations", "Eligible donations", "money"],
      ["rate", "Credit rate", "percent"], ["capped_by_income", "Limited by income", "bool"], ["credit", "Tax credit", "money"]],
    find_prescribed_investor_rate: [["rate", "Your prescribed investor rate", "percent"], ["reason", "Why", "text"]],
    calculate_extra_pay_paye: [["extra_pay", "Extra pay", "money"], ["tax_code", "Tax code", "text"], ["annualising_rule", "Earnings annualised", "text"],
      ["annualised_income", "Annualised income", "money"], ["grossed_up_income", "With the extra pay", "money"], ["tax_rate", "Tax rate", "percent"],
      ["paye", "PAYE on the extra pay (includes ACC levy)", "money"], ["income_tax", "of which income tax", "money"], ["acc_levy", "of which ACC earners' levy", "money"],
      ["student_loan", "Student loan", "money"], ["kiwisaver_employee", "KiwiSaver (employee)", "money"], ["net_extra_pay", "You keep", "money"]],
    calculate_year_end_square_up: [["summary", "Result", "text"], ["total_income", "Income for the year", "money"], ["income_tax", "Income tax on it", "money"],
      ["ietc", "Independent earner tax credit", "money"], ["tax_due", "Tax for the year", "money"], ["tax_paid", "Tax already paid (without ACC levy)", "money"],
      ["donation_tax_credit", "Donation tax credit (claimed separately)", "money"], ["tax_to_pay_due", "Tax to pay is due", "text"]],
    choose_secondary_tax_code: [["tax_code", "Secondary tax code", "text"], ["rate", "Tax rate", "percent"],
      ["rate_with_acc_levy", "Rate including the ACC levy", "percent"], ["student_loan_rate", "Student loan deduction", "percent"]],
    calculate_working_for_families: [["abatement_threshold", "Abatement threshold", "money"], ["abatement_rate", "Abatement rate", "percent"],
      ["abatement_from", "Abatement in force from", "text"], ["abatement", "Abatement for the year", "money"],
      ["full_credit", "Full family tax credit", "money"], ["credit_after_abatement", "Family tax credit after abatement", "money"],
      ["in_work_full", "Full in-work tax credit", "money"], ["in_work_after_abatement", "In-work tax credit after abatement", "money"],
      ["total", "Total for the year", "money"], ["note", "Note", "text"]],
    calculate_familyboost: [["quarter_start", "Quarter from", "text"], ["quarter_end", "to", "text"], ["rate", "Share of ECE fees", "percent"],
      ["share_of_fees", "That share of your fees", "money"], ["quarterly_max", "Most a quarter", "money"],
      ["reduced_max", "Most after household income", "money"], ["payment", "FamilyBoost for the quarter", "money"]],
  };
  // The rows a result is announced by (the rest is in the table); a tool not listed is announced by
  // its last row.
  const HEADLINE = {
    calculate_income_tax: ["total_tax"], calculate_paye: ["paye", "net_pay"], calculate_take_home_pay: ["net_pay"],
    calculate_acc_levy: ["annual_levy"], calculate_student_loan_repayment: ["annual_repayment"], calculate_ietc: ["annual_credit"],
    calculate_kiwisaver: ["employee_contribution", "employer_contribution_net"], calculate_donation_tax_credit: ["credit"],
    find_prescribed_investor_rate: ["rate"], choose_secondary_tax_code: ["tax_code"],
  };
  const rulesCache = new Map();
  // How long typing must pause before a calculator recomputes (long enough not to flash a result
  // for "8" on the way to "85k", short enough to feel live).
  const TYPING_PAUSE_MS = 350;

  /** The form's rules: those calculators/data/rules.js set before this file ran (at hand at once, so
   * the first result is drawn before the page below the form is parsed), else data-rules fetched. */
  function loadRules(form) {
    const url = new URL(form.getAttribute("data-rules"), root.location.href).href;
    if (!rulesCache.has(url)) {
      const loaded = root.NZTaxRules;
      rulesCache.set(url, loaded ? Promise.resolve(loaded)
        : fetch(url).then((r) => { if (!r.ok) throw new Error(`rules data: HTTP ${r.status}`); return r.json(); }));
    }
    return rulesCache.get(url);
  }

  function el(doc, tag, className, text) {
    const e = doc.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** A result table with its caption, in the named, focusable box that scrolls on a narrow screen. */
  function rowsTable(doc, rows, headers, caption) {
    const box = el(doc, "div", "nz-table");
    box.setAttribute("role", "region");
    box.setAttribute("tabindex", "0");
    box.setAttribute("aria-label", caption);
    const t = box.appendChild(el(doc, "table", "nz-calc__table"));
    t.appendChild(el(doc, "caption", "nz-visually-hidden", caption));
    if (headers) {
      const tr = el(doc, "tr");
      for (const h of headers) tr.appendChild(el(doc, "th", "", h)).setAttribute("scope", "col");
      t.appendChild(el(doc, "thead")).appendChild(tr);
    }
    const body = el(doc, "tbody");
    for (const row of rows) {
      const tr = el(doc, "tr");
      row.forEach((cell, i) => {
        const c = tr.appendChild(el(doc, i === 0 ? "th" : "td", "", cell));
        if (i === 0) c.setAttribute("scope", "row");
      });
      body.appendChild(tr);
    }
    t.appendChild(body);
    return box;
  }

  function fieldLabel(input) { return input.getAttribute("data-label") || input.name; }

  /** The form's arguments, and one plain message per field it could not read (by its label). */
  function collect(form) {
    const args = {};
    const problems = [];
    for (const input of form.querySelectorAll("[name]")) {
      const type = input.getAttribute("data-type");
      const label = fieldLabel(input);
      if (type === "bool") { args[input.name] = input.checked; continue; }
      const value = input.value.trim();
      let problem = null;
      if (unreadable(input)) {
        // The browser holds text it could not turn into a value (a half-typed date reads as ""):
        // never compute as if the field were empty.
        problem = input.type === "date"
          ? `${label} isn't a whole date. Enter the day, month and year, or clear it.`
          : `${label}: what is typed here can't be read. Please check it.`;
      } else if (type === "money") {
        const read = readAmount(value);
        if (read.empty) {
          if (input.required) problem = `Enter ${label.toLowerCase()}.`;
        } else if (read.error === "negative") {
          problem = `${label} can't be negative.`;
        } else if (read.error) {
          problem = `${label}: "${value}" isn't an amount this page can read. Type it like 85000, 85,000 or $85k.`;
        } else if (maxAmount(form) !== null && read.value.gt(maxAmount(form))) {
          // The calculators' own bound (nztax.calculators.common.MAX_AMOUNT): beyond it, no figure.
          problem = `${label} is more than this calculator works with (up to ${NZD.format(toDouble(maxAmount(form)))}).`;
        } else {
          args[input.name] = toDouble(read.value);
        }
        showReading(input, read);
      } else if (value === "") {
        if (input.required) problem = `Enter ${label.toLowerCase()}.`;
      } else if (type === "number") {
        if (!/^\d+(\.\d+)?$/.test(value)) problem = `${label}: "${value}" isn't a number this page can read.`;
        else args[input.name] = Number(value);
      } else args[input.name] = value;
      setFieldProblem(input, problem);
      if (problem) problems.push(problem);
    }
    return { args, problems };
  }

  /** The largest amount the calculators take (data-max-amount, written at build time), or null. */
  function maxAmount(form) {
    const text = form.getAttribute("data-max-amount");
    return text ? parseDecimal(text) : null;
  }

  /** One line when a pay is far more than is usual for its period ("$85k" a fortnight is a year's
   * salary, most likely): the figure is still worked out, as the reader may mean it. */
  function payHint(form, args) {
    let limits = {};
    try { limits = JSON.parse(form.getAttribute("data-plausible-pay") || "{}"); } catch (e) { limits = {}; }
    const pay = args.gross_pay;
    const frequency = args.pay_frequency;
    const limit = limits[frequency];
    if (typeof pay !== "number" || typeof limit !== "number" || pay <= limit) return "";
    const periods = PERIODS_PER_YEAR[frequency];
    const yearly = periods ? ` (${NZD.format(pay * periods)} a year)` : "";
    return `${NZD.format(pay)} is a lot for one ${frequency.replace("_", "-")} pay${yearly}. If that is a year's pay, choose its pay frequency and enter one pay, or use the take-home pay calculator.`;
  }

  /** Whether the browser reports the field's text as unreadable (validity.badInput). */
  function unreadable(input) { return Boolean(input.validity && input.validity.badInput); }

  /** Next to an amount field: the amount understood, so "$85k" visibly becomes $85,000.00. */
  function showReading(input, read) {
    const out = input.parentElement.querySelector(".nz-field__reading");
    if (!out) return;
    out.textContent = read.value !== undefined ? `= ${NZD.format(toDouble(read.value))}` : "";
  }

  function setFieldProblem(input, problem) {
    let box = input.parentElement.querySelector(".nz-field__error");
    if (!box && problem) {
      box = el(input.ownerDocument, "small", "nz-field__error");
      box.id = `${input.id}-error`;
      input.parentElement.appendChild(box);
      input.setAttribute("aria-describedby", `${input.getAttribute("aria-describedby") || ""} ${box.id}`.trim());
    }
    if (box) box.textContent = problem || "";
    if (problem) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }

  /** A calculator's own message with its argument names replaced by the labels on the page. */
  function plainMessage(form, error) {
    let message = String(error.message || "");
    if (error.argument && message.startsWith(`${error.argument}: `)) message = message.slice(error.argument.length + 2);
    for (const input of form.querySelectorAll("[name]")) {
      // "pay_date" or "pay date" in a calculator's message becomes the label the reader sees.
      const spelled = input.name.split("_").join("[_ ]");
      message = message.replace(new RegExp(`\\b${spelled}\\b`, "gi"), fieldLabel(input));
    }
    return message.replace(/_/g, " ");
  }

  function showResult(form, doc, tool, result) {
    const out = form.querySelector(".nz-calc__result");
    out.replaceChildren();
    if (result.error) {
      const message = plainMessage(form, result.error);
      out.appendChild(el(doc, "p", "nz-calc__error", message));
      return message;
    }
    if (result.tax_year) out.appendChild(el(doc, "span", "nz-badge", `Tax year ${result.tax_year}`));
    const rows = (VIEWS[tool] || []).filter(([key]) => key in result && result[key] !== null).map(([key, label, fmt]) => [label, FORMAT[fmt](result[key])]);
    out.appendChild(rowsTable(doc, rows, undefined, "Result"));
    if (tool === "calculate_income_tax" && result.breakdown.length) {
      out.appendChild(el(doc, "h3", "", "Tax in each band"));
      out.appendChild(rowsTable(doc, result.breakdown.map((b) => [
        `${FORMAT.percent(b.rate)} on ${FORMAT.money(b.band_from)} – ${b.band_to === null ? "and over" : FORMAT.money(b.band_to)}`,
        FORMAT.money(b.income_in_band), FORMAT.money(b.tax)]), ["Band", "Income in band", "Tax"], "Tax in each band"));
    }
    if (tool === "calculate_take_home_pay") {
      const p = result.per_pay;
      out.appendChild(el(doc, "h3", "", `One ${p.pay_frequency.replace("_", "-")} pay (PAYE method)`));
      out.appendChild(rowsTable(doc, [["Gross pay", FORMAT.money(p.gross_pay)], ["PAYE", FORMAT.money(p.paye)], ["Student loan", FORMAT.money(p.student_loan)],
        ["KiwiSaver", FORMAT.money(p.kiwisaver_employee)], ["Net pay", FORMAT.money(p.net_pay)]], undefined, "One pay"));
    }
    if (result.year_end) {
      const y = result.year_end;
      out.appendChild(el(doc, "h4", "", "At the end of the year (estimate)"));
      out.appendChild(rowsTable(doc, [["Income tax the extra pay adds to the year", FORMAT.money(y.income_tax_due_on_extra_pay)],
        ["Income tax taken from it", FORMAT.money(y.income_tax_withheld)], ["Taken beyond the year's tax (back in the square-up)", FORMAT.money(y.over_withheld)]], undefined, "At the end of the year"));
    }
    if (Array.isArray(result.sources) && result.sources.length) {
      out.appendChild(el(doc, "h4", "", "Source by source"));
      out.appendChild(rowsTable(doc, result.sources.map((s) => [s.source, FORMAT.money(s.income), FORMAT.money(s.tax_paid), FORMAT.money(s.tax_due), FORMAT.money(s.difference)]),
        ["Source", "Income", "Tax taken", "Tax due on it", "Taken more (+) or less (−)"], "Source by source"));
    }
    for (const key of ["why", "notes"]) {
      if (Array.isArray(result[key]) && result[key].length) {
        const list = el(doc, "ul", "nz-calc__" + key);
        for (const line of result[key]) list.appendChild(el(doc, "li", "", line));
        out.appendChild(list);
      }
    }
    if (result.student_loan && result.student_loan.has_loan) out.appendChild(el(doc, "p", "nz-calc__loan", result.student_loan.reason));
    if (tool === "choose_secondary_tax_code") {
      out.appendChild(rowsTable(doc, result.thresholds.map((t) => [t.tax_code, t.income_up_to === null ? "above" : `up to ${FORMAT.money(t.income_up_to)}`, FORMAT.percent(t.rate)]),
        ["Code", "Total income", "Rate"], "Secondary codes"));
    }
    if (result.source) {
      const p = el(doc, "p", "nz-calc__source", "Source: ");
      const a = el(doc, "a", "nz-calc__source-link", sourceTitle(form, result.source));
      a.href = result.source;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      p.appendChild(a);
      out.appendChild(p);
    }
    return summary(tool, result, rows);
  }

  /** The one line a screen reader hears for a result: its headline rows, not the whole table. */
  function summary(tool, result, rows) {
    const keys = HEADLINE[tool];
    const views = VIEWS[tool] || [];
    const picked = keys ? views.filter(([key]) => keys.includes(key) && key in result && result[key] !== null)
      .map(([key, label, fmt]) => [label, FORMAT[fmt](result[key])]) : rows.slice(-1);
    return picked.map(([label, value]) => `${label}: ${value}`).join("; ");
  }

  /** A source's title from the page (data-source-titles, written at build time from the rules data);
   * failing that, the site's name, never a raw address cut mid-word. */
  function sourceTitle(form, url) {
    let titles = {};
    try { titles = JSON.parse(form.getAttribute("data-source-titles") || "{}"); } catch (e) { titles = {}; }
    if (typeof titles[url] === "string" && titles[url]) return titles[url];
    try { return new URL(url).hostname.replace(/^www\./, ""); } catch (e) { return "the source page"; }
  }

  function compareYears(calcs, args) {
    const base = { annual_salary: args.annual_salary, tax_code: args.tax_code, student_loan: args.student_loan,
      kiwisaver_rate: args.kiwisaver_rate === undefined ? null : args.kiwisaver_rate };
    const a = calcs.callTool("calculate_take_home_pay", Object.assign({ tax_year: args.year_a }, base));
    const b = calcs.callTool("calculate_take_home_pay", Object.assign({ tax_year: args.year_b }, base));
    return [a, b];
  }

  function showComparison(form, doc, args, a, b) {
    const out = form.querySelector(".nz-calc__result");
    out.replaceChildren();
    const failed = a.error || b.error;
    if (failed) { const message = plainMessage(form, failed); out.appendChild(el(doc, "p", "nz-calc__error", message)); return message; }
    const keys = [["income_tax", "Income tax"], ["acc_levy", "ACC earners' levy"], ["ietc", "IETC"], ["student_loan", "Student loan"],
      ["kiwisaver_employee", "KiwiSaver"], ["net_pay", "Take-home pay"]];
    const rows = keys.map(([k, label]) => {
      const diff = new Q(0n).add(parseDecimal(String(b[k]))).sub(parseDecimal(String(a[k])));
      return [label, FORMAT.money(a[k]), FORMAT.money(b[k]), FORMAT.money(Number(diff.n) / Number(diff.d))];
    });
    out.appendChild(rowsTable(doc, rows, ["Item", args.year_a, args.year_b, "Difference"], `${args.year_a} and ${args.year_b}`));
    return `Take-home pay: ${FORMAT.money(a.net_pay)} in ${args.year_a}, ${FORMAT.money(b.net_pay)} in ${args.year_b}`;
  }

  /** Per form: the pending recompute and a count of input changes (a result is shown only when
   * it was computed from the inputs as they are now). */
  const formState = new WeakMap();
  function stateOf(form) {
    if (!formState.has(form)) formState.set(form, { timer: null, generation: 0 });
    return formState.get(form);
  }

  /** The inputs changed: the shown result no longer matches them, so it goes at once (its space is
   * kept so the page does not jump), until the new one is computed. */
  function clearResult(form) {
    const state = stateOf(form);
    state.generation += 1;
    const out = form.querySelector(".nz-calc__result");
    if (!out.classList.contains("nz-calc__result--pending")) {
      out.style.minHeight = `${out.offsetHeight}px`;
      out.classList.add("nz-calc__result--pending");
    }
    out.replaceChildren();
    return state.generation;
  }

  /** One polite announcement per result the reader asked for (not on page load or Back): the
   * form's status line, changed only when the line differs, so a repeat computation is silent. */
  function announce(form, how, line) {
    const status = form.querySelector(".nz-calc__status");
    if (!status || how === "load" || how === "history" || !line || status.textContent === line) return;
    status.textContent = line;
  }

  function settle(out) {
    out.classList.remove("nz-calc__result--pending");
    out.style.minHeight = "";
  }

  /**
   * Work out the result from the inputs as they are. `how` says what the address does once a
   * result is shown: "load" writes the inputs into it in place, "edit" adds a history entry when
   * they differ from it (so Back restores the earlier inputs), "history" (Back/Forward) leaves it.
   */
  function compute(form, doc, how) {
    const tool = form.getAttribute("data-calc");
    const out = form.querySelector(".nz-calc__result");
    const state = stateOf(form);
    clearTimeout(state.timer);
    const generation = clearResult(form);
    const { args, problems } = collect(form);
    if (problems.length) {
      // Never leave a result beside inputs it was not computed from. Each message is shown once,
      // at its field (and read out from there): the result area only says why it is empty.
      out.replaceChildren(el(doc, "p", "nz-calc__pending-note", "No result until the field marked above is filled in as asked."));
      settle(out);
      announce(form, how, problems.join(" "));
      return;
    }
    loadRules(form).then((rules) => {
      if (state.generation !== generation) return;  // the inputs changed since: a newer run owns the result
      const calcs = makeCalculators(rules);
      let line;
      if (tool === "compare_years") {
        const [a, b] = compareYears(calcs, args);
        line = showComparison(form, doc, args, a, b);
      } else {
        line = showResult(form, doc, tool, calcs.callTool(tool, args));
        const hint = payHint(form, args);
        if (hint) out.prepend(el(doc, "p", "nz-calc__hint", hint));
      }
      settle(out);
      announce(form, how, line);
      writeQuery(form, how);
    }).catch(() => {
      if (state.generation !== generation) return;
      out.replaceChildren(el(doc, "p", "nz-calc__error", "The rules data could not be loaded; the tables below still apply."));
      settle(out);
    });
  }

  /** Inputs from the page address (?taxable_income=85000&tax_year=2026-27): shareable links. */
  function readQuery(form) {
    const params = new URLSearchParams(root.location.search);
    const notes = [];
    for (const input of form.querySelectorAll("[name]")) {
      // The names people guess for a field (?income= on the income-tax page), from data-aliases.
      const names = [input.name, ...(input.getAttribute("data-aliases") || "").split(" ").filter(Boolean)];
      const name = names.find((n) => params.has(n));
      if (name === undefined) continue;
      const value = params.get(name);
      if (input.getAttribute("data-type") === "bool") input.checked = value === "true" || value === "1";
      else if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === value)) {
        // Not one of the choices (a year with no rules): keep the page's own, and say so.
        const shown = input.options[input.selectedIndex];
        notes.push(`${fieldLabel(input)} "${value}" isn't available here, so this shows ${shown ? shown.value || shown.text : "the default"}.`);
      } else input.value = value;
    }
    const box = form.querySelector(".nz-calc__note");
    if (box) { box.textContent = notes.join(" "); box.hidden = !notes.length; }
  }

  /** Back/Forward: the inputs exactly as the address holds them (written by writeQuery, where an
   * absent field was empty or unticked); an address without inputs restores the page's defaults. */
  function restoreQuery(form) {
    const params = new URLSearchParams(root.location.search);
    if (![...form.querySelectorAll("[name]")].some((input) => params.has(input.name))) {
      form.reset();
      return;
    }
    for (const input of form.querySelectorAll("[name]")) {
      if (input.getAttribute("data-type") === "bool") input.checked = params.get(input.name) === "true" || params.get(input.name) === "1";
      else input.value = params.has(input.name) ? params.get(input.name) : "";
    }
  }

  function queryOf(form) {
    const params = new URLSearchParams();
    for (const input of form.querySelectorAll("[name]")) {
      if (input.getAttribute("data-type") === "bool") { if (input.checked) params.set(input.name, "true"); continue; }
      // A choice of "none" (No KiwiSaver) differs from the page's default: the address keeps it.
      if (input.value.trim() !== "" || input.tagName === "SELECT") params.set(input.name, input.value.trim());
    }
    return `?${params.toString()}`;
  }

  /** The inputs of a shown result into the address: one history entry per committed change (a
   * result shown after typing pauses, a choice, Calculate), not per keystroke. */
  function writeQuery(form, how) {
    const history = root.history;
    if (how === "history" || !history || !history.replaceState) return;
    const query = queryOf(form);
    if (query === root.location.search) return;
    const url = `${root.location.pathname}${query}${root.location.hash}`;
    if (how === "edit" && history.pushState) history.pushState(null, "", url);
    else history.replaceState(history.state, "", url);
    followAddress(form.ownerDocument);
  }

  /** The theme resolves every link once, when the page loads; links to a place on this page (the
   * skip link, heading anchors, contents) would then point at the address without its inputs and
   * reload the page. They follow the address as it is now. */
  function followAddress(doc) {
    for (const a of doc.querySelectorAll("a[href*='#']")) {
      let url;
      try { url = new URL(a.href); } catch (e) { continue; }
      if (url.origin === root.location.origin && url.pathname === root.location.pathname && url.hash) {
        a.href = `${root.location.pathname}${root.location.search}${url.hash}`;
      }
    }
  }

  function bindCalculators(doc) {
    for (const form of doc.querySelectorAll("form.nz-calc")) {
      if (form.dataset.bound) continue;
      form.dataset.bound = "1";
      form.dataset.path = root.location.pathname;
      const state = stateOf(form);
      const later = () => {
        clearResult(form);
        clearTimeout(state.timer);
        state.timer = setTimeout(() => compute(form, doc, "edit"), TYPING_PAUSE_MS);
      };
      form.addEventListener("submit", (event) => { event.preventDefault(); compute(form, doc, "edit"); });
      form.addEventListener("change", () => compute(form, doc, "edit"));
      form.addEventListener("input", (event) => {
        // The amount understood follows the typing; the result waits for a pause.
        const input = event.target;
        if (input && input.getAttribute) {
          setFieldProblem(input, null);  // a message about what was typed before no longer applies
          if (input.getAttribute("data-type") === "money") showReading(input, readAmount(input.value.trim()));
        }
        later();
      });
      // A date typed in part changes nothing the page can read (its value stays ""), so no input
      // event comes: watch the keys and leaving the field for the browser's "can't read this".
      const watchUnreadable = (event) => {
        const input = event.target;
        if (!input || input.type !== "date") return;
        const bad = unreadable(input) ? "1" : "";
        if ((input.dataset.unreadable || "") === bad) return;
        input.dataset.unreadable = bad;
        later();
      };
      form.addEventListener("keyup", watchUnreadable);
      form.addEventListener("focusout", watchUnreadable);
      readQuery(form);
      compute(form, doc, "load");
    }
    // Links parsed after an early first result was written into the address follow it too.
    if (doc.querySelector("form.nz-calc[data-bound]")) followAddress(doc);
  }

  // Back and Forward between a calculator's own entries change only the query: put those inputs back.
  if (root.addEventListener) {
    root.addEventListener("popstate", () => {
      for (const form of root.document.querySelectorAll("form.nz-calc")) {
        if (!form.dataset.bound || form.dataset.path !== root.location.pathname) continue;
        restoreQuery(form);
        compute(form, root.document, "history");
      }
    });
  }

  // Instant navigation swaps the page content without reloading scripts: bind on every new page.
  // On a page's first load this file runs right after its form, before the theme's bundle: the form
  // is bound at once (its first result drawn before the rest of the page is parsed, so nothing below
  // it moves), and the theme's document$ is subscribed to once the page is parsed.
  const themeReady = () => typeof root.document$ !== "undefined" && root.document$.subscribe;
  if (root.document) {
    bindCalculators(root.document);
    if (themeReady()) root.document$.subscribe(() => bindCalculators(root.document));
    else {
      root.document.addEventListener("DOMContentLoaded", () => {
        if (themeReady()) root.document$.subscribe(() => bindCalculators(root.document));
        else bindCalculators(root.document);
      });
    }
  }
})(typeof window !== "undefined" ? window : globalThis);
