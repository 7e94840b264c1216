"""Each choice of the quarter-turn seq2seq recipe beside the seed's value, at equal pairs.

    python benchmarks/cards/seq2seq_choices.py --steps 1000 --out /tmp/s2s-choices \\
        [--probes recipe uniform ...] [--json FILE]

Trains one short run per probe from a fresh start, each with the same budget of steps of 128
pairs (so the same number of pairs), the same seed, one thread and float32 unless the probe
says otherwise; the recipe's warm-up is scaled to the short budget. Every probe changes one
choice of the recipe back to the seed's value. Each is then measured the same way, whatever
it trained on: greedy decoding (the seed's) of development scrambles of 1..8 quarter turns,
canonical as the ``qdepth-k`` suites but from the development seed stream
(``qdepth_instances(k, seed=DEV_SEED)``), every answer replayed on the engine. Training
throughput (pairs a second, validation included) is the loop's own figure; run it with
nothing else on the machine, or say what was.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cubebench.harness import (
    Budget,
    apply_sequence,
    facelets_to_state,
    is_solved,
    machine_info,
    make_solver,
)
from cubebench.harness.suites.generate import DEV_SEED, qdepth_instances
from cubebench.solvers.seq2seq_transformer.train import main as train_main

PROBES: dict[str, list[str]] = {
    "recipe": [],
    "uniform": ["--scramble", "uniform"],  # the seed's: independent uniform moves
    "length-20": ["--max-length", "20"],  # the seed's 1..20
    "post-norm": ["--no-norm-first"],  # the seed's layers
    "untrimmed": ["--no-trim"],  # every batch padded to 22 decoder positions
    "bf16": ["--precision", "bf16"],
    "lr-1e-5": ["--lr", "1e-5", "--lr-floor", "1e-5", "--warmup-steps", "0"],  # the seed's
}
LENGTHS = range(1, 9)


def solve_rates(checkpoint: Path, per_length: int) -> dict[int, float]:
    """Greedy decoding's solve rate on ``per_length`` development scrambles of each length."""
    solver = make_solver(
        "seq2seq-transformer",
        {"checkpoint": str(checkpoint), "metric": "qtm", "precision": "fp32", "threads": 1},
    )
    rates = {}
    for k in LENGTHS:
        solved = 0
        for instance in qdepth_instances(k, per_length, seed=DEV_SEED):
            cube = facelets_to_state(instance.facelets)
            moves = solver.solve(cube, Budget(wall_seconds=10)).moves
            solved += bool(moves) and is_solved(apply_sequence(cube, moves))
        rates[k] = solved / per_length
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=1000, help="each probe's budget")
    parser.add_argument("--warmup-steps", type=int, default=100, help="the recipe's, scaled")
    parser.add_argument("--per-length", type=int, default=200, help="dev scrambles per length")
    parser.add_argument("--probes", nargs="*", choices=sorted(PROBES), default=list(PROBES))
    parser.add_argument("--out", type=Path, required=True, help="folder for the probes' runs")
    parser.add_argument("--json", type=Path, help="write the rows here as well")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error(f"--steps {args.steps}: must be >= 1")
    rows = []
    for name in args.probes:
        out = args.out / name
        argv = ["--metric", "qtm", "--steps", str(args.steps), "--minutes", "1e6"]
        argv += ["--threads", "1", "--fresh", "--out", str(out), "--eval-every-steps"]
        argv += [str(args.steps), "--warmup-steps", str(args.warmup_steps), *PROBES[name]]
        started = time.perf_counter()
        card = train_main(argv)
        rates = solve_rates(out, args.per_length)
        row = {
            "probe": name,
            "options": " ".join(PROBES[name]) or "(the recipe)",
            "pairs": card["samples_seen"],
            "pairs_per_second": card["samples_per_second"],
            "precision": card["hardware"]["precision"],
            "greedy_solved_by_qdepth": rates,
            "minutes": round((time.perf_counter() - started) / 60, 1),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    machine = machine_info()
    cpu = f"{machine['cpu']} ({machine['isa']})"
    print(f"\nCPU: {cpu}; {args.per_length} development scrambles per length\n")
    print("| probe | options | pairs/s | " + " | ".join(f"q{k}" for k in LENGTHS) + " |")
    print("|---|---|---|" + "---|" * len(LENGTHS))
    for r in rows:
        rates = " | ".join(f"{100 * v:.0f}%" for v in r["greedy_solved_by_qdepth"].values())
        print(f"| {r['probe']} | `{r['options']}` | {r['pairs_per_second']} | {rates} |")
    if args.json:
        args.json.write_text(json.dumps({"cpu": cpu, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
