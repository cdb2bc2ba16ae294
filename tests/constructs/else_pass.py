"""An else part that is only `pass`, right where the branches join: its NOP is a block of its own that the test jumps to."""


def if_else_pass(a, g):
    if a:
        g()
    else:
        pass
    return 1


def for_else_pass(a, g):
    for i in a:
        if i:
            break
    else:
        pass
    g()


def while_else_pass(a, g):
    while a:
        if g():
            break
    else:
        pass
    g()


if a:
    pass
else:
    pass
pass
if b:
    x
else:
    pass
pass
pass
pass
pass
pass
for i in a:
    break
else:
    pass
pass
while a:
    break
else:
    pass
y
