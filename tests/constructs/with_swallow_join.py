"""An if whose then part ends in a with whose body returns, with an else
part: where __exit__ swallows an exception the with goes on to the if's
join.  3.12+ (flowgraph.c push_cold_blocks_to_end) lays that join -- a
while loop's test at the bottom of its body, the code after a try whose
body the if ends -- after the with's handler, so neither branch runs off
into the other: read as an if with no else part, the swallowing way ran
into the else part (loop_then: `with b` ran instead of the loop's test;
try_then 3.12: g() ran after the if).  structure.c
with_goes_on_elsewhere reads the loop's case as if / else and marks the
rest (found by ablate33; the variants below were unmarked lies of main
982ae05 too: try_else_with, try_then_x, loop_true)."""


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


def for_then(xs, c, a, b):
    for d in xs:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    return 5

def loop_else_g(d, c, a, b):
    while d:
        if c:
            with a as p:
                return p
        else:
            g()
    return 5

def loop_true(d, c, a, b):
    while True:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p

def try_else_with(d, c, a, b):
    try:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    except E:
        pass
    return 5

def loop_then_x(d, c, a, b, x):
    while d:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    return x

def try_then_x(d, c, a, b, x):
    try:
        if c:
            with a as p:
                return p
        else:
            g()
    except E:
        pass
    return x

def loop_elif(d, c, e, a, b):
    while d:
        if c:
            with a as p:
                return p
        elif e:
            with b as p:
                return p
        h()
    return 5
