"""While loops whose test 3.8-3.9 compile on top only (compile.c compiler_while: the body ends in a jump back to the test, and peephole.c threads each jump to that end there too), which normalize/whiletest.c copies to the bottom of the body as 3.10+ do: and / or / not tests, chained comparisons, assignment expressions, while / else, breaks and continues, nested loops, loops in a try and a try in a loop."""


def while_and(a, b, g):
    while a and b:
        if g():
            continue
        g(1)
    else:
        g(2)
    return 3

def while_if_ends_body(a, g):
    while a < 3:
        if g():
            g(1)

def while_if_else_ends_body(a, g):
    while a:
        if g():
            g(1)
        else:
            g(2)

def while_return_in_else(a, g):
    while a:
        if g():
            g(1)
        else:
            return 3

def while_nested(a, b, g):
    while a:
        while b:
            g()
    return 1

def while_in_if(a, c, g):
    if c:
        while a:
            g()
    else:
        g(2)
    return 1

def while_try(a, g):
    while a:
        try:
            g()
        except ValueError:
            g(1)
    return 2

def while_clause_continue(a, g):
    while a:
        try:
            g()
        except ValueError as e:
            g(e)
            continue
        g(3)

def while_chain(i, n, g):
    while 0 <= i < n:
        i = g(i)
    return i

def while_walrus(f, g):
    while (line := f()):
        g(line)
    return 1

def while_else_break(a, g):
    while a:
        if g():
            break
    else:
        g(1)
    return 2

def while_in_while_true(a, g):
    while True:
        while a:
            g()
        if g():
            break

def while_in_try_finally(a, g):
    try:
        while a and not g(0):
            g()
    finally:
        g(4)

def while_statement_then_if(value, depth, g):
    while depth:
        depth -= 1
        if value:
            g()
        else:
            break
    return value

def while_for_break_ends_body(pos, n, m, g):
    while pos < n:
        for i in range(m):
            group = g(i)
            if group is not None:
                pos += group
                break
    return pos

def while_break_then_if_else_break(s, m, g):
    while s:
        top = s[-1]
        if top in (1, 2):
            break
        if top > m:
            g(s.pop())
        else:
            break

def while_elif_chain_then_continue(text, n, spans, last):
    index = 0
    while index < n:
        if text[index] in 'ab':
            if not spans:
                spans.append(index)
                continue
            if text[index] == 'a':
                index += 2
                spans[-1] = index
            else:
                index += 1
                if last:
                    spans[-1] = 1
                else:
                    spans[-1] = 2
            continue
        index += 1
    return spans

def while_with_try_raise_from_ends_body(view, length, g):
    sent = 0
    while sent < length:
        with view as remaining:
            try:
                sent += g(remaining)
            except OSError as e:
                raise ValueError from e

def while_with_pass_ends_body(c):
    while c():
        with c:
            pass

def while_with_continue_ends_body(c, g):
    while c():
        with c:
            g()
            continue

def while_if_break_else_continue(self, timeout, sel):
    while not self.eof:
        if timeout is not None:
            ready = sel()
            if not ready:
                if timeout < 0:
                    break
                else:
                    continue
        self.fill()
    return 1
