"""An if ending a try body in a loop whose then part is a break (or
continue), laid out past the protected range, while the body's own way
out, after the if, is a loop jump too (the jump to the end of the try,
threaded to the loop's header, or the break of an `else: break`).  Both
ways of the test leave the body by a loop jump; recovery took the
test's way past the then part for the way on, so `if c: break` came out
as `if c: pass` + `break` and the loop ended on the first turn (all
versions; tkinter test_ttk test_widgets test_tab_identifiers, 3.8 / 3.9;
structure.c then_jump_at_body_end).  With a finally body, the jump of
the break follows the copy of that body (skipped), no lone jump: the
then part ran on into the copy, read as the normal way out, which moved
the break after the finally and left the normal copy marked
(subprocess.Popen._wait, 3.8-3.11; structure.c lone_loop_jump).
break_in_finally_if runs the same on 3.10, 3.12 and 3.13 (the return
after the loop printed in place of the break, inside the try)."""


def break_in_try_for(nb):
    for i in range(5, 100, 5):
        try:
            if nb.tab(i) == 'a':
                break
        except E:
            pass
    else:
        fail()


def break_in_try_for_then_code(nb):
    for i in nb:
        try:
            if g(i):
                break
        except E:
            pass
    g(i)
    return i


def break_in_try_for_else_then_code(nb):
    for i in nb:
        try:
            if not g(i):
                break
        except E:
            pass
    else:
        fail()
    g(i)
    return i


def continue_in_try_for_else_break(nb):
    for i in nb:
        try:
            if g(i):
                continue
        except E:
            pass
        else:
            break
    else:
        fail()
    g(i)
    return i


def break_in_finally_if(self):
    while True:
        if self.x:
            self._lock.acquire()
            try:
                pid = self.w()
                if pid == self.pid:
                    self.h(pid)
                    break
            finally:
                self._lock.release()
        rem = self.rem()
        if rem <= 0:
            raise T()
    return 1


def break_in_finally_if_for(q):
    for x in q:
        if x:
            try:
                if g(x):
                    break
            finally:
                h()
        k()
    return 1
