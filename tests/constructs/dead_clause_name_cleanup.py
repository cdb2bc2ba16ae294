"""The dead end of an `except E as e:` clause whose body ends in an if / else that raises both ways, in a try in a with: 3.8-3.9 keep POP_EXCEPT; e = None; del e; JUMP_FORWARD after it, which nothing reaches; read as statements after the try it unbound a name e bound before the try (once a lie, shutil.py copyfile's shape)."""


def name_bound_before_try_read_after(src, dst, g):
    e = 5
    with open(src, 'rb') as fsrc:
        try:
            with open(dst, 'wb') as fdst:
                g(fsrc, fdst)
        except IsADirectoryError as e:
            if not g(dst):
                raise FileNotFoundError(dst) from e
            else:
                raise
    return e


def clause_raises_both_ways_in_with(src, dst, g):
    with open(src, 'rb') as fsrc:
        try:
            g(fsrc)
        except IsADirectoryError as e:
            if not g(dst):
                raise FileNotFoundError(dst) from e
            else:
                raise
    return dst
