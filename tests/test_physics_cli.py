"""``kumiki stability FILE [--json]``: the verdict as text or as the contract's JSON, and one line (exit 2) for every
kind of bad tower."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import CliRunner, assert_one_line_error, cli_runner, plain_output

COLUMN = {"bodies": [{"name": "column", "boxes": [[0, 0, 0, 1, 1, 4]]}]}
CANTILEVER = {
    "bodies": [
        {"name": "post", "boxes": [[0, 0, 0, 1, 1, 1]]},
        {"name": "arm", "boxes": [[0, 0, 1, 3, 1, 2]]},
    ]
}
KNIFE_EDGE = {
    "bodies": [
        {"name": "bottom", "boxes": [[0, 0, 0, 1, 1, 1]]},
        {"name": "top", "boxes": [[0.5, 0, 1, 1.5, 1, 2]]},
    ]
}
STAIRCASE = {"bodies": [{"name": f"c{i}", "boxes": [[0.11 * i, 0, i, 0.11 * i + 1, 1, i + 1]]} for i in range(10)]}


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_output(monkeypatch)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """Run ``kumiki ARGS`` in this process: ``(exit status, stdout, stderr)``."""
    return cli_runner(capsys, monkeypatch)


def write(tmp_path: Path, data: object, name: str = "tower.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------ text


def test_a_standing_tower_as_text(cli, tmp_path: Path) -> None:
    code, out, err = cli("stability", write(tmp_path, COLUMN))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "verdict: stands"
    assert lines[1].startswith("margin:  14.04°")
    assert lines[2] == "bodies:  1"
    assert "fault" not in out and "moving" not in out


def test_a_falling_tower_as_text_names_the_fault_and_the_moving_bodies(cli, tmp_path: Path) -> None:
    code, out, err = cli("stability", write(tmp_path, CANTILEVER))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "verdict: falls",
        "margin:  0.00°",
        "bodies:  2",
        "fault:   arm tips over the edge of post",
        "moving:  arm",
    ]


def test_a_staircase_that_falls_lists_every_moving_body(cli, tmp_path: Path) -> None:
    code, out, _ = cli("stability", write(tmp_path, STAIRCASE))
    assert code == 0
    assert "fault:   c1 tips over the edge of c0\n" in out
    assert "moving:  " + ", ".join(f"c{i}" for i in range(1, 10)) + "\n" in out
    assert "bodies:  10" in out


def test_a_knife_edge_as_text(cli, tmp_path: Path) -> None:
    code, out, _ = cli("stability", write(tmp_path, KNIFE_EDGE))
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("verdict: falls") and "knife edge" in first
    assert "fault:   top tips over the edge of bottom (balanced exactly on the edge)" in out
    code, out, _ = cli("stability", write(tmp_path, {**KNIFE_EDGE, "tie": "stands"}))
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("verdict: stands") and "knife edge" in first
    assert "fault" not in out


# ------------------------------------------------------------------------------------------------ --json


def test_json_of_a_standing_tower_is_exactly_the_contract_object(cli, tmp_path: Path) -> None:
    code, out, err = cli("stability", write(tmp_path, COLUMN), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"stands": True, "edge": False, "margin_deg": 14.04, "bodies": 1}
    assert out.count("\n") == 1


def test_json_of_a_falling_tower_adds_fault_and_moving(cli, tmp_path: Path) -> None:
    code, out, _ = cli("stability", write(tmp_path, CANTILEVER), "--json")
    assert code == 0
    assert json.loads(out) == {
        "stands": False,
        "edge": False,
        "margin_deg": 0.0,
        "bodies": 2,
        "fault": "arm tips over the edge of post",
        "moving": ["arm"],
    }


def test_json_of_knife_edges(cli, tmp_path: Path) -> None:
    code, out, _ = cli("stability", write(tmp_path, KNIFE_EDGE), "--json")
    assert code == 0
    result = json.loads(out)
    assert (result["stands"], result["edge"], result["moving"]) == (False, True, ["top"])
    code, out, _ = cli("stability", write(tmp_path, {**KNIFE_EDGE, "tie": "stands"}), "--json")
    assert json.loads(out) == {"stands": True, "edge": True, "margin_deg": 0.0, "bodies": 2}


def test_ground_regions_are_read(cli, tmp_path: Path) -> None:
    tower = {"ground": [[0, 0, 1, 1]], "bodies": [{"name": "c", "boxes": [[0.6, 0, 0, 1.6, 1, 1]]}]}
    code, out, _ = cli("stability", write(tmp_path, tower), "--json")
    assert code == 0
    assert json.loads(out)["fault"] == "c tips over the edge of the table"


def scaled(tower: dict[str, Any], length: float = 1.0, density: float = 1.0) -> dict[str, Any]:
    """``tower`` in other units: every length times ``length``, every density times ``density``."""
    bodies = [
        {**body, "boxes": [[v * length for v in box] for box in body["boxes"]], "density": density}
        for body in tower["bodies"]
    ]
    return {**tower, "bodies": bodies}


@pytest.mark.parametrize("length", [1e-110, 1e-85, 1e-40, 1e40, 1e80, 1e200])
@pytest.mark.parametrize("tower", ["COLUMN", "CANTILEVER", "KNIFE_EDGE"])
def test_the_verdict_does_not_depend_on_the_units(cli, tmp_path: Path, tower: str, length: float) -> None:
    # A cube 1e-110 on a side was an internal error (its volume underflowed to 0), one 1e80 fell (its moment
    # overflowed), two cubes 1e-85 on a side stood on a knife edge.
    given = {"COLUMN": COLUMN, "CANTILEVER": CANTILEVER, "KNIFE_EDGE": KNIFE_EDGE}[tower]
    code, expected, _ = cli("stability", write(tmp_path, given), "--json")
    assert code == 0
    code, out, err = cli("stability", write(tmp_path, scaled(given, length)), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == json.loads(expected)


@pytest.mark.parametrize("density", [1e-300, 1e300])
def test_the_verdict_does_not_depend_on_the_unit_of_density(cli, tmp_path: Path, density: float) -> None:
    # Lengths near 1 and a density of 1e300: the masses overflowed and this standing tower fell.
    offset = {
        "bodies": [{"name": "a", "boxes": [[0, 0, 0, 1, 1, 1]]}, {"name": "b", "boxes": [[0.2, 0, 1, 1.2, 1, 2]]}]
    }
    code, expected, _ = cli("stability", write(tmp_path, offset), "--json")
    assert (code, json.loads(expected)["stands"]) == (0, True)
    code, out, err = cli("stability", write(tmp_path, scaled(offset, 1e5, density)), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == json.loads(expected)


def test_a_body_too_small_to_weigh_anything_is_one_line(cli, tmp_path: Path) -> None:
    speck = {"name": "speck", "boxes": [[0, 0, 1, 1e-200, 1e-200, 1.5]]}
    tower = {"bodies": [*COLUMN["bodies"], speck]}
    code, out, err = cli("stability", write(tmp_path, tower), "--json")
    assert json.loads(out) == {"error": "bodies[1] (speck) is too small or too light next to the rest of the tower"}
    assert_one_line_error(code, err, "tower.json: bodies[1] (speck) is too small")


@pytest.mark.parametrize("length", [1e5, 1e8])
def test_a_face_too_narrow_for_the_knife_edge_band_is_refused_not_a_fall(cli, tmp_path: Path, length: float) -> None:
    # A plank 10^5 times as long as it is wide, lying on the table: its face vanished when the contacts were shrunk
    # by the band (1e-5 of the tower's size), so it read as balanced on an edge and "fell".
    plank = {"bodies": [{"name": "plank", "boxes": [[0, 0, 0, length, 1, 1]]}]}
    code, out, err = cli("stability", write(tmp_path, plank), "--json")
    assert json.loads(out)["error"].startswith("plank touches the table over a face 1.0e-")
    assert_one_line_error(code, err, "too fine to tell a knife edge from a face")
    shorter = {"bodies": [{"name": "plank", "boxes": [[0, 0, 0, 1e4, 1, 1]]}]}
    code, out, _ = cli("stability", write(tmp_path, shorter), "--json")
    assert (code, json.loads(out)["stands"], json.loads(out)["edge"]) == (0, True, False)
    overhang = {"bodies": [*COLUMN["bodies"], {"name": "hair", "boxes": [[1 - 1e-7, 0, 4, 2 - 1e-7, 1, 5]]}]}
    code, out, _ = cli("stability", write(tmp_path, overhang), "--json")  # a clear fall on a hair is still a fall
    assert (code, json.loads(out)["stands"], json.loads(out)["edge"]) == (0, False, False)


def test_stdin(cli) -> None:
    code, out, _ = cli("stability", "-", "--json", stdin=json.dumps(COLUMN))
    assert code == 0
    assert json.loads(out)["margin_deg"] == 14.04
    code, out, _ = cli("stability", "-", stdin=json.dumps(CANTILEVER))
    assert code == 0
    assert out.startswith("verdict: falls")


def test_a_byte_order_mark_is_accepted(cli, tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(COLUMN).encode())
    code, out, _ = cli("stability", path, "--json")
    assert code == 0
    assert json.loads(out)["stands"] is True


# ------------------------------------------------------------------------------------------------ errors

TWO_OVERLAPPING = {
    "bodies": [{"name": "a", "boxes": [[0, 0, 0, 2, 2, 2]]}, {"name": "b", "boxes": [[1, 1, 1, 3, 3, 3]]}]
}
SUNK = {"bodies": [{"name": "sunk", "boxes": [[0, 0, -1, 1, 1, 1]]}]}

BAD_TOWERS = {
    "overlap": (TWO_OVERLAPPING, "bodies 'a' and 'b' overlap"),
    "below the table": (SUNK, "'sunk' reaches below the table"),
    "not an object": ("[1, 2, 3]", "a tower is a JSON object"),
    "no bodies": ("{}", "'bodies' must be a non-empty list"),
    "flat box": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 0]]}]}, "z0 < z1"),
    "bad density": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]], "density": -2}]}, "density must be positive"),
    "unknown field": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "wind": 1}, "unknown field 'wind'"),
    "bad tie": ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}], "tie": "maybe"}, "'tie' must be"),
    "duplicate names": (
        {"bodies": [{"name": "x", "boxes": [[0, 0, 0, 1, 1, 1]]}, {"name": "x", "boxes": [[0, 0, 1, 1, 1, 2]]}]},
        "two bodies are named 'x'",
    ),
    "huge integer": ('{"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1' + "0" * 400 + "]]}]}", "too large"),
    "infinity": ('{"bodies": [{"boxes": [[0, 0, 0, 1, 1, Infinity]]}]}', "finite number"),
    "nan": ('{"bodies": [{"boxes": [[0, 0, 0, 1, 1, NaN]]}]}', "finite number"),
    # json.loads raised int()'s ValueError, which said to call sys.set_int_max_str_digits()
    "integer of 5000 digits": ('{"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1' + "0" * 5000 + "]]}]}", "over 4300 digits"),
    # the message quoted the whole value: a line of 60,000 characters
    "long value": (
        {"bodies": [{"boxes": [[0, 0, 0, 1, 1, [[0, 0, 0, 1, 1, 1]] * 3000]]}]},
        "not [[0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1]…",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_TOWERS))
def test_a_bad_tower_is_one_line_and_exit_2(cli, tmp_path: Path, kind: str) -> None:
    data, reason = BAD_TOWERS[kind]
    path = write(tmp_path, data)
    code, out, err = cli("stability", path)
    assert_one_line_error(code, err, f"{path}: ", reason)
    assert out == ""
    code, out, err = cli("stability", path, "--json")
    line = assert_one_line_error(code, err, reason)
    error = json.loads(out)
    assert set(error) == {"error"}
    assert reason in error["error"]
    assert line == f"{path}: {error['error']}"


def test_a_bad_value_is_quoted_short_and_any_unknown_key_is_named() -> None:
    """The messages quoted a bad value whole (a list of 3,000 boxes gave a line of 60,000 characters), and a dict
    built in Python with keys of two types (an int and a text) raised sorted()'s TypeError instead of TowerError."""
    from kumiki.physics import TowerError, analyse

    body = {"boxes": [[0, 0, 0, 1, 1, 1]]}
    for tower, words in [
        ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, "x" * 10_000]]}]}, "finite number, not 'xxxx"),
        ({"bodies": [body], "tie": "x" * 10_000}, '\'tie\' must be "falls" or "stands", not \'xxxx'),
        ({"bodies": [{"boxes": [[0, 0, 0, 1, 1, [10**5000]]]}]}, "finite number, not a list"),
        ({"bodies": [body], 1: 2, "wind": 3}, "unknown field 'wind'"),
        ({"bodies": [{**body, 1: 2, "wind": 3}]}, "unknown field 'wind'"),
    ]:
        with pytest.raises(TowerError) as caught:
            analyse(tower)
        assert words in str(caught.value) and len(str(caught.value)) < 200, str(caught.value)


