"""The lock (requirements.lock) pins every dependency of every extra, with hashes and no index address, and the
environment the suite runs in is exactly the locked one (``make test-latest`` runs the suite unlocked on purpose and
says so with KUMIKI_UNLOCKED=1)."""

from __future__ import annotations

import hashlib
import os
import re
import site
import tomllib
from importlib.metadata import distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK_TEXT = (ROOT / "requirements.lock").read_text(encoding="utf-8")
PINS = {
    canonicalize_name(name): version
    for name, version in re.findall(r"^([A-Za-z0-9_.\-]+)==([^\s\\;]+)", LOCK_TEXT, re.M)
}


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    texts = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        texts += extra
    return [Requirement(text) for text in texts if not text.startswith("kumiki[")]


def test_every_declared_dependency_is_pinned_within_its_bounds() -> None:
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in PINS, f"{requirement} is not in requirements.lock: run make lock"
        assert requirement.specifier.contains(PINS[name], prereleases=True), f"{requirement} vs locked {PINS[name]}"


def test_every_pin_has_hashes_and_the_lock_names_no_index() -> None:
    blocks = re.split(r"\n(?=[A-Za-z0-9_.\-]+==)", LOCK_TEXT)
    pinned = [b for b in blocks if re.match(r"[A-Za-z0-9_.\-]+==", b)]
    assert len(pinned) == len(PINS) > 50
    for block in pinned:
        assert "--hash=sha256:" in block, block.splitlines()[0]
    assert "://" not in LOCK_TEXT
    assert not re.search(r"^\s*--(index-url|extra-index-url|find-links|trusted-host)", LOCK_TEXT, re.M)


@pytest.mark.skipif(os.environ.get("KUMIKI_UNLOCKED") == "1", reason="make test-latest runs unlocked on purpose")
def test_the_running_environment_is_the_locked_one() -> None:
    # What pip installed: the venv's site-packages (Ray puts copies of its own dependencies on sys.path when imported).
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions(path=site.getsitepackages())}
    for name, version in PINS.items():
        assert installed.get(name) == version, f"{name}: installed {installed.get(name)}, locked {version}"
    extra = set(installed) - set(PINS) - {"kumiki"}
    assert not extra, f"installed but not locked: {sorted(extra)}"


def test_the_lock_was_made_from_this_pyproject() -> None:
    """``make lock`` records the hash of the pyproject.toml it read: a change to the dependencies (or their
    comments) without a new lock fails here, before a fresh machine installs something nobody tested."""
    recorded = re.search(r"^# pyproject.toml sha256 ([0-9a-f]{64})$", LOCK_TEXT, re.M)
    assert recorded, "requirements.lock has no pyproject.toml hash: run make lock"
    actual = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    assert recorded.group(1) == actual, "pyproject.toml changed after requirements.lock: run make lock"
