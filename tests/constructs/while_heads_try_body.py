"""A while loop that starts a try (or with) body inside an outer loop: 3.8 / 3.9 aim the outer loop's jump back (to the SETUP_FINALLY / SETUP_WITH, no instruction after blocks.c) at the inner loop's header, past the handler that protects the header; whiletest.c took that jump for the inner loop's last jump back, its test's way out then fell inside the loop, and the loop read as `while 1: if c < n: ...`, endless (3.8 / 3.9 LIE at 982ae05, real world jinja2 TemplateStream._buffered_generator, pyparsing _MultipleMatch.parseImpl)."""


def while_ending_try_body(gen, size):
    buf = []
    c_size = 0
    push = buf.append
    while True:
        try:
            while c_size < size:
                c = next(gen)
                push(c)
                if c:
                    c_size += 1
        except StopIteration:
            if not c_size:
                return
        yield ''.join(buf)
        del buf[:]
        c_size = 0


def while_then_more_in_try_body(f, n, out):
    k = 0
    while True:
        try:
            while k < n:
                k += f(k)
            out.append(k)
        except ValueError:
            break
    return k


def while_ending_with_body(cm, f, n):
    k = 0
    while k >= 0:
        with cm:
            while k < n:
                k += f(k)
        k -= 2 * n
    return k


def for_around_try_while(xs, f, n):
    for x in xs:
        try:
            while x < n:
                x = f(x)
        except KeyError:
            continue
        yield x


def while_in_try_finally(f, n, g):
    k = 0
    while k < 10:
        try:
            while k < n:
                k = f(k)
        finally:
            g()
        k += 1
    return k
