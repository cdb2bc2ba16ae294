"""An except clause whose body raises, nested in another clause or in a
try / with: 3.8 and 3.9 keep the clause's dead end (POP_EXCEPT; a jump),
which took no handler and split the code around it (anyio
streams/memory.py MemoryObjectReceiveStream.receive, "a value missing
from the stack"; starlette middleware/opentelemetry.py, "could not recover
this block": the with's exit)."""


def clause_in_clause_raises(self):
    try:
        return f()
    except WouldBlock:
        try:
            return g()
        except AttributeError:
            if self.closed:
                raise ClosedError
            else:
                raise EndOfStream


def clause_raises_in_with_finally(cm):
    with cm():
        try:
            f()
        except ValueError:
            raise
        finally:
            g()


def named_clause_raises_in_with_finally(cm, scope):
    with cm() as span:
        try:
            scope.run()
        except Exception as exc:
            span.set(exc)
            raise
        finally:
            route = scope.get()


async def async_clause_in_clause_raises(self):
    await checkpoint()
    try:
        return self.receive_nowait()
    except WouldBlock:
        event = Event()
        try:
            await event.wait()
        finally:
            self.pop(event)
        try:
            return receiver.item
        except AttributeError:
            if self.closed:
                raise ClosedError from None
            else:
                raise EndOfStream from None
