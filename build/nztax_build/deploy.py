"""Deploy the /ask function (Cloud Functions gen2) and the static site (Firebase Hosting).

In: settings (project, region, site URL, function limits, model, secret name), the built `site/`
(with the gates' `_nztax/metrics.json` inside), `index/`, `function/` and pyproject.toml.
Out: staged upload directories under `.work/deploy/` and the exact command lines, as lists of
strings (never shell strings), that `nztax deploy` runs or, with --dry-run, prints.

Why Firebase Hosting for the site: a release is atomic (all files are uploaded to a new version,
then the version goes live at once) and the previous versions stay available for a one-click
rollback; a bucket synced in place (`gcloud storage rsync`) is briefly half old, half new and
needs a load balancer in front for a CDN and HTTPS.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit
import dataclasses

# Where the gates put tonight's metrics inside the site; the published copy is the next
# night's baseline (fetched from <site URL>/_nztax/metrics.json).
METRICS_IN_SITE = "_nztax/metrics.json"
RUNTIME = "python312"
ENTRY_POINT = "ask"
# Cloud Functions gen2 (Cloud Run) buildpacks put the uploaded source here; the staged
# function's settings resolve corpus/index paths against it.
DEPLOYED_HOME = "/workspace"
# Values the firebase-tools CLI must not prompt for in CI.
FIREBASE_BIN = "firebase"
GCLOUD_BIN = "gcloud"
# Content-hashed theme assets never change under one name; everything else keeps Hosting's
# default short cache so a nightly release shows up within the hour.
HASHED_ASSETS_GLOB = "/assets/@(javascripts|stylesheets)/**"
IMMUTABLE_CACHE = "public, max-age=31536000, immutable"
_DRY_RUN_PLACEHOLDER = "<{name}>"
# An Ask box pointed at one of these only works on the machine that built the site.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


class DeployError(RuntimeError):
    """Deployment cannot proceed: missing configuration or build output."""


@dataclass(frozen=True)
class Command:
    argv: list[str]
    cwd: Path | None = None
    label: str = ""

    def shell(self) -> str:
        """How the command would be typed (for printing only; it is run from `argv`)."""
        line = shlex.join(self.argv)
        return f"(cd {shlex.quote(str(self.cwd))} && {line})" if self.cwd else line


@dataclass(frozen=True)
class DeployConfig:
    project: str
    region: str
    function_name: str
    max_instances: int
    concurrency: int
    cpu: str
    memory: str
    timeout_seconds: int
    llm_model: str | None
    gemini_secret: str
    allowed_origins: tuple[str, ...]
    rate_limit_per_minute: int
    firebase_site: str | None = None
    embedder: str = "auto"
    extra_env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings, dry_run: bool = False) -> DeployConfig:
        """Read the deploy knobs; missing required ones are an error unless this is a dry run."""
        missing = []
        project = settings.gcp_project
        if not project:
            missing.append("NZTAX_GCP_PROJECT")
        origins: tuple[str, ...] = ()
        if settings.site_url:
            origins = site_origins(settings.site_url)
        else:
            missing.append("NZTAX_SITE_URL")
        if missing and not dry_run:
            raise DeployError(
                "missing deploy configuration: set "
                + ", ".join(missing)
                + " (see docs/operations.md), or use --dry-run to print the commands"
            )
        if settings.function_max_instances < 1 or settings.function_concurrency < 1:
            raise DeployError("NZTAX_FUNCTION_MAX_INSTANCES and NZTAX_FUNCTION_CONCURRENCY must be at least 1")
        if settings.function_concurrency > 1 and _cpu_value(settings.function_cpu) < 1:
            raise DeployError("NZTAX_FUNCTION_CONCURRENCY above 1 needs NZTAX_FUNCTION_CPU of at least 1")
        model = settings.function_llm_model
        return cls(
            project=project or _DRY_RUN_PLACEHOLDER.format(name="NZTAX_GCP_PROJECT"),
            region=settings.gcp_region,
            function_name=settings.function_name,
            max_instances=settings.function_max_instances,
            concurrency=settings.function_concurrency,
            cpu=settings.function_cpu,
            memory=settings.function_memory,
            timeout_seconds=settings.function_timeout,
            llm_model=None if model.lower() in ("", "offline", "none") else model,
            gemini_secret=settings.gemini_secret,
            allowed_origins=origins or (_DRY_RUN_PLACEHOLDER.format(name="NZTAX_SITE_URL origin"),),
            rate_limit_per_minute=settings.rate_limit_per_minute,
            firebase_site=settings.firebase_site,
            embedder=settings.function_embedder,
        )


def _cpu_value(cpu: str) -> float:
    try:
        return float(cpu)
    except ValueError:
        raise DeployError(f"NZTAX_FUNCTION_CPU must be a number of vCPUs, not {cpu!r}") from None


def site_origins(site_url: str) -> tuple[str, ...]:
    """The CORS origins of the public site: its own, plus the twin Firebase domain if it is one."""
    parts = urlsplit(site_url.strip())
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise DeployError(f"NZTAX_SITE_URL must be an absolute http(s) URL, not {site_url!r}")
    if parts.scheme == "http" and parts.hostname not in ("localhost", "127.0.0.1"):
        raise DeployError("NZTAX_SITE_URL must use https outside localhost")
    origin = f"{parts.scheme}://{parts.netloc.lower()}"
    origins = [origin]
    # Firebase serves every site at both <site>.web.app and <site>.firebaseapp.com.
    host = parts.hostname.lower()
    for this, twin in ((".web.app", ".firebaseapp.com"), (".firebaseapp.com", ".web.app")):
        if host.endswith(this):
            origins.append(f"https://{host[: -len(this)]}{twin}")
    return tuple(origins)


def env_vars_flag(env: dict[str, str]) -> str:
    """--set-env-vars with gcloud's alternate-delimiter syntax when a value holds a comma.

    gcloud splits KEY=VALUE pairs on commas; `^@^` at the start switches the separator
    (see `gcloud topic escaping`), so a comma-separated origin list survives intact.
    """
    pairs = [f"{k}={v}" for k, v in env.items()]
    if any("," in p for p in pairs):
        if any("@" in p for p in pairs):
            raise DeployError("environment values may not contain both ',' and '@'")
        return "--set-env-vars=^@^" + "@".join(pairs)
    return "--set-env-vars=" + ",".join(pairs)


def function_env(cfg: DeployConfig) -> dict[str, str]:
    env: dict[str, str] = {}
    if cfg.llm_model:
        env["NZTAX_LLM_MODEL"] = cfg.llm_model
    env["NZTAX_ALLOWED_ORIGINS"] = ",".join(cfg.allowed_origins)
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    env["NZTAX_RATE_LIMIT_PER_MINUTE"] = str(cfg.rate_limit_per_minute)
    env["NZTAX_HOME"] = DEPLOYED_HOME
    env["HF_HUB_OFFLINE"] = "1"  # the local embedder ships in a package: never reach for a hub
    env["NZTAX_EMBEDDER"] = cfg.embedder
    env["NZTAX_TRUSTED_PROXY_DEPTH"] = "1"  # Google's front end appends the client address to X-Forwarded-For
    env.update(cfg.extra_env)
    return env


def function_deploy_command(cfg: DeployConfig, source_dir: Path) -> Command:
    argv = [
        GCLOUD_BIN,
        "functions",
        "deploy",
        cfg.function_name,
        "--gen2",
        f"--project={cfg.project}",
        f"--region={cfg.region}",
        f"--runtime={RUNTIME}",
        f"--source={source_dir}",
        f"--entry-point={ENTRY_POINT}",
        "--trigger-http",
        "--allow-unauthenticated",
        f"--max-instances={cfg.max_instances}",
        f"--concurrency={cfg.concurrency}",
        f"--cpu={cfg.cpu}",
        f"--memory={cfg.memory}",
        f"--timeout={cfg.timeout_seconds}s",
        env_vars_flag(function_env(cfg)),
        f"--set-secrets=GEMINI_API_KEY={cfg.gemini_secret}:latest",
        "--quiet",
    ]
    return Command(argv=argv, label="function")


def firebase_config(cfg: DeployConfig) -> dict:
    hosting: dict = {
        "public": "site",
        # The publish stamp and any editor files stay local.
        "ignore": ["**/.*"],
        "headers": [
            {"source": HASHED_ASSETS_GLOB, "headers": [{"key": "Cache-Control", "value": IMMUTABLE_CACHE}]},
            {"source": "/" + METRICS_IN_SITE, "headers": [{"key": "Cache-Control", "value": "no-cache"}]},
        ],
    }
    if cfg.firebase_site:
        hosting["site"] = cfg.firebase_site
    return {"hosting": hosting}


def hosting_deploy_command(cfg: DeployConfig, hosting_dir: Path, message: str) -> Command:
    argv = [
        FIREBASE_BIN,
        "deploy",
        "--only",
        "hosting",
        "--project",
        cfg.project,
        "--message",
        message,
        "--non-interactive",
    ]
    return Command(argv=argv, cwd=hosting_dir, label="site")


# ---------------------------------------------------------------- staging


def function_requirements(pyproject: Path, extras: list[str]) -> list[str]:
    """The function's pinned requirement lines: [project].dependencies plus the named extras."""
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as exc:
        raise DeployError(f"{pyproject}: cannot read [project] ({exc})") from None
    lines = list(project.get("dependencies", []))
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise DeployError(f"{pyproject}: no optional dependency set {extra!r}")
        lines.extend(optional[extra])
    seen: dict[str, None] = {}
    for line in lines:
        seen.setdefault(line.strip(), None)
    return list(seen)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def hashed_requirements(lock: Path, pins: list[str]) -> str:
    """The entries of the hashed lock (`requirements/lock.txt`) that `pins` need, hashes included.

    The lock's "# via" notes say which package pulled each one in; starting from the pinned
    packages, every entry pulled in by one already needed is needed too. The platform's pip then
    installs exactly the versions `make setup` tested (gunicorn, flask and werkzeug included: the
    server builds on gunicorn's internals), and refuses any file whose hash differs.
    """
    try:
        text = lock.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeployError(f"{lock}: cannot read the hashed lock ({exc.strerror}); run `make lock`") from None
    entries: dict[str, tuple[str, str, set[str]]] = {}  # name -> (version, block, pulled in by)
    for block in re.split(r"\n(?=[A-Za-z0-9])", text.strip()):
        head = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", block)
        if not head:
            continue
        via = {_canonical(v.split()[0]) for v in re.findall(r"#\s+(?:via\s+)?([A-Za-z0-9][^\n]*)", block)
               if not v.startswith("via")}
        body = "\n".join(line for line in block.splitlines() if not line.lstrip().startswith("#"))
        entries[_canonical(head.group(1))] = (head.group(2), body, via)
    needed: set[str] = set()
    for pin in pins:
        name, _, version = pin.partition("==")
        name = _canonical(name.split("[")[0])
        if entries.get(name, ("",))[0] != version.strip():
            raise DeployError(f"{lock}: has no {pin.strip()} (the lock and pyproject.toml disagree; run `make lock`)")
        needed.add(name)
    grown = True
    while grown:
        grown = False
        for name, (_, _, via) in entries.items():
            if name not in needed and via & needed:
                needed.add(name)
                grown = True
    return "\n".join(entries[name][1] for name in sorted(needed)) + "\n"


