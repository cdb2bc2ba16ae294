"""Wall time of real torch.compile runs with and without unpyc.prepare_debug.

    .venv/bin/python benchmarks/dump_overhead.py [--runs N]

Each run is a fresh process (Dynamo, Inductor and the dump start cold),
with Inductor's FX graph cache and AOTAutograd cache off, so that every
run compiles (a warm cache would skip the compile the dump records).  The
C++ kernels' shared objects are kept in one Inductor cache directory,
filled by an untimed first run of each workload: building them with gcc
takes ten seconds a run here, which would hide what the dump costs.  Two
workloads, both on the inductor backend and trained (grad on):

- toy: the SPEC's toy example (a graph break, so three graphs), 3 steps;
- transformer: a small transformer block (attention, MLP, layer norms),
  2 steps.

Prints, per workload, the median (and min/max) of N runs without and with
prepare_debug and the overhead.  Timings are of the whole process,
Python start and torch import included, the way a user meets them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

WORKLOAD = r'''
import sys, contextlib
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
else:
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

if mode == "dump":
    import unpyc
    block = unpyc.prepare_debug(dump)
else:
    block = contextlib.nullcontext()
with block:
    for _ in range(steps):
        step()
'''


def one_run(mode: str, workload: str, script: str, cache_dir: str) -> float:
    env = dict(os.environ)
    env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
    env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
    env["TORCHINDUCTOR_CACHE_DIR"] = cache_dir
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, script, mode, workload, os.path.join(tmp, "dump")],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per cell (median)")
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(WORKLOAD)
        script = f.name
    cache = tempfile.TemporaryDirectory()
    try:
        rows: Dict[str, Dict[str, List[float]]] = {}
        for workload in ("toy", "transformer"):
            one_run("plain", workload, script, cache.name)
            rows[workload] = {"plain": [], "dump": []}
            # Interleaved, so that a slow spell of the machine hits both.
            for _ in range(args.runs):
                for mode in ("plain", "dump"):
                    rows[workload][mode].append(one_run(mode, workload, script, cache.name))
    finally:
        os.unlink(script)
        cache.cleanup()
    print("%-12s %22s %22s %9s" % ("workload", "without (median min-max)",
                                   "prepare_debug", "overhead"))
    for workload, cells in rows.items():
        plain = statistics.median(cells["plain"])
        dump = statistics.median(cells["dump"])
        print("%-12s %8.2f s (%.2f-%.2f) %8.2f s (%.2f-%.2f) %+8.1f%%" % (
            workload, plain, min(cells["plain"]), max(cells["plain"]),
            dump, min(cells["dump"]), max(cells["dump"]), 100 * (dump / plain - 1)))
    print("(%d fresh processes per cell, inductor, FX graph and AOTAutograd caches "
          "off, kernel objects cached, Python %d.%d)" % (args.runs, *sys.version_info[:2]))


if __name__ == "__main__":
    main()
