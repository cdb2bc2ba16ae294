"""Open unmarked lies found by audit44 in holdout 11 (stop 44), reduced.

Each function is the smallest shape found of one real function of
tests/realworld/holdout11.txt that main 13f4cf6 prints without a mark and
that runs differently from the source (confirmed by running the real
package with the decompiled module, or the function extracted with its
source; tests/realworld/AUDIT.md, "Holdout 11, stop 44").  The docstring
of each says which versions lie and gives an input on which the source
and the output differ.  Listed in known_failures/3.X.txt as UNMARKED LIE
where they lie; a fix moves each to the family of its shape.
"""


def break_after_for_else_continue(items, extra):
    """xmlschema XsdGroup.iter_decode (3.8, 3.9): in a while loop, a for
    loop that breaks, its `else: continue`, then `break`: the output drops
    the `break` after the for-else, so the code after it runs.
    break_after_for_else_continue([1, None], ["e"]): ["e"] from the
    source, ["e", None] from the output."""
    out = []
    while items:
        x = items.pop()
        if x is None:
            for e in extra:
                out.append(e)
                break
            else:
                continue
            break
        out.append(x)
        break
    return out


def return_true_false_in_loop_in_finally(leases, blocking, log):
    """kazoo Semaphore._inner_acquire (3.10, 3.12, 3.13): `return True`
    and `return False` in a while True loop in a try / finally are printed
    as two `break`s and one `return False` after the loop.
    return_true_false_in_loop_in_finally([True], True, []): True from the
    source, False from the output."""
    it = iter(leases)
    try:
        while True:
            if next(it):
                return True
            if blocking:
                log.append("wait")
            else:
                return False
    finally:
        log.append("release")


def break_after_try_else_if(items, method):
    """httplib2 Http._conn_request (3.11): a while loop whose try-else ends
    in an `if`, then `break` after the try: the output breaks only where
    the `if` is false and goes round again where it is true.
    break_after_try_else_if("abcd", "GET"): ["b", "decoded"] from the
    source, ["b", "decoded", "c", "decoded", "d", "decoded"] from the
    output (httplib2 sends every GET twice)."""
    i = 0
    out = []
    while i < 3:
        i += 1
        try:
            x = items[i]
        except IndexError:
            continue
        else:
            out.append(x)
            if method != "HEAD":
                out.append("decoded")
        break
    return out
