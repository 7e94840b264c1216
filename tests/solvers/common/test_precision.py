"""precision=auto from the hardware, the override for tests, and the int8 path."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from cubebench.harness.registry import make_solver
from cubebench.harness.settings import SettingsError
from cubebench.solvers.common.inference import fold_batch_norm, quantize
from cubebench.solvers.common.precision import ENV, resolve


@pytest.fixture(autouse=True)
def no_override(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)


def test_auto_is_bf16_only_where_native():
    assert resolve("auto", native_bf16=True).precision == "bf16"
    slow = resolve("auto", native_bf16=False)
    assert slow.precision == "fp32" and "no native bfloat16" in slow.reason
    assert resolve("bf16", native_bf16=False).to_dict() == {
        "precision": "bf16",
        "precision_reason": "asked for",
    }


def test_the_environment_overrides_auto_only(monkeypatch):
    monkeypatch.setenv(ENV, "fp32")
    assert resolve("auto", native_bf16=True).precision == "fp32"
    assert resolve("bf16", native_bf16=True).precision == "bf16"
    monkeypatch.setenv(ENV, "fp8")
    with pytest.raises(SettingsError, match=f"{ENV}='fp8': choose auto or one of"):
        resolve("auto", native_bf16=True)


def test_unoffered_and_impossible_precisions_are_refused():
    with pytest.raises(SettingsError, match="precision='int8': choose auto or one of fp32, bf16"):
        resolve("int8", native_bf16=False, offered=("fp32", "bf16"))
    with pytest.raises(SettingsError, match="int8 runs on the CPU only"):
        resolve("int8", native_bf16=False, device="cuda")


def _mlp() -> nn.Module:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 4))
    model[1].running_mean.uniform_(-1, 1)
    model[1].running_var.uniform_(0.5, 2)
    model[1].weight.data.uniform_(0.5, 1.5)
    return model.eval()


def test_batch_norm_folds_into_the_linear_layer_exactly():
    model, x = _mlp(), torch.randn(64, 16)
    with torch.no_grad():
        expected = model(x)
        folded = fold_batch_norm(model)
        assert isinstance(folded[1], nn.Identity)
        assert torch.allclose(folded(x), expected, atol=1e-5)


def test_int8_quantizes_every_linear_layer_and_stays_close():
    model, x = _mlp(), torch.randn(256, 16)
    with torch.no_grad():
        expected = model(x)
        quantized = quantize(model)
        assert not [m for m in quantized.modules() if type(m) is nn.Linear]
        assert (quantized(x) - expected).abs().max() < 0.1 * expected.abs().max()
    assert type(model[0]) is nn.Linear  # the original is untouched


def test_solvers_record_the_precision_they_run_at(monkeypatch):
    solver = make_solver("policy-mlp", {"precision": "int8", "beam_width": 16})
    info = solver.runtime_info
    assert {k: info[k] for k in ("precision", "precision_reason", "threads", "metric")} == {
        "precision": "int8",
        "precision_reason": "asked for",
        "threads": 1,
        "metric": "htm",
    }
    # the model's size and training, from its card, for the DeepCubeA-set table
    assert info["parameters"] == solver.card["parameters"] > 0
    assert info["train_minutes"] == solver.card["train_minutes"]
    assert info["trained_on"].startswith(solver.card["hardware"]["cpu"])
    monkeypatch.setenv(ENV, "fp32")
    assert make_solver("policy-mlp", {}).runtime_info["precision"] == "fp32"
    with pytest.raises(SettingsError, match="choose auto or one of fp32, bf16"):
        make_solver("value-transformer", {"precision": "int8"})
