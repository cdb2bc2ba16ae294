"""Chained comparisons, augmented assignment to items and attributes, swaps (3.8-3.10 rotate the stack with ROT_THREE and DUP_TOP_TWO, 3.11+ with SWAP and COPY)."""


def chained_comparisons(a, b, c, d):
    x = a < b < c
    y = a < b <= c < d
    z = a is b is not c
    w = a in b not in c
    return x, y, z, w


def chained_tests(a, b, c):
    if a < b < c:
        return 1
    if 0 <= f(a) < len(b) and c:
        return 2
    return [x for x in b if 0 < x <= c]


def chained_in_loop(items, lo, hi):
    n = 0
    for x in items:
        if lo <= x.value < hi:
            n += 1
    return n


def chained_returns(a, b, c):
    return a == b == c


def item_augmented(d, k, i, j):
    d[k] += 1
    d[k + 1] *= f(k)
    d.items[0] -= 1
    d[i][j] |= 3
    d[i:j] += [1]
    d[:] += d


def attribute_augmented(o, v):
    o.x += 1
    o.y.z -= o.x
    o.count //= v


def augmented_in_loop(counts, words):
    for w in words:
        counts[w] += 1
    return counts


def swaps(a, b, c):
    a, b = b, a
    a, b, c = c, b, a
    return a, b, c


def attribute_swaps(o, d, a, b, c):
    o.a, o.b, o.c = c, b, a
    o.x, o.y = o.y, o.x
    a, o.b, c = c, b, a
    d[0], d[1], d[2] = a, b, c


def global_swap(a, b, c):
    global g
    g, a, b = b, c, a
    return a, b


def chained_assignment(o, d, a):
    x = y = a
    o.p = o.q = x
    d[0] = d[1] = a
    return x, y


class RotationsInClassBody:
    lo, hi = 0, 10
    inside = lo < 5 < hi
    table = {}
    table['k'] = 1
    table['k'] += 1


counter = {}
counter['n'] = 0
counter['n'] += 1
first, second = 1, 2
first, second = second, first
in_range = 0 <= first < second
