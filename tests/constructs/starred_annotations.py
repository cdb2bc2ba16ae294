"""Starred annotations of *args, PEP 646 (3.11+): the compiler's UNPACK_SEQUENCE 1 of the value, once read as an unpacking assignment with no target (test_typing's TypeVarTupleTests)."""


def star_args_annotation(Ts):
    def g(*args: *Ts):
        pass

    return g


def star_args_annotation_between_others(Ts, T):
    def g(a: int, *args: *tuple[int, *Ts], k: T = 1, **kw: str) -> T:
        pass

    return g


def star_args_annotation_with_closure(Ts):
    def g(*args: *Ts) -> None:
        return Ts

    return g


def one_item_unpacking_targets(v, x):
    [x.y] = v
    [x[0]] = v
    [q] = v
    return q


class StarArgsAnnotatedMethod:
    def f(self, *args: *tuple[int, ...]):
        return args
