"""``bench settings NAME``: the ``--set`` options one solver takes.

The table is read from the solver's settings class (types, defaults, ranges and
``OPTION_HELP``), so a plug-in's options are documented without writing any CLI.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..registry import resolve_solver_class, settings_class
from ..settings import settings_info


def settings_command(
    name: Annotated[str, typer.Argument(help="a solver name, or module:Class")],
) -> None:
    """The settings a solver takes (``--set key=value``): type, default, range, meaning."""
    cls = resolve_solver_class(name)
    table = Table("setting", "type", "default", "range", "what it does", title=name)
    for info in settings_info(settings_class(cls)):
        default = "" if info.default is None else repr(info.default)
        table.add_row(info.name, info.kind, default, info.bounds, info.help)
    console = Console()
    if not console.is_terminal:  # files and pipes get the whole table, not 80 columns
        console = Console(width=200)
    console.print(table)