def function_extras(cfg: DeployConfig, index_dir: Path) -> list[str]:
    """Extras the deployed function needs: litellm for an LLM, google-genai for a Gemini-built index."""
    extras = []
    if cfg.llm_model:
        extras.append("llm")
    try:
        manifest = json.loads((index_dir / "manifest.json").read_text(encoding="utf-8"))
        embedder = str(manifest.get("embedder_id", ""))
    except (OSError, ValueError, AttributeError):
        embedder = ""
    if embedder.startswith("gemini"):
        extras.append("gemini")
    return extras


@dataclass(frozen=True)
class DeployPaths:
    home: Path
    function_src: Path
    index_dir: Path
    site_dir: Path
    staging: Path

    @classmethod
    def from_settings(cls, settings) -> DeployPaths:
        home = Path(settings.home)
        return cls(
            home=home,
            function_src=home / "function",
            index_dir=Path(settings.index_dir),
            site_dir=home / "site",
            staging=Path(settings.work_dir) / "deploy",
        )

    @property
    def function_stage(self) -> Path:
        return self.staging / "function"

    @property
    def hosting_stage(self) -> Path:
        return self.staging / "hosting"


_COPY_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.egg-info")


def check_build(paths: DeployPaths, only: str) -> None:
    """Every input the chosen targets need exists; a clear message names the missing step."""
    problems = []
    if only in ("all", "function"):
        if not (paths.function_src / "main.py").is_file():
            problems.append(f"{paths.function_src}/main.py is missing")
        if not (paths.index_dir / "manifest.json").is_file():
            problems.append(f"{paths.index_dir}/manifest.json is missing (run `nztax build`)")
    if only in ("all", "site"):
        if not (paths.site_dir / "index.html").is_file():
            problems.append(f"{paths.site_dir}/index.html is missing (run `make site`)")
        else:
            if not (paths.site_dir / METRICS_IN_SITE).is_file():
                problems.append(
                    f"{paths.site_dir}/{METRICS_IN_SITE} is missing: run "
                    f"`nztax gates --write-baseline site/{METRICS_IN_SITE}` so the next night has a baseline"
                )
            for problem in (site_ask_url_problem(paths.site_dir), site_address_problem(paths.site_dir)):
                if problem:
                    problems.append(problem)
    if problems:
        raise DeployError("cannot deploy: " + "; ".join(problems))


