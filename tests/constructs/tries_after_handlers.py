"""A try that only the except clause of the try before it reaches (issue 16)."""


# 3.12+ lays out code that only handlers reach after them.  In an if body
# whose first try always returns, the second try is such code: the walk
# of the if body stopped at the first try and the second was dropped
# without a mark, so a() raising KeyError returned 3, not m.v (cyclopts
# App._get_fallback_version_string).
def second_try_after_returning_try(m, a):
    if m:
        try:
            return a()
        except KeyError:
            pass
        try:
            return m.v
        except AttributeError:
            pass
    return 3


# 3.13 copies the small `return m` in place of the jump out of the first
# except clause: it runs on from the clause's POP_EXCEPT.
def second_try_run_on_from_clause(m, a):
    if m:
        try:
            return a()
        except KeyError:
            pass
        try:
            return m
        except KeyError:
            pass
    return 3


def second_try_then_try_after_if(m, version, root):
    if m is not None:
        try:
            return version(m)
        except KeyError:
            pass
        try:
            return m.__version__
        except AttributeError:
            pass
    try:
        name = root()
    except ValueError:
        return None
    return name


def second_try_in_loop(ms, a, h):
    for m in ms:
        if m:
            try:
                return a()
            except KeyError:
                pass
            try:
                return m
            except KeyError:
                pass
        h(m)
    return 3


def second_try_in_while(ms, a):
    while ms:
        m = ms.pop()
        if m:
            try:
                return a()
            except KeyError:
                pass
            try:
                return m.v
            except KeyError:
                pass
    return 3


def second_try_in_with(m, a):
    with m:
        if m:
            try:
                return a()
            except KeyError:
                pass
            try:
                return m.v
            except KeyError:
                pass
    return 3


def second_try_under_finally(m, a):
    try:
        if m:
            try:
                return a()
            except KeyError:
                pass
            try:
                return m.v
            except KeyError:
                pass
    finally:
        a()
    return 3


def second_try_after_named_clauses(m, a):
    if m:
        try:
            return a()
        except KeyError as e:
            m.e = e
        except ValueError:
            return 7
        try:
            return m.v
        except KeyError:
            return 5
        else:
            a()
    return 3
