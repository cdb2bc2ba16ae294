"""Unmarked lies found by audit37b (stop 37) reading, on 3.8 / 3.9, the
functions of the first holdout corpus (tests/realworld/holdout.txt) and of
the real-world corpus (tests/realworld/packages.txt) whose round trip
differs with no mark (tools/unmarked_diffs.py); reduced.  The one found
is fixed (audit37b, normalize/unthread.c jumps_past_else); it was listed
UNMARKED LIE on 3.8 / 3.9 until then."""


# docutils transforms/peps.Headers.apply (real-world corpus, 3.8 / 3.9;
# right on 3.10-3.13): an if / elif chain in a loop body whose last elif
# ends in a try / except followed by an if, and whose `else: continue`
# skips the statements after the chain, prints without the `else:
# continue`: a value that matches no test runs the statements after the
# chain (peps: `para = body[0]` on an empty field body, an IndexError where
# the source goes on to the next field).  f([3], log) logs nothing in the
# source, 'after' in the output.  Without the try, or without the first
# branch, the output was right.  Fixed: peephole.c threaded the elif's
# test through the dead `continue` to the loop's header; unthread.c would
# not take it back because the inner if's test, threaded through the elif
# body's own jump, goes right after the dead jump, and ifends.c then sent
# the test to the loop's last jump back.  A body that ends in a jump over
# the dead jump to right after it, with no test in it going where the
# dead jump goes, now counts as the if's body (unthread.c
# jumps_past_else).
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
