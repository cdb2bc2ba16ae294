"""A for loop ending an if body, whose break 3.8-3.9 peephole.c threaded
through the jump after the loop to the end of the if statement's last
branch: read as `if p: pass`, the loop ran on (a lie; stdlib
inspect.getclasstree, found by audit38)."""


def for_break_threaded_to_elif_end(xs, ys, r):
    for c in xs:
        if c:
            for p in ys:
                g(p)
                if p:
                    break
        elif c not in r:
            r.append(c)
    return r


def for_break_threaded_to_else_end(xs, ys):
    n = 0
    for c in xs:
        if c:
            for p in ys:
                if p > c:
                    break
                n += p
        else:
            n -= 1
    return n

