"""Fixtures of the arena's command-line tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.helpers import CliRunner, cli_runner


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    return cli_runner(capsys, monkeypatch)


@pytest.fixture
def run_study(tmp_path: Path, run: CliRunner) -> Callable[[str, str], tuple[Path, str]]:
    """``kumiki arena run`` of a study file's text (written as ``tmp_path/NAME.toml``) on the serial backend into
    ``tmp_path/out``: (that folder, what the run printed)."""

    def finish(text: str, name: str) -> tuple[Path, str]:
        study = tmp_path / f"{name}.toml"
        study.write_text(text)
        out = tmp_path / "out"
        code, stdout, err = run("arena", "run", study, "--out", out, "--backend", "serial", "--quiet")
        assert code == 0, err
        return out, stdout

    return finish
