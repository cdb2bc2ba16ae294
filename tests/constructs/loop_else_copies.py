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


def break_in_except_clause(path_item, cache, hooks):
    # The break's target, the return after the try, copied to the end of
    # the except clause after its POP_EXCEPT and from there into the break
    # (stdlib pkgutil.get_importer).
    try:
        importer = cache[path_item]
    except KeyError:
        for path_hook in hooks:
            try:
                importer = path_hook(path_item)
                break
            except ImportError:
                pass
        else:
            importer = None
    return importer


def break_past_else_that_raises(name, limit):
    # The else part raises, so only the break reaches the return after the
    # loop: the compiler moved that return in place of the break (stdlib
    # tarfile.TarInfo._posix_split_name).
    components = name.split("/")
    for i in range(1, len(components)):
        prefix = "/".join(components[:i])
        name = "/".join(components[i:])
        if len(prefix) <= limit and len(name) <= limit:
            break
    else:
        raise ValueError("name is too long")
    return prefix, name


def break_past_else_loop(self, node, id_prefix, make_id):
    # The else part ends in a while loop whose back edge is laid out after
    # the copy of the return its break leads to (docutils
    # document.create_id).
    base_id = ""
    id = ""
    for name in node["names"]:
        base_id = make_id(name)
        id = id_prefix + base_id
        if base_id and id not in self.ids:
            break
    else:
        prefix = id + "-" if base_id else id_prefix
        n = 0
        while True:
            n += 1
            id = f"{prefix}{n}"
            if id not in self.ids:
                break
    return id


def break_to_clause_end_else_continue(names, mro, getter, results):
    # 3.13 copies the end of the except clause (POP_EXCEPT and the jump on)
    # in place of the break's jump: the break skips the else part (stdlib
    # inspect._getmembers; it was read as no jump at all, the loop running
    # on and `continue` after it).
    for key in names:
        try:
            value = getter(key)
        except AttributeError:
            for base in mro:
                if key in base:
                    value = base[key]
                    break
            else:
                continue
        results.append((key, value))
    return results


def break_to_clause_end(names, mro, getter, results):
    # The same copy with nothing after the loop in the clause.
    for key in names:
        try:
            getter(key)
        except AttributeError:
            for base in mro:
                if key in base:
                    break
        results.append(key)


def break_to_clause_end_named(names, mro, getter, results):
    # The copy holds the cleanup of the clause's name too.
    for key in names:
        try:
            getter(key)
        except AttributeError as e:
            for base in mro:
                if key in base:
                    break
            else:
                continue
        results.append(key)


def while_break_to_clause_end(names, mro, getter, results, g):
    # A while loop's break, with no iterator to pop.
    for key in names:
        try:
            getter(key)
        except AttributeError:
            while mro:
                if key in g():
                    break
            else:
                continue
        results.append(key)


def break_to_clause_end_in_try(m, value, g):
    # The copied end of the clause splits where the try around protects
    # its jump (stdlib enum _proto_member.__set_name__).
    try:
        try:
            e = m[value]
        except TypeError:
            for name, c in m.items():
                if c == value:
                    e = c
                    break
            else:
                raise KeyError
    except KeyError:
        g(1)
    g(e)


def for_else_then_break_in_while(items, subpattern):
    # The for loop's breaks go where the while loop's `break` after it
    # goes (its jump threaded); that break was lost, and the while loop ran
    # on forever (stdlib re/_parser._parse_sub, unmarked).
    while True:
        for item in items:
            if not item:
                break
        else:
            subpattern.append(1)
            continue
        break
    subpattern.append(2)
    return subpattern


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
