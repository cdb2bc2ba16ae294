"""Ways out of except clauses that 3.12+ lays out as copies after the
clause's POP_EXCEPT, and returns that unwind several clauses (each read
wrongly at 8c63fc2: stdlib's cgi.print_directory, _pyio FileIO.readall,
email._encoded_words.decode_b)."""


# The code after a try/except/else, a few instructions, copied into the
# clause's way out: an expression statement's POP_TOP is the copy's own
# (cgi.print_directory read `print()` into the clause).
def else_then_print(get):
    print()
    try:
        pwd = get()
    except OSError as msg:
        print("OSError:", msg)
    else:
        print(pwd)
    print()


# A break in an if of a clause that otherwise returns: 3.12 copies the
# small code after the `while True:` in place of its jump (FileIO.readall).
def break_in_clause_if(read, n):
    result = []
    while True:
        if len(result) >= n:
            n = len(result) * 2
        try:
            chunk = read(n)
        except BlockingIOError:
            if result:
                break
            return None
        if not chunk:
            break
        result += chunk
    return bytes(result)


# The clause's break is the loop's only way out.
def only_break_in_clause(read, n):
    result = []
    while True:
        try:
            chunk = read(n)
        except BlockingIOError:
            if result:
                break
            return None
        result += chunk
    return bytes(result)


# The code after the try, the loop's last statement, copied into a clause
# that falls off its end: not a break (the loop has none).
def after_try_returns_in_loop(get, check, use, done):
    while True:
        try:
            x = get()
        except KeyError:
            if check():
                use()
            else:
                return None
        return done(x)


# A break of a for loop in an if of a clause.
def for_break_in_clause_if(items, get, use, done):
    for x in items:
        try:
            y = get(x)
        except KeyError:
            if x:
                break
            return None
        use(y)
    return done(x)


# A return in a clause of a clause of a clause: its value stays under each
# exception (SWAP 2; POP_EXCEPT, three times) on the way to the RETURN
# (decode_b read `return ...` after the innermost try).
def return_through_three_clauses(a, b, c, d, encoded):
    try:
        return a(encoded)
    except ValueError:
        try:
            return b(encoded)
        except ValueError:
            try:
                return c(encoded)
            except ValueError:
                return encoded, d()


def return_through_four_clauses(a, b, c, d, encoded):
    try:
        return a(encoded)
    except ValueError:
        try:
            return b(encoded)
        except ValueError:
            try:
                return c(encoded)
            except ValueError:
                try:
                    return d(encoded)
                except ValueError:
                    return encoded


# A try in a named clause: its body jumps to the clause's way out (the
# POP_EXCEPT, the name's cleanup, the implicit return), its handler to a
# copy of it (asyncio BaseEventLoop.call_exception_handler).
def try_in_named_clause(run, report, log):
    try:
        run()
    except BaseException as exc:
        try:
            report(exc)
        except BaseException:
            log("x")


def try_in_named_clause_in_loop(items, run, report, log):
    for item in items:
        try:
            run(item)
        except BaseException as exc:
            try:
                report(exc)
            except BaseException:
                log("x")


# `if t: continue` in a clause of a try in a `while True:`, the clause
# otherwise going on after the try: 3.12+ lays the handler out after the
# loop, its way on a jump back into the loop that was read as a break
# (asyncio FastChildWatcher._do_waitpid_all).
def continue_in_clause_if(pop, check, use):
    while True:
        try:
            callback = pop()
        except KeyError:
            if check():
                continue
            callback = None
        use(callback)


def continue_in_clause_in_with(lock, pop, check, use):
    while True:
        with lock:
            try:
                callback = pop()
            except KeyError:
                if check():
                    continue
                callback = None
        use(callback)


# A try ending the body of a try: the code after both, copied into the
# inner clause's way out, is not under the outer try's handler, as the
# inner clause's POP_EXCEPT is (docutils Node.walk read `return stop`
# into the inner clause).
def copy_after_nested_try(visit, children, SkipSiblings, StopTraversal):
    stop = False
    try:
        visit()
        try:
            for child in children:
                if child():
                    stop = True
        except SkipSiblings:
            pass
    except StopTraversal:
        stop = True
    return stop


# The code after the try copied into one branch of nested ifs ending a
# clause, the other branches jumping to the copy after them: the branch
# runs on into it (3.13; pyparsing Opt.parseImpl read `return loc,
# tokens` into the inner else).
def copy_in_nested_else(self, parse, loc, Results):
    try:
        loc, tokens = parse(loc)
    except (ValueError, IndexError):
        value = self.default
        if value is not self.missing:
            if self.name:
                tokens = Results([value])
                tokens[self.name] = value
            else:
                tokens = [value]
        else:
            tokens = []
    return loc, tokens


# click Command.main: a return in a named clause of a try inside another
# try's body.  The outer handler protects the clause's POP_EXCEPT and name
# cleanup, so the RETURN_VALUE is a block of its own.
def return_in_named_clause_in_try_body(self, standalone_mode):
    try:
        try:
            self.a()
        except Exit as e:
            if not standalone_mode:
                return e.exit_code
            exit_code = e.exit_code
        sys.exit(exit_code)
    except (EOFError, KeyboardInterrupt):
        if not standalone_mode:
            raise
        sys.exit(exit_code)


# A return through two named clauses: each clause's SWAP 2, POP_EXCEPT
# and name cleanup in turn.
def return_through_two_named_clauses(self, c):
    try:
        self.a()
    except A as e:
        try:
            self.b(e)
        except B as f:
            if c:
                return f.code
            self.d(f)
    return 0


def return_in_named_clause_in_named_clause_body(self, c):
    try:
        try:
            self.a()
        except Exit as e:
            if c:
                return e.exit_code
            self.x = e
    except OSError as g:
        return g


# A break ending one clause of a `while True:` with no code after it but
# the return the compiler moved into the break, while another clause runs
# on back into the loop (test_asyncgen compare_generators.sync_iterate:
# the return was read into the clause).
def break_beside_clause_that_goes_on(g):
    res = []
    while True:
        try:
            res.append(g.__next__())
        except StopIteration:
            res.append('STOP')
            break
        except Exception as ex:
            res.append(str(type(ex)))
    return res
