"""A try / except / else that ends a finally body (audit32's open lie of stop 32, fixed in stop 33).

3.8-3.10 lay the else part out after the handlers (compile.c compiler_try_except), and a clause that falls off the try goes to the end of the finally body: in the finally's handler copy a RERAISE 0 (3.10 copies it, inline_small_exit_blocks) or a jump to it (3.8 / 3.9).  Read as code after the try, the else part ran after the clause too (real world anyio _backends/_asyncio.py AsyncIOBackend.wait_readable / wait_writable: `remove_reader(fd)` after a KeyError).  try.c clause_skips_rest reads the code the clause skips as the else part.  The last two functions have code after the try in the finally body: there the clause goes on to it and that code is no else part.  (The same try / finally inside a with is recovered on 3.8 / 3.9 and 3.11+ but marked on 3.10, as on main before the fix: a false mark, left open.)"""


def else_last_in_finally(g, d, rr):
    try:
        g()
    finally:
        try:
            d.pop()
        except KeyError:
            pass
        else:
            rr()


def else_last_in_finally_value(g, d, fd, rr):
    try:
        success = g()
    finally:
        try:
            del d[fd]
        except KeyError:
            pass
        else:
            rr(fd)
    return success


def else_last_in_finally_clause_code(g, d, log, rr):
    try:
        g()
    finally:
        try:
            d.pop()
        except KeyError as e:
            log(e)
        except OSError:
            raise
        else:
            rr()
            rr()


def code_after_try_in_finally(g, d, rr):
    try:
        g()
    finally:
        try:
            d.pop()
        except KeyError:
            pass
        rr()


def else_then_code_after_try_in_finally(g, d, rr, z):
    try:
        g()
    finally:
        try:
            d.pop()
        except KeyError:
            pass
        else:
            rr()
        z()
