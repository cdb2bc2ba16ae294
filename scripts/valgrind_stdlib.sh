#!/usr/bin/env bash
# Runs the unpyc command under valgrind (memcheck) on every .pyc of one
# CPython's standard library, in both output formats; any valgrind error or
# leak fails the run.
#
#   bash scripts/valgrind_stdlib.sh [3.X] [JOBS]
#
# Needs .venv set up (scripts/setup.sh) and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-3.11}"
jobs="${2:-2}"
root="${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")}"
py=$(ls -d "$root"/versions/"$version".*/bin/python3 | sort -V | tail -1)
work=build/valgrind/$version
rm -rf "$work"
mkdir -p "$work"
# Every stdlib module this interpreter can compile, as real .pyc files.
"$py" - "$work" <<'PY'
import os, py_compile, sys, sysconfig, warnings
out = sys.argv[1]
lib = sysconfig.get_paths()["stdlib"]
n = 0
for dirpath, dirnames, filenames in os.walk(lib):
    dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
    for name in sorted(filenames):
        if not name.endswith(".py"):
            continue
        path = os.path.join(dirpath, name)
        target = os.path.join(out, os.path.relpath(path, lib).replace(os.sep, "__") + "c")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                py_compile.compile(path, cfile=target, doraise=True)
                n += 1
            except Exception:
                pass
print("valgrind: %d modules compiled by %s" % (n, sys.version.split()[0]))
PY
check_one() {
    local pyc="$1" flag
    for flag in "" "--json"; do
        if ! valgrind --quiet --error-exitcode=99 --leak-check=full \
                --errors-for-leak-kinds=definite,indirect,possible \
                .venv/bin/unpyc --dis $flag "$pyc" > /dev/null 2> "$pyc.vg$flag"; then
            echo "valgrind: FAILED on $pyc $flag"
            cat "$pyc.vg$flag"
            return 1
        fi
    done
}
export -f check_one
find "$work" -name '*.pyc' -print0 | sort -z |
    xargs -0 -n 1 -P "$jobs" bash -c 'check_one "$0"'
echo "valgrind: clean on $(find "$work" -name '*.pyc' | wc -l) files of CPython $version"
