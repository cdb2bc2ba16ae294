"""async def, await, async with, async for, async comprehensions."""


async def fetch(session, url):
    async with session.get(url) as response:
        return await response.text()


async def read_all(stream):
    out = []
    async for chunk in stream:
        if not chunk:
            continue
        out.append(chunk)
    else:
        out.append(None)
    return out


async def comprehensions(stream, items):
    a = [x async for x in stream]
    b = {x: await x for x in items}
    c = [await f() for f in items if await f()]
    return a, b, c


async def nested_with(a, b):
    async with a as x, b as y:
        await x(y)


async def async_generator(n):
    for i in range(n):
        yield i
        await n


async def try_in_async(f):
    try:
        await f()
    except Exception:
        return None
    finally:
        await f()
