"""Open lies found by audit41 (stop 41) in holdout 8 (tests/realworld/holdout8.txt).

sqlglot parser Parser._parse_limit and sqlglot optimizer.simplify
_simplify_integer_cast (3.8-3.13, every version): `if a or b: <body that
leaves>` where `b` branches inside itself (a conditional expression in a
call's argument, or `x <= n <= y and c`) is printed as `if not a: if b: pass`
/ `else: <body>`: the body runs only when `a` is true, `b` being true no
longer counts.  Exit 0, unmarked.  limit_when_skipped_or_matched(False,
False, lambda t: t == "LIMIT") gives "limit" from the source and None from
the output; fits_in_byte(200, False) gives "fits" from the source and "wide"
from the output.  With the real package on 3.11 (the decompiled parser.py in
place of sqlglot's) `sqlglot.parse_one("SELECT a FROM t LIMIT 5")` raises
ParseError.  `if a or (b if c else d):` with the conditional expression
alone as the operand is marked on 3.10, 3.12 and 3.13 and printed right on
3.8, 3.9, 3.11; nested under another `if ... and ...:` the chained
comparisons are printed right on every version.  Stop 41:
limit_when_skipped_or_matched is recovered on every version (boolexpr.c
rec_flow_test_last follows a conditional expression in an operand's
value; boolop_ifexp_operand.py); so is fits_in_byte (boolexpr.c
is_cleanup_jump: a chain's cleanup that jumps past the `and`'s second
test; boolop_chain_and_or.py).  Shapes of the kind the network still
does not take whole are marked (recover/structure.c enters_else_part: a
test read as an if in the then part that jumps into the else part).

(Recovered since stop 41, lie41b: find_module_prefix and fold_block_scalar
run the same on 3.8-3.13, see loop_hidden_way_out.py for how.)

ruamel.yaml constructor Constructor.find_python_name (3.8, 3.9, 3.12): a
`while` loop whose body ends in `try: f(); break` / `except E: continue` is
printed as an `if` (`try: f()` / `except E: pass`): it runs once.  Exit 0,
unmarked.  find_module_prefix("collections.OrderedDict.fromkeys", imp)
(imp raising ImportError for anything but collections, os, os.path) returns
("collections", ["OrderedDict", "fromkeys"], "collections") from the source
and raises ValueError (collections.OrderedDict) from the output.  The real
package on 3.8: find_python_name("collections.OrderedDict.fromkeys", None)
gives the classmethod from the source and "cannot find module
'collections.OrderedDict'" from the output.  3.8 and 3.9 need the if/else
around the loop (without it they print `try: ... / except: continue / else:
break`, which is right); 3.12 needs the try after the if/else as well (as in
ruamel); 3.10, 3.11, 3.13 are right.

pyserial urlhandler.protocol_loop Serial.read (3.12; the reduction also
3.10): in a loop, `if expired(): if logger: logger.info(...)` / `break` is
printed as `if not logger: break` / `logger.info(...)`: with a logger the
loop goes round again where the source stops.  Exit 0, unmarked.
read_until_deadline(port, 3, lambda: True), port.get() handing out b"a",
b"b", b"c" and port.logger set, gives b"a" (one "read timeout") from the
source and b"abc" (three) from the output.  It takes a call in the
`return` after the loop (`return bytes(data)`): with `return data` 3.12
prints it right.  Printed right on every version since stop 41 (lie41c,
normalize/uncopy.c join_copy: the jump joined back in place of the copy
of the return takes the line of the break's NOP, which the inner if's
test jumps to, not the line of the log call before it).

pyserial tools.miniterm ask_for_port (3.11): `while True: ...; try: i =
int(p) - 1; if not 0 <= i < n: ...; continue` / `except ValueError: pass` /
`else: p = ports[i]` / `return p` is printed with the `return` gone from the
loop (`if 0 <= i < n: break` / `except ValueError: pass` / `else: continue`
and `p = ports[i]; return p` after the loop): a name that is not a number
asks again instead of being returned.  Exit 0, unmarked.
ask_for_port(["/dev/ttyUSB0", "1"], ["COM1", "COM2"]) gives "/dev/ttyUSB0"
from the source and "COM1" from the output on 3.11 (3.8, 3.9 mark it;
3.10, 3.12, 3.13 are right).  Marked on 3.11 since stop 41 (lie41c,
recover/structure.c goes_on_past_loop: the loop body's walk left for the
return, code after the loop that is not where its break goes).

ruamel.yaml scanner Scanner.scan_block_scalar (3.8, 3.9): at the end of a
`while` body, `if c: ... else: break` is printed without the `else: break`,
so a false `c` falls back to the loop's own test.  In ruamel the two tests
are the same pure expression (`self.reader.column == indent and srp() !=
"\\0"`), so the package runs the same; with another test it lies: exit 0,
unmarked, and fold_block_scalar (the scanner's own lines, `!= "#"` in the
inner test) on lines "a", "b", "#c", "d" (column 1) stops at "#c" in the
source (["a", "\\n", "b"]) and reads on to the end in the output (["a",
"\\n", "b", "#c", "\\n", "d", "\\n"]).  It needs the jumps of a long body
(EXTENDED_ARG, offsets past 255) and the whole shape: small edits to the
code around the loop print it right.
"""


