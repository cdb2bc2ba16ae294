"""Early exits and the if layout around them: where a function's end is reached by both ways on from one test, its return is shared, not copied; a guard clause's `return` before a last statement whose code ran on into the final return in one block (a copy of that block in it) was written, no `else:`."""


def or_true_ends_function(x):
    if x or True:
        pass


def or_true_then_call(x, g):
    if x or True:
        g()


def guard_return_then_conditional_call(a, b, g):
    if a:
        g(1)
        return
    g(b if a else None)


def else_conditional_call(a, b, g):
    if a:
        g(1)
    else:
        g(b if a else None)


def guard_returns_then_try_and_conditional_call(self, args, g):
    if not self.ready:
        g('first')
        return
    try:
        self.handler = getattr(self, args[0])
    except AttributeError:
        g('unknown')
        return
    self.handler(args[1] if len(args) == 2 else None)
