"""Shared fixtures, and one deep-learning framework per test process.

TensorFlow and torch's compiler stack crash together in one process
(:mod:`cubebench.solvers.common.frameworks`), so no test process may import both. The
TensorFlow solvers' tests (:data:`TENSORFLOW_TESTS`) therefore run in a pytest process of
their own: a run that asks for them beside other tests (plain ``pytest``, or under xdist)
leaves them out of its own collection and runs them at the end in a second process, with
the same options; its exit status is the worse of the two. A test that makes its process
hold both frameworks fails, naming them.

Under pytest-xdist (``-n 2``, as the README's test command runs) the workers leave the
TensorFlow folders out and the controller, which collects nothing, runs the second process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

TESTS = Path(__file__).resolve().parent
SHARED_DATA = TESTS.parent.parent / "shared" / "data"
TENSORFLOW_TESTS = (TESTS / "solvers" / "cnn_faces", TESTS / "solvers" / "mlp_kociemba")
"""Test folders whose process loads TensorFlow; every other test process may load torch."""
CHILD = "CUBEBENCH_TENSORFLOW_TESTS"  # set in the second process
FRAMEWORKS = ("torch", "tensorflow")


def _tensorflow_side(path: Path) -> bool:
    return any(path == d or path.is_relative_to(d) for d in TENSORFLOW_TESTS)


def _both_loaded() -> bool:
    return all(name in sys.modules for name in FRAMEWORKS)


def pytest_configure(config: pytest.Config) -> None:
    here = config.invocation_params.dir
    asked = [Path(here, a.split("::")[0]).resolve() for a in config.args]
    only_tensorflow = bool(asked) and all(_tensorflow_side(p) for p in asked)
    config.stash[_SPLIT] = not only_tensorflow and not os.environ.get(CHILD)
    config.stash[_ASKED] = list(zip(asked, config.args, strict=True))
    config.stash[_LEFT_OUT] = _left_to_the_controller(config) if _controller(config) else []


def _worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _controller(config: pytest.Config) -> bool:
    """An xdist controller: its workers collect and run the tests, it collects nothing."""
    return getattr(config.option, "dist", "no") != "no" and not _worker(config)


def _left_to_the_controller(config: pytest.Config) -> list[str]:
    """What the workers' collection leaves out (:func:`pytest_ignore_collect`), from the
    arguments alone: a TensorFlow folder under what was asked for, or what was asked for
    inside one."""
    if not config.stash[_SPLIT]:
        return []
    left: list[str] = []
    for path, arg in config.stash[_ASKED]:
        if _tensorflow_side(path):
            wanted = [arg]
        else:
            wanted = [str(d) for d in TENSORFLOW_TESTS if d.is_relative_to(path) and d.exists()]
        left += [w for w in wanted if w not in left]
    return left


_SPLIT = pytest.StashKey[bool]()
_LEFT_OUT = pytest.StashKey[list]()
_ASKED = pytest.StashKey[list]()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In a mixed run, the TensorFlow folders are left to the second process."""
    if not (config.stash[_SPLIT] and _tensorflow_side(collection_path)):
        return None
    left = config.stash[_LEFT_OUT]
    for path, arg in config.stash[_ASKED]:
        if collection_path.is_relative_to(path):  # asked for, with all it holds
            wanted = str(collection_path)
        elif path.is_relative_to(collection_path):  # asked for a part of it
            wanted = arg
        else:  # passed on the way to what was asked for
            continue
        if wanted not in left:
            left.append(wanted)
    return True


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup``, the tests that share a module-scoped fixture go to one
    worker, which builds it once: split between two, each built it (a trained model or a
    table, about 50 s each here)."""
    if not _worker(config):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        defs = getattr(item, "_fixtureinfo", None)
        scopes = {d[-1].scope for d in defs.name2fixturedefs.values()} if defs else set()
        if "module" in scopes:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def _second_process_args(config: pytest.Config) -> list[str]:
    args = list(config.stash[_LEFT_OUT])
    option = config.option
    if option.markexpr:
        args += ["-m", option.markexpr]
    if option.keyword:
        args += ["-k", option.keyword]
    if option.maxfail:
        args += ["--maxfail", str(option.maxfail)]
    if option.verbose:
        args.append("-v" if option.verbose > 0 else "-q")
    return args


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if _both_loaded():
        print(f"\nFAILED: this test process imported both {' and '.join(FRAMEWORKS)}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    left = config.stash[_LEFT_OUT]
    if _worker(config) or not left:
        return
    if config.option.maxfail and session.exitstatus not in (0, 5):
        return
    args = _second_process_args(config)
    child = subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        env={**os.environ, CHILD: "1"},
        check=False,
        capture_output=True,
        text=True,
    )
    config.stash[_CHILD] = (args, child)
    if session.exitstatus in (0, 5):
        session.exitstatus = child.returncode


_CHILD = pytest.StashKey[tuple]()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The TensorFlow process's outcome, in the one summary at the end: its last line, and
    everything it printed when it failed."""
    if _CHILD not in config.stash:
        return
    args, child = config.stash[_CHILD]
    lines = (child.stdout or "").strip().splitlines()
    last = lines[-1].strip("= ") if lines else f"no output (exit {child.returncode})"
    writer = terminalreporter
    if child.returncode not in (0, 5):
        writer.section("TensorFlow tests, in a process of their own: output")
        writer.write(child.stdout + child.stderr)
    writer.write_line(
        f"TensorFlow tests, in a process of their own (pytest {' '.join(args)}): {last}"
    )


@pytest.fixture(autouse=True)
def one_framework_per_process():
    """Fail the test that made this process hold both frameworks."""
    before = _both_loaded()
    yield
    if _both_loaded() and not before:
        loaded = [m for m in sys.modules if m.split(".")[0] in FRAMEWORKS]
        pytest.fail(
            f"this test made its process import both {' and '.join(FRAMEWORKS)} "
            f"({len(loaded)} modules); a test needing the other framework runs it in a "
            "subprocess"
        )


@pytest.fixture
def shared_data() -> Path:
    """``../shared/data``, or skip: that data is never copied into the repository."""
    if not (SHARED_DATA / "deepcubea-cube3-test.jsonl").exists():
        pytest.skip(f"reference data not found at {SHARED_DATA} (../shared beside the checkout)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def oracle_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of breadth-first tables for the whole session: a table is a pure function
    of its metric and radius, and the largest take half a minute to build."""
    return tmp_path_factory.mktemp("oracle-tables")


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, oracle_tables: Path
) -> Path:
    """Keep user suites and caches of each test in its own folder (beside ``tmp_path``, which
    stays empty), all but the shared tables of the optimum oracle and the 2×2×2's distances
    (a pure function too, half a minute to build: its folder sits beside the oracle's)."""
    home = tmp_path_factory.mktemp("cubebench-home")
    (home / "cache").mkdir()
    (home / "cache" / "oracle").symlink_to(oracle_tables, target_is_directory=True)
    shared_cube2 = oracle_tables.parent / "cube2-tables"
    shared_cube2.mkdir(exist_ok=True)
    (home / "cache" / "cube2").symlink_to(shared_cube2, target_is_directory=True)
    monkeypatch.setenv("CUBEBENCH_HOME", str(home))
    return home
