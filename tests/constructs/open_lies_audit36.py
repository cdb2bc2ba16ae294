"""Unmarked lies found by audit36 (stop 36) on the second holdout corpus
(tests/realworld/holdout2.txt: fifteen PyPI packages nobody had tuned on),
reading the functions whose round trip differs with no mark
(tools/unmarked_diffs.py); reduced, open, listed as UNMARKED LIE in the
known lists for each version where the output runs differently."""


# pycparser c_parser.CParser._parse_declaration_specifiers and
# _parse_specifier_qualifier_list (3.10-3.13; the corpus lies on 3.10-3.13,
# 3.8 / 3.9 cannot compile the module): the `break` ending a `while True`
# body after an `if ...: break` and an `if ...: continue` is dropped, so
# the loop runs on (pycparser parses `int x;` forever).  Fixed by lie36e
# (structure.c body_past_continue, boolexpr.c same_dest; loop_breaks_36.py).
def while_true_break_after_continue_branch(toks):
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


# gunicorn workers/gthread.ThreadWorker.handle_request (3.10-3.13; marked on
# 3.8 / 3.9): `if c: f(); return False` ending the body of a try with
# handlers and a finally whose body is itself a try prints as `if c: f()`
# and `else: return False` on the try: False also when c is false, where
# the source goes on to `return True` (3.8 / 3.9 mark blocks they could not
# place).  Fixed on 3.10-3.13 by lie37b (structure.c rec_is_copied_return:
# the return block split from the copy, branch_skips; normalize.c
# popped_block_line past the copy's SETUP_FINALLY; return_through_finally_copy.py).
def if_return_ending_try_body_with_try_in_finally(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return False
    except OSError:
        log("oserror")
    finally:
        try:
            log("post")
        except Exception:
            log("post failed")
    return True


# gunicorn workers/gthread.ThreadWorker.handle_request, the same shape with
# a plain finally (3.8-3.10; equivalent on 3.11-3.13): `if c: f(); return
# False` ending the try body prints as `else: return False` on the try, so
# False also when c is false.  Fixed by lie37b (normalize.c
# popped_block_line: the POP_BLOCKs on the return's line mark the copy of
# the finally body, as 3.11's NOP does; return_through_finally_copy.py).
def if_return_ending_try_body_with_finally(work, done, log):
    try:
        work()
        if done():
            log("closing")
            return False
    except OSError:
        log("oserror")
    finally:
        log("post")
    return True


# gunicorn arbiter.Arbiter._cleanup_orphaned_dirty_arbiter (3.13; marked on
# 3.8 / 3.9, equivalent on 3.10-3.12): in a for/else inside a try, the
# `except OSError: break` of a try in the loop body prints as `pass` plus
# `else: continue`, and the loop's else part after the loop: the loop goes
# on after the OSError and the else part runs (gunicorn sends SIGKILL to a
# process already gone).  Fixed by lie36e (structure.c in_cold_handler;
# loop_breaks_36.py).
def for_else_break_in_handler_in_try(probe, log):
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


# markdown extensions/footnotes.FootnoteBlockProcessor.detectTabbed (3.8 /
# 3.9): `while xs: if test: ... if found: ...; break / else: ... / else:
# break` prints as `while xs and test:` without the inner break, so the loop
# takes the next item after the one found.  (In markdown the item put back
# never passes the test, so detectTabbed itself runs the same.)  Fixed by
# lie36e (unthread.c unthread_loop_breaks): the inner break kept, the loop
# still read as `while xs and test:` (runs the same, listed).
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
