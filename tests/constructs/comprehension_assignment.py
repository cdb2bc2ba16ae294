"""The assignment idiom `for y in [v]` in a comprehension, which 3.9+ compile as an assignment (issue 16; test_peepholer, test_dictcomps, networkx d_separation)."""


def listcomp(a, f):
    return [y for x in a for y in [f(x)]]


def setcomp(a, f):
    return {y for x in a for y in (f(x),)}


def dictcomp(a, f):
    return {x: y for x in a for y in [f(x)]}


def genexpr(a, f):
    return list(y for x in a for y in [f(x)])


def with_ifs(a, f, c):
    return [y for x in a if c(x) for y in [f(x)] if y]


def tuple_target(a):
    return [p + q for x in a for p, q in [x]]


def two_assignments(a, f, g):
    return [z for x in a for y in [f(x)] for z in [g(y)]]


def inner_loop_after(a, f):
    return [(y, z) for x in a for y in [f(x)] for z in y]
