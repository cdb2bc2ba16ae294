"""Ways out of try bodies and finally bodies that the compiler lays out
away from the try: returns left outside the protected range, the code after
the try copied into a way out, finally bodies that return (each once read
wrongly on 3.11-3.13, several into code that ran differently)."""


# A bare return in a for loop pops the iterator first; it is outside the
# protected range, the jump of the if's other branch after it: the return
# is the try body's (pydantic's find_validators read `return` after the
# try, leaving the loop on its first turn).
def return_in_try_in_for(items, check, use):
    for item in items:
        try:
            if check(item):
                use(item)
                return
        except TypeError:
            pass


# The same return reached from the exit of a nested for loop.
def return_after_nested_for(pairs, check, use):
    for key, values in pairs:
        try:
            if check(key):
                for value in values:
                    use(value)
                return
        except TypeError:
            raise RuntimeError(key)
    use(None)


# 3.12+ copies `return name` after the try into the way out of a nested
# try/finally; the nested handlers follow it: the body ends before it
# (smtpd's PureProxy._deliver).
def return_copied_before_nested_handlers(make, data):
    try:
        conn = make()
        try:
            refused = conn.send(data)
        finally:
            conn.quit()
    except OSError as e:
        refused = e.args
    return refused


def with_in_try_return_after(open_key, query):
    try:
        with open_key() as key:
            path = query(key)
    except OSError:
        return None
    return path


# A break in a try in a while loop whose exit (`return x`) the compiler
# copied in place of the jump (markdown-it's skipEmptyLines).
def break_copied_exit_in_try(self, pos):
    while pos < self.line_max:
        try:
            if self.marks[pos] < self.ends[pos]:
                break
        except IndexError:
            pass
        pos += 1
    return pos


# A finally body that returns in a branch: its handler pops the exception
# before the return, its copy on the normal way out does not (subprocess's
# Popen.__exit__ printed the finally body a second time after the try).
def finally_returns_in_branch(self, exc_type, interrupt):
    try:
        if self.stdin:
            self.stdin.close()
    finally:
        if exc_type == interrupt:
            self.waited = 0
            return
        self.wait()


def finally_returns_code_after(self, flag, after):
    try:
        self.run()
    finally:
        if flag:
            return
        self.cleanup()
    after()


# A break in an except clause of a `while True:` with no other way out:
# the compiler moved the code after the loop in place of the break, after
# the clause's POP_EXCEPT (_pyio's FileIO.readall).
def break_in_except_moved_exit(read, use):
    while True:
        try:
            chunk = read()
        except BlockingIOError:
            break
        use(chunk)
    use(None)


def break_in_named_except_moved_exit(read, use):
    while True:
        try:
            read()
        except OSError as e:
            break
    use(None)


# The copy of a finally body ending a loop body: its branch jumps straight
# back to the loop's header (quopri's main).
def finally_copy_ends_loop(files, decode):
    for name in files:
        try:
            if name:
                decode(name)
        finally:
            if name != '-':
                name.close()



def then_try_with_raising_handler(self, s):
    """The then part runs off into the implicit return, copied into the
    try's body; the else part raises (stdlib smtplib SMTP.send)."""
    if self.sock:
        try:
            self.sock.sendall(s)
        except OSError:
            self.close()
            raise Disconnected("Server not connected")
    else:
        raise Disconnected("please run connect() first")


def then_chain_else_written_return(self, ttype):
    """An else part whose written `return` numbers None first says nothing
    of the then part's ends, which run off into the implicit return
    (stdlib turtle RawTurtle._drawturtle)."""
    if self.visible:
        if ttype == "polygon":
            self.draw(1)
        elif ttype == "image":
            self.draw(2)
    else:
        if self.hidden:
            return
        if ttype == "image":
            self.draw(5)


# A try with an else part in the body of a try whose code after it is a
# small exit block: the inner clause ends in the compiler's copy of that
# return, its jump to it inlined; the inner body goes on to the else part
# and then to the return itself.  The copy was read as the clause's own
# return and the else part as code after the inner try (mailbox
# Maildir.add, 3.12+).
def else_in_try_body_copied_return(link, rename, remove, uniq):
    try:
        try:
            link()
        except AttributeError:
            rename()
        else:
            remove()
    except OSError:
        remove()
    return uniq
