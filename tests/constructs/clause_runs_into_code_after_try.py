"""A bare `except:` ending a try whose body never ends normally: 3.10's compiler drops the clause's jump to the code after the try, which comes next, so the clause runs on into it after POP_EXCEPT.  That code runs with the exception handled (sys.exc_info() is clear again, an exception it raises has no context): printed in the clause it would not (3.10 LIE before: `return sys.exc_info()[0]` returned the class).  The copies 3.10 makes of a small block after the try stay one statement after it."""
import sys


def raising_body_exc_info():
    try:
        raise Exception('a')
    except:
        x = True
    return sys.exc_info()[0]


def raising_body_call(a):
    try:
        raise KeyError('a')
    except:
        x = 1
    a.append(x)


def returning_body(g):
    try:
        return g()
    except:
        y = 1
    return sys.exc_info()[0]


def clause_with_return(a, c):
    try:
        raise KeyError
    except:
        if c:
            return 2
    a.append(sys.exc_info()[0])


def in_for_loop(a, xs):
    for i in xs:
        try:
            raise KeyError
        except:
            x = 1
        a.append(sys.exc_info()[0])


def return_over_iterator(xs, f):
    for b in xs:
        try:
            f(b)
        except:
            return b, False
        b.hits += 1
    return None, None


def copied_raise_after(code):
    try:
        sys.stdin.close()
    except:
        pass
    raise SystemExit(code)


def copied_raise_after_else(self):
    try:
        try:
            pass
        except:
            self.a = True
        else:
            self.b = True
        raise Exception('outer exception')
    except:
        self.c = True
    finally:
        self.d = True
