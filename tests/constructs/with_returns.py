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
