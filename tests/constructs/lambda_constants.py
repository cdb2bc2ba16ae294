"""Equal lambdas: one constant on one line, two on two lines (3.12 merges them by line; issue 16, toolz _signatures.py)."""

table = dict(
    abs=[
        lambda x: None],
    all=[
        lambda x: None],
    any=[lambda x: None, lambda x, y: None],
)

same_line = [lambda x: None, lambda x: None]

mixed = [lambda: 0, lambda: 0,
         lambda: 0]


def lambdas_in_function():
    return (
        lambda a: a,
        lambda a: a,
    )


def lambdas_with_defaults(n):
    return [(n, lambda k=1: k),
            (n, lambda k=1: k)]
