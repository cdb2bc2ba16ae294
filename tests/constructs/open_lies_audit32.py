"""Unmarked lies still open, found by audit32 (stop 32), listed as UNMARKED LIE where they lie so that the suite counts them and a fix shows as FIXED.

else_last_in_finally*, 3.8 / 3.9 / 3.10: a try / except / else that ends a finally body, whose clause falls off its end, prints without its else, the else part after the try, run whether the clause ran or not (real world anyio _backends/_asyncio.py AsyncIOBackend.wait_readable / wait_writable on 3.8 / 3.9: `remove_reader(fd)` ran after a KeyError).  3.8-3.10 lay the else part out after the handlers, and the clause's way out goes to the end of the finally body (RERAISE 0 in its handler's copy, the code after the try / finally in the other), which recovery reads as a way out of the finally rather than the join of the try; 3.11+ put the else part right after the body and read it right.

or_test_return_in_try, 3.10: `try: if a or (b and c): return X / except E: pass` then `return Y`: the condition's tests leave the try two ways (3.10 puts the return outside the try's range and copies `return Y` into the false exit), and the output returned X whatever the test said (`if ...: pass` + `else: return X`; real world pydantic v1 typing._generic_get_args)."""


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



def or_test_return_in_try(tp, T, U, v):
    try:
        if tp == T or (v >= (3, 9) and tp == U):
            return ((),)
    except TypeError:
        pass
    return ()
