"""Code that goes on to a small exit block (a return or raise and up to three instructions before it) from several branches, where the compiler puts a copy of the block in place of each jump to it (inline_small_exit_blocks), even in the middle of an expression.  The order of co_consts and co_names tells a copy from a return written twice (normalize/uncopy.c); so do the lines, which a copy keeps, and a constant the copy left unfolded (the returned conditional expressions)."""

encode_b85 = lambda v: (b85encode(v) if v else b"").decode("utf8")


def value_of_conditional(v):
    return (b85encode(v) if v else b"").decode("utf8")


def written_twice(v):
    if v:
        return b85encode(v).decode("utf8")
    return b"".decode("utf8")


def passes_then_return(sig):
    if sig == signal.CTRL_C_EVENT:
        pass
    elif sig == signal.CTRL_BREAK_EVENT:
        pass
    else:
        print("UNKNOWN EVENT")
    return 0


def returns_written_in_each(sig):
    if sig == signal.CTRL_C_EVENT:
        return 0
    if sig == signal.CTRL_BREAK_EVENT:
        return 0
    print("UNKNOWN EVENT")
    return 0


def branches_in_try_then_return(mode, domain):
    try:
        if mode == "decode":
            print(decode(domain))
        else:
            print(encode(domain).decode("ascii"))
    except IDNAError as err:
        print(f"idna: {mode} failed", file=sys.stderr)
        return False
    return True


def store_after_branches(self, netloc, path, query):
    if netloc is not None:
        url = SplitResult(netloc=netloc).geturl()
    else:
        if path.startswith("//"):
            path = "/%2F" + path[2:]
        url = f"{path}?{query}" if query else path
    self._url = url


def raise_after_branches(self, node):
    if "odt" in node:
        first = node[0]
        if self.in_header:
            pass
        elif self.in_footer:
            pass
        else:
            self.current_element.append(first)
    raise nodes.SkipChildren


def else_raises_before_return(self, config_set, config_type):
    if config_set == "user":
        parser = self.user[config_type]
    elif config_set == "default":
        parser = self.default[config_type]
    else:
        raise InvalidConfigSet("Invalid configSet specified")
    return parser.sections()


def else_returns_before_return(self, keys, modifiers):
    if not keys.endswith(">"):
        self.showerror(message="Missing the final Key")
    elif not modifiers:
        self.showerror(message="No modifier key(s) specified.")
    else:
        return True
    return False


def branches_in_try_after_try(send, receive):
    try:
        data = send.get_data_nowait()
    except _core.WouldBlock:
        return False
    try:
        if not data:
            receive.put_eof()
        else:
            receive.put_data(data)
    except _core.ClosedResourceError:
        raise _core.BrokenResourceError("closed") from None
    return True


def later_branches_tell_nothing(self, exprs):
    if isinstance(exprs, str_type):
        self.exprs = [self._literalStringClass(exprs)]
    elif isinstance(exprs, ParserElement):
        self.exprs = [exprs]
    elif isinstance(exprs, Iterable):
        exprs = list(exprs)
        self.exprs = list(exprs)
    else:
        try:
            self.exprs = list(exprs)
        except TypeError:
            self.exprs = [exprs]
    self.callPreparse = False

def returned_ifexp_after_if(self, dt):
    if dt:
        return HOUR if getattr(dt, "fold", 0) else ZERO
    return ZERO


def returned_ifexp_in_try(self):
    isatty = getattr(self.file, "isatty", None)
    try:
        return False if isatty is None else isatty()
    except ValueError:
        return False


def returned_ifexp_const_tuple(foreground):
    return ("39" if foreground else "49",)


def returned_ifexp_on_lines(options):
    return (
        ("<br />\n" if options.xhtmlOut else "<br>\n") if options.breaks else "\n"
    )


def ifexp_longer_than_copy(foreground, number, fore, back):
    return (str(fore + number if foreground else back + number),)


def returned_calls_alike(path):
    return _temp_dir(path) if _is_present_dir(path) else _temp_file(path)


def or_chain_then_return(codepoint):
    if codepoint or 0x07F <= codepoint < 0x0A0:
        return 0
    return 1


def else_return_written_twice(dtstr, w):
    if dtstr[4] == w:
        if w % 2 == 0:
            return 7
        else:
            return 8
    else:
        return 8


def loop_else_return_written_twice(self, tag):
    if len(tag) > 5:
        indicator = tag[1:-1]
        for index in range(1, len(self.dialects)):
            if indicator == self.dialects[index]:
                return indicator
        else:
            return "unknown"
    else:
        return "unknown"


def breaks_to_copied_return(alpha, beta, random):
    while True:
        x = random()
        u1 = random()
        if x > 1.0:
            if u1 <= x ** (alpha - 1.0):
                break
        elif u1 <= _exp(-x):
            break
    return x * beta



def return_ends_try_body(what, name):
    # The return ends the try body: the compiler pops the handler before
    # it, so its copies in the branches are unprotected like a return
    # after the try, yet its constant entered before the handler's
    # (real-world pygments cmdline._print_help).
    try:
        if what == "lexer":
            print(f"Help on the {name} lexer:")
        elif what == "formatter":
            print(f"Help on the {name} formatter:")
        elif what == "filter":
            print(f"Help on the {name} filter:")
        return 0
    except (AttributeError, ValueError):
        print(f"{what} not found!", file=sys.stderr)
        return 1
