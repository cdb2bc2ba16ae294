"""`while 1:` whose body loads the constant 1 too: 3.10 and 3.11 keep True
in co_consts for every `while True:`, so its absence says the test was 1."""


def selective_find(text, char, index, pos):
    length = len(text)
    while 1:
        pos += 1
        if pos == length:
            return (-1, -1)
        if text[pos] == char:
            return index + 1, pos
        index += 1


def endless_true(queue):
    while True:
        item = queue.get(1)
        if item is None:
            return 1
        queue.put(item)


def true_then_keyword_splat_call(self, kwargs, retries_left):
    # 3.12+: the () of connect(**kwargs) is numbered after all other
    # constants, yet tells nothing of where the loop numbered its test
    # (real-world httpcore HTTPConnection._connect).
    while True:
        stream = self.connect(**kwargs)
        if stream:
            return stream.decode("ascii")
        retries_left -= 1


def one_then_true(readline):
    # 3.11 keeps both tests numbered, each in its loop's slot: the first
    # loop's is 1, though an unused True is there too (stdlib
    # encodings.uu_codec.uu_decode).
    while 1:
        s = readline()
        if not s:
            raise ValueError("missing")
        if s[:5] == b"begin":
            break
    while True:
        s = readline()
        if not s:
            break
    return s


def one_numbered_before(console, flags=1):
    # 3.12+: True is numbered where the code loads it, after the loop's
    # slot: the test was the 1 numbered before (stdlib
    # _pyrepl.simple_interact.run_multiline_interactive_console).
    console.start(1)
    while 1:
        line = console.read("ps1")
        if not line:
            break
        console.push(line, more=True)


# test_events create_server_dual_stack: the 1 of `n += 1` in a handler
# that 3.12+ lay out last, after the code after the loop, whose constants
# are numbered after it: not the test of a `while 1:`.
def while_true_one_in_cold_handler(a, b):
    n = 0
    while True:
        try:
            a(host=None, port=b)
        except OSError:
            n += 1
            b(5, n)
            continue
        break
    a(('127.0.0.1', n))
    return n


# The same with `while 1:`: its 1 is numbered before the try body's.
def while_one_with_one_in_cold_handler(a, b):
    while 1:
        try:
            a('s')
        except OSError:
            b(1)
            continue
        break
    return 's2'
