"""Returns of a constant from a try body: 3.8-3.9 load the constant after the POP_BLOCKs of the tries the return leaves (compile.c compiler_return), where the code of no else part goes; written last in the body, in an if of the body, in an inner try, beside an else part that returns the same constant."""


def return_none_ends_body(a, g, h, k):
    try:
        g(a)
        return
    except ValueError:
        h()
    k()


def return_const_ends_body(a, g, h, k):
    try:
        g(a)
        return 1
    except ValueError:
        h()
    k()


def else_returns_const(a, g, h, k):
    try:
        g(a)
    except ValueError:
        h()
    else:
        return 1
    k()


def return_const_in_if_of_body(a, g, h, k):
    try:
        if g(a):
            return True
        g(a + 1)
    except (KeyError, ValueError):
        h()
    return False


def return_const_after_loop_in_body(a, g, h, k):
    try:
        for x in a:
            g(x)
        return
    except ValueError:
        h()
    k()


def return_const_from_inner_try(a, g, h, k):
    try:
        try:
            g(a)
            return 'inner'
        except KeyError:
            h()
    except ValueError:
        k()


def return_const_after_inner_try(a, g, h, k):
    try:
        try:
            g(a)
        except KeyError:
            h()
        return 2
    except ValueError:
        k()


def return_const_body_and_bare_except(a, g):
    try:
        g(a)
        return 1
    except:
        return 1

