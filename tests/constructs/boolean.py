"""Boolean operators, chained comparisons, conditional expressions."""


def chains(a, b, c, d):
    if a < b < c and c != d:
        return 1
    if a == b or b is not None and c in d:
        return 2
    return a < b <= c


def in_expression(a, b, c):
    x = a and b or c
    y = not a or (b and not c)
    z = a if b else c
    w = (a < b) == (b < c)
    return x, y, z, w


def conditional_in_comprehension(items):
    return [x if x > 0 else -x for x in items if x is not None and x != 3]


def nested_conditional(a, b, c):
    return a if b else b if c else c


def while_with_boolean(a, b):
    while a and (b or a > 3):
        a -= 1
    return a


def assert_with_chain(a, b):
    assert 0 <= a < b, 'out of range'
    assert a or b


def pass_branch_before_elif(value, kind):
    if isinstance(value, str):
        pass
    elif not isinstance(value, kind):
        value = kind(value)
    return value


def break_in_try_after_test(stream, out):
    while stream.more():
        try:
            data = stream.read()
            if not data:
                break
        except OSError:
            break
        out.append(data)
    stream.close()


def returned_conditionals(x, y, flag):
    # 3.12+ copies the return into each branch of the value; a constant
    # there is loaded apart from its return (RETURN_CONST is `return 1`).
    if flag:
        return 0 if x == y else 1 if x > y else -1
    if x is None:
        return 'none'
    return x if y else False


def returned_conditional_of_conditional(x, y):
    return (True if x and y else False) if y else x


def in_leaves_before_raise(t, registry, mro, match):
    if t in registry and t not in mro and match is not t and not issubclass(match, t):
        raise RuntimeError(t)
    return match


def not_in_then_continue(kwargs, fields, args):
    for key in kwargs:
        if key not in fields:
            continue
        if fields.index(key) < len(args):
            raise TypeError(key)


def chain_stored_at_end(value, limit):
    inside = 0 <= value <= limit


def chain_after_and_stored_at_end(value, limit):
    inside = isinstance(value, int) and 0 <= value <= limit


def assert_and_chain(value, limit):
    assert isinstance(value, int) and 0 <= value <= limit
    return value


def chain_of_four_in_if(expon, high, low):
    if expon == high == low == 0:
        expon = 1
    print(expon)
    assert 0 <= low <= high <= expon, (low, high)


def chain_in_if_else_before_return(expon, high, low):
    if expon == high == low == 0:
        value = 0.0
    elif expon == 0x7FFF:
        value = 1.0
    else:
        value = 2.0
    return value


def chain_ending_in_is_none(node, clock_seq, generate):
    if generate is not None and node is clock_seq is None:
        return generate()
    return node


def negated_test_of_empty_if(self, other):
    if not isinstance(other, type(self)):
        pass
    if not other in self.items:
        pass
    return self.name < other.name


def conditional_expression_as_test(fields, c, a, b):
    # Each branch of the conditional expression jumps to the if's two
    # outcomes itself.
    if (a if c else b):
        use(a)
    for f in fields:
        if (f.compare if f.hash is None else f.hash):
            use(f)
    return [f for f in fields if (f.compare if f.hash is None else f.hash)]


def negated_conditional_expression_as_test(items, waitall, name):
    # The `not` goes through the conditional expression into the jumps of
    # its branches: inside them it would turn `in` into `not in`.
    if not (items if waitall else name in items):
        use(name)
    use(items)


def negated_conditional_expression_returns(items, waitall, name):
    # 3.12+ copies the return into the end of each branch's test.
    if not (items if waitall else name in items):
        return
    use(items)


def assert_under_in_test(marker, before, after):
    # Merged into one assert, either `in` or `is` would turn around.
    if marker in before:
        assert before[-1] is marker
    use(after)


def chain_or_test_returns(num):
    # The chain fails into the next test through its cleanup (a lone
    # POP_TOP) and the last link's jump over it: one condition.
    if 0xD800 <= num <= 0xDFFF or num > 0x10FFFF:
        return '?'
    return chr(num)


def grouped_or_in_and_values(b, a0, a1, a2):
    # 3.8-3.11 thread the jumps of an or-group inside an and: a0 true goes
    # straight to the next group, `b > 0` false straight to the end.
    first = (a0 or b > 0) and (a1 or b > 1)
    second = (a0 or b) and (a1 or b) and (a2 or b)
    return (a0 or b > 0) and (a1 or b > 1), first, second


def grouped_and_in_or_values(b, a0, a1, a2):
    x = (a0 and b) or (a1 and b) or (a2 and b)
    return (a0 and b > 0) or (a1 and b > 1) or (a2 and b > 2), x


def mixed_boolean_nestings(a, b, c, d, e, f):
    p = (a and (b or c)) or d
    q = (a or (b and c)) and d
    r = a and (b or c) and d
    s = ((a or b) and c) or (d and e)
    t = ((a or b) and (c or d)) or ((e and f) or (a and d))
    u = not a and (b or not c) and d
    v = (not (a or b)) and (c or d)
    w = not ((a or b) and (c or d))
    return p, q, r, s, t, u, v, w


def grouped_values_with_in_and_is(a, b, c, d):
    x = (a in b or c) and (d is None or a)
    y = (a not in b or c) and (d is not None or a)
    return x, y


def grouped_values_in_calls_and_comprehensions(f, xs, a, b, c, d):
    f((a or b) and (c or d), (a and b) or (c and d))
    o = [(x or a) and (b or x) for x in xs]
    o.append([x for x in xs if (x or a) and (b or x)])
    o.append({x: (x or a) and (b or x > 1) for x in xs})
    o.append(lambda x: (x or a) and (b or x))
    return o


def grouped_values_in_statements(o, a, b, c, d):
    if a:
        x = (a or b) and (c or d)
    else:
        x = (b and c) or (d and a)
    while a:
        a = (a or b) and (c or d)
    x += (b or c) and (d or a)
    o.x = (a or b) and (c or d)
    return x


def or_of_conditional_returned(r, a, c, b):
    # 3.12+ copy the return into the conditional's first branch; its other
    # branch runs into the return the `or` jumps to.
    return r or (a if c else b)


def or_of_conditional_stored(self, field):
    self.root = self.root or (
        self.parent.root if isinstance(self.parent, field) else self.parent
    )


def and_of_nested_conditional(x, a, c, b, d, e):
    y = x and (a if c else (b if d else e))


def and_false(x):
    # test_compile's test_consts_in_conditionals: the compiler folds the
    # test on the constant and drops x, leaving the constant's load apart
    # from the return (3.12+: no RETURN_CONST).
    return False and x


def or_true(x):
    return True or x
