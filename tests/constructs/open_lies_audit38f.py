"""Unmarked lies on 3.8 / 3.9 found by audit38f (stop 34) reading the
functions of the stdlib and the real-world corpus that differ with no mark;
open, listed as UNMARKED LIE in the known lists."""


def try_handlers_then_break(self):
    """tarfile TarFile.next (3.8 / 3.9): the break after the try was
    printed in the first handler only; after a try body that succeeds the
    loop ran on.  Fixed stop 34 (runs the same, printed differently)."""
    while 1:
        try:
            tarinfo = self.tarinfo.fromtarfile(self)
        except EOFHeaderError as e:
                continue
        except InvalidHeaderError as e:
            if self.ignore_zeros:
                self.offset += BLOCKSIZE
                continue
            elif self.offset == 0:
                raise ReadError(str(e))
        except EmptyHeaderError:
            if self.offset == 0:
                raise ReadError("empty file")
        except TruncatedHeaderError as e:
            if self.offset == 0:
                raise ReadError(str(e))
        except SubsequentHeaderError as e:
            raise ReadError(str(e))
        break


def or_chain_test_past_extended_arg(ns, a, b, c, e, g):
    """networkx triadic_census (3.8 / 3.9): `if a or (b < w < c and e):`
    in a function long enough for EXTENDED_ARG jumps prints as `if not a:
    (if b < w < c: if not e: continue) else: BODY`: BODY skipped when a is
    false and the chained part true: peephole.c had threaded the
    comparison's tests to the loop's top, but not its cleanup's
    JUMP_FORWARD (no room for the longer argument).  Fixed stop 35
    (ifends.c)."""
    g(0, 0, 0)
    g(1, 1, 1)
    g(2, 2, 2)
    g(3, 3, 3)
    g(4, 4, 4)
    g(5, 5, 5)
    g(6, 6, 6)
    g(7, 7, 7)
    g(8, 8, 8)
    g(9, 9, 9)
    g(10, 10, 10)
    g(11, 11, 11)
    g(12, 12, 12)
    g(13, 13, 13)
    g(14, 14, 14)
    g(15, 15, 15)
    g(16, 16, 16)
    g(17, 17, 17)
    g(18, 18, 18)
    g(19, 19, 19)
    g(20, 20, 20)
    g(21, 21, 21)
    g(22, 22, 22)
    g(23, 23, 23)
    g(24, 24, 24)
    g(25, 25, 25)
    g(26, 26, 26)
    g(27, 27, 27)
    g(28, 28, 28)
    g(29, 29, 29)
    g(30, 30, 30)
    g(31, 31, 31)
    g(32, 32, 32)
    g(33, 33, 33)
    g(34, 34, 34)
    g(35, 35, 35)
    g(36, 36, 36)
    g(37, 37, 37)
    g(38, 38, 38)
    g(39, 39, 39)
    for w in ns:
        if a or (b < w < c and e):
            g(w)


def or_chain_test_short(ns, a, b, c, e, g):
    """The same in a short function (no EXTENDED_ARG), read right."""
    for w in ns:
        if a or (b < w < c and e):
            g(w)


def chain_and_test_past_extended_arg(ns, b, c, e, g):
    """`if b < w < c and e:` past EXTENDED_ARG."""
    g(0, 0, 0)
    g(1, 1, 1)
    g(2, 2, 2)
    g(3, 3, 3)
    g(4, 4, 4)
    g(5, 5, 5)
    g(6, 6, 6)
    g(7, 7, 7)
    g(8, 8, 8)
    g(9, 9, 9)
    g(10, 10, 10)
    g(11, 11, 11)
    g(12, 12, 12)
    g(13, 13, 13)
    g(14, 14, 14)
    g(15, 15, 15)
    g(16, 16, 16)
    g(17, 17, 17)
    g(18, 18, 18)
    g(19, 19, 19)
    g(20, 20, 20)
    g(21, 21, 21)
    for w in ns:
        if b < w < c and e:
            g(w)


def chain_test_in_while_past_extended_arg(ns, a, b, c, g):
    """`if a or b < w < c:` in a while loop past EXTENDED_ARG."""
    g(0, 0, 0)
    g(1, 1, 1)
    g(2, 2, 2)
    g(3, 3, 3)
    g(4, 4, 4)
    g(5, 5, 5)
    g(6, 6, 6)
    g(7, 7, 7)
    g(8, 8, 8)
    g(9, 9, 9)
    g(10, 10, 10)
    g(11, 11, 11)
    g(12, 12, 12)
    g(13, 13, 13)
    g(14, 14, 14)
    g(15, 15, 15)
    g(16, 16, 16)
    g(17, 17, 17)
    g(18, 18, 18)
    g(19, 19, 19)
    g(20, 20, 20)
    g(21, 21, 21)
    while ns:
        w = ns.pop()
        if a or b < w < c:
            g(w)
        else:
            g(0)


def chain_test_then_code_past_extended_arg(ns, b, c, e, g):
    """`if not b < w < c or e:` with code after the if, past EXTENDED_ARG."""
    g(0, 0, 0)
    g(1, 1, 1)
    g(2, 2, 2)
    g(3, 3, 3)
    g(4, 4, 4)
    g(5, 5, 5)
    g(6, 6, 6)
    g(7, 7, 7)
    g(8, 8, 8)
    g(9, 9, 9)
    g(10, 10, 10)
    g(11, 11, 11)
    g(12, 12, 12)
    g(13, 13, 13)
    g(14, 14, 14)
    g(15, 15, 15)
    g(16, 16, 16)
    g(17, 17, 17)
    g(18, 18, 18)
    g(19, 19, 19)
    g(20, 20, 20)
    g(21, 21, 21)
    for w in ns:
        if not b < w < c or e:
            g(w)
        g(1)


def chain_test_break_in_inner_loop_past_extended_arg(ts, inf, g):
    """`if 0 < abs(dst) <= 10800: break` in an inner for loop past
    EXTENDED_ARG (pytz tzfile.build_tzinfo): the chained comparison's
    cleanup threaded leaves the inner loop's jump back unreachable."""
    g(0, 0, 0)
    g(1, 1, 1)
    g(2, 2, 2)
    g(3, 3, 3)
    g(4, 4, 4)
    g(5, 5, 5)
    g(6, 6, 6)
    g(7, 7, 7)
    g(8, 8, 8)
    g(9, 9, 9)
    g(10, 10, 10)
    g(11, 11, 11)
    g(12, 12, 12)
    g(13, 13, 13)
    g(14, 14, 14)
    g(15, 15, 15)
    g(16, 16, 16)
    g(17, 17, 17)
    g(18, 18, 18)
    g(19, 19, 19)
    g(20, 20, 20)
    g(21, 21, 21)
    for i in ts:
        if inf[1]:
            dst = inf[0]
            if dst <= 0:
                for j in ts:
                    if not j[1]:
                        dst = inf[0] - j[0]
                        if 0 < abs(dst) <= 10800:
                            break
        g(dst)
