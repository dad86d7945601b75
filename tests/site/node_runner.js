// Runs site_src/javascripts/calculators.js (which requires the kit, the ports and the pay tools) under node for the parity test.
// stdin: {"calculators_js": path, "rules": {...rules.json...}, "cases": [{"id", "tool", "args", "today"}]}
// stdout: [{"id", "result"}] in input order.
"use strict";
const fs = require("fs");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const core = require(input.calculators_js);
const byToday = new Map();
const out = input.cases.map((c) => {
  if (!byToday.has(c.today)) byToday.set(c.today, core.makeCalculators(input.rules, c.today));
  return { id: c.id, result: byToday.get(c.today).callTool(c.tool, c.args) };
});
process.stdout.write(JSON.stringify(out));
