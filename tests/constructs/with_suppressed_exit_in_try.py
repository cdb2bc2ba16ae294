"""A with that ends the body of a try with a finally: the jump that ends the
with's suppressed exception (__exit__ returned true) goes to the try body's
end.  3.13 copies that end (POP_BLOCK, a jump; no line) into the jump, with
the finally's handler (flowgraph.c inline_small_or_no_lineno_blocks;
normalize/withexits.c gives the jump the with's handlers back).  Campaign
seed 4343 programs 240 / 256 (3.13: marked, `return` outside a function)."""


def with_in_try_except_finally_pass(ctx, work, log):
    try:
        with ctx:
            work()
    except OSError:
        log("oserror")
    finally:
        pass


def with_in_try_except_finally(ctx, work, log):
    try:
        with ctx:
            work()
    except OSError:
        log("oserror")
    finally:
        log("post")


def with_pass_in_try_except_finally(ctx):
    try:
        with ctx:
            pass
    except ValueError:
        pass
    finally:
        pass


def with_as_in_try_except_finally_then_return(ctx, log):
    try:
        with ctx as value:
            log(value)
    except (OSError, ValueError) as e:
        log(e)
    finally:
        log("post")
    return True


def with_in_try_except_finally_in_loop(ctxs, log):
    for ctx in ctxs:
        try:
            with ctx:
                log(ctx)
        except KeyError:
            continue
        finally:
            pass


def two_withs_in_try_except_finally(a, b, log):
    try:
        with a, b:
            log("both")
    except OSError:
        log("oserror")
    finally:
        pass


async def async_with_in_try_except_finally(ctx, log):
    try:
        async with ctx:
            log("in")
    except OSError:
        log("oserror")
    finally:
        pass
