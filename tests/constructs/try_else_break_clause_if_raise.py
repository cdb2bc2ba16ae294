"""`else: break` of a try in a `while True:` loop whose except clause
ends in an if statement, one branch raising, the other running off
(asyncssh sftp._request_ranges on the first holdout: `except E as exc:`
/ `if exc.args[0] == ERROR_MORE_DATA: bufsize *= 2` / `else: raise` /
`else: break`).

3.13 prints the break after the try instead of as its else part: the
loop ends after the clause that should go round again.  UNMARKED LIE on
3.13, open (found by read37b): the clause's way on is POP_EXCEPT and a
jump to the loop's jump back, laid out cold at the end, while the body
runs into the NOP of the break and the return copied there.  The
neighbours without the if read right."""


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
