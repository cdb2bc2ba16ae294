"""An assert whose test is a false constant always fails: the compiler
drops the test but keeps its constant numbered in co_consts (issue 16:
campaign programs `assert ()` came out `assert False`, False numbered in
its place)."""


def empty_tuple(a):
    if a:
        assert (), "never"
    return a


def false_with_message(a):
    assert False, a


assert ()
unique_name_0


def zero_before_message_loads(x=[]):
    # The dropped 0 is numbered before the constants the message loads
    # (stdlib test_dis bug1333982).
    assert 0, [s for s in x] + 1


def zero_loaded_later(cls, pairs):
    # 3.12+ keep the 0 for its later load, numbered at the assert (stdlib
    # datetimetester test_utc_offset_out_of_bounds).
    for offset, legit in pairs:
        if cls is int:
            t = cls(1, 2)
        else:
            assert 0, "impossible"
        if legit:
            return offset < 0, t


def zero_loaded_before(rawdata, i):
    # The 0 was numbered before: `assert False` would number False
    # (stdlib html.parser HTMLParser.goahead).
    if i < 0:
        return 0
    while i < len(rawdata):
        if rawdata[i] == "<":
            i += 1
        else:
            assert 0, "interesting.search() lied"
    return i
