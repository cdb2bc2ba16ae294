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


def while_true_in_while_true(a, b, c):
    while True:
        while True:
            if a:
                a -= 1
            else:
                break
        if not b:
            break
        c()
    return a


def while_true_thrice(a, b, c):
    while True:
        while True:
            while True:
                if a():
                    break
            if b():
                break
        if c():
            break
    return a


def while_true_in_while_true_continue(a, b, c):
    while True:
        while True:
            if a():
                continue
            if b():
                break
        if c():
            continue
        a()


def continue_in_with_in_try_in_for(y, a, c, d):
    for x in y:
        try:
            with a:
                if c:
                    continue
                d()
        except OSError:
            pass


def continue_in_with_in_try_finally(y, a, c, d):
    for x in y:
        try:
            with a:
                if c:
                    continue
                d()
        finally:
            pass


def continue_in_with_in_try_then_code(y, a, c, d):
    for x in y:
        try:
            with a:
                if c:
                    continue
                d()
        except OSError:
            pass
        d()


def break_in_with_in_try_in_for(y, a, c, d):
    for x in y:
        try:
            with a:
                if c:
                    break
                d()
        except OSError:
            pass


def break_in_with_in_for(y, a, c, d):
    for x in y:
        with a:
            if c:
                break
            d()


def while_true_ending_in_break_in_for(refs, target):
    for ref in refs:
        while True:
            if target.a:
                break
            if not target.b:
                target = target.c
                continue
            ref.x()
            break


def while_true_ending_in_break_in_for_then_code(refs, target):
    for ref in refs:
        target.y()
        while True:
            if target.a:
                ref.z()
                break
            if target.b:
                continue
            ref.x()
            break
    return target
