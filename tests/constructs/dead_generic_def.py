# A generic def and a type alias after a module-level raise (3.12+): the
# type parameter scope of the first, "<generic parameters of first>",
# stays in the module's co_consts[0] (flowgraph.c remove_unused_consts
# keeps that slot) and the def statement makes it again (deadconst.c
# generic_statement).  No docstring: it would take slot 0.

raise SystemExit


def first[T, *Ts, **P](x: T, *rest: *Ts) -> tuple[T, *Ts]:
    return (x, *rest)


type Pair[K] = tuple[K, K]
