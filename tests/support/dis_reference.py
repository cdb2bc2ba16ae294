"""The reference for unpyc's JSON disassembly: CPython's own dis module.

Runs under any CPython 3.8-3.13 and builds, for a code object of the running
interpreter, the document `unpyc --dis --json` must print for it (see the
README, "JSON disassembly"), from dis.get_instructions() and the code
object's own line and exception tables.
"""

from __future__ import annotations

import dis
import re
import sys
import types
from typing import Any, Dict, List, Optional

_CODE_ADDRESS = re.compile(r"<code object (.*?) at 0x[0-9a-fA-F]+,")


def _instruction_lines(code: types.CodeType) -> List[Optional[int]]:
    """The line of each instruction, the way the README defines it."""
    instructions = list(dis.get_instructions(code))
    if sys.version_info >= (3, 11):
        return [ins.positions.lineno for ins in instructions]
    if sys.version_info >= (3, 10):
        ranges = list(code.co_lines())
        lines: List[Optional[int]] = []
        for ins in instructions:
            line = None
            for start, end, lineno in ranges:
                if start <= ins.offset < end:
                    line = lineno
                    break
            lines.append(line)
        return lines
    starts = dict(dis.findlinestarts(code))
    current: Optional[int] = None
    lines = []
    for ins in instructions:
        current = starts.get(ins.offset, current)
        lines.append(current)
    return lines


def normalize_argrepr(argrepr: str) -> str:
    """Code-object reprs carry a memory address; unpyc prints 0x0."""
    return _CODE_ADDRESS.sub(r"<code object \1 at 0x0,", argrepr)


def exception_table(code: types.CodeType) -> List[Dict[str, Any]]:
    if sys.version_info < (3, 11):
        return []
    return [
        {
            "start": e.start,
            "end": e.end,
            "target": e.target,
            "depth": e.depth,
            "lasti": bool(e.lasti),
        }
        for e in dis._parse_exception_table(code)  # type: ignore[attr-defined]
    ]


def code_document(code: types.CodeType) -> Dict[str, Any]:
    instructions = list(dis.get_instructions(code))
    lines = _instruction_lines(code)
    return {
        "name": code.co_name,
        "qualname": getattr(code, "co_qualname", None),
        "firstlineno": code.co_firstlineno,
        "instructions": [
            {
                "offset": ins.offset,
                "opname": ins.opname,
                "arg": ins.arg,
                "argrepr": normalize_argrepr(ins.argrepr),
                "line": line,
            }
            for ins, line in zip(instructions, lines)
        ],
        "exception_table": exception_table(code),
        "children": [
            code_document(c) for c in code.co_consts if isinstance(c, types.CodeType)
        ],
    }


def document(code: types.CodeType) -> Dict[str, Any]:
    return {"version": "%d.%d" % sys.version_info[:2], "code": code_document(code)}
