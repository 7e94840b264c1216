"""Suite files: stable JSONL form, and clear errors for every kind of bad line."""

from __future__ import annotations

import json

import pytest

from cubebench.harness.cube import SOLVED_FACELETS
from cubebench.harness.suites.catalog import load_suite, register_user_suite
from cubebench.harness.suites.model import Instance, SuiteError, parse_instances, serialize

R_FACELETS = "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"


def test_serialize_round_trip():
    instances = [Instance(0, SOLVED_FACELETS, "", 0, 0), Instance(1, R_FACELETS, "R", 1, 1)]
    data = serialize(instances)
    assert parse_instances(data, "x") == tuple(instances)
    first = json.loads(data.decode().splitlines()[1])
    assert first == {"id": 1, "facelets": R_FACELETS, "scramble": "R", "depth": 1, "optimal_htm": 1}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "f.jsonl line 1: not JSON"),
        ('{"id": 0}', "needs an object with 'id' and 'facelets'"),
        (json.dumps({"id": 0, "facelets": SOLVED_FACELETS, "colour": 1}), "unknown fields"),
        (json.dumps({"id": "a", "facelets": SOLVED_FACELETS}), "id must be an integer"),
        (json.dumps({"id": 0, "facelets": SOLVED_FACELETS[:-1]}), r"line 1 \(id 0\): .*54"),
        (
            json.dumps({"id": 0, "facelets": R_FACELETS, "scramble": "U"}),
            "the scramble gives .* not the instance's facelets",
        ),
        (json.dumps({"id": 0, "facelets": R_FACELETS, "scramble": "Q"}), "bad move 'Q'"),
    ],
)
def test_bad_lines_are_named(line, message):
    with pytest.raises(SuiteError, match=message):
        parse_instances(line.encode() + b"\n", "f.jsonl")


def test_duplicate_ids_and_empty_files_refused():
    line = json.dumps({"id": 0, "facelets": SOLVED_FACELETS}) + "\n"
    with pytest.raises(SuiteError, match="duplicate id 0"):
        parse_instances((line * 2).encode(), "f")
    with pytest.raises(SuiteError, match="no instances"):
        parse_instances(b"\n", "f")


def test_user_suites_register_and_load(isolated_home):
    info = register_user_suite("mine", [Instance(0, R_FACELETS)], {"source": "test"})
    assert info.path.parent == isolated_home / "suites"
    suite = load_suite("mine")
    assert suite.sha256 == info.sha256 and suite.instances[0].facelets == R_FACELETS
    with pytest.raises(SuiteError, match="exists already"):
        register_user_suite("mine", [Instance(0, R_FACELETS)], {})
    with pytest.raises(SuiteError, match="is built in"):
        register_user_suite("depth-01-v1", [Instance(0, R_FACELETS)], {})
    with pytest.raises(SuiteError, match="plain word"):
        register_user_suite("../evil", [Instance(0, R_FACELETS)], {})


def test_load_suite_by_path(tmp_path):
    path = tmp_path / "cubes.jsonl"
    path.write_bytes(serialize([Instance(7, R_FACELETS)]))
    assert load_suite(str(path)).instances[0].id == 7


def test_a_file_read_again_gives_what_its_bytes_say_now(tmp_path):
    """Loads are remembered by their bytes: an unchanged file gives the same instances, a
    file annotated since gives its new optima, and a file broken since is refused again."""
    path = tmp_path / "cubes.jsonl"
    path.write_bytes(serialize([Instance(7, R_FACELETS)]))
    first = load_suite(str(path))
    assert load_suite(str(path)).instances == first.instances
    path.write_bytes(serialize([Instance(7, R_FACELETS, optimal_htm=1)]))
    assert load_suite(str(path)).instances[0].optimal_htm == 1
    path.write_bytes(path.read_bytes().replace(b'"id": 7', b'"id": "seven"'))
    for _ in range(2):
        with pytest.raises(SuiteError, match="id must be an integer"):
            load_suite(str(path))
    path.write_bytes(serialize([Instance(7, R_FACELETS)]))
    assert load_suite(str(path)).instances[0].optimal_htm is None
