f''
# 3.13 keeps the first constant of a code object whatever loads it (it may
# be a docstring): the '' of the f-string statement above, whose load and pop
# the optimizer dropped, stays in co_consts, and the output brings it back.
# (No docstring here: it would be the first constant.)


def uses_none():
    return None


value = uses_none()
