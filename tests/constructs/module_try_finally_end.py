"""A module that ends in a try / except / else / finally: 3.12+ end the
except clause's way out in the finally's copy and a copy of the implicit
`return None`, which was read as a `return` ending the outer try's body
and marked "a return outside a function" (generated programs, campaign
seed 1: 3.12 / 3.13 #803, #833, #888)."""


def g():
    pass


try:
    a()
except KeyError:
    pass
else:
    b()
finally:
    c()
