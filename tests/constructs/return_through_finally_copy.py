"""Tests of `if c: ...; return K` ending the body of a try that has
handlers and a finally (stop 37, open_lies_audit36's
if_return_ending_try_body_with_finally and
if_return_ending_try_body_with_try_in_finally, from gunicorn
workers/gthread.ThreadWorker.handle_request).

The return unwinds the try's blocks and runs a copy of the finally body
before it loads the constant (compile.c compiler_unwind_fblock; 3.8 calls
the body, CALL_FINALLY).  3.11+ keep a NOP on the return's line before the
copy, which marks the copy and the return as the body's; 3.8-3.10 have
only the POP_BLOCKs on that line, and with no mark the return was read as
code after the body: `if c: f()` and `else: return K` on the try, K
returned also where c is false.  A finally body that is itself a try
splits its copy from the return (3.10+: the copy's try runs under its own
handler, laid out after the return), and the return block, two
instructions, was not read as the copy's: the same lie on 3.10-3.13."""


def if_return_false_with_finally(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return False
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


def if_return_false_with_try_in_finally(work, done, log):
    """3.8 / 3.9 mark it: their copy's try jumps over its handlers to
    the return."""
    try:
        work()
        if done():
            log("closing")
            return False
    except OSError:
        log("oserror")
    finally:
        try:
            log("post")
        except Exception:
            log("post failed")
    return True


def if_else_return_with_finally(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return False
        else:
            log("open")
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


def if_return_name_with_finally(work, done, log):
    result = None
    try:
        result = work()
        if done():
            log("closing")
            return result
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


def if_return_call_with_finally(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return log("returned")
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


def if_return_name_with_try_in_finally(work, done, log):
    result = None
    try:
        result = work()
        if done():
            return result
    except OSError:
        log("oserror")
    finally:
        try:
            log("post")
        except Exception:
            log("post failed")
    return True


def if_return_in_loop_with_finally(items, done, log):
    for item in items:
        try:
            log(item)
            if done(item):
                log("closing")
                return False
        except OSError:
            log("oserror")
        finally:
            log("post")
    return True


def if_return_in_loop_with_try_in_finally(items, done, log):
    for item in items:
        try:
            log(item)
            if done(item):
                return False
        except OSError:
            log("oserror")
        finally:
            try:
                log("post")
            except Exception:
                log("post failed")
    return True


def if_return_none_with_finally_no_handler(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return
    finally:
        log("post")
    log("after")


def if_return_false_with_finally_then_more(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return False
        log("more")
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


def if_return_false_in_with_in_try_finally(ctx, done, log):
    try:
        with ctx:
            if done():
                log("closing")
                return False
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


def try_finally_ending_in_pass(work, log):
    try:
        work()
        pass
    finally:
        log("post")


def try_finally_with_try_ending_function(work, log):
    try:
        work()
    finally:
        try:
            log("post")
        except Exception:
            log("post failed")


def if_return_then_return_with_finally(self, sel, timeout):
    """gunicorn gthread.TConn.wait_for_data.  3.10 reads the last return
    as the try's else part (`else: return False`), which runs the same;
    3.8-3.10 marked it before (3.8 / 3.9 equivalent now)."""
    try:
        events = sel.select(timeout=timeout)
        if events:
            self.data_ready = True
            return True
        return False
    except (OSError, ValueError):
        return False
    finally:
        sel.close()
