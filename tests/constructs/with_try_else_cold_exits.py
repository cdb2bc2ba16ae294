"""The else part of a try at the end of a with body in a loop, leaving by
`continue`, `break` or `return`.

3.12+ flowgraph.c push_cold_blocks_to_end moves the except clauses, and
with them the with's normal exit (the __exit__ call the clauses jump to),
past the loop's exit: the else part's own unwinding (the __exit__ call,
the jump) then lies right where the with's protected range ends, and read
as the with's normal exit, the jump lost (3.12 / 3.13 stdlib-like code:
`with lock:` / `try: check()` / `except E: pass` / `else: continue`).
Read now (recover/structure.c cold_else_copy): that copy goes elsewhere
than the with after __exit__ swallowed an exception, the one the clauses
jump to goes there.  statements_before was an unmarked lie on 3.12 / 3.13
(the continue dropped), else_break_then_code on 3.11 (the break
dropped).  3.8-3.10 read these through normal_exit_past_else
(with_try_else_exits.py), all but statements_before and
else_break_with_finally, still marked there.  Still marked on 3.11-3.13
(the known lists say where): nested withs whose inner else part leaves
both (the outer with's normal exit follows the code after the inner one,
no clause jumps to it), a try with a finally part."""


def else_continue(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        self.after(start)


def else_break_then_code(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                pass
            else:
                break
        self.after(start)
    self.done()


def else_break_at_end(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                pass
            else:
                break
        self.after(start)


def else_return_value(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                pass
            else:
                return start
        self.after(start)


def statements_before(self, starts):
    for start in starts:
        with self.stay() as s:
            s.pre()
            try:
                self.check(start)
            except ValueError:
                self.log()
            else:
                s.x()
                continue
        self.after(start)


def two_clauses(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                self.log()
            except KeyError:
                pass
            else:
                continue
        self.after(start)


def nested_withs(self, starts):
    for start in starts:
        with self.a():
            with self.stay():
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    continue
            self.after(start)
        self.post()


def with_in_with_body(self, starts):
    for start in starts:
        with self.a():
            self.pre()
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        self.after(start)


async def async_with(self, starts):
    for start in starts:
        async with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        self.after(start)


def while_continue(self):
    while self.go():
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        self.after()


def while_break(self):
    while self.go():
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break
        self.after()
    return self.end()


def last_in_loop(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                self.log()
            else:
                continue


def in_if_branch(self, starts):
    for start in starts:
        if start:
            with self.stay():
                try:
                    self.check(start)
                except ValueError:
                    pass
                else:
                    continue
            self.after(start)
        self.post(start)


def neighbour_no_else(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                continue
        self.after(start)


def neighbour_else_falls(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check(start)
            except ValueError:
                pass
            else:
                self.ok(start)
        self.after(start)


def in_if_last(self, starts):
    for start in starts:
        self.pre(start)
        if start:
            with self.stay():
                try:
                    self.check(start)
                except ValueError:
                    pass
                else:
                    continue
            self.after(start)


def else_break_with_finally(self, make):
    # (Reduced from stdlib test_zipfile test_writing_errors, which main
    # 5a3ee5e printed on 3.11 without its `else: break`, unmarked, the
    # `while True:` running on; marked now (structure.c ends_in_else_exit).
    # This reduction was marked already.)
    stop = 0
    while True:
        f = make()
        with self.open(f) as z:
            z.first()
            try:
                with z.open() as g:
                    g.write(stop)
            except OSError:
                stop += 1
            else:
                break
            finally:
                self.count = None
        self.check(f)
    return f
