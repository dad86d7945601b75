"""Atomic publish and rollback: a failed build leaves the last good one live; rollback restores it."""

from __future__ import annotations

import json

import pytest

from nztax_build import publish


def site_build(path, marker: str):
    path.mkdir(parents=True)
    (path / "index.html").write_text(f"<html>{marker}</html>")
    (path / "faq").mkdir()
    (path / "faq" / "index.html").write_text(f"<html>faq {marker}</html>")
    return path


def marker(live) -> str:
    return (live / "index.html").read_text()


def test_first_publish_then_second_keeps_previous(tmp_path):
    live = tmp_path / "site"
    first = publish.publish(site_build(tmp_path / "site.new", "monday"), live, publish.validate_site)
    assert first.previous is None
    assert marker(live) == "<html>monday</html>"
    assert not (tmp_path / "site.new").exists()

    second = publish.publish(site_build(tmp_path / "site.new", "tuesday"), live, publish.validate_site)
    assert second.previous == tmp_path / "site.prev"
    assert marker(live) == "<html>tuesday</html>"
    assert marker(tmp_path / "site.prev") == "<html>monday</html>"
    assert publish.read_stamp(live)["published_at"] > publish.read_stamp(tmp_path / "site.prev")["published_at"]


def test_failed_build_leaves_last_good_site_in_place(tmp_path):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", "monday"), live, publish.validate_site)
    publish.publish(site_build(tmp_path / "site.new", "tuesday"), live, publish.validate_site)
    broken = tmp_path / "site.new"
    broken.mkdir()
    (broken / "404.html").write_text("half a build")  # mkdocs died before index.html
    with pytest.raises(publish.PublishError, match="no index.html"):
        publish.publish(broken, live, publish.validate_site)
    assert marker(live) == "<html>tuesday</html>"
    assert marker(tmp_path / "site.prev") == "<html>monday</html>"
    assert broken.exists()  # left for inspection


def test_missing_build_is_an_error(tmp_path):
    with pytest.raises(publish.PublishError, match="no such build directory"):
        publish.publish(tmp_path / "site.new", tmp_path / "site")


def test_rollback_restores_previous_and_second_rollback_rolls_forward(tmp_path):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", "monday"), live)
    publish.publish(site_build(tmp_path / "site.new", "tuesday"), live)
    publish.rollback(live)
    assert marker(live) == "<html>monday</html>"
    assert marker(tmp_path / "site.prev") == "<html>tuesday</html>"
    assert (live / "faq" / "index.html").read_text() == "<html>faq monday</html>"
    publish.rollback(live)
    assert marker(live) == "<html>tuesday</html>"


def test_rollback_without_previous_is_an_error(tmp_path):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", "monday"), live)
    with pytest.raises(publish.PublishError, match="no previous build"):
        publish.rollback(live)
    assert marker(live) == "<html>monday</html>"


def test_recover_after_crash_between_the_two_renames(tmp_path):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", "monday"), live)
    # Simulate a crash after `site -> site.prev` and before `site.new -> site`.
    live.replace(tmp_path / "site.prev")
    site_build(tmp_path / "site.new", "tuesday")
    assert publish.recover(live) == f"restored {live} from site.prev"
    assert marker(live) == "<html>monday</html>"
    # The interrupted build can then be published normally.
    publish.publish(tmp_path / "site.new", live)
    assert marker(live) == "<html>tuesday</html>"


def test_recover_after_crash_inside_rollback(tmp_path):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", "monday"), live)
    publish.publish(site_build(tmp_path / "site.new", "tuesday"), live)
    live.replace(tmp_path / "site.swap")  # rollback's first rename, then a crash
    publish.recover(live)
    assert marker(live) == "<html>tuesday</html>"
    assert marker(tmp_path / "site.prev") == "<html>monday</html>"


def test_validate_index(tmp_path):
    good = tmp_path / "index.new"
    good.mkdir()
    (good / "manifest.json").write_text(json.dumps({"embedder_id": "local:minilm", "counts": {"children": 12}}))
    publish.validate_index(good)
    (good / "manifest.json").write_text(json.dumps({"embedder_id": "local:minilm", "counts": {"children": 0}}))
    with pytest.raises(publish.PublishError, match="all zero"):
        publish.validate_index(good)
    (good / "manifest.json").write_text("{}")
    with pytest.raises(publish.PublishError, match="embedder_id"):
        publish.validate_index(good)


def test_command_line(tmp_path, capsys):
    live = tmp_path / "site"
    site_build(tmp_path / "site.new", "monday")
    assert publish.main(["publish", str(tmp_path / "site.new"), str(live), "--kind", "site"]) == 0
    site_build(tmp_path / "site.new", "tuesday")
    assert publish.main(["publish", str(tmp_path / "site.new"), str(live), "--kind", "site"]) == 0
    assert publish.main(["rollback", str(live)]) == 0
    assert marker(live) == "<html>monday</html>"
    capsys.readouterr()
    assert publish.main(["status", str(live)]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["previous"] == str(tmp_path / "site.prev")
    (tmp_path / "empty.new").mkdir()
    assert publish.main(["publish", str(tmp_path / "empty.new"), str(live), "--kind", "site"]) == 1
    assert "no index.html" in capsys.readouterr().err
