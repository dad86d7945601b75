/* nztax calculators in the browser, part four: the entry point and the calculator forms.
 *
 * In: the kit and calculator ports (calculators_money.js, calculators_tools.js, with the tools
 * calculators_pay.js adds), the rules data emitted at build time (calculators/data/rules.js, the
 * same per-year YAML the Python calculators read) and the values typed into a calculator form.
 * Out: window.NZTaxCalc (under node `module.exports`: makeCalculators, readAmount and the exact-
 * money helpers the tests use; tests/site/test_calculator_parity.py runs it against the Python
 * calculators), and every <form data-calc="..."> on a calculator page bound, re-run on every
 * instant navigation: inputs come from and go to the address (one history entry per committed
 * change, restored on Back), a result is removed the moment an input changes and shown again only
 * when computed from the inputs as they are, and a field the browser cannot read gets a message and
 * no result. Loads last of the four, right after the form.
 */
(function (root) {
  "use strict";

  // The kit and the calculator ports: required under node; in the browser calculators_money.js and
  // calculators_tools.js have loaded before this file.
  const node = typeof module !== "undefined" && module.exports;
  const parts = node
    ? { money: require("./calculators_money.js"), tools: require("./calculators_tools.js") }
    : root.NZTaxCalcParts;
  const { Q, parseDecimal, exact, limitDenominator, toDouble, roundFloat, taxYearFor, PERIODS_PER_YEAR, readAmount } = parts.money;
  const { makeCalculators, extend } = parts.tools;

  const core = { makeCalculators, taxYearFor, Q, parseDecimal, exact, limitDenominator, toDouble, roundFloat, readAmount, extend };

  if (node) {
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
    for (const a of doc.querySelectorAll("a[href*='#']")) followLink(a);
  }

  function followLink(a) {
    let url;
    try { url = new URL(a.href); } catch (e) { return; }
    if (url.origin === root.location.origin && url.pathname === root.location.pathname && url.hash) {
      a.href = `${root.location.pathname}${root.location.search}${url.hash}`;
    }
  }

  /** A link to a place on this page (the skip link, a heading's anchor) moves the focus there
   * itself, as a skip link should: left to the browser and the theme, a page still redrawing under
   * load lost that place, and the next Tab started again from the top of the page. */
  function moveToPlace(a, event) {
    let url;
    try { url = new URL(a.href); } catch (e) { return; }
    const here = root.location;
    if (url.origin !== here.origin || url.pathname !== here.pathname || url.search !== here.search) return;
    const target = url.hash.length > 1 ? root.document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
    if (!target) return;
    event.preventDefault();
    event.stopPropagation();
    if (here.hash !== url.hash && root.history && root.history.pushState) {
      root.history.pushState(root.history.state, "", `${here.pathname}${here.search}${url.hash}`);
    }
    if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.setAttribute("tabindex", "-1");
    target.focus();
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
    // The theme can resolve the page's links again after the first result wrote its inputs into the
    // address (its bundle loads after the form); a link to a place on this page followed then would
    // reload the page without them and drop the keyboard's place. So such a link follows the address
    // as it is when it is followed.
    root.document.addEventListener("click", (event) => {
      const a = event.target && event.target.closest ? event.target.closest("a[href*='#']") : null;
      if (!a || !root.document.querySelector("form.nz-calc[data-bound]")) return;
      followLink(a);
      moveToPlace(a, event);
    }, true);
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
