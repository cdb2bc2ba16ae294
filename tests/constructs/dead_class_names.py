"""A constant of the dropped branch of `if False:` that the class after it has for its name: the dead code numbered it before the class's code (inspect_fodder2's cls310, whose dead branch is a class of the same name)."""

x = 1

if False:
    x = 'Dead'
else:
    class Dead:
        def g():
            pass


def after(a):
    return Dead(a)
