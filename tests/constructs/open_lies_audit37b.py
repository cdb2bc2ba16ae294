"""Unmarked lies found by audit37b (stop 37) reading, on 3.8 / 3.9, the
functions of the first holdout corpus (tests/realworld/holdout.txt) and of
the real-world corpus (tests/realworld/packages.txt) whose round trip
differs with no mark (tools/unmarked_diffs.py); reduced, open, listed as
UNMARKED LIE in the known lists for each version where the output runs
differently."""


# docutils transforms/peps.Headers.apply (real-world corpus, 3.8 / 3.9;
# right on 3.10-3.13): an if / elif chain in a loop body whose last elif
# ends in a try / except followed by an if, and whose `else: continue`
# skips the statements after the chain, prints without the `else:
# continue`: a value that matches no test runs the statements after the
# chain (peps: `para = body[0]` on an empty field body, an IndexError where
# the source goes on to the next field).  f([3], log) logs nothing in the
# source, 'after' in the output.  Without the try, or without the first
# branch, the output is right.
def else_continue_after_elif_try_then_if(xs, log):
    for x in xs:
        if x == 1:
            log(x)
        elif x == 2:
            try:
                log(x)
            except OSError:
                pass
            if log(x):
                log(x)
        else:
            continue
        log("after")
