#!/usr/bin/env bash
# The main job (README): sets up .venv, compiles the SPEC's toy example with
# every installed CPython 3.8-3.13, disassembles and decompiles each .pyc
# with unpyc.  The report lands in build/main/.  (The torch.compile
# explorer will take this job over when it lands.)
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
    .venv/bin/unpyc "$out/toy_example-3.$minor.pyc" > "$out/toy_example-3.$minor.decompiled.py"
    echo "main: 3.$minor -> $out/toy_example-3.$minor.dis.txt, $out/toy_example-3.$minor.decompiled.py"
done
echo "main: open $out/toy_example-3.11.decompiled.py first"
