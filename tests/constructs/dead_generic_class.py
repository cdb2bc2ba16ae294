# A generic class in code after a raise, at module level (3.12+): the
# optimizer drops the code but keeps its type parameter scope, "<generic
# parameters of Box>", in the module's co_consts[0] (flowgraph.c
# remove_unused_consts keeps that slot), which only the class statement
# makes again (deadconst.c generic_statement; campaign seed 4444 program
# 109 generated in the target).  No docstring: it would take slot 0.

raise SystemExit


class Box[T: int](dict, {x for x in range(3)}, metaclass=type):
    size = 1

    def get(self) -> T:
        return self.size
