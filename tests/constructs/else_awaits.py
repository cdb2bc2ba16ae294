"""Awaits and yield froms in a try's else part whose except clauses never go on to the code after the try (they continue, return or raise): only where 3.12+ lays out the await's CLEANUP_THROW, before the try's handlers, tells the else part from code after the try (issue 16: more_itertools value_chain, anyio TLSListener.serve handler_wrapper, trio SSLStream.aclose, networkx ISMAGS._largest_common_subgraph)."""


def yield_from_in_else_in_loop(*args):
    for value in args:
        try:
            it = iter(value)
        except TypeError:
            yield value
        else:
            yield from it


def yield_from_after_try_in_loop(*args):
    for value in args:
        try:
            it = iter(value)
        except TypeError:
            yield value
            continue
        yield from it


def yields_in_else_after_pass_clause(isomorphs, found):
    for nodes in isomorphs:
        try:
            item = next(nodes)
        except StopIteration:
            pass
        else:
            yield item
            yield from nodes
            found = True
    return found


async def await_in_else_clause_falls_off(self, stream, handler):
    try:
        wrapped = await self.wrap(stream)
    except BaseException as exc:
        await self.handle_error(exc, stream)
    else:
        await handler(wrapped)


async def await_after_try_clause_returns(self, stream, handler):
    try:
        wrapped = await self.wrap(stream)
    except BaseException as exc:
        await self.handle_error(exc, stream)
        return
    await handler(wrapped)


async def await_in_else_clause_raises(self):
    try:
        await self.ensure()
    except:
        await self.close_forcefully()
        raise
    else:
        await self.transport.aclose()
    finally:
        self.state = 0
