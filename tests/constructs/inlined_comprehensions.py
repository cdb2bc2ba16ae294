"""Comprehensions in expressions with control flow around them: 3.12+
inline them (PEP 709), their loop in the code of the expression, so a
conditional expression's branch, an operand of and / or, or a while test
holds a loop of its own; and tests whose operand is an `x or y` value."""


def while_test(y):
    while [a for a in y]:
        y = y[1:]


def while_and(y, c):
    while c and [a for a in y]:
        y = y[1:]


def while_not(y):
    while not {a for a in y}:
        y = y[1:]
    return y


def if_in_loop(y, c):
    while c:
        if c and [a for a in y]:
            break
        c = y


def if_or_else(y, c):
    if [a for a in y] or c:
        y = 1
    else:
        y = 2
    return y


def elif_comprehension(y, c):
    if c:
        pass
    elif [a for a in y]:
        y = 1
    return y


def branch_value(self, lookup):
    self.lookup = [x for x in lookup] if lookup else []
    self.schemes = {s.lower() for s in lookup} if lookup else self.default


def call_arguments(g, y, c):
    g(c or {a: 1 for a in y}, [b for b in y] if c else 0)
    g([b for b in y] if c else 0)


def and_chain(g, y, c):
    x = c and [a for a in y] and [b for b in a]
    g(x)


def nested(g, y, c):
    x = [[b for b in a] for a in y] if c else [a for a in y if a or c]
    g(x)


def assert_message(y, c):
    assert [a for a in y] or c, [b for b in c]


def continue_after(y, c):
    while y:
        x = [a for a in y] if c else None
        if x:
            continue
        y = y[1:]


def or_value_in_test(y, c, l):
    for a in y:
        if c(a) or (a.index or 0) >= 1:
            l.append(a)
    while y:
        if c(y) or (y.index or 0) >= 1:
            continue
        y = 1
    return [a for a in y if c(a) or (a.index or 0) >= 1]


while {0 for u in range(3)}:
    pass
x = [u for u in range(3)] if x else None


def unbound_local_after_comprehension():
    # test_listcomps (there a dropped `if False: x = 0`): x is a local only
    # the annotation and the comprehension bind; the read after it raises
    # UnboundLocalError, and printed without a binding it would read a
    # global x.
    x: int
    [x for x in [1]]
    return x
