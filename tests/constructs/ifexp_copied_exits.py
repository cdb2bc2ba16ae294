"""A conditional expression or an and / or inside a test whose branches reach the if's body by a jump the compiler replaced with a copy of that small exit (flowgraph.c inline_small_exit_blocks, 3.10 and 3.12+): read as ifs of their own, the test's false way left the region elsewhere than where running off it goes (`elif a: pass` ran on to `return d` where `return a` was due), with no mark (issue 16); it is marked now (structure.c false_way_lost).  Returns written alike on lines of their own stay two ifs."""


def test_or_of_conditional(a, b, c, d):
    return a if (c or (b if c else a)) else d


def test_conditional_of_or(a, b, c, d):
    return a if ((b or c) if a else d) else b


def test_conditional_of_and_of_conditional(a, b, c, d):
    return a if (((b if a else a) and (b or c)) if a else c) else b


def test_conditional_in_fstring_lines(a, b, c, d):
    return f"""{a if (c or (b if c else
        a)) else d}"""


def written_returns_alike(s, a, b, c, d):
    if a or b:
        return s
    if c or d:
        return s
    return None


def written_returns_in_branches(x, a, b):
    if x:
        if a:
            return [x]
    elif b:
        return [x]
    return []
