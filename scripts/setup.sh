#!/usr/bin/env bash
# Sets up .venv (CPython 3.11) with unpyc built and installed, plus what the
# tests and the torch.compile explorer need (torch 2.13.0, CPU).  Safe to
# run again: it reuses the venv and rebuilds unpyc.
#
#   bash scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

find_python311() {
    local root
    root="${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")}"
    for candidate in $(ls -d "$root"/versions/3.11.*/bin/python3 2>/dev/null | sort -V -r) \
                     "$(command -v python3.11 || true)" "$(command -v python3 || true)"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ] &&
           "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
            echo "$candidate"
            return 0
        fi
    done
    echo "scripts/setup.sh: CPython 3.11 not found (pyenv install 3.11)" >&2
    return 1
}

if [ ! -x .venv/bin/python ]; then
    "$(find_python311)" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# torch==2.13.0 (CPU) for the torch.compile explorer; --find-links lets a
# local wheel folder serve it where the machine has one.
find_links=()
if [ -d /opt/wheels ]; then find_links=(--find-links /opt/wheels); fi
.venv/bin/python -m pip install --quiet "${find_links[@]}" ".[test,torch]"
# The real-world corpus of tests/test_roundtrip_realworld.py (pinned PyPI
# wheels, .py files only, under build/realworld; cached).
.venv/bin/python scripts/realworld_corpus.py
echo "setup: unpyc $(.venv/bin/python -c 'import unpyc; print(unpyc.__version__)') installed in .venv"
