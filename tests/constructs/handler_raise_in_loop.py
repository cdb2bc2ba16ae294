"""The bare `raise` ending an except clause in the body of a loop, after
the clause's other ways out (`continue`, `return`): the raise is the
clause's, under its cleanup handler, not code after the loop that a
`break` reaches (nltk corpus/reader/util.read_sexpr_block; see
open_lies_audit35.py bare_raise_in_handler_of_loop)."""


def return_value_then_raise(read, parse):
    block = read()
    while True:
        try:
            return parse(block)
        except ValueError as e:
            if e.args[0] == "small":
                more = read()
                if more:
                    block += more
                    continue
                else:
                    return [block]
            else:
                raise


def return_none_then_raise(read, parse):
    block = read()
    while True:
        try:
            return parse(block)
        except ValueError as e:
            if e.args:
                block += read()
                continue
            elif block:
                return
            else:
                raise


def return_then_raise_no_name(read, parse):
    block = read()
    while True:
        try:
            return parse(block)
        except ValueError:
            if block:
                block = block[1:]
                continue
            if read():
                return block
            raise


def return_first_then_continue(read, parse):
    block = read()
    while True:
        try:
            block = parse(block)
        except ValueError as e:
            if e.args:
                return e.args
            elif block:
                block = block[1:]
                continue
            raise
        if not block:
            return None


def while_test_return_then_raise(read, parse, n):
    block = read()
    while n:
        try:
            return parse(block)
        except ValueError as e:
            if e.args:
                n -= 1
                continue
            elif block:
                return [block]
            raise
    return None


def for_return_then_raise(items, parse):
    for item in items:
        try:
            parse(item)
        except ValueError as e:
            if e.args:
                continue
            elif item:
                return [item]
            else:
                raise
    return None


def raise_after_loop_break(read, parse):
    block = read()
    while True:
        try:
            return parse(block)
        except ValueError as e:
            if e.args:
                block += read()
                continue
            elif block:
                return [block]
            break
    raise RuntimeError(block)


def loop_in_handler_then_return(read, parse):
    try:
        return parse(read())
    except ValueError:
        while True:
            more = read()
            if more:
                continue
            break
        return None
