"""global / nonlocal declarations that only an assignment expression in a comprehension of its own code needs (issue 16; test_named_expressions, 3.8-3.11 comprehensions, generator expressions on all versions)."""


def global_in_listcomp(self):
    sentinel = object()

    def f():
        global GLOBAL_VAR
        [GLOBAL_VAR := sentinel for _ in range(1)]
        self.assertEqual(GLOBAL_VAR, sentinel)

    return f


def nonlocal_in_listcomp(self):
    sentinel = object()

    def f():
        nonlocal_var = None

        def g():
            nonlocal nonlocal_var
            [nonlocal_var := sentinel for _ in range(1)]

        g()
        return nonlocal_var

    return f


def nonlocal_in_genexpr(xs):
    last = None

    def g():
        nonlocal last
        return any((last := x) > 3 for x in xs)

    g()
    return last


def global_in_nested_comprehension(rows):
    global FOUND
    return [[FOUND := x for x in row] for row in rows]


def read_only_free(xs):
    seen = 0

    def g():
        return [seen + x for x in xs]

    return g
