"""async for loops with a break: 3.12+ lay out the loop's exit, its else
part, cold, after all other code (flowgraph.c push_cold_blocks_to_end:
only the END_ASYNC_FOR handler leads there), with a jump back to the code
after the loop, which the last break falls into."""


async def break_then_else(items, out):
    async for item in items:
        out.append(item)
        if item == 20:
            break
    else:
        out.append('what?')
    out.append('end')


async def two_breaks_else(items, flag, out):
    async for item in items:
        if item:
            break
        if flag:
            break
    else:
        out(1)
    out(3)


async def break_else_if(items, flag, out):
    async for item in items:
        if item:
            break
    else:
        if flag:
            out(2)
        else:
            out(4)
    out(3)


async def break_else_in_while(items, flag):
    while flag:
        async for item in items:
            if item:
                break
        else:
            flag(1)
        flag(3)


async def break_else_in_try(items, out):
    try:
        async for item in items:
            if item:
                break
        else:
            out(1)
        out(3)
    except ValueError:
        pass


async def break_else_nested(items, inner):
    async for item in items:
        async for other in inner:
            if other:
                break
        else:
            inner(1)
        inner(3)


async def break_no_else(items, out):
    async for item in items:
        if item:
            break
    out(3)


async def body_ends_in_break(items, out):
    async for item in items:
        out(item)
        break
    else:
        out(2)
    out(3)


async def break_only_in_for(items, out):
    for x in out:
        async for item in items:
            out(item)
            break
        out(3)


async def continue_then_break(items, out):
    async for item in items:
        if item:
            continue
        out(1)
        break
    out(3)


async def loop_in_if_else(out):
    out.append(1)
    if not out:
        async for item in out:
            out.append(4)
    else:
        out.append(6)
        out.append(7)
    out.append(8)


async def loop_in_async_with_in_if(self, aclosing):
    if not hasattr(self, '_body'):
        chunks = []
        async with aclosing(self.stream()) as stream:
            async for chunk in stream:
                chunks.append(chunk)
        self._body = b''.join(chunks)
    return self._body


async def break_in_async_with_in_with(manager, nursery, queue):
    with manager as (key, queue):
        async with nursery:
            async for batch in queue:
                if batch:
                    break
            print('end loop')
