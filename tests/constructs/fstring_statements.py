"""An f-string without fields as a statement: the compiler keeps its load and pop, where a plain string statement is dropped or becomes the docstring; printed plain, it set __doc__ (issue 16, a lie found by the probe judge, campaign seed 31)."""
f"b'some bytes'1.0394563787737687"
x = 1
f"de{{f"
f""


def first():
    f"not the docstring"
    return 1


def after_docstring():
    """the docstring"""
    f"x"


class C:
    f"not the class docstring"