def test_overlap_message_names_the_file_and_both_bodies(cli, tmp_path: Path) -> None:
    path = write(tmp_path, TWO_OVERLAPPING)
    _, _, err = cli("stability", path)
    assert err == f"{path}: bodies 'a' and 'b' overlap\n"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"bodies": [\n  {"boxes": [[0, 0, 0, 1, 1, 1]]}\n  {"boxes": []}\n]}', "line 3, column 3"),
        ("", "line 1, column 1"),
        ('{"bodies": [', "line 1, column 13"),
        ("{'bodies': []}", "line 1, column 2"),
        ('{"bodies": []}\n\ntrailing', "line 3, column 1"),
    ],
)
def test_invalid_json_says_where(cli, tmp_path: Path, text: str, where: str) -> None:
    path = write(tmp_path, text)
    code, out, err = cli("stability", path)
    assert_one_line_error(code, err, str(path), where, "invalid JSON")
    assert out == ""
    code, out, err = cli("stability", path, "--json")
    assert_one_line_error(code, err, where)
    assert where in json.loads(out)["error"]


def test_invalid_json_on_stdin(cli) -> None:
    code, out, err = cli("stability", "-", "--json", stdin="{nope")
    assert_one_line_error(code, err, "stdin: line 1, column 2", "invalid JSON")
    assert "line 1, column 2" in json.loads(out)["error"]


