"""A try that starts a loop body and holds only an inner `while True:`:
the inner loop shares the outer loop's header (the NOPs of `try:` and
`while True:` removed), and its jump back runs under the try's handler
(stdlib heapq.merge, 3.12 / 3.13; the outer loop's test at its bottom,
3.11): marked, not recovered, until regions16 (try.c inner_loop_end)."""


def while_try_while_true_yield(h, g):
    while len(h) > 1:
        try:
            while True:
                yield h[0]
                g(h)
        except StopIteration:
            g(1)
    return 2


def while_true_try_while_true(h, g):
    while True:
        try:
            while True:
                g(h)
        except StopIteration:
            g(1)


def for_try_while_true(hs, g):
    for h in hs:
        try:
            while True:
                g(h)
        except StopIteration:
            g(1)
    return 2


def inner_break_then_code(selector, g):
    # The inner loop breaks to more code of the try body (3.11 / 3.12
    # multiprocessing.forkserver main).
    while True:
        try:
            while True:
                rfds = g()
                if rfds:
                    break
            g(rfds)
        except OSError as e:
            g(e)
