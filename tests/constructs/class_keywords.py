"""Class statements with ** keywords: __build_class__ through CALL_FUNCTION_EX."""
# The argument tuple holds the class body's function, the name and the bases;
# the keywords come as a dict merged from the ** parts.


def make(base, options):
    class Local(base, **options):
        pass
    return Local


class Plain(**config):
    x = 1


@decorate
class Mixed(Base, Other, metaclass=Meta, **extra):
    def method(self):
        return __class__
