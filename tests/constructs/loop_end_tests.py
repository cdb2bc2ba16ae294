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


# A conditional expression as an operand of a test (issue 16: the while
# test read as an if, its failing jumps to copies of the return dropped).


def while_and_ifexp(a, b, c):
    while c and (b if a else c):
        g()


def while_ifexp_or(a, b, c):
    while (b if a else c) or c:
        g()


def while_or_ifexp(a, b, c):
    while c or (b if a else c):
        g()


def while_ifexp_alone(a, b, c):
    while b if a else c:
        g()


def while_not_ifexp_and(a, b, c):
    while not (b if a else c) and c:
        g()


def while_ifexp_and_after(a, b, c):
    while (b if a else c) and c:
        g()
    h()


def if_ifexp_and(a, b, c):
    if (b if a else c) and c:
        g()


def if_and_ifexp(a, b, c):
    if c and (b if a else c):
        g()


def if_ifexp_or(a, b, c):
    if (b if a else c) or c:
        g()


def if_or_ifexp_else(a, b, c):
    if c or (b if a else c):
        g()
    else:
        h()


def for_while_ifexp_and(xs, b, c):
    for a in xs:
        while (b if a else c) and c:
            g()


def for_while_and_ifexp(xs, b, c):
    for a in xs:
        while c and (b if a else c):
            g()


def for_if_ifexp_or(xs, b, c):
    for a in xs:
        if (b if a else c) or c:
            g()


def for_while_ifexp_or_after(xs, b, c):
    for a in xs:
        while (b if a else c) or c:
            g()
        h()


def while_ifexp_compare(a, b, c):
    while (b if a else c) < 3 and c:
        g()


def while_two_ifexps(a, b, c):
    while (b if a else c) and (c if b else a):
        g()


def while_ifexp_and_break(a, b, c):
    while (b if a else c) and c:
        if g():
            break
    else:
        h()
