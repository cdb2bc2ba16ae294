"""Breaks and continues in loops that 3.8 / 3.9 lay out so that they
were lost.

While loops first in the body of a `while True:` loop, where compile.c
compiler_while makes no code for the outer test: both loops start at the
inner loop's test, and the outer loop's jumps back go there too (nltk
misc/sort._partition, asyncssh stream.SSHStreamSession.read;
open_lies_audit35.py inner_while_with_break_first_in_while_true).  Read
with the outer loop's last jump back as the inner loop's, the inner loop
printed as an `if` without its break (normalize/nins.c
upy_ncode_past_inner_while; only a body that breaks tells the inner loop
from `while True:` / `if c: ...` / `else: ...`, which compiles alike: the
others keep the reading they had, which runs the same).

A `break` or `continue` that makes the else part of a try at the end of a
with body (pip _internal/network/lazy_wheel.LazyZipOverHTTP._check_zip;
open_lies_audit35.py break_in_try_else_in_with_in_loop): its unwinding
(POP_BLOCK, the __exit__ call, the jump) lies where the with's protected
range ends and read as the with's normal exit, the jump lost (3.10 alike
for `else: continue`; 3.12 / 3.13 mark it, structure.c cold_else_exit).
Read on 3.8-3.10 (recover/structure.c normal_exit_past_else: the copy of
the exit the except clauses jump to is the normal exit); the functions
after them are the neighbours; with_try_else_exits.py holds more."""


def plain_inner(a, i, r):
    out = []
    while True:
        while i < r:
            i += 1
        out.append(i)
        if len(out) > 5:
            return out


def inner_if_else(a, i, r, p):
    out = []
    while True:
        while i < r:
            if a[i] >= p:
                i += 2
            else:
                i += 1
        out.append(i)
        if len(out) > 5:
            return out


def inner_break(a, i, r, p):
    out = []
    while True:
        while i < r:
            i += 1
            if a[i] >= p:
                break
        out.append(i)
        if i >= r or len(out) > 5:
            return out


def inner_break_outer_break(a, i, r, p):
    out = []
    while True:
        while i < r:
            i += 1
            if a[i] >= p:
                break
        out.append(i)
        if i >= r or len(out) > 5:
            break
    return out


def inner_break_else(a, i, r, p):
    out = []
    while True:
        while i < r:
            i += 1
            if a[i] >= p:
                break
        else:
            out.append(-1)
        out.append(i)
        if i >= r or len(out) > 5:
            return out


def inner_continue(a, i, r, p):
    out = []
    while True:
        while i < r:
            i += 1
            if a[i] >= p:
                continue
            out.append(0)
        out.append(i)
        if i >= r or len(out) > 5:
            return out


def inner_break_in_for(items, a, r, p):
    out = []
    for i in items:
        while True:
            while i < r:
                i += 1
                if a[i] >= p:
                    break
            out.append(i)
            if i >= r or len(out) > 5:
                break
    return out


def outer_test_inner_break(a, i, r, p, n):
    out = []
    while n:
        while i < r:
            i += 1
            if a[i] >= p:
                break
        out.append(i)
        n -= 1
    return out


def inner_break_last(a, i, r, p):
    out = []
    while True:
        while i < r:
            i += 1
            if a[i] >= p:
                out.append(i)
                break
        if i >= r or len(out) > 5:
            return out


def three_deep(a, i, r, p):
    out = []
    while True:
        while True:
            while i < r:
                i += 1
                if a[i] >= p:
                    break
            out.append(i)
            if len(out) > 3:
                break
        if i >= r or len(out) > 5:
            return out


def else_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break


def else_call_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                self.found(start)
                break


def else_break_then_code(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break
            self.after(start)


def if_break_in_with(self, starts):
    for start in starts:
        with self.stay():
            if self.check():
                break


def except_break_in_with(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                break


def else_break_in_while(self):
    while self.more():
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break


def else_break_no_with(self, starts):
    for start in starts:
        try:
            self.check()
        except ValueError:
            pass
        else:
            break


def else_continue_in_with(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        self.after(start)


def else_return_in_with(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                return start


def if_continue_end(self, xs):
    for x in xs:
        with self.a():
            f(x)
            if x:
                continue
        g(x)


def if_else_in_with(self, xs):
    for x in xs:
        with self.a():
            if x:
                f(x)
            else:
                g(x)
        h(x)


def try_except_in_with(self):
    with self.a():
        try:
            f()
        except E:
            g()
    h()


def try_else_call_in_with(self):
    with self.a():
        try:
            f()
        except E:
            g()
        else:
            k()
    h()


def if_break_mid(self, xs):
    for x in xs:
        with self.a():
            if x:
                break
            f(x)
        g(x)


def return_in_with(self, x):
    with self.a():
        if x:
            return f(x)
        g()
    return h()


def while_with_continue(self):
    while self.more():
        with self.a() as b:
            if b.skip():
                continue
            b.run()


def while_last_in_elif(v, f):
    """pyflakes checker.ExportBinding.__init__ (3.8 / 3.9, holdout): a
    while loop ending an elif branch whose body ends in `elif c: ...;
    break` / `else: break` printed as an `if` (ifends.c took the `break`
    for the jump after the outer elif): the loop ran once where the source
    goes round while the first branch holds."""
    if isinstance(v, list):
        f(v)
    elif isinstance(v, tuple):
        cur = v
        while isinstance(cur[1], list):
            left = cur[0]
            f(cur[1])
            if isinstance(left, tuple):
                cur = left
            elif isinstance(left, list):
                f(left)
                break
            else:
                break
    f(None)


def for_else_break_in_while_true(node, ok):
    """textual dom.DOMNode._css_bases (3.8 / 3.9, holdout): a for loop
    with `else: break` ending a `while True:` body, its own break threaded
    by peephole.c to the top of the while loop, printed with its break and
    the else part lost (breaks.c threaded_past_else undoes it)."""
    out = []
    while True:
        out.append(node)
        if not node.inherit:
            break
        for b in node.bases:
            if ok(b):
                node = b
                break
        else:
            break
    return out
