"""An `else: break` in a while loop inside a try body (3.12, 3.13): the
break's lone jump is left out of the protected range and laid out after
the then part, which jumps over it to the copy of the loop test at the
bottom.  It was gone through as a threaded jump (that rule is for a break
right after its test), so the if read `if not c: break` + the then part
(stdlib asyncio/sslproto.py SSLProtocol._do_read__buffered)."""


def else_break(self, wants):
    try:
        while offset < wants:
            count = read()
            if count > 0:
                offset += count
            else:
                break
        else:
            call_soon()
    except E:
        pass
    g()
