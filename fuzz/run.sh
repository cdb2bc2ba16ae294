#!/usr/bin/env bash
# Builds the libFuzzer target with ASan and UBSan and runs it.
#
#   bash fuzz/run.sh [SECONDS] [extra libFuzzer flags...]
#
# Needs clang with libFuzzer (Debian: apt-get install clang).  The corpus
# starts from real .pyc files of every installed CPython and the bytecode
# of their functions (small modules, so the fuzzer mutates structure rather
# than bulk) and the bad-input corpus of the tests; what the fuzzer finds
# is kept in build/fuzz/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true

CC="${CC:-clang}"
if ! command -v "$CC" >/dev/null; then
    echo "fuzz/run.sh: $CC not found (apt-get install clang)" >&2
    exit 2
fi
out=build/fuzz
mkdir -p "$out/corpus" "$out/seeds"
sources=$(sed -n 's/^ *\(engine\/[a-z_/]*\.c\)$/\1/p' CMakeLists.txt)
$CC -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Iengine/include -Iengine \
    fuzz/fuzz_engine.c $sources -o "$out/fuzz_engine"

# Seeds: a mode byte (0 = whole .pyc, 2 = bytecode; see fuzz_engine.c)
# before each file.
root="${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo ~/.pyenv)}"
for py in "$root"/versions/3.{8,9,10,11,12,13}.*/bin/python3; do
    [ -x "$py" ] || continue
    "$py" - "$out/seeds" <<'PY'
import importlib.util, marshal, os, sys
out = sys.argv[1]
tag = "%d%d" % sys.version_info[:2]
srcs = ["keyword.py", "bisect.py", "colorsys.py", "this.py", "stat.py",
        "copyreg.py", "reprlib.py", "heapq.py", "fnmatch.py", "shlex.py"]
lib = os.path.dirname(os.__file__)
for name in srcs:
    path = os.path.join(lib, name)
    code = compile(open(path, encoding="utf-8").read(), path, "exec")
    data = importlib.util.MAGIC_NUMBER + b"\0" * 12 + marshal.dumps(code)
    with open(os.path.join(out, tag + "-" + name + ".pyc"), "wb") as f:
        f.write(b"\0" + data)
    # Bytecode mode (see fuzz_engine.c): the mode byte, from 3.11 on the
    # exception table's length, then co_code and the table.
    mode = bytes([((sys.version_info[1] - 8) << 2) | 2])
    for k, fn in enumerate(c for c in code.co_consts if hasattr(c, "co_code")):
        table = getattr(fn, "co_exceptiontable", b"")[:15]
        head = bytes([len(table)]) if sys.version_info >= (3, 11) else b""
        with open(os.path.join(out, "%s-%s-%d.bc" % (tag, name, k)), "wb") as f:
            f.write(mode + head + fn.co_code + table)
PY
done
cp tests/corpus/bad/*.pyc "$out/seeds/" 2>/dev/null || true

# fuzz/regressions holds the inputs that once failed (named for the bug).
# Crash, timeout and slow-unit files go to build/fuzz/artifacts, not to the
# working directory, where one was once committed by mistake.
mkdir -p "$out/artifacts"
exec "$out/fuzz_engine" "$out/corpus" "$out/seeds" fuzz/regressions \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$out/artifacts/" \
    -print_final_stats=1 "$@"
