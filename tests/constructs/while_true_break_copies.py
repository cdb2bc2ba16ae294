"""A `while True:` whose only ways out are breaks in except clauses, with
code after the loop: 3.12 copies that code (a small exit block) into each
break's place.  The first copy is read as the code after the loop; the
second was read as the code after the loop too, the first then left over
and marked "could not recover" though the output was equivalent (a false
mark, 3.12).  Fixed on the loops branch (structure.c copies_moved_exit)."""


def breaks_in_two_clauses(it, dirs):
    while True:
        try:
            entry = next(it)
        except A:
            break
        except B:
            break
        dirs.append(entry)
    g()
