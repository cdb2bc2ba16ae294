"""tools/unmarked_diffs.py lists the functions a round trip found not
equivalent whose decompiled text carries no engine mark: the possible lies
someone has to read."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))

import unmarked_diffs  # noqa: E402

# continue_in_nested_handler is an open unmarked lie on 3.8-3.13 (audit35,
# tests/constructs/open_lies_audit35.py): the `continue` prints as `pass`.
CASE = '''
def continue_in_nested_handler(items, skip, first, second):
    out = []
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                if skip:
                    continue
                raise
        out.append(value)
    return out


def plain(a, b):
    return [x + b for x in a]
'''


def test_lists_differing_functions_without_a_mark(tmp_path: Path) -> None:
    (tmp_path / "case.py").write_text(CASE)
    report = tmp_path / "roundtrip.json"
    subprocess.run([sys.executable, "-m", "unpyc.roundtrip", "case.py", "--json", str(report)],
                   cwd=tmp_path, capture_output=True, check=False)
    listed = tmp_path / "unmarked.json"
    run = subprocess.run(
        [sys.executable, str(TOOLS / "unmarked_diffs.py"), str(report), "--root", str(tmp_path),
         "--json", str(listed)],
        capture_output=True, text=True, check=True)
    differing = {f["qualname"] for m in json.loads(report.read_text())["modules"]
                 for f in m["functions"] if f["status"] != "equivalent"}
    found = json.loads(listed.read_text())
    assert {item["qualname"] for item in found} == differing  # nothing here is marked
    assert "%d functions differ with no mark" % len(found) in run.stdout
    for item in found:
        assert item["module"] == "case.py"
        assert "case.py::%s" % item["qualname"] in run.stdout
    lie = [item for item in found if item["qualname"] == "continue_in_nested_handler"]
    if lie:  # while the lie is open: the diff shows the lost continue
        assert any(line.startswith("-") and line[1:].strip() == "continue"
                   for line in lie[0]["diff"])


def test_notes_are_not_marks() -> None:
    assert not unmarked_diffs.is_marked(
        "if 0:\n    # unpyc: numbers a constant of code the compiler dropped (it is in co_consts)\n")
    assert not unmarked_diffs.is_marked("if 0:\n    # unpyc: never runs; it keeps variables\n")
    assert unmarked_diffs.is_marked("x = 1\n# unpyc: could not recover this region (offsets 4-8):\n")
    assert unmarked_diffs.is_marked("    # unpyc: a value missing from the stack here prints as ...\n")


def test_inline_code_is_judged_by_its_def() -> None:
    assert unmarked_diffs._scope_name("f.<locals>.<listcomp>[2]") == ("f", 0)
    assert unmarked_diffs._scope_name("C.m[3]") == ("C.m", 2)
    assert unmarked_diffs._scope_name("<lambda>") == ("", 0)


def test_a_mark_in_the_nested_def_the_difference_names_counts() -> None:
    # The standalone output of an outer function: the difference the round
    # trip found is in the nested C._move, whose text is marked.
    out = ("def play(self):\n    class C:\n        def _move(self):\n            return\n"
           "            # unpyc: could not recover this block (offsets 4-8):\n    return C\n")
    scopes, lines = unmarked_diffs._scopes(ast.parse(out)), out.splitlines()
    nested = {"qualname": "P.play", "detail": "P.play.<locals>.C._move: instruction 4: x"}
    assert unmarked_diffs._nested_marked(nested, "play", scopes, lines)
    outer = {"qualname": "P.play", "detail": "P.play: instruction 4: x"}
    assert not unmarked_diffs._nested_marked(outer, "play", scopes, lines)
