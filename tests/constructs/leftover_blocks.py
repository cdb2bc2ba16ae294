"""Shapes the structuring once misread, leaving basic blocks no recovered statement held (marked "could not recover").

A `pass` on the line of its test is written so on purpose: its jump shares
the test's line, and the test's targets are threaded through it."""


def chain_pass_else(self, a, b, c):
    if a < b < c: pass
    else:
        self.fail('a < b < c')
    self.x()


def chains_and_pass_else(self, a, b, c, d):
    if a == 1 == b and c == -1 == d: pass
    else:
        self.fail('round')
    self.x()


def chain_pass_else_twice(self, a, b):
    if 0 < a <= b: pass
    else:
        self.fail('first')
    if a is None: pass
    else:
        self.fail('second')
