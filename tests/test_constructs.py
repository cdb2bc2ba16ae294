"""Hand-written sources, one file per construct family (tests/constructs/),
round-tripped on every installed CPython 3.8-3.13.

Each file is compiled by the interpreter, decompiled whole, recompiled and
compared (SPEC section 2); every def in it is also decompiled alone.  A
family that needs a newer Python says so in its docstring ("(3.10+)"): on
older interpreters it is not syntax, and the test checks that the
interpreter indeed refuses it.  Failures of the decompiler are listed, one
line each with the reason, in tests/constructs/known_failures/3.X.txt; a
failure not listed fails the test, and so does a listed entry that passes
now (remove it: the lists only shrink).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

from conftest import REPO, RESULTS, VERSIONS, run_python

CONSTRUCTS = REPO / "tests" / "constructs"
FAMILIES = sorted(p.name for p in CONSTRUCTS.glob("*.py"))
NEEDS = re.compile(r"\((3\.\d+)\+\)")


def _needs(family: str) -> Optional[Tuple[int, int]]:
    """The oldest version whose syntax the family uses, from its docstring."""
    first = (CONSTRUCTS / family).read_text(encoding="utf-8").splitlines()[0]
    m = NEEDS.search(first)
    if not m:
        return None
    major, minor = m.group(1).split(".")
    return int(major), int(minor)


def _version_tuple(version: str) -> Tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


_results: Dict[str, Dict[str, Any]] = {}


def _run(version: str, unpyc_path: str) -> Dict[str, Any]:
    """The oracle over all families under one interpreter (run once)."""
    if version not in _results:
        # Each xdist worker runs the oracle itself: its own file, or one
        # worker reads what the other is still writing.
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        out = RESULTS / "constructs" / ("%s-%s.json" % (version, worker))
        out.parent.mkdir(parents=True, exist_ok=True)
        known = CONSTRUCTS / "known_failures" / ("%s.txt" % version)
        # Run from the family folder: results name the files relative to it.
        proc = run_python(version, unpyc_path, [
            "-m", "unpyc.roundtrip", "--sample-functions", "1", "--known", str(known),
            "--json", str(out)] + FAMILIES, cwd=CONSTRUCTS)
        assert out.exists(), proc.stdout[-2000:] + proc.stderr[-4000:]
        _results[version] = json.loads(out.read_text())
    return _results[version]


def _keys(result: Dict[str, Any], key: str, family: str) -> List[str]:
    return [k for k in result[key] if k.split("::")[0] == family]


def _detail(module: Dict[str, Any], key: str) -> str:
    if "::" not in key:
        return str(module.get("detail"))
    qualname = key.split("::", 1)[1]
    kind = "functions"
    if qualname.endswith(" (standalone)"):
        qualname, kind = qualname[: -len(" (standalone)")], "standalone"
    for f in module[kind]:
        if f["qualname"] == qualname:
            return "%s: %s" % (f["status"], f.get("detail"))
    return "?"


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("version", VERSIONS)
def test_construct_roundtrip(version: str, family: str, unpyc_path: str) -> None:
    result = _run(version, unpyc_path)
    module = next(m for m in result["modules"] if m["path"] == family)
    needs = _needs(family)
    if needs and _version_tuple(version) < needs:
        # Not syntax here: the interpreter must refuse it, and nothing else
        # is asked of this version.
        assert module["status"] == "skipped" and "SyntaxError" in module["detail"], module
        return
    assert module["status"] != "skipped", module
    # Every def of the family was also decompiled alone.
    assert module["standalone"], "no def of %s was decompiled alone" % family
    new = _keys(result, "new", family)
    assert not new, "%d new failures in %s on %s:\n%s" % (
        len(new), family, version,
        "\n".join("  %s: %s" % (k, _detail(module, k)) for k in new))
    fixed = _keys(result, "fixed", family) + _keys(result, "stale", family)
    assert not fixed, "these entries of known_failures/%s.txt pass now; remove them:\n%s" % (
        version, "\n".join("  " + k for k in fixed))


@pytest.mark.parametrize("version", VERSIONS)
def test_construct_no_false_alarm(version: str, unpyc_path: str, unpyc_cli: str,
                                  tmp_path: Path) -> None:
    """A family whose module round-trips comes out of the command line
    with no part marked unrecovered: exit 9 means the output is really
    incomplete, not that the engine doubted code it recovered."""
    result = _run(version, unpyc_path)
    equivalent = [m["path"] for m in result["modules"] if m["status"] == "equivalent"]
    assert equivalent or version in ("3.8", "3.9", "3.10"), result["summary"]
    alarms = []
    for family in equivalent:
        pyc = tmp_path / (family + "c")
        proc = run_python(version, unpyc_path, [
            "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], "
            "doraise=True)", str(CONSTRUCTS / family), str(pyc)])
        assert proc.returncode == 0, proc.stderr
        out = subprocess.run([unpyc_cli, str(pyc)], capture_output=True, text=True)
        if out.returncode != 0:
            alarms.append("%s: exit %d: %s" % (family, out.returncode, out.stderr.strip()))
    assert not alarms, "\n".join(alarms)



# Comments that say something of code that is all there: the rest mark code
# the output lost.
NOTES = ("# unpyc: never runs", "# unpyc: numbers a constant",
         "# unpyc: this bytecode keeps values")

# A break that falls into the try after its loop: on 3.12 / 3.13 (and
# 3.8-3.10) a reading of it marked a region that another reading replaced,
# which left the exit 9 and no mark in the text (found in zipimport).
LOST_MARK = """\
def f(path):
    while True:
        try:
            st = g(path)
        except OSError:
            path = h(path)
        else:
            break
    try:
        files = cache[path]
    except KeyError:
        files = 1
    return files
