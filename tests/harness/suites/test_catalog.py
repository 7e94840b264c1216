"""Where suites are found: a broken user registry, a tampered file, a run on the first few
cubes of a large suite."""

from __future__ import annotations

import json
import warnings

import pytest

from cubebench.harness.cube import apply_sequence, parse_moves, solved_batch, state_to_facelets
from cubebench.harness.suites import catalog
from cubebench.harness.suites.catalog import list_suites, load_suite, register_user_suite
from cubebench.harness.suites.model import Instance, SuiteError, parse_instances
from tests.harness.bench_process import bench


def _instances(count: int) -> list[Instance]:
    moves = parse_moves("R U F' L2 D B'")
    out = []
    for i in range(count):
        state = apply_sequence(solved_batch(1), moves[: 1 + i % 6] * (1 + i // 6))[:, 0]
        out.append(Instance(i, state_to_facelets(state)))
    return out


def test_a_corrupt_user_registry_leaves_the_built_in_suites_working(isolated_home):
    (isolated_home / "suites").mkdir(parents=True)
    (isolated_home / "suites" / "registry.json").write_text("{not json")
    assert len(load_suite("depth-01-v1")) == 1000
    with pytest.warns(UserWarning, match="registry.json is unreadable"):
        names = [i.name for i in list_suites()]
    assert "depth-01-v1" in names
    with pytest.raises(SuiteError, match="is not built in, and suite registry .* is unreadable"):
        load_suite("mine")


def test_a_run_on_a_built_in_suite_beside_a_corrupt_user_registry(tmp_path, isolated_home):
    (isolated_home / "suites").mkdir(parents=True)
    (isolated_home / "suites" / "registry.json").write_text("[]")
    result = bench(
        "run", "-s", "kociemba", "--suite", "depth-01-v1", "--limit", "2", "--out",
        str(tmp_path), "--quiet", "--no-report",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "warning: suite registry" in result.stderr and "imported suites" in result.stderr


def test_a_tampered_user_suite_says_how_a_user_restores_it(isolated_home):
    info = register_user_suite("mine", _instances(3), {"source": "test"})
    info.path.write_bytes(info.path.read_bytes().replace(b'"id": 2', b'"id": 9'))
    with pytest.raises(SuiteError, match="import it again") as raised:
        load_suite("mine")
    assert "git" not in str(raised.value)


def test_the_first_cubes_of_a_large_suite_are_read_alone(isolated_home, monkeypatch):
    everything = _instances(600)
    info = register_user_suite("large", everything, {"source": "test"})
    full = load_suite("large")
    parsed: list[int] = []

    def counting(data, source, limit=None, puzzle_name="cube3"):
        result = parse_instances(data, source, limit, puzzle_name)
        parsed.append(len(result))
        return result

    monkeypatch.setattr("cubebench.harness.suites.model.parse_instances", counting)
    first = load_suite("large", limit=3)
    assert parsed == [3]  # the other 597 were neither parsed nor checked
    assert [i.id for i in first.instances] == [0, 1, 2]
    assert (first.sha256, first.total, first.states_sha256) == (
        full.sha256,
        600,
        full.states_sha256,
    )
    assert (
        json.loads((info.path.parent / "registry.json").read_text())["suites"]["large"][
            "states_sha256"
        ]
        == full.states_sha256
    )


def test_suites_show_refuses_a_limit_below_one():
    result = bench("suites", "show", "depth-01-v1", "--limit", "-1")
    assert result.returncode == 2 and "--limit -1" in result.stderr


def test_list_suites_without_a_user_registry_warns_nothing(isolated_home):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert catalog.list_suites()


def test_imports_started_together_each_register_their_suite(tmp_path, isolated_home):
    """Four real ``bench suites import`` processes at once, three times: none is lost."""
    from tests.harness.bench_process import start_bench

    texts = []
    for i in range(4):
        path = tmp_path / f"s{i}.txt"
        # enough cubes that each import spends a while between reading the registry and
        # writing it back, the window in which an unlocked registry loses the others' suites
        lines = [f"R U F' L2 D B' {'U ' * (k % 7)}{'R ' * (k % 5)}F2" for k in range(20000)]
        path.write_text("\n".join(["U " * (i + 1), *lines]) + "\n")
        texts.append(path)
    for trial in range(3):
        names = [f"t{trial}-s{i}" for i in range(4)]
        procs = [
            start_bench("suites", "import", "text", str(path), "--name", name)
            for path, name in zip(texts, names, strict=True)
        ]
        codes = [p.wait(timeout=300) for p in procs]
        assert codes == [0, 0, 0, 0], [p.stderr.read() for p in procs]
        registered = json.loads((isolated_home / "suites" / "registry.json").read_text())
        assert set(names) <= set(registered["suites"])
        for name in names:
            assert len(load_suite(name, limit=2)) == 2
    same = [
        start_bench("suites", "import", "text", str(texts[0]), "--name", "one") for _ in range(3)
    ]
    codes = sorted(p.wait(timeout=300) for p in same)
    assert codes == [0, 2, 2]  # the name is taken by whichever came first; the others are told


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"optimal_htm": -3}, "optimal_htm=-3 is not a length from 0 to 20"),
        ({"optimal_qtm": 27}, "optimal_qtm=27 is not a length from 0 to 26"),
        ({"optimal_htm": 5, "scramble": "R U"}, "longer than the instance's own scramble"),
    ],
)
def test_optima_are_checked_when_a_suite_is_read(tmp_path, extra, message):
    facelets = state_to_facelets(apply_sequence(solved_batch(1), parse_moves("R U"))[:, 0])
    line = json.dumps({"id": 0, "facelets": facelets, **extra})
    with pytest.raises(SuiteError, match=message):
        parse_instances(line.encode(), "mine.jsonl")
    with pytest.raises(SuiteError, match=message.split(" is")[0]):
        register_user_suite("mine", [Instance(0, facelets, **extra)], {"source": "test"})


def test_a_huge_scramble_or_token_is_refused_short(tmp_path, isolated_home):
    path = tmp_path / "huge.txt"
    path.write_text("R " * 200_000 + "\n" + "Q" * 100_000 + "\n")
    done = bench("suites", "import", "text", str(path), "--name", "huge")
    assert done.returncode == 2 and "more than 1000 moves" in done.stderr
    assert len(done.stderr) < 500
    path.write_text("R U\n" + "Q" * 100_000 + "\n")
    done = bench("suites", "import", "text", str(path), "--name", "huge")
    assert done.returncode == 2 and len(done.stderr) < 500, done.stderr[:300]
