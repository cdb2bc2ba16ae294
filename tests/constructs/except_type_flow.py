"""An except clause whose type has control flow of its own, an and / or or a conditional expression (test_peepholer test_bpo_42057): read as a finally body, the clause ran for every exception and the exception went on, with no mark (issue 16); then marked; now the type's jumps are read into the clause header."""


def except_or_in_loop(g):
    for i in range(10):
        try:
            g()
        except ValueError or TypeError:
            pass


def except_and(g, a, b):
    try:
        g()
    except a and b:
        return 1
    return 2


def except_ifexp_then_clause(g, c):
    try:
        g()
    except (KeyError if c else IndexError) as e:
        return e
    except ValueError:
        return 3
