"""Open lies found by audit43 (stop 43) in holdout 10 (tests/realworld/holdout10.txt).

whoosh lang.snowball.romanian RomanianStemmer.stem (every version): a
`break` under an `if` in a try in a loop was printed out of its `if`.
Fixed by lie43a (recover/structure.c ends_body_by_loop_jump); its reduced
functions moved to break_under_if_in_try.py.

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
