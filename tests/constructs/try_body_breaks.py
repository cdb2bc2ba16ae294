"""A break in a try body in a while loop whose except clause breaks too
(3.12, 3.13): both are copies of the return after the loop, and the one
in the body was taken off as the body running on into the code after the
try, the statements after it becoming an else part (`if c: pass` /
`else: A`): the loop ran on where the break left it (a lie, unmarked;
stdlib ntpath _readlink_deep)."""


def break_then_code(path, seen, a, h):
    while path not in seen:
        try:
            if a(path):
                break
            path = h(path)
        except ValueError:
            break
    return path


def nested_break(path, seen, a, b, g, h):
    while path not in seen:
        seen.add(path)
        try:
            old = path
            path = g(path)
            if not a(path):
                if not b(old):
                    path = old
                    break
                path = h(old, path)
        except OSError as ex:
            if ex.errno:
                break
            raise
        except ValueError:
            break
    return path
