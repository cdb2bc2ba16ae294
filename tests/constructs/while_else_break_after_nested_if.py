"""A loop body ending in `if d: <an if / else> / else: break` (found by
the lead in stop 36: invoke's vendored yaml Scanner.scan_block_scalar
lost its `else: break` on 3.8 after lie36c's change; main lost it in this
reduced form already).  3.8 / 3.9 peephole.c threads the test of `if d:`
through the dead `else: break`; normalize/unthread.c took a test of the
inner if, jumping on the other value (`if not breaks:`), for one of
`if d:`'s condition, so the while loop's own test took the dead break for
its else part: the `else: break` was dropped and the loop ran on where the
source stops (an unmarked lie, fixed by lie37a).  The variants nest the
inner if otherwise, use `continue`, a for loop, an else part of the loop,
and a condition of two tests."""


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


def else_break_after_inner_if_without_else(s, a, b):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7:
            if a:
                if not b:
                    out.append(1)
        else:
            break
    return out


def else_break_after_if_elif(s, a, b):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7:
            if a:
                out.append(1)
            elif not b:
                out.append(2)
            else:
                out.append(3)
        else:
            break
    return out


def else_break_after_three_deep(s, a, b, c):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7:
            if a and b:
                if not c:
                    if b:
                        out.append(1)
                else:
                    out.append(2)
            else:
                out.append(3)
        else:
            break
    return out


def else_continue_after_nested_if(s, folded, breaks):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7:
            if folded and breaks:
                if not breaks:
                    out.append(" ")
            else:
                out.append(2)
        else:
            continue
        out.append(3)
    return out


def for_else_break_after_nested_if(xs, folded, breaks):
    out = []
    for x in xs:
        out.append(x)
        if x == 7:
            if folded and breaks:
                if not breaks:
                    out.append(" ")
            else:
                out.append(2)
        else:
            break
    return out


def while_else_part_after_nested_if(s, folded, breaks):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7:
            if folded and breaks:
                if not breaks:
                    out.append(" ")
            else:
                out.append(2)
        else:
            break
    else:
        out.append(4)
    return out


def else_break_after_nested_if_two_tests(s, folded, breaks):
    out = []
    while s.col() == 1 and s.peek() != 0:
        s.step()
        if s.col() == 7 and s.peek() != 0:
            if folded and breaks:
                if not breaks:
                    out.append(" ")
            else:
                out.append(2)
        else:
            break
    return out


def else_break_after_or_condition(s, a, b):
    out = []
    while s.col() == 1:
        s.step()
        if s.col() == 7 or a:
            if not b:
                out.append(1)
            else:
                out.append(2)
        else:
            break
    return out


def else_break_in_while_true(s, folded, breaks):
    out = []
    while True:
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
