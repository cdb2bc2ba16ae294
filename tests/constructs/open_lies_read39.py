"""Open lies found by read39 (stop 39) in snowballstemmer on 3.11.

snowballstemmer nepali_stemmer NepaliStemmer.__r_remove_category_1 (3.11): in
the else arm of an if, a `while True:` whose body is try/except blocks each
ending in `break`, then a last statement and `break`, is printed without the
loop and its breaks (an `if True: pass` stands for it): every try and the last
statement run, where the source leaves after the first try that succeeds.
Exit 0, unmarked.  loop_of_tries_each_breaks(2, "a", []) gives [1] from the
source and [1, 3] from the output on 3.8, 3.9 and 3.11 (3.10, 3.12, 3.13 are
equivalent).  Without the enclosing if/else the same loop is marked.
"""


class lab0(BaseException):
    pass


def loop_of_tries_each_breaks(k, s, out):
    if k == 1:
        out.append(0)
    else:
        while True:
            try:
                if s != "a":
                    raise lab0()
                out.append(1)
                break
            except lab0:
                pass
            try:
                if s != "b":
                    raise lab0()
                out.append(2)
                break
            except lab0:
                pass
            out.append(3)
            break
    return out
