#!/usr/bin/env bash
# Runs the engine under valgrind (memcheck) on every .pyc of one CPython's
# standard library, in both disassembly formats; any valgrind error or leak
# fails the run.
#
#   bash scripts/valgrind_stdlib.sh [3.X]
#
# Needs gcc and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-3.11}"
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
# One process for the whole library: the engine is built into a small
# driver (tests/c/engine_driver.c) so valgrind starts once.
sources=$(sed -n 's/^ *\(engine\/[a-z_/]*\.c\)$/\1/p' CMakeLists.txt)
gcc -std=c11 -g -O1 -Iengine/include -Iengine tests/c/engine_driver.c $sources \
    -lm -o "$work/engine_driver"
find "$work" -name '*.pyc' | sort > "$work/files.txt"
valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect,possible \
    "$work/engine_driver" < "$work/files.txt"
echo "valgrind: clean on $(wc -l < "$work/files.txt") files of CPython $version"
