"""A module-level try whose except clause ends in the compiler's copy of the implicit `return None`, skipping the else part, where no constant or name order tells (issue 16; stdlib io.py, xml/etree/ElementTree.py, asyncio/tasks.py were marked "a return outside a function")."""

R.register(F)
try:
    from _io import W
except ImportError:
    pass
else:
    R.register(W)


class Body:
    register(F)
    try:
        from _io import W
    except ImportError:
        pass
    else:
        register(W)


def g():
    pass
