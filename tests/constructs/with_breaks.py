"""A break ending the body of a with in a `while True:` whose code after
the loop 3.12+ moved in place of that break, after the copy of the with's
exit (stdlib test_with testWithBreak): the body's way out was marked, not
recovered, until regions16 (structure.c way_out_in_body)."""


def with_break(self, cm):
    counter = 0
    while True:
        counter += 1
        with cm():
            counter += 10
            break
        counter += 100
    self.assertEqual(counter, 11)


def with_only_break(cm, g):
    while True:
        g(0)
        with cm() as f:
            break
    g(f)
