"""An and/or inside an or/and on a line of its own: its jump stays apart (3.10-3.11 thread it on one line only; issue 16, cattrs is_tuple, httpcore is_available)."""


def eq(self, other):
    return (type(other) is type(self)
            and self._included == other._included
            and self._excluded == other._excluded) or (
        type(other) in (set, frozenset) and self._included == other)


def avail(self):
    return (
        self._http2
        and (self._origin.scheme == b"https" or not self._http1)
        and not self._connect_failed
    )


def is_tuple(type, Tuple, G, s):
    return (
        type in (Tuple, tuple)
        or (type.__class__ is G and s(type.__origin__, Tuple))
        or (getattr(type, "__origin__", None) is tuple)
    )


def last(a, b, c):
    return a or (
        b and c)


def fstring(a, b, c, d):
    return f"""{a or (
        b and c) or d}"""
