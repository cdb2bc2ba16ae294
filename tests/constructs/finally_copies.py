"""Finally bodies whose copy on the normal way out of the try the reader once failed to find, marking the code after the try "could not recover" though the output was equivalent (issue 16's false alarms: runpy, click's _termui_impl, test_subprocess)."""


# The finally body holds a try: the copy before the return runs under the
# copy's own handler, so the RETURN is a block of its own (and 3.11 lays
# that handler out right after it); the body goes on after them.
def return_in_if_before_finally_with_try(p, g, h):
    try:
        if p:
            return g(p)
    finally:
        try:
            h(p)
        except ValueError:
            pass


# runpy.run_path: the with's suppress path goes on to the normal copy of
# the finally body.
def return_in_withs_before_finally_with_try(p, A, B, g, h):
    try:
        with A() as t, B(p):
            return g(t)
    finally:
        try:
            h(p)
        except ValueError:
            pass


# test_subprocess: a for loop in the handler of a try in the finally body;
# the copy's handler (and the loop in it) is the copy's.
def loop_in_handler_of_try_in_finally(s, h):
    try:
        s.a()
    finally:
        try:
            s.t()
        finally:
            for fd in s:
                h(fd)


# test_subprocess: a comprehension before a try in the finally body; 3.12+
# inline it, and its cleanup handler, which the copy lays out after all
# code, is jumped over in the handler's copy: the loop's exit lands on
# that jump there.
def comprehension_before_try_in_finally(s, g, h):
    try:
        s.a()
    finally:
        d = [g(i) for i in s]
        try:
            s.t()
        finally:
            h()


def finally_loop_try_else_break(c):
    # 3.12+ lay the end of the finally body right after the inner try's
    # body, in place of the jump of the break (the final return, copied,
    # on the normal way out; the RERAISE on the exceptional one): the else
    # part was dropped, unmarked, and the loop never ended (finally17).
    try:
        c.a()
    finally:
        while True:
            try:
                c.wait()
            except KeyboardInterrupt:
                pass
            else:
                break


def finally_loop_try_else_break_then_code(c):
    try:
        c.a()
    finally:
        while True:
            try:
                c.wait()
            except KeyboardInterrupt:
                c.tick()
            else:
                break
    c.b()


def finally_loop_if_try_else_break(c, d):
    try:
        c.a()
    finally:
        while d:
            if c.ready():
                try:
                    c.wait()
                except OSError:
                    continue
                else:
                    break
            c.tick()
    return d


def finally_body_repeated_after_if_in_try(x):
    # 3.11: the last statement of the body, the same code as the finally
    # body, under the except's handler and before the jump to the finally's
    # normal copy, was read as that copy and dropped (lie17's campaign,
    # seed 11 program 1091, there after a match).
    try:
        try:
            if x:
                g()
            a()
        except E:
            pass
    finally:
        a()



# click _termui_impl: a finally body of a try then a `while True:` loop
# whose try leaves by its else's break.  3.12+ leaves the inner try's
# handlers in place inside the finally's handler, so the loop's header
# follows them there; its `while True:` NOP is no else's `pass`.
def finally_try_then_retry_loop(c, stdin):
    try:
        c.a()
    finally:
        try:
            stdin.close()
        except BrokenPipeError:
            pass
        while True:
            try:
                c.wait()
            except KeyboardInterrupt:
                pass
            else:
                break


def generator_finally_try_then_retry_loop(c, stdin):
    try:
        yield stdin
    except BrokenPipeError:
        pass
    except Exception as e:
        c.terminate()
        raise e
    finally:
        try:
            stdin.close()
        except BrokenPipeError:
            pass
        while True:
            try:
                c.wait()
            except KeyboardInterrupt:
                pass
            else:
                break


# dbm.whichdb: the try body ends in `if c: return x`, laid out (copy of
# the finally body, RETURN) before the branch that goes on to the normal
# copy; the RETURN is the body's, not code after the try.
def return_in_last_if_then_code_after(os, io, filename, g):
    try:
        os.stat(filename + b".dat")
        f = io.open(filename + b".dir", "rb")
        try:
            if f.read(1) in (b"'", b'"'):
                return "dbm.dumb"
        finally:
            f.close()
    except OSError:
        pass
    return g()


def return_in_last_if_no_outer_try(f, c, g):
    try:
        if c(f):
            return 1
    finally:
        f.close()
    return g()


# asyncio _ProactorDatagramTransport._loop_reading: a bare `return` in the
# body before a finally body that ends early in an if; the copy's branch
# jumps to a copy of the return (LOAD_CONST; RETURN), not to its end.
def bare_return_before_finally_if(self, data):
    try:
        if self.a:
            return
        self.b()
    finally:
        if data:
            g(data)


# The same return inside a try / except in the body: the if whose then
# part holds it falls into the code after it, which the except clause
# (3.12+ lays it out after the code) jumps back past: no else part.
def bare_return_in_try_except_before_finally(self, fut, data):
    try:
        try:
            if fut is not None:
                if self.c:
                    return
                data = 1
            self.r = 2
        except OSError:
            self.p()
    finally:
        self.d(data)


def bare_return_in_try_except_before_finally_if(self, fut, data):
    try:
        try:
            if fut is not None:
                if self.c:
                    data = None
                    return
                data, addr = fut.result()
            self.r = self.recv()
        except OSError as exc:
            self.p(exc)
        else:
            if self.r is not None:
                self.r.add(self.f)
    finally:
        if data:
            self.d(data, addr)


# anyio CancelScope.__exit__: the then part of an if in the body ends in
# returns (each a copy of the finally body, then the constant's RETURN,
# with no line mark: the line before is the copy's), and the else part
# goes on in the body after them under the finally's handler.
def returns_then_else_in_finally_body(self, exc_val, remaining):
    try:
        self.a = 1
        if self.c:
            if isinstance(exc_val, G):
                if remaining is None:
                    return True
                context = remaining.ctx
                try:
                    raise remaining
                finally:
                    remaining.ctx = context
                    del context
            else:
                if isinstance(exc_val, C):
                    self.cc = True
                    return True
                else:
                    return False
        else:
            if self.p:
                self.p = 0
            return False
    finally:
        self.h = None


# fileinput.FileInput.nextfile (3.12+): the code after a try that ends an
# if in the finally body is a small exit block in the handler (it ends in
# the RERAISE): the compiler copies it into the try body's jump over its
# handlers and into the clause's way out, while the copy on the normal
# way out lacks those handlers and goes on into that code.
def try_in_if_ending_finally_body(a, c, u, d):
    try:
        a()
    finally:
        if c:
            try:
                u()
            except OSError:
                pass
        d = False


# fileinput.FileInput.nextfile (3.13): in the outer finally's handler, the
# inner finally body's tail after a try (`s.x = 1`, then RERAISE 0) is
# copied into the try body's jump in the inner handler copy, but joined by
# jumps in the normal copy (whose tail took in the outer RERAISE first).
def finally_tail_after_try_in_finally_handler(s, a, b, e):
    try:
        a()
    finally:
        try:
            b()
        finally:
            try:
                e()
            except OSError:
                pass
            s.x = 1
    return s


# The same with the try in an if: the handler copy's tail copies are in
# the body's jump and at the end of the except clause; the normal copy's
# handlers jump to its tail.
def finally_tail_after_if_try_in_finally_handler(s, a, b, c, e):
    try:
        if a:
            a()
    finally:
        try:
            if b and not s.i:
                b()
        finally:
            if c and not s.k:
                try:
                    e(c)
                except OSError:
                    pass
            s.i = False
