"""Loops whose break the compiler replaced by a copy of the code after the loop (duplicate_exits_without_lineno, inline_small_exit_blocks), and that have an else part the copy skips (issue 16; stdlib http/cookiejar.py DefaultCookiePolicy.set_ok_port)."""


def for_else_returns_in_if(cookie, req_port, debug):
    if cookie.port_specified:
        for p in cookie.port.split(","):
            try:
                int(p)
            except ValueError:
                debug("   bad port %s (not numeric)", p)
                return False
            if p == req_port:
                break
        else:
            debug("   request port (%s) not found in %s", req_port, cookie.port)
            return False
    return True



def for_else_then_return(xs, debug, y):
    for x in xs:
        if x:
            break
    else:
        debug("none")
        y = 2
    return True
