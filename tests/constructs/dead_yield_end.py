"""Generators whose yields are all dead code, after a final try or with."""


def after_try():
    try:
        a()
    except E:
        b()
    return
    yield


def after_try_no_return():
    try:
        a()
    except E:
        b()


async def after_async_with():
    async with a:
        b()
    return
    yield


async def after_await_in_handler(_async_yield, MyError):
    try:
        await _async_yield(1)
    except MyError:
        await _async_yield(2)
    return
    yield


def with_then_dead_yield(a):
    with a:
        b()
    return
    yield
