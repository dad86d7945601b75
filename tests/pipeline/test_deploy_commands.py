"""`nztax deploy`: the exact gcloud / firebase argument lists, staging, and the dry run."""

from __future__ import annotations

import json
import re
import os
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from nztax.settings import get_settings
from nztax_build import deploy, publish
from nztax_build.cli import main as nztax

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def prod_settings(clean_env):
    return replace(
        get_settings(),
        gcp_project="nztax-prod",
        gcp_region="australia-southeast1",
        site_url="https://nztax.web.app/",
        function_name="nztax-ask",
        function_max_instances=3,
        function_concurrency=8,
        function_cpu="1",
        function_memory="1Gi",
        function_timeout=60,
        function_llm_model="gemini/gemini-2.5-flash",
        gemini_secret="gemini-api-key",
        rate_limit_per_minute=30,
        firebase_site=None,
    )


def test_function_deploy_argv(prod_settings):
    cfg = deploy.DeployConfig.from_settings(prod_settings)
    command = deploy.function_deploy_command(cfg, Path("/stage/function"))
    assert command.cwd is None
    assert command.argv == [
        "gcloud", "functions", "deploy", "nztax-ask",
        "--gen2",
        "--project=nztax-prod",
        "--region=australia-southeast1",
        "--runtime=python312",
        "--source=/stage/function",
        "--entry-point=ask",
        "--trigger-http",
        "--allow-unauthenticated",
        "--max-instances=3",
        "--concurrency=8",
        "--cpu=1",
        "--memory=1Gi",
        "--timeout=60s",
        "--set-env-vars=^@^NZTAX_LLM_MODEL=gemini/gemini-2.5-flash"
        "@NZTAX_ALLOWED_ORIGINS=https://nztax.web.app,https://nztax.firebaseapp.com"
        "@LITELLM_LOCAL_MODEL_COST_MAP=True"
        "@NZTAX_RATE_LIMIT_PER_MINUTE=30"
        "@NZTAX_HOME=/workspace"
        "@HF_HUB_OFFLINE=1"
        "@NZTAX_EMBEDDER=auto"
        "@NZTAX_TRUSTED_PROXY_DEPTH=1",
        "--set-secrets=GEMINI_API_KEY=gemini-api-key:latest",
        "--quiet",
    ]  # fmt: skip


def test_custom_domain_single_origin_uses_plain_comma_syntax(prod_settings):
    cfg = deploy.DeployConfig.from_settings(
        replace(
            prod_settings, site_url="https://tax.example.nz", function_llm_model="offline", function_max_instances=1
        )
    )
    argv = deploy.function_deploy_command(cfg, Path("/s")).argv
    assert "--max-instances=1" in argv
    env_flag = next(a for a in argv if a.startswith("--set-env-vars="))
    # No LLM configured: the function answers offline, and no value has a comma.
    assert env_flag == (
        "--set-env-vars=NZTAX_ALLOWED_ORIGINS=https://tax.example.nz,LITELLM_LOCAL_MODEL_COST_MAP=True,"
        "NZTAX_RATE_LIMIT_PER_MINUTE=30,NZTAX_HOME=/workspace,HF_HUB_OFFLINE=1,NZTAX_EMBEDDER=auto,NZTAX_TRUSTED_PROXY_DEPTH=1"
    )


def test_env_vars_flag_escaping():
    assert deploy.env_vars_flag({"A": "1", "B": "x/y"}) == "--set-env-vars=A=1,B=x/y"
    assert deploy.env_vars_flag({"A": "1,2", "B": "3"}) == "--set-env-vars=^@^A=1,2@B=3"
    with pytest.raises(deploy.DeployError):
        deploy.env_vars_flag({"A": "1,2", "B": "me@example"})


@pytest.mark.parametrize(
    ("url", "origins"),
    [
        ("https://nztax.web.app/", ("https://nztax.web.app", "https://nztax.firebaseapp.com")),
        ("https://nztax.firebaseapp.com", ("https://nztax.firebaseapp.com", "https://nztax.web.app")),
        ("https://Tax.Example.NZ/ask/", ("https://tax.example.nz",)),
        ("http://localhost:8000", ("http://localhost:8000",)),
    ],
)
def test_site_origins(url, origins):
    assert deploy.site_origins(url) == origins


