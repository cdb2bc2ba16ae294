# A try statement after a raise, return, break or continue, which nothing
# reaches: 3.8-3.9 keep its code (peephole.c drops unreachable code after
# a RETURN_VALUE only to the end of its basic block, and a handler starts
# a new one), 3.10+ drop it.  The handler of such a try uses the
# exception's values, which only the block stack says how to read; main
# failed the whole code object on it ("unreachable exception code",
# exit 9), so that a module starting `raise` lost every statement
# (campaign seed 4242, programs 52, 181, 264, on 3.8 and 3.9).
# normalize/blocks.c walks the dead try with the block stack of the code
# before it (walk_dead_tries), or, where a return or break left blocks
# first, drops it as 3.10's compiler does (drop_dead_run).


def after_raise(a):
    raise ValueError(a)
    try:
        a.f()
    except KeyError:
        a.g()
    return a


def after_return(a):
    return a
    try:
        a.f()
    except (KeyError, IndexError) as e:
        a.g(e)


def after_continue(items, b):
    for x in items:
        if x:
            continue
            try:
                b.f(x)
            except KeyError:
                b.g(x)
        b.h(x)


def after_return_in_with(cm, a):
    with cm:
        return a
        try:
            a.f()
        except KeyError:
            a.g()
    return cm


def after_raise_in_clause(a):
    try:
        a.f()
    except KeyError:
        raise
        try:
            a.g()
        except IndexError:
            pass
    return a


def after_raise_in_loop_else(a):
    while a.more():
        raise ValueError
        try:
            a.f()
        except KeyError:
            break
    else:
        return 7
    return 8


raise SystemExit
try:
    after_raise(0)
except KeyError:
    pass
x = 2
