"""A try whose except clauses all end in a raise, break or continue, with an else part and code after the try: 3.8-3.9 keep each clause's jump to the end of the try after it (compile.c compiler_try_except, unreachable), past the else part; without the else part it goes to the code after the try."""


def else_after_raising_clause(size):
    if size is None:
        size = -1
    else:
        try:
            size_index = size.__index__
        except AttributeError:
            raise TypeError(size)
        else:
            size = size_index()
    if size < 0:
        size = 0
    return size


def code_after_raising_clause(size, g):
    try:
        size_index = size.__index__
    except AttributeError:
        raise TypeError(size)
    size = size_index()
    g(size)
    return size


def else_after_continuing_clause(xs, g):
    for x in xs:
        try:
            y = g(x)
        except KeyError:
            continue
        else:
            g(y)
        g(0)


def else_ends_loop_body(xs, g):
    for x in xs:
        try:
            y = g(x)
        except KeyError:
            continue
        except ValueError:
            break
        else:
            g(y)
            g(1)


def else_then_more_after_named_clause(x, g):
    try:
        y = g(x)
    except (KeyError, ValueError) as e:
        raise RuntimeError(e)
    else:
        g(y)
    g(2)
    return y
