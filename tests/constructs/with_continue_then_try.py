"""A continue in a with's body (under an if) followed by a try in that
body: after the continue's copy of the with's exit and its jump back, the
try's body runs under the try's own handler, nested in the with's
(stdlib test/pickletester.py BigmemPickleTests.test_huge_bytes_64b,
3.12 / 3.13): the with's body ended at the jump, the try was marked
unrecovered, until the loops branch (structure.c goes_on_nested)."""


def continue_in_with_then_try_finally(self, protocols):
    for proto in protocols:
        with self.subTest(proto=proto):
            if proto == 3:
                g()
                continue
            try:
                pickled = 1
            finally:
                pickled = None


def continue_in_with_then_try_except(self, protocols):
    for proto in protocols:
        with self.subTest(proto=proto):
            if proto == 3:
                g()
                continue
            try:
                pickled = 1
            except E:
                pickled = None


def continue_after_nested_with_then_try(self, protocols, a):
    while protocols:
        with self.subTest():
            if protocols.x:
                with a:
                    g()
                continue
            try:
                pickled = 1
            finally:
                pickled = None


def break_in_with_then_with(self, items, a):
    for item in items:
        with self.lock:
            if item:
                break
            with a:
                g(item)
