# Code objects only dead code made: the optimizer drops the code after a
# raise but keeps the code objects it numbered in co_consts (3.10-3.11
# before a constant the code uses, 3.12+ in slot 0), which the output must
# make again in their place (issue 16: the campaign's largest co_consts
# class).  No docstring: it would take slot 0.


def comprehension_after_raise(items):
    if items:
        raise ValueError
        (x for x in items)
    return 1


def lambda_after_return(items):
    if items:
        return items
        lambda: 0
    return 2


raise
{x: 0 for x in items}
[x for x in items]
