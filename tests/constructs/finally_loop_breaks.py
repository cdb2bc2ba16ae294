"""Loops in a finally body whose break ends that body: in the handler the
break is a copy of the body's RERAISE (the compiler copies that small exit
block), and the loop's else part runs to the body's end.  On 3.11 the break
of `for ... else: b()` was lost without a mark (its RERAISE read as the end
of the then part); 3.12+ lay the else part that raises after the break's
RERAISE, and the body was cut short there (test.support.threading_helper
wait_threads_exit)."""


def for_else_after_break(items, check, done):
    try:
        check()
    finally:
        for item in items:
            if item.ready():
                break
        else:
            done(items)


def for_else_raises(items, check):
    try:
        check()
    finally:
        for item in items:
            if item.ready():
                break
        else:
            raise TimeoutError(items)


def while_else_raises(items, check):
    try:
        check()
    finally:
        while items:
            if items.pop():
                break
        else:
            raise TimeoutError(items)


def for_else_returns(items, check):
    try:
        check()
    finally:
        for item in items:
            if item.ready():
                break
        else:
            return 5


def wait_for_exit(retries, count, old_count):
    try:
        yield
    finally:
        for _ in retries:
            count.collect()
            if count() <= old_count:
                break
        else:
            raise AssertionError(count() - old_count)


def for_else_in_if(items, check, flag):
    try:
        check()
    finally:
        if flag:
            for item in items:
                if item.ready():
                    break
            else:
                flag.clear()


def for_else_then_code(items, check, done):
    try:
        check()
    finally:
        for item in items:
            if item.ready():
                break
        else:
            done(items)
        done(None)


def while_true_break_in_finally(items, check):
    try:
        check()
    finally:
        while True:
            if items.pop():
                break
