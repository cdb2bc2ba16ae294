"""A `continue` in a try body or except clause in a loop with code after the try (3.12,
3.13): the body's if was read as running off to the loop's header, so
`if c: continue` became `if not c: rest` and the code after the try ran
where the continue skips it, or the body's break / return was lost (a lie,
unmarked; stdlib test_re ReTests.test_locale_flag)."""


# The code after the try runs only when the body does not continue.
def continue_then_code_after_try(xs, g, h):
    for i in xs:
        try:
            if i:
                continue
            g(i)
        except ValueError:
            pass
        h(i)


# The body ends in a break: 3.12+ copies the return after the loop in
# place of its jump.
def continue_then_break_for_else(xs, g):
    for i in xs:
        try:
            c = g(i)
            if c:
                continue
            found = i
            break
        except (UnicodeError, TypeError):
            pass
    else:
        found = None
    return found


# The body ends in a return.
def continue_then_return(xs, g):
    for i in xs:
        try:
            if i:
                continue
            g(i)
            return 3
        except ValueError:
            pass
    return 0


# The same in a while loop.
def continue_in_while_try(xs, g, h):
    while xs:
        x = xs.pop()
        try:
            if x:
                continue
            g(x)
        except ValueError:
            pass
        h(x)


# The same in an except clause: `if c: continue` + raise came out as
# `if c: pass` / `else: raise`, and the code after the try ran (marshmallow
# Schema._invoke_field_validators, pydantic
# GenerateJsonSchema.build_schema_type_to_method).
def continue_in_named_clause(names, fields, declared, g):
    for name in names:
        try:
            obj = fields[name]
        except KeyError as error:
            if name in declared:
                continue
            raise ValueError(name) from error
        g(obj)


def continue_in_clause(names, fields, declared, g):
    for name in names:
        try:
            obj = fields[name]
        except KeyError:
            if name in declared:
                continue
            raise
        g(obj)
