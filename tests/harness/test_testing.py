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
