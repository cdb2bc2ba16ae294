"""A break or return in an except clause of a try / finally in a for loop:
its way out is the clause's POP_EXCEPT, the copy of the finally body, the
POP_TOP of the iterator, then the return after the loop (3.11+ copy a
small exit block in place of the jump to it; 3.12+ any that returns).
The finally copy splits it from the POP_EXCEPT (no handler protects it):
3.12 / 3.13 read the break's code as the code after the try, a `return`
there, and the output returned on the first normal pass, with no mark
(3.11 marked it)."""


def break_or_continue(a, d):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
            continue
        finally:
            d()


def break_in_if(a, d):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
        finally:
            d()


def break_alone(a, d):
    for x in a:
        try:
            x()
        except KeyError:
            break
        finally:
            d()


def return_or_continue(a, d):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                return
            continue
        finally:
            d()


def break_to_const_return(a, d):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
            continue
        finally:
            d()
    return 5


def break_to_copied_call(a, d, g):
    for x in a:
        try:
            x()
        except KeyError:
            break
        finally:
            d()
    g()


def break_to_copied_return_value(a, d, g):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
            continue
        finally:
            d()
    return g()


def break_to_long_tail(a, d, g, h, k):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
            continue
        finally:
            d()
    g()
    h()
    k()


def named_break_or_continue(a, d):
    for x in a:
        try:
            x()
        except KeyError as e:
            if e:
                break
            continue
        finally:
            d()


def named_break_in_if(a, d):
    for x in a:
        try:
            x()
        except KeyError as e:
            if e:
                break
        finally:
            d()


def two_clauses(a, d):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
            continue
        except ValueError:
            if x:
                break
        finally:
            d()


def return_from_inner_loop(a, d):
    for y in a:
        for x in y:
            try:
                x()
            except KeyError:
                if d:
                    return
            finally:
                d()


def two_statement_finally(a, d, e):
    for x in a:
        try:
            x()
        except KeyError:
            if d:
                break
            continue
        finally:
            d()
            e()
