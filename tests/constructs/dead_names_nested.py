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



# The normal copy of a finally body comes first in the code, yet the
# statement holds the copy in the handler: the dead else part goes after
# the finally body's raise (test_raise.py TestContext).
def else_after_raising_finally(self):
    try:
        try:
            pass
        finally:
            raise OSError
    except OSError as e:
        self.assertIsNone(e.__context__)
    else:
        self.fail("No exception raised")


# A name the dead else part numbered that a later handler uses too:
# numbered before the first handler's (test_raise.py TestCause).
def else_name_used_by_later_handler(self, cause):
    try:
        raise IndexError from cause
    except TypeError as e:
        self.assertIn("should have", str(e))
    except IndexError:
        self.fail("Wrong kind of exception raised")
    else:
        self.fail("No exception raised")


# An endless loop never goes on: the else part of the try around it is
# dead (test_socket.py SendmsgStreamTests._testSendmsgTimeout).
def else_after_endless_loop(self):
    try:
        self.sock.settimeout(0.03)
        try:
            while True:
                self.send([b"a"])
        except TimeoutError:
            pass
        except OSError as exc:
            if exc.errno != errno.ENOMEM:
                raise
        else:
            self.fail("TimeoutError not raised")
    finally:
        self.event.set()
