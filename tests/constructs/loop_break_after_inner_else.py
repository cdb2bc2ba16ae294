"""An outer loop whose body ends in `break` after an inner loop with `else: continue`: the break jumps to the exit laid out right after it, which remove_redundant_jumps (3.10 compile.c optimize_cfg, 3.11 compile.c, 3.12+ flowgraph.c) turns into a NOP with the break's line, after the outer loop's last jump back; read as falling off, the break was a `pass` after the loop and the outer loop ran on (3.10-3.13 LIE at 13f4cf6 where the exit is not copied; normalize/loopbreak.c gives the jump back).  The `pass_*` functions are NOPs of a `pass` that must stay one."""


def exit_too_big_to_copy(hosts, connect, log):
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
    log.append(host)
    log.append(err)
    log.append(i)
    return host, err


def while_true_outer(hosts, connect):
    i = 0
    host = None
    while True:
        if i >= len(hosts):
            return None
        host = hosts[i]
        i += 1
        n = 0
        while n < 2:
            n += 1
            if connect(host):
                break
        else:
            continue
        break
    return host


def inner_for_else_continue(hosts, connect):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        for k in range(2):
            if connect(host, k):
                break
        else:
            continue
        break
    return host, i


def try_around_outer_loop(hosts, connect):
    i = 0
    host = None
    try:
        while i < len(hosts):
            host = hosts[i]
            i += 1
            n = 0
            while n < 2:
                n += 1
                if connect(host):
                    break
            else:
                continue
            break
    except ValueError:
        host = "v"
    return host, i


def outer_while_in_for(groups, connect):
    out = []
    for hosts in groups:
        i = 0
        host = None
        while i < len(hosts):
            host = hosts[i]
            i += 1
            n = 0
            while n < 2:
                n += 1
                if connect(host):
                    break
            else:
                continue
            break
        out.append((host, i))
    return out


def three_loops(hosts, connect):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        j = 0
        while j < 2:
            j += 1
            n = 0
            while n < 2:
                n += 1
                if connect(host, j, n):
                    break
            else:
                continue
            break
        else:
            continue
        break
    return host, i


def outer_loop_else(hosts, connect):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        n = 0
        while n < 2:
            n += 1
            if connect(host):
                break
        else:
            continue
        break
    else:
        host = "none"
    return host, i


def try_around_inner_loop(hosts, connect):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        try:
            n = 0
            while n < 2:
                n += 1
                if connect(host):
                    break
            else:
                continue
            break
        except ValueError:
            i += 10
    return host, i


def finally_around_inner_loop(hosts, connect, log):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        try:
            n = 0
            while n < 2:
                n += 1
                if connect(host):
                    break
            else:
                continue
        finally:
            log.append(i)
        break
    return host, i


def if_break_last(hosts, connect, stop):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        n = 0
        while n < 2:
            n += 1
            if connect(host):
                break
        else:
            continue
        if stop(host):
            break
    return host, i


def inner_while_true_test_after(hosts, connect):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        n = 0
        while True:
            n += 1
            if n > 2:
                break
            if connect(host):
                break
        if n > 2:
            continue
        break
    return host, i


def pass_after_inner_else(hosts, connect, log):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        n = 0
        while n < 2:
            n += 1
            if connect(host):
                break
        else:
            continue
        pass
        log.append(host)
    return host, i


def pass_after_while_true(hosts, connect, log):
    i = 0
    while True:
        i += 1
        for k in range(2):
            if connect(i, k):
                break
        else:
            continue
        if i > len(hosts):
            break
        log.append(i)
    pass
    return i


def inner_else_break(hosts, connect):
    i = 0
    host = None
    while i < len(hosts):
        host = hosts[i]
        i += 1
        n = 0
        while n < 2:
            n += 1
            if connect(host):
                continue
        else:
            break
        continue
    return host, i
