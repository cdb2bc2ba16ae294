"""A return ending the then part of an if at the end of a with body: kept, not an else part (issue 16; trio send_all, rich Live.start)."""


def f(self, data):
    with self.guard:
        if self.closed:
            raise ValueError
        if not data:
            self.a()
            return
        self.b(data)


def g(self, data):
    with self.guard:
        if not data:
            self.a()
        else:
            self.b(data)


async def h(self, data):
    async with self.guard:
        if not data:
            self.a()
            return
        self.b(data)


def k(self, data):
    with self.guard:
        if not data:
            return
        self.b(data)
    self.c()


# A written return in nested withs: the line it leaves (a NOP) comes
# before the exits of all of them, the innermost first (trio's
# SocketStream.send_all; without it the with's own exit runs into a copy
# of the implicit return).
async def send_all(self, data):
    with self.lock:
        with memoryview(data) as view:
            if not view:
                await self.checkpoint()
                return
            total = 0
            while total < len(view):
                total += await self.send(view[total:])


# rich Live.stop: the then part ends in an if, whose branches join at the
# return's line before its copy of the with's exit (a block with two ways
# in); `if c: A` / `else: B` would jump from A to the with's own exit.
def joined_return(self):
    with self.lock:
        if self.nested:
            if not self.transient:
                self.a()
            return
        self.b()


def joined_else(self):
    with self.lock:
        if self.nested:
            if not self.transient:
                self.a()
        else:
            self.b()



# tqdm cli main: the implicit return after a with that ends a branch of a
# final if.  3.11 lays the code after the with out past its handler, so
# the with's exit jumps to that copy of the return, which takes the jump's
# line: no written return (one would have a line of its own).
def with_loop_in_branch(d, update, stdin):
    if d:
        d.a()
    elif update:
        if update > 1:
            with d.lock as t:
                for i in stdin:
                    t.write(i)
        else:
            for i in stdin:
                d.write(i)
    else:
        d.b()


def written_return_after_with(d, stdin):
    if d:
        with d.lock:
            for i in stdin:
                d.write(i)
        return
    else:
        d.b()
