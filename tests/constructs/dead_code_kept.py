# Code the source wrote after a raise, break or continue, which nothing
# reaches: 3.8-3.9 keep it (peephole.c drops unreachable code after a
# RETURN_VALUE only), so the output must print it for the code to compile
# the same (issue 17: the generated-program campaign's largest 3.8 / 3.9
# class, module code after a raise).  3.10+ drop it.


def after_raise(a):
    a.f()
    raise ValueError(a)
    a.g()
    return a


def after_raise_in_then(a, b):
    if a:
        raise ValueError
        b.g()
    else:
        b.h()
    return b


def loop_after_raise_in_then(a, items):
    if a:
        raise ValueError
        for x in items:
            a.f(x)
        a.g()
    else:
        a.h()


def after_break(items, b):
    for x in items:
        b.f(x)
        break
        b.g(x)
    return b


def after_continue_in_if(items, b):
    for x in items:
        if x:
            continue
            b.g(x)
        b.h(x)


def after_break_in_while(a, b):
    while a.more():
        if a.done():
            break
            b.g()
        b.h()
    return b


raise SystemExit
after_raise(0)
[x for x in after_break]
