"""The SETUP_FINALLY / SETUP_WITH / POP_BLOCK block stack of 3.8-3.10 read as 3.11's exception table (normalize/blocks.c): each shape moves the exception's three values or the previous exception's in its own way (returns from handlers and finally bodies, nested handlers, the names of `except ... as`, with exits on every way out)."""


def return_from_except_clause(f, g):
    try:
        f()
    except ValueError:
        return g()


def return_from_named_clause(f):
    try:
        f()
    except ValueError as e:
        return e.args


def return_from_finally_body(f, g):
    try:
        f()
    finally:
        return g()


def return_const_from_finally_body(f):
    try:
        f()
    finally:
        return 1


def try_in_except_clause(f, g, h):
    try:
        f()
    except ValueError:
        try:
            g()
        except KeyError as e:
            h(e)


def try_in_finally_body(f, g, h):
    try:
        f()
    finally:
        try:
            g()
        except Exception:
            h()


def with_in_except_clause(f, m):
    try:
        f()
    except OSError as e:
        with m as v:
            v.write(e)


def except_in_with(m, f, g):
    with m:
        try:
            f()
        except ValueError:
            g()


def return_from_with_in_except_clause(f, m):
    try:
        f()
    except OSError:
        with m as v:
            return v.read()


def nested_withs_return(a, b):
    with a as x:
        with b as y:
            return x + y


def break_from_with_in_loop(items, m):
    for i in items:
        with m:
            if i:
                break
            i.go()


def continue_from_named_clause(items, f):
    for i in items:
        try:
            f(i)
        except ValueError as e:
            if e.args:
                continue
            raise


def bare_raise_in_clause(f, log):
    try:
        f()
    except Exception:
        log()
        raise


def empty_try_body(f):
    try:
        pass
    except ValueError:
        f()


def except_tuple_and_expression(f, errors):
    try:
        f()
    except (KeyError, IndexError):
        return 1
    except errors[0] as e:
        return e


def else_and_finally(f, g, h):
    try:
        f()
    except ValueError:
        g()
    else:
        h()
    finally:
        f()


async def async_with_return(m):
    async with m as v:
        return await v.read()


async def async_for_in_try(it, f):
    try:
        async for x in it:
            f(x)
    except ValueError:
        return None


def break_from_handler_in_with(m, xs, f):
    # 3.8 / 3.9 keep the dead end of the handler (POP_EXCEPT; JUMP) inside
    # the with's block: it takes the with's handler, not none.
    with m:
        for x in xs:
            try:
                f(x)
            except ValueError:
                break
    return 1




def with_always_leaving_in_try_finally(self, done):
    # The with's normal exit is dead (3.8 / 3.9 keep it inside the try):
    # it takes the try's block, not none (concurrent.futures Future.result).
    try:
        with self.lock:
            if self.state in [1, 2]:
                raise ValueError()
            elif self.state == done:
                return self.get()
            else:
                raise KeyError()
    finally:
        self = None
