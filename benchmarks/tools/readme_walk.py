"""The new user's walk, automated: every line of the README's "Use" list, run in a fresh home
with the installed ``bench``, each with its exit status, its time and what it printed, cut short.

    python benchmarks/tools/readme_walk.py --bench .tox/test/bin/bench

Run from the repository root. The placeholders of the list become real: ``$R`` the fresh
home's runs folder; ``<run-id>``, ``<a>``, ``<run>`` and ``<base>`` the list's first run, and
``<b>`` and ``<new>`` its fourth (both run kociemba and policy-mlp, so they pair); ``my-solver``
in a label that run's ``policy-mlp``; ``./my-solver.toml`` the shell example of
``examples/programs/``; ``answers.jsonl`` the first run's kociemba answers, exported before;
the peers' files those beside the checkout in ``../shared/data`` (a line that needs one is
skipped, saying so, where it is absent). Every other word is the README's. The walk ends
with a table of every line; it exits 1 when a line failed.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
FILES = {
    "data_0.pkl": SHARED / "peers" / "deepcubea-cube3-test-data_0.pkl",
    "beam_width_65536.pkl": SHARED / "peers/published/efficientcube-cube3/beam_width_65536.pkl",
    "output.txt": SHARED / "peers/published/deepcubea-cube3-output.txt",
}


def use_lines(readme: Path) -> list[str]:
    """The commands of the README's "Use" block, comments dropped, continuation lines too."""
    text = readme.read_text(encoding="utf-8")
    block = text[text.index("## Use") :]
    opening = block.index("```bash") + len("```bash")
    block = block[opening : block.index("\n```", opening)]
    lines = []
    for line in block.splitlines():
        command = line.split(" # ")[0].split("  #")[0].strip()
        if command and not command.startswith("#"):
            lines.append(command)
    return lines


def concrete(line: str, runs: Path, work: Path, run_number: int) -> str | None:
    """The line with its placeholders made real; None where a file it needs is absent."""
    first, fourth = "walk-1", "walk-4"
    for name, path in FILES.items():
        if name in line:
            if not path.exists():
                return None
            line = line.replace(name, str(path))
    line = line.replace("$R/<run-id>", f"{runs}/{first}")
    for mark in ("<a>", "<run>", "<base>"):
        line = line.replace(f"$R/{mark}", f"{runs}/{first}")
    for mark in ("<b>", "<new>"):
        line = line.replace(f"$R/{mark}", f"{runs}/{fourth}")
    line = line.replace("<b>/my-solver", f"{fourth}/policy-mlp")
    line = line.replace("results/<flagship>", "results/deepcubea-set-cayley-mlp-2starts")
    line = line.replace("$R/<imported>", f"{runs}/published-efficientcube-beam_width-65536")
    line = line.replace("$R/<claimed>", f"{runs}/published-deepcubea-published")
    line = line.replace("./my-solver.toml", str(ROOT / "examples/programs/lookup.toml"))
    line = line.replace("answers.jsonl", str(work / "answers.jsonl"))
    line = line.replace("kociemba.jsonl", str(work / "kociemba.jsonl"))
    line = line.replace("~/cubebench-", str(work / "cubebench-"))
    line = line.replace("$R", str(runs))
    if line.startswith("bench run ") and "--resume" not in line:
        line += f" --run-id walk-{run_number}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default="bench", help="the installed bench to run")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="readme-walk-"))
    env = {**os.environ, "CUBEBENCH_HOME": str(work / "home")}
    runs = work / "home" / "runs"
    bench = shlex.split(args.bench)
    rows, runs_made = [], 0
    for line in use_lines(args.readme):
        if re.fullmatch(r"R=\S+", line):
            continue
        if line.startswith("bench run ") and "--resume" not in line:
            runs_made += 1
        if "answers.jsonl" in line and not (work / "answers.jsonl").exists():
            export = [*bench, "runs", "export", str(runs / "walk-1"), "--entry", "kociemba"]
            export += ["--suite", "random-state-v1", "--out", str(work / "answers.jsonl")]
            subprocess.run(export, env=env, capture_output=True, cwd=ROOT)
        command = concrete(line, runs, work, runs_made)
        if command is None:
            rows.append((line, "skipped", 0.0, "a file it needs is not beside the checkout"))
            continue
        words = [w for part in shlex.split(command)[1:] for w in (glob.glob(part) or [part])]
        start = time.monotonic()
        done = subprocess.run([*bench, *words], env=env, capture_output=True, text=True, cwd=ROOT)
        took = time.monotonic() - start
        said = [x for x in (done.stdout + done.stderr).splitlines() if x.strip()]
        short = " | ".join(said[:1] + (["..."] if len(said) > 2 else []) + said[-1:])[:160]
        rows.append((line, f"exit {done.returncode}", took, short))
        print(f"{rows[-1][1]:>8}  {took:7.1f} s  {line}\n          {short}", flush=True)
    print("\n| command | outcome | seconds |\n|---|---|---|")
    for line, outcome, took, _ in rows:
        print(f"| `{line}` | {outcome} | {took:.1f} |")
    failed = [r for r in rows if r[1] not in ("exit 0", "skipped")]
    print(f"{len(rows)} lines, {len(failed)} failed; the fresh home: {work / 'home'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
