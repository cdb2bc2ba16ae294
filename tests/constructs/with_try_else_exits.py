"""A try at the end of a with body whose else part leaves: `else: break`,
`continue` or `return`.  3.8-3.10 lay the else part out after the try's
handlers (compile.c compiler_try_except) and its way out through the with
(compiler_unwind_fblock: POP_BLOCK, the __exit__ call, the jump) right
where the with's protected range ends, so it read as the with's normal
exit and the jump was lost (pip _internal/network/lazy_wheel
LazyZipOverHTTP._check_zip).  structure.c normal_exit_past_else takes the
copy of the exit that the except clauses jump to for the normal exit.
The neighbours: statements before the break, nested withs, several
clauses, async with, a break or return after the with."""


def else_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break


def else_return_value(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                return start
    return None


def else_return_value_no_loop(self):
    with self.stay():
        try:
            self.check()
        except ValueError:
            pass
        else:
            return 1
    return 2


def else_break_after_statements(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                self.found(start)
                break
        self.after(start)


def else_continue_after_statements(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                self.found(start)
                continue
        self.after(start)


def else_break_nested_withs(self, starts):
    for start in starts:
        with self.stay():
            with self.lock():
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    break
        self.after(start)


def else_break_inner_with_then_code(self, starts):
    for start in starts:
        with self.stay():
            with self.lock():
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    break
            self.between(start)


def else_break_while(self):
    while self.more():
        with self.stay() as s:
            try:
                s.check()
            except (ValueError, KeyError):
                self.note()
            else:
                break
    self.done()


def else_continue_two_clauses(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                self.bad(start)
            except KeyError:
                pass
            else:
                continue
        self.after(start)


def else_break_with_finally(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break
            finally:
                self.close()


async def async_else_break(self, starts):
    for start in starts:
        async with self.stay():
            try:
                await self.check()
            except ValueError:
                pass
            else:
                break


async def async_else_return(self, starts):
    async for start in starts:
        async with self.stay():
            try:
                await self.check()
            except ValueError:
                pass
            else:
                return start


async def async_else_continue(self, starts):
    for start in starts:
        async with self.stay():
            try:
                await self.check()
            except ValueError:
                pass
            else:
                continue
        self.after(start)


def else_break_in_if(self, starts):
    for start in starts:
        if start:
            with self.stay():
                try:
                    self.check()
                except ValueError:
                    pass
                else:
                    break
        self.after(start)


def else_pass_reference(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                self.found(start)


def except_continue_else_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                continue
            else:
                break


def except_continue_else_break_then(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                continue
            else:
                break
        self.after()


def except_return_else_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                return 3
            else:
                break
    return 4


def two_clauses_else_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                continue
            except KeyError:
                pass
            else:
                break
        self.after()


def if_in_clause_else_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                if start:
                    continue
                self.log()
            else:
                break
        self.after()


def else_break_nested_try(self, starts):
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


def else_continue_nested_try(self, starts):
    # UNMARKED LIE on 3.8-3.10, open (lie38d): the `continue` is dropped,
    # self.after() runs where the source goes round again; 3.11+ marks it.
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


def else_return_no_value(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                return
        self.after()


def else_break_as(self, starts):
    for start in starts:
        with self.stay() as s, self.other() as t:
            try:
                s.check(t)
            except ValueError:
                pass
            else:
                break
        self.after()


def else_break_loop_else(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break
    else:
        self.none()
    self.after()


def else_continue_while_true(self):
    while True:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        break


def else_continue_then_break(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                continue
        break


def else_break_then_return(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break
        return start
    return None


def else_return_then_continue(self, starts):
    for start in starts:
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                return start
        continue
