"""`except E as name: continue` in a while loop whose test 3.12+ copies
to the bottom of the body: the clause, laid out after the function's code,
deletes the name after POP_EXCEPT, then jumps back to the test at the top.
That jump was not read as the clause's continue (structure.c
in_cold_clause), so the test at the top headed a loop of its own: a
`while True:` around the loop, the continue read as a break (pathlib
Path.walk 3.12, pathlib/_abc.py PathBase.walk 3.13); fixed on the loops
branch."""


def named_clause_continue(paths):
    while paths:
        path = paths.pop()
        try:
            it = path.scandir()
        except OSError as error:
            continue
        g(it)


def named_clause_continue_after_yield(paths):
    while paths:
        path = paths.pop()
        if isinstance(path, tuple):
            yield path
            continue
        try:
            it = path.scandir()
        except OSError as error:
            if error:
                h(error)
            continue
        g(it)
