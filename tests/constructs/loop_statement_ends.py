"""Statements ending a loop body whose ways out 3.8-3.9's peephole.c
threads to the loop's header through the jump at the statement's end
("Replace jumps to unconditional jumps").

An `except E as name:` clause leaves through the name's cleanup
(`name = None; del name`) and a jump to the end of the try: threaded, it
read as a clause ending in `continue` (normalize/unthread.c
clause_pop_except)."""


def named_clause(xs):
    for x in xs:
        try:
            f(x)
        except ValueError as e:
            g(e)


def named_clause_pass(xs):
    for x in xs:
        try:
            f(x)
        except ValueError as e:
            pass


def named_clauses_in_while(xs):
    while xs:
        try:
            f(xs)
        except ValueError as e:
            if e:
                continue
            g(e)
        except KeyError as k:
            g(k)


def named_clause_inner_loop(xs):
    for x in xs:
        for y in x:
            try:
                f(y)
            except ValueError as e:
                g(e)


# The if statements, try statements and withs below end a loop body (or a
# branch of an if that does): the ways out of their branches went to the
# jump at the statement's end, which peephole.c threaded to the header
# while the last branch falls into it (normalize/ifends.c).
def if_else_in_if_else(libs, opts):
    for lib in libs:
        d, n = split(lib)
        if d:
            f = find(d, n)
            if f:
                opts.append(f)
            else:
                warn(lib)
        else:
            opts.append(n)
    return opts


def if_in_if_else(paths, quiet):
    ok = True
    for p in paths:
        if not p or p == cur:
            if quiet < 2:
                print('skipping')
        else:
            ok = ok and compile_dir(p)
    return ok


def elif_chain_in_while(xs):
    while xs:
        if a(xs):
            f()
        elif b(xs):
            g()
        else:
            h()


def try_else(xs):
    for x in xs:
        try:
            f(x)
        except ValueError:
            g(x)
        else:
            h()


def named_clause_break_else(xs):
    for x in xs:
        try:
            f(x)
        except ValueError as e:
            if e:
                break
            g(e)
        else:
            h()


def with_in_else(names, contents):
    for name in names:
        if contents is None:
            mkdir(name)
        else:
            with open(name, "w") as f:
                f.write(contents)


# Written continues stay: one in a bare except clause (stdlib uuid
# getnode), one ending the last branch of a nested if.
def clause_continue(getters):
    for getter in getters:
        try:
            node = getter()
        except:
            continue
        if node is not None:
            return node


def nested_else_continue(xs, c, out):
    for x in xs:
        if c < 1:
            out.append(x)
        elif c > 1:
            if x == 1:
                c.append(x)
            elif x > 1:
                out.append(x)
            else:
                continue
        else:
            out.append(0)


# The end of the loop body after an else part that raises is unreachable,
# and blocks.c gives it no handler: the branches' jumps stay threaded (to
# it, they would read as leaving the with: `break`).
def with_loop_if_raise(self, message):
    with catch() as w:
        for x in range(2):
            self.warn(message)
            if x == 0:
                del w[:]
            elif x == 1:
                self.check(w)
            else:
                raise ValueError('unhandled')


# A conditional expression as the condition ending a comprehension's loop
# body: its tests go to its parts, and stay (stdlib dataclasses _hash_add).
def ifexp_condition(fields):
    return [f for f in fields if (f.compare if f.hash is None else f.hash)]
