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
    monkeypatch.setenv("NZTAX_WORK_DIR", str(tmp_path / "work"))  # the crawl writes its sources report there
    get_settings.cache_clear()
    try:
        assert main(["crawl", "--sources", str(SOURCES_SMALL), "--base-url", mirror.base_url, "--corpus", str(tmp_path)]) == 0
    finally:
        get_settings.cache_clear()
    err = capsys.readouterr().err
    assert "[5/5] new" in err and "fetched 5 (new 5" in err and "bytes transferred" in err


def _cli_crawl(tmp_path, mirror, monkeypatch, *extra):
    from nztax.settings import get_settings

    from .conftest import SOURCES_SMALL

    monkeypatch.setenv("NZTAX_CRAWL_DELAY", "0")
    monkeypatch.setenv("NZTAX_CRAWL_RETRIES", "0")
    monkeypatch.setenv("NZTAX_WORK_DIR", str(tmp_path / "work"))
    get_settings.cache_clear()
    try:
        return main(["crawl", "--sources", str(SOURCES_SMALL), "--base-url", mirror.base_url, "--corpus", str(tmp_path), *extra])
    finally:
        get_settings.cache_clear()


def test_robots_answering_500_and_nothing_fetched_exits_non_zero(tmp_path, capsys, mirror, monkeypatch):
    mirror.robots_status = 500
    assert _cli_crawl(tmp_path, mirror, monkeypatch) == 1
    err = capsys.readouterr().err
    assert "nothing fetched" in err and "5 blocked by robots.txt" in err


def test_temporaries_left_by_a_killed_crawl_are_removed(tmp_path, capsys, mirror, monkeypatch):
    (tmp_path / "raw").mkdir(parents=True)
    leftovers = [tmp_path / ".manifest.json.k2j3.tmp", tmp_path / "raw" / ".abc.html.x9q1.tmp"]
    for path in leftovers:
        path.write_bytes(b"half a page")
    assert _cli_crawl(tmp_path, mirror, monkeypatch) == 0
    assert not any(path.exists() for path in leftovers)
    assert "removed 2 temporary file(s)" in capsys.readouterr().err
    assert list(tmp_path.rglob("*.tmp")) == []


def test_a_second_crawl_of_the_same_store_is_refused_while_one_runs(tmp_path, capsys, mirror, monkeypatch):
    from nztax_build.store import locked

    with locked(tmp_path):
        assert _cli_crawl(tmp_path, mirror, monkeypatch) == 2
    assert "another crawl" in capsys.readouterr().err
    assert _cli_crawl(tmp_path, mirror, monkeypatch) == 0  # the lock went with its holder
