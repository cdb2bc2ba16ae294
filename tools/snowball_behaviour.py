#!/usr/bin/env python3
"""Run snowballstemmer's unmarked differing methods in place of the originals.

The round trip says which functions compile back to other bytecode; it
cannot say which of those run differently.  snowballstemmer (holdout 4) is
a good judge: its stemmers are deterministic, every method is reached by
stemming words, and its one-shot `while True: ...; break` blocks are the
layouts the engine has lied about most.  For each function that
tools/unmarked_diffs.py lists (differs, no mark) this tool takes the
method from the decompiled module, puts it in the original class in place
of the original method, stems the same generated words with and without
it, and counts the stems that differ, or the hang (a word that takes over
two seconds):

    PYTHONPATH=PKG python3.X -m unpyc.roundtrip --root DIR --jobs 2 \\
        --sample-functions 10 --json F.json
    PYTHONPATH=PKG python3.X tools/snowball_behaviour.py F.json --root DIR

DIR holds the package as snowballstemmer/ (in the holdout corpus:
build/holdout4/corpus/snowballstemmer); run it with the same Python and
unpyc as the round trip.  The words are built from each module's own
suffix strings (its among tables), so that most rules fire; they reach
many rules but not all (nepali __r_remove_category_1 on 3.11 was a lie no
generated word showed), so a count of 0 says only that none of these words
tells the outputs apart.  Exit status 1 when any method runs differently.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import random
import re
import signal
import sys
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import unmarked_diffs  # noqa: E402  (the tool beside this one)

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_STEMS = ("kal", "abcd", "maria", "tér", "пра", "ana", "ostr", "ijk")
_HANG_SECONDS = 2


class _Hang(Exception):
    pass


def _on_alarm(signum: int, frame: Optional[FrameType]) -> None:
    raise _Hang()


def words_for(module: ModuleType, limit: int) -> List[str]:
    """Words from the module's own short strings (its suffixes), alone and
    after a few stems, in a fixed order."""
    rng = random.Random(7)
    with open(str(module.__file__), encoding="utf-8") as f:
        found = [s for s in _STRING.findall(f.read()) if 0 < len(s) < 8 and "\\" not in s]
    strings = list(dict.fromkeys(found))[:400] or ["a"]
    words = set()
    for s in strings:
        words.update(stem + s for stem in _STEMS[:4])
        words.add(s)
        words.add(rng.choice(_STEMS) + rng.choice(strings) + s)
    return sorted(words)[:limit]


def stem_all(cls: type, words: List[str]) -> List[str]:
    """Each word stemmed by a fresh stemmer; "HANG" ends the list."""
    out: List[str] = []
    for word in words:
        signal.alarm(_HANG_SECONDS)
        try:
            out.append(cls().stemWord(word))
        except _Hang:
            out.append("HANG")
            break
        except Exception as e:  # the method's own error is a result too
            out.append("EXC " + type(e).__name__)
        finally:
            signal.alarm(0)
    return out


def decompiled_module(module: ModuleType) -> ModuleType:
    """The module's decompiled source, run as a module of the package (so
    that its imports and globals are the package's)."""
    unpyc = importlib.import_module("unpyc")
    with open(str(module.__file__), encoding="utf-8") as f:
        code = compile(f.read(), str(module.__file__), "exec")
    text: str = unpyc.decompile(code, verify=False)
    twin = ModuleType(module.__name__ + "__decompiled")
    twin.__package__ = module.__package__
    exec(compile(text, "<decompiled %s>" % module.__name__, "exec"), twin.__dict__)
    return twin


def attribute(cls_name: str, method: str) -> str:
    """The name a method of the class has in its __dict__ (private names
    are mangled)."""
    if method.startswith("__") and not method.endswith("__"):
        return "_%s%s" % (cls_name.lstrip("_"), method)
    return method


def judge(module_path: str, qualname: str, words: int,
          cache: Dict[str, ModuleType]) -> str:
    """What replacing one method by its output does to the stems."""
    if "." not in qualname or "<" in qualname or "[" in qualname:
        return "skipped (not a method of a class)"
    name = "snowballstemmer." + Path(module_path).stem
    module = importlib.import_module(name)
    if name not in cache:
        cache[name] = decompiled_module(module)
    cls_name, method = qualname.split(".", 1)
    cls = getattr(module, cls_name)
    key = attribute(cls_name, method)
    replacement = getattr(cache[name], cls_name).__dict__[key]
    original = cls.__dict__[key]
    sample = words_for(module, words)
    before = stem_all(cls, sample)
    setattr(cls, key, replacement)
    try:
        after = stem_all(cls, sample)
    finally:
        setattr(cls, key, original)
    differ = sum(1 for a, b in zip(before, after) if a != b) + abs(len(before) - len(after))
    return "%d of %d words differ%s" % (differ, len(before), " (HANG)" if "HANG" in after else "")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="the JSON of python3.X -m unpyc.roundtrip --json")
    parser.add_argument("--root", type=Path, required=True,
                        help="the --root the round trip was run on (holds snowballstemmer/)")
    parser.add_argument("--words", type=int, default=3000, help="at most this many words a language")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)
    with open(args.report) as f:
        report = json.load(f)
    sys.path.insert(0, str(args.root))
    sys.setrecursionlimit(10000)
    signal.signal(signal.SIGALRM, _on_alarm)
    found = [u for u in unmarked_diffs.unmarked(report, args.root)
             if not u.qualname.endswith("(standalone)")]
    cache: Dict[str, ModuleType] = {}
    results: Dict[str, str] = {}
    for item in found:
        results["%s::%s" % (item.module, item.qualname)] = judge(
            item.module, item.qualname, args.words, cache)
    lying = [k for k, v in results.items() if not v.startswith(("0 of", "skipped"))]
    for key, verdict in results.items():
        print("%s  %s" % (verdict, key))
    print("%d unmarked differing functions, %d run differently (Python %d.%d)" % (
        len(results), len(lying), sys.version_info[0], sys.version_info[1]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if lying else 0


if __name__ == "__main__":
    sys.exit(main())
