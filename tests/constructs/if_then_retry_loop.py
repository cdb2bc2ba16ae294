"""An if with no else right before a retry loop (`while True: try: ...;
break / except E: continue`), whose header is the if's join: 3.8 / 3.9
peephole.c leaves the loop body's jump back dead right after the break,
and normalize/unthread.c took it for the if's else part, threaded
(audit42, pymysql connections Connection.connect; the reductions are
connect_retrying and connect_while_allowed in open_lies_audit42.py)."""


def connect_errno_retry(bind, host, create, errors):
    kwargs = {}
    if bind is not None:
        kwargs["source_address"] = (bind, 0)
    while True:
        try:
            sock = create(host, **kwargs)
            break
        except OSError as e:
            if e.errno == errors.EINTR:
                continue
            raise
    return sock


def retry_for_each_host(flag, hosts, attempt):
    n = 0
    if flag:
        n = 1
    for host in hosts:
        try:
            got = attempt(host)
            break
        except OSError:
            continue
    else:
        got = None
    return got, n


def retry_returning(flag, attempt, log):
    if flag:
        log.append("retrying")
    while True:
        try:
            return attempt()
        except OSError:
            continue


def retry_after_elif(a, b, attempt):
    n = 0
    if a:
        n = 1
    elif b:
        n = 2
    while True:
        try:
            got = attempt()
            break
        except (OSError, ValueError):
            continue
    return got, n


def retry_in_with(lock, flag, attempt):
    with lock:
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


def retry_in_try_in_loop(items, flag, attempt, log):
    for item in items:
        try:
            if flag:
                log.append(item)
            while attempt.allowed():
                try:
                    attempt(item)
                    break
                except OSError:
                    continue
        finally:
            log.append("done")
    return log
