"""A report or site owns only a folder it made: the user's files are never deleted,
overwritten or followed, whatever the folder held."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cubebench.harness.errors import InputError
from cubebench.harness.outfolder import MARKER, OutFolderError, building, check_out_folder
from cubebench.harness.report.render import write_report
from tests.harness.bench_process import bench_here, start_bench, wait_for
from tests.harness.report.synthetic import make_run


def snapshot(root: Path) -> dict[str, object]:
    """Every entry under ``root``: a file's bytes, a link's target, a folder as such."""
    out: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = path.read_bytes()
    return out


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("runs") / "r", {("depth-03-v1", 3): 4}, n=4)


def _user_folder(out: Path) -> None:
    """The folder of the issue: a user's files with the report's own names among them."""
    (out / "assets").mkdir(parents=True)
    (out / "cells").mkdir()
    (out / "index.html").write_text("my page")
    (out / "summary.csv").write_text("mine,1\n")
    (out / "head_to_head.png").write_bytes(b"my figure")
    (out / "assets" / "logo.png").write_bytes(b"logo")
    (out / "cells" / "mine.txt").write_text("notes")


@pytest.mark.parametrize("command", ["site", "report"])
def test_a_folder_of_the_users_is_refused_and_left_as_it_was(tmp_path, small_run, command):
    out = tmp_path / "mine"
    _user_folder(out)
    before = snapshot(tmp_path)
    for _ in range(2):  # the second build used to remove the page folders
        result = bench_here(command, str(small_run), "--out", str(out))
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "did not write" in result.stderr
        assert snapshot(tmp_path) == before


def test_a_folder_holding_the_run_folders_is_refused(tmp_path):
    res = tmp_path / "res2"
    runs = [make_run(res / name, {("depth-03-v1", 3): 2}, n=2) for name in ("entries", "cubes")]
    before = snapshot(tmp_path)
    for _ in range(2):
        result = bench_here("site", *map(str, runs), "--out", str(res))
        assert result.returncode == 2 and "did not write" in result.stderr, result.stderr
    assert snapshot(tmp_path) == before
    assert all((run / "records.jsonl").is_file() for run in runs)


def test_a_build_of_its_own_is_replaced_whole_and_nothing_else_is(tmp_path, small_run):
    out = tmp_path / "site"
    assert bench_here("site", str(small_run), "--out", str(out)).returncode == 0
    marker = json.loads((out / MARKER).read_text())
    assert "index.html" in marker["files"] and not marker["building"]
    (tmp_path / "beside.txt").write_text("a neighbour")
    old = snapshot(out)
    assert (
        bench_here("report", str(small_run), "--out", str(out)).returncode == 0
    )  # report over site
    assert (out / "index.md").is_file() and snapshot(out) != old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["beside.txt", "site"]  # no leftovers
    assert (tmp_path / "beside.txt").read_text() == "a neighbour"
    (out / "cells" / "mine.txt").write_text("added by the user")
    result = bench_here("site", str(small_run), "--out", str(out))
    assert result.returncode == 2 and "cells/mine.txt" in result.stderr
    assert (out / "cells" / "mine.txt").read_text() == "added by the user"


def test_a_link_inside_the_folder_is_never_followed(tmp_path, small_run):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out"
    assert bench_here("site", str(small_run), "--out", str(out)).returncode == 0
    (out / "index.md").unlink()
    (out / "index.md").symlink_to(victim)  # in an owned folder, where a report writes
    result = bench_here("report", str(small_run), "--out", str(out))
    assert result.returncode == 2 and "symbolic link 'index.md'" in result.stderr
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "index.md").symlink_to(victim)  # in a folder of the user's
    result = bench_here("report", str(small_run), "--out", str(fresh))
    assert result.returncode == 2 and "'index.md'" in result.stderr
    assert victim.read_text() == "precious"
    link = tmp_path / "link"
    link.symlink_to(out, target_is_directory=True)
    result = bench_here("site", str(small_run), "--out", str(link))
    assert result.returncode == 2 and "symbolic link" in result.stderr


@pytest.mark.parametrize("given", ["", "/", ".", ".."])
def test_the_working_directory_the_root_and_nothing_are_refused(tmp_path, small_run, given):
    here = tmp_path / "here"
    here.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(here)
        result = bench_here("site", str(small_run), "--out", given)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"error: --out {given!r}") and result.stderr.count("\n") == 1
    assert list(here.iterdir()) == []


def test_two_builds_of_one_folder_at_once_refuse_the_second_in_one_line(tmp_path, small_run):
    out = tmp_path / "site"
    with building(out, "report") as fresh:
        (fresh / "index.html").write_text("first")
        result = bench_here("site", str(small_run), "--out", str(out))
        assert result.returncode == 2 and "being written by pid" in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1
    assert (out / "index.html").read_text() == "first"


def test_a_killed_build_leaves_the_old_one_and_the_next_build_cleans_up(tmp_path, small_run):
    out = tmp_path / "site"
    assert bench_here("site", str(small_run), "--out", str(out)).returncode == 0
    old = snapshot(out)
    # killed while it draws its figures in the fresh folder (seconds; polled every 50 ms)
    child = start_bench("site", str(small_run), "--out", str(out))
    wait_for(lambda: any(tmp_path.glob(".site.building-*/*.png")), "the build to start")
    child.kill()
    child.wait()
    assert snapshot(out) == old
    assert bench_here("site", str(small_run), "--out", str(out)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_an_error_inside_a_build_changes_nothing(tmp_path):
    out = tmp_path / "out"
    with building(out, "report") as fresh:
        (fresh / "a.txt").write_text("one")
    before = snapshot(tmp_path)
    with pytest.raises(RuntimeError), building(out, "report") as fresh:
        (fresh / "a.txt").write_text("two")
        raise RuntimeError("the figures failed")
    assert snapshot(tmp_path) == before


# -- the property: any tree under --out -------------------------------------------------

_NAMES = st.sampled_from(
    ["index.html", "index.md", "summary.csv", "cells", "cubes", "entries", "assets", "x.png",
     MARKER, "notes.txt", ".hidden"]
)  # fmt: skip
_ENTRY = st.tuples(
    st.lists(_NAMES, min_size=1, max_size=3),
    st.sampled_from(["file", "dir", "link-file", "link-dir", "marker-json"]),
)


def _make(out: Path, entries: list[tuple[list[str], str]], outside: Path) -> None:
    for parts, kind in entries:
        path = out.joinpath(*parts)
        if any((p.exists() and not p.is_dir()) or p.is_symlink() for p in path.parents):
            continue
        if path.exists() or path.is_symlink():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "file":
            path.write_text(f"user data {parts}")
        elif kind == "dir":
            path.mkdir()
        elif kind == "link-file":
            path.symlink_to(outside / "victim.txt")
        elif kind == "link-dir":
            path.symlink_to(outside, target_is_directory=True)
        else:  # a marker of ours, listing what it likes
            path.write_text(json.dumps({"cubebench": "report", "files": ["index.html"]}))


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(_ENTRY, max_size=6), prior=st.booleans())
def test_any_tree_under_out_is_refused_unchanged_or_replaced_by_an_owned_build(
    tmp_path_factory, small_run, entries, prior
):
    root = tmp_path_factory.mktemp("tree")
    outside = root / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("precious")
    out = root / "out"
    if prior:
        write_report([small_run], out)
    out.mkdir(exist_ok=True)
    _make(out, entries, outside)
    prior_build = snapshot(out) if prior else None
    before = snapshot(root)
    try:
        write_report([small_run], out)
    except InputError as exc:
        assert "\n" not in str(exc)
        assert snapshot(root) == before  # refused: nothing anywhere changed
        return
    after = snapshot(root)
    # built: everything outside the folder is as it was, and the folder is an owned build
    assert {k: v for k, v in after.items() if not k.startswith("out")} == {
        k: v for k, v in before.items() if not k.startswith("out")
    }
    written = set(json.loads((out / MARKER).read_text())["files"])
    assert {k.removeprefix("out/") for k, v in after.items() if k.startswith("out/")
            and v != "dir"} == written | {MARKER}  # fmt: skip
    had = {k for k in before if k.startswith("out/")}
    # it held nothing but an earlier build's files (or nothing at all)
    assert not had or (prior_build is not None and had == {f"out/{k}" for k in prior_build})


def test_check_out_folder_names_the_option_it_was_given(tmp_path):
    file = tmp_path / "f"
    file.write_text("x")
    with pytest.raises(OutFolderError, match=r"^--csv-dir '.*f' is a file"):
        check_out_folder(file, "--csv-dir")
