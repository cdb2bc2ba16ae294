"""The exceptions of unpyc: one class per class of engine failure.

Every engine failure is an UnpycError; the subclass says what kind, so a
caller can catch a corrupt file apart from an unsupported one.  `offset` is
the byte offset in the input (the .pyc file, or the marshal data) where the
problem was found, or None; `path` is the file when one was read.
"""

from __future__ import annotations

from typing import Dict, Optional, Type


class UnpycError(Exception):
    """Base class of every error the unpyc package raises on bad input."""

    status = "error"

    def __init__(
        self, message: str, *, offset: Optional[int] = None, path: Optional[str] = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.path = path

    def __str__(self) -> str:
        return "%s: %s" % (self.path, self.message) if self.path else self.message


class NotPycError(UnpycError):
    """The data is not a .pyc file (too short, no magic number, bad flags)."""

    status = "not-pyc"


class BadMagicError(UnpycError):
    """The magic number is of no supported CPython version."""

    status = "bad-magic"


class TruncatedError(UnpycError):
    """The marshal data ends in the middle of a value."""

    status = "truncated"


class CorruptError(UnpycError):
    """Invalid data: unknown type code or opcode, bad field, bad table."""

    status = "corrupt"


class BadReferenceError(UnpycError):
    """A marshal back-reference names a missing or unfinished object."""

    status = "bad-reference"


class TooLargeError(UnpycError):
    """The input is over the engine's limits of size, depth or output."""

    status = "too-large"


class UnsupportedError(UnpycError):
    """Valid input the engine cannot handle (e.g. another Python version)."""

    status = "unsupported"


class EngineMemoryError(UnpycError, MemoryError):
    """The engine ran out of memory."""

    status = "no-memory"


class VerificationError(UnpycError):
    """decompile / decompile_pyc(on_mismatch="raise"): the source does
    not compile back to equivalent bytecode.  `detail` names the first difference, `source` is
    the decompiled text, `unrecovered` counts the regions the engine left
    as commented disassembly in it."""

    status = "not-equivalent"

    def __init__(self, message: str, *, detail: str, source: str,
                 unrecovered: int = 0) -> None:
        super().__init__(message)
        self.detail = detail
        self.source = source
        self.unrecovered = unrecovered


_BY_STATUS: Dict[str, Type[UnpycError]] = {
    cls.status: cls
    for cls in (
        NotPycError,
        BadMagicError,
        TruncatedError,
        CorruptError,
        BadReferenceError,
        TooLargeError,
        UnsupportedError,
        EngineMemoryError,
    )
}


def from_engine(
    status: str, message: str, offset: Optional[int], path: Optional[str] = None
) -> UnpycError:
    """The exception for an engine failure of the given status name."""
    cls = _BY_STATUS.get(status, UnpycError)
    return cls(message, offset=offset, path=path)
