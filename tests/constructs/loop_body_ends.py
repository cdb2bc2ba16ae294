"""The last if of a loop body: an else part that is a written continue, and asserts in both parts (issue 16; boltons format_int_list, networkx tests)."""


def else_continue(xs, a):
    for x in xs:
        if x > 1:
            a.append(x)
        else:
            continue


def elif_else_continue(xs, a):
    for x in xs:
        if x < 1:
            a.append(0)
        elif x > 1:
            a.append(x)
        else:
            continue



# The elif's test is an `and`: both operands jump to the else part's jump
# (networkx chain_decomposition `_dfs_cycle_forest`, `else: pass`).
def elif_and_else_pass(xs, a):
    for x, d in xs:
        if d == 1:
            a.append(0)
        elif d == 2 and x not in a:
            a.append(x)
        else:
            pass

def nested_else_continue(xs, a):
    for x in xs:
        if x < 1:
            a.append(0)
        elif x > 1:
            if x > 5:
                a.append(x)
            elif x > 3:
                a.append(3)
            else:
                continue
        else:
            a.append(1)


def continue_after_if(xs, a):
    for x in xs:
        if x > 1:
            a.append(x)
        continue


def then_continue(xs, a):
    for x in xs:
        if x > 1:
            a.append(x)
            continue
        a.append(0)


def while_else_continue(xs, a):
    while xs:
        if xs.pop():
            a.append(0)
        else:
            continue


def asserts_in_both_parts(xs, p, q):
    for x in xs:
        if x:
            assert p(x)
        else:
            assert not q(x)


def assert_then_continue(xs, p, q):
    for x in xs:
        if x:
            assert p(x)
            continue
        assert not q(x)


def asserts_in_nested_loops(g, h):
    for u in g:
        for v in h:
            if h.has(u, v) and g.has(u, v):
                assert g.edge(u, v)
            else:
                assert not g.edge(u, v)


def inner_for_else_in_then_part(xs, ys, a):
    for x in xs:
        if x:
            for y in ys:
                if y:
                    a(y)
                else:
                    break
            else:
                break
        else:
            a(x)
    a(1)


def inner_for_else_then_outer_else(xs, ys, a):
    for x in xs:
        if x:
            for y in ys:
                if y:
                    break
            else:
                break
        else:
            a(x)
    else:
        a(2)
    a(1)


def inner_for_else_written_continue(xs, ys, a):
    for x in xs:
        if x:
            for y in ys:
                if y:
                    break
            else:
                break
            continue
        a(x)
    a(1)


def while_in_then_part(segs, a):
    for s in segs:
        if s.t:
            t = s.t
            while t:
                x, t = t.split()
                if x:
                    a(x)
        else:
            a(s)
    return a
