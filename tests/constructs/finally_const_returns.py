"""`return CONST` ending a try body with a finally body: the compiler runs
the finally body first and loads the constant after its copy, with no line
of its own, so the return was read after the try (pygments' main_inner,
issue 16)."""


def simple(outfn, outfile):
    try:
        outfile.write(outfn)
        return 0
    finally:
        if outfn:
            outfile.close()


def after_try(outfn, outfile):
    try:
        outfile.write(outfn)
    finally:
        if outfn:
            outfile.close()
    return 0


def after_pass(outfn, outfile):
    try:
        outfile.write(outfn)
        pass
    finally:
        outfile.close()
    return 0


def in_branch(x, out):
    if x:
        try:
            out.a()
            return 'x'
        finally:
            if x > 1:
                out.b()
    else:
        out.c()
    return 0


def in_loop(xs, out):
    for x in xs:
        try:
            out.a(x)
            return 1
        finally:
            out.b()
    return 0


def in_with(x, out):
    with x:
        try:
            out.a()
            return 2
        finally:
            out.b()


def after_try_in_with(x, out):
    with x:
        try:
            out.a()
        finally:
            out.b()
        return 2


async def after_try_break_in_finally(self, fut):
    # asyncio Semaphore.acquire (3.13): the break in the finally body's
    # loop is a copy of the return after the try, on its line.
    try:
        await fut
    finally:
        while self.value > 0:
            if not self.wake():
                break
    return True
