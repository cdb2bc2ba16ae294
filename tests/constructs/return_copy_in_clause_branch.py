"""A small exit block after a try (a return) that the compiler copies into each jump to it (3.10 compile.c extend_block, 3.12 flowgraph.c inline_small_exit_blocks, 3.13 inline_small_or_no_lineno_blocks), here into the way out of a branch of an except clause, after the clause's POP_EXCEPT, while the clause's other branch raises: `except ImportError: if name: m = load(name) / else: raise ValueError(name)` + `return m.R`.  Printed as `if name: m = load(name); return m.R` inside the clause, `m.R` ran while the ImportError was handled (an exception it raised carried it as __context__; unmarked, 3.10, 3.12, 3.13).  The copy after the POP_EXCEPT is the code after the try: the branch's else part is the rest of the clause (recover/try.c find_copy_in).  With an else part on the try (try_else), 3.10 printed that else part after the try, where it ran after the clause too: normalize/uncopy.c had joined the clause's copy to the return after the else part, and recovery took the clause's jump there for no way out; a copy right after a POP_EXCEPT now stays a copy."""


def if_else_raise(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            m = load(name)
        else:
            raise ValueError(name)
    return m.R


def named_clause(load, name):
    try:
        m = load('x.' + name)
    except (ImportError, KeyError) as e:
        if name:
            m = load(name)
        else:
            raise ValueError(name) from e
    return m.R


def elif_chain(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            m = load(name)
        elif m:
            m = 2
        else:
            raise ValueError(name)
    return m


def elif_chain_returns_in_between(load, name, alt):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            m = load(name)
        elif alt:
            return alt
        elif m:
            m = 2
        else:
            raise ValueError(name)
    return m.R


def for_else_in_clause(load, name, k):
    try:
        m = load('x.' + name)
    except ImportError:
        for n in k:
            if n:
                break
        else:
            raise ValueError(name)
        m = n
    return m.R


def for_else_in_branch(load, name, k):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            for n in k:
                if n:
                    m = n
                    break
            else:
                raise ValueError(name)
        else:
            raise
    return m.R


def nested_if_in_branch(load, a, b):
    try:
        m = load(a)
    except ImportError:
        if a:
            if b:
                m = load(b)
            else:
                raise ValueError(b)
        else:
            m = None
    return m.R


def raise_first(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if not name:
            raise ValueError(name)
        else:
            m = load(name)
    return m.R


def nested_try_in_branch(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            try:
                m = load(name)
            except ImportError as err:
                raise ValueError(name) from err
        else:
            raise
    return m.R


def two_clauses(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            m = load(name)
        else:
            raise ValueError(name)
    except KeyError:
        m = None
    return m.R


def try_else(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            m = load(name)
        else:
            raise ValueError(name)
    else:
        m.seen = True
    return m.R


def implicit_return_none(load, name):
    try:
        load('x.' + name)
    except ImportError:
        if name:
            load(name)
        else:
            raise ValueError(name)


def return_constant(load, name):
    try:
        load('x.' + name)
    except ImportError:
        if name:
            load(name)
        else:
            raise ValueError(name)
    return 1


def return_name(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        if name:
            m = load(name)
        else:
            raise ValueError(name)
    return m


def break_in_branch(load, names):
    while True:
        try:
            m = load(names.pop())
        except ImportError:
            if names:
                continue
            else:
                raise
        break
    return m.R


def branch_breaks_loop(load, names):
    while names:
        try:
            m = load(names.pop())
        except ImportError:
            if names:
                m = None
                break
            else:
                raise
    return names


def in_with(load, name, lock):
    with lock:
        try:
            m = load('x.' + name)
        except ImportError:
            if name:
                m = load(name)
            else:
                raise ValueError(name)
    return m.R
