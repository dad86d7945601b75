"""The committed snapshot (corpus/raw + manifest.json + sources.yaml) is complete and reproducible.

- Regenerating from corpus/snapshot_src into a temporary directory gives byte-identical files.
- sources.yaml and the manifest list the same URLs, and every entry has its stored body.
- The snapshot is big enough: at least 60 HTML pages, 3 PDFs and 15 legislation sections.
- The stored pages carry the markup the parser expects and the offline-snapshot notice.
"""

from __future__ import annotations

import json
import re

import pytest

from .conftest import CORPUS, SNAPSHOT_SRC

MIN_HTML_PAGES = 60
MIN_PDFS = 3
MIN_LEGISLATION_SECTIONS = 15
MIN_RETURN_GUIDE_QUESTIONS = 20


def _manifest() -> dict:
    path = CORPUS / "manifest.json"
    assert path.exists(), "corpus/manifest.json is missing: run `nztax snapshot`"
    return json.loads(path.read_text(encoding="utf-8"))


def _raw_files(corpus_dir) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((corpus_dir / "raw").iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    from nztax_build.snapshot import build_snapshot

    out = tmp_path_factory.mktemp("snapshot")
    build_snapshot(SNAPSHOT_SRC, out)
    return out


def test_regenerating_gives_byte_identical_raw_files(regenerated):
    committed, fresh = _raw_files(CORPUS), _raw_files(regenerated)
    assert sorted(committed) == sorted(fresh), "raw/ file names differ: rerun `nztax snapshot` and commit"
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert not changed, f"stored bodies differ from a fresh regeneration: {changed[:5]}"


@pytest.mark.parametrize("name", ["manifest.json", "sources.yaml"])
def test_regenerating_gives_identical_manifest_and_sources(regenerated, name):
    assert (regenerated / name).read_bytes() == (CORPUS / name).read_bytes(), f"{name} is stale: rerun `nztax snapshot`"


def test_sources_and_manifest_list_the_same_urls():
    from nztax_build.sources import load_sources

    listed = {s.url for s in load_sources(CORPUS / "sources.yaml")}
    manifest = _manifest()
    assert manifest["snapshot"] is True
    stored = {p["url"] for p in manifest["pages"]}
    assert listed - stored == set(), f"in sources.yaml but not stored: {sorted(listed - stored)[:5]}"
    assert stored - listed == set(), f"stored but not in sources.yaml: {sorted(stored - listed)[:5]}"
    for page in manifest["pages"]:
        body = (CORPUS / page["file"]).read_bytes()
        assert len(body) == page["bytes"], f"{page['url']}: stored size differs from the manifest"


def test_snapshot_is_big_enough():
    pages = _manifest()["pages"]
    html_pages = [p for p in pages if p["content_type"].startswith("text/html")]
    pdfs = [p for p in pages if p["content_type"] == "application/pdf"]
    sections = sum(
        len(re.findall(r'<div class="prov" id="[^"]+"><h2', (CORPUS / p["file"]).read_text(encoding="utf-8")))
        for p in pages
        if p["source_type"] == "legislation"
    )
    assert len(html_pages) >= MIN_HTML_PAGES, f"only {len(html_pages)} HTML pages"
    assert len(pdfs) >= MIN_PDFS, f"only {len(pdfs)} PDFs"
    assert sections >= MIN_LEGISLATION_SECTIONS, f"only {sections} legislation sections"


def test_html_pages_have_site_chrome_and_the_snapshot_notice():
    for page in _manifest()["pages"]:
        if not page["content_type"].startswith("text/html"):
            continue
        text = (CORPUS / page["file"]).read_text(encoding="utf-8")
        for marker in ('<nav class="breadcrumb"', 'class="alert-banner"', '<main id="main-content"><h1>',
                       'class="page-updated"', '<footer class="site-footer">', "paraphrased offline snapshot",
                       "make crawl"):
            assert marker in text, f"{page['url']}: missing {marker!r}"


def test_legislation_provisions_carry_label_and_heading():
    url = "https://www.legislation.govt.nz/act/public/2007/0097/latest/LMS967330.html"
    page = next(p for p in _manifest()["pages"] if p["url"] == url)
    text = (CORPUS / page["file"]).read_text(encoding="utf-8")
    assert '<div class="prov" id="LC15"><h2 class="prov"><span class="label">LC 15</span>' in text
    assert '<p><span class="label">(1)</span>' in text


def test_pdfs_have_text_footer_and_fixed_metadata():
    import pymupdf

    for page in _manifest()["pages"]:
        if page["content_type"] != "application/pdf":
            continue
        doc = pymupdf.open(CORPUS / page["file"])
        text = "".join(p.get_text() for p in doc)
        assert "Paraphrased offline snapshot by nztax" in text
        assert doc.metadata["creationDate"].startswith("D:20")
        assert doc.metadata["creator"] == "nztax snapshot"
        if "/ir3g/" in page["url"]:
            questions = set(re.findall(r"^Question (\d+) ", text, flags=re.MULTILINE))
            assert len(questions) >= MIN_RETURN_GUIDE_QUESTIONS, f"IR3G has {len(questions)} questions"


def test_pdfs_parse_back_to_their_authored_words(snapshot_sources):
    """Every word the parser reads from a bundled PDF is a word of its authored source or the footer:
    no highlight markup, and no word cut in two where a drawn fill ends (as 'combin ed')."""
    from nztax_build.parse_pdf import parse_pdf
    from nztax_build.snapshot import PDF_FOOTER

    word = re.compile(r"[A-Za-z]{3,}")
    by_url = {source.url: source for source in snapshot_sources}
    checked = 0
    for page in _manifest()["pages"]:
        if page["content_type"] != "application/pdf":
            continue
        source = by_url[page["url"]]
        document = parse_pdf((CORPUS / page["file"]).read_bytes(), page["url"])
        parsed = "\n".join(section.text for section in document.sections)
        assert "<mark>" not in parsed
        authored_text = f"{source.title} {source.body} {PDF_FOOTER} Inland Revenue Page of"
        # A compound hyphenated at a line end comes back joined ("whole-dollar" -> "wholedollar").
        authored = set(word.findall(authored_text)) | set(word.findall(authored_text.replace("-", "")))
        stray = sorted(set(word.findall(parsed)) - authored)
        assert not stray, f"{page['url']}: words not in its source: {stray[:10]}"
        checked += 1
    assert checked >= MIN_PDFS
