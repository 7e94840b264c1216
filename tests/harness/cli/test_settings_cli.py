"""``bench settings NAME``: a solver's settings, read from its settings class."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from cubebench.harness.cli.main import app
from cubebench.harness.registry import builtin_solvers, resolve_solver_class, settings_class
from cubebench.harness.settings import SolverSettings, setting_ranges, settings_info

runner = CliRunner()


def test_one_solver_shows_its_settings_with_type_default_range_and_help():
    result = runner.invoke(app, ["settings", "mlp-kociemba"])
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): line for line in result.output.splitlines() if "│" in line}
    assert "auto | none | ud | full" in rows["symmetries"]
    assert "average the policy over the cube's symmetries" in rows["symmetries"]
    assert "8192" in rows["batch_size"] and "≥ 1" in rows["batch_size"]
    assert "≥ 1, ≤ 1024" in rows["threads"]


def test_an_unknown_solver_gets_did_you_mean():
    result = runner.invoke(app, ["settings", "mlp-kociemb"])
    assert result.exit_code != 0
    assert "did you mean" in str(result.exception) and "mlp-kociemba" in str(result.exception)


@pytest.mark.parametrize("name", sorted(builtin_solvers()))
def test_overridden_settings_keep_their_ranges_and_help_names_real_settings(name):
    # a subclass that redeclares `batch_size: int = 4096` silently drops the base's Range
    # (batch_size=0 would pass); and a help entry for a field that does not exist is a typo
    cls = settings_class(resolve_solver_class(name))
    ranged = set(setting_ranges(cls))
    for base in cls.__mro__[1:]:
        if isinstance(base, type) and issubclass(base, SolverSettings):
            assert set(setting_ranges(base)) <= ranged, f"{name}: {base.__name__}"
    fields = {f.name for f in dataclasses.fields(cls)}
    assert set(cls.OPTION_HELP) <= fields
    assert sorted(cls.field_order()) == sorted(fields)  # every field, once
    shown = [name for name in cls.field_order() if name not in cls.inert()]
    assert [i.name for i in settings_info(cls)] == shown  # in order, all that act
