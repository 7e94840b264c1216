"""Importers agree with the checked DeepCubeA set, and refuse what could run code."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
import torch

from cubebench.harness.cube import SOLVED_FACELETS
from cubebench.harness.suites.importers import (
    DEEPCUBEA_TO_FACELET,
    IMPORTERS,
    import_deepcubea,
    import_text,
)
from cubebench.harness.suites.model import SuiteError

PEER_FILES = {
    "deepcubea": "deepcubea-cube3-test-data_0.pkl",
    "efficientcube": "efficientcube-deepcubea-dataset--cube3.json",
    "cayleypy": "cayleypy-p054-t000-deepcubea.pt",
}


def _reference(shared_data):
    path = shared_data / "deepcubea-cube3-test.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("fmt", sorted(PEER_FILES))
def test_each_peer_format_gives_the_checked_states(fmt, shared_data):
    reference = _reference(shared_data)
    instances = IMPORTERS[fmt](shared_data / "peers" / PEER_FILES[fmt])
    assert [i.facelets for i in instances] == [r["facelets"] for r in reference]
    if fmt == "deepcubea":
        assert [i.optimal_qtm for i in instances] == [r["optimal_qtm"] for r in reference]
        assert np.mean([i.optimal_qtm for i in instances]) == pytest.approx(20.637)


def test_deepcubea_mapping_is_a_permutation_face_by_face():
    assert sorted(DEEPCUBEA_TO_FACELET.tolist()) == list(range(54))
    # each DeepCubeA face maps onto one of ours, its centre onto our centre
    for face in range(6):
        block = DEEPCUBEA_TO_FACELET[9 * face : 9 * face + 9]
        assert len(set(block // 9)) == 1 and block[4] % 9 == 4


class _Evil:
    def __reduce__(self):
        return (print, ("this ran code",))


def test_malicious_pickle_is_refused(tmp_path, capsys):
    path = tmp_path / "evil.pkl"
    path.write_bytes(pickle.dumps({"states": [_Evil()]}))
    # (not "builtins.print": a Ray import in the same process wraps print in its own)
    with pytest.raises(SuiteError, match=r"refusing to load [\w.]*print"):
        import_deepcubea(path)
    assert "this ran code" not in capsys.readouterr().out
    path.write_bytes(pickle.dumps({"states": [], "x": __import__("os").system}))
    with pytest.raises(SuiteError, match="refusing to load posix.system"):
        import_deepcubea(path)


def test_garbage_pickle_and_tensor_give_clear_errors(tmp_path):
    path = tmp_path / "garbage.pkl"
    path.write_bytes(b"\x80\x04not a pickle")
    with pytest.raises(SuiteError, match="not a readable DeepCubeA pickle"):
        import_deepcubea(path)
    bad = tmp_path / "bad.pt"
    torch.save(torch.zeros(3, 50, dtype=torch.int8), bad)
    with pytest.raises(SuiteError, match=r"shape \[N, 54\]"):
        IMPORTERS["cayleypy"](bad)


def test_text_importer_mixes_facelets_and_scrambles(tmp_path):
    path = tmp_path / "cubes.txt"
    path.write_text(f"# my cubes\n{SOLVED_FACELETS}\nR U R' U'  # a trigger\n\n")
    instances = import_text(path)
    assert [i.id for i in instances] == [0, 1]
    assert instances[0].facelets == SOLVED_FACELETS and instances[1].scramble == "R U R' U'"
    path.write_text("R U Q\n")
    with pytest.raises(SuiteError, match="cubes.txt line 1: bad move 'Q' at position 3"):
        import_text(path)
    path.write_text("U" * 54 + "\n")
    with pytest.raises(SuiteError, match="line 1: each colour must appear 9 times"):
        import_text(path)
