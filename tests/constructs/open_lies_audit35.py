"""Unmarked lies found by audit35 (stop 35) on the holdout corpus
(tests/realworld/holdout.txt: twelve PyPI packages nobody had tuned on),
reading the functions whose round trip differs with no mark
(tools/unmarked_diffs.py); open, listed as UNMARKED LIE in the known lists
for each version where the output runs differently."""


def continue_in_nested_handler(items, skip, first, second):
    """asyncssh public_key.load_identities (3.8-3.13): `continue` in the
    handler of a try nested in another handler prints as `pass`, so the
    bare `raise` after it runs: with skip true an item both calls reject
    raises KeyError where the source skips it."""
    out = []
    for item in items:
        try:
            value = first(item)
        except KeyError:
            try:
                value = second(item)
            except KeyError:
                if skip:
                    continue
                raise
        out.append(value)
    return out


def continue_in_nested_handler_then_try(keys, other, openkey, query):
    """setuptools msvc.RegistryInfo.lookup (3.8-3.12; runs the same on
    3.13): `except OSError: continue` of a try nested in a handler prints
    as `pass` followed by a `continue` after that try, so when the second
    openkey succeeds the loop skips the query below (returns None where
    the source returns the value)."""
    for key in keys:
        handle = None
        try:
            handle = openkey(key)
        except OSError:
            if other():
                try:
                    handle = openkey(key + 1)
                except OSError:
                    continue
            else:
                continue
        try:
            return query(handle)
        except OSError:
            pass
        finally:
            if handle:
                handle.close()
    return None


def bare_raise_in_handler_of_loop(read, parse):
    """nltk corpus/reader/util.read_sexpr_block (3.10-3.13): the `else:
    raise` of an if/else ending a handler in a `while True` prints as
    `break` in the handler and `raise` after the loop, where no exception
    is being handled: RuntimeError ("No active exception to reraise")
    instead of the ValueError.  Fixed in stop 36 (lie36a: the clause's
    return before the raise is a way out of it, clause_exit_block; more
    in handler_raise_in_loop.py)."""
    block = read()
    while True:
        try:
            return parse(block)
        except ValueError as e:
            if e.args[0] == "small":
                more = read()
                if more:
                    block += more
                    continue
                else:
                    return [block]
            else:
                raise


def return_in_try_body_if(self, u, v, exists, warn):
    """setuptools command/egg_info.FileList._safe_path (3.11 only):
    `if exists(u) or exists(v): return True` ending a try body prints as
    `if ...: pass` and `else: return True` on the try, so the function
    returns True where the source falls off the end (None).  Fixed stop 36
    (structure.c is_branch_way_out: the tests of an `or` jump into the
    return; conditions_in_finally_and_try_body.py)."""
    try:
        if self.ignore and u:
            return False
        if exists(u) or exists(v):
            return True
    except UnicodeEncodeError:
        warn(u)


def or_of_and_in_finally_of_loop(self):
    """textual message_pump.MessagePump._process_messages_loop (3.12 /
    3.13; marked on 3.8 / 3.9): in a finally of a try whose handler
    breaks the loop, `if a or (b is not None and c > d): BODY` prints as
    `if not a: (if b is not None: if c > d: pass) else: BODY`, so BODY is
    skipped when a is false and the and-part true.  Fixed on 3.12 / 3.13
    stop 36 (boolexpr.c same_dest: copies of the finally body's RERAISE
    are one way; conditions_in_finally_and_try_body.py)."""
    while not self.closed:
        message = self.get()
        try:
            self.dispatch(message)
        except Exception as error:
            self.handle(error)
            break
        finally:
            now = self.time()
            if self.empty() or (self.max_idle is not None and now - self.last > self.max_idle):
                self.last = now


def and_pass_else_raise_in_handler(self, lookup, entry, names):
    """nltk data.ZipFilePathPointer.__init__ (3.13; marked on 3.12): in a
    handler, `if a and [comprehension]: pass else: raise ...` prints as
    `if a: (if [comprehension]: pass) else: raise`, so when a is true and
    the list empty nothing is raised where the source raises OSError.
    Fixed in stop 36 (lie36a: the jump over the comprehension's cleanup,
    in line in a clause, is the comprehension's, past_cleanup_jump; more
    in handler_comprehension_tests.py)."""
    if entry:
        try:
            lookup(entry)
        except Exception as e:
            if entry.endswith("/") and [n for n in names if n.startswith(entry)]:
                pass
            else:
                raise OSError(entry) from e
    self.entry = entry


def break_in_try_else_in_with_in_loop(self, starts):
    """pip _internal/network/lazy_wheel.LazyZipOverHTTP._check_zip (3.8 /
    3.9): the `else: break` of a try in a `with` in a for loop is dropped,
    so the loop runs on over every start where the source stops at the
    first check that passes."""
    for start in starts:
        self.download(start)
        with self.stay():
            try:
                self.check()
            except ValueError:
                pass
            else:
                break



def inner_while_with_break_first_in_while_true(a, i, r, p):
    """nltk misc/sort._partition and asyncssh stream.SSHStreamSession.read
    (3.8 / 3.9; the latter in an `async with`): a `while` loop with a
    break, first statement of a `while True` body, prints as an `if`
    without its break: one step per turn of the outer loop, whose tail
    runs in between."""
    out = []
    while True:
        while i < r:
            i += 1
            if a[i] >= p:
                break
        out.append(i)
        if i >= r or len(out) > 5:
            return out