def site_ask_url_problem(site_dir: Path) -> str | None:
    """Why the built site's Ask box cannot work once published, or None.

    `make site` bakes NZTAX_ASK_URL into every page, and its default is the local function on
    loopback: a site built without it would post every question to the reader's own machine.
    """
    from .commands.serve import built_ask_url

    url = built_ask_url(site_dir)
    if not url:
        return f"{site_dir}/index.html has no Ask box URL (data-ask-url): rebuild it with `make site`"
    host = urlsplit(url).hostname or ""
    if host in LOOPBACK_HOSTS or host.endswith(".localhost"):
        return (f"{site_dir} was built with the Ask box posting to {url} (the local function): set NZTAX_ASK_URL to "
                "the deployed function's URL (https://REGION-PROJECT.cloudfunctions.net/NAME) and run `make site` again")
    return None


def site_address_problem(site_dir: Path) -> str | None:
    """Why the built site's own address (canonical links, sitemap) is not a public one, or None.

    The address comes from NZTAX_SITE_URL at build time; a site built without it names this
    machine's `nztax serve` address in every page's canonical link and in the sitemap.
    """

    from .mkdocs_hooks import site_url_problem

    try:
        html = (site_dir / "index.html").read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r'<link rel="?canonical"? href="?([^" >]+)', html)
    if not m:
        return f"{site_dir}/index.html has no canonical address: set NZTAX_SITE_URL and run `make site` again"
    url = m.group(1)
    host = urlsplit(url).hostname or ""
    problem = site_url_problem(url)
    if not problem and (host in LOOPBACK_HOSTS or host.endswith(".localhost")):
        problem = f"{url!r} is this machine's address"
    return f"{site_dir} was built for {problem}: set NZTAX_SITE_URL to the public address and run `make site` again" if problem else None