def test_deeply_nested_json_is_an_error_not_a_crash(cli, tmp_path: Path) -> None:
    path = write(tmp_path, "[" * 100_000 + "]" * 100_000)
    code, _, err = cli("stability", path)
    assert_one_line_error(code, err, str(path))


def test_a_missing_file(cli, tmp_path: Path) -> None:
    path = tmp_path / "nothere.json"
    code, out, err = cli("stability", path)
    assert_one_line_error(code, err, str(path), "no such file")
    assert out == ""
    code, out, err = cli("stability", path, "--json")
    assert_one_line_error(code, err, "no such file")
    assert json.loads(out) == {"error": "no such file"}


def test_a_directory(cli, tmp_path: Path) -> None:
    code, _, err = cli("stability", tmp_path)
    assert_one_line_error(code, err, str(tmp_path), "is a directory, not a tower")


def test_an_unreadable_file(cli, tmp_path: Path) -> None:
    path = write(tmp_path, COLUMN)
    path.chmod(0)
    try:
        if path.open("rb"):  # running as root: every file is readable
            pytest.skip("files cannot be made unreadable here")
    except PermissionError:
        code, _, err = cli("stability", path)
        assert_one_line_error(code, err, str(path), "cannot read")
    finally:
        path.chmod(0o644)


