"""Tests of and / or networks at the end of a try body and of a finally
body (stop 36, open_lies_audit35's return_in_try_body_if and
or_of_and_in_finally_of_loop).

3.11 lays the constant `return` of a try body's last if after the
protected range (compile.c compiler_unwind_fblock pops the try's block
before it loads the constant); with an `or`, two tests jump into it, and
read as code after the body it made `if a or b: pass` and `else: return
True` on the try.  3.10+ copy the RERAISE ending a finally body in its
handler into each jump to it (duplicate_exits_without_lineno); the two
failing tests of `a or (b and c)` then went to two copies, the network
was read as nested ifs, and on 3.12 / 3.13 the jump of c into the body
was lost: `if not a: (if b: if c: pass) else: BODY`."""


def return_or_ending_try_body(u, v, exists, warn):
    """3.11: `if a or b: pass` and `else: return True` on the try before:
    True returned where the source returns None."""
    try:
        if exists(u) or exists(v):
            return True
    except UnicodeEncodeError:
        warn(u)


def return_or_of_three_ending_try_body(u, v, exists, warn):
    try:
        warn(v)
        if exists(u) or exists(v) or exists(u + v):
            return False
    except UnicodeEncodeError:
        warn(u)
    return 5


def bare_return_or_ending_try_body_with_else(u, v, exists, warn):
    """3.11: marked before (the else part was read as code after the
    try)."""
    try:
        if exists(u) or exists(v):
            return
    except UnicodeEncodeError:
        warn(u)
    else:
        warn(v)


def return_or_ending_try_body_in_for_with_else(u, v, exists, warn):
    """3.11: marked before."""
    for x in u:
        try:
            if exists(x) or exists(v):
                return True
        except UnicodeEncodeError:
            warn(x)
        else:
            warn(v)


def break_and_ending_try_body_with_else_return(c, p, q):
    while c():
        try:
            if p() and q():
                break
        except ValueError:
            pass
        else:
            return True


def break_or_ending_try_body_with_else_return(c, p, q):
    """3.11: marked before."""
    while c():
        try:
            if p() or q():
                break
        except ValueError:
            pass
        else:
            return True


def or_of_and_ending_finally(self):
    """3.12 / 3.13: `if not a: (if b: if c: pass) else: BODY` before."""
    try:
        self.dispatch()
    finally:
        now = self.time()
        if self.empty() or (self.max_idle is not None and now > self.max_idle):
            self.last = now


def or_of_and_ending_finally_in_loop(self):
    """3.12 / 3.13: as above before."""
    while not self.closed:
        try:
            self.dispatch()
        finally:
            now = self.time()
            if self.empty() or (self.max_idle is not None and now > self.max_idle):
                self.last = now


def or_of_and_in_finally_of_loop_handler_breaks(self):
    """3.12 / 3.13: nested ifs with `pass` before, as above; 3.8 / 3.9:
    marked (the break of the handler inside try / finally in a loop)."""
    while not self.closed:
        try:
            self.dispatch()
        except Exception:
            break
        finally:
            if self.empty() or (self.max_idle is not None and self.now > self.max_idle):
                self.last = 1


def or_in_finally_of_loop_handler_breaks(self):
    """3.8 / 3.9: marked, as above."""
    while not self.closed:
        try:
            self.dispatch()
        except Exception:
            break
        finally:
            if self.empty() or self.now:
                self.last = 1


def and_in_finally_of_loop_handler_breaks(self):
    """3.8 / 3.9: marked, as above; 3.12 / 3.13 printed nested ifs before
    (the same code)."""
    while not self.closed:
        try:
            self.dispatch()
        except Exception:
            break
        finally:
            if self.empty() and self.now:
                self.last = 1


def or_of_and_then_call_in_finally(self):
    """3.8 / 3.9: marked, as above."""
    while not self.closed:
        try:
            self.dispatch()
        except Exception:
            break
        finally:
            if self.empty() or (self.a and self.b):
                self.last = 1
            self.f()


def or_of_and_in_finally_of_for_handler_returns(self):
    """3.12 / 3.13: marked (the return of the handler inside try /
    finally in a for loop)."""
    for x in self.items:
        try:
            self.dispatch(x)
        except Exception:
            return 3
        finally:
            if self.empty() or (self.a and self.b):
                self.last = 1


def or_of_and_in_finally_handler_returns(self):
    """3.12 / 3.13: nested ifs with `pass` before."""
    try:
        self.dispatch()
    except Exception:
        return
    finally:
        if self.empty() or (self.a and self.b):
            self.last = 1


def or_of_and_with_else_in_finally(self):
    while not self.closed:
        try:
            self.dispatch()
        finally:
            if self.empty() or (self.a and self.b):
                self.last = 1
            else:
                self.last = 2


def and_or_ending_finally(self):
    while not self.closed:
        try:
            self.dispatch()
        finally:
            if (self.a and self.b) or self.empty():
                self.last = 1


def or_of_and_raise_ending_finally(self):
    """3.12 / 3.13: `if not a: (if b: if c: pass) else: raise` before."""
    try:
        self.dispatch()
    finally:
        if self.empty() or (self.a and self.b):
            raise ValueError


def or_of_and_reraise_ending_handler(self):
    try:
        self.dispatch()
    except ValueError:
        if self.empty() or (self.a and self.b):
            raise
