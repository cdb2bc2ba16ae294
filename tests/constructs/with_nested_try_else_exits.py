"""A try nested in a try that ends a with body, whose else part leaves
the with (stop 39, mine39; with_try_else_exits.py
else_continue_nested_try, found by lie38d).  3.8-3.10 lay each try's
else part after its own handlers (compile.c compiler_try_except), so the
inner try's else part, the with's exit and the jump, lies between the
inner try's handlers and the outer try's, outside the outer try's range.
The inner try read no else part and the `continue` was lost: the code
after the with ran where the source goes round the loop.  Marked where
not read (recover/try.c skips_exit_copy)."""


def continue_then_code(self, starts):
    for start in starts:
        with self.stay():
            try:
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    continue
            except KeyError:
                pass
        self.after()


def while_continue_then_code(self):
    while self.more():
        with self.stay():
            try:
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    continue
            except KeyError:
                pass
        self.after()


def code_before_continue(self, starts):
    for start in starts:
        with self.stay():
            try:
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    self.found(start)
                    continue
            except KeyError:
                pass
        self.after()


def return_value(self, starts):
    for start in starts:
        with self.stay():
            try:
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    return start
            except KeyError:
                pass
        self.after()
    return None


def break_then_code(self, starts):
    for start in starts:
        with self.stay():
            try:
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    break
            except KeyError:
                pass
        self.after()
    return self.done()


def named_clauses(self, starts):
    for start in starts:
        with self.stay() as s:
            try:
                try:
                    s.check()
                except ValueError as e:
                    self.log(e)
                else:
                    continue
            except KeyError as e:
                self.log(e)
        self.after()


def code_after_inner_try(self, starts):
    for start in starts:
        with self.stay():
            try:
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    continue
                self.between()
            except KeyError:
                pass
        self.after()
