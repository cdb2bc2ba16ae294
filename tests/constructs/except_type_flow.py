"""An except clause whose type has an and / or in it (test_peepholer test_bpo_42057): read as a finally body, the clause ran for every exception and the exception went on, with no mark (issue 16); now marked."""


def except_or_in_loop(g):
    for i in range(10):
        try:
            g()
        except ValueError or TypeError:
            pass