def stage_function(paths: DeployPaths, requirements: list[str]) -> Path:
    """function/ + index/ + requirements.txt in a fresh directory: exactly what gets uploaded."""
    target = paths.function_stage
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(paths.function_src, target, ignore=_COPY_IGNORE)
    shutil.copytree(paths.index_dir, target / "index", ignore=_COPY_IGNORE)
    if _index_embedder(paths.index_dir).startswith("all-MiniLM"):
        _stage_tokenizer(target)
    (target / "requirements.txt").write_text(
        "# generated by `nztax deploy` from pyproject.toml and requirements/lock.txt; do not edit\n"
        + hashed_requirements(paths.home / "requirements" / "lock.txt", requirements),
        encoding="utf-8",
    )
    compile_bytecode(target, runtime_python())
    # Stop gcloud from writing its own default ignore file into the stage. The bytecode compiled
    # above is uploaded: the runtime would otherwise compile every module at each cold start.
    (target / ".gcloudignore").write_text(".gcloudignore\n", encoding="utf-8")
    return target


def runtime_python() -> str | None:
    """This machine's interpreter of the deployed runtime's Python ("python312": python3.12), or None."""
    version = RUNTIME.removeprefix("python")
    return shutil.which(f"python{version[0]}.{version[1:]}")


def compile_bytecode(stage: Path, python: str | None) -> int:
    """Compile the staged function's modules with the runtime's Python; returns how many .pyc files.

    Bytecode is specific to a Python version (3.11's is ignored by 3.12), so the build's own
    `__pycache__` is never copied; this compiles the staged sources with an interpreter of the
    runtime's version. Each .pyc records the hash of its source ("checked-hash") rather than its
    modification time, which the upload does not keep; an edited source is compiled afresh.
    Without that interpreter the function still runs, compiling its modules when it starts.
    """
    if python is None:
        return 0
    sources = [str(stage / "main.py"), str(stage / "nztax")]
    try:
        done = subprocess.run([python, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash", *sources],
                              capture_output=True, text=True, timeout=600)
    except OSError:
        return 0
    if done.returncode != 0:  # e.g. a version manager's shim for a version it does not have
        return 0
    return sum(1 for _ in stage.rglob("*.pyc"))


def deployed_settings(cfg: DeployConfig, index_dir: Path):
    """The Settings the deployed function will read: its env vars plus the mounted Gemini key
    (any value: only its presence matters here)."""

    from nztax.settings import get_settings

    return dataclasses.replace(get_settings(), embedder=cfg.embedder, gemini_api_key="mounted-secret",
                               index_dir=index_dir)


def check_embedder(cfg: DeployConfig, index_dir: Path) -> None:
    """Refuse a function whose query embedder cannot read the published index (every /ask
    would answer 503): the check the function itself makes at load, under the deployed env."""
    from nztax.embedders import embedder_problem

    built = _index_embedder(index_dir)
    if not built:
        return  # no index yet: check_build names the missing step before a real deploy
    problem = embedder_problem(deployed_settings(cfg, index_dir), built)
    if problem:
        raise DeployError(f"the deployed function could not read the index: {problem} "
                          "(set NZTAX_FUNCTION_EMBEDDER=auto, or rebuild the index with the embedder you deploy)")


def _index_embedder(index_dir: Path) -> str:
    try:
        return str(json.loads((index_dir / "manifest.json").read_text(encoding="utf-8")).get("embedder_id", ""))
    except (OSError, ValueError):
        return ""


def _stage_tokenizer(target: Path) -> None:
    """Copy the MiniLM tokenizer.json into the stage when the local query embedder needs it."""
    from nztax.embedders import STAGED_TOKENIZER, _minilm_paths

    _, tokenizer = _minilm_paths()
    staged = target / STAGED_TOKENIZER.relative_to(STAGED_TOKENIZER.parents[2])
    staged.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(tokenizer, staged)


def stage_hosting(paths: DeployPaths, cfg: DeployConfig) -> Path:
    """A Firebase project directory: firebase.json + a copy of site/."""
    target = paths.hosting_stage
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    shutil.copytree(paths.site_dir, target / "site")
    (target / "firebase.json").write_text(json.dumps(firebase_config(cfg), indent=2) + "\n", encoding="utf-8")
    return target


def plan(cfg: DeployConfig, paths: DeployPaths, only: str, message: str) -> list[Command]:
    """The commands in the order they run. The function goes first and a failure stops the rest,
    so a function that fails to build never leaves a new site beside yesterday's index."""
    commands = []
    if only in ("all", "function"):
        commands.append(function_deploy_command(cfg, paths.function_stage))
    if only in ("all", "site"):
        commands.append(hosting_deploy_command(cfg, paths.hosting_stage, message))
    return commands