def test_a_file_that_is_not_utf8(cli, tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"bodies": [\n{"name": "caf\xe9", "boxes": [[0, 0, 0, 1, 1, 1]]}]}')
    code, _, err = cli("stability", path)
    assert_one_line_error(code, err, str(path), "line 2", "UTF-8")


def test_usage_errors(cli) -> None:
    code, _, err = cli("stability")
    assert code == 2
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1
    code, _, err = cli("stability", "x.json", "--nope")
    assert code == 2
    assert len(err.splitlines()) == 1


def test_the_installed_command(tmp_path: Path) -> None:
    path = write(tmp_path, TWO_OVERLAPPING)
    run = subprocess.run(
        [sys.executable, "-m", "kumiki.cli", "stability", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr == f"{path}: bodies 'a' and 'b' overlap\n"
    assert json.loads(run.stdout) == {"error": "bodies 'a' and 'b' overlap"}
    run = subprocess.run(
        [sys.executable, "-m", "kumiki.cli", "stability", "-"],
        input=json.dumps(COLUMN),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("verdict: stands\n")


def test_a_long_body_name_is_cut_short_in_the_error() -> None:
    """A body named with 100,000 characters made a 100,000-character "one line" error."""
    from kumiki.physics import TowerError, analyse

    long = "Q" * 100_000
    cube = [0, 0, 0, 1, 1, 1]
    for data in (
        {"bodies": [{"name": long, "boxes": [cube]}, {"name": long, "boxes": [cube]}]},
        {"bodies": [{"name": long, "boxes": [cube], long: 1}]},
        {"bodies": [{"name": long, "boxes": [[0, 0, -1, 1, 1, 0]]}]},
    ):
        with pytest.raises(TowerError) as error:
            analyse(data)
        assert len(str(error.value)) < 200 and "Q…" in str(error.value), str(error.value)[:300]
