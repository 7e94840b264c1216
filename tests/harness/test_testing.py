"""The conformance kit judges budgets as the runner does, and catches a random solver."""

from __future__ import annotations

import pytest

from cubebench.harness import make_solver
from cubebench.harness.testing import DETERMINISM_ASKS, check_solver


def _failed(name: str) -> set[str]:
    report = check_solver(make_solver(f"tests.fakes:{name}"), strict=False)
    return {f.split(" (")[0].split(":")[0] for f in report.failures}


def test_a_correct_solver_passes():
    assert check_solver(make_solver("tests.fakes:Right"), strict=False).failures == []


@pytest.mark.parametrize(
    ("fake", "check"),
    [
        ("Sluggish", "a wall budget of 0.2 s is respected"),
        ("Padding", "a length budget is respected"),
        ("HalfRandom", "answers are deterministic"),
    ],
)
def test_a_solver_every_run_would_fail_fails_the_kit(fake, check):
    """Each fake passes everything else: the failure is the one its runs would show."""
    assert _failed(fake) == {check}


def test_enough_asks_to_catch_a_solver_random_half_the_time():
    assert 0.5 ** (DETERMINISM_ASKS - 1) <= 0.001


def test_each_check_runs_on_its_own_and_says_how_to_fix_a_failure():
    from cubebench.harness.testing import CHECKS

    slow = make_solver("tests.fakes:Sluggish")
    report = check_solver(slow, strict=False, only=["wall-budget"])
    assert report.passed == [] and len(report.failures) == 1
    assert "fix: stop at budget.deadline()" in report.failures[0]
    assert check_solver(slow, strict=False, only=["metric", "solved-cube"]).failures == []
    assert set(CHECKS) >= {"solved-cube", "wall-budget", "deterministic"}
    with pytest.raises(ValueError, match="no check 'speed'"):
        check_solver(slow, only=["speed"])


def test_the_kit_asks_a_solver_about_the_first_puzzle_it_declares():
    from tests.fakes import ShallowCube2

    report = check_solver(ShallowCube2(), strict=False)
    assert "every depth-1 cube is solved" in report.passed  # 2×2×2 cubes, which it solves
    (failure,) = report.failures  # it answers past a length budget, and only that
    assert failure.startswith("a length budget is respected")


class _SlowOnDeepCubes:
    """Right, after half a second of CPU time on a cube whose answer is over ten moves (the
    random state): the cubes it is asked, in order, are kept."""

    name = "slow-on-deep-cubes"

    def __init__(self) -> None:
        from tests.fakes import Right

        self.right, self.asked = Right(), []

    def solve(self, cube, budget):
        import time

        attempt = self.right.solve(cube, budget)
        deep = len(self.right.solve(cube, type(budget)()).moves) > 10
        self.asked.append(deep)
        end = time.process_time() + (0.5 if deep else 0.0)
        while time.process_time() < end:
            pass
        return attempt


def test_the_checks_that_ask_a_cube_again_ask_the_one_answered_fastest():
    """A searching solver can take seconds a random state: the length and determinism checks
    ask the quickest of its answers of two or more moves again, not the random state."""
    solver = _SlowOnDeepCubes()
    checks = ["legal-answers", "length-budget", "deterministic"]
    report = check_solver(solver, strict=False, only=checks)
    assert report.failures == [] and len(report.passed) == len(checks)
    assert len(solver.asked) == 4 + 1 + DETERMINISM_ASKS  # the answers, then the asks again
    assert solver.asked[:4] == [False, False, False, True]  # three depth-4 cubes, a random state
    assert not any(solver.asked[4:])
