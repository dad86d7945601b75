"""MkDocs hooks for the nztax site (listed under `hooks:` in mkdocs.yml; no plugin, nothing downloaded).

In: the mkdocs config, `site_src/generated/nav.json` (written by the render stage), the settings
(`NZTAX_ASK_URL`) and corpus/manifest.json. Out: the config with
- `nav` set from nav.json when it exists (a fresh clone without a build keeps mkdocs.yml's nav);
- `site_url` (canonical links and the sitemap) from settings.site_url (env NZTAX_SITE_URL) when set;
  a placeholder address (a reserved `.invalid`/`.example` name) is refused, so no page points at it;
- `extra.ask_url`, where the Ask box posts, from settings.ask_url (env NZTAX_ASK_URL), unless
  mkdocs.yml sets it explicitly; `extra.ask_max_chars`, the function's question length limit;
- `SOURCE_DATE_EPOCH` set from the corpus manifest's `updated_at` when not already set, so the
  sitemap dates (the only dates mkdocs writes) come from the inputs and builds are byte-identical.
Each page's skip link is left to the browser (`on_post_page`).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger("mkdocs.plugins.nztax")


def on_config(config, **kwargs):
    from nztax.settings import get_settings

    settings = get_settings()
    nav_path = Path(config["docs_dir"]) / "generated" / "nav.json"
    if nav_path.exists():
        config["nav"] = json.loads(nav_path.read_text(encoding="utf-8"))
    if settings.site_url:
        problem = site_url_problem(settings.site_url)
        if problem:
            from mkdocs.exceptions import ConfigurationError

            raise ConfigurationError(f"NZTAX_SITE_URL: {problem}")
        config["site_url"] = settings.site_url.rstrip("/") + "/"
    extra = config["extra"]
    if not extra.get("ask_url"):
        extra["ask_url"] = os.environ.get("NZTAX_ASK_URL") or settings.ask_url
    # The Ask box's visible limit is the function's (a constant of its request contract).
    from nztax.api import MAX_QUESTION_CHARS

    extra["ask_max_chars"] = MAX_QUESTION_CHARS
    if "SOURCE_DATE_EPOCH" not in os.environ:
        manifest = Path(settings.corpus_dir) / "manifest.json"
        try:
            updated = json.loads(manifest.read_text(encoding="utf-8")).get("updated_at")
            when = dt.datetime.fromisoformat(updated.replace("Z", "+00:00"))
            os.environ["SOURCE_DATE_EPOCH"] = str(int(when.timestamp()))
        except (OSError, ValueError, AttributeError, TypeError):
            os.environ["SOURCE_DATE_EPOCH"] = "0"
    return config


# Names reserved for examples and placeholders (RFC 2606 / RFC 6761): never a published site.
PLACEHOLDER_SUFFIXES = (".invalid", ".example", ".test", "example.com", "example.org", "example.net")


def site_url_problem(url: str) -> str | None:
    """Why `url` cannot be the published site's address, or None."""

    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not host:
        return f"{url!r} is not an absolute http(s) address"
    if host.endswith(PLACEHOLDER_SUFFIXES):
        return f"{url!r} is a placeholder address, not the site's"
    return None


# Material's instant navigation takes over same-site links without a target, the skip link too: it
# pushes the address and, on the popstate that follows, focus falls back to the top of the page, so a
# keyboard user's next Tab starts over. A link with a target is left to the browser, which moves the
# focus to the heading the link points at.
SKIP_LINK = 'class="md-skip"'


def on_post_page(output: str, page, config, **kwargs) -> str:
    return output.replace(SKIP_LINK, SKIP_LINK + ' target="_self"', 1)
