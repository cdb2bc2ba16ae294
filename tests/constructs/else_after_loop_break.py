"""A try in a loop whose except clause breaks out of it: 3.12+ lay out the code after the loop that only that break reaches right after the handler, so it is dominated by the handler.  Its names and constants are numbered after the whole loop, not in the handler: reading them as the handler's made the code after the try an else part (issue 16: stdlib test_winreg BaseWinregTests._read_test_data, tomllib loads)."""


def after_with(self, key):
    with open_key(key) as sub_key:
        index = 0
        while 1:
            try:
                data = enum_value(sub_key, index)
            except OSError:
                break
            self.check(data in test_data, True)
            index = index + 1
        self.done(index)
    try:
        enum_key(key, 1)
    except OSError:
        pass


def after_loop(src, pos):
    while True:
        try:
            char = src[pos]
        except IndexError:
            break
        if char in KEY_CHARS:
            pos = key_rule(src, pos)
        elif char != "#":
            raise error(src, pos)
        pos = skip_comment(src, pos)
        try:
            char = src[pos]
        except IndexError:
            break
        pos += 1
    return out.data


def else_then_return(self, lines):
    lineno = 0
    while 1:
        try:
            for i in range(lineno, lineno + self.MAXLINES):
                print(lines[i])
        except IndexError:
            break
        else:
            lineno += self.MAXLINES
            key = input("more? ")
        if key == "q":
            break


def break_in_clause_to_code_after_loop(manager, g, xs):
    # 3.12+: the code after the loop, reached only by the clause's break
    # (POP_EXCEPT, the POP_TOP of the iterator, the jump), is cold: laid
    # out after the handler, it is no code of the loop body (where it
    # would run on into the next turn of the loop).
    with manager:
        for _ in xs:
            try:
                g(1)
            except ValueError:
                break
        else:
            raise LookupError
        g(2)
    g(3)


# No other way leaves the loop: the code after it follows the clause's
# POP_EXCEPT in the handler's own block (flowgraph.c joins them), past
# the clause's cleanup (tomllib loads, 3.12+).
def after_loop_in_handler_block():
    while True:
        try:
            pass
        except IndexError:
            break
        if KEY_CHARS:
            pass
        else:
            IndexError
    done()
