"""Star unpacking in calls, literals and assignments."""


def calls(f, args, kwargs, more):
    f(*args)
    f(1, *args, 2, *more)
    f(**kwargs)
    f(a=1, **kwargs, b=2)
    f(*args, **kwargs)
    return f(0, *args, key=1, **kwargs)


def literals(a, b, c):
    x = [*a, *b]
    y = (*a, 1)
    z = {*a, *b}
    w = {**c, 'k': 1, **c}
    return x, y, z, w


def assignments(seq):
    first, *rest = seq
    *init, last = seq
    a, (b, *c), d = seq
    x = y = z = first
    return first, rest, init, last, a, b, c, d, x, y, z


def repeated_targets(rows, pair):
    # 3.13 writes two stores of one name in a row as POP_TOP; STORE_FAST.
    a, a, b = pair
    for _, _, op, arg in rows:
        a += op + arg
    return a, b


def spread_displays(f, a, b, kwargs):
    # A list or tuple display spread into a call stays one: the compiler
    # passes it to CALL_FUNCTION_EX as built.
    f(*[a, b])
    f(*[])
    f(*(a, b))
    f(*(1, 2))
    f(1, *(2, 3))
    return f(a, b, **kwargs)


def spread_constant_tuple(f):
    # f(*(1, 2), **k) and f(1, 2, **k) both pass a constant tuple; only
    # its place in co_consts tells them apart.
    f(*(1, 2), **{'a': 3})
    return f(5, 6, **{'b': 4})


def many_keywords(f):
    # Past 15 keyword arguments the compiler passes them to
    # CALL_FUNCTION_EX by itself, the () of no positional ones folded late
    # (found numbered already where a keyword passes () too; a lambda's
    # default tuple is folded late as well) (real-world pydantic
    # _internal/_config.py, toolz _signatures.py).
    f(a=1, b=2, c=3, d=4, e=5, g=6, h=7, i=8, j=9, k=10, l=11, m=12, n=13,
      o=14, p=15, q=16, r=(), s=False)
    return f(a=[lambda x=False: None], b=1, c=2, d=3, e=4, g=5, h=6, i=7,
             j=8, k=9, l=10, m=11, n=12, o=13, p=14, q='q')


def empty_targets(a, items):
    # `()` and `[]` unpack into no name but still check that the value is
    # empty (UNPACK_SEQUENCE 0): the target is no decoration to drop.
    () = a
    [] = b = a
    x = () = items
    for () in items:
        pass
    return b, x


() = []


# A dict display after *args whose keys cannot be keyword names stays a
# dict display: a computed key, a name that is no identifier, a key twice
# (3.8 printed `f(*a, **v)` for the first, losing the key, and invalid
# code for the others: test_argparse, testmagicmethods).
def kwargs_display_not_names(f, k, v, a):
    f(*a, **{k: v})
    f(**{'a.b': v})
    f(*a, **{'x': 1, 'x': 2})
    f(*a, **{'"': 'quote'})
    return f(*a, x=1, y=k)


def repeated_name_on_two_lines(self):
    # Two stores of one name in a row on two lines: on one line 3.13 drops
    # the first (tomlkit DateTime.unwrap, networkx vf2pp _cut_PT).
    (
        year,
        month,
        _,
        _,
    ) = self._getstate()
    return year, month


def repeated_name_three_times(url, urlsplit):
    # Three stores of one name in a row on one line: 3.13 keeps the last
    # (POP_TOP; POP_TOP; STORE_FAST nil); reading the first POP_TOP as `_`
    # made `_` a local (stdlib http.client HTTPConnection.putrequest).
    nil, netloc, nil, nil, nil = urlsplit(url)
    return netloc
