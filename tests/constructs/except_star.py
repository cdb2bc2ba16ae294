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
