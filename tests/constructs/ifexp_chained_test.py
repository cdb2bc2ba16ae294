"""Conditional expressions whose test is a chained comparison (issue 17;
fresh corpus hypothesis statistics.stdtrit, stdlib site-packages pyparsing
util.col, sympy plotting series).  The chain keeps its middle operand on
the stack under the test, which the check for a value chosen by the test
(the stack where the ways join above the stack under the test) counted:
the expression read as an if statement, and the value of its true arm was
lost, `t = a if lo <= a <= hi else b` printed as `if lo <= a <= hi: pass`
/ `else: t = b`, unmarked (3.8, 3.9, 3.11; 3.10 and 3.12+ copy the store
into both ways)."""


def store(lo, hi, a):
    t = a if lo <= a <= hi else 5
    return t


def store_in_loop_else(xs, lo, hi, f):
    t = 0
    for _ in xs:
        if f == 0.0:
            t = 1
        else:
            a = t - f
            t = a if lo <= a <= hi else 0.5 * (lo + hi)
        if hi - lo < 1:
            break
    return t


def stored_with_and(loc, s):
    col = 1 if 0 < loc < len(s) and s[loc - 1] == "\n" else loc - 2
    return col


def two_stores(c_start, c_end):
    start = c_start.real if c_start.imag == c_end.imag == 0 else c_start
    end = c_end.real if c_start.imag == c_end.imag == 0 else c_end
    return start, end


def chain_test_ends_while_true_body(random):
    """The chain's next link is where the ways join: a statement."""
    while True:
        u1 = random()
        if not 1e-07 < u1 < 0.9999999:
            continue
        if u1 > 0.5:
            return u1


def returned_through_finally_in_with(self, ctx, kwargs):
    """3.11: the returned value, kept on the stack across the finally
    copy, was lost: `if not done(): return f(kwargs)` printed as `if not
    done(): pass` (s3transfer tasks.Task.__call__); marked now, as a then
    part that runs on with a value left."""
    with ctx:
        try:
            self.wait()
            kwargs = self.get_kwargs()
            if not self.done():
                return self.execute(kwargs)
        except Exception as e:
            self.log(e)
        finally:
            for cb in self.callbacks:
                cb()
            if self.is_final:
                self.announce()
