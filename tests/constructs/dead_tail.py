"""Names and constants only dead code after a raise or a return numbered."""
# The compiler numbers a name (co_names) or a constant (co_consts) when it
# compiles the code that uses it, then drops that code when it never runs:
# the else part of a try whose body ends in a raise, the statements after
# a return.  No statement starts after the raise to put the dead code
# before: it goes right after the statement that always leaves, at the end
# of its list, where the numbering puts it.


def invalid_cause(self):
    try:
        raise IndexError from 5
    except TypeError as e:
        self.assertIn("exception cause", str(e))
    else:
        self.fail("No exception raised")


def raised_tuple(self):
    try:
        raise (IndexError, KeyError)
    except TypeError:
        pass
    else:
        self.fail("No exception raised")


def after_return(a):
    if a:
        return a.first
        a.unreachable("dead")
    return a.last


def handler_reraises(self):
    try:
        self.work()
    except ValueError:
        self.note("failed")
        raise
        self.never("dead")
    self.done()


def handler_returns(self, obj):
    # The dead call after the try goes at the end of the last handler:
    # after the try it would keep the handler's return from being copied.
    try:
        raise obj
    except TypeError:
        return
    self.fail("TypeError expected for raising %s" % type(obj))
