"""A break or continue in an except clause of a try nested in an except
clause: it leaves both clauses (a POP_EXCEPT each) on its way to the loop
(audit35, asyncssh public_key.load_identities: `continue` printed as
`pass`, the `raise` after it ran)."""


def continue_then_raise(items, skip, first, second):
    out = []
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                if skip:
                    continue
                raise
        out.append(value)
    return out


def continue_then_call(items, skip, first, second, g):
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                if skip:
                    continue
                g()
        g(value)


def continue_alone(items, first, second, g):
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                continue
        g(value)


def break_then_raise(items, skip, first, second, g):
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                if skip:
                    break
                raise
        g(value)
    return g


def continue_in_while(n, skip, first, second, g):
    while n:
        n -= 1
        try:
            first(n)
        except KeyError:
            try:
                second(n)
            except KeyError:
                if skip:
                    continue
                raise
        g(n)


def continue_named_clauses(items, skip, first, second, g):
    for item in items:
        try:
            value = first(item)
        except KeyError as e:
            try:
                value = second(item)
            except KeyError as f:
                if skip:
                    continue
                raise e from f
        g(value)


def continue_three_deep(items, skip, first, second, third, g):
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                try:
                    value = third(item)
                except KeyError:
                    if skip:
                        continue
                    raise
        g(value)


def continue_then_code_after_inner_try(items, skip, first, second, g, h):
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                if skip:
                    continue
                g()
            h()
        g(value)


def continue_at_loop_end(items, skip, first, second, g):
    for item in items:
        g(item)
        try:
            first(item)
        except KeyError:
            try:
                second(item)
            except KeyError:
                if skip:
                    continue
                raise
