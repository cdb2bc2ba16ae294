"""An except clause that breaks out of a `while True:` nested in another
loop (os.walk's scandir loop): only the clause reaches the code after the
inner loop, so 3.12+ lays the clause and that code, with the with's exit on
the break's way out, after all other code (flowgraph.c
push_cold_blocks_to_end), and a copy of the return lies between.

normalize/coldblocks.c clause_moves puts the clause back after its try's
body and the code after the inner loop after its last jump back, as 3.11
lays them out (after the else part where the loop has one).  Before it,
3.12 read the clause as `pass` and the rest of the inner loop as an else
part ending in `continue`: the loop never ended (an unmarked lie on 3.12
in break_in_with_in_loop, second_try_after_break, break_or_continue_clauses
and others, marked on 3.13); for_else_break printed a `break` of the outer
loop (an unmarked lie on 3.12 and 3.13).  break_in_for_with (a clause that
returns beside one that breaks) stays marked on every version.
"""


def break_in_with_in_loop(stack, it, out):
    while stack:
        stack.pop()
        with it:
            while True:
                try:
                    entry = next(it)
                except StopIteration:
                    break
                out.append(entry)
        out.append(1)


def break_in_nested_while(stack, it, out):
    while stack:
        stack.pop()
        while True:
            try:
                entry = next(it)
            except StopIteration:
                break
            out.append(entry)
        out.append(1)


def break_in_for_with(names, opener, out):
    for name in names:
        with opener(name) as it:
            count = 0
            while True:
                try:
                    next(it)
                except ValueError:
                    return count
                except StopIteration:
                    break
                count += 1
                out.append(count)
    return out


def second_try_after_break(stack, scandir, out):
    while stack:
        top = stack.pop()
        with scandir(top) as it:
            while True:
                try:
                    entry = next(it)
                except StopIteration:
                    break
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir:
                    out.append(entry)
        yield top


def nested_clauses_both_break(stack, it, onerror, out):
    while stack:
        stack.pop()
        cont = False
        with it:
            while True:
                try:
                    try:
                        entry = next(it)
                    except StopIteration:
                        break
                except OSError as error:
                    onerror(error)
                    cont = True
                    break
                out.append(entry)
        if cont:
            continue
        out.append(0)


def break_then_code_in_loop(stack, it, out):
    while stack:
        stack.pop()
        while True:
            try:
                entry = next(it)
            except StopIteration:
                out.append(None)
                break
            out.append(entry)
        out.append(1)
        if not out:
            break
    return out


def no_outer_loop(lock, it, out):
    with lock:
        while True:
            try:
                entry = next(it)
            except StopIteration:
                break
            if entry is not None:
                out.append(entry)


def for_else_break(stack, it, out):
    while stack:
        stack.pop()
        for x in it:
            try:
                out.append(x())
            except ValueError:
                break
        else:
            raise LookupError
        out.append(1)


def break_or_continue_clauses(stack, it, out):
    while stack:
        stack.pop()
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            except ValueError:
                continue
            out.append(x)
        out.append(1)


def break_through_finally(stack, it, out):
    while stack:
        stack.pop()
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            finally:
                out.append('f')
            out.append(x)
        out.append(1)


def break_in_try_finally_in_loop(stack, it, out):
    while stack:
        stack.pop()
        try:
            while True:
                try:
                    x = next(it)
                except StopIteration as e:
                    out.append(e.value)
                    break
                out.append(x)
        finally:
            out.append('g')
        out.append(1)


def break_in_with_in_generator(stack, it):
    while stack:
        stack.pop()
        with it:
            while True:
                try:
                    x = next(it)
                except StopIteration:
                    break
                yield x
        yield 1
