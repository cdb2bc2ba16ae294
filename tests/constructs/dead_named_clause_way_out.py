"""The dead way out of an `except E as e:` clause whose body never runs
off its end (every branch raises).  3.8 / 3.9 keep it: POP_EXCEPT, the
clearing of the name, and the jump to the end of the try
(normalize/unreached.c drops the clearing).  Stop 41: under a try/finally
its POP_EXCEPT took the clause's frame as its handler, the body of the
finally's try ended there and the rest of the function was marked
(urllib3 contrib/emscripten/fetch.py _run_sync_with_timeout, stdlib
test_posix, pathlib _WildcardSelector._select_from); in a loop the jump
was read as a `continue` no source wrote (trio _unix_pipes
FdStream.receive_some, inspect Signature._bind)."""


def named_clause_raises_both_ways_under_finally(run, p, c, clear):
    try:
        try:
            return run(p)
        except KeyError as err:
            if c:
                raise ValueError(err)
            else:
                raise TypeError(err)
    finally:
        clear(p)


def unnamed_clause_raises_both_ways_under_finally(run, p, c, clear):
    try:
        try:
            return run(p)
        except KeyError:
            if c:
                raise ValueError(p)
            else:
                raise TypeError(p)
    finally:
        clear(p)


def named_clause_raises_both_ways_code_after(run, p, c, clear):
    try:
        try:
            x = run(p)
        except KeyError as err:
            if c:
                raise ValueError(err)
            else:
                raise TypeError(err)
        clear(x)
    finally:
        clear(p)
    return x


def named_clause_raises_both_ways_in_loop(read, wait, fd):
    while True:
        try:
            data = read(fd)
        except BlockingIOError:
            wait(fd)
        except OSError as exc:
            if exc.errno == 9:
                raise ValueError(fd) from None
            else:
                raise TypeError(fd) from exc
        else:
            return data


def unnamed_clause_raises_both_ways_in_loop(read, wait, fd):
    while True:
        try:
            data = read(fd)
        except BlockingIOError:
            wait(fd)
        except OSError:
            if fd == 9:
                raise ValueError(fd) from None
            else:
                raise TypeError(fd)
        else:
            return data


def written_continue_after_raising_clause(read, wait, fd):
    while True:
        try:
            data = read(fd)
        except OSError as exc:
            if exc.errno == 9:
                raise ValueError(fd)
            else:
                raise TypeError(fd)
            continue
        wait(data)
