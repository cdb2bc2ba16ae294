"""A while loop in code after a raise, break or continue, which 3.8 and
3.9 keep (peephole.c drops code after a return only): no path reaches its
header, so recover/cfg.c gave its blocks no dominators and the loop no
header; `while c: with m: pass` there was marked "could not recover this
region" (campaign seed 4444, program 192, 3.8 / 3.9) and a plain one
printed as an if.  The dead code's own dominator trees (cfg.c
dead_dominators) give it one.  3.10+ drop the code."""


def raise_then_while_with(ctx, more):
    raise ValueError(ctx)
    while more:
        with ctx:
            pass


def raise_then_while_comprehension_test(ctx, items, log):
    raise ValueError(ctx)
    while [x for x in items]:
        with ctx:
            log.append(1)
    else:
        log.append(2)


def raise_then_while(more, log):
    raise ValueError(more)
    while more():
        log.append(1)
    log.append(2)


def raise_then_while_break(more, log):
    raise ValueError(more)
    while more():
        if log:
            break
        log.append(1)


def continue_then_while_in_loop(items, more, log):
    for item in items:
        log.append(item)
        continue
        while more(item):
            log.append(item)


def raise_then_nested_while(more, ctx, log):
    raise ValueError(more)
    while more(1):
        while more(2):
            with ctx as value:
                log.append(value)


def raise_then_while_try_except(more, log):
    raise ValueError(more)
    while more():
        try:
            log.append(1)
        except KeyError:
            log.append(2)


def raise_then_while_try_bare_except(more, log):
    raise ValueError(more)
    while more():
        try:
            log.append(1)
        except:
            log.append(2)
