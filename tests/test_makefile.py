"""The Makefile's own recipes, run by ``make`` in a scratch folder with stand-ins for Python: what a newcomer meets
before anything of Kumiki is installed."""

from __future__ import annotations

import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _script(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _folder(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the Makefile with the stamp's inputs, and a stand-in ``python3.11`` whose ``-m venv DIR`` makes a
    venv whose python logs every call and succeeds (so pip "installs" in no time). Returns the folder and the log."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").touch()
    (tmp_path / "requirements.lock").touch()
    log = tmp_path / "calls.log"
    venv_python = f'echo "venv python $*" >> {log}'
    _script(
        tmp_path / "fake" / "python3.11",
        f'echo "python3.11 $*" >> {log}\n'
        "for dir; do :; done\n"  # the last argument: the venv's folder
        'mkdir -p "$dir/bin"\n'
        f"printf '#!/bin/sh\\n%s\\n' '{venv_python}' > \"$dir/bin/python\"\n"
        'chmod +x "$dir/bin/python"',
    )
    return tmp_path, log


def _make(folder: Path, target: str) -> subprocess.CompletedProcess[str]:
    python = folder / "fake" / "python3.11"
    return subprocess.run(
        ["make", "--no-print-directory", target, f"PYTHON={python}"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_venv_left_without_pip_is_made_again(tmp_path: Path) -> None:
    """On Debian without python3.11-venv, ``python3.11 -m venv .venv`` writes ``.venv/bin/python`` and then fails
    (ensurepip is missing), so ``make run`` stops. Once the newcomer installed the package, ``make run`` skipped the
    venv (its python existed) and failed at once with "No module named pip", until ``.venv`` was removed by hand.
    A venv whose python has no pip is made again."""
    folder, log = _folder(tmp_path)
    _script(folder / ".venv" / "bin" / "python", 'echo "No module named pip" >&2; exit 1')  # the half-made venv
    done = _make(folder, ".venv/.installed")
    assert done.returncode == 0, done.stdout + done.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls[0].startswith("python3.11 -m venv") and calls[0].endswith(" .venv"), calls
    assert any("-m pip install" in call and "-r requirements.lock" in call for call in calls[1:]), calls
    assert (folder / ".venv" / ".installed").is_file()


def test_a_working_venv_is_kept(tmp_path: Path) -> None:
    """A venv whose python runs pip is used as it is: ``make run`` never makes it again."""
    folder, log = _folder(tmp_path)
    _script(folder / ".venv" / "bin" / "python", f'echo "kept python $*" >> {log}')
    done = _make(folder, ".venv/.installed")
    assert done.returncode == 0, done.stdout + done.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert not any(call.startswith("python3.11") for call in calls), calls
    assert any(call.startswith("kept python -m pip install") for call in calls), calls


def test_make_help_lists_every_target(tmp_path: Path) -> None:
    """The README says ``make help`` lists every target: it left out ``system-deps`` (chromium and postgresql with apt,
    as root), which ``make test`` runs and ``make screenshots`` and ``make pictures`` need."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = re.search(r"^\.PHONY: (.*)$", makefile, re.M)
    assert phony is not None
    done = subprocess.run(["make", "--no-print-directory", "help"], cwd=tmp_path, capture_output=True, text=True)
    listed = re.findall(r"^  make (\S+)", done.stdout, re.M)
    assert sorted(listed) == sorted(phony[1].split())
