/* nztax calculators in the browser, part one: the exact-money kit.
 *
 * In: numbers and decimal text (rates and amounts from the rules data, what people type into an
 * amount field) and ISO dates. Out: exact BigInt rationals (Q), IRD's truncation and rounding to
 * cents, Python's number formatting, tax years and one year's rules (YearRules), the errors the
 * calculators raise, and readAmount. No DOM. Under node `module.exports` is the kit; in the browser
 * it is window.NZTaxCalcParts.money (the first copy kept on instant navigation), read by
 * calculators_tools.js and calculators.js, which load after it.
 */
(function (root, factory) {
  "use strict";
  if (typeof module !== "undefined" && module.exports) module.exports = factory();
  else {
    const parts = (root.NZTaxCalcParts = root.NZTaxCalcParts || {});
    parts.money = parts.money || factory();
  }
})(typeof window !== "undefined" ? window : globalThis, function () {
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

  return {
    Q, ZERO, qmax, qmin, qfloor, qtrunc, parseDecimal, limitDenominator, exact, exactAmount, truncateCents,
    roundCents, cents, asNumber, rateNumber, toDouble, roundFloat, fmtCommas0, fmtCommas2, fmtG, fmtLongDate,
    dayNumber, ToolArgumentError, RulesError, PERIODS_PER_YEAR, FREQUENCY_ALIASES, SECONDARY_CODES,
    FLAT_CODES, PRIMARY_CODES, TAX_CODES, WEEKS_PER_YEAR, KIWISAVER_YEAR_START_MONTH, taxYearFor, YearRules,
    localIsoDate, readAmount
  };
});
