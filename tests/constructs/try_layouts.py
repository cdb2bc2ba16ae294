"""Tries whose handlers 3.12+ lay out after all other code, where the code around them reads as a break or a way out (each once marked "could not recover" though the output was equivalent)."""


# The except clause of the inner try goes on to the copy of the inner
# while's test that 3.12+ lays out after the handler, which jumps back
# into the outer loop: no break of the `while True` (test_generators'
# flat_conjoin).
def while_else_around_try(i, g):
    while True:
        g()
        while i:
            try:
                i += 1
            except ValueError:
                i -= 1
            else:
                break
        else:
            return


# The body of the outer try is only the inner try, whose way out is the
# exit of the with around both: the outer body ends there, not at the
# inner handler laid out after it (test/tf_inherit_check.py).
def with_try_only_a_try(open_it, write):
    with open_it():
        try:
            try:
                write(0)
            except OSError:
                write(1)
            else:
                write(2)
        except Exception:
            write(3)


with open(__file__):
    try:
        try:
            verbose = 0
        except OSError:
            verbose = 1
    except Exception:
        verbose = 2


# Issue 16's campaign (pysource-codegen:1:558, 645, 857, 860): the except
# clause of the outer try jumps back to the code after it (too long to
# copy), which 3.12+ lay out before the handlers, after the inner try's
# way on: that code is no part of the outer try's body.
def clause_jumps_back_past_inner_try(a, b, c, d):
    try:
        a
        try:
            pass
        except b:
            pass
        c
    except d:
        pass
    pass
    pass
    pass
    pass
    pass
