"""Shapes that three recover guards of 3.12 / 3.13 were written for and
that no corpus held (gcov over the stdlibs, the real-world corpus, the
constructs and the campaign's programs, stop 37, found each never true):
each function here makes one of them say yes."""


def clause_break_finally_branch(f, g, c):
    # structure.c branch_joins_return: the branch of the finally copy on
    # the clause's way out joins the `return 3` after the loop, which has
    # a line of its own (not a copy of the clause's return).
    while True:
        try:
            f()
        except ValueError:
            break
        finally:
            if c:
                g()
    return 3


def second_loop_after_else_break(it):
    # structure.c moved_exit_unreached: 3.12 lays the code after the first
    # loop in place of its `else: break`; the second loop's clause copies
    # `return a` as its break (test_constructs.py moved_return_in_else_loop).
    while True:
        try:
            a = next(it)
        except ValueError:
            pass
        else:
            break
    while True:
        try:
            b = next(it)
        except StopIteration:
            break
    return a


def else_continue_then_break(a, b, c, d):
    # try.c jumps_into: the statements after the else part's test jump
    # back to the inner loop's header, so they stay in the inner loop.
    while True:
        while True:
            try:
                a()
            except ValueError:
                b()
            else:
                if d():
                    continue
                c()
                break


def else_call_continue_break(a, b, c, d):
    while True:
        while True:
            try:
                a()
            except ValueError:
                b()
            else:
                c()
                if d():
                    continue
                break
