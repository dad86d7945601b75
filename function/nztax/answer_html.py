"""An answer's markdown as safe HTML, for the Ask box (`answer_html` in /ask) and the FAQ pages.

In: the markdown an answer is written in (the composer's or a model's: untrusted). Out: HTML with
only structural tags (paragraphs, emphasis, lists, tables, code, headings, blockquotes) and links
to http(s) pages. Rendering is markdown-it-py (CommonMark + tables, raw HTML off, so markup typed
into an answer is shown as text); sanitising is nh3 (ammonia's allow-list), so nothing outside the
list survives, whatever the renderer emits. Both are imported on first use: a calculator-only
cold start never pays for them.
"""

from __future__ import annotations

import re
from functools import lru_cache

ALLOWED_TAGS = frozenset({
    "p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "a", "blockquote", "hr",
})
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"style"}, "td": {"style"}, "ol": {"start"}}
# Column alignment from `|--:|` arrives as style="text-align:right"; nothing else may style.
ALLOWED_STYLE_PROPERTIES = frozenset({"text-align"})
LINK_REL = "noopener noreferrer nofollow"
# Links may go to http(s) pages or to a page of this site by its root path ("/calculators/…",
# the answer-to-calculator links); "../x", "//host" and every other scheme lose their href.
_SITE_PATH = re.compile(r"/(?!/)[^\s\\]*")
_WEB_URL = re.compile(r"https?://[^\s]+", re.I)


def _keep_safe_links(tag: str, attribute: str, value: str) -> str | None:
    if tag == "a" and attribute == "href":
        return value if _WEB_URL.fullmatch(value) or _SITE_PATH.fullmatch(value) else None
    return value


@lru_cache(maxsize=1)
def _renderer():
    from markdown_it import MarkdownIt

    # "commonmark" with html=False escapes raw HTML; tables are the one extension answers use.
    # Headings in an answer sit under the page's own title, so they start at h3 (see below).
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def render_answer_html(markdown: str) -> str:
    """Safe HTML for an answer's markdown (links open in a new tab, without the opener)."""
    # (markdown-it already refuses javascript:, vbscript:, file: and most data: link targets.)
    import nh3

    html = _renderer().render(str(markdown or ""))
    # Answer headings never outrank the page's: # .. ## become h3.
    for level in (1, 2):
        html = html.replace(f"<h{level}>", "<h3>").replace(f"</h{level}>", "</h3>")
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes={"http", "https"},
        attribute_filter=_keep_safe_links,
        link_rel=LINK_REL,
        filter_style_properties=set(ALLOWED_STYLE_PROPERTIES),
        set_tag_attribute_values={"a": {"target": "_blank"}},
        strip_comments=True,
    ).strip()
