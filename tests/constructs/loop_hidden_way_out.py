"""while loops whose way out the compiler hid (stop 41, lie41b; audit41's
find_module_prefix and fold_block_scalar in open_lies_audit41.py).

A while loop that ends an if's then part, whose body ends in `try: f();
break` / `except E: continue`: its only jump back is the clause's
continue.  3.8/3.9 lay the clause's re-raise and peephole.c's unreached
jumps back after it, then the jump over the else part, through which the
test fails (recover/structure.c leftovers_end); 3.12 lays the clause out
after the function's code and the break's jump over the else part ends
the loop's code (top_only_end).  Read without the loop (an if), the body
ran once.

A long while body (EXTENDED_ARG) ending in `if c: ...` / `else: break`,
code after the loop: 3.8/3.9's peephole.c threads c's failing jump through
the break's to the loop's exit and on, the break's jump is dropped as dead
and normalize/whiletest.c copies the test to the bottom: the failing jump
is one to where the loop's exit jumps (recover/structure.c break_target,
tests_fail_to).  Read as an if without its else, a false c fell back to
the loop's test.

Each function was run, the source and the output, on the same inputs
(names that import at the first, a later or no prefix, KeyError too; rows
that stop at "#", at the end, at the other column, past 100 characters):
the same results on 3.8-3.13.  3.8-3.10 print the first two with `else:
break` after the except clause (runs the same).
"""


def first_importable_prefix(name, importable):
    if name:
        parts = name.split(".")
        while parts:
            head = ".".join(parts)
            try:
                importable(head)
                break
            except (ImportError, KeyError):
                parts.pop()
                continue
        else:
            head = None
    else:
        head = ""
    try:
        found = importable(head)
    except ImportError:
        found = None
    return head, found


def retry_until_loaded(names, load, log):
    if names:
        loaded = None
        while names:
            name = names.pop(0)
            try:
                loaded = load(name)
                break
            except ImportError:
                log.append(name)
                continue
    else:
        loaded = "none"
    log.append(loaded)
    return loaded


def take_columns(rows, column, width, out):
    i = 0
    total = 0
    while i < len(rows) and rows[i][0] == column:
        row = rows[i]
        out.append(row[1])
        total += len(row[1])
        out.append(str(total))
        out.append(str(width))
        out.append(row[1].upper())
        out.append(row[1].lower())
        out.append(row[1].title())
        out.append(row[1].strip())
        out.append(row[1][::-1])
        i += 1
        if width == 0 and total > 100:
            if rows[0] or rows[-1]:
                break
        if i < len(rows) and rows[i][1] != "#":
            if width > 1 and total > 2 and rows[i][1] not in " \t":
                if not out:
                    out.append(" ")
            else:
                out.append("\n")
        else:
            break
    out.append("end")
    out.append(str(i))
    return total


def take_columns_else(rows, column, width, out):
    i = 0
    total = 0
    while i < len(rows) and rows[i][0] == column:
        row = rows[i]
        out.append(row[1])
        total += len(row[1])
        out.append(str(total))
        out.append(str(width))
        out.append(row[1].upper())
        out.append(row[1].lower())
        out.append(row[1].title())
        out.append(row[1].strip())
        out.append(row[1][::-1])
        i += 1
        if width == 0 and total > 100:
            if rows[0] or rows[-1]:
                break
        if i < len(rows) and rows[i][1] != "#":
            if width > 1 and total > 2 and rows[i][1] not in " \t":
                if not out:
                    out.append(" ")
            else:
                out.append("\n")
        else:
            break
    else:
        out.append("ran out")
    return total
