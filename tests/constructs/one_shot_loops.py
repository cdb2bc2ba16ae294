"""snowballstemmer's one-shot blocks (stop 39, mine39): a `while True:`
whose body ends in `break`, the first way tried in a try whose body
breaks, the fallback after it.  The compiler drops the loop's back edge as
unreachable (3.10+: flowgraph.c mark_reachable / remove_unreachable), so
no loop is left to read, and 3.12+ lay the code after the try, which only
the handler reaches, past the handlers (push_cold_blocks_to_end).  Read
as straight code, the fallback ran after a match too.  Marked where not
read (recover/try.c else_skips_cold_follow, body_skips_cold_follow,
cold_follow_joins_else; stop 40: body_jumps_over_cold_follow, and for
3.8 / 3.9, whose peephole.c keeps the loop's back edge unreachable,
body_leaves_region_over_follow); open_lies_audit37.py has the first
forms."""


class lab0(Exception):
    pass


class lab1(Exception):
    pass


def break_ends_outer_try(s, log):
    # snowballstemmer catalan_stemmer CatalanStemmer._stem
    try:
        while True:
            v = s.pos
            try:
                if not s.a():
                    raise lab1()
                break
            except lab1:
                pass
            s.pos = v
            if not s.b():
                raise lab0()
            break
    except lab0:
        pass
    log.append(s.pos)
    return True


def break_to_shared_tail(s):
    # snowballstemmer english_stemmer EnglishStemmer.__r_mark_regions
    s.p1 = s.limit
    v_1 = s.pos
    try:
        while True:
            v_2 = s.pos
            try:
                if s.find() == 0:
                    raise lab1()
                break
            except lab1:
                pass
            s.pos = v_2
            if not s.out():
                raise lab0()
            s.pos += 1
            break
        s.p1 = s.pos
        if not s.out():
            raise lab0()
        s.pos += 1
    except lab0:
        pass
    s.pos = v_1
    return True


def inner_break_skips_fallback(s):
    # snowballstemmer english_stemmer EnglishStemmer.__r_Step_1b
    v_1 = s.pos
    try:
        if s.var == 1:
            v_2 = s.pos
            try:
                if not s.r1():
                    raise lab1()
                while True:
                    v_3 = s.pos
                    try:
                        if s.find() == 0:
                            raise lab1()
                        break
                    except lab1:
                        pass
                    s.pos = v_3
                    s.slice_from("ee")
                    break
            except lab1:
                pass
            s.pos = v_2
        elif s.var == 2:
            raise lab0()
    except lab0:
        pass
    s.pos = v_1
    return True


def for_loop_one_shot(s, items):
    for item in items:
        try:
            while True:
                try:
                    if not s.a(item):
                        raise lab1()
                    break
                except lab1:
                    pass
                s.b(item)
                break
        except lab0:
            pass
        s.done(item)
    return s


def inner_loop_then_continue(s):
    # snowballstemmer persian_stemmer PersianStemmer.__r_Delete_ZWNJ,
    # serbian_stemmer SerbianStemmer.__r_prelude (3.8 / 3.9: main's output
    # loops forever).  The try body's `break` leaves the unreachable jump
    # over the handlers behind (peephole.c), which blocks.c gives no
    # handler: the outer try's range ended there, the inner loop with it,
    # and the inner loop's tail and the `continue` were read as the outer
    # try's else part (recover/structure.c dead_jump_in_range, stop 40).
    while True:
        v_1 = s.pos
        try:
            while True:
                v_2 = s.pos
                try:
                    if not s.match():
                        raise lab1()
                    s.pos = v_2
                    break
                except lab1:
                    pass
                s.pos = v_2
                if s.pos >= s.limit:
                    raise lab0()
                s.pos += 1
            continue
        except lab0:
            pass
        s.pos = v_1
        break
    return True


def two_tries_share_the_break(s, a, b, c, log):
    # snowballstemmer french_stemmer FrenchStemmer.__r_mark_regions (3.12 /
    # 3.13): the first try's `break` falls into the code after the loop,
    # which the second try's `break` and the fallback's jump back to.
    r = None
    try:
        while True:
            v = s.pos
            try:
                if not a(1):
                    raise lab1()
                s.pos += 1
                break
            except lab1:
                pass
            s.pos = v
            try:
                if b(2) == 0:
                    raise lab1()
                break
            except lab1:
                pass
            s.pos = v
            if c(3):
                raise lab0()
            s.pos += 1
            break
        r = s.pos
    except lab0:
        pass
    log.append(r)
    return True


def branch_try_break(s, k, g, lv, x):
    # snowballstemmer estonian_stemmer EstonianStemmer.__r_case_ending
    # (3.12 / 3.13): the try's `break` jumps to where the if goes on, over
    # the fallback that the handler reaches.
    if k == 1:
        while True:
            try:
                if not g(1):
                    raise lab0()
                break
            except lab0:
                pass
            if not lv():
                return False
            break
    else:
        v = x()
        if v < 4:
            return False
        s.pos = v
    s.delete()
    return True


def elif_branch_try_break(s, k, r1):
    # snowballstemmer polish_stemmer PolishStemmer.__r_remove_endings (3.12
    # / 3.13): the same in an elif branch.
    if k == 1:
        s.a()
    elif k == 3:
        while True:
            try:
                if not r1():
                    raise lab0()
                s.d()
                break
            except lab0:
                pass
            s.f("s")
            break
    elif k == 4:
        s.f("l")
    else:
        s.e()
    s.g()
    return True
