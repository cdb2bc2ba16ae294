"""Type parameters and type aliases, PEP 695 (3.12+)."""


def identity[T](x: T) -> T:
    return x


def bounded[T: int, S: (str, bytes)](x: T, y: S) -> tuple[T, S]:
    return (x, y)


def variadic[*Ts, **P](f: Callable[P, tuple[*Ts]], *args: P.args, **kwargs: P.kwargs):
    return f(*args, **kwargs)


def with_defaults[T](x: T, y=1, *, z=2) -> T:
    return x


def only_defaults[T](x=None):
    return x


def only_kwdefaults[T](*, x=None):
    return x


async def coroutine[T](x: T) -> T:
    return await x


@decorator
def decorated[T](x: T):
    return x


def uses_in_body[T](x):
    y: T = x
    return lambda: T


class Box[T]:
    item: T

    def get(self) -> T:
        return self.item

    def map[U](self, f: Callable[[T], U]) -> Box[U]:
        return Box(f(self.item))


class Pair[K: Hashable, V](Base, Mapping[K, V], metaclass=Meta):
    pass


@decorator
class Decorated[T]:
    """doc"""
    x = 1


class Outer:
    class Inner[T]:
        pass

    type Alias = list[int]

    def method[T](self, x: T) -> T:
        return x


type Plain = int | str
type Generic[T] = list[T]
type Bounded[T: int, *Ts, **P] = Callable[P, tuple[T, *Ts]]


def local_alias():
    type Local[T] = dict[str, T]
    return Local


def local_generic():
    def inner[T](x: T) -> T:
        return x

    class C[T]:
        pass
    return (inner, C)


class Mangled[__T]:
    param = __T

    def meth[__U](self, arg: __T, arg2: __U):
        return (__T, __U)

    type Alias[__V] = (__T, __V)


type Shadowing[T: [lambda: T for T in (T, [1])[1]]] = [lambda: T for T in T.__name__]


def shadowing_function[T: [lambda: T for T in (T, [1])[1]]]():
    return [lambda: T for T in T.__name__]
