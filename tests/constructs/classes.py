"""Class bodies, super(), __class__, decorators."""
import functools


def decorate(f):
    return f


class Base:
    """A base class."""
    attribute = 1

    def __init__(self, value):
        self.value = value

    @property
    def doubled(self):
        return self.value * 2

    @doubled.setter
    def doubled(self, value):
        self.value = value // 2

    @staticmethod
    def helper(x):
        return x

    @classmethod
    def make(cls, *args):
        return cls(*args)


class Child(Base, metaclass=type):
    def __init__(self, value, extra):
        super().__init__(value)
        self.extra = extra

    def kind(self):
        return __class__.__name__

    @decorate
    @functools.lru_cache(maxsize=None)
    def cached(self, n):
        return n


@decorate
class Decorated:
    x: int = 3
    y: str

    def method(self):
        class Inner:
            def get(inner_self):
                return self
        return Inner


class _Private:
    """Private names: stored as _Private__name, printed as written (3.13
    records the written form of `self.__name` in __static_attributes__)."""
    import __future__ as __features
    from functools import partial as __partial
    __count = 0

    def __init__(self, __first: int, *__rest, __key: int = 2, **__options):
        self.__first = __first + self.__count
        self.__rest = [self.__first for _ in __rest]
        self.__dunder__ = __key

        def inner():
            nonlocal __first
            __first = lambda: self.__first

        class Nested:
            def method(self):
                return self.__nested, __options

    def __helper(self):
        return self.__features, self.__partial


class EndsInIf:
    # The compiler copies the end of the body (3.13's __static_attributes__
    # store and the return) into the if.
    __slots__ = ()
    if decorate is not None:
        def method(self):
            return self


class OwnModule(Exception):
    """A class that names its own module, as the stdlib's public ones do."""

    __module__ = 'somewhere'

    def __init__(self, msg):
        self.msg = msg
