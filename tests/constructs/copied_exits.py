"""Ifs whose branches go on to a small exit block (a return and up to three instructions before it): the compiler copies that block into each jump to it (inline_small_exit_blocks), so a branch ends in a copy, yet the source has an else part and the code after the if once.  The order of co_names and co_consts says where the source had it."""


def nested_else_raise(self, create, os):
    os.setup(self._path)
    if not os.path.exists(self._path):
        if create:
            os.mkdir(self._path, 448)
            os.close(os.open(self._path))
        else:
            raise NoSuchMailboxError(self._path)
    self._locked = False


def nested_elif_runs_on(self, methods):
    methods = set(self.funcs.keys())
    if self.instance is not None:
        if hasattr(self.instance, '_listMethods'):
            methods |= set(self.instance._listMethods())
        elif not hasattr(self.instance, '_dispatch'):
            methods |= set(list_public_methods(self.instance))
    return sorted(methods)


def nested_elif_chain(self, default_handler, signal):
    self.called = False
    if isinstance(default_handler, int):
        if default_handler == signal.SIG_DFL:
            default_handler = signal.default_int_handler
        elif default_handler == signal.SIG_IGN:
            def default_handler(unused_signum, unused_frame):
                pass
        else:
            raise TypeError('expected a handler')
    self.default_handler = default_handler


def join_after_inner_if(name, frame):
    if name in frame.f_locals:
        return 'local', frame.f_locals[name]
    if '__builtins__' in frame.f_globals:
        builtins = frame.f_globals['__builtins__']
        if isinstance(builtins, dict):
            if name in builtins:
                return 'builtin', builtins[name]
        elif hasattr(builtins, name):
            return 'builtin', getattr(builtins, name)
    return None, __UNDEF__


def written_returns_stay(a, b, g):
    if a:
        if b:
            g(1)
            return b
        g(2)
    return b


def nested_elif_implicit_return(self, character, info):
    """The docstring takes co_consts[0]: None's slot is the final return's."""
    self._character_count += 1
    if character != self._last_printable_char and not info.safe:
        if info.punct:
            self._punctuation_count += 1
        elif not info.digit and info.sym and not info.emoticon:
            self._symbol_count += 2
    self._last_printable_char = character


def inner_else_before_copy(value, setting, option_parser, config_parser):
    if ':' in value:
        encoding, handler = value.split(':')
        check_handler(handler)
        if config_parser:
            config_parser.set(setting + '_error_handler', handler)
        else:
            setattr(option_parser.values, setting + '_error_handler', handler)
    else:
        encoding = value
    return validate_encoding(encoding)


def elif_chain_runs_on_to_store(self, kind, data):
    # Each branch that runs on jumps to `self.data = data; return`, a
    # small exit block copied into the jumps with its line: the copies end
    # the nested if and the elif branch, which run on to it in the source.
    self.kind = kind
    if kind == 'polygon':
        if isinstance(data, list):
            data = tuple(data)
    elif kind == 'compound':
        data = []
    else:
        raise ValueError('no shape type %s' % kind)
    self.data = data


def final_if_branch_copies_else_tail(self, token, started):
    # The final if's first branch jumps to `self.passline = True` + the
    # implicit return (a small exit block), copied into the jump of the
    # nested if's first branch with its line: the else part's last
    # statement is that code, after the nested if in the source.
    if not started:
        if token == '@':
            self.indecorator = True
        elif token in ('def', 'class'):
            if token == 'class':
                self.isclass = True
            self.started = True
        self.passline = True
    elif token == 'NEWLINE':
        self.passline = False
