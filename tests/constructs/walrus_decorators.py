"""A walrus as a decorator (3.9+).  Any expression is a decorator since
PEP 614.  Issue 16: the store was dropped (`@f` for `@(d := f)`), found
by the campaign at seed 12."""


@(module_decorator := make_decorator())
class DecoratedByWalrus:
    pass


def decorator_walrus(f):
    @(d := f)
    def inner():
        pass

    return d, inner


def class_decorator_walrus(f):
    @(d := f)
    class Inner:
        pass

    return d, Inner