"""

COMPILE_ALL = r'''
import py_compile, sys
for name in sys.argv[2:]:
    try:
        py_compile.compile(name, cfile=sys.argv[1] + "/" + name.rsplit("/", 1)[-1] + "c",
                           doraise=True)
    except py_compile.PyCompileError:
        pass  # a family of newer syntax: test_construct_roundtrip checks it
'''


def _lost_marks(text: str) -> int:
    count = 0
    for line in text.splitlines():
        at = line.find("# unpyc:")
        if at >= 0 and not line[at:].startswith(NOTES):
            count += 1
    return count


@pytest.mark.parametrize("version", VERSIONS)
def test_construct_marks_match_exit(version: str, unpyc_path: str, unpyc_cli: str,
                                    tmp_path: Path) -> None:
    """The command exits 9 exactly when its text marks lost code: a mark
    made in one reading of the structure that another reading replaced
    must not leave the count up and the text silent (code.c
    mark_lost_marks)."""
    extra = tmp_path / "lost_mark.py"
    extra.write_text(LOST_MARK)
    proc = run_python(version, unpyc_path,
                      ["-c", COMPILE_ALL, str(tmp_path)] + FAMILIES + [str(extra)],
                      cwd=CONSTRUCTS)
    assert proc.returncode == 0, proc.stderr
    pycs = sorted(tmp_path.glob("*.pyc"))
    assert tmp_path / "lost_mark.pyc" in pycs
    wrong = []
    for pyc in pycs:
        out = subprocess.run([unpyc_cli, "--no-verify", str(pyc)], capture_output=True,
                             text=True)
        marks = _lost_marks(out.stdout)
        if (out.returncode == 9) != (marks > 0):
            wrong.append("%s: exit %d, %d marks" % (pyc.name, out.returncode, marks))
    assert not wrong, "\n".join(wrong)


# Shapes whose output was once wrong with no mark, and is now marked, not
# yet recovered: each must come out equivalent or marked, never different
# and silent (their families cannot hold them: a known failure of
# 3.11-3.13 would grow the lists).
LIE_GUARDS = {
    # 3.11: the return after a for loop in a try/finally in a try/except
    # in a loop left the outer try through its pops; it was lost, and the
    # loop went on (pygments FontManager._create_win).
    "return_past_outer_try.py": """\
def f(keys):
    for k in keys:
        try:
            try:
                for s in k:
                    g(s)
                return
            except E as err:
                e = err
            finally:
                h()
        except OSError:
            pass
    z()
""",
    "lost_mark.py": LOST_MARK,
    # 3.11-3.13: a return in a try whose finally body holds a loop and
    # then an if came out as `pass` (s3transfer Task.__call__); the lost
    # return is caught by code.c return_printed.
    "return_in_split_finally.py": """\
def f(c, cbs, final):
    try:
        if c:
            return run()
    except Exception:
        log()
    finally:
        for cb in cbs:
            cb()
        if final:
            announce()
""",
    # 3.8 / 3.9: three nested `while True:` share one header once jumps
    # are threaded; the exit to the return was lost and the output looped
    # forever.
    "nested_while_true_exit.py": """\
def f(a, b, c):
    while True:
        while True:
            while True:
                if a():
                    break
            if b():
                break
        if c():
            break
    return a
""",
    # 3.11-3.13: a finally body that returns in a branch, copied on a
    # break's way out of an except clause (structure.c skip_returning_copy
    # leaves it to rec.must_place): `while True` came out as a loop that
    # never ended.  Its copy on a `return x` of a clause, and the try
    # body's two returns, are not read yet either.
    "finally_returns_clause_break.py": """\
