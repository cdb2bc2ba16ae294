"""Where a with goes on when __exit__ swallows an exception: an if / else whose then part ends in a with (issue 16; importlib FileLoader.get_data, httpcore _receive_events, 3.12-3.13)."""


# The then part's with returns; its swallowing __exit__ goes on to the end
# of the code, not into the else part.  Without the else, the output ran
# the second with after the first swallowed an exception (unmarked).

def get_data(self, path, a, b):
    if isinstance(self, a):
        with a.open(path) as file:
            return file.read()
    else:
        with b(path, 'r') as file:
            return file.read()


def else_runs_off(c, a, g):
    if c:
        with a:
            return 1
    else:
        g()


def return_after(c, a, b):
    if c:
        with a:
            return 1
    else:
        with b:
            return 2
    return 3


def nested_then_code_after(d, c, a, b, g):
    if d:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    g()


def elif_chain(c, a, b):
    if c:
        c.step()
        with a:
            return 1
    elif b:
        with b:
            return 2
    else:
        return 4


def no_else(c, a, b):
    if c:
        with a:
            return 1
    with b:
        return 2


def with_return_then_code(d, b, g):
    if d:
        with b as p:
            return p
    g()


# At the end of a loop body: 3.13 jumps from the swallowing __exit__
# straight back to the loop (JUMP_BACKWARD) when the with runs off its
# if / else, to a written continue by JUMP_BACKWARD_NO_INTERRUPT.

def if_with_elif_in_loop(events, T, h, k, m):
    for event in events:
        if h(event):
            with T() as trace:
                trace.add(event)
        elif k(event):
            m(event)


def if_with_continue_in_loop(events, T, h, k, m):
    for event in events:
        if h(event):
            with T() as trace:
                trace.add(event)
            continue
        if k(event):
            m(event)


def nested_elif_in_with(self, events, T, g, k, n, q):
    with self.lock:
        if self.a:
            for event in events:
                if g(event):
                    with T() as trace:
                        trace.add(event)
                elif k(event):
                    if event in n:
                        n.append(event)
                elif isinstance(event, q):
                    self.x = event
    self.w()


def while_if_with_else(self, T):
    while self.more():
        if self.a:
            with T():
                self.b()
        else:
            self.c()


# async with: the way on is found past the await of __aenter__.

async def async_if_with_elif_in_loop(events, T, h, k, m):
    for event in events:
        if h(event):
            async with T() as trace:
                trace.add(event)
        elif k(event):
            m(event)


async def async_get_data(c, a, b):
    if c:
        async with a:
            return 1
    else:
        async with b:
            return 2


# trio's _unix_pipes: 3.12+ copy the while test to the end of the body;
# the inner with's swallowing path jumps back to that copy (skipped), and
# the loop's exit is the outer with's exit and return: the skipped test is
# no way out of the inner with's body (it was read as a `return` there).
def while_of_withs_in_with(b, c, d):
    with b:
        while c:
            with d:
                d()


# The if / else ends the then part of an outer if, and a return follows:
# 3.12+ copy that small exit block where the swallowing __exit__ goes on
# (flowgraph.c inline_small_exit_blocks); the copy is the return's, not a
# statement of the else part (structure.c then_with_leaves_region, the one
# construct that takes its copy branch: no corpus measured at stop 33 did).

def nested_then_return_after(d, c, a, b):
    if d:
        if c:
            with a as p:
                return p
        else:
            with b as p:
                return p
    return 5


def nested_then_else_code_return_after(d, c, a, g, x):
    if d:
        if c:
            with a as p:
                return p
        else:
            g()
    return x