@pytest.mark.parametrize("url", ["tax.example.nz", "http://tax.example.nz", "ftp://x"])
def test_bad_site_url(url):
    with pytest.raises(deploy.DeployError):
        deploy.site_origins(url)


def test_missing_required_configuration_names_the_variables(clean_env):
    settings = get_settings()
    with pytest.raises(deploy.DeployError, match="NZTAX_GCP_PROJECT, NZTAX_SITE_URL"):
        deploy.DeployConfig.from_settings(settings)
    cfg = deploy.DeployConfig.from_settings(settings, dry_run=True)
    assert cfg.project == "<NZTAX_GCP_PROJECT>"


def test_concurrency_needs_a_whole_cpu(prod_settings):
    with pytest.raises(deploy.DeployError, match="CPU"):
        deploy.DeployConfig.from_settings(replace(prod_settings, function_cpu="0.5"))
    deploy.DeployConfig.from_settings(replace(prod_settings, function_cpu="0.5", function_concurrency=1))


def test_hosting_command_and_firebase_json(prod_settings):
    cfg = deploy.DeployConfig.from_settings(replace(prod_settings, firebase_site="nztax-site"))
    command = deploy.hosting_deploy_command(cfg, Path("/stage/hosting"), "nightly 2026-11-22")
    assert command.cwd == Path("/stage/hosting")
    assert command.argv == [
        "firebase", "deploy", "--only", "hosting", "--project", "nztax-prod",
        "--message", "nightly 2026-11-22", "--non-interactive",
    ]  # fmt: skip
    config = deploy.firebase_config(cfg)["hosting"]
    assert config["public"] == "site" and config["site"] == "nztax-site"
    sources = {h["source"]: h["headers"][0]["value"] for h in config["headers"]}
    assert sources["/_nztax/metrics.json"] == "no-cache"


def test_requirements_from_pyproject():
    pyproject = REPO / "pyproject.toml"
    base = deploy.function_requirements(pyproject, [])
    assert any(line.startswith("functions-framework==") for line in base)
    assert all("==" in line for line in base), "the function's requirements are exact pins"
    assert not any(line.startswith("litellm") for line in base)
    assert not any(line.startswith("mkdocs") for line in base), "build-only packages stay out"
    with_llm = deploy.function_requirements(pyproject, ["llm"])
    assert any(line.startswith("litellm==") for line in with_llm)
    with pytest.raises(deploy.DeployError, match="no optional dependency set"):
        deploy.function_requirements(pyproject, ["nope"])


def assert_hashed_and_locked(requirements: str) -> None:
    """Every requirement is the lock's own entry: the same version and its hashes."""
    lock = (REPO / "requirements" / "lock.txt").read_text()
    entries = [e for e in re.split(r"\n(?=[A-Za-z0-9])", requirements) if e.strip() and not e.startswith("#")]
    names = set()
    for entry in entries:
        head = entry.splitlines()[0].rstrip(" \\")
        assert "--hash=sha256:" in entry, f"{head} has no hash"
        assert re.search(r"^" + re.escape(head) + r" \\$", lock, re.M), f"{head} is not in the lock"
        assert all(h in lock for h in re.findall(r"--hash=sha256:\w+", entry))
        names.add(head.split("==")[0].lower())
    # The server builds on gunicorn's internals: the platform must not pick its own versions.
    assert {"functions-framework", "gunicorn", "flask", "werkzeug", "numpy"} <= names


def test_deploy_ships_the_hashed_lock_not_bare_pins():
    pins = deploy.function_requirements(REPO / "pyproject.toml", [])
    assert_hashed_and_locked(deploy.hashed_requirements(REPO / "requirements" / "lock.txt", pins))
    with pytest.raises(deploy.DeployError, match="disagree"):
        deploy.hashed_requirements(REPO / "requirements" / "lock.txt", ["numpy==0.0.1"])


DEPLOYED_ASK_URL = "https://australia-southeast1-nztax-prod.cloudfunctions.net/nztax-ask"


DEPLOYED_SITE_URL = "https://nztax-prod.web.app/"


