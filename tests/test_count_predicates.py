"""tools/count_predicates.py counts the yes/no questions recovery asks about
the code's shape (issue 17's measure), and nothing else."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "count_predicates.py"

SOURCE = """
static int ends_loop(const rec *r, int32_t b) {
    return blk(r, b)->next == r->loop;
}
static int falls_on(const rec *r, int32_t b) {
    if (b < 0)
        return 0;
    return ends_loop(r, b);
}
static int block_count(const rec *r, int32_t b) {
    return r->count - b;
}
static int emit_stmt(rec *r, int32_t b) {
    if (b < 0)
        return -1;
    return 0;
}
static int leaves_by(const rec *r, int32_t b) {
    /* (Not the return's way out: a comment's words are no code.) */
    return r->done[b] && b > 0;
}
static int same_name(const char *a, const char *b) {
    return a == b;
}
"""


def test_counts_shape_predicates_only(tmp_path: Path) -> None:
    (tmp_path / "shape.c").write_text(SOURCE)
    out = subprocess.run([sys.executable, str(TOOL), "--list", str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    listed = [line.strip() for line in out.splitlines()]
    # ends_loop compares, falls_on returns another predicate's answer; a count,
    # an error code and a question about strings (not the code) are left out;
    # a return written in a comment does not hide leaves_by.
    assert listed == ["3  shape.c", "ends_loop", "falls_on", "leaves_by", "3  total"]


def test_engine_structure_predicates_are_counted() -> None:
    out = subprocess.run([sys.executable, str(TOOL), "--list"], capture_output=True,
                         text=True, check=True).stdout
    names = {line.strip() for line in out.splitlines()}
    # Two of the layout questions issue 17 names, in structure.c.
    assert {"copy_to_exit", "falls_to_loop"} <= names
