"""A walrus inside a walrus: the inner one stores first; printed with the targets swapped, the names got each other's order of binding (issue 16, a lie found by the probe judge, campaign seed 32)."""
(a := (b := c))
print((a := (b := (d := c))))
y = [(a := (b := c)), a, b]


def inner(c):
    return (a := (b := c)), a, b


def compared(c, x):
    return (a := (b := c)) is x
