"""Bench section "LLM mode overhead (fake model)" (registered into `nztax_build.bench`).

In: the bench's freshly built index and the fake OpenAI-compatible server the tests use
(tests/engine/fake_openai.py, on 127.0.0.1, answering at once). Out: markdown lines: for a calculation,
a fact answered through one search hop and a question the offline engine would ask back about, the
answer time offline and in LLM mode (the difference is the loop's own overhead: litellm, the reading,
the prompts, the guard — the model itself costs nothing here), the model calls and hops, and the prompt
and completion tokens the requests would cost (counted with litellm's tokenizer for gpt-4o).
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import sys
import time

from nztax_build.bench import BenchContext, register

REPEATS = 5


def _cases(fake_openai):
    final, frame, tool_call = fake_openai.final, fake_openai.frame, fake_openai.tool_call
    return [
        ("calculation", "How much tax do I pay on $85,000?",
         [frame("figure", [("$85,000", 85000, "annual", "income", "me")])],
         [lambda b: final("answered", "Income tax on $85,000 is $17,927.50.")]),
        ("fact, one search hop", "How does the ACC earners' levy work?",
         [frame("how")],
         [lambda b: {"tool_calls": [tool_call("s1", "search_tax_documents", {"query": "ACC earners levy"})]},
          lambda b: final("answered", "The ACC earners' levy is taken from your pay with PAYE.", sources=[1])]),
        ("would be asked back offline", "How much tax will I pay on my salary?",
         [frame("figure")],
         [lambda b: final("answered", "New Zealand taxes income in bands; your employer deducts PAYE from each pay.")]),
    ]


def _tokens(litellm, requests: list[dict]) -> int:
    return sum(litellm.token_counter(model="gpt-4o", messages=r["messages"], tools=r.get("tools")) for r in requests)


def llm_overhead(ctx: BenchContext) -> list[str]:
    sys.path.insert(0, str(ctx.settings.home / "tests" / "engine"))
    import fake_openai

    from nztax.engine import Engine
    from nztax.llm import _litellm
    from nztax.rules import default_rules

    if not (ctx.index_dir / "manifest.json").exists():  # run alone (--only): build the index first
        from nztax_build.indexer import embed_and_index

        embed_and_index(ctx.settings, force=True, chunks_dir=ctx.chunks_dir, index_dir=ctx.index_dir)
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")  # the fake ignores it
    started = time.perf_counter()
    litellm = _litellm()
    import_s = time.perf_counter() - started
    fake = fake_openai.FakeOpenAI()
    try:
        rules, retriever = default_rules(), ctx.retriever()
        offline = Engine(rules, retriever, settings=dataclasses.replace(ctx.settings, llm_model=None))
        llm = Engine(rules, retriever, settings=dataclasses.replace(
            ctx.settings, llm_model="openai/fake", llm_api_base=fake.base_url, llm_timeout=10.0, llm_max_retries=0))
        lines = [f"Fake model on 127.0.0.1 answering at once; median of {REPEATS} answers each after one warm-up; "
                 f"importing litellm took {import_s:.1f} s (once per process, only when a model is configured).", "",
                 "| question | offline ms | LLM mode ms | overhead ms | model calls | hops | prompt tokens | completion tokens |",
                 "|---|---|---|---|---|---|---|---|"]
        for name, question, frames, script in _cases(fake_openai):
            offline.answer(question, use_faq=False)
            times_off, times_llm, usage, requests = [], [], {}, []
            for i in range(REPEATS + 1):
                t = time.perf_counter()
                offline.answer(question, use_faq=False)
                times_off.append(time.perf_counter() - t)
                fake.requests.clear()
                fake.frames[:], fake.script[:] = list(frames), list(script)
                t = time.perf_counter()
                result = llm.answer(question, use_faq=False)
                times_llm.append(time.perf_counter() - t)
                if i == 0:
                    continue  # warm-up
                usage, requests = result.usage, list(fake.requests)
            off = statistics.median(times_off[1:]) * 1000
            on = statistics.median(times_llm[1:]) * 1000
            completion = sum(litellm.token_counter(model="gpt-4o", text=f(None)["content"] or "")
                             for f in [*(lambda b, fr=fr: fr for fr in frames), *script[-1:]])
            lines.append(f"| {name} | {off:.0f} | {on:.0f} | {on - off:.0f} | {usage.get('calls', 0)} | {usage.get('hops', 0)} | "
                         f"{_tokens(litellm, requests)} | {completion} |")
        lines += ["", "Prompt tokens: the messages and tool definitions of every request of one answer (the frame "
                  "schema sent as the response format is not counted); completion tokens: the frame and the final "
                  "JSON (tool-call arguments not counted)."]
        return lines
    finally:
        fake.close()


register("LLM mode overhead (fake model)", llm_overhead, order=45)
