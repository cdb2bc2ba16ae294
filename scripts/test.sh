#!/usr/bin/env bash
# Sets up .venv and runs every test (the README's test command; CI runs it).
#
#   bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# pytest exits 5 when it collected nothing: that is a failure here too.
set +e
.venv/bin/python -m pytest -n auto "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "scripts/test.sh: pytest collected no tests" >&2
fi
exit "$status"
