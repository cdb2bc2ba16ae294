"""Unmarked lies still open, found by audit32 (stop 32), listed as UNMARKED LIE where they lie so that the suite counts them and a fix shows as FIXED.

else_last_in_finally*, 3.8 / 3.9 / 3.10: a try / except / else that ends a finally body, whose clause falls off its end, prints without its else, the else part after the try, run whether the clause ran or not (real world anyio _backends/_asyncio.py AsyncIOBackend.wait_readable / wait_writable on 3.8 / 3.9: `remove_reader(fd)` ran after a KeyError).  3.8-3.10 lay the else part out after the handlers, and the clause's way out goes to the end of the finally body (RERAISE 0 in its handler's copy, the code after the try / finally in the other), which recovery reads as a way out of the finally rather than the join of the try; 3.11+ put the else part right after the body and read it right.

while_ending_try_body, 3.8 / 3.9: `while True: try: (while c < n: ...) / except StopIteration: ... / yield ...`: the inner while's exit, the try body's way out (POP_BLOCK; JUMP after the try), prints as nothing: `while 1: if c < n: ...; continue`, an endless inner loop (real world jinja2 TemplateStream._buffered_generator)."""


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



def while_ending_try_body(gen, size):
    buf = []
    c_size = 0
    push = buf.append
    while True:
        try:
            while c_size < size:
                c = next(gen)
                push(c)
                if c:
                    c_size += 1
        except StopIteration:
            if not c_size:
                return
        yield ''.join(buf)
        del buf[:]
        c_size = 0

