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
