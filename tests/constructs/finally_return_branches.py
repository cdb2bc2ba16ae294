"""`return value` in a try body whose finally body branches: the value
waits on the stack under the copy of the finally body before the return
(each once read as `return ...` with the value lost, or left unrecovered,
on 3.11: test.support's run_with_tz, cattrs' structure factories)."""


# An if / else in the finally body: the copy jumps over its else part on
# the way to the return.
def restore_after_call(func, env, orig):
    try:
        return func()
    finally:
        if orig is None:
            del env["TZ"]
        else:
            env["TZ"] = orig
        env.reset()


# An if ending the finally body: 3.11 gives the then part a copy of the
# RETURN_VALUE of its own, and the test jumps to the one after it.
def drop_when_empty(make, cls, working):
    working.add(cls)
    try:
        return make(cls)
    finally:
        working.remove(cls)
        if not working:
            del make.working


# A return's value waits through a finally body whose loop breaks out of an
# if (anyio to_interpreter.run_sync): the copy's skipped jump over the loop's
# rest leads to the end of the copy, where the return goes on.
async def awaited_return_loop_in_finally(f, idle, worker, limit):
    try:
        return await f(worker.call, limiter=limit)
    finally:
        while idle:
            if idle[0].used <= limit:
                break
            await f(idle.popleft().destroy)
        idle.append(worker)


# A loop in the finally body (multiprocessing.synchronize Condition.wait):
# the value waits under the copy's loop, whose back edge is skipped code
# too; the copy ends at the loop's exit, where the RETURN is.
def return_value_for_in_finally(lock, count, timeout):
    try:
        return lock.acquire(True, timeout)
    finally:
        lock.woken()
        for i in range(count):
            lock.release()


def return_value_while_in_finally(lock, items):
    try:
        return lock.wait()
    finally:
        while items:
            items.pop().close()


def return_value_nested_loops_in_finally(state, groups):
    try:
        return state.run()
    finally:
        for group in groups:
            for item in group:
                if item:
                    break
                item.reset()


# The return in a branch of the body, the loop's copy before it: once
# read as `if x: pass` (the walk did not go on past the copy's back edge).
def return_in_if_loop_in_finally(files, x):
    try:
        if x:
            return files.read(x)
        files.skip()
    finally:
        for f in files:
            f.close()
    return 3


# An if in that loop (test.support force_not_colorized): 3.12+ make its test
# a jump back around a continue, which the copy skips too.
def return_value_loop_if_in_finally(func, variables, environ):
    try:
        return func()
    finally:
        for key, value in variables.items():
            if value is not None:
                environ[key] = value


# Not a return: the code after a try whose body ends normally holds a loop,
# then a try with the same finally body, then a with's exit and the
# implicit return (test_functools test_recursive_pickle).  The walk to a
# RETURN through a copy's loop stays inside a copy of the finally body:
# else the second try's copy was taken for the first's, and marked.
def same_finally_after_loop(f, a, b, c):
    with a:
        try:
            with b:
                pass
        finally:
            f.x()
        try:
            for i in c:
                pass
        finally:
            f.x()
