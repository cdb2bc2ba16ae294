"""Early exits and the if layout around them: where a function's end is reached by both ways on from one test, its return is shared, not copied."""


def or_true_ends_function(x):
    if x or True:
        pass


def or_true_then_call(x, g):
    if x or True:
        g()
