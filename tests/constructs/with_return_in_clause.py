"""A constant's return in a with in an except clause: its way out is the
with's exit, the clause's POP_EXCEPT (and name cleanup, and a for loop's
iterator pop), then the constant's load and return.  The POP_EXCEPT kept
it from being read as the with body's return (structure.c
return_in_body): the exit's copy was left over and the output marked,
equivalent."""


def with_return_in_except(f, m):
    try:
        f()
    except ValueError:
        with m:
            return 1
    return 2


def named_clause(f, m):
    try:
        f()
    except ValueError as e:
        with m:
            return 1
    return 2


def pass_then_return(f, m):
    try:
        f()
    except ValueError:
        with m:
            pass
        return 1
    return 2


def body_then_return(f, m, g):
    try:
        f()
    except ValueError:
        with m:
            g()
            return 1
    return 2


def in_if(f, m, c, g):
    try:
        f()
    except ValueError:
        if c:
            with m:
                return 1
        g()
    return 2


def as_target(f, m):
    try:
        f()
    except ValueError:
        with m as x:
            return 1
    return x
