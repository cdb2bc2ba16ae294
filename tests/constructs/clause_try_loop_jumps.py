"""A try ending an except clause in a loop, whose handler leaves by a
continue or break of the loop while its body runs off the clause (3.13
pdb.main: the handler's continue was read as the code after the inner try,
skipping the code after the outer try with no mark)."""


# The body runs off the clause to the code after the outer try; the
# handler's continue goes back to the loop.
def handler_continues(a, c, d, q, g):
    while True:
        try:
            a()
        except KeyError:
            d()
        except ValueError as e:
            try:
                c(e)
            except LookupError:
                d()
                continue
        if q():
            break
        g()


# The same with a break out of a for loop (its iterator popped first).
def handler_breaks(xs, a, c, d, g, h):
    for x in xs:
        try:
            a(x)
        except KeyError:
            try:
                c()
            except LookupError:
                d()
                break
        g()
    h()
