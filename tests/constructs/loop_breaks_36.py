"""The last `break` of a `while True:` body after an `if ...: continue`
(lie36e, from audit36's pycparser CParser._parse_declaration_specifiers):
3.10+ makes the break's jump to the code right after the loop a NOP, so
the body runs off into that code, which earlier breaks jump to (or, where
it is a small exit, 3.10+ copies in their place).  Read as running off
the body, back to the loop's header, the break was lost: the loop ran
on."""


# The earlier break jumps past the last break's NOP to the code after
# the loop.
def break_after_continue_branch_jumped(toks):
    out = []
    while True:
        t = toks.pop()
        if t is None:
            break
        if t == "a":
            out.append(t)
            continue
        break
    return out.x


# The code after the loop no return: it is never copied.
def break_after_continue_branch_no_return(toks):
    out = []
    while True:
        t = toks.pop()
        if t is None:
            break
        if t == "a":
            out.append(t)
            continue
        break
    out.append(2)


# The code after the loop a small exit, copied in place of both breaks
# (two copies, each after its break's NOP: two statements, not one test
# `t is not None and t == "a"`).
def break_after_continue_branch_copied(toks):
    out = []
    while True:
        t = toks.pop()
        if t is None:
            break
        if t == "a":
            out.append(t)
            continue
        break
    return out


# A statement before the last break.
def code_then_break_after_continue_branch(toks):
    out = []
    while True:
        t = toks.pop()
        if t is None:
            break
        if t == "a":
            out.append(t)
            continue
        out.append(1)
        break
    return out


# Two continue branches before the break.
def break_after_two_continue_branches(toks, log):
    n = 0
    while True:
        t = toks.pop()
        if not t:
            break
        if t == "a":
            n += 1
            continue
        if t == "b":
            log(t)
            continue
        break
    log(n)
    return n


# In a for loop's body.
def while_true_break_in_for(rows, log):
    for r in rows:
        while True:
            t = r.pop()
            if t is None:
                break
            if t == "a":
                log(t)
                continue
            break
        log(r)


# The last break after an if / else whose parts both continue.
def break_after_if_else_continue(toks, log):
    while True:
        t = toks.pop()
        if t is None:
            break
        if t == "a":
            log(1)
            continue
        elif t == "b":
            log(2)
            continue
        break
    log(3)


# A break in an except clause of a try in a for loop with an else part,
# the loop in the body of a try (lie36e, from audit36's gunicorn
# Arbiter._cleanup_orphaned_dirty_arbiter, 3.13): the clause's way out
# pops the iterator, then jumps out of the outer try's protected range (a
# block of its own); read as no break, the loop ran on after the OSError
# and its else part ran.
def for_else_break_in_clause_in_try(probe, log):
    try:
        for i in range(3):
            try:
                probe(i)
            except OSError:
                break
        else:
            log("else")
    except ValueError:
        pass
    log("end")


# The same with the exception named.
def for_else_break_in_named_clause_in_try(probe, log):
    try:
        for i in range(3):
            try:
                probe(i)
            except OSError as e:
                log(e)
                break
        else:
            log("else")
    except ValueError:
        pass
    log("end")


# No else part.
def for_break_in_clause_in_try(probe, log):
    try:
        for i in range(3):
            try:
                probe(i)
            except OSError:
                break
            log(i)
    except ValueError:
        pass
    log("end")


# A while loop with an else part.
def while_else_break_in_clause_in_try(probe, log):
    i = 0
    try:
        while i < 3:
            try:
                probe(i)
            except OSError:
                break
            i += 1
        else:
            log("else")
    except ValueError:
        pass
    log("end")


# The try around with a finally.
def for_else_break_in_clause_in_try_finally(probe, log):
    try:
        for i in range(3):
            try:
                probe(i)
            except OSError:
                break
        else:
            log("else")
    finally:
        log("end")


# A break ending the then part of an if in the body of `if t: ...` /
# `else: break` in a while loop (lie36e, from audit36's markdown
# FootnoteBlockProcessor.detectTabbed, 3.8 / 3.9): peephole.c threads the
# outer test through the dead `else: break`, and unthread.c sent the
# inner break, a jump of its own to the loop's exit, to that dead jump
# too: read as going to the outer else part, the inner break was lost.
def while_if_break_else_break(blocks, found):
    out = []
    while blocks:
        if blocks[0].startswith(" "):
            block = blocks.pop(0)
            if found(block):
                out.append(block)
                break
            else:
                out.append(block.strip())
        else:
            break
    return out


# The inner break without an else part around it.
def while_if_inner_break_else_break(xs, found, log):
    while xs:
        if xs[-1]:
            x = xs.pop()
            if found(x):
                log(x)
                break
            log(0)
        else:
            break
    log(1)


# The inner break in a for loop inside the then part stays that loop's.
def while_if_for_break_else_break(xs, found, log):
    while xs:
        if xs[-1]:
            x = xs.pop()
            for y in x:
                if found(y):
                    break
            log(x)
        else:
            break
    log(1)
