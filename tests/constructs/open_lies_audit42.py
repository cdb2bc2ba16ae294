"""Open lies found by audit42 (stop 42) in holdout 9 (tests/realworld/holdout9.txt).

pymysql connections Connection.connect (3.8, 3.9): an `if` with no else
followed by `while True: try: x = f(); break` / `except E: continue` is
printed with the loop inside the `if`'s body (`if flag: n = 1; while True:
try: ... except E: continue / else: break`): when the test is false the
loop never runs.  Exit 0, unmarked.  connect_retrying(False, lambda: "ok")
gives ("ok", 0) from the source and raises UnboundLocalError ('got') from
the output on 3.8 and 3.9; 3.10-3.13 print it right.  In pymysql,
`Connection.connect()` with no bind_address (the default) never calls
socket.create_connection: `sock` stays None and the connection fails with
"'NoneType' object has no attribute 'setsockopt'".  A variant with a
test on the loop, connect_while_allowed(False, lambda: 1, lambda: True),
gives 0 from the source and None from the output on 3.8 / 3.9: the loop is
printed as an `if ok():` inside the first `if`, then `if not ok(): return
n`.  With `except E: pass` in place of `continue` 3.8 / 3.9 mark it; with
`if / else` before the loop, or no `if`, or no try, they print it right.
Fixed by lie42a (normalize/unthread.c ends_if_body; recover/try.c
dead_jump_over_handlers keeps the break in the try body): both round
trip on 3.8 / 3.9; variants in if_then_retry_loop.py.

pg8000 converters make_param (3.13; fixed by lie42b,
normalize/clausebreaks.c, now equivalent): in an except handler, `for k, v in
items: try: if isinstance(value, k): func = v; break` / `except TypeError:
pass` is printed as `try: if ...: func = v` / `except TypeError: continue` /
`else: break`: the loop stops after the first type that does not match.
Exit 0, unmarked.  converter_for({str: str.upper, int: hex}, True) gives
"0x1" from the source and "True" from the output on 3.13; 3.8-3.12 print it
right (3.10 with a copy of the return in a for-else, which runs the same).
Without the try / except KeyError around the loop 3.13 prints it right
(`except TypeError: continue`, the break kept).  The real package on 3.13
with the decompiled converters.py: make_param(PY_TYPES, Color.RED), Color a
`str, enum.Enum` with RED = "r", gives "r" from the source and "Color.RED"
from the output (str's converter is never reached).

passlib tests.test_ext_django DjangoBehaviorTest._do_test_available_scheme
(3.13; fixed by lie42b, normalize/clausebreaks.c, now equivalent): in an
except handler, `while True: x = f(); if x: break` followed by
code after the try is printed as `while 1: x = f(); if x: pass` / `else:
continue`: the loop never ends.  Exit 0, unmarked.
first_nonempty_sample({}, "x", iter(["", "", "s"]).__next__, []) gives "s"
from the source; the output loops until the iterator is spent and raises
StopIteration on 3.13; 3.8-3.12 print it right.  The same loop in an else
arm instead of a handler is printed right.
"""


def connect_retrying(flag, attempt):
    n = 0
    if flag:
        n = 1
    while True:
        try:
            got = attempt()
            break
        except OSError:
            continue
    return got, n


def connect_while_allowed(flag, attempt, allowed):
    n = 0
    if flag:
        n = 1
    while allowed():
        try:
            attempt()
            break
        except OSError:
            continue
    return n


def converter_for(py_types, value):
    try:
        func = py_types[type(value)]
    except KeyError:
        func = str
        for k, v in py_types.items():
            try:
                if isinstance(value, k):
                    func = v
                    break
            except TypeError:
                pass
    return func(value)


def first_nonempty_sample(samples, scheme, get, log):
    try:
        secret = samples[scheme]
    except KeyError:
        while True:
            secret = get()
            if secret:
                break
    log.append(secret)
    return secret
