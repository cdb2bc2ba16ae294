"""Type parameter defaults, PEP 696 (3.13+)."""


def with_default[T = int](x: T) -> T:
    return x


class Defaulted[T: int = bool, *Ts = *tuple[int, ...], **P = [int, str]]:
    pass


type Aliased[T = str] = list[T]
