"""LLM mode: the model reads the question, the engine decides and computes, the model writes the prose.

In: the engine, the intent reading's proposal and the offline decision (`Engine.understand`), the
history, the current tax year and the question's vector. Out: `Outcome` — the answer, or no answer and
why (the model failed, timed out, gave an unusable reply, or the guard took its figures): then the
engine serves the offline answer, which is the safety net, not a gate.

    outcome = answer(engine, proposal, offline, history, current, vector, question)

Steps: (1) a refusal stays a refusal (the model's reading cannot overturn it); (2) the model fills the
question frame (llm_reader.py); (3) the decision table settles the proposal on that frame, as offline;
(4) a decline the model's reading agrees with is fixed copy; a calculation is run by the engine and its
results are handed to the model as tool results already made; everything else (a fact, a topic, a
question the offline reading would ask back about) goes to the model's tool loop; (5) the model's JSON
is composed and the figure guard checks every figure. A `scripted:` model reads only: the engine
writes the answer offline from the model's frame.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from nztax import composer, guard, llm, llm_reader, prompts
from nztax.contract import AskResult, Citation, ToolCall
from nztax.llm import ExecutedCall
from nztax.rules import today
from nztax.slots import read_slots
from nztax.tools import TOOLS, call_tool, tool_definitions
from nztax.retrieval import NOTHING_RELEVANT

log = logging.getLogger("nztax.llm_answer")

# Tools whose figures are annual approximations of per-pay deductions.
APPROXIMATE_TOOLS = frozenset({"calculate_take_home_pay", "calculate_student_loan_repayment"})
# History turns given to the model (the API accepts at most 5).
LLM_HISTORY_TURNS = 3


@dataclass
class Outcome:
    result: AskResult | None
    reason: str | None = None                       # why the offline answer is served instead
    usage: dict = field(default_factory=dict)
    guard_removed: list[str] = field(default_factory=list)
    decision: Any = None                            # the decision the model's reading settled on


@dataclass
class _Sources:
    """Passages shown to the model, numbered so it can say which it used."""

    hits: dict[int, Any] = field(default_factory=dict)

    def add(self, hit) -> int:
        for sid, known in self.hits.items():
            if known.parent_id == hit.parent_id:
                return sid
        sid = len(self.hits) + 1
        self.hits[sid] = hit
        return sid


def _merge(usage: dict, more: dict) -> dict:
    out = dict(usage)
    for key, value in more.items():
        out[key] = round(out.get(key, 0) + value, 6) if isinstance(value, (int, float)) else value
    return out


def _with_models_year(engine, proposal, frame, question: str, history: list[dict]):
    """The proposal made again for the year the model read, when the year grammar read none (the
    request's year and a follow-up's year stand): as offline, the frame's year is the calculation's."""
    if frame.tax_year is None or proposal.tax_year_source != "default" or frame.tax_year == proposal.tax_year:
        return proposal
    again, _ = engine._propose(question, history, frame.tax_year)
    slots = replace(again.slots, tax_year=frame.tax_year, year_text=frame.year_text)
    return replace(again, tax_year_source="question", slots=slots)


def answer(engine, proposal, offline, history: list[dict], current: str, vector=None, question: str | None = None) -> Outcome:
    if offline.action == "refuse":
        return Outcome(composer.refuse(offline), decision=offline)
    started = time.perf_counter()
    try:
        # (A follow-up's own turn is read, with its own slots: as the offline frame is.)
        slots = read_slots(proposal.asked, engine.rules) if proposal.used_history else proposal.slots
        reading = llm_reader.read(engine.settings, proposal.asked, slots, engine.rules.years)
    except llm.LlmError as exc:
        log.warning(json.dumps({"event": "llm_fallback", "step": "read", "reason": exc.kind, "detail": str(exc)[:300]}))
        return Outcome(None, exc.kind, exc.usage)
    proposal = _with_models_year(engine, proposal, reading.frame, question or proposal.asked, history)
    decision = engine.settle(proposal, reading.frame, history)
    if reading.dropped and decision.trace is not None:
        decision.trace.notes.append("dropped from the model's reading: " + "; ".join(f"{d['text']} ({d['why']})" for d in reading.dropped))
    usage = reading.usage
    if engine.settings.llm_model.startswith(llm_reader.SCRIPTED):
        result = engine.answer_decision(decision, current, vector)
        result.mode = "llm"
    elif decision.action == "refuse":
        result = composer.refuse(decision)
    elif decision.action == "decline" and reading.frame.scope != "nz_tax":
        result = composer.decline(decision, current)
    else:
        outcome = _write(engine, decision, history, current, vector)
        outcome.usage = _merge(usage, outcome.usage)
        outcome.usage["seconds"] = round(time.perf_counter() - started, 3)
        if outcome.result is not None:
            outcome.result.usage = outcome.usage
        outcome.decision = decision
        return outcome
    usage["seconds"] = round(time.perf_counter() - started, 3)
    result.usage = usage
    return Outcome(result, usage=usage, decision=decision)


def _engine_calls(engine, decision) -> list:
    """The calculations the engine runs itself on the model's reading (none when the year is unknown)."""
    if decision.action != "calculate" or not decision.known_year:
        return []
    return [ExecutedCall(name, dict(args), call_tool(name, args)) for name, args in decision.calls]


