#!/usr/bin/env bash
# The main job (README): sets up .venv (with torch 2.13.0), runs the SPEC's
# toy example (a graph break, training, the inductor backend) under
# unpyc.prepare_debug and says where the dump is and which file to open
# first.  Then, as before, it compiles the example with every installed
# CPython 3.8-3.13 and decompiles each .pyc.  Everything lands in build/main/.
#
#   bash scripts/main.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
out=build/main
mkdir -p "$out"
cat > "$out/toy_example.py" <<'PY'
import torch


@torch.compile
def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b
PY
cat > "$out/explore_toy_example.py" <<'PY'
"""Trains with the toy example under unpyc.prepare_debug (inductor)."""
import os
import sys

import torch

import unpyc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from toy_example import toy_example  # noqa: E402

dump_dir = os.path.abspath(sys.argv[1])
torch.manual_seed(0)
weight = torch.randn(10, requires_grad=True)
optimizer = torch.optim.SGD([weight], lr=0.1)
with unpyc.prepare_debug(dump_dir):
    for step in range(2):
        optimizer.zero_grad()
        b = torch.randn(10) * (-1 if step == 0 else 1)  # both sides of the graph break
        loss = toy_example(weight, b).sum()
        loss.backward()
        optimizer.step()
        print("main: step %d loss %.4f" % (step, loss.item()))
print("main: the dump of what torch.compile did is in %s" % dump_dir)
print("main: open %s first (it links every file); then %s"
      % (os.path.join(dump_dir, "index.html"),
         os.path.join(dump_dir, "full_code_for_toy_example.py")))
PY
rm -rf "$out/dump"
.venv/bin/python "$out/explore_toy_example.py" "$out/dump"
root="${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")}"
for minor in 8 9 10 11 12 13; do
    py=$(ls -d "$root"/versions/3.$minor.*/bin/python3 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$py" ]; then
        echo "main: CPython 3.$minor is not installed; skipped"
        continue
    fi
    "$py" -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' \
        "$out/toy_example.py" "$out/toy_example-3.$minor.pyc"
    .venv/bin/unpyc --dis "$out/toy_example-3.$minor.pyc" > "$out/toy_example-3.$minor.dis.txt"
    # Exit code 11: verified, not equivalent; the note on top says where.
    status=0
    .venv/bin/unpyc "$out/toy_example-3.$minor.pyc" > "$out/toy_example-3.$minor.decompiled.py" \
        || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 11 ] || exit "$status"
    echo "main: 3.$minor -> $out/toy_example-3.$minor.dis.txt, $out/toy_example-3.$minor.decompiled.py"
    echo "      $(head -1 "$out/toy_example-3.$minor.decompiled.py" | cut -c1-150)"
done
echo "main: open $out/dump/index.html first (the torch.compile dump)"
