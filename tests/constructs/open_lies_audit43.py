"""Open lies found by audit43 (stop 43) in holdout 10 (tests/realworld/holdout10.txt).

whoosh lang.snowball.romanian RomanianStemmer.stem (every version, 3.8-3.13):
step 3's `for suffix in suffixes: try: if word.endswith(suffix): if suffix
in rv: ...; break` / `except UnicodeDecodeError: continue` is printed with
the `break` out of the `if word.endswith(suffix):` -- at the end of the try
body (3.8-3.10, 3.12), in the try's `else:` (3.11, 3.13), and on 3.8-3.12
with the two ifs merged into `if word.endswith(suffix) and suffix in rv:`.
The loop stops after the first suffix whatever it is.  Exit 0, unmarked.
The real stemmer with the decompiled romanian.py: `stem("lucraseră")`
gives "lucr" from the source and "lucraser" from the output, on every
version.  Reduced: break_after_nested_if_in_try.

With a try-else (break_after_nested_if_in_try_else) it lies on every
version too.  A variant with one `if` (break_in_if_in_try) lies on 3.10,
3.12 and 3.13 only: the `break` leaves the `if` (3.10: at the end of the
try body; 3.12 / 3.13: after the try); 3.8, 3.9, 3.11 print it right; the
same in a while loop (break_in_if_in_try_while) and with code after the
try in the loop body (break_in_if_in_try_then_code).

websocket-client _http._open_socket (3.8, 3.9): `while not err: try:
connect() / except E: err = e; continue / else: break` with a while-else
`else: continue` then `break` in an outer for (with a for-else) is printed
as `while True: if not err: try ... else: break`: once err is set the loop
spins for ever.  Exit 0, unmarked.  The real package on 3.8 / 3.9 with
the decompiled _http.py: `websocket.create_connection("ws://127.0.0.1:1")`
raises ConnectionRefusedError from the source and hangs from the output.
Reduced: retry_while_not_err (3.10-3.13 print it right); with a counted
`while n < 3:` and no for-else, retry_while_counted, the same on 3.8 /
3.9.  Without the try (`if ok(): break` in the while) 3.8 / 3.9 print it
right.
"""


def break_after_nested_if_in_try(word, suffixes, rv):
    """`break` after a nested `if` inside `if` in a try in a for: the break
    leaves its `if` (every version).
    break_after_nested_if_in_try("ab", ("c", "b"), "b"): "a" from the
    source, "ab" from the output."""
    for suffix in suffixes:
        try:
            if word.endswith(suffix):
                if suffix in rv:
                    word = word[: -len(suffix)]
                break
        except UnicodeDecodeError:
            continue
    return word


def break_in_if_in_try(word, suffixes):
    """`if c: x; break` alone in a try in a for, `except E: pass`: the break
    leaves its `if` (3.10, 3.12, 3.13).
    break_in_if_in_try("ab", ("c", "b")): "a" from the source, "ab" from
    the output."""
    for suffix in suffixes:
        try:
            if word.endswith(suffix):
                word = word[:-1]
                break
        except ValueError:
            pass
    return word


def retry_while_not_err(hosts, connect):
    """`while not err:` retry loop with try / except-continue / else-break
    and a while-else `continue` in a for with a for-else: printed as
    `while True: if not err: ...`, endless once err is set (3.8, 3.9).
    retry_while_not_err(["a", "b"], f) with f raising OSError for "a": "b"
    from the source; the output never returns."""
    err = None
    for host in hosts:
        err = None
        while not err:
            try:
                connect(host)
            except OSError as error:
                err = error
                continue
            else:
                break
        else:
            continue
        break
    else:
        if err:
            raise err
    return host


def break_in_if_in_try_while(items):
    """The same in a while loop (3.10, 3.12, 3.13).
    break_in_if_in_try_while([-1, 2, 3]): 2 from the source, 0 from the
    output."""
    i = 0
    out = 0
    while i < len(items):
        x = items[i]
        i += 1
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            pass
    return out


def break_in_if_in_try_then_code(items):
    """The same with code after the try in the loop body (3.10, 3.12,
    3.13).
    break_in_if_in_try_then_code([-1, 2, 3]): 2 from the source, 0 from
    the output."""
    out = 0
    for x in items:
        try:
            if x > 0:
                out = x
                break
        except TypeError:
            pass
        out -= 1
    return out


def break_after_nested_if_in_try_else(items):
    """break_after_nested_if_in_try with a try-else (every version).
    break_after_nested_if_in_try_else([-1, 2, 3]): 10 from the source, 0
    from the output."""
    out = 0
    for x in items:
        try:
            if x > 0:
                if x > 5:
                    out = x
                break
        except TypeError:
            continue
        else:
            out += 10
    return out


def retry_while_counted(hosts, refuse):
    """retry_while_not_err with a counted `while n < 3:` and no for-else
    (3.8, 3.9): the same endless `while True: if n < 3:`.
    retry_while_counted(["a", "b"], f) with f raising OSError for "a":
    ("b", 1) from the source; the output never returns."""
    for host in hosts:
        n = 0
        while n < 3:
            n += 1
            try:
                refuse(host)
            except OSError:
                continue
            else:
                break
        else:
            continue
        break
    return host, n
