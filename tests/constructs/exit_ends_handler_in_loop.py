"""A `break` or `continue` ends an except clause in a loop, laid out cold.

3.12's flowgraph.c push_cold_blocks_to_end lays except clauses out after
all other code; a break of a clause in a loop that ends a try body goes
through the try body's end (3.12 does not thread it), laid out with the
clause, far from the loop's exit.  Found by audit44 in holdout 11
(arpeggio Parser.pos_to_linecol: the break printed `pass`, the loop never
ended; xmlschema XsdAttributeGroup.iter_decode: a `continue` ending the
innermost of three nested clauses printed after its try, 3.13).
"""


def break_in_handler_then_code(s, ends):
    """arpeggio Parser.pos_to_linecol (3.12 printed the clause's `break`
    as `pass` with `else: continue`, so the loop never ended; 3.8 / 3.9
    marked it, a false alarm).
    break_in_handler_then_code("a\\nb\\nc", []): 2."""
    if not ends:
        try:
            ends.append(s.index("\n"))
            while True:
                try:
                    ends.append(s.index("\n", ends[-1] + 1))
                except ValueError:
                    break
        except ValueError:
            pass
    n = len(ends)
    return n


def continue_in_nested_handler(obj, group, xsi):
    """xmlschema XsdAttributeGroup.iter_decode / iter_encode (3.13 printed
    the `continue` ending the innermost of three nested clauses after its
    try, so the try's success path skipped the rest of the loop body).
    continue_in_nested_handler(["a", "xsi:b", "c"], {"a": 1, None: "any"},
    {}): [1, "any", "any"]."""
    out = []
    for name in obj:
        try:
            a = group[name]
        except KeyError:
            if name.startswith("xsi"):
                try:
                    a = xsi[name]
                except LookupError:
                    try:
                        a = group[None]
                    except KeyError:
                        out.append("not xsi")
                        continue
            else:
                try:
                    a = group[None]
                except KeyError:
                    out.append("not allowed")
                    continue
        out.append(a)
    return out


def break_in_handler_no_outer_try(s, ends):
    """The loop without the try around it."""
    ends.append(s.index("\n") if "\n" in s else -1)
    while True:
        try:
            ends.append(s.index("\n", ends[-1] + 1))
        except ValueError:
            break
    n = len(ends)
    return n


def break_in_handler_outer_finally(s, ends, log):
    """The try around the loop is a try / finally."""
    try:
        while True:
            try:
                ends.append(s.index("\n", ends[-1] + 1 if ends else 0))
            except ValueError:
                break
    finally:
        log.append("done")
    return len(ends)


def break_in_handler_for(items, ends):
    """A for loop in the try, its clause breaks."""
    try:
        for x in items:
            try:
                ends.append(10 // x)
            except ZeroDivisionError:
                break
    except TypeError:
        ends.append("type")
    return len(ends)


def break_in_handler_while_cond(s, ends):
    """A while loop with a test in the try."""
    try:
        while len(ends) < 10:
            try:
                ends.append(s.index("\n", ends[-1] + 1 if ends else 0))
            except ValueError:
                break
    except IndexError:
        pass
    return len(ends)


def break_in_handler_code_after_loop(s, ends):
    """Code after the loop in the outer try."""
    try:
        while True:
            try:
                ends.append(s.index("\n", ends[-1] + 1 if ends else 0))
            except ValueError:
                break
        ends.append(-1)
    except ValueError:
        pass
    return len(ends)


def break_under_if_in_handler(s, ends, limit):
    """The clause breaks under an if, else goes round."""
    try:
        while True:
            try:
                ends.append(s.index("\n", ends[-1] + 1 if ends else 0))
            except ValueError:
                if len(ends) > limit:
                    break
                ends.append(-5)
    except ValueError:
        pass
    return len(ends)


def break_in_handler_loop_else(s, ends):
    """A while loop with an else part in the try."""
    try:
        while len(ends) < 5:
            try:
                ends.append(s.index("\n", ends[-1] + 1 if ends else 0))
            except ValueError:
                break
        else:
            ends.append("full")
    except ValueError:
        pass
    return len(ends)


def nested_break_in_handler(rows, ends):
    """Nested loops, the inner one's clause breaks."""
    for s in rows:
        try:
            while True:
                try:
                    ends.append(s.index("\n", ends[-1] + 1 if ends else 0))
                except ValueError:
                    break
        except AttributeError:
            ends.append("attr")
    return len(ends)


def continue_in_two_nested_handlers(obj, group):
    """Two nested clauses, the inner one continues."""
    out = []
    for name in obj:
        try:
            a = group[name]
        except KeyError:
            try:
                a = group[None]
            except KeyError:
                out.append("no")
                continue
        out.append(a)
    return out


def continue_in_nested_handler_while(obj, group, xsi):
    """The three nested clauses in a while loop."""
    out = []
    it = iter(obj)
    while True:
        name = next(it, None)
        if name is None:
            break
        try:
            a = group[name]
        except KeyError:
            if name.startswith("xsi"):
                try:
                    a = xsi[name]
                except LookupError:
                    try:
                        a = group[None]
                    except KeyError:
                        out.append("not xsi")
                        continue
            else:
                out.append("plain")
                continue
        out.append(a)
    return out


def break_in_nested_handler(obj, group, xsi):
    """The three nested clauses, the innermost breaks."""
    out = []
    for name in obj:
        try:
            a = group[name]
        except KeyError:
            try:
                a = xsi[name]
            except LookupError:
                try:
                    a = group[None]
                except KeyError:
                    out.append("stop")
                    break
        out.append(a)
    return out
