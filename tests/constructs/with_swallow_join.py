"""An if whose then part ends in a with whose body returns, with an else
part: where __exit__ swallows an exception the with goes on to the if's
join.  3.12+ (flowgraph.c push_cold_blocks_to_end) lays that join -- a
while loop's test at the bottom of its body, the code after a try whose
body the if ends -- after the with's handler, so neither branch runs off
into the other: read as an if with no else part, the swallowing way ran
into the else part (loop_then: `with b` ran instead of the loop's test;
try_then 3.12: g() ran after the if).  structure.c
with_goes_on_elsewhere reads the loop's case as if / else and marks the
rest (found by ablate33)."""


def nested_then_return(d, c, a, b):
    if d:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    return 5


def nested_then_return_none(d, c, a, b):
    if d:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p


def nested_then_return_x(d, c, a, b, x):
    if d:
        if c:
            with a as p:
                return p
        else:
            g()
    return x


def loop_then(d, c, a, b):
    while d:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    return 5


def try_then(d, c, a, b):
    try:
        if c:
            with a as p:
                return p
        else:
            g()
    except E:
        pass
    return 5