def page(marker: str, ask_url: str = DEPLOYED_ASK_URL, site_url: str = DEPLOYED_SITE_URL) -> str:
    """A built page as mkdocs writes it: its canonical address, and the Ask box with the URL it posts to."""
    return (f'<html><head><link rel="canonical" href="{site_url}"></head>'
            f'<div class="nz-ask" data-nz-ask data-ask-url="{ask_url}"></div>{marker}</html>')


def fake_tree(root: Path, embedder: str = "all-MiniLM-L6-v2-onnx-int8") -> deploy.DeployPaths:
    (root / "function" / "nztax" / "__pycache__").mkdir(parents=True)
    (root / "function" / "main.py").write_text("def ask(request): ...\n")
    (root / "function" / "nztax" / "__init__.py").write_text("")
    (root / "function" / "nztax" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (root / "index").mkdir()
    (root / "index" / "manifest.json").write_text(json.dumps({"embedder_id": embedder, "counts": {"children": 3}}))
    (root / "site" / "_nztax").mkdir(parents=True)
    (root / "site" / "index.html").write_text(page("tonight"))
    (root / "site" / "_nztax" / "metrics.json").write_text('{"format": 1}')
    (root / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text())
    (root / "requirements").mkdir()
    (root / "requirements" / "lock.txt").write_text((REPO / "requirements" / "lock.txt").read_text())
    return deploy.DeployPaths(
        home=root,
        function_src=root / "function",
        index_dir=root / "index",
        site_dir=root / "site",
        staging=root / ".work" / "deploy",
    )


def test_staging(tmp_path, prod_settings, monkeypatch):
    monkeypatch.setattr(deploy, "runtime_python", lambda: None)  # no interpreter of the runtime's version here
    paths = fake_tree(tmp_path, embedder="gemini-embedding-001:768")
    cfg = deploy.DeployConfig.from_settings(prod_settings)
    assert deploy.function_extras(cfg, paths.index_dir) == ["llm", "gemini"]
    requirements = deploy.function_requirements(paths.home / "pyproject.toml", ["llm", "gemini"])
    stage = deploy.stage_function(paths, requirements)
    assert (stage / "main.py").is_file() and (stage / "nztax" / "__init__.py").is_file()
    assert not (stage / "nztax" / "__pycache__").exists()
    assert json.loads((stage / "index" / "manifest.json").read_text())["embedder_id"].startswith("gemini")
    reqs = (stage / "requirements.txt").read_text().splitlines()
    assert any(r.startswith("google-genai==") for r in reqs) and any(r.startswith("litellm==") for r in reqs)
    assert_hashed_and_locked((stage / "requirements.txt").read_text())
    assert not (stage / "nztax" / "data" / "minilm-tokenizer.json").exists()  # Gemini index: no local model

    hosting = deploy.stage_hosting(paths, cfg)
    assert (hosting / "site" / "index.html").read_text() == page("tonight")
    assert (hosting / "site" / "_nztax" / "metrics.json").is_file()
    assert json.loads((hosting / "firebase.json").read_text())["hosting"]["public"] == "site"


def test_staging_ships_what_a_fast_start_reads(tmp_path, monkeypatch):
    """The build's parsed data and patterns beside the index, and bytecode for the runtime's Python
    checked by its source's hash (the upload keeps no modification times); none of the build
    machine's own bytecode."""
    import importlib.util

    paths = fake_tree(tmp_path)
    for name in ("data.pickle", "regex.pickle"):
        (paths.index_dir / name).write_bytes(name.encode() + b" payload")
    (paths.function_src / "nztax" / "engine.py").write_text("ANSWER = 'offline'\n")
    monkeypatch.setattr(deploy, "runtime_python", lambda: sys.executable)  # stands in for the runtime's Python
    stage = deploy.stage_function(paths, [])
    for name in ("data.pickle", "regex.pickle"):
        assert (stage / "index" / name).read_bytes() == name.encode() + b" payload"
    compiled = {p.name for p in stage.rglob("*.pyc")}
    tag = sys.implementation.cache_tag
    assert compiled == {f"main.{tag}.pyc", f"__init__.{tag}.pyc", f"engine.{tag}.pyc"}  # not the tree's x.pyc
    pyc = (stage / "nztax" / "__pycache__" / f"engine.{tag}.pyc").read_bytes()
    assert pyc[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(pyc[4:8], "little") == 0b11  # hash-based, checked against the source
    assert pyc[8:16] == importlib.util.source_hash((stage / "nztax" / "engine.py").read_bytes())
    ignored = (stage / ".gcloudignore").read_text()
    assert "pyc" not in ignored and "__pycache__" not in ignored


def test_staging_without_the_runtimes_python_ships_sources_only(tmp_path, monkeypatch):
    # A version manager's shim for a version it does not have exits non-zero.
    monkeypatch.setattr(deploy, "runtime_python", lambda: "/bin/false")
    stage = deploy.stage_function(fake_tree(tmp_path), [])
    assert (stage / "nztax" / "__init__.py").is_file() and not list(stage.rglob("*.pyc"))


def test_staging_a_local_embedder_index_carries_the_tokenizer(tmp_path):
    """The cloud build installs requirements.txt, which cannot hold the --no-deps tokenizer package."""
    paths = fake_tree(tmp_path, embedder="all-MiniLM-L6-v2-onnx-int8")
    stage = deploy.stage_function(paths, [])
    staged = stage / "nztax" / "data" / "minilm-tokenizer.json"
    assert json.loads(staged.read_text())["model"]["type"] == "WordPiece"


def test_check_build_requires_gate_metrics_in_the_site(tmp_path):
    paths = fake_tree(tmp_path)
    deploy.check_build(paths, "all")
    (paths.site_dir / "_nztax" / "metrics.json").unlink()
    with pytest.raises(deploy.DeployError, match="nztax gates --write-baseline"):
        deploy.check_build(paths, "site")
    deploy.check_build(paths, "function")


@pytest.mark.parametrize("ask_url", ["http://127.0.0.1:8080/", "http://localhost:8080/", ""])
def test_check_build_refuses_a_site_whose_ask_box_posts_to_loopback(tmp_path, ask_url):
    # `make site` without NZTAX_ASK_URL bakes in the local function; published, no reader could ask.
    paths = fake_tree(tmp_path)
    (paths.site_dir / "index.html").write_text(page("tonight", ask_url))
    with pytest.raises(deploy.DeployError, match="NZTAX_ASK_URL|data-ask-url"):
        deploy.check_build(paths, "site")
    deploy.check_build(paths, "function")  # the function alone does not depend on the site


@pytest.mark.parametrize("site_url", ["https://nztax.example.invalid/", "http://127.0.0.1:8000/", "https://www.example.com/"])
def test_check_build_refuses_a_site_built_for_a_placeholder_or_local_address(tmp_path, site_url):
    # Every canonical link and the sitemap carry the build's address: published, they would point nowhere.
    paths = fake_tree(tmp_path)
    (paths.site_dir / "index.html").write_text(page("tonight", site_url=site_url))
    with pytest.raises(deploy.DeployError, match="NZTAX_SITE_URL"):
        deploy.check_build(paths, "site")
    deploy.check_build(paths, "function")


def test_cli_dry_run_warns_about_a_site_built_for_the_local_function(tmp_path, clean_env, capsys):
    paths = fake_tree(tmp_path)
    (paths.site_dir / "index.html").write_text(page("tonight", "http://127.0.0.1:8080/"))
    deploy_env(clean_env, tmp_path)
    assert nztax(["deploy", "--dry-run"]) == 0
    assert "# warning: a real deploy would stop here" in capsys.readouterr().out
    assert nztax(["deploy"]) == 2
    assert "NZTAX_ASK_URL" in capsys.readouterr().err


# ---------------------------------------------------------------- the CLI


def deploy_env(env, root: Path):
    env.setenv("NZTAX_HOME", str(root))
    env.setenv("NZTAX_GCP_PROJECT", "nztax-prod")
    env.setenv("NZTAX_SITE_URL", "https://nztax.web.app")
    get_settings.cache_clear()


def test_cli_dry_run_prints_exact_commands_and_touches_nothing(tmp_path, clean_env, capsys):
    deploy_env(clean_env, tmp_path)
    assert nztax(["deploy", "--dry-run", "--message", "nightly test"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    stage = tmp_path / ".work" / "deploy"
    assert lines[0].startswith("gcloud functions deploy nztax-ask --gen2 --project=nztax-prod ")
    assert f"--source={stage / 'function'} " in lines[0]
    assert "--set-secrets=GEMINI_API_KEY=gemini-api-key:latest" in lines[0]
    assert lines[1] == (
        f"(cd {stage / 'hosting'} && firebase deploy --only hosting --project nztax-prod "
        "--message 'nightly test' --non-interactive)"
    )
    assert not (tmp_path / ".work").exists()


def test_cli_dry_run_without_configuration_prints_placeholders(tmp_path, clean_env, capsys):
    clean_env.setenv("NZTAX_HOME", str(tmp_path))
    assert nztax(["deploy", "--dry-run"]) == 0
    assert "--project=<NZTAX_GCP_PROJECT>" in capsys.readouterr().out


def test_cli_without_configuration_is_a_clear_error(tmp_path, clean_env, capsys):
    clean_env.setenv("NZTAX_HOME", str(tmp_path))
    assert nztax(["deploy"]) == 2
    assert "missing deploy configuration: set NZTAX_GCP_PROJECT" in capsys.readouterr().err


def fake_binaries(bin_dir: Path, log: Path, fail: str | None = None) -> None:
    """gcloud and firebase stand-ins that log their argv and working directory."""
    bin_dir.mkdir()
    for name in ("gcloud", "firebase"):
        script = bin_dir / name
        code = 1 if name == fail else 0
        script.write_text(
            f"#!{sys.executable}\nimport json, os, sys\n"
            f"record = {{'argv': sys.argv[1:], 'cwd': os.getcwd(), 'name': {name!r}}}\n"
            f"open({str(log)!r}, 'a').write(json.dumps(record) + '\\n')\n"
            f"sys.exit({code})\n"
        )
        script.chmod(script.stat().st_mode | stat.S_IEXEC)


def logged(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_cli_deploys_function_then_site(tmp_path, clean_env):
    fake_tree(tmp_path)
    deploy_env(clean_env, tmp_path)
    log = tmp_path / "calls.jsonl"
    fake_binaries(tmp_path / "bin", log)
    clean_env.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert nztax(["deploy"]) == 0
    calls = logged(log)
    assert [c["name"] for c in calls] == ["gcloud", "firebase"]
    assert calls[0]["argv"][:3] == ["functions", "deploy", "nztax-ask"]
    assert calls[1]["cwd"] == str(tmp_path / ".work" / "deploy" / "hosting")
    assert (tmp_path / ".work" / "deploy" / "function" / "requirements.txt").is_file()


def test_cli_failed_function_deploy_leaves_the_site_alone(tmp_path, clean_env, capsys):
    fake_tree(tmp_path)
    deploy_env(clean_env, tmp_path)
    log = tmp_path / "calls.jsonl"
    fake_binaries(tmp_path / "bin", log, fail="gcloud")
    clean_env.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert nztax(["deploy"]) == 1
    assert [c["name"] for c in logged(log)] == ["gcloud"]
    assert "The previous function stays live" in capsys.readouterr().err


def test_cli_rollback_swaps_both_builds_then_deploys(tmp_path, clean_env):
    paths = fake_tree(tmp_path)
    # Yesterday's builds kept by the publish step.
    (tmp_path / "site.prev" / "_nztax").mkdir(parents=True)
    (tmp_path / "site.prev" / "index.html").write_text(page("yesterday"))
    (tmp_path / "site.prev" / "_nztax" / "metrics.json").write_text('{"format": 1}')
    (tmp_path / "index.prev").mkdir()
    (tmp_path / "index.prev" / "manifest.json").write_text(json.dumps({"embedder_id": "local:y", "counts": {"c": 1}}))
    deploy_env(clean_env, tmp_path)
    log = tmp_path / "calls.jsonl"
    fake_binaries(tmp_path / "bin", log)
    clean_env.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert nztax(["deploy", "--rollback"]) == 0
    assert (paths.site_dir / "index.html").read_text() == page("yesterday")
    assert (tmp_path / ".work" / "deploy" / "hosting" / "site" / "index.html").read_text() == page("yesterday")
    assert publish.prev_path(paths.site_dir).joinpath("index.html").read_text() == page("tonight")
    assert len(logged(log)) == 2


def test_cli_rollback_is_all_or_nothing(tmp_path, clean_env, capsys):
    paths = fake_tree(tmp_path)
    (tmp_path / "site.prev").mkdir()
    (tmp_path / "site.prev" / "index.html").write_text(page("yesterday"))
    deploy_env(clean_env, tmp_path)
    assert nztax(["deploy", "--rollback"]) == 2
    assert "index.prev" in capsys.readouterr().err
    assert (paths.site_dir / "index.html").read_text() == page("tonight")


# ---------------------------------------------------------------- embedder vs published index (issue 15)


def test_dry_run_refuses_an_embedder_that_cannot_read_the_index(tmp_path, clean_env, capsys):
    fake_tree(tmp_path, embedder="all-MiniLM-L6-v2-onnx-int8")
    deploy_env(clean_env, tmp_path)
    clean_env.setenv("NZTAX_FUNCTION_EMBEDDER", "gemini")
    get_settings.cache_clear()
    assert nztax(["deploy", "--dry-run"]) == 2
    captured = capsys.readouterr()
    assert "could not read the index" in captured.err and "all-MiniLM-L6-v2-onnx-int8" in captured.err
    assert "gcloud" not in captured.out


def test_dry_run_refuses_an_index_built_by_an_unknown_embedder(tmp_path, clean_env, capsys):
    fake_tree(tmp_path, embedder="word2vec-300")
    deploy_env(clean_env, tmp_path)
    assert nztax(["deploy", "--dry-run"]) == 2
    assert "word2vec-300" in capsys.readouterr().err


@pytest.mark.parametrize("embedder", ["all-MiniLM-L6-v2-onnx-int8", "gemini-embedding-001@768"])
def test_auto_follows_whichever_embedder_built_the_index(tmp_path, clean_env, embedder):
    """The deployed function always has GEMINI_API_KEY mounted; `auto` must still follow the index."""
    paths = fake_tree(tmp_path, embedder=embedder)
    deploy_env(clean_env, tmp_path)
    cfg = deploy.DeployConfig.from_settings(get_settings(), dry_run=True)
    assert cfg.embedder == "auto"
    deploy.check_embedder(cfg, paths.index_dir)  # no DeployError


def test_published_index_answers_under_the_deployed_environment(tmp_path, clean_env, monkeypatch):
    """Build an index offline, stage the function exactly as a deploy does, apply the environment
    the deploy command sets (plus the mounted key), and ask one question through the function."""
    import dataclasses

    from functions_framework import create_app

    from nztax.engine import Engine
    from nztax_build.indexer import embed_and_index

    offline = dataclasses.replace(get_settings(), work_dir=tmp_path / "work", index_dir=tmp_path / "index",
                                  embedder="local", gemini_api_key=None, relevance_floor=None)
    embed_and_index(offline, force=True, chunks_dir=REPO / "tests" / "fixtures" / "chunks_small")
    paths = deploy.DeployPaths(home=REPO, function_src=REPO / "function", index_dir=tmp_path / "index",
                               site_dir=tmp_path / "site", staging=tmp_path / "stage")
    stage = deploy.stage_function(paths, [])

    deploy_env(clean_env, tmp_path)
    cfg = deploy.DeployConfig.from_settings(get_settings(), dry_run=False)
    deploy.check_embedder(cfg, stage / "index")
    env = deploy.function_env(cfg)
    assert env["NZTAX_HOME"] == deploy.DEPLOYED_HOME
    env["NZTAX_HOME"] = str(stage)  # the one machine-specific value: where the stage sits here
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GEMINI_API_KEY", "mounted-by-secret-manager")  # --set-secrets, never used offline
    monkeypatch.delenv("NZTAX_LLM_MODEL", raising=False)  # the model provider is the internet edge
    get_settings.cache_clear()
    Engine.reset()
    sys.modules.pop("main", None)
    try:
        client = create_app(target="ask", source=str(stage / "main.py")).test_client()
        origin = cfg.allowed_origins[0]
        response = client.post("/ask", json={"question": "What is the ACC earners' levy rate?"},
                               headers={"Origin": origin})
        assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_json()
        assert body["status"] == "answered" and body["citations"]
    finally:
        get_settings.cache_clear()
        Engine.reset()
        sys.modules.pop("main", None)