def f(g, E, c):
    while True:
        try:
            g()
        except E:
            break
        finally:
            if c:
                return 2
    return 3
""",
    "finally_returns_clause_break_for.py": """\
def f(g, E, c, xs):
    for x in xs:
        try:
            g(x)
        except E:
            break
        finally:
            if c:
                return 2
    return 3
""",
    "finally_returns_clause_value.py": """\
def f(g, E, c, x):
    try:
        g()
    except E:
        return x
    finally:
        if c:
            return 2
""",
    "finally_returns_body_two_returns.py": """\
def f(E, a, c):
    try:
        if a:
            return 4
        return 5
    except E:
        return 1
    finally:
        if c:
            return 2
""",
    # 3.12 / 3.13: the second loop read as the first's else part, the copy
    # of `return a` in its clause as its break: the return was lost and
    # the first loop ran on (found auditing test_ssl; now marked).
    # 3.12 / 3.13: an empty try body with except* clauses took in the
    # code after the try (`x; return`, copied by the clause's way out), so
    # the NameError of x went to the clause (found auditing the campaign;
    # now marked: try.c took_code_after_empty_body).
    "empty_body_except_star.py": """\
def f():
    try:
        pass
    except* Missing:
        pass
    x
""",
    # 3.11-3.13: a break of a named except clause in a for loop with a
    # finally body, threaded into the function's `return None` (POP_EXCEPT;
    # del e; d(); POP_TOP; RETURN_CONST None), came out as `if e: pass`
    # and the loop went on; 3.12 / 3.13 left it unmarked.  Marked first
    # (code.c pops_unrun_iterator), read now (structure.c unwinds_to_return
    # takes the iterator's POP_TOP before a constant's return), with the
    # unnamed form, a lie on 3.12 / 3.13 until then
    # (constructs/clause_breaks_through_finally.py); the `while a:` form
    # comes out as an equivalent `while True:` around it that compiles
    # differently (RUNS_THE_SAME clause_break_while_finally.py).
    "clause_break_continue.py": """\
def f(a, d):
    for x in a:
        try:
            x()
        except KeyError as e:
            if e:
                break
            continue
        finally:
            d()
""",
    "clause_break_no_continue.py": """\
def f(a, d):
    for x in a:
        try:
            x()
        except KeyError as e:
            if e:
                break
        finally:
            d()
""",
    # Every version: a `while True:` body that ends in `break` has no jump
    # back (the compiler drops it as unreachable), so the break of
    # `if not out: break` in its try / finally body is a jump past the code
    # after the try that no statement here makes: it was read as `if not
    # out: pass`, which ran that code (test_sys_settrace
    # test_jump_over_break_in_try_finally_block; now marked: try.c
    # copy_jumps_past_follow).
    "break_in_finally_no_loop.py": """\
def f(out):
    while True:
        try:
            if not out:
                break
            out.append(8)
        finally:
            out.append(10)
        out.append(11)
        break
    out.append(13)
""",
    # Every version: `if g(i): break` ending a try body in a with in a
    # for loop leaves through the with's exit (not skipped yet) before its
    # jump, no lone jump: read as `if g(i): pass`, the loop ran on; 3.8,
    # 3.9 and 3.11 left it unmarked (now marked: structure.c
    # unread_loop_jump_then).
    "break_in_try_in_with.py": """\
def f(xs, lock):
    for i in xs:
        with lock:
            try:
                if g(i):
                    break
            except E:
                pass
    return i
""",
    "moved_return_in_else_loop.py": """\
def f(it):
    while True:
        try:
            a = next(it)
        except ValueError:
            pass
        else:
            break
    while True:
        try:
            b = next(it)
        except StopIteration:
            break
    return a
""",
}


@pytest.mark.parametrize("version", VERSIONS)
def test_lie_guards_marked_or_equivalent(version: str, unpyc_path: str,
                                         tmp_path: Path) -> None:
    for name, source in LIE_GUARDS.items():
        (tmp_path / name).write_text(source)
    out = tmp_path / "result.json"
    proc = run_python(version, unpyc_path, [
        "-m", "unpyc.roundtrip", "--sample-functions", "1", "--json", str(out)]
        + sorted(LIE_GUARDS), cwd=tmp_path)
    assert out.exists(), proc.stdout[-2000:] + proc.stderr[-2000:]
    silent = [m["path"] + ": " + str(m.get("detail"))
              for m in json.loads(out.read_text())["modules"]
              if m["status"] not in ("equivalent", "skipped")
              and not m.get("marked")]
    assert not silent, "\n".join(silent)


# Lies fixed where the output, right now, runs the same as the source but
# does not compile to the same bytecode (so no family can hold them: a
# known failure of 3.11-3.13 would grow the lists).  Each program prints
# what it computes; its decompiled form must print the same, or be marked.
RUNS_THE_SAME = {
    # 3.11: the if ending the try body read its false way through the jump
    # over the handler to the break after the try, as `if not a: break`,
    # and the try's own way on (that break) was lost: the loop ran on
    # (re/_compiler.py _optimize_charset, an endless loop).
    "try_if_then_break.py": """\
