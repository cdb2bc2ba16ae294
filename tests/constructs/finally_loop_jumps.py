"""A continue (or a break that returns) in a try body with a finally, in a
loop: the compiler copies the finally body in front of the jump, in a block
the protected range leaves out, and the body goes on after it.  The try
body ended at that block, and the rest of the body was left unrecovered
(marked).  A `while True:` whose last break is a copy of the return (or
a jump past the loop) ends after the try's code, not at the last jump back
of the continue: read so, the try was split in two and its finally body
ran twice (a lie; stdlib multiprocessing/shared_memory.py
SharedMemory.__init__)."""


def continue_in_finally(items, g, x, c, y):
    for a in items:
        try:
            if g(a):
                continue
            x(a)
        finally:
            c()
        y()


def while_continue_in_finally(a, g, x, c, y):
    while a:
        try:
            if g():
                continue
            x()
        finally:
            c()
        y()


def break_to_return_in_finally(items, z, g, x, c):
    for a in items:
        try:
            z()
            if g(a):
                break
            x(a)
        finally:
            c()


def while_true_try_continue(self, g, mmap, close):
    while True:
        h = g()
        try:
            if self.exists(h):
                continue
            self.m = mmap(h)
        finally:
            close(h)
        self.name = h
        break
    self.done()


def while_true_try_break_returns(self, name, g, err, close):
    while True:
        h = g()
        try:
            if err() == 1:
                if name is not None:
                    raise FileExistsError(name)
                else:
                    continue
            self.m = h
        finally:
            close(h)
        self.name = h
        break
