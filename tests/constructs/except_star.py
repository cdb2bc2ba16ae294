"""except* (3.11+)."""


def handle(f):
    try:
        f()
    except* ValueError as group:
        print('values', group.exceptions)
    except* (TypeError, KeyError):
        print('type or key')
    return 1


def with_else_finally(f):
    try:
        f()
    except* OSError:
        pass
    else:
        print('fine')
    finally:
        print('done')


def reraise(f):
    try:
        f()
    except* ValueError:
        log()
        raise


def in_loop(items):
    for item in items:
        try:
            item()
        except* KeyError as e:
            print(e)
    return 2


def several_finally(f):
    try:
        f()
        g()
    except* ValueError as a:
        print(a)
    except* TypeError as b:
        print(b)
    except* OSError:
        pass
    finally:
        print('x')


def nested_in_clause(f, g):
    try:
        f()
    except* ValueError as outer:
        try:
            g(outer)
        except* TypeError as inner:
            print(outer, inner)
        for x in outer.exceptions:
            if x:
                break
        print('handled')


def attribute_types(f):
    try:
        x = f()
    except* mod.Error as e:
        x = e
    except* (mod.Other, OSError):
        x = None
    return x


def raising_body(f):
    try:
        raise f()
    except* ValueError as e:
        raise RuntimeError('x') from e
    except* TypeError:
        raise


def with_in_clause_else(f, lock):
    try:
        f()
    except* ValueError:
        with lock:
            print('x')
    else:
        print('y')
    return None


async def awaiting(f):
    while f.running:
        try:
            await f()
        except* ValueError as e:
            await g(e)
        finally:
            f.count += 1


def dead_else(self):
    # The try's body always raises: its else part is dead code, whose
    # names the compiler numbers after the handlers'.
    try:
        raise ExceptionGroup("eg", [OSError("os")])
    except* OSError as e:
        self.check(e)
    except* ValueError:
        pass
    else:
        self.fail("Exception not raised")


# The else part after a body that always raises never runs: the compiler
# drops its code but keeps the names it numbered (test_except_star's
# test_multiple_matches_unnamed read the else part as code after the try).
def star_raises_else_fails(self, make):
    try:
        raise make()
    except* ValueError:
        self.seen = True
    else:
        self.fail("not raised")
