"""MkDocs hooks for the nztax site (listed under `hooks:` in mkdocs.yml; no plugin, nothing downloaded).

In: the mkdocs config, `site_src/generated/nav.json` (written by the render stage), the settings
(`NZTAX_ASK_URL`) and corpus/manifest.json. Out: the config with
- `nav` set from nav.json when it exists (a fresh clone without a build keeps mkdocs.yml's nav);
- `extra.ask_url`, where the Ask box posts, from settings.ask_url (env NZTAX_ASK_URL), unless
  mkdocs.yml sets it explicitly;
- `SOURCE_DATE_EPOCH` set from the corpus manifest's `updated_at` when not already set, so the
  sitemap dates (the only dates mkdocs writes) come from the inputs and builds are byte-identical.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.nztax")


def on_config(config, **kwargs):
    from nztax.settings import get_settings

    settings = get_settings()
    nav_path = Path(config["docs_dir"]) / "generated" / "nav.json"
    if nav_path.exists():
        config["nav"] = json.loads(nav_path.read_text(encoding="utf-8"))
    extra = config["extra"]
    if not extra.get("ask_url"):
        extra["ask_url"] = os.environ.get("NZTAX_ASK_URL") or settings.ask_url
    if "SOURCE_DATE_EPOCH" not in os.environ:
        manifest = Path(settings.corpus_dir) / "manifest.json"
        try:
            updated = json.loads(manifest.read_text(encoding="utf-8")).get("updated_at")
            when = dt.datetime.fromisoformat(updated.replace("Z", "+00:00"))
            os.environ["SOURCE_DATE_EPOCH"] = str(int(when.timestamp()))
        except (OSError, ValueError, AttributeError, TypeError):
            os.environ["SOURCE_DATE_EPOCH"] = "0"
    return config
