"""A cell bound only by an annotation and a nested function's nonlocal (issue 16; anyio _backends/_trio.py)."""


def annotated_cell_bound_by_nonlocal():
    handle: int

    def run():
        nonlocal handle
        handle = 1

    run()
    return handle


def annotated_cell_read_by_closure(flag):
    """The docstring stays first."""
    result: list

    def fill():
        nonlocal result
        result = [flag]

    def read():
        return result

    fill()
    return read()


def annotated_cell_passed_through():
    value: str

    def outer():
        def inner():
            nonlocal value
            value = "x"

        inner()

    outer()
    return value


async def annotated_cell_in_coroutine(start):
    task: object

    async def run():
        nonlocal task
        task = await start()

    await run()
    return task
