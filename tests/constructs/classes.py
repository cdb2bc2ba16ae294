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
