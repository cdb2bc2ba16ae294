"""A `while` body ending in `if d: <an if / else> / else: break` (found by
the lead in stop 36: invoke's vendored yaml Scanner.scan_block_scalar
lost its `else: break` on 3.8 after lie36c's change; main lost it in this
reduced form already).  On 3.8 / 3.9 the `else: break` is dropped, so the
loop goes on where the source stops: an unmarked lie, open."""


def else_break_after_nested_if(s, folded, breaks):
    out = []
    while s.col() == 1:
        out.append(1)
        s.step()
        if s.col() == 7:
            if folded and breaks:
                if not breaks:
                    out.append(" ")
            else:
                out.append(2)
        else:
            break
    return out


def else_break_after_if(s):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7:
            out.append(2)
        else:
            break
    return out
