"""Unmarked lies still open, found by audit32 (stop 32), listed as UNMARKED LIE where they lie so that the suite counts them and a fix shows as FIXED.

while_ending_try_body, 3.8 / 3.9: `while True: try: (while c < n: ...) / except StopIteration: ... / yield ...`: the inner while's exit, the try body's way out (POP_BLOCK; JUMP after the try), prints as nothing: `while 1: if c < n: ...; continue`, an endless inner loop (real world jinja2 TemplateStream._buffered_generator)."""


def while_ending_try_body(gen, size):
    buf = []
    c_size = 0
    push = buf.append
    while True:
        try:
            while c_size < size:
                c = next(gen)
                push(c)
                if c:
                    c_size += 1
        except StopIteration:
            if not c_size:
                return
        yield ''.join(buf)
        del buf[:]
        c_size = 0

