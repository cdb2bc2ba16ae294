"""A try / except / else in a loop whose else part ends in `break`, the try's join the loop's test after the handlers: 3.12+ lay that test out with the handlers (flowgraph.c push_cold_blocks_to_end), the loop's way out (a with's exit, a finally's copy) right after the else part, and remove_redundant_jumps makes the break a NOP.  Read as falling off, the try went on to the loop's exit as a try without an else part: the break lost, the loop ran on (3.12 / 3.13 LIE at f1768de); normalize/coldjump.c gives the jump back."""


def break_in_else_in_with_loop(self):
    with self.lock:
        while self.go:
            try:
                r = self.h()
            except KeyError:
                self.clear()
            else:
                break
    return r


def break_in_else_in_finally_loop(self):
    try:
        while self.go:
            try:
                r = self.h()
            except KeyError:
                self.clear()
            else:
                break
    finally:
        self.rm()
    return r


def call_then_break_in_else(self):
    with self.lock:
        while self.go:
            try:
                r = self.h()
            except KeyError:
                self.clear()
            else:
                self.z()
                break
    return r


def break_in_else_named_clause(self):
    with self.lock:
        while self.go:
            try:
                r = self.h()
            except KeyError as ex:
                self.clear(ex)
            else:
                break
    return r


def pass_in_else_clause_breaks(self):
    with self.lock:
        while True:
            try:
                r = self.h()
            except KeyError:
                break
            else:
                pass
            self.y()
    return r
