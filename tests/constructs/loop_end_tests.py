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
