"""Class statements with starred bases or ** keywords, which call __build_class__ through CALL_FUNCTION_EX (issue 16; test_class testClassWithExtCall, test_typing, test_dataclasses: the classes were missing from the output on 3.12+)."""


def g(d, bases, Meta):
    class A(*bases): pass
    class B(object, *bases): x = 1
    class C(*bases, metaclass=Meta): pass
    class D(0, *range(1, 8), **d, foo='bar'): pass
    class E(**d): pass
    class F(1, 2, 3, *bases, 4, **d): pass
    return A, B, C, D, E, F

class Top(*bases):
    def f(self):
        return super().f()
