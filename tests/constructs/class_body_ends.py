"""Class bodies whose end the compiler copies into the branches before it:
its implicit return (`return __classcell__ := __class__` where a method
uses super(), 3.13's __static_attributes__ store first), never a return of
the source (issue 16: exceptiongroup, trio, typing_extensions came out
equivalent yet marked "a `return` outside a function")."""

TYPE_CHECKING = False


class ExceptionGroupLike(Exception):
    if TYPE_CHECKING:

        def split(self, condition):
            return super().split(condition)


class SocketLike:
    def send(self, data):
        return super().send(data)

    if sys_platform != "win32" or (not TYPE_CHECKING and hasattr(object, "sendmsg")):

        def sendmsg(self, buffers):
            raise NotImplementedError


class PlainBranches:
    def close(self):
        pass

    if a or (not b and c):

        def sendmsg(self, buffers):
            raise NotImplementedError


class CellInBothBranches:
    if TYPE_CHECKING:

        def first(self):
            return super().first()

    else:

        def first(self):
            return super().first() + 1
