"""A chained comparison as the first operand of an `and` inside an `or`
(`if lo <= n <= hi and c or d:`): the chain's cleanup (POP_TOP of its
middle operand) jumps on past the `and`'s second test to the `or`'s next
operand.  Until stop 41 the condition network left that operand out, and
the output ran differently, unmarked, on every version (sqlglot
optimizer.simplify _simplify_integer_cast, found by audit41's holdout 8;
open_lies_audit41.py fits_in_byte).  boolexpr.c is_cleanup_jump."""


def byte_range_or_unsigned(num, signed):
    if -128 <= num <= 127 and signed or (0 <= num <= 255 and not signed):
        return "fits"
    return "wide"


def chain_and_or_plain(n, a, b):
    if 0 < n < 10 and a or b:
        return 1
    return 0


def chain_and_or_chain(n, a):
    if 0 < n < 10 and a or 20 < n < 30:
        return 1
    return 0


def chain_and_or_statement(n, a, b, log):
    if 1 <= n <= 5 and a or (6 <= n <= 9 and b):
        log.append(n)
    log.append("end")


def separate_chain_ifs_return(x, y):
    if x == "p" == y:
        return
    if x == "q" == y:
        return
    return x
