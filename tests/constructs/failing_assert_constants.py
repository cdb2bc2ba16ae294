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