def limit_when_skipped_or_matched(skip, top, match):
    if skip or match("TOP" if top else "LIMIT"):
        return "limit"
    return None


def fits_in_byte(num, signed):
    if -128 <= num <= 127 and signed or (0 <= num <= 255 and not signed):
        return "fits"
    return "wide"


def find_module_prefix(name, importable):
    if "." in name:
        parts = name.split(".")
        rest = []
        while len(parts) > 1:
            rest.insert(0, parts.pop())
            module = ".".join(parts)
            try:
                importable(module)
                break
            except ImportError:
                continue
    else:
        module = "builtins"
        rest = [name]
    try:
        found = importable(module)
    except ImportError as exc:
        raise ValueError(exc)
    return module, rest, found


def read_until_deadline(port, size, expired):
    data = bytearray()
    while size > 0:
        b = port.get()
        if b is not None:
            data += b
            size -= 1
        else:
            break
        if expired():
            if port.logger:
                port.logger.info("read timeout")
            break
    return bytes(data)


def ask_for_port(answers, ports):
    while True:
        port = answers.pop(0)
        try:
            index = int(port) - 1
            if not 0 <= index < len(ports):
                answers.append("invalid")
                continue
        except ValueError:
            pass
        else:
            port = ports[index]
        return port


def fold_block_scalar(self, style, srp, chunks, folded, token):
    start_mark = self.reader.get_mark()
    self.reader.forward()
    chomping, increment = self.scan_block_scalar_indicators(start_mark)
    block_scalar_comment = self.scan_block_scalar_ignored_line(start_mark)
    min_indent = self.indent + 1
    if increment is None:
        breaks, max_indent, end_mark = self.scan_block_scalar_indentation()
        indent = max(min_indent, max_indent)
    else:
        indent = min_indent + increment - 1
        breaks, end_mark = self.scan_block_scalar_breaks(indent)
    line_break = ""
    while self.reader.column == indent and srp() != "\0":
        chunks.extend(breaks)
        leading_non_space = srp() not in " \t"
        length = 0
        chunks.append(self.reader.prefix(length))
        self.reader.forward(length)
        line_break = self.scan_line_break()
        breaks, end_mark = self.scan_block_scalar_breaks(indent)
        if style in "|>" and min_indent == 0:
            if self.check_document_start() or self.check_document_end():
                break
        if self.reader.column == indent and srp() != "#":
            if folded and line_break == "\n" and leading_non_space and srp() not in " \t":
                if not breaks:
                    chunks.append(" ")
            else:
                chunks.append(line_break)
        else:
            break
    return token
