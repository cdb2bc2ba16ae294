"""Annotations on functions, variables and class attributes."""
from typing import List, Optional

x: int = 1
y: List[int]
z: 'Optional[str]' = None


def annotated(a: int, b: 'str' = 'x', *args: int, c: float = 1.0, **kw: bool) -> List[int]:
    local: int = a
    return [local]


class Record:
    name: str
    size: int = 0
    tags: List[str] = []


def annotated_local_read():
    # test_grammar's fbad: the annotation alone makes x local (no code),
    # so the read raises UnboundLocalError instead of reading a global.
    x: int
    print(x)
