"""An expression statement whose value joins two ways (and / or, a
conditional expression, a comparison chain) followed by the code's end:
3.10's duplicate_exits_without_lineno copies the join (the statement's
POP_TOP and the rest to the return) into the jump, as its first
instruction has no line (generated programs: 25 of 300 came out
equivalent yet marked, "a `return` outside a function")."""


def or_then_call(a, b, c):
    a or b()
    c()


def and_not_then_call(a, b, c):
    a and not b
    c()


def two_ors_then_store(a, b, c):
    a or b or c()
    x = c
    return x


def ifexp_then_calls(a, b, c):
    b() if a else c()
    b()
    c()


def compare_chain_then_call(a, b, c):
    a < b < c
    c()


def or_then_raise(a, b):
    a or b()
    raise ValueError(a)


def or_then_pass_line(a, b):
    a or b()
    pass
    b()


def ifexp_then_if(a, b, c):
    b if a else c
    if c:
        b()


def ifexp_same_values_then_raise(a, b):
    b if a else b
    []
    raise


def two_breaks_then_return(r, t):
    ok = False
    for i in r:
        if t(i):
            ok = True
            break
        break
    return ok


class OrInClassBody:
    x = 1
    x or print()
    y = 2


class IfExpInClassBody:
    x = 1
    (x if y else z)
    w = 3


a or b()
c()
