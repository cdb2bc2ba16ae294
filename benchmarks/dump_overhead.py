"""Time of real torch.compile runs without a dump, under unpyc.prepare_debug
and under depyf.prepare_debug, side by side.

    .venv/bin/python benchmarks/dump_overhead.py [--runs N] [--caches warm|off]
                                                 [--workloads toy,transformer,gpt2]
                                                 [--install] [--results FILE]

depyf 0.20.0 and transformers 5.24.0 (for the GPT-2 workload) are not
unpyc's dependencies: --install puts them into a folder of their own,
build/bench/dump-site (`pip install --target`), which goes on the
workloads' PYTHONPATH, so the project's venv is left as it is (a folder
already filled by an earlier --install is used without it).  A workload or
tool that is not installed is reported as not measured, never estimated.
The table is also written to benchmarks/RESULTS.md (section "Dump
overhead"; --results names another file).

Each run is a fresh process.  Three workloads, all on the inductor backend
and trained (grad on):

- toy: the SPEC's toy example (a graph break, so three graphs), 3 steps;
- transformer: a small transformer block (attention, MLP, layer norms),
  2 steps;
- gpt2: HuggingFace's GPT2LMHeadModel from a tiny config (1 layer, width
  32, random weights, nothing downloaded) whose block prints, so that
  Dynamo breaks the graph there, 3 steps.  Several frames are compiled
  (the model's forward, transformers' decorators, the block, resume
  functions), with recompiles.  depyf 0.20.0 fails on it with torch 2.13:
  the code it decompiles for a frame whose call graph-breaks in a nested
  call raises (reported as failed in the table);
- gpt2_top: the same model, with the graph break in the compiled function
  around the model call (a loss function that prints between the model
  and the loss), which depyf 0.20.0 handles: two graphs, 3 steps.

--caches warm (the default, what a user meets): Inductor's and
AOTAutograd's caches are on, in a cache directory of the benchmark's own,
filled by one untimed run of each workload and mode before the timed ones.
--caches off: both caches off, so that every run compiles from scratch
(the kernels' shared objects stay cached: gcc would take most of the time).

Per cell, the median (min-max) of N runs of: the block's wall time and its
CPU time (time.process_time in the process, all its threads), and the whole
process's wall and CPU time (Python start and imports included; CPU from
the parent's rusage of its children, Inductor's compile workers included).
The machine may be shared: CPU time is the steadier of the two.  The runs
are interleaved (plain, unpyc, depyf, plain, ...) so that a slow spell of
the machine hits every mode.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from results_file import machine, write_section

WORKLOAD = r'''
import contextlib, json, sys, time
import torch
from torch import nn

mode, workload, dump = sys.argv[1], sys.argv[2], sys.argv[3]
torch.manual_seed(0)

if workload == "toy":
    @torch.compile
    def toy_example(a, b):
        x = a / (torch.abs(a) + 1)
        if b.sum() < 0:
            b = b * -1
        return x * b

    weight = torch.randn(10, requires_grad=True)
    optimizer = torch.optim.SGD([weight], lr=0.1)

    def step():
        optimizer.zero_grad()
        toy_example(weight, torch.randn(10)).sum().backward()
        optimizer.step()

    steps = 3
elif workload == "transformer":
    class TransformerBlock(nn.Module):
        def __init__(self, dim=16, heads=2):
            super().__init__()
            self.norm1 = nn.LayerNorm(dim)
            self.attention = nn.MultiheadAttention(dim, heads, batch_first=True)
            self.norm2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

        def forward(self, x):
            h = self.norm1(x)
            x = x + self.attention(h, h, h, need_weights=False)[0]
            return x + self.mlp(self.norm2(x))

    model = TransformerBlock()
    compiled = torch.compile(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def step():
        optimizer.zero_grad()
        compiled(torch.randn(2, 5, 16)).square().mean().backward()
        optimizer.step()

    steps = 2
elif workload == "gpt2":
    import transformers
    from transformers.models.gpt2 import modeling_gpt2

    transformers.logging.set_verbosity_error()
    block_forward = modeling_gpt2.GPT2Block.forward

    def printing_forward(self, *args, **kwargs):
        print("GPT2Block")  # Dynamo breaks the graph here
        return block_forward(self, *args, **kwargs)

    modeling_gpt2.GPT2Block.forward = printing_forward
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(
        n_layer=1, n_embd=32, n_head=2, vocab_size=100, n_positions=32))
    compiled = torch.compile(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    tokens = torch.randint(0, 100, (2, 16))

    def step():
        optimizer.zero_grad()
        compiled(input_ids=tokens, labels=tokens).loss.backward()
        optimizer.step()

    steps = 3
elif workload == "gpt2_top":
    import transformers

    transformers.logging.set_verbosity_error()
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(
        n_layer=1, n_embd=32, n_head=2, vocab_size=100, n_positions=32))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    tokens = torch.randint(0, 100, (2, 16))

    @torch.compile
    def loss_of(tokens):
        logits = model(input_ids=tokens).logits
        print("logits")  # Dynamo breaks the graph here
        return nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())

    def step():
        optimizer.zero_grad()
        loss_of(tokens).backward()
        optimizer.step()

    steps = 3

if mode == "unpyc":
    import unpyc
    block = unpyc.prepare_debug(dump)
elif mode == "depyf":
    import depyf
    block = depyf.prepare_debug(dump)
else:
    block = contextlib.nullcontext()
wall, cpu = time.perf_counter(), time.process_time()
with block:
    for _ in range(steps):
        step()
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
sys.stdout.flush()
sys.stderr.write("\nBLOCK " + json.dumps({"wall": wall, "cpu": cpu}) + "\n")
'''

WORKLOADS = ("toy", "transformer", "gpt2", "gpt2_top")
MODES = ("plain", "unpyc", "depyf")
# What a workload or mode needs beyond torch and unpyc, and its pinned version.
NEEDS = {"gpt2": "transformers", "gpt2_top": "transformers", "depyf": "depyf"}
PINNED = {"transformers": "transformers==5.24.0", "depyf": "depyf==0.20.0"}
Timing = Dict[str, float]


class RunFailed(Exception):
    """A workload's process failed; the message is its stderr."""

    def reason(self) -> str:
        """The error line of the traceback, and the last file it names."""
        lines = str(self).strip().splitlines()
        files = [line.strip() for line in lines if line.strip().startswith("File ")]
        return "%s (%s)" % (lines[-1] if lines else "?", files[-1] if files else "no traceback")


