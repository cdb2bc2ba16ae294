"""A `return value` in the then part of an if in a with body: its way out
(the copy of the with's exit, then RETURN_VALUE) lies after the protected
range, and the test jumps over it to the with's normal exit (stdlib
importlib._bootstrap._find_and_load, 3.12 / 3.13): the body ended before
that way out, so the if went on into it and the exit was marked, until
regions16 (structure.c body_end_past_return)."""


def find_and_load(name, M, L, g):
    module = g(name)
    if module is M or g(module):
        with L(name):
            module = g(name)
            if module is M:
                return g(name, 1)
        g(name, 2)
    if module is None:
        raise ValueError(name)
    return module


def return_in_elif(L, g):
    with L():
        if g(1):
            return g(2)
        elif g(5):
            return g(6)
    g(4)


def return_in_loop(L, g):
    while g(0):
        with L() as f, L() as h:
            if g(f):
                return g(h)
    g(4)


async def return_in_async_with(L, g):
    async with L():
        if g(1):
            return g(2)
    g(4)
