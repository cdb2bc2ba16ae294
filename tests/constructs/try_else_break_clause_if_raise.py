"""`else: break` of a try in a `while True:` loop whose except clause
ends in an if statement, one branch raising, the other running off
(asyncssh sftp._request_ranges on the first holdout: `except E as exc:`
/ `if exc.args[0] == ERROR_MORE_DATA: bufsize *= 2` / `else: raise` /
`else: break`).

3.13 printed the break after the try instead of as its else part: the
loop ended after the clause that should go round again (an UNMARKED LIE
found by read37b, fixed in stop 39 by mine39: recover/try.c
inlined_way_out).  3.13's inline_small_or_no_lineno_blocks copies the
clause's way out (POP_EXCEPT and the jump to the loop's jump back) into
the if body that jumped to it, before the raise; the clause's walk found
no way on.  The neighbours below (for, nested if, code after, two
clauses) read right on every version.  With `return None` for the raise
(clause_if_return) 3.13 marked the return "a value missing from the
stack", a false alarm: the else branch was read from the stack the then
branch left, after the copied POP_EXCEPT (fixed in stop 40:
recover/structure.c then_ends_in_way_out)."""


def clause_if_raise(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except OSError:
            if size > 5:
                size *= 2
            else:
                raise
        else:
            break
    return got


def clause_if_raise_named(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except OSError as exc:
            if exc.args[0] == 5:
                size *= 2
            else:
                raise
        else:
            break
    return got


def clause_plain(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except OSError:
            size *= 2
        else:
            break
    return got


def clause_if_raise_for(make, sizes):
    got = None
    for size in sizes:
        try:
            got = make(size)
        except OSError:
            if size > 5:
                size *= 2
            else:
                raise
        else:
            break
    return got


def clause_nested_if_raise(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except OSError as exc:
            if exc.args:
                if exc.args[0] == 5:
                    size *= 2
                else:
                    raise
            else:
                raise
        else:
            break
    return got


def clause_if_raise_code_after(make, handle, size, log):
    while True:
        try:
            got = make(handle, size)
        except OSError:
            if size > 5:
                size *= 2
            else:
                raise
        else:
            break
        log.append(size)
    return got


def two_clauses_if_raise(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except KeyError:
            size += 1
        except OSError:
            if size > 5:
                size *= 2
            else:
                raise
        else:
            break
    return got


def clause_if_return(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except OSError:
            if size > 5:
                size *= 2
            else:
                return None
        else:
            break
    return got


def clause_if_return_value(make, handle, size):
    while True:
        try:
            got = make(handle, size)
        except OSError as exc:
            if size > 5:
                size *= 2
            else:
                return exc.args
        else:
            break
    return got
