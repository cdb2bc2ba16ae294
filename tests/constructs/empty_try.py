"""try statements whose body made no code (`try: pass`): the handler is kept, though no exception-table entry names it (3.11+)."""


def before_code(a, g):
    try:
        pass
    except ValueError:
        a = 1
    g(a)


def in_loop(a):
    for i in a:
        try:
            pass
        except:
            pass


def handler_returns_else(g):
    try:
        pass
    except ValueError:
        return 1
    else:
        g()


def nested(g):
    try:
        try:
            pass
        except:
            pass
    except:
        g()


def last():
    try:
        pass
    except:
        pass


try:
    pass
except OSError:
    pass
try:
    pass
except* OSError:
    pass
