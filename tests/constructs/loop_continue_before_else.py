"""A `continue` after an inner if / elif chain that ends the body of an
if with an else part, in a loop whose body goes on after that if (stop
39, mine39; holdout toml decoder._unescape, open_lies_audit37.py
continue_ending_if_branch_of_while, the shape with a raising last
branch, which is not repeated here).  3.8 / 3.9 peephole.c threads the
inner branches' jumps to the `continue` through it to the loop's top, and
keeps the jump over the outer if's else part after the `continue`,
unreachable.  Read as it was, the inner branches fell through to the code
after the outer if: the `continue` was lost.  normalize/ifends.c
continue_before_else."""


def last_branch_falls_through(v):
    i = 0
    escaped = False
    while i < len(v):
        if escaped:
            escaped = False
            if v[i] == "n":
                v = v[:i - 1] + "\n" + v[i + 1:]
            elif v[i] == "u":
                i += 1
            else:
                v = v + "x"
            continue
        elif v[i] == "\\":
            escaped = True
        i += 1
    return v


def for_loop_elif(xs):
    out = []
    for x in xs:
        if x > 3:
            if x == 5:
                out.append(1)
            else:
                raise ValueError(x)
            continue
        elif x < 0:
            out.append(2)
        out.append(x)
    return out


def for_loop_else(xs):
    out = []
    for x in xs:
        if x > 3:
            if x == 5:
                out.append(1)
            else:
                raise ValueError(x)
            continue
        else:
            out.append(2)
        out.append(x)
    return out


def inner_if_without_else(xs):
    out = []
    for x in xs:
        if x > 3:
            if x == 5:
                out.append(1)
            elif x == 6:
                out.append(3)
            continue
        elif x < 0:
            out.append(2)
        out.append(x)
    return out


def inner_else_continue(xs):
    out = []
    for x in xs:
        if x > 3:
            if x == 5:
                out.append(1)
            elif x == 6:
                out.append(3)
            else:
                continue
        elif x < 0:
            out.append(2)
        out.append(x)
    return out


def break_after_inner_if(xs):
    out = []
    for x in xs:
        if x > 3:
            if x == 5:
                out.append(1)
            else:
                raise ValueError(x)
            break
        elif x < 0:
            out.append(2)
        out.append(x)
    return out


def while_true_elif_return(xs):
    i = 0
    while True:
        if i > 3:
            if xs[i % len(xs)] == 5:
                i += 2
            else:
                raise ValueError(i)
            if i > 20:
                return i
            continue
        elif i < 0:
            return 5
        i += 1


def continue_in_try_body(xs):
    out = []
    for x in xs:
        try:
            if x > 3:
                if x == 5:
                    out.append(1)
                else:
                    raise ValueError(x)
                continue
            elif x < 0:
                out.append(2)
            out.append(x)
        except ValueError:
            out.append(-1)
    return out


def while_true_elif_returns(xs):
    i = 0
    while True:
        if i > 3:
            if xs[i] == 5:
                i += 2
            else:
                raise ValueError(i)
            continue
        elif i < 0:
            return 5
        i += 1
