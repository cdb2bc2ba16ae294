"""A break (or continue, return) ending the else branch of an if that
ends a try body in a loop, while the then part goes on: the compiler
leaves the try before the jump (3.11 compile.c compiler_unwind_fblock),
so the break's jump lies after the protected range, and 3.12+ copies the
code after the loop in its place (flowgraph.c inline_small_exit_blocks).
It was read as the try's `else: break`, so the loop broke after the then
part too (an unmarked lie on 3.11-3.13; cyclopts bind._parse_kw_and_flags),
and on 3.11 the inner `if r:` jumping to that break read as `if not r:
break`.  A try whose real else part is the break must stay one."""


def inner_if_then_break(p, n, c, m, z):
    while p < n:
        try:
            a = m(p)
            if a:
                p += 1
            else:
                r = c[p + 1:]
                if r:
                    z.append(r)
                break
        except ValueError:
            p += 1
    return z


def plain_break(p, n, m, z):
    while p < n:
        try:
            a = m(p)
            if a:
                p += 1
            else:
                z.append(a)
                break
        except ValueError:
            p += 1
    return z


def then_continues(p, n, c, m, z):
    while p < n:
        try:
            a = m(p)
            if a:
                p += 1
                continue
            else:
                r = c[p + 1:]
                if r:
                    z.append(r)
                break
        except ValueError:
            p += 1
    return z


def for_loop(xs, c, m, z):
    for p in xs:
        try:
            a = m(p)
            if a:
                z.append(p)
            else:
                r = c[p + 1:]
                if r:
                    z.append(r)
                break
        except ValueError:
            z.append(None)
    return z


def for_loop_plain(xs, m, z):
    for p in xs:
        try:
            if m(p):
                z.append(p)
            else:
                z.append(0)
                break
        except ValueError:
            z.append(None)
    return z


def returns_none(p, n, c, m, z):
    while p < n:
        try:
            a = m(p)
            if a:
                p += 1
            else:
                r = c[p + 1:]
                if r:
                    z.append(r)
                break
        except ValueError:
            p += 1


def returns_none_written(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                z.append(p)
                break
        except ValueError:
            p += 1
    return None


def else_continues(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                z.append(p)
                p += 2
                continue
        except ValueError:
            p += 1
        z.append(0)
    return z


def else_returns(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                z.append(p)
                return p
        except ValueError:
            p += 1
    return z


def elif_break(p, n, m, z):
    while p < n:
        try:
            a = m(p)
            if a == 1:
                p += 1
            elif a == 2:
                p += 2
            else:
                z.append(a)
                break
        except ValueError:
            p += 1
    return z


def longer_code_after_loop(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                z.append(p)
                break
        except ValueError:
            p += 1
    z.append(1)
    z.append(2)
    z.append(3)
    return z


# The shape of cyclopts: the while loop in an except clause in a for loop,
# its handler breaking too; 3.13 lays the then part's way on (the loop's
# test) out after the handler.
def in_clause_in_for(tokens, match, matches, stop, unused, chars, g):
    for token in tokens:
        try:
            matches.append(match(token))
        except ValueError:
            if g(token):
                position = 0
                flags = []
                while position < len(chars):
                    char = chars[position]
                    try:
                        arg = match(char)
                        if arg:
                            matches.append(arg)
                            position += 1
                        else:
                            remainder = chars[position + 1:]
                            matches.append(arg)
                            if remainder:
                                g(remainder)
                            break
                    except ValueError:
                        if stop:
                            unused.extend(chars)
                            break
                        if position == 0:
                            break
                        flags.append(char)
                        position += 1
                if stop:
                    break
                for f in flags:
                    unused.append(f)
            else:
                unused.append(token)
                continue
        g(matches)
    return matches


# The try's own else part is the break: both parts of the if run into it.
def try_else_break(p, n, c, m, z):
    while p < n:
        try:
            a = m(p)
            if a:
                p += 1
            else:
                r = c[p + 1:]
                if r:
                    z.append(r)
        except ValueError:
            p += 1
        else:
            break
    return z


def try_else_break_plain(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                z.append(p)
        except ValueError:
            p += 1
        else:
            break
    return z


def try_else_break_for(xs, m, z):
    for p in xs:
        try:
            if m(p):
                z.append(p)
            else:
                z.append(0)
        except ValueError:
            z.append(None)
        else:
            break
    return z


def break_in_then(p, n, m, z):
    while p < n:
        try:
            if m(p):
                z.append(p)
                break
            else:
                p += 1
        except ValueError:
            p += 1
    return z


def in_nested_try(p, n, m, z):
    while p < n:
        try:
            try:
                if m(p):
                    p += 1
                else:
                    z.append(0)
                    break
            except KeyError:
                z.append(2)
        except ValueError:
            p += 1
    return z


def break_in_nested_if(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                if z:
                    z.append(0)
                    break
        except ValueError:
            p += 1
    return z


def break_or_continue(p, n, m, z):
    while p < n:
        try:
            if m(p):
                p += 1
            else:
                if z:
                    break
                z.append(p)
                continue
        except ValueError:
            p += 1
        z.append(9)
    return z


def elif_returns_else_breaks(xs, m, z):
    for p in xs:
        try:
            a = m(p)
            if a:
                z.append(p)
            elif a is None:
                return a
            else:
                break
        except ValueError:
            z.append(None)
    return z
