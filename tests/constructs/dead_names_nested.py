"""Names only dead code in the middle of a function numbered."""
# The compiler numbers a name in co_names when it compiles code that uses
# it, and keeps it there when the optimizer drops that code (the else part
# of a try whose body always raises).  Such a name goes between the names
# numbered before and after it, which may put the dead code inside a
# nested statement: here inside the inner handler.


def reraise(self):
    try:
        try:
            raise IndexError()
        except IndexError as e:
            exc1 = e
            raise
    except IndexError as exc2:
        self.assertIs(exc1, exc2)
    else:
        self.fail("No exception raised")


def documented(self):
    """A docstring takes co_consts[0] (3.10-3.11 test a loaded false constant)."""
    count = 0
    try:
        raise KeyError(count)
    except KeyError:
        self.seen(count)
    else:
        self.missing()
    return self.done(0)

