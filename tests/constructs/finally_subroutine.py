"""3.8 compiles a finally body once, as a subroutine (BEGIN_FINALLY, CALL_FINALLY, END_FINALLY), and a with's exit as WITH_CLEANUP_START / WITH_CLEANUP_FINISH; normalizing copies the body into each way out as 3.9 does (normalize/finally.c)."""


# The normal way falls into the body after BEGIN_FINALLY.
def call_then_finally(a, b):
    try:
        a()
    finally:
        b()


# The return calls the body (CALL_FINALLY) and returns after it.
def return_through_finally(a, b):
    try:
        return a()
    finally:
        b()


# Returns from an except clause with a name and a finally: the name's
# deletion and the finally body are both called before the return.
def clauses_else_finally(a, b, c, g):
    try:
        a()
    except KeyError as e:
        return e
    except ValueError as f:
        g(f)
    else:
        return 2
    finally:
        c()


# The finally body holds a with and a try / except of its own.
def finally_with_with_and_try(a, b, c, d):
    try:
        a()
    finally:
        with a:
            b()
        try:
            c()
        except KeyError:
            d()


# Nested finally bodies, the return calling both.
def nested_finally_return(a, b, c, d):
    try:
        try:
            return a()
        finally:
            c()
    finally:
        d()


def nested_finally(a, b, c):
    try:
        try:
            a()
        finally:
            b()
    finally:
        c()


# A try body that always raises: its BEGIN_FINALLY is dead.
def raise_through_finally(a, b):
    try:
        raise KeyError(a)
    finally:
        b()


# The no-match end of an except chain (END_FINALLY, 3.9 RERAISE).
def bare_except_last(a, b):
    try:
        a()
    except KeyError as e:
        raise
    except:
        b()


def except_return(a):
    try:
        a()
    except:
        return 1


# A with's exit on the normal way and on a return.
def with_body(a, c):
    with a as b:
        c(b)


def with_return(a, c):
    with a as b:
        return c(b)


def nested_with_return(a, b, c):
    with a:
        with b:
            return c


async def async_with_body(a, c):
    async with a as b:
        c(b)


async def async_with_return(a):
    async with a as b:
        return b

