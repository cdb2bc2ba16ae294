"""A loop that ends an except clause, left by a `break`, the code after
the try laid out before the handler (3.12+ push_cold_blocks_to_end).
3.13's flowgraph.c inline_small_or_no_lineno_blocks copies the clause's
end (POP_EXCEPT, the name's cleanup, the jump back to the code after the
try) into the break's jump: read as it was, the jump back went round the
loop (a `while True:` whose `if x: break` printed `if x: pass` / `else:
continue`, never ending; a for loop that stopped at its first miss: the
two UNMARKED LIEs of audit42, open_lies_audit42.py converter_for and
first_nonempty_sample; with_while_true and try_body_break were marked).
normalize/clausebreaks.c gives the break its jump to the loop's exit
back.  Each function here has code after the try that is no small exit
block (3.12+ copy a lone `return x` into the break instead)."""


# A while loop with a test: the loop's exit is the clause's end too.
def while_test_break(table, key, more, get, log):
    value = None
    try:
        value = table[key]
    except KeyError:
        while more():
            value = get()
            if value:
                break
    log.append(value)
    return value


# `except E as e:`, the name's cleanup copied with the clause's end.
def named_clause_break(table, key, get, log):
    try:
        value = table[key]
    except LookupError as e:
        value = str(e)
        while True:
            value = get()
            if not value:
                continue
            break
    log.append(value)
    return value


# A with around the loop, in the clause.
def with_loop_break(table, key, lock, items, log):
    hit = None
    try:
        hit = table[key]
    except KeyError:
        with lock:
            for item in items:
                if item:
                    hit = item
                    break
    log.append(hit)
    return hit


# Nested handlers: the loop's break in an inner clause pops both.
def nested_clause_break(table, key, get, E, log):
    value = None
    try:
        value = table[key]
    except KeyError:
        while True:
            try:
                value = get()
            except E:
                break
            if value:
                break
    log.append(value)
    return value


# `while True:` with two breaks, one of them in an else part.
def two_breaks(table, key, get, stop, log):
    value = 0
    try:
        value = table[key]
    except KeyError:
        while True:
            value = get()
            if value > 1:
                break
            elif stop():
                value = -1
                break
            else:
                value += 1
    log.append(value)
    return value


# A with around a `while True:`: the break runs the with's exit first.
def with_while_true(table, key, lock, get, log):
    try:
        value = table[key]
    except KeyError:
        with lock:
            while True:
                value = get()
                if value:
                    break
    log.append(value)
    return value


# The break leaves an inner try's body, the loop starting with the try.
def try_body_break(table, key, get, log):
    try:
        value = table[key]
    except KeyError:
        while True:
            try:
                value = get()
                if value:
                    break
            except ValueError:
                value = 0
    log.append(value)
    return value


# Loops in two nested clauses, each left by a break (3.13 main: the outer
# loop's break printed `if x: pass` / `else: continue`, never ending).
def nested_loops_in_clauses(table, key, get, E, log):
    value = 0
    try:
        value = table[key]
    except KeyError:
        while True:
            try:
                value = get()
            except E:
                while True:
                    value = get()
                    if value:
                        break
            if value > 2:
                break
    log.append(value)
    return value


# A try / finally in the loop: the break runs the finally body first.
def finally_in_loop(table, key, get, log):
    try:
        value = table[key]
    except KeyError:
        while True:
            try:
                value = get()
                if value:
                    break
            finally:
                log.append(1)
    log.append(value)
    return value


# The try in an outer loop's body: the clause's end goes back to the
# outer loop's code after the try (3.13 main: printed `if x: pass` /
# `else: continue`, the inner loop never ending).
def clause_loop_in_outer_loop(items, table, get, log):
    for item in items:
        try:
            value = table[item]
        except KeyError:
            while True:
                value = get()
                if value:
                    break
        log.append(value)