def _messages(engine, decision, history, current: str, sources: _Sources, vector, made: list) -> list[dict]:
    query = decision.question
    if decision.used_history and history:
        query = f"{history[-1].get('question', '')} {decision.question}"
    for hit in engine.search(query, decision.tax_year, query_vector=vector):
        sources.add(hit)
    blocks = [prompts.passage_block(sid, h.title, h.url, h.source_type, h.section, h.tax_year, h.text)
              for sid, h in sources.hits.items()]
    year_rules = engine.rules.years.get(current)
    start = year_rules.start if year_rules else today()
    end = year_rules.end if year_rules else today()
    messages = [{"role": "system", "content": prompts.system_prompt(today(), current, start, end, engine.rules.years)}]
    for turn in history[-LLM_HISTORY_TURNS:]:
        messages.append({"role": "user", "content": str(turn.get("question", ""))})
        messages.append({"role": "assistant", "content": str(turn.get("answer", ""))})
    messages.append({"role": "user", "content": prompts.context_message(blocks)})
    question = decision.question
    if decision.tax_year_source == "request":
        question = f"{question}\n\n(Tax year selected by the user: {decision.tax_year})"
    messages.append({"role": "user", "content": question})
    if made:
        # The engine's own calculations on the question as read, shown as calls already made: the
        # model writes around these figures (and may call more tools).
        calls = [{"id": f"engine_{i}", "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                 for i, c in enumerate(made, 1)]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        messages += [{"role": "tool", "tool_call_id": f"engine_{i}", "name": c.name, "content": prompts.tool_result_content(c.result)}
                     for i, c in enumerate(made, 1)]
    return messages


def _write(engine, decision, history, current, vector) -> Outcome:
    """The model's answer around the engine's figures, or no answer and why."""
    sources = _Sources()
    made = _engine_calls(engine, decision)
    messages = _messages(engine, decision, history, current, sources, vector, made)

    def execute(name: str, arguments: dict) -> dict:
        if name == "search_tax_documents":
            return _search_tool(engine, arguments, sources)

        return call_tool(name, arguments)

    try:
        reply = llm.run_tool_loop(engine.settings, messages, tool_definitions(), execute)
    except llm.LlmError as exc:
        log.warning(json.dumps({"event": "llm_fallback", "step": "write", "reason": exc.kind, "detail": str(exc)[:300]}))
        return Outcome(None, exc.kind, exc.usage)
    usage = {**reply.usage, "hops": reply.hops}
    final = reply.final
    executed = [*made, *reply.calls]
    tools = [ToolCall(name=c.name, arguments=c.arguments, result=c.result) for c in executed]
    if final.status == "out_of_scope":
        result = composer.decline(decision, current)
    elif final.status == "refused":
        result = composer.refuse(decision)
    else:
        citations: list[Citation] = []
        for call in executed:
            src = call.result.get("source") if isinstance(call.result, dict) else None
            if isinstance(src, str) and src.startswith("https://"):
                citations.append(Citation(title=engine.titles.get(src, "Inland Revenue"), url=src))
        used = [sources.hits[i] for i in final.sources if i in sources.hits]
        citations += [composer.passage_citation(h) for h in used]
        approximate = any(c.name in APPROXIMATE_TOOLS for c in executed)
        result = AskResult(
            status=final.status, answer=final.answer.strip(), citations=composer.dedupe(citations), tools=tools,
            tax_year=decision.tax_year,
            disclaimer=composer.disclaimer_for(decision, current, approximation=approximate, rules=engine.rules),
            next_actions=final.next_actions[: composer.MAX_NEXT_ACTIONS], mode="llm",
        )
        result = engine._guarded(result, decision, passages=used)
        if not guard.substantive(result.answer.replace(guard.REMOVED_NOTE, "")) or _mostly_removed(result):
            log.warning(json.dumps({"event": "guard_downgrade", "removed": result.guard_removed}))
            return Outcome(None, "guard", usage, result.guard_removed)
    result.mode = "llm"
    result.usage = usage
    if not result.tools:
        result.tools = tools
    return Outcome(result, usage=usage)


def _mostly_removed(result: AskResult) -> bool:
    # An answer that lost its every figure would be hollow: the offline answer is better.
    kept = guard.find_figures(result.answer)
    return bool(result.guard_removed) and not kept


def _search_tool(engine, arguments: dict, sources: _Sources) -> dict:
    tool = TOOLS["search_tax_documents"]
    try:
        args = tool.arguments_model.model_validate(arguments)
    except ValidationError as exc:
        first = exc.errors()[0]
        argument = str(first["loc"][0]) if first["loc"] else None
        return {"error": {"code": "invalid_argument", "argument": argument, "message": f"{argument}: {first['msg']}"}}
    hits = engine.search(args.query, args.tax_year_filter, k=args.k, source_type=args.source_type_filter)
    results = []
    for hit in hits:
        sid = sources.add(hit)
        results.append({"source_id": sid, **hit.to_json()})
    out: dict[str, Any] = {"query": args.query, "results": results}
    if not hits:

        out["message"] = NOTHING_RELEVANT
    return out
