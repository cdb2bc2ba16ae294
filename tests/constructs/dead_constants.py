if ():
    pass
# The compiler numbers a constant in co_consts when it compiles it and
# keeps it there after the optimizer drops the code that loaded it: 3.10
# and 3.11 keep every such constant but those at the end, 3.12+ keep the
# first one only (it may be a docstring).  The () of the dead test above
# is the module's co_consts[0] on every version; the output numbers each
# such constant again, in its place, with an `if c: pass` of its own.


def debug_guarded(self):
    """The True of `if __debug__:` stays in co_consts (3.10-3.11)."""
    if __debug__:
        if self.debug >= 3:
            self.dump(self.responses)
    return self.command('NOOP')


def dead_branch(x):
    y = x * 2
    if 0 and x:
        print('never printed', 4.5)
    return y + 1


class Settings:
    if __debug__:
        level = 2
    name = 'settings'



def try_else_after_raise(fail):
    # The else of a try whose body raises is compiled before the handlers
    # and dropped, its constant numbered first (stdlib test_exceptions
    # ExceptionTests.test_badisinstance).
    try:
        raise KeyError()
    except TypeError:
        fail("not a TypeError")
    except KeyError:
        pass
    except:
        fail("should have raised KeyError")
    else:
        fail("should have raised KeyError")


def debug_ifexp_str(args, kwargs):
    # (stdlib test_py_compile PyCompileCLITestCase.pycompilecmd)
    opts = "-m" if __debug__ else "-Om"
    if args and args[0] == "-" and "input" in kwargs:
        return run([opts, "py_compile", "-"], capture_output=True)
    return opts



# test_compileall test_optimize: `__debug__` is True to the AST optimizer;
# the test numbers True before the tuple it picks (3.12+ drop the other),
# a value unpacked, so numbered in place, not folded after all others.
def debug_ifexp_unpacked_tuple(g):
    optimize, opt = (1, 1) if __debug__ else (0, '')
    g(optimize, opt, quiet=True)
