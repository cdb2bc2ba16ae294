"""A break after a try whose else part ends in an if, in a loop.

The else part runs off its end into the try's jump over its handlers,
which goes to the break's code after them (3.11: the break's NOP, falling
into the loop's exit); the test of the if ending the else part jumps there
too when false, read through that jump as `if not c: break`, and the
else part's own way on, a break as well, was lost: where c held the loop
went round again (holdout 11 httplib2 Http._conn_request, audit44: every
GET sent twice; 3.11).  recover/try.c breaks_over_handlers reads that
jump as the break it leads to, as it did for a try body without an else
part.  Each function here runs the same from the source and from the
output on every version (or is marked).
"""


def break_after_try_else_if(items, method):
    """httplib2 Http._conn_request (3.11 until stop 44): a while loop whose
    try-else ends in an `if`, then `break` after the try: the output broke
    only where the `if` was false and went round again where it was true.
    break_after_try_else_if("abcd", "GET"): ["b", "decoded"] from the
    source, ["b", "decoded", "c", "decoded", "d", "decoded"] from the
    output (httplib2 sent every GET twice)."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        break
    return out


def break_after_try_else_if_while_true(items, method):
    """The same in a `while True:` loop."""
    i = 0
    out = []
    while True:
        i += 1
        try:
            x = items[i]
        except IndexError:
            if i > 5:
                return out
            continue
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        break
    return out


def break_after_try_else_if_for(items, method):
    """The same in a for loop."""
    out = []
    for i in range(1, 4):
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        break
    return out


def break_after_try_else_if_else(items, method):
    """The else part ends in an if / else, then `break`."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            if method != "HEAD":
                out.append("decoded")
            else:
                out.append(x)
        break
    return out


def break_after_try_else_if_elif(items, method):
    """The else part ends in an if / elif, then `break`."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method == "GET":
                out.append("decoded")
            elif method == "PUT":
                out.append("put")
        break
    return out


def break_after_try_else_nested_if(items, method):
    """The else part ends in an if nested in an if, then `break`."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method != "HEAD":
                if x != "c":
                    out.append("decoded")
        break
    return out


def break_after_try_else_if_code_after(items, method):
    """`break` after the try, code after the loop."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        break
    out.append("after")
    return out


def break_after_try_else_if_handler_raises(items, method):
    """The handlers continue or raise, the else part ends in an if, then
    `break` after the try."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        except KeyError:
            raise
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        break
    return out


def continue_after_try_else_if(items, method):
    """`continue` (not break) after a try whose else part ends in an if,
    code after it never reached."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            break
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        continue
    return out


def break_after_try_else_if_nested_loop(rows, method):
    """`break` after a try whose else part ends in an if, in a while loop
    nested in a for loop."""
    out = []
    for items in rows:
        i = 0
        while i < 3:
            i += 1
            try:
                x = items[i]
            except IndexError:
                continue
            else:
                out.append(x)
                if method != "HEAD":
                    out.append("decoded")
            break
        out.append("row")
    return out


def break_after_try_if(items, method):
    """`break` after a try whose body ends in an if (no else part): the
    shape recover/try.c breaks_over_handlers read first."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
            if method != "HEAD":
                out.append(x)
        except IndexError:
            continue
        break
    return out
