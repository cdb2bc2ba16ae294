"""An or inside an and (and the reverse) on lines of its own, first operand: 3.10-3.11 do not thread its jumps past the outer test, so its value is tested twice; printed on one line, once (issue 16, a lie found by the probe judge in parso 0.8.7 PEP8Normalizer._reset_newlines)."""


def f(a, b, c):
    return (
        a
        or b
    ) and c


def g(a, b, c, d):
    return d or (
        a
        or b
    ) and c


def needs(val, leaf, prev):
    return (
        val == '@' and leaf.parent.type == 'decorator'
        or (
            val == 'class'
            or val == 'def' and prev != 'async'
        ) and leaf.parent.parent.type != 'decorated'
    )


def same_kind(a, b, c):
    return (a or
            b) or c
