"""Conditional jumps at the end of a loop body, where 3.12 threads the test's jump into a jump over a copy of the jump back (issue 16; stdlib quopri.main, shutil._rmtree_safe_fd)."""


def finally_if_pass(xs, c):
    for x in xs:
        try:
            g(x)
        finally:
            if c():
                pass


def finally_if_not_pass(xs, c):
    for x in xs:
        try:
            g(x)
        finally:
            if not c():
                pass


def while_finally_if_pass(xs, c):
    while xs:
        try:
            g(xs.pop())
        finally:
            if c():
                pass


def while_or_operand(a, b, c):
    while a[b or None] and c:
        pass


def while_call_or_operand(b, c):
    while f(b or None) and c:
        g()


def while_and_operand_or(a, b, c):
    while f(b and a) or c:
        g()


def while_long_or_operand(a, b, c):
    while f(b or a or c) and c:
        g()


def nested_while_or_operand(xs, b, c):
    for x in xs:
        while f(b or None) and c:
            g()


def while_not_or_operand(b):
    while not f(b or None):
        g()


def nested_if_in_then_part(xs, ret):
    for part in xs:
        if part:
            if ret:
                ret.pop()
        else:
            ret.append(part)


def nested_and_in_elif(xs, ret):
    for part in xs:
        if part == '.':
            pass
        elif part == '..':
            if ret and ret[0]:
                ret.pop()
        else:
            ret.append(part)


def nested_none_tests(xs, ret, n, m):
    for e in xs:
        if e.names:
            s = m.get(e)
            if s is None:
                if n is None and ret is None:
                    ret.append(e)
            elif g(s):
                ret.append(e)


def nested_if_then_written_continue(xs, ret):
    for part in xs:
        if part:
            if not ret:
                continue
            ret.pop()
        else:
            ret.append(part)


def nested_if_else_in_then_part(xs, ret):
    for part in xs:
        if part:
            if ret:
                ret.pop()
            else:
                ret.append(0)
        else:
            ret.append(part)


def nested_if_then_part_not_last(xs, ret):
    for part in xs:
        if part:
            if ret:
                ret.pop()
        else:
            ret.append(part)
        ret.append(1)


def nested_if_in_then_part_of_while(ret):
    while ret:
        part = ret.pop()
        if part:
            if part > 1:
                ret.append(part - 2)
        else:
            ret.append(part)


def nested_if_written_continue_in_then_part(xs, out, it):
    for i, x in it:
        if x.t and x.v in out:
            if i < 3 and xs[i]:
                next(it)
                continue
        else:
            out.append(x)


def nested_if_written_continue_then_more(xs, out):
    for x in xs:
        if x:
            if x > 1:
                out.append(1)
                continue
            out.append(2)
        else:
            out.append(x)


def nested_if_continue_then_part_not_last(xs, out):
    for x in xs:
        if x:
            if x > 1:
                out.append(1)
                continue
        else:
            out.append(x)
        out.append(5)


def while_or_operand_second(b, c):
    while c and f(b or None):
        g()


def while_ifexp_operand(a, b, c):
    while (b if a else c) and c:
        g()
