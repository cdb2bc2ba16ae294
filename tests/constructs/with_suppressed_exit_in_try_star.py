"""A with ending the body of a try / except* / finally (3.11+): 3.13
copies the try body's end, with the finally's handler, into the jump
that ends the with's suppressed exception (flowgraph.c
inline_small_or_no_lineno_blocks; normalize/withexits.c).  Campaign seed
4343 program 256 (3.13: marked, `return` outside a function)."""


def with_in_try_star_finally_pass(ctx, work):
    try:
        with ctx:
            work()
    except* OSError:
        pass
    finally:
        pass


def with_in_try_star_finally(ctx, work, log):
    try:
        with ctx:
            work()
    except* OSError as group:
        log(group)
    finally:
        log("post")
