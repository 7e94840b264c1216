"""Shared fixtures: reference data beside the checkout, and an isolated CUBEBENCH_HOME."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """``../shared/data``, or skip: that data is never copied into the repository."""
    if not (SHARED_DATA / "deepcubea-cube3-test.jsonl").exists():
        pytest.skip(f"reference data not found at {SHARED_DATA} (../shared beside the checkout)")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep user suites and caches of each test in its own folder."""
    home = tmp_path / "cubebench-home"
    monkeypatch.setenv("CUBEBENCH_HOME", str(home))
    return home
