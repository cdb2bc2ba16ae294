"""A condition whose operand after the first holds a conditional
expression of its own (`if a or f(x if c else y):`).  Until stop 41 the
condition network left that operand out (its test is not a condition's:
the call's operands sit under it), and the rest of the condition was read
as an if in the then part of `if not a:`, its true way jumping into the
else part: printed `if not a: if f(...): pass / else: body`, the body no
longer run when only the call holds (sqlglot Parser._parse_limit, found
by audit41's holdout 8, every version; open_lies_audit41.py
limit_when_skipped_or_matched).  boolexpr.c rec_flow_test_last now
follows the conditional expression as part of the operand's value."""


def or_call_of_ifexp_returns(skip, top, match):
    if skip or match("TOP" if top else "LIMIT"):
        return "limit"
    return None


def or_call_of_ifexp_statement(a, c, f, log):
    if a or f(1 if c else 2):
        log.append("body")
    log.append("after")


def and_call_of_ifexp(a, c, f):
    if a and f(c if c else 2):
        return 1
    return 0


def or_not_call_of_ifexp(a, c, f):
    if a or not f(1 if c else 2):
        return 1
    return 0


def while_or_call_of_ifexp(items, c, f):
    n = 0
    while items and f(items.pop() if c else 0):
        n += 1
    return n


def three_operands_ifexp_in_middle(a, b, c, f):
    if a or f(b if c else a) or b:
        return "yes"
    return "no"


def ifexp_in_binary_operand(a, c, n):
    if a or (n + (1 if c else 2)) > 3:
        return True
    return False
