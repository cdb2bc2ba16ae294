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
