"""Loop bodies whose ends 3.12+ replaced by copies of the jump back to the loop (issue 16; stdlib inspect.getclasstree, real-world cyclopts Argument._update_lookup)."""


def inner_break_to_outer_header(classes, unique, roots):
    for c in classes:
        if c.__bases__:
            for parent in c.__bases__:
                if c:
                    g()
                if unique and parent in classes:
                    break
        elif c not in roots:
            roots.append(c)


def then_ends_in_raise(self, field_infos, discriminator):
    for key, field_info in field_infos.items():
        if existing := self._lookup.get(key):
            if existing == field_info:
                pass
            elif discriminator:
                g()
            else:
                raise NotImplementedError
        else:
            self._lookup[key] = field_info


def then_ends_in_return(xs):
    for x in xs:
        if x:
            if x > 1:
                g()
            else:
                return x
        else:
            h(x)


def while_true_break_to_outer_header(xs, sparse, edges, g):
    # The break of a `while True:` ending the then part of an if / else
    # ending a for body jumps to the for header (threaded through the
    # if / else's end): was read as `pass`, the loop running on (a lie).
    for i in xs:
        if sparse:
            while True:
                if g(next(edges)):
                    break
        else:
            g(i)
    return g


def while_true_handler_break_to_outer_header(n, sparse, edges, g):
    # The same break in an except clause, laid out after the code (3.12+).
    while n:
        n -= 1
        if sparse:
            while True:
                try:
                    g(next(edges))
                except StopIteration:
                    break
                except KeyError:
                    continue
                g(1)
        elif g:
            g(n)
        else:
            g(2)
    return g


def while_true_handler_break_in_nested_if(xs, sparse, edges, g):
    for i in xs:
        if sparse:
            if g:
                while True:
                    try:
                        g(next(edges))
                    except StopIteration as e:
                        g(e)
                        break
            else:
                g(3)
        else:
            g(i)
    return g


# A break in a for loop whose exit is a small block of two statements
# (`lh = 3; return lh`): 3.12+ copies all of it in place of the break,
# after the POP_TOP of the iterator; the statement before the return was
# kept in the loop (`lh = 3; break`).
def break_copies_two_statement_exit(pack, fmt):
    for exp in (128, 127):
        pack(fmt, exp)
        break
    lh = 3
    return lh


# The same in a try body, its handler passing: the copy's store ran in
# the loop and again after it (`o.a = exp` twice, a setter called twice).
def break_in_try_copies_attribute_store(g, o):
    for exp in (128, 127):
        try:
            g(exp)
            break
        except KeyError:
            pass
    o.a = exp


def while_else_in_if(code, n, level, w):
    i = 0
    while i < n:
        ch = code[i]
        if ch == 'q':
            while i < n:
                ch = code[i]
                i += 1
                if ch == 'n':
                    if w == 0:
                        if level == 0:
                            g(i)
                        break
                    continue
                if ch == 'b':
                    i += 1
                    continue
            else:
                h()
            continue
        if ch == '#':
            i += 2
    return i


# 3.8 / 3.9 peephole.c threads the inner break through the outer `break`
# right after the while / else to the outer loop's exit; read so, the
# outer loop ran on after the inner break (stdlib textwrap
# TextWrapper._wrap_chunks, distutils fancy_getopt wrap_text).
def inner_while_else_then_outer_break(chunks, cur_line, lines, width):
    while chunks:
        cur_len = 0
        if cur_line:
            if width:
                lines.append(1)
            else:
                while cur_line:
                    if cur_line[-1]:
                        lines.append(2)
                        break
                    del cur_line[-1]
                else:
                    lines.append(3)
                break
    return lines


# The same with an outer `break` inside the else part (textwrap's form).
def inner_while_else_breaking_then_outer_break(chunks, cur_line, lines, width):
    while chunks:
        if cur_line:
            if width:
                lines.append(1)
            else:
                while cur_line:
                    if cur_line[-1]:
                        lines.append(2)
                        break
                    del cur_line[-1]
                else:
                    if lines:
                        if width > 3:
                            lines[-1] = 5
                            break
                    lines.append(3)
                break
    return lines
