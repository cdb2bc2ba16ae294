"""Code the structurer once left over after the statement that owns it,
marked "could not recover" although the output was equivalent (issue 16's
false alarms): the jump over a try's handlers, the handler of a finally
body that always raises, the handlers of a try whose else part jumps past
them."""


def try_body_ends_in_if(val, word):
    # 3.11: the if's way out is the jump over the handlers, which the
    # else part (empty) then started at.
    if callable(val):
        word += '('
        try:
            if not g(val):
                word += ')'
        except ValueError:
            pass
    return word


def finally_always_raises(exc):
    # 3.11+: with no RERAISE of its own, the code after the normal copy of
    # the finally body is the handler, not the code after the try.
    try:
        g()
    finally:
        raise exc


def generator_finally_always_raises(exc):
    try:
        yield
    finally:
        raise exc


def else_part_jumps_back_to_loop(self):
    # 3.11: the else part's if jumps over the handlers, back to the loop.
    while True:
        if self.full():
            return
        try:
            work_id = self.get()
        except LookupError:
            return
        else:
            if work_id:
                self.put(work_id)
            else:
                del self.items[work_id]
                continue


def else_part_ends_in_break(data):
    while True:
        try:
            sent = send(data)
        except BlockingIOError:
            continue
        else:
            if sent < len(data):
                data = data[sent:]
            else:
                break


def else_part_jumps_to_finally(a, b):
    # 3.11: the else part's if jumps over the handlers to the copy of the
    # finally body, whose blocks were left unheld.
    try:
        x = g()
    except:
        for h in a:
            if h is not None:
                close(h)
        raise
    else:
        if b is not None:
            x = 1
    finally:
        if a == 1:
            close(a)
        if b == 1:
            close(b)


def with_then_small_exit(self):
    # 3.12+: where __exit__ swallows the exception, the with goes on into a
    # copy of the small code after it.
    with self.assertRaises(ZeroDivisionError):
        d = 1 // 0
    d = {}
    return d


def with_then_return_call(self):
    with self.cm():
        x()
    return self.f()


def while_test_after_try(self, id):
    # 3.12+: the handler goes back to the copy of the loop's test at the
    # bottom of the body, which the try body ran through.
    while not self.stop:
        self.alive[id] = 1
        try:
            sleep(2)
        except OSError:
            pass


def with_in_try_in_loop(self, filenames, encoding=None):
    # the with's normal way on is a jump, not a copied exit: nothing to skip.
    read_ok = []
    for filename in filenames:
        try:
            with open(filename, encoding=encoding) as fp:
                self._read(fp, filename)
        except OSError:
            continue
        if isinstance(filename, os.PathLike):
            filename = os.fspath(filename)
        read_ok.append(filename)
    return read_ok


def with_ends_except_clause(self):
    # 3.12+: where __exit__ swallows the exception, the with goes on into a
    # copy of the end of the except clause (its name's cleanup and jump).
    try:
        raise ValueError(42)
    except ValueError as exc:
        with cap() as err:
            hook(exc)
    self.check(err.getvalue())
    self.done()


def with_ends_finally_body(self):
    try:
        self.start()
    finally:
        with self.lock:
            self.stop()
        server = None


def chained_while_test_exit_copies(i, n, res):
    # 3.12+: each link of the chained test leaves to a copy of the return
    # after the loop (one behind the chain's cleanup).
    while 0 <= i < n:
        if not i:
            res.append(1)
            break
        i += 1
    return g(res)


def try_finally_body_ends_in_if(x, y, z):
    # 3.11+: the normal copy of the finally body (two passes: a NOP, the
    # second's line on the jump) ends in the jump over the handler, which
    # the if's test jumps to too; the if took it as its way out, and the
    # code after the try is where it jumps (pysource-codegen seed 1
    # program 137).
    try:
        if x:
            y()
    finally:
        pass
        pass
    z()


def else_part_if_before_finally(func, fut):
    # 3.12: the finally body and the return after it, a small exit block,
    # are copied into both branches of the else part's if; the copy its
    # test jumps to is the same way out (anyio's from_thread).
    try:
        r = func()
    except ValueError:
        fut.cancel()
    else:
        if fut.ready():
            fut.set(r)
    finally:
        scope = None
