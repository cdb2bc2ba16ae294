"""A module that declares names global: it loads them with LOAD_GLOBAL."""
# Without a declaration a module loads its names with LOAD_NAME; the output
# keeps the `global` statement, or the loads would change.
global counter, items


def first(values):
    return values[0]


first(counter)
(item for item in items)
