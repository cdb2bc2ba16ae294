"""global at module and class level."""
# A global statement in a module or class body makes its stores
# STORE_GLOBAL and its loads LOAD_GLOBAL (not *_NAME): it is no decoration.
global counter
counter = 1


class Registry:
    global registry
    registry = {}
    print(registry)


def read_counter():
    return counter


del counter
