"""An else part that is only `pass` where the branches join at code under an outer handler: the exit of a with in a try body, the finally copy of a try in a try.  The join is under a handler the pass's handler runs under, not the pass's own: still the pass's block, kept."""


def with_in_try_else_pass(self, a, g, h):
    try:
        with self.c():
            if a():
                if self.b:
                    g(1)
                else:
                    g(2)
            else:
                pass
    except KeyError:
        h()


def nested_with_else_pass(c, d, a, g):
    with c():
        with d():
            if a():
                g(1)
            else:
                pass


def try_finally_in_try_else_pass(a, g, h, k):
    try:
        try:
            if a():
                g(1)
            else:
                pass
        finally:
            h()
    except KeyError:
        k()


def try_finally_in_with_else_pass(c, a, g, h):
    with c():
        try:
            if a():
                g(1)
            else:
                pass
        finally:
            h()
