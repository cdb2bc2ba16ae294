"""A try whose body ends in a with statement that always raises: the
body goes on only where the with suppresses the exception, code only a
handler reaches, which 3.12+ lay out cold (flowgraph.c
push_cold_blocks_to_end), the else part before the try's handlers, code
after the try after them."""


def else_in_loop(check, manager, items):
    for item in items:
        try:
            with manager():
                raise item
        except Exception:
            check(1)
        else:
            check(2)


async def async_else_in_with_in_loop(self, manager, items):
    for item in items:
        with self.subTest():
            try:
                async with manager():
                    raise item
            except Exception as ex:
                self.assertIs(ex, item)
            else:
                self.fail(f'{item} was suppressed')


def else_then_code_after(check, manager):
    try:
        with manager():
            raise ValueError
    except ValueError:
        check(1)
    else:
        check(2)
    check(3)
