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
