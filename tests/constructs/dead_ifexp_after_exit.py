"""A conditional expression in code after a raise, break or continue, which
3.8 and 3.9 keep (peephole.c drops code after a return only) and no path
reaches: its stack depths are those after the statement before it
(recover/cfg.c seed_dead_depths), so it reads as an expression, not as an
if whose branches leave a value (marked before).  Campaign seed 4343
programs 17 and 61 (3.8 / 3.9)."""


def raise_then_ifexp(u):
    raise ValueError(u)
    x = 1 if u else 2
    return x


def raise_then_ifexp_statement(u, a, b):
    raise ValueError
    a if u else b


def continue_then_ifexp(items):
    for item in items:
        continue
        item = item if item else None
    return items


def raise_in_loop_then_ifexp(items, f):
    for item in items:
        if f(item):
            raise KeyError(item)
            f(item if item else None)


def break_then_ifexp_in_while(more, get):
    while more():
        if get():
            break
            value = get() if more() else get(0)
            print(value)
        get(1)
    print(more, get)
    more(get)


def raise_then_ifexp_argument(u, f):
    raise TypeError
    f(1 if u else 2, u)
