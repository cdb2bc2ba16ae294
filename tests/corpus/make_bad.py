"""Writes the bad-input corpus: .pyc files each broken in one way.

    python3.11 tests/corpus/make_bad.py

The files and expected.json (file -> the error class the engine must report
and a word its message must contain) are committed; the tests read them.
Regenerate only to add cases: the files are made from CPython 3.11's own
marshal output, cut or patched at known places.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import opcode
import os
import struct
import sys
from typing import Dict, Tuple

assert sys.version_info[:2] == (3, 11), "run with CPython 3.11"
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
HEADER = importlib.util.MAGIC_NUMBER + b"\0" * 12


def sample_code():
    src = "def f(a, b=2):\n    try:\n        return a + b\n    except E:\n        return 0\n"
    return compile(src, "sample.py", "exec")


def function_code():
    return sample_code().co_consts[1]


def code_bytes() -> bytes:
    return marshal.dumps(function_code())


def patched_co_code(new_code: bytes) -> bytes:
    """marshal of f's code object with co_code replaced, sizes kept right."""
    data = code_bytes()
    # 'c' (with FLAG_REF) + argcount, posonly, kwonly, stacksize, flags.
    pos = 1 + 5 * 4
    assert data[pos] & 0x7F == ord("s")
    old_len = struct.unpack_from("<i", data, pos + 1)[0]
    return (
        data[: pos + 1]
        + struct.pack("<i", len(new_code))
        + new_code
        + data[pos + 5 + old_len :]
    )


def replace_bytes_field(data: bytes, old: bytes, new: bytes) -> bytes:
    """Replaces the marshalled bytes object `old` (type 's') by `new`."""
    needle = struct.pack("<i", len(old)) + old
    pos = data.index(needle)
    return data[:pos] + struct.pack("<i", len(new)) + new + data[pos + len(needle) :]


CASES: Dict[str, Tuple[bytes, str, str]] = {}


def case(name: str, data: bytes, status: str, word: str) -> None:
    CASES[name] = (data, status, word)


