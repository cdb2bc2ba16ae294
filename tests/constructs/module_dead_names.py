"""A module whose last statements never run: their names stay in co_names."""
# The compiler drops the code after a raise, not the names it numbered in
# co_names: the output loads them again where nothing runs.


def dead_after_raise(x):
    return x
    name_in_dead_code


value = 1
if value:
    raise SystemExit
else:
    raise ValueError
first_dead, second_dead << third_dead
