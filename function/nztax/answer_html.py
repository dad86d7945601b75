"""An answer's markdown as safe HTML, for the Ask box (`answer_html` in /ask) and the FAQ pages.

In: the markdown an answer is written in (the composer's or a model's: untrusted). Out: HTML with
only structural tags (paragraphs, emphasis, lists, tables, code, headings, blockquotes) and links
to http(s) pages or to pages of this site. Rendering is markdown-it-py (CommonMark + tables, raw
HTML off, so markup typed into an answer is shown as text), with two core rules over its token
stream: headings start at h3 (an answer sits under the page's own title) and links to other sites
open in a new tab (links to this site's own pages, such as the calculator links, stay in the
tab). Sanitising is nh3 (ammonia's allow-list), configured through its own options, so nothing
outside the list survives, whatever the renderer emits. Both are imported on first use: a
calculator-only cold start never pays for them.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

ALLOWED_TAGS = frozenset({
    "p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "a", "blockquote", "hr",
})
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"style"}, "td": {"style"}, "ol": {"start"}}
# Attributes allowed only with these exact values (nh3's tag_attribute_values).
ALLOWED_ATTRIBUTE_VALUES = {"a": {"target": {"_blank"}}}
# Column alignment from `|--:|` arrives as style="text-align:right"; nothing else may style.
ALLOWED_STYLE_PROPERTIES = frozenset({"text-align"})
URL_SCHEMES = frozenset({"http", "https"})
LINK_REL = "noopener noreferrer nofollow"
TOP_HEADING = 3  # "#" and "##" in an answer become h3: they never outrank the page's headings
EXTERNAL_TARGET = "_blank"


def _site_path(url: str) -> str | None:
    """nh3's policy for relative URLs: keep a path from this site's root ("/calculators/…", the
    answer-to-calculator links); drop "../x", "//host", "/\\host" and anything with spaces."""
    if not url.startswith("/") or url[1:2] in ("/", "\\") or "\\" in url or any(c.isspace() or ord(c) < 32 for c in url):
        return None
    return url


def _headings_below_page(state) -> None:
    """Core rule: heading tokens above TOP_HEADING are rendered at TOP_HEADING."""
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close") and int(token.tag[1:]) < TOP_HEADING:
            token.tag = f"h{TOP_HEADING}"


def _external_links_in_new_tab(state) -> None:
    """Core rule: a link to another site opens in a new tab; a link to this site's pages does not."""
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "link_open" and urlsplit(str(token.attrGet("href") or "")).scheme in URL_SCHEMES:
                token.attrSet("target", EXTERNAL_TARGET)


@lru_cache(maxsize=1)
def _renderer():
    from markdown_it import MarkdownIt

    # "commonmark" with html=False escapes raw HTML; tables are the one extension answers use.
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.core.ruler.push("headings_below_page", _headings_below_page)
    md.core.ruler.push("external_links_in_new_tab", _external_links_in_new_tab)
    return md


@lru_cache(maxsize=1)
def _sanitiser():
    import nh3

    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        tag_attribute_values={tag: {name: set(values) for name, values in attrs.items()} for tag, attrs in ALLOWED_ATTRIBUTE_VALUES.items()},
        url_schemes=set(URL_SCHEMES),
        url_relative=_site_path,
        link_rel=LINK_REL,
        filter_style_properties=set(ALLOWED_STYLE_PROPERTIES),
        strip_comments=True,
    )


def sanitise_answer_html(html: str) -> str:
    """Any HTML cut down to the answer allow-list (what `render_answer_html` applies last)."""
    return _sanitiser().clean(str(html or "")).strip()


def render_answer_html(markdown: str) -> str:
    """Safe HTML for an answer's markdown (links to other sites open in a new tab, without the opener)."""
    return _rendered(str(markdown or ""))


# The same answer is asked for again and again (popular questions, the FAQ's stored answers):
# its HTML is kept by text rather than parsed and sanitised anew. The HTML depends on the text alone.
@lru_cache(maxsize=256)
def _rendered(markdown: str) -> str:
    # (markdown-it already refuses javascript:, vbscript:, file: and most data: link targets.)
    return sanitise_answer_html(_renderer().render(markdown))
