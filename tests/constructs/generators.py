"""Generators, yield from, generator expressions, comprehensions."""


def gen(items):
    for item in items:
        received = yield item
        if received:
            yield from received
    return len(items)


def comprehensions(data):
    a = [x * y for x in data for y in x if y]
    b = {k: v for k, v in data.items() if v}
    c = {x for x in data}
    d = list(x for x in data if x)
    e = [[y for y in x] for x in data]
    return a, b, c, d, e


def genexpr_argument(data):
    return sum(x * x for x in data)


def none_elements(data):
    # The element None is `yield None`, which reads as a bare yield.
    g = (None for _ in data)
    return g, [None for x in data if x], {None for _ in data}


class EmptyIterable:
    def __iter__(self):
        while False:
            yield None
