"""`nztax crawl` from the command line: bad input is a message and exit 2, never a traceback."""

from __future__ import annotations

from nztax_build.cli import main


def test_bad_sources_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "sources.yaml"
    bad.write_text("sources:\n  - url: https://www.ird.govt.nz/a\n    source_type: gst\n    title: GST\n")
    assert main(["crawl", "--sources", str(bad), "--corpus", str(tmp_path / "corpus")]) == 2
    err = capsys.readouterr().err
    assert "source_type 'gst' is not one of" in err and "Traceback" not in err


def test_bad_base_url_is_a_clear_error(tmp_path, capsys):
    assert main(["crawl", "--base-url", "not-a-url", "--corpus", str(tmp_path)]) == 2
    assert "--base-url must be an absolute http(s) URL" in capsys.readouterr().err


def test_corrupt_manifest_is_a_clear_error(tmp_path, capsys):
    from .conftest import SOURCES_SMALL

    (tmp_path / "manifest.json").write_text("garbage")
    assert main(["crawl", "--sources", str(SOURCES_SMALL), "--corpus", str(tmp_path)]) == 2
    assert "cannot read manifest" in capsys.readouterr().err


def test_crawl_via_cli_against_the_mirror(tmp_path, capsys, mirror, monkeypatch):
    from nztax.settings import get_settings

    from .conftest import SOURCES_SMALL

    monkeypatch.setenv("NZTAX_CRAWL_DELAY", "0")
    get_settings.cache_clear()
    try:
        assert main(["crawl", "--sources", str(SOURCES_SMALL), "--base-url", mirror.base_url, "--corpus", str(tmp_path)]) == 0
    finally:
        get_settings.cache_clear()
    err = capsys.readouterr().err
    assert "[5/5] new" in err and "fetched 5 (new 5" in err and "bytes transferred" in err
