"""Code the structurer once left over after the statement that owns it,
marked "could not recover" although the output was equivalent (issue 16's
false alarms): the jump over a try's handlers, the handler of a finally
body that always raises, the handlers of a try whose else part jumps past
them."""


def try_body_ends_in_if(val, word):
    # 3.11: the if's way out is the jump over the handlers, which the
    # else part (empty) then started at.
    if callable(val):
        word += '('
        try:
            if not g(val):
                word += ')'
        except ValueError:
            pass
    return word
