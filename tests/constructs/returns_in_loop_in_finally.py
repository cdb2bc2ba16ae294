"""Returns of different values in a loop inside a try / finally (or a with).

Each return leaves through a copy of the finally body (compile.c
compiler_unwind_fblock; 3.12+ the exit copies of flowgraph.c), on the
finally body's lines, after all the loop's: in a `while True:` loop each
looks like the code after the loop moved in place of a break (structure.c
is_moved_exit), and the second such return overwrote the first, so
`return True` printed `break` to the `return False` after the loop
(holdout 11 kazoo Semaphore._inner_acquire, audit44: a granted lease
reported refused; 3.10, 3.12, 3.13).  Of two different codes that each
look moved only the first is read so (may_be_moved_exit).  Each function
here runs the same from the source and from the output on every version
(or is marked).
"""


def return_true_false_in_loop_in_finally(leases, blocking, log):
    """kazoo Semaphore._inner_acquire (3.10, 3.12, 3.13 until stop 44):
    `return True` and `return False` in a while True loop in a try /
    finally were printed as two `break`s and one `return False` after the
    loop.  return_true_false_in_loop_in_finally([True], True, []): True
    from the source, False from the output."""
    it = iter(leases)
    try:
        while True:
            if next(it):
                return True
            if blocking:
                log.append("wait")
            else:
                return False
    finally:
        log.append("release")


def return_names_in_loop_in_finally(items, log):
    """`return a` / `return b` (names, not constants) in a while True loop
    in a try / finally."""
    it = iter(items)
    a, b = "yes", "no"
    try:
        while True:
            x = next(it)
            if x > 0:
                return a
            if x < 0:
                return b
            log.append(x)
    finally:
        log.append("release")


def three_returns_in_loop_in_finally(items, log):
    """Three different constants returned from a while True loop in a try
    / finally."""
    it = iter(items)
    try:
        while True:
            x = next(it)
            if x == 1:
                return "one"
            if x == 2:
                return "two"
            if x == 3:
                return "three"
            log.append(x)
    finally:
        log.append("release")


def return_and_break_in_loop_in_finally(items, log):
    """`return True` and a `break` to `return False` after the loop, in a
    try / finally."""
    it = iter(items)
    try:
        while True:
            x = next(it)
            if x:
                return True
            if x is None:
                break
            log.append(x)
        return False
    finally:
        log.append("release")


def returns_then_code_after_loop_in_finally(items, log):
    """Two returns in a while True loop that also breaks to code after it,
    in a try / finally."""
    it = iter(items)
    try:
        while True:
            x = next(it)
            if x == 1:
                return True
            if x == 2:
                return False
            if x == 3:
                break
            log.append(x)
        log.append("after")
    finally:
        log.append("release")
    return None


def returns_in_while_test_loop_in_finally(items, log):
    """`return True` / `return False` in a `while items:` loop in a try /
    finally, `return None` after the loop."""
    try:
        while items:
            x = items.pop()
            if x:
                return True
            if x is None:
                return False
            log.append(x)
        return None
    finally:
        log.append("release")


def returns_in_for_loop_in_finally(items, log):
    """`return True` / `return False` in a for loop in a try / finally."""
    try:
        for x in items:
            if x:
                return True
            if x is None:
                return False
            log.append(x)
    finally:
        log.append("release")


def returns_in_for_else_in_finally(items, log):
    """`return True` in a for loop and `return False` in its else part, in
    a try / finally."""
    try:
        for x in items:
            if x:
                return True
            log.append(x)
        else:
            return False
    finally:
        log.append("release")


def returns_in_nested_loop_in_finally(rows, log):
    """`return True` / `return False` in a while True loop nested in a for
    loop, in a try / finally."""
    try:
        for row in rows:
            it = iter(row)
            while True:
                x = next(it, None)
                if x is None:
                    break
                if x > 0:
                    return True
                if x < 0:
                    return False
            log.append("row")
    finally:
        log.append("release")


def returns_in_loop_in_try_except_finally(items, log):
    """`return True` / `return False` in a while True loop in a try with an
    except clause and a finally body."""
    it = iter(items)
    try:
        while True:
            x = next(it)
            if x:
                return True
            if x is None:
                return False
            log.append(x)
    except StopIteration:
        log.append("stop")
    finally:
        log.append("release")


def returns_in_loop_in_with(items, log):
    """`return True` / `return False` in a while True loop in a with (the
    with's exit copied into each return)."""
    it = iter(items)
    with Guard(log):
        while True:
            x = next(it)
            if x:
                return True
            if x is None:
                return False
            log.append(x)


def returns_in_loop_in_finally_in_loop(batches, log):
    """`return True` / `return False` in a while True loop in a try /
    finally in a for loop."""
    for batch in batches:
        it = iter(batch)
        try:
            while True:
                x = next(it)
                if x:
                    return True
                if x is None:
                    return False
                log.append(x)
        except StopIteration:
            log.append("next batch")
        finally:
            log.append("release")
    return None


class Guard:
    """A context manager that logs its exit (for returns_in_loop_in_with)."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.log.append("exit")
        return False
