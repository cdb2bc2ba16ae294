"""A loop inside two nested withs whose break leaves a try body, with code
after the loop inside the withs.

3.8 / 3.9 (compile.c compiler_try_except) follow a try body that ends in a
break with its dead `POP_BLOCK; JUMP_ABSOLUTE loop`.  normalize/blocks.c took
that POP_BLOCK for the dead normal exit of the inner with and gave the jump
the block around that with: the outer with's handler.  The jump then split
the inner with's body, whose code after the loop was marked as held by no
statement (a false alarm: stdlib test_io _test_nonblock_pipe_write, stop
41).  A POP_BLOCK followed by a jump is the try's, and its jump stays in the
inner with.
"""


def while_true_break_in_try(a, b, g, h):
    with a, b:
        while True:
            try:
                g()
                break
            except OSError:
                h()
        h()
    return 1


def for_break_in_try(a, b, xs, g, h):
    with a, b:
        for x in xs:
            try:
                g(x)
                break
            except OSError:
                h(x)
        h(None)
    return 1


def while_true_else_break(a, b, g, h):
    with a:
        with b:
            while True:
                try:
                    g()
                except OSError:
                    h()
                else:
                    break
            h()
    return 1


def break_in_try_in_finally_in_with(a, b, g, h):
    with a:
        try:
            with b:
                for x in g():
                    try:
                        h(x)
                        break
                    except ValueError:
                        continue
                h(0)
        finally:
            h(1)
    return 2