def build() -> None:
    good = HEADER + marshal.dumps(sample_code())
    co = function_code()
    case("empty.pyc", b"", "not-pyc", "header")
    case("short_header.pyc", good[:10], "not-pyc", "header")
    case("text_file.pyc", b"print('hello, world')\n" * 3, "not-pyc", "magic")
    case("unknown_magic.pyc", b"\x34\x12\r\n" + good[4:], "bad-magic", "magic")
    case("python27_magic.pyc", struct.pack("<H", 62211) + b"\r\n" + good[4:],
         "bad-magic", "2.7")
    case("python37_magic.pyc", struct.pack("<H", 3394) + b"\r\n" + good[4:],
         "bad-magic", "3.7")
    case("python314_magic.pyc", struct.pack("<H", 3627) + b"\r\n" + good[4:],
         "bad-magic", "3.14")
    case("bad_flags.pyc", good[:4] + b"\x08\0\0\0" + good[8:], "not-pyc", "flags")
    case("header_only.pyc", good[:16], "truncated", "end")
    case("truncated_half.pyc", good[: 16 + (len(good) - 16) // 2], "truncated", "end")
    case("truncated_last_byte.pyc", good[:-1], "truncated", "end")
    case("unknown_type_code.pyc", HEADER + b"W", "corrupt", "type")
    case("top_level_int.pyc", HEADER + marshal.dumps(12345), "corrupt", "code")
    case("null_at_top.pyc", HEADER + b"0", "corrupt", "null")
    case("ref_to_nothing.pyc", HEADER + b"r" + struct.pack("<I", 5), "bad-reference", "reference")
    # A tuple (flagged for reference) whose only item refers to itself.
    case("ref_to_incomplete.pyc", HEADER + b"\xa9\x01r" + struct.pack("<I", 0),
         "bad-reference", "reference")
    case("huge_string.pyc", HEADER + b"s" + struct.pack("<i", 0x7FFFFFFF) + b"abc",
         "truncated", "end")
    case("negative_tuple.pyc", HEADER + b"(" + struct.pack("<i", -5), "corrupt", "size")
    case("huge_tuple.pyc", HEADER + b"(" + struct.pack("<i", 0x7FFFFFF0) + b"N" * 8,
         "truncated", "end")
    case("deep_nesting.pyc", HEADER + b")\x01" * 5000 + b"N", "too-large", "deep")
    case("bad_utf8.pyc", HEADER + b"u" + struct.pack("<i", 2) + b"\xff\xfe",
         "corrupt", "UTF-8")
    case("non_ascii_in_ascii.pyc", HEADER + b"z\x02\xc3\xa9", "corrupt", "ASCII")
    case("unnormalized_long.pyc", HEADER + b"l" + struct.pack("<i", 2) + b"\x01\x00\x00\x00",
         "corrupt", "long")
    case("long_digit_overflow.pyc", HEADER + b"l" + struct.pack("<i", 1) + b"\xff\xff",
         "corrupt", "digit")
    case("huge_long.pyc", HEADER + b"l" + struct.pack("<i", 0x7FFFFFF0) + b"\x01\x00",
         "truncated", "end")
    case("bad_float_text.pyc", HEADER + b"f\x03abc", "corrupt", "float")
    case("slice_type_3_14.pyc", HEADER + b":NNN", "unsupported", "slice")
    case("odd_code_length.pyc", HEADER + patched_co_code(co.co_code + b"\x00"),
         "corrupt", "odd")
    case("unknown_opcode.pyc", HEADER + patched_co_code(b"\x97\x00" + b"\xff\x00" + co.co_code[4:]),
         "corrupt", "opcode")
    load_const_99 = bytes([opcode.opmap["LOAD_CONST"], 99])
    case("const_out_of_range.pyc",
         HEADER + patched_co_code(co.co_code[:2] + load_const_99 + co.co_code[4:]),
         "corrupt", "constant")
    jump = bytes([opcode.opmap["JUMP_FORWARD"], 250])
    case("jump_out_of_range.pyc",
         HEADER + patched_co_code(co.co_code[:2] + jump + co.co_code[4:]),
         "corrupt", "jump")
    case("bad_field_type.pyc", HEADER + names_field_as_int(), "corrupt", "names")
    # co_argcount (the first field after 'c') far past the local names.
    data = code_bytes()
    case("too_many_parameters.pyc",
         HEADER + data[:1] + struct.pack("<i", 100000) + data[5:],
         "corrupt", "parameters")
    case("bad_linetable.pyc",
         HEADER + replace_bytes_field(code_bytes(), co.co_linetable, b"\xf0\x7f"),
         "corrupt", "line")
    case("bad_exception_table.pyc",
         HEADER + replace_bytes_field(code_bytes(), co.co_exceptiontable, b"\x84\xff\xff\xff"),
         "corrupt", "exception")


def names_field_as_int() -> bytes:
    """f's code with co_names, the tuple ('E',), replaced by an int."""
    data = code_bytes()
    # A small tuple (with or without FLAG_REF) of one short ASCII string
    # (interned, with or without FLAG_REF).
    for tuple_code in (b")", b"\xa9"):
        for str_code in (b"Z", b"\xda"):
            needle = tuple_code + b"\x01" + str_code + b"\x01E"
            pos = data.find(needle)
            if pos >= 0:
                return data[:pos] + b"i\x07\x00\x00\x00" + data[pos + len(needle) :]
    raise SystemExit("co_names of the sample not found")


def main() -> None:
    build()
    os.makedirs(HERE, exist_ok=True)
    for name in os.listdir(HERE):
        if name.endswith(".pyc"):
            os.remove(os.path.join(HERE, name))
    expected = {}
    for name, (data, status, word) in sorted(CASES.items()):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
        expected[name] = {"status": status, "word": word}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d files to %s" % (len(CASES), HERE))


if __name__ == "__main__":
    main()
