from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def table_folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Where a module's small tables are built."""
    return str(tmp_path_factory.mktemp("optimal-tables"))
