"""Module and class bodies whose only annotation is in code that never runs."""
# compile.c find_ann looks for an annotated assignment in dead code too, and
# the body sets up __annotations__ (SETUP_ANNOTATIONS) for it: the output
# keeps one there, or the recompiled module would have no __annotations__.


class OnlyDeadAnnotation:
    x = 1
    if False:
        _: False


def make_class():
    class Local:
        if False:
            _: False
    return Local


if False:
    _: False
