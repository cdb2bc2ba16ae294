"""A module whose one annotation has its target in parentheses."""
# The module sets up __annotations__ (SETUP_ANNOTATIONS) but stores nothing
# in it, so co_names has no __annotations__: the output's annotation that
# brings back the set-up must not store one either.


def make():
    return []


(value): int = make()
