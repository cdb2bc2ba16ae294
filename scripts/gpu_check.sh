#!/usr/bin/env bash
# The explorer on a CUDA GPU (not part of CI, which has no GPU): toy
# example and a TransformerEncoderLayer trained with Triton kernels under
# prepare_debug, then debug(); outputs compared, debug() running the very
# files prepare_debug wrote, a pdb breakpoint in a dumped Triton-launching
# module hit.  Uses the torch it finds (2.11 or later), else sets up .venv.
#
#   bash scripts/gpu_check.sh [OUT_DIR]          # on a machine with CUDA
#   bash scripts/gpu_check.sh OUT_DIR --device cpu   # its logic, on the CPU
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/gpu_check}"
shift || true
if python3 -c 'import torch' 2>/dev/null; then
    # The machine's own torch (a CUDA build): unpyc built and installed
    # beside it.
    # (machines without network access: build with the scikit-build-core
    # already installed there instead of fetching one).
    py=python3
    isolation=()
    if "$py" -c 'import scikit_build_core' 2>/dev/null; then
        isolation=(--no-build-isolation)
    fi
    "$py" -m pip install --quiet --no-deps "${isolation[@]}" .
else
    bash scripts/setup.sh
    py=.venv/bin/python
fi
exec "$py" scripts/gpu_check.py "$@" "$out"
