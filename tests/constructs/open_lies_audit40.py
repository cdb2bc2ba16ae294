"""Lies found by audit40 (stop 40) in holdout 7 (tests/realworld/holdout7.txt),
fixed in stop 41 (lie41), with variants.

graphql-core graphql.language.lexer Lexer.read_comment (3.8, 3.9): a while
loop whose body is `if a: break`, then `if b: ...` / `elif c: ...` / `else:
break`, was printed as `if a: pass` / `elif b: ...` / `elif c: ...;
continue` and a `break` after the chain: the `b` arm fell into that
`break`, so the loop stopped after its first step where the source goes
round.  scan_while_letters_or_digits("abc", 0) gave 3 from the source and 1
from the output.  peephole.c threads the last elif's test through the
`else: break` to the loop's exit and leaves that jump dead;
normalize/unthread.c unthread_loop_breaks sends the loop's jumps to the
exit back to it, the written `if a: break` with them, and the if read that
dead break as its join.  recover/structure.c then_breaks_to_dead_else
reads the jump there as a break.  Variants: a third arm
(scan_while_three_arms), two breaks before the chain
(two_breaks_then_chain), the first break in an if
(nested_break_then_chain), a statement before it
(break_after_stmt_then_chain), all of which lied on 3.8 / 3.9 too; the
loop in a for (scan_while_in_for), an else part on the loop
(break_then_chain_loop_else), a for loop (scan_for_letters_or_digits),
read right before.

IPython core.magics.execution ExecutionMagics.run (3.8, 3.9): in a try whose
finally holds an if/else, an inner try whose body ends in `if c: ...;
return` and whose handler falls through was printed with the `return`
moved to the inner try's `else:` part: the code after the inner try was
skipped whenever the body raised nothing, where the source runs it unless
`c`.  return_in_try_under_finally_branches({"N": "3"}, [], False) appended
[3, "f"] from the source and ["f"] from the output (3.10-3.13 mark it).
3.8 / 3.9 copy the finally body before the return; the copy of the if /
else is split into blocks, its then part jumping over its else part, and
recover/structure.c split_copy_start (goes_on_in_copy), unwinds_to_return
and skipped_block_way_on walked only blocks falling into each other: the
return was left out of the inner try's body.  Variants: an elif in the
finally (return_in_try_under_finally_elif), the tries in a for loop, whose
return pops the iterator after the copy (return_in_try_under_finally_in_for),
a try between the two (return_in_nested_try_under_finally_branches), no
inner try (return_in_body_under_finally_branches), a while loop
(return_in_try_under_finally_branches_while), an if in the finally's then
part (return_in_try_under_finally_nested_if), all of which lied on 3.8 /
3.9, and `return nruns` (marked on every version).
"""


def scan_while_letters_or_digits(body, position):
    while position < len(body):
        char = body[position]
        if char in "\r\n":
            break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        else:
            break
    return position


def return_in_try_under_finally_branches(opts, out, restore):
    try:
        try:
            nruns = int(opts["N"])
            if nruns < 1:
                out.append("bad")
                return
        except KeyError:
            nruns = 1
        out.append(nruns)
    finally:
        if restore:
            out.append("r")
        else:
            out.append("f")


def scan_while_three_arms(body, position):
    while position < len(body):
        char = body[position]
        if char in "\r\n":
            break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        elif char == "_":
            position += 3
        else:
            break
    return position


def scan_for_letters_or_digits(body, out):
    for char in body:
        if char in "\r\n":
            break
        if char.isalpha():
            out.append(1)
        elif char.isdigit():
            out.append(2)
        else:
            break
    return out


def scan_while_in_for(lines, out):
    for body in lines:
        position = 0
        while position < len(body):
            char = body[position]
            if char == "#":
                break
            if char.isalpha():
                position += 1
            elif char.isdigit():
                position += 2
            else:
                break
        out.append(position)
    return out


def two_breaks_then_chain(body, position):
    while position < len(body):
        char = body[position]
        if char == "#":
            break
        if char in "\r\n":
            break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        else:
            break
    return position


def nested_break_then_chain(body, position, strict):
    while position < len(body):
        char = body[position]
        if strict:
            if char in "\r\n":
                break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        else:
            break
    return position


def break_then_chain_loop_else(body, position, out):
    while position < len(body):
        char = body[position]
        if char in "\r\n":
            break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        else:
            break
    else:
        out.append("done")
    return position


def break_after_stmt_then_chain(body, position, out):
    while position < len(body):
        char = body[position]
        if char in "\r\n":
            out.append("nl")
            break
        if char.isalpha():
            position += 1
        elif char.isdigit():
            position += 2
        else:
            break
    return position


def return_value_in_try_under_finally_branches(opts, out, restore):
    try:
        try:
            nruns = int(opts["N"])
            if nruns < 1:
                out.append("bad")
                return nruns
        except KeyError:
            nruns = 1
        out.append(nruns)
    finally:
        if restore:
            out.append("r")
        else:
            out.append("f")


def return_in_try_under_finally_elif(opts, out, mode):
    try:
        try:
            nruns = int(opts["N"])
            if nruns < 1:
                out.append("bad")
                return
        except KeyError:
            nruns = 1
        out.append(nruns)
    finally:
        if mode == 1:
            out.append("r")
        elif mode == 2:
            out.append("s")
        else:
            out.append("f")


def return_in_try_under_finally_in_for(runs, out, restore):
    for opts in runs:
        try:
            try:
                nruns = int(opts["N"])
                if nruns < 1:
                    out.append("bad")
                    return
            except KeyError:
                nruns = 1
            out.append(nruns)
        finally:
            if restore:
                out.append("r")
            else:
                out.append("f")
    out.append("end")


def return_in_nested_try_under_finally_branches(opts, out, restore):
    try:
        try:
            try:
                nruns = int(opts["N"])
                if nruns < 1:
                    out.append("bad")
                    return
            except KeyError:
                nruns = 1
            out.append(nruns)
        except ValueError:
            out.append("v")
        out.append("after")
    finally:
        if restore:
            out.append("r")
        else:
            out.append("f")


def return_in_body_under_finally_branches(opts, out, restore):
    try:
        nruns = int(opts.get("N", 1))
        if nruns < 1:
            out.append("bad")
            return
        out.append(nruns)
    finally:
        if restore:
            out.append("r")
        else:
            out.append("f")
    out.append("tail")


def return_in_try_under_finally_branches_while(runs, out, restore):
    i = 0
    while i < len(runs):
        opts = runs[i]
        i += 1
        try:
            try:
                nruns = int(opts["N"])
                if nruns < 1:
                    out.append("bad")
                    return
            except KeyError:
                nruns = 1
            out.append(nruns)
        finally:
            if restore:
                out.append("r")
            else:
                out.append("f")
    out.append("end")


def return_in_try_under_finally_nested_if(opts, out, restore, deep):
    try:
        try:
            nruns = int(opts["N"])
            if nruns < 1:
                out.append("bad")
                return
        except KeyError:
            nruns = 1
        out.append(nruns)
    finally:
        if restore:
            if deep:
                out.append("d")
            out.append("r")
        else:
            out.append("f")
