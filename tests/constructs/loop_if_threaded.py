"""Ifs that end a loop body where 3.8-3.9 peephole.c threaded the test through the `else: break` or the loop's jump back, left unreachable: the break was lost and the loop ran on (stdlib ctypes/_aix.py get_ld_headers, sre_parse._parse; found by audit39b)."""


def loop_else_break(p):
    while True:
        h = g(p)
        if h:
            p.append(h)
        else:
            break
    return p

def loop_not_break_end(lit):
    while 1:
        lit = f(lit)
        if not lit:
            break
    return 2

def loop_or_break(src):
    while True:
        this = src()
        if this is None or this == '\n':
            break
    return this

def loop_and_continue(xs, a):
    for x in xs:
        if a and x:
            g(x)
        else:
            continue
        h(x)


def loop_or_break_first_test_threaded(self):
    while True:
        s = self.r(1)
        if not s or s == b'\0':
            break
    return 1


# Shapes the undoing must leave alone (each once came out wrong):
def continue_then_break(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def while_test_then_if_else_break(x, y):
    while x():
        if y():
            a()
        else:
            break
    return 1


def elif_ending_in_try_finally(self):
    if self.code is None:
        t = self.t
        if t == 1:
            self.code = 1
        elif t == 2:
            self.o()
            try:
                self.code = r(self.file)
            finally:
                self.file.close()
        elif t == 3:
            self.code = 3
    return self.code


def break_of_inner_loop_threaded_to_outer(source, char):
    while True:
        c = source.get()
        if c == '(':
            if char == ':':
                group = None
            elif char == '#':
                while True:
                    if source.next is None:
                        raise E()
                    if source.get() == ')':
                        break
                continue
            elif char in '=!':
                h()
            x()


def or_break_of_inner_loop(src):
    while True:
        this = src()
        if this == '#':
            while True:
                this = src()
                if this is None or this == '\n':
                    break
            continue
        y(this)


def inner_while_or_break(adv, tp, v):
    while True:
        tp = adv()
        if tp:
            while tp:
                if tp or v:
                    break
                tp = adv()
        else:
            break
    return 1


def else_break_after_inner_if(code, i, pos, s_in):
    """3.8 / 3.9: the inner if's test goes to the loop's jump back after
    the dead `else: break`; the outer test, threaded through that break to
    the loop's end, was left so and the break was lost: the loop never
    ended (stdlib idlelib pyparse Parser.find_good_parse_start)."""
    while 1:
        m = g(code, i)
        if m:
            s, i = m.span()
            if not s_in(s):
                pos = s
        else:
            break
    return pos


def for_loop_ending_in_break_in_if(ts, xs, p, g):
    """3.8 / 3.9: the inner for loop's body ends in `break`, its jump back
    unreachable; the if's test, which goes past the loop, was taken for the
    test of an if followed by that `break` (ifends.c jump_after_if) and the
    loop was marked."""
    for i in ts:
        if p:
            for j in xs:
                g(j)
                break
        g(i)


def while_loop_ending_in_break_in_if(ts, xs, p, g):
    """The same in a while loop, code after the inner loop."""
    while ts:
        if p:
            for j in xs:
                if g(j):
                    continue
                break
            g(0)
        ts.pop()
