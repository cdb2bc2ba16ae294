"""match with every pattern kind (3.10+)."""


class Point:
    __match_args__ = ('x', 'y')

    def __init__(self, x, y):
        self.x = x
        self.y = y


def literal(command):
    match command:
        case 0:
            return 'zero'
        case 'go' | 'run':
            return 'move'
        case None:
            return 'none'
        case True:
            return 'yes'
        case -1:
            return 'minus one'
        case _:
            return 'other'


def capture_and_guard(value):
    match value:
        case x if x > 10:
            return x
        case y:
            return -y


def sequence(value):
    match value:
        case []:
            return 0
        case [a]:
            return a
        case [a, b, *rest]:
            return a + b + len(rest)
        case (1, 2) as pair:
            return pair


def mapping(value):
    match value:
        case {'kind': 'circle', 'radius': r}:
            return r
        case {'kind': kind, **rest}:
            return kind, rest
        case {}:
            return None


def class_pattern(value):
    match value:
        case Point(x=0, y=0):
            return 'origin'
        case Point(0, y):
            return y
        case Point(x, y) if x == y:
            return 'diagonal'
        case int() | float():
            return 'number'
        case str(s):
            return s


def value_pattern(value, colors):
    match value:
        case colors.RED:
            return 'red'
        case [Point(x=1), {'k': [1, 2]}]:
            return 'nested'
    return None


def star_wildcards(value):
    match value:
        case [first, *_, last]:
            return first, last
        case [_, second, *_]:
            return second
        case [*_]:
            return None


def alternatives_capture(value):
    match value:
        case [x, 1] | [1, x]:
            return x
        case (1 | 2) as small:
            return small
        case {'a': [y, *_]} | {'b': y}:
            return y


def in_loop(items, colors):
    total = 0
    for item in items:
        match item:
            case None:
                continue
            case colors.STOP:
                break
            case int(n) if n > 0 and n < 100:
                total += n
            case _ if item:
                total -= 1
        total *= 2
    return total


def followed_by_code(value):
    match value:
        case {colors.KEY: v, **others}:
            print(v, others)
        case Point(x=[1, *rest]):
            print(rest)
    return value


def finally_body_repeated_after_match(x):
    # (finally_copies.py finally_body_repeated_after_if_in_try, after a match)
    try:
        match x:
            case y.z:
                pass
        a()
    except E:
        pass
    finally:
        a()


def irrefutable_last_case(x):
    # The last case cannot fail: the code after the match runs after every
    # case, not only inside the last one (test_patma_160 / 164 read it into
    # the last case, which the other cases then skipped).
    match x:
        case 1:
            y = 0
        case z:
            y = 1
    return x, y, z


def guard_after_capture(x):
    z = None
    match x:
        case 0:
            y = 0
        case z if x:
            y = 1
    return x, z


def false_guards(x):
    # A constant false guard: the compiler drops it and the body.
    y = None
    match x:
        case 0 if False:
            y = 0
        case 1 if 0:
            y = 1
        case 2:
            y = 2
    return y


def wildcard_guard_first(x):
    # test_patma_170-172: 3.12+ drop the case's COPY 1 and the wildcard's
    # POP_TOP of it, so the guard runs on the subject at once.
    y = None
    match x:
        case _ if not x:
            y = 0
        case 0:
            y = 1
        case z if x:
            y = z
    return y


def or_with_capture_last(v):
    # test_patma_253/254: the or-pattern cannot fail, and on 3.13 the
    # capture's COPY 1 falls into the STORE the first alternative jumps to.
    match v:
        case [x] | x:
            return x


def mapping_or_capture(v):
    match v:
        case {"x": x} | x:
            return x


def last_guard_in_loop(xs, out):
    # anyio _build_lazy_map: the last case's guard (no `case _` after it)
    # fails past the failure chain's POP_TOP to the jump back; read as an
    # if around the body, it came back failing to the body's jump back.
    for x in xs:
        match x:
            case Point():
                out.append(0)
            case int() if x > 1:
                out.append(x)


def last_case_if_in_loop(xs, out):
    for x in xs:
        match x:
            case Point():
                out.append(0)
            case int():
                if x > 1:
                    out.append(x)


def last_case_if_in_with(x, lock):
    # traceback StackSummary._should_show_carets (3.13): the if's jump,
    # threaded past the body's jump to the code after the match, lands
    # where a guard's would; the if is on a line of its own.
    with lock:
        y = None
        match x:
            case Point():
                y = 1
            case int():
                if x > 1:
                    y = 2
        lock.append(y)


def last_guard_in_with(x, lock):
    with lock:
        y = None
        match x:
            case Point():
                y = 1
            case int() if x > 1:
                y = 2
        lock.append(y)


def default_case_before_copied_store(result, value, fallback):
    # 3.12 copies `result.stats = stats` + the return (a small exit block)
    # into each case's jump to it: the code where no case matched is the
    # trailing `case _`, not code after the match.
    match value:
        case int():
            stats = value
        case None:
            stats = None
        case _:
            import math
            stats = math.floor(value) if value else fallback
    result.stats = stats
