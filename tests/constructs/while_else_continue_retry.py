"""While loops inside a for whose else part is `continue` (or another way out of the outer loop), the test's false exit threaded by 3.8-3.9's peephole.c to where that way out goes (websocket-client _http._open_socket)."""


def retry_while_not_err(hosts, connect):
    # The reduced websocket-client shape: the test threaded through the
    # `else: continue` to the for header was read as `while True: if not
    # err: ...`, endless once err is set (3.8 / 3.9, a lie).
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


def retry_no_for_else(hosts, connect):
    err = None
    host = None
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
    return host, err


def retry_unnamed_except(hosts, connect):
    err = False
    host = None
    for host in hosts:
        err = False
        while not err:
            try:
                connect(host)
            except OSError:
                err = True
                continue
            else:
                break
        else:
            continue
        break
    return host, err


def retry_no_try_else(hosts, connect):
    err = None
    host = None
    for host in hosts:
        err = None
        while not err:
            try:
                connect(host)
                break
            except OSError as error:
                err = error
        else:
            continue
        break
    else:
        host = None
    return host, err


def retry_clause_falls_through(hosts, connect):
    err = None
    host = None
    for host in hosts:
        err = None
        while not err:
            try:
                connect(host)
            except OSError as error:
                err = error
            else:
                break
        else:
            continue
        break
    return host, err


def retry_else_code_then_continue(hosts, connect, log):
    err = None
    host = None
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
            log.append(host)
            continue
        break
    return host, err


def retry_else_break(hosts, connect):
    err = None
    host = None
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
            break
        host = host + "!"
    return host, err


def retry_else_return(hosts, connect):
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
            return "failed", host
        return "ok", host
    return None, err


def plain_while_else_continue(hosts, connect):
    # No try: the body only sets err.
    err = None
    host = None
    for host in hosts:
        err = None
        while not err:
            err = connect(host)
        else:
            continue
        break
    return host, err


def while_break_else_continue(hosts, connect):
    n = 0
    host = None
    for host in hosts:
        n = 0
        while n < 3:
            n += 1
            if connect(host):
                break
        else:
            continue
        break
    return host, n


def while_and_test_else_continue(hosts, connect):
    err = None
    n = 0
    host = None
    for host in hosts:
        err = None
        n = 0
        while not err and n < 3:
            n += 1
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
    return host, n


def outer_while_else_continue(hosts, connect):
    err = None
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
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
    return host, err


def retry_in_if(hosts, connect, first):
    err = None
    host = None
    for host in hosts:
        if host != first:
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
    return host, err


def retry_no_while_else(hosts, connect):
    # No else part: the loop's exit is the for body's end.
    err = None
    host = None
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
    return host, err


def inner_while_first_in_while_true(hosts, connect):
    # The inner loop starts the body of `while True:`: both loops jump
    # back to the same header.
    host = None
    err = None
    i = 0
    while True:
        while not err:
            if i >= len(hosts):
                return None, i
            host = hosts[i]
            i += 1
            try:
                connect(host)
            except OSError as error:
                err = error
                continue
            else:
                break
        else:
            err = None
            continue
        break
    return host, i


def while_true_if_else_break(hosts, connect):
    # `while True: if c: ... / else: break` with an else part that never
    # runs, then `continue`: the if's test went where the break goes.
    n = 0
    host = None
    for host in hosts:
        n = 0
        while True:
            if n < 3:
                n += 1
                if connect(host):
                    return host, n
            else:
                break
        else:
            continue
        n = -n
    return host, n


def retry_while_counted(hosts, refuse):
    """retry_while_not_err (holdout 10, audit43) with a counted `while n < 3:` and no for-else
    (3.8, 3.9 before lie43b): the same endless `while True: if n < 3:`.
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
