"""A try whose body and else part never reach its join, ending a loop's
body: 3.12+ lays the except clause and the loop's jump back after all other
code (flowgraph.c push_cold_blocks_to_end), and the break that ended the
else part, now a jump to the code laid out right after it, is a NOP.

normalize/coldblocks.c puts the clause and the jump back between the
break, a jump again, and the code after the loop.  Before it, the loop's
region ran past its end and was marked (3.12 / 3.13).
"""


def else_break(g, h):
    while True:
        try:
            g()
        except OSError:
            h()
        else:
            break
    h()
    return 1


def body_break(g, h):
    while True:
        try:
            g()
            break
        except OSError:
            h()
    h()
    return 1


def else_code_then_break(g, h, log):
    while True:
        try:
            r = g()
        except OSError:
            h()
        else:
            log(r)
            break
    return r


def two_clauses(g, h, k):
    while True:
        try:
            r = g()
        except OSError:
            h()
        except ValueError as e:
            k(e)
        else:
            break
    return r


def in_with(a, g, h):
    with a:
        while True:
            try:
                g()
            except OSError:
                h()
            else:
                break
        h()
    return 1


def in_try(g, h, Unavailable):
    try:
        while True:
            c = g()
            try:
                r = c.run()
            except Unavailable:
                h()
            else:
                break
    except BaseException as exc:
        raise exc from None
    return r


def after_if(c, g, h):
    while True:
        if c:
            h()
        try:
            g()
        except OSError:
            h()
        else:
            break
    h()


def break_leaves_with(self, starts):
    # The break runs the with's exit on its way out: the clauses go after
    # that, not before (the exit is on the with's line).
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break
    self.after()


def nested_loops(xs, g, h):
    for x in xs:
        while True:
            try:
                g(x)
            except OSError:
                h(x)
            else:
                break
        h(None)
