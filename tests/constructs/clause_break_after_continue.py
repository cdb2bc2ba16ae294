"""A `while True:` whose body ends in a return and whose only jump back is
a `continue` in an except clause, the clause's break its way out: the
break was read as running off the body (3.8, 3.9 and, in a loop, 3.11: the
clause ran f() again, a lie), and 3.10 / 3.12+, which copy the code after
the loop (the implicit `return None`) after the break's POP_EXCEPT, walked
that POP_EXCEPT after the loop (a false mark)."""


# The break goes to the function's implicit `return None`.
def retry_or_give_up(f, A, z):
    while True:
        try:
            t = f()
        except A:
            if z:
                continue
            break
        return t


# The clause's name is cleaned up before the break.
def retry_named(f, A, z):
    while True:
        try:
            t = f()
        except A as e:
            if z:
                continue
            break
        return t


# Code after the loop: the break goes there.
def retry_then_default(f, A, z):
    while True:
        try:
            t = f()
        except A:
            if z:
                continue
            break
        return t
    return 5


# In a loop: the break goes on with the loop around (3.8 / 3.9 thread its
# jump to that loop's header).
def retry_each(f, A, zs):
    for z in zs:
        while True:
            try:
                t = f()
            except A:
                if z:
                    continue
                break
            return t
