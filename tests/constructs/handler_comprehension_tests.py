"""Tests with an operand that is a comprehension, in an except clause:
3.12+ inlines the comprehension (PEP 709) and, the clause being cold code,
keeps its cleanup handler in line behind a jump over it (compile.c
pop_inlined_comprehension_state; flowgraph.c push_cold_blocks_to_end
moves it out of line elsewhere).  The `and` / `or` of such a test was
read as nested ifs, its else part on the outer one only (nltk
data.ZipFilePathPointer.__init__; see open_lies_audit35.py
and_pass_else_raise_in_handler)."""


def and_comp_assign_else_raise(a, names, lookup):
    try:
        lookup(a)
    except Exception as e:
        if a and [n for n in names if n]:
            x = 1
        else:
            raise OSError(a) from e
    return 2


def and_comp_return_then_raise(a, names, lookup):
    try:
        lookup(a)
    except Exception:
        if a and [n for n in names if n]:
            return 3
        raise
    return 1


def and_comp_in_loop(a, names, lookup):
    for q in a:
        try:
            lookup(q)
        except Exception as e:
            if q and [n for n in names if n]:
                pass
            else:
                raise OSError(q) from e


def or_comp(a, names, lookup):
    try:
        lookup(a)
    except Exception as e:
        if a or [n for n in names if n]:
            pass
        else:
            raise OSError(a) from e
    return 1


def comp_first(a, names, lookup):
    try:
        lookup(a)
    except Exception as e:
        if [n for n in names if n] and a:
            pass
        else:
            raise OSError(a) from e
    return 1


def set_comp_and_attr(a, names, lookup):
    try:
        lookup(a)
    except Exception:
        if a and {n for n in names if n} and a.x:
            a.y = 1
        else:
            raise
    return 1


def not_dict_comp(a, names, lookup):
    try:
        lookup(a)
    except Exception:
        if a and not {n: 1 for n in names}:
            return 2
    return 1


def two_comps(a, names, lookup):
    try:
        lookup(a)
    except Exception:
        if [n for n in names] and [m for m in a]:
            return 2
        raise
    return 1


def value_and_comp(a, names, lookup):
    try:
        lookup(a)
    except Exception:
        x = a and [n for n in names if n]
        return x
    return 1


def while_and_comp(a, names, lookup):
    try:
        lookup(a)
    except Exception:
        while a and [n for n in names if n]:
            a = a[1:]
    return a
