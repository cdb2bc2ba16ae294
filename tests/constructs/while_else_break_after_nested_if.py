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
conditions of two tests, an elif, and the if first in the loop body (main
lied in nine of them on 3.8 / 3.9).  The last one has no loop: the
`return` of a ternary ending an if body (stdlib json.detect_encoding),
whose test now ends the walk over `if not b[1]:`'s condition too."""


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


def if_first_in_body_or_conditions(s, a, b):
    out = []
    while s.col() or a:
        if s.peek() or b:
            if not a:
                out.append(1)
            else:
                out.append(3)
        else:
            break
    return out


def if_first_in_for_body(xs, a):
    out = []
    for x in xs:
        if x:
            if not a:
                out.append(1)
        else:
            break
    return out


def elif_ending_while_body_else_break(s, a, b):
    out = []
    while s.col():
        s.step()
        if s.peek() == 1:
            if not a:
                out.append(1)
        elif s.peek() == 2:
            if not b:
                out.append(2)
        else:
            break
    return out


def return_of_or_ternary_ending_if_body(b):
    if len(b) >= 4:
        if not b[1]:
            return "x" if b[2] or b[3] else "y"
    elif len(b) == 2:
        return "z"
    return "w"
