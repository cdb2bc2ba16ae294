"""Statements that left only a NOP: `pass` where blocks join and at the end (3.10+)."""
# CPython keeps a NOP of its own line (remove_redundant_nops), and a block it
# starts is no exit without a line number: the jumps of the match below go
# to it instead of each getting a copy of the final return
# (duplicate_exits_without_lineno), and 3.12+ do not inline it
# (inline_small_exit_blocks), the passes making it more than four
# instructions.  The output keeps the passes, and so the jumps.


def ends_in_pass(x):
    x.close()
    pass


match value:
    case 1:
        pass
    case 2:
        pass
pass
pass
pass
pass
pass


# The NOP a try body's end leaves (its POP_BLOCK) where an if in it whose
# body returns or raises joins takes the line of the if's jump to it: no
# statement, no pass (boltons' is_text_fileobj, click's convert_type,
# pydantic's TypeAdapter._init_core_attrs, networkx's _nodes_or_number).
def try_if_return_except_pass(fileobj):
    if getattr(fileobj, 'getvalue', False):
        try:
            if isinstance(fileobj.getvalue(), str):
                return True
        except Exception:
            pass
    return False


def try_if_raise_except_pass(guessed, kind):
    try:
        if issubclass(guessed, kind):
            raise AssertionError(guessed)
    except TypeError:
        pass
    return kind(guessed)


def try_if_raise_except_body(self, kind):
    try:
        self.schema = kind.schema
        if isinstance(self.schema, kind):
            raise AttributeError()
    except AttributeError:
        self.schema = kind()
    self.complete = True
    return True


def try_else_if_raise(n):
    try:
        nodes = list(range(n))
    except TypeError:
        nodes = tuple(n)
    else:
        if n < 0:
            raise ValueError(n)
    return (n, nodes)


def while_pass_in_try_finally(name_1, name_3):
    # 3.11: the loop's exit falls into the try's way out, a chain of
    # jumps its test's threaded false jump skips (structure.c jumps_on_to);
    # read as `while True:` it got no break and never ended.
    try:
        while name_3:
            pass
    except name_1:
        pass
    finally:
        pass
    name_1()
