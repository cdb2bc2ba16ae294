"""A finally body ending in an if (or a loop) whose copies are split into blocks: on the ways out of an except clause (return, fall-through, break) the copy runs after the clause's POP_EXCEPT, under no handler, and 3.12+ copies the small exit after it into each branch (inline_small_exit_blocks).  The reader once printed the copy as clause code (the finally body ran twice) or read the clause's return as code after the try (jedi get_module_info, 3.11-3.13 LIES)."""


# The clause's return went on inside the clause as `if c: g(); return 1`.
def clause_return_const_after_body_return(f, g, E, c):
    try:
        return f()
    except E:
        return 1
    finally:
        if c:
            g()


def clause_return_value_after_body_return(f, g, E, c, x):
    try:
        return f()
    except E:
        return x
    finally:
        if c:
            g()


# 3.12+: `except E: pass` and `return 1` after the try, which then returned
# 1 when f() raised nothing.
def clause_return_const(f, g, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        if c:
            g()


def clause_call_then_return(f, g, h, E, c):
    try:
        f()
    except E:
        h()
        return 1
    finally:
        if c:
            g()


def clause_return_then_code_after(f, g, k, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        if c:
            g()
    k()


def clause_return_bound_name(f, g, E, c):
    try:
        f()
    except E as e:
        return e
    finally:
        if c:
            g()


def clause_return_bare_except(f, g, c):
    try:
        f()
    except:
        return 1
    finally:
        if c:
            g()


def two_clauses_return(f, g, E, F, c):
    try:
        f()
    except E:
        return 1
    except F:
        return 2
    finally:
        if c:
            g()


def clause_return_else_part(f, g, h, E, c):
    try:
        f()
    except E:
        return 1
    else:
        h()
    finally:
        if c:
            g()


def clause_return_else_return(f, g, E, c):
    try:
        f()
    except E:
        return 1
    else:
        return 2
    finally:
        if c:
            g()


def clause_return_in_with(cm, f, g, E, c):
    with cm():
        try:
            f()
        except E:
            return 1
        finally:
            if c:
                g()


def clause_return_in_with_after_body_return(cm, f, g, E, c):
    with cm():
        try:
            return f()
        except E:
            return 1
        finally:
            if c:
                g()


def clause_if_return(f, g, h, E, c, d):
    try:
        f()
    except E:
        if d:
            return 1
        h()
    finally:
        if c:
            g()


def body_if_return_clause_return(f, g, E, c, d):
    try:
        if d:
            return 1
        f()
    except E:
        return 2
    finally:
        if c:
            g()


def clause_return_in_loop(f, g, E, y, c):
    for x in y:
        try:
            f()
        except E:
            return x
        finally:
            if c:
                g()


def clause_break_in_while(f, g, E, c):
    while c:
        try:
            f()
        except E:
            break
        finally:
            if c:
                g()


def clause_falls_through_to_return(f, g, h, E, c):
    try:
        f()
    except E:
        h()
    finally:
        if c:
            g()
    return 3


# Finally bodies ending in other split statements.
def finally_nested_if(f, g, E, c, d):
    try:
        f()
    except E:
        return 1
    finally:
        if c:
            if d:
                g()


def finally_call_then_if(f, g, k, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        k()
        if c:
            g()


# 3.12+: a for loop in the copy, skipped whole, between the POP_EXCEPT and
# the return: `return 1` was read as code after the inner try.
def finally_for_loop(f, g, E, y):
    try:
        f()
    except E:
        return 1
    finally:
        for z in y:
            g(z)


def finally_while_loop(f, g, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        while c:
            c = g()


def finally_while_loop_after_body_return(f, g, E, c):
    try:
        return f()
    except E:
        return 1
    finally:
        while c:
            c = g()


def finally_try_except(f, g, h, E, F):
    try:
        f()
    except E:
        return 1
    finally:
        try:
            g()
        except F:
            h()


# A return in a for loop in the clause pops the iterator under the value
# (SWAP 2; POP_TOP) before the SWAP 2 that keeps it under the exception:
# the return was lost (`if x: pass`), unmarked, with any finally body.
def clause_for_return_value(f, g, E, y):
    try:
        f()
    except E:
        for x in y:
            return x
    finally:
        g()


def clause_for_if_return_value_split(f, g, E, c, y):
    try:
        f()
    except E:
        for x in y:
            if x:
                return x
    finally:
        if c:
            g()


def clause_nested_for_return_value(f, g, E, y):
    try:
        f()
    except E:
        for a in y:
            for b in a:
                return b
    finally:
        g()


def clause_for_return_value_in_loop(f, g, E, y, z):
    for q in z:
        try:
            f()
        except E:
            for a in y:
                return a
        finally:
            g()


def clause_if_return_value_split(f, g, E, c, x):
    try:
        f()
    except E:
        if x:
            return x
    finally:
        if c:
            g()


# A finally body that itself returns in a branch (`if c: return 2`).  Its
# handler pops the exception before that return, the copy on a clause's way
# out (after the clause's POP_EXCEPT) does not, so the copy is shorter than
# the body: it went unread, and `except E: return 1` came out as `except E:
# pass` and `return 1` after the try, which returned 1 when f() raised
# nothing (3.11-3.13 LIE).
def clause_return_finally_returns(f, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        if c:
            return 2


def clause_return_finally_returns_else(f, h, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        if c:
            return 2
        else:
            h()


def clause_return_finally_returns_not(f, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        if not c:
            return 2


def clause_return_finally_code_then_returns(f, h, k, E, c):
    try:
        f()
    except E:
        return 1
    finally:
        h()
        if c:
            return 2
        k()


def clause_return_finally_returns_twice(f, E, c, d):
    try:
        f()
    except E:
        return 1
    finally:
        if c:
            return 2
        if d:
            return 3


def two_clauses_return_finally_returns(f, E, F, c):
    try:
        f()
    except E:
        return 1
    except F:
        return 3
    finally:
        if c:
            return 2


def clause_return_else_part_finally_returns(f, h, E, c):
    try:
        f()
    except E:
        return 1
    else:
        h()
    finally:
        if c:
            return 2


def clause_pass_finally_returns(f, k, E, c):
    try:
        f()
    except E:
        pass
    finally:
        if c:
            return 2
    k()


# The try body's own returns leave through the same copies.
def body_return_clause_return_finally_returns(f, E, c):
    try:
        return f()
    except E:
        return 1
    finally:
        if c:
            return 2


def body_if_return_finally_returns(f, E, a, c):
    try:
        if a:
            return 5
        f()
    except E:
        return 1
    finally:
        if c:
            return 2