def one_run(mode: str, workload: str, script: str, env: Dict[str, str]) -> Timing:
    """Runs the workload in a fresh process: the block's and the process's
    wall and CPU time."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, script, mode, workload, os.path.join(tmp, "dump")],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RunFailed(proc.stderr)
    block_line = [line for line in proc.stderr.splitlines() if line.startswith("BLOCK ")][-1]
    block = json.loads(block_line[len("BLOCK "):])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"block_wall": block["wall"], "block_cpu": block["cpu"],
            "process_wall": wall, "process_cpu": cpu}


SITE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "build", "bench", "dump-site")


def missing_package(name: str) -> Optional[str]:
    needed = NEEDS.get(name)
    if needed is not None and importlib.util.find_spec(needed) is None:
        return needed
    return None


def install() -> None:
    """The pinned packages into SITE, beside (not into) this Python's
    environment; what this environment has already (torch) is not copied."""
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", SITE]
                   + [PINNED[name] for name in PINNED
                      if name == "depyf" or importlib.util.find_spec(name) is None],
                   check=True)


def use_site() -> None:
    """SITE on this process's path and, through PYTHONPATH, the workloads'."""
    if os.path.isdir(SITE):
        sys.path.append(SITE)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [p for p in (os.environ.get("PYTHONPATH"), SITE) if p])


def environment(caches: str, cache_dir: str) -> Dict[str, str]:
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache_dir)
    if caches == "off":
        env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
        env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
    return env


def cell(timings: Sequence[Timing], key: str) -> str:
    values = [t[key] for t in timings]
    return "%.2f (%.2f-%.2f)" % (statistics.median(values), min(values), max(values))


def ratio(timings: Sequence[Timing], plain: Sequence[Timing], key: str) -> str:
    return "%.2fx" % (statistics.median(t[key] for t in timings)
                      / statistics.median(t[key] for t in plain))


def table(rows: Dict[str, Dict[str, List[Timing]]], skipped: Dict[str, str],
          failed: Dict[Tuple[str, str], str]) -> str:
    lines = ["| workload | mode | block wall s | block CPU s | block wall / plain "
             "| block CPU / plain | process wall s | process CPU s |",
             "|---|---|---|---|---|---|---|---|"]
    for workload, modes in rows.items():
        plain = modes["plain"]
        for mode, timings in modes.items():
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                workload, mode, cell(timings, "block_wall"), cell(timings, "block_cpu"),
                ratio(timings, plain, "block_wall"), ratio(timings, plain, "block_cpu"),
                cell(timings, "process_wall"), cell(timings, "process_cpu")))
    for (workload, mode), why in failed.items():
        lines.append("| %s | %s | failed: %s | | | | | |" % (workload, mode, why))
    for what, why in skipped.items():
        lines.append("| %s | | not measured: %s | | | | | |" % (what, why))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per cell (median)")
    parser.add_argument("--caches", choices=("warm", "off"), default="warm")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--install", action="store_true",
                        help="pip install %s first" % " ".join(PINNED.values()))
    parser.add_argument("--results", default=os.path.join(os.path.dirname(__file__), "RESULTS.md"),
                        help="the Markdown file whose 'Dump overhead' section gets the table")
    args = parser.parse_args()
    if args.install:
        install()
    use_site()
    started = machine()
    skipped: Dict[str, str] = {}
    workloads, modes = [], ["plain"]
    for name in args.workloads.split(","):
        needed = missing_package(name)
        if needed:
            skipped[name] = "%s is not installed (--install)" % needed
        else:
            workloads.append(name)
    for name in args.modes.split(","):
        needed = missing_package(name)
        if needed:
            skipped[name] = "%s is not installed (--install)" % needed
        elif name != "plain":
            modes.append(name)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(WORKLOAD)
        script = f.name
    cache = tempfile.TemporaryDirectory()
    env = environment(args.caches, cache.name)
    try:
        rows: Dict[str, Dict[str, List[Timing]]] = {}
        failed: Dict[Tuple[str, str], str] = {}
        for workload in workloads:
            working = []
            for mode in modes:  # untimed: fills the caches (and the kernels' objects)
                try:
                    one_run(mode, workload, script, env)
                    working.append(mode)
                except RunFailed as error:
                    failed[(workload, mode)] = error.reason()
            if "plain" not in working:
                continue
            rows[workload] = {mode: [] for mode in working}
            for _ in range(args.runs):
                for mode in working:
                    rows[workload][mode].append(one_run(mode, workload, script, env))
                    print(workload, mode, rows[workload][mode][-1], file=sys.stderr)
    finally:
        os.unlink(script)
        cache.cleanup()
    text = "%s\n\nMedian (min-max) of %d fresh processes per cell; inductor, training; " \
        "caches %s; Python %d.%d, torch %s.\n\nMachine: %s at the start.\n\nMade by " \
        "`benchmarks/dump_overhead.py %s`.\n" % (
            table(rows, skipped, failed), args.runs, args.caches, sys.version_info[0],
            sys.version_info[1], torch_version(), started, " ".join(sys.argv[1:]))
    print(text)
    write_section("Dump overhead", text, args.results)


def torch_version() -> str:
    proc = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                          capture_output=True, text=True)
    return proc.stdout.strip() or "not installed"


if __name__ == "__main__":
    main()
