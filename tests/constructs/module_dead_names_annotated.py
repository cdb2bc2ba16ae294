"""Names only dead code of a module numbered, before an annotated assignment: the statement starts with its value's code, so the dead code goes before it (issue 16: stdlib _pyrepl/trace.py, _pyrepl/historical_reader.py; the annotated statement started after its store, and the names went first)."""
from __future__ import annotations

import os

if False:
    from typing import IO

trace_file: IO | None = None
if name := os.environ.get("TRACE"):
    trace_file = open(name, "a")


def trace(line):
    if trace_file is not None:
        trace_file.write(line)
