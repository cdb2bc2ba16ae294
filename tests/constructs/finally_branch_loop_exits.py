"""A continue, break or return in a branch of a try / finally body in a
loop: the copy of the finally body before its jump (skipped) left a block
that is no lone jump, so the body ended there and the code after the
branch was marked unrecovered; a constant's return (or a break copied as
the return after the loop) pops the loop's iterator between the copy and
the constant, so that copy was not found at all (3.11-3.13; fixed on the
loops branch, structure.c rec_protected_end / rec_skip_finally)."""


def continue_in_try_finally(q):
    for seq in q:
        try:
            if seq:
                continue
            g()
        finally:
            h()


def continue_in_try_finally_then_code(q, total):
    for seq in q:
        try:
            g()
            if seq:
                continue
            g()
        finally:
            total += 1
        k()
    return total


def loop_else_continue_in_try_finally(q):
    for seq in q:
        try:
            for task in seq:
                if task:
                    break
            else:
                continue
            g()
        finally:
            h()


def break_in_try_finally_at_end(q):
    for seq in q:
        try:
            if seq:
                break
            g()
        finally:
            h()


def return_in_try_finally_in_loop(q):
    for seq in q:
        try:
            if seq:
                return
            g()
        finally:
            h()
    k()


def return_const_in_try_finally_in_loop(q):
    for seq in q:
        try:
            if seq:
                return 5
            g()
        finally:
            h()
    k()
