"""Exit blocks that 3.10 copies into each jump to them because they start with a POP_BLOCK, which has no line (compile.c duplicate_exits_without_lineno): the end of a try body before its finally body, of a with body before the __exit__ call, with the return after it.  Read as ends of branches, the copies once lost a branch's body without a mark (os.fwalk) or left one copy "unheld" (tempfile._get_candidate_names, _compression.readinto).  3.10 also copies a written return after a try into the body's way out (compile.c extend_block), where 3.11 keeps the jump, and the POP_BLOCK that starts a `return` in a try body holds the return's line, the NOP 3.11 keeps: `try: if a or (b and c): return X / except E: pass` then `return Y` once returned X whatever the test (`if ...: pass` + `else: return X`, unmarked; pydantic v1 typing._generic_get_args), inside a with too."""


# os.fwalk: each jump of the test out of the if goes to its own copy of
# [POP_BLOCK; close(fd); return None]; the body's call was lost.
def or_and_test_in_try_finally(a, b, c, fd):
    try:
        if a or (b and c(fd)):
            g(fd)
    finally:
        close(fd)


def or_and_test_yield_from_in_try_finally(a, b, c, fd):
    try:
        if a or (b and c(fd)):
            yield from g(fd)
    finally:
        close(fd)


# tempfile._get_candidate_names: a try body ending in an if whose test
# jumps out to a copy of [POP_BLOCK; lock.release(); return the global].
def if_at_end_of_try_finally(lock, make):
    global _name_sequence
    if _name_sequence is None:
        lock.acquire()
        try:
            if _name_sequence is None:
                _name_sequence = make()
        finally:
            lock.release()
    return _name_sequence


# The same in a with: the copies of the __exit__ call are joined, and the
# return after the outer if, which 3.10 also copies after the __exit__ call
# (extend_block), is a jump to the return again.
def if_at_end_of_with(lock, make):
    global _name_sequence
    if _name_sequence is None:
        with lock:
            if _name_sequence is None:
                _name_sequence = make()
    return _name_sequence


# _compression.readinto: the inner with's handler falls into the outer
# with's exit block, its normal way out jumps to the copy.
def nested_withs_then_return(self, b):
    with memoryview(b) as view, view.cast("B") as byte_view:
        data = self.read(len(byte_view))
        byte_view[: len(data)] = data
    return len(data)


# functools.cached_property.__get__, runpy._get_code_from_file.
def with_in_if_then_return(c, lock, make):
    if c:
        with lock:
            make()
    return c


# idlelib IOBinding.writefile: the copy after the with leaves the try
# (POP_BLOCK): it stays a return in the try body, not its else part.
def return_after_with_in_try(self, filename, chars):
    try:
        with open(filename, "wb") as f:
            f.write(chars)
        return True
    except OSError as msg:
        self.show(str(msg))
        return False


def loop_in_try_finally_then_return(items, f, done):
    try:
        for x in items:
            if x:
                f(x)
    finally:
        done()
    return items


# test_frame FrameAttrsTest.make_frames: the end of an `except ... as e`
# body (POP_BLOCK; POP_EXCEPT; e = None; del e) with the return after the
# try inlined, copied into the loop's first test: one block again.
def handler_loop_then_return(outer):
    try:
        outer()
    except ZeroDivisionError as e:
        tb = e.__traceback__
        frames = []
        while tb:
            frames.append(tb.tb_frame)
            tb = tb.tb_next
    return frames


# test_hashlib _conditional_import_module: a constant's return after the
# try reads as the handler's own `return` once one block: kept copied.
def handler_if_then_const_return(self, name):
    try:
        return load(name)
    except ImportError as error:
        if self.warn and name in names:
            warn(error)
    return None


# pydantic v1 typing._generic_get_args (3.10): the return in the try body,
# outside its range, which a's jump reaches; `return ()` copied into the
# false exits and into the clause.
def or_test_return_in_try(tp, T, U, v):
    try:
        if tp == T or (v >= (3, 9) and tp == U):
            return ((),)
    except TypeError:
        pass
    return ()


def or_test_return_in_try_simple(a, b):
    try:
        if a or b:
            return 1
    except TypeError:
        pass
    return 2


# The return unwinds the with too: POP_BLOCK (the return's line);
# POP_BLOCK; __exit__ call; LOAD_CONST 1; RETURN_VALUE.
def or_test_return_in_try_in_with(a, b, c):
    with c:
        try:
            if a or b:
                return 1
        except TypeError:
            pass
        return 2


# docutils readers.get_reader_class (3.10, weak lie fixed by lie36d): 3.10
# copies the `return m.R` after the try into the nested try's way out,
# after the outer handler's POP_EXCEPT (compile.c extend_block; 3.11 keeps
# the jump); the copy was printed as the nested try's else part, inside
# the outer handler, where an exception it raises carries the ImportError
# as __context__ (the original's has none).  try.c find_copy_in reads it
# at the end of the nested try's else part as the code after the try.
def return_copy_after_nested_try_in_handler(load, name):
    try:
        m = load('x.' + name)
    except ImportError:
        try:
            m = load(name)
        except ImportError as err:
            raise ValueError(name) from err
    return m.R
