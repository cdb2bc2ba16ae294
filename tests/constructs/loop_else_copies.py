"""Loops whose break the compiler replaced by a copy of the code after the loop (duplicate_exits_without_lineno, inline_small_exit_blocks), most with an else part the copy skips (issue 16; stdlib http/cookiejar.py DefaultCookiePolicy.set_ok_port; real-world markdown-it ParserBlock.tokenize: a while loop's breaks to the implicit return, which only co_consts tells from a written return; werkzeug MapAdapter.get_default_redirect: a call's keyword names tuple is a constant too)."""


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


def while_break_to_implicit_return(state, rules, line):
    """The docstring numbers None where the code first loads it."""
    while line:
        if line >= state.end:
            break
        ok = rules(state, line, 1)
        if not ok:
            raise RuntimeError("none matched")
        line = state.line


def while_else_break_to_implicit_return(a):
    """doc"""
    while a.x:
        if a.y:
            break
        a.z(1)
    else:
        a.w(2)


def for_break_before_keyword_call(self, rule, values):
    """doc"""
    for r in self.rules:
        if r is rule:
            break
        if r.x:
            return self.make(r, domain_part=values)
    return None
