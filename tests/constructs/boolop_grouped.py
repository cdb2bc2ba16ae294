"""An and/or in parentheses inside one of the same kind: 3.12+ keep its jumps to its own end, so the inner operand's truth is tested twice; printed flat it is tested once (issue 16, a lie found by the probe judge, campaign seed 31)."""


def middle(a, b, c, d):
    return a or (b or c) or d


def first(a, b, c):
    return (a or b) or c


def both(a, b, c, d, e):
    return (a and b) and (c and d) and e


def inner_of_inner(a, b, c, d, e):
    x = a or (b or (c or d)) or e
    return x


def lines(a, b, c, d):
    return a or (
        b or c) or d
