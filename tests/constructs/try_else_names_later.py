"""A try in a loop whose handler goes back to the loop, with an else part
(3.12+: the else part and the code after the try compile to the same
code, told apart by the order of co_names).  A name the else part uses
that code compiled after the whole try uses too still tells: code after
the loop, or a handler of a later try (laid out cold, after all other
code, yet compiled after the try)."""


def used_after_loop(self, items):
    for x in items:
        try:
            g()
        except E:
            pass
        else:
            self.fail()
    self.fail


def used_in_later_handler(self, items):
    for x in items:
        try:
            g()
        except TypeError:
            pass
        else:
            self.fail()
    try:
        h()
    except TypeError:
        self.fail()
