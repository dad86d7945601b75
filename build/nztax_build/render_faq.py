"""The FAQ pages of the site (part of the "render" stage, render.py).

In: `SiteInputs` (the answered FAQ from the "faq" stage, the unit bank's topics, the manifest and
sources). Out: into `inputs.pages`, one page per answered question (its answer, worked figures from
its tool calls, tax-year badge, sources, last-checked date, related questions), one index per topic
and `faq/index.md`.
"""

from __future__ import annotations

import re

from nztax.presentation import PRESENTATION

from .render import (RELATED_COUNT, SiteInputs, answer_block, attr, front_matter, long_date, md_escape, money, percent,
                     rel, source_label, table)


# Labels and worked-figure rows come from the one tool registry (nztax.presentation.PRESENTATION).
TOOL_LABELS = {name: p.label for name, p in PRESENTATION.items()}
FIGURE_FIELDS = {name: list(p.figures) for name, p in PRESENTATION.items()}


def show(value, kind: str) -> str:
    if value is None:
        return "—"
    if kind == "money":
        return money(value)
    if kind == "money2":
        return money(value, cents=True)
    if kind == "percent":
        return percent(value)
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "frequency":
        return md_escape(str(value).replace("_", "-"))
    return md_escape(value)


def worked_figures(tools: list[dict]) -> str:
    blocks = []
    for call in tools or []:
        name, result = call.get("name"), call.get("result") or {}
        if name not in FIGURE_FIELDS or "error" in result:
            continue
        rows = [[label, show(result.get(key), kind)] for key, label, kind in FIGURE_FIELDS[name] if key in result]
        if name == "calculate_income_tax" and result.get("breakdown"):
            for band in result["breakdown"]:
                upper = money(band["band_to"]) if band.get("band_to") is not None else "and over"
                rows.append([f"{percent(band['rate'])} on {money(band['band_from'])} – {upper}", money(band["tax"], cents=True)])
        title = f"**{TOOL_LABELS.get(name, name)}**" + (f" ({md_escape(result['tax_year'])})" if result.get("tax_year") else "")
        blocks.append(title + "\n\n" + table(["", ""], rows, ["---", "--:"]))
    return "\n".join(blocks)


def _words(text: str) -> set[str]:
    stop = {"the", "a", "an", "is", "do", "i", "my", "of", "to", "for", "in", "on", "what", "how", "much", "and", "if", "can", "does", "are", "it", "me", "be"}
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in stop}


def related_questions(entry: dict, entries: list[dict], count: int = RELATED_COUNT) -> list[dict]:
    """The most similar other questions (shared words; same topic first; list order breaks ties)."""
    mine = _words(entry["question"])
    scored = []
    for i, other in enumerate(entries):
        if other is entry:
            continue
        overlap = len(mine & _words(other["question"]))
        scored.append((-(overlap + (2 if other["topic"] == entry["topic"] else 0)), i, other))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [o for _, _, o in scored[:count]]


def faq_page_path(topic: str, slug: str) -> str:
    return f"faq/{topic}/{slug}/index.md"


def last_checked(result: dict, inputs: SiteInputs) -> str | None:
    by_url = inputs.manifest_by_url
    dates = [by_url[c["url"]]["fetched_at"][:10] for c in result.get("citations") or [] if c.get("url") in by_url and by_url[c["url"]].get("fetched_at")]
    if dates:
        return max(dates)
    updated = inputs.manifest.get("updated_at")
    return updated[:10] if updated else None


def render_faq_page(entry: dict, inputs: SiteInputs, topic_titles: dict[str, str]) -> str:
    result = entry["result"]
    path = faq_page_path(entry["topic"], entry["slug"])
    year = result.get("tax_year")
    parts = [front_matter(title=entry["question"], description=_description(result.get("answer", ""))),
             f"# {md_escape(entry['question'])}\n"]
    badges = []
    if year:
        target = f"tax-years/{year}.md"
        badge = f'<span class="nz-badge">Tax year {attr(year)}</span>'
        badges.append(f"[{badge}]({rel(path, target)})" if year in inputs.rules.years else badge)
    badges.append(f'<span class="nz-badge nz-badge--topic">{attr(topic_titles.get(entry["topic"], entry["topic"]))}</span>')
    parts.append(" ".join(badges) + "\n")
    parts.append(answer_block(result.get("answer", "")))
    figures = worked_figures(result.get("tools") or [])
    if figures:
        parts.append("## Worked figures\n\n" + figures)
    citations = result.get("citations") or []
    if citations:
        from .sources_page import cite_link, evidence_by_url

        evidence = evidence_by_url(inputs.sources)
        lines = []
        for c in citations:
            section = f" — {md_escape(c['section'])}" if c.get("section") else ""
            title = c.get("title") or inputs.manifest_by_url.get(c["url"], {}).get("title")
            lines.append(f"1. {cite_link(source_label(title, c['url']), c['url'], evidence, inputs.manifest)}{section}")
        parts.append("## Sources\n\n" + "\n".join(lines) + "\n")
    checked = last_checked(result, inputs)
    if checked:
        parts.append(f'<p class="nz-meta">Sources last checked {long_date(checked)}. '
                     f'See <a href="{attr(rel(path, "sources/index.md").replace("index.md", ""))}">all sources</a>.</p>\n')
    if result.get("disclaimer"):
        parts.append('!!! note "Check your situation"\n    ' + md_escape(result["disclaimer"]).replace("\n", "\n    ") + "\n")
    related = related_questions(entry, inputs.faq)
    if related:
        links = [f"- [{md_escape(o['question'])}]({rel(path, faq_page_path(o['topic'], o['slug']))})" for o in related]
        parts.append("## Related questions\n\n" + "\n".join(links) + "\n")
    return "\n".join(parts)


def _description(answer: str) -> str:
    plain = re.sub(r"[*_`#>\[\]()|]", "", answer or "").split("\n")
    first = next((line.strip() for line in plain if line.strip()), "")
    return first[:200]


FAQ_INTRO = "Common questions about New Zealand personal income tax, answered from the current rules with sources."


def render_faq(inputs: SiteInputs) -> None:
    topic_titles = {t.slug: t.title for t in inputs.topics}
    by_topic: dict[str, list[dict]] = {t.slug: [] for t in inputs.topics}
    for entry in inputs.faq:
        by_topic.setdefault(entry["topic"], []).append(entry)
        inputs.pages[faq_page_path(entry["topic"], entry["slug"])] = render_faq_page(entry, inputs, topic_titles)
    lines = [front_matter(title="Questions and answers", description=FAQ_INTRO), "# Questions and answers\n",
             "Answers to common questions about New Zealand personal income tax, worked out from the current "
             "rules and Inland Revenue's pages, with the sources cited on each page.\n"]
    for topic in inputs.topics:
        entries = by_topic.get(topic.slug, [])
        if not entries:
            continue
        lines.append(f"- [{md_escape(topic.title)}]({topic.slug}/index.md) — {len(entries)} questions")
        index = [front_matter(title=topic.title, description=topic.intro or f"{topic.title}: {FAQ_INTRO}"), f"# {md_escape(topic.title)}\n"]
        if topic.intro:
            index.append(md_escape(topic.intro) + "\n")
        index += [f"- [{md_escape(e['question'])}]({e['slug']}/index.md)" for e in entries]
        inputs.pages[f"faq/{topic.slug}/index.md"] = "\n".join(index) + "\n"
    inputs.pages["faq/index.md"] = "\n".join(lines) + "\n"
