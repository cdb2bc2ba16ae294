"""A with statement in code after a raise, break or continue, which 3.8
and 3.9 keep (peephole.c drops code after a return only) and no path
reaches: normalize/blocks.c walks it with the block stack of the code
before it, as it does a dead try, so that its handler (the __exit__ call)
is read (marked before).  Campaign seed 4343 programs 218 and 241 (3.8 /
3.9)."""


def raise_then_with(ctx, log):
    raise ValueError(ctx)
    with ctx:
        log(ctx)


def raise_then_with_as(ctx, log):
    raise ValueError
    with ctx as value:
        log(value)
    return value


def continue_then_with_in_loop(ctxs, log):
    for ctx in ctxs:
        log(ctx)
        continue
        with ctx:
            pass
        log(ctxs)


def raise_then_try_with(ctx, log):
    raise KeyError
    try:
        with ctx:
            log(ctx)
    except OSError:
        log("oserror")


def break_then_with_in_while(more, ctx, log):
    while more():
        if log(more):
            break
            with ctx:
                log(ctx)
        log(1)
    print(more, ctx)
    log(more)


def return_through_finally_with(lock, opener, counts, address):
    # The counter-case (neo4j _pool connection_creator, holdout 10): 3.9's
    # peephole.c leaves dead a with's handler of the finally body copied on
    # the return's way out; its lines repeat, so it is no dead statement and
    # must not cost the whole function (it did for a while in stop 43).
    released = False
    try:
        connection = opener(address)
        with lock:
            counts[address] -= 1
            released = True
        return connection
    finally:
        if not released:
            with lock:
                counts[address] -= 1
