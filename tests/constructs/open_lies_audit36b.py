"""Unmarked lies found by audit36b (stop 36) on the third holdout corpus
(tests/realworld/holdout3.txt: twelve PyPI packages nobody had tuned on),
reading the functions whose round trip differs with no mark
(tools/unmarked_diffs.py); reduced, open, listed as UNMARKED LIE in the
known lists for each version where the output runs differently."""


# peewee playhouse/cockroachdb.run_transaction (3.8 / 3.9; right on
# 3.10-3.13): a `while cond:` loop ending a `with` body, whose handler ends
# with `if retryable: ...; continue` and a bare `raise`, prints the handler's
# `raise` as `break` and puts a bare `raise` after the loop, in the `with`:
# a RuntimeError ("No active exception to reraise") where the source
# re-raises the handled exception, and again where the loop runs out and the
# source raises the error after the `with`.  Without the `with` the same
# function is marked on 3.8 / 3.9 (the block after the loop no statement
# holds); the `while True` form (open_lies_audit35.py
# bare_raise_in_handler_of_loop) lies on 3.10-3.13 instead.  Fixed by
# lie36f: 3.8 / 3.9 leave the clause's POP_EXCEPT and jump back after the
# raise, reached by nothing, and normalize/whiletest.c counted that jump
# as a way to the test it copies to the bottom of the body (3.10's
# remove_unreachable drops a copy nothing reaches); read with the copy,
# the raise left the loop.
def retry_while_cond_raise_in_handler_in_with(ctx, attempts, work, retryable):
    with ctx:
        while attempts != 0:
            try:
                return work()
            except KeyError as exc:
                if retryable(exc):
                    attempts -= 1
                    continue
                raise
    raise ValueError("out of attempts")


# Variants of the one above (lie36f): 3.8 / 3.9 keep the dead POP_EXCEPT
# and jump back after the clause's raise, which whiletest.c took for a way
# to the loop's test copied to the bottom.
def retry_while_cond_raise_in_handler(attempts, work, retryable):
    while attempts != 0:
        try:
            return work()
        except KeyError as exc:
            if retryable(exc):
                attempts -= 1
                continue
            raise
    raise ValueError("out of attempts")


def retry_while_cond_raise_in_handler_in_try(attempts, work, retryable, log):
    try:
        while attempts != 0:
            try:
                return work()
            except KeyError as exc:
                if retryable(exc):
                    attempts -= 1
                    continue
                raise
    finally:
        log.append(attempts)
    raise ValueError("out of attempts")


def retry_while_cond_raise_new_in_handler_in_with(ctx, attempts, work):
    with ctx:
        while attempts > 0:
            try:
                return work()
            except (KeyError, IndexError) as exc:
                if attempts > 1:
                    attempts -= 1
                    continue
                raise RuntimeError(attempts) from exc
    return None


def retry_while_cond_raise_in_unnamed_handler_in_with(ctx, attempts, work):
    with ctx:
        while attempts:
            try:
                return work()
            except KeyError:
                attempts -= 1
                if attempts:
                    continue
                raise
    raise ValueError("out of attempts")


def retry_while_cond_raise_then_code_after_loop(ctx, items, work, seen):
    with ctx:
        while items:
            item = items.pop()
            try:
                work(item)
            except KeyError as exc:
                if exc.args:
                    seen.append(item)
                    continue
                raise
        seen.append(None)
    return seen
