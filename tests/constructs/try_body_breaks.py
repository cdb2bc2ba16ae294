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


# 3.13: the break of a for loop ending an except clause, in an if there,
# is a copy of the clause's end (its POP_EXCEPT and jump, after the
# iterator's POP_TOP); the loop ends its region, which already went on at
# the loop's exit, and the break was dropped: the loop ran on to the last
# match (stdlib enum `_simple_enum.convert_class`).
def for_break_in_clause(items, vm, unh, enum_class, g):
    for name, value in items:
        try:
            contained = vm.get(value)
        except TypeError:
            contained = None
            if value in unh:
                for m in enum_class:
                    if m == value:
                        contained = m
                        break
        if contained is not None:
            contained.add(name)
        else:
            g(name)