def f(a):
    n = 0
    while n < 30:
        n += 1
        try:
            if a:
                n += 10
        except IndexError:
            continue
        break
    return n


def g(a, b):
    n = 0
    while True:
        n += 1
        if n > 3:
            return 'loops'
        try:
            if a:
                if b:
                    n += 10
            else:
                n += 100
        except IndexError:
            continue
        break
    return n


print(f(1), f(0), g(1, 1), g(1, 0), g(0, 0))
""",
    # 3.12 / 3.13: `while True:` loops whose try's `else: break` has the
    # code after the loop laid out in its place read as nested, each in the
    # else part of the one before; the last loop's breaks, which go to the
    # code after all of them, left only that loop, and the loops around
    # ran on (test_ssl test_remote_shutdown_receives_trailing_data server).
    "loops_in_try_else_parts.py": """\
def f(it):
    while True:
        try:
            a = next(it)
        except ValueError:
            pass
        else:
            break
    while True:
        try:
            b = next(it)
        except ValueError:
            pass
        else:
            break
    n = 0
    while True:
        try:
            n += next(it)
        except StopIteration:
            break
    return a, b, n


print(f(iter([1, 2, 3, 4])))
""",
    # 3.12 / 3.13: the `while a:` form of the for loops of
    # constructs/clause_breaks_through_finally.py (once lies: the break's
    # code read as the code after the try).  Its break (POP_EXCEPT; d();
    # RETURN_CONST None, no iterator to pop) reads as `return`, the loop as
    # `while True:` around `while a:` (the clause's continue jumps to the
    # first copy of the loop's test, which 3.12 duplicates at the body's
    # end): it runs the same, and compiles differently.
    "clause_break_while_finally.py": """\
def f(a, d):
    while a:
        try:
            a.pop()()
        except KeyError:
            if d:
                break
            continue
        finally:
            d.append(len(a))


def k():
    raise KeyError


for a, d in ([int, k, int], []), ([int, k, int], [0]), ([k, int, k], []):
    f(a, d)
    print(d)
""",
    # 3.8 / 3.9 (preds3b, never committed): a while loop inside `while
    # True` whose try body's break peephole.c threads to the outer loop's
    # top, given the bottom test by whiletest.c, read as `if stack: while
    # True: try ...` without the break, endless (graphlib
    # TopologicalSorter._find_cycle, test_generators flat_conjoin).
    "inner_while_break_to_outer_top.py": """\
def f(graph):
    out = []
    seen = set()
    for start in graph:
        node = start
        stack = []
        its = []
        while True:
            if node not in seen:
                seen.add(node)
                its.append(iter(graph[node]))
                stack.append(node)
            else:
                out.append(node)
            while stack:
                try:
                    node = next(its[-1])
                    break
                except StopIteration:
                    stack.pop()
                    its.pop()
            else:
                break
    return out, sorted(seen)


print(f({1: [2, 3], 2: [3], 3: [1]}))
""",
}


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_fixed_lies_run_the_same(version: str, unpyc_path: str, unpyc_cli: str,
                                 tmp_path: Path) -> None:
    wrong = []
    for name, source in RUNS_THE_SAME.items():
        src = tmp_path / name
        src.write_text(source)
        pyc = tmp_path / (name + "c")
        proc = run_python(version, unpyc_path, [
            "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], "
            "doraise=True)", str(src), str(pyc)])
        assert proc.returncode == 0, proc.stderr
        out = subprocess.run([unpyc_cli, "--no-verify", str(pyc)], capture_output=True,
                             text=True)
        if out.returncode == 9:
            continue
        assert out.returncode == 0, out.stderr
        dec = tmp_path / ("dec_" + name)
        dec.write_text(out.stdout)
        want = run_python(version, unpyc_path, [str(src)])
        try:
            got = run_python(version, unpyc_path, [str(dec)], timeout=20).stdout
        except subprocess.TimeoutExpired:
            got = "(ran past 20 s)"
        if got != want.stdout:
            wrong.append("%s: %r, decompiled %r" % (name, want.stdout, got))
    assert not wrong, "\n".join(wrong)
