"""`while True:` bodies that end in a break after a try whose body ends in
`continue` (stop 38, mine38).  3.8 / 3.9 compile.c compiler_while leaves
the jump back to the loop's top after that break, where nothing reaches it
(peephole.c drops unreached code after a return only); the last jump back
that something reaches is the try body's `continue`, before the handlers.
Read with the loop ending there, the code after the try (and its break)
was printed after the loop: the loop never ended (open_lies_audit37.py
try_continue_then_code_and_break).  structure.c dead_end_of_body."""


def two_clauses_then_break(queue, log):
    while True:
        try:
            log.append(queue.pop())
            continue
        except IndexError:
            log.append("index")
        except KeyError:
            log.append("key")
        log.append("done")
        break
    return log


def code_then_if_return_then_break(queue, log):
    while True:
        try:
            log.append(queue.pop())
            continue
        except IndexError:
            pass
        if not log:
            return None
        break
    return log


def nested_in_while_with_code_after(rows, log):
    while rows:
        row = rows.pop()
        while True:
            try:
                log.append(row.pop())
                continue
            except IndexError:
                pass
            log.append("row")
            break
        log.append(len(rows))
    return log


def named_clause_then_break(queue, log):
    while True:
        try:
            log.append(queue.pop())
            continue
        except IndexError as e:
            log.append(type(e).__name__)
        break
    return log
