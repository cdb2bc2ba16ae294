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
"'NoneType' object has no attribute 'setsockopt'".
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
