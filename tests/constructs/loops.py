"""while / for, with else, break and continue."""


def while_else(n):
    i = 0
    while i < n:
        if i == 7:
            print('found')
            break
        i += 1
    else:
        print('not found')
    return i


def for_else(items, target):
    for index, item in enumerate(items):
        if item == target:
            break
    else:
        index = -1
    return index


def nested_loops(rows):
    out = []
    for row in rows:
        for cell in row:
            if cell is None:
                continue
            if cell < 0:
                break
            out.append(cell)
        else:
            out.append('end')
    return out


def while_true(queue):
    while True:
        item = queue.pop()
        if not item:
            break
        print(item)


def while_with_test_and_continue(x):
    while x > 0:
        x -= 1
        if x % 2:
            continue
        print(x)


def loop_in_module_scope_style(data):
    total = 0
    for a, (b, c) in data:
        total += a * b - c
    return total


def while_compound_test_ending_in_break(read, size):
    res = bytearray()
    while size < 0 or len(res) < size:
        b = read()
        if not b:
            break
        res += b
        if res.endswith(b'\n'):
            break
    return bytes(res)


def while_ending_an_if_branch(a, x, lo, hi, key):
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < a[mid]:
                hi = mid
            else:
                lo = mid + 1
    else:
        key(lo)
    return lo


def assert_ends_loop_body(trees):
    for tree in trees:
        todo = set(tree)
        for c in tree:
            todo.remove(c)
        assert not todo


def nested_if_in_elif_in_loop(lines, a, b, c):
    for line in lines:
        if a:
            x = line
        elif b:
            if c:
                x = 2
        else:
            x = 3
    return x


def while_first_in_if_body(self, size):
    if size < 0:
        while self.read(1):
            pass
    return size


def while_compound_test_leaving_to_return_copies(waiters, n):
    while waiters and n > 0:
        waiter = waiters.pop()
        n -= waiter


def while_body_ending_in_continue_then_break(heap, pos, item):
    while pos > 0:
        parent = heap[pos >> 1]
        if item < parent:
            heap[pos] = parent
            pos >>= 1
            continue
        break
    heap[pos] = item


def while_true_body_ending_in_continue_then_break(x, y):
    while True:
        if x:
            y()
            continue
        break


def while_ending_try_body(src, pos, chars):
    try:
        while src[pos] in chars:
            pos += 1
    except IndexError:
        pass
    return pos


def break_threaded_to_outer_header(sequences):
    for s1 in sequences:
        for s2 in sequences:
            if s1 in s2:
                break
        else:
            break
    return sequences


def break_of_while_ending_loop_body(items, f):
    for item in items:
        while True:
            if f(item):
                break
            f(0)
    return items


def for_else_return_ending_if_branch(path, pages, f):
    if f(path):
        for index in pages:
            if f(index):
                path = index
                break
        else:
            return f(path)
    return f(path)


def while_true_break_to_moved_return(self, validate):
    while 1:
        ch = self.win.getch()
        if validate:
            ch = validate(ch)
        if not ch:
            continue
        if not self.do_command(ch):
            break
        self.win.refresh()
    return self.gather()


def while_true_of_try_in_try(queue, run, on_error):
    try:
        while True:
            try:
                item = queue.get()
            except LookupError:
                continue
            if item is None:
                return
            run(item)
    except BaseException:
        on_error()


def while_true_breaking_from_handler_in_with(self, queue):
    with self.lock:
        self.broken = True
        while True:
            try:
                item = queue.get_nowait()
            except LookupError:
                break
            if item is not None:
                item.fail(self.broken)


def for_whose_body_always_returns(self):
    # No back edge: only the FOR_ITER says it is a loop.
    for key in self.sections():
        value = self[key]
        del self[key]
        return key, value
    raise KeyError


def for_else_break_copied_as_the_return_after_else(x, y):
    # 3.12+ copies the final `return y` in place of the break's jump, past
    # the else part: the copy pops the iterator before it loads y.
    for k, j in zip(x, y):
        if k is not j:
            y = tuple(y)
            break
    else:
        y = x
    return y


def for_else_breaks_in_nested_blocks_copied_as_return(items, f):
    for item in items:
        if f(item):
            if item:
                result = item
                break
        elif f(None):
            result = None
            break
    else:
        result = f(None)
        f(result)
    return result


def for_else_in_try_else_break_copied_as_return_after_try(name, lookup, error):
    # The return the break leads to follows the try statement.
    try:
        host, aliases = lookup(name)
    except error:
        pass
    else:
        for name in aliases:
            if "." in name:
                break
        else:
            name = host
    return name


def while_ending_for_body(lists):
    for items in lists:
        items.reverse()
        while items and items[-1]:
            print(items.pop())


def while_ending_if_body_at_function_end(self, frame):
    if not self.breaks:
        while frame and frame is not self.botframe:
            frame = frame.f_back


def while_chained_test_before_return(pattern, text, i, n):
    while 0 <= i < n:
        match = pattern.match(text, i)
        if not match:
            break
        i = match.end(0)
    return i


def while_chained_test_with_continue(pattern, text, i, n, seen):
    while 0 <= i < n:
        i = pattern.end(i)
        if not seen:
            continue
        text.append(i)
    return i


def while_one_numbers_its_one_first(lexer, x):
    # `while 1` numbers the constant 1 where the loop starts, before the
    # constants of its body; the 1 loaded later shows it.
    while 1:
        tt = lexer.get_token()
        if not tt:
            break
        elif tt[0] == '#':
            continue
        x = tt[0] + 1
    return x


def continue_from_with(items, lock, skip):
    # The continue leaves through a copy of the with's exit, then jumps
    # back to the header: the same jump as the with's own way out.
    for item in items:
        with lock:
            if skip(item) or not item:
                continue
            use(item)


def continue_from_except_in_with(items, check):
    for item in items:
        with check(item):
            try:
                value = next(item)
            except StopIteration:
                continue
            use(value)


def in_test_ending_loop_body(changed, environ, seen):
    # 3.12 threads the jump of `if k in environ` to the end of the body
    # into a jump over the jump back: the test keeps its `in`, and the
    # then part of the outer if ends with the inner one.
    for k, v in changed.items():
        if v is None:
            if k in environ:
                del environ[k]
        elif k not in seen:
            environ[k] = v


def while_true_break_from_handler_after_try(root, key):
    try:
        handle = open_key(root, key)
    except OSError:
        return
    while True:
        try:
            sub = enum_key(handle, 0)
        except OSError:
            break
        delete(handle, sub)
    close(handle)


def while_true_break_from_handler_in_if(self, executor):
    # Only the break in the clause reaches the code after the loop: 3.12+
    # lays it out after the handler, with a jump back to the if's end.
    if executor.cancel:
        while True:
            try:
                self.queue.get_nowait()
            except Empty:
                break
        executor.cancel = False


def while_try_body_breaks_into_exit(parts):
    while parts:
        try:
            attempt(parts)
            break
        except ImportError:
            parts.pop()
    finish()


def while_try_body_breaks_in_if(parts, module):
    if module is None:
        while parts:
            try:
                module = attempt(parts)
                break
            except ImportError:
                parts.pop()
        parts = parts[1:]
    return module


def break_to_return_after_else_loop(offsets, flags, count):
    for i in offsets:
        if count == i:
            break
        flags[i] = 0
    else:
        for j in range(count):
            flags[j] = 1
    return flags


def break_to_copied_call_return(frame, count):
    frames = []
    for index in range(count):
        frames.append(frame)
        frame = frame.f_back
        if frame is None:
            break
    return tuple(frames)


def for_else_break_copied_as_the_implicit_return(items, marker):
    """The break's copy of the implicit return is a bare return's code."""
    for item in items:
        if item == marker:
            break
    else:
        fail("no marker")


def for_breaks_copied_as_the_implicit_return(cls):
    """None enters co_consts after the later tests' strings."""
    for c in cls.__mro__:
        if "first" in c.__dict__:
            break
        if "second" in c.__dict__:
            cls.picked = c
            break


def for_in_for_whose_body_always_returns(rows):
    for row in rows:
        for cell in row:
            return cell


def for_else_breaking_from_except(count, method, self):
    for i in range(count):
        t1 = start()
        try:
            method()
        except TimeoutError as e:
            delta = start() - t1
            break
    else:
        self.fail("not raised")
    self.check(delta)
    self.check(delta, count)


def while_true_returning_then_breaking_past_the_return(self, block):
    while True:
        event = self.get()
        if not event:
            if block:
                continue
            return False
        cmd = event.cmd
        if cmd is None:
            if block:
                continue
            return False
        self.do(cmd)
        return True


def break_ending_then_part_of_try_body(func, value, sleep):
    # The break's iterator pop and jump follow the protected range.
    for i in range(10):
        try:
            if func() == value:
                break
        except NotImplementedError:
            break
        sleep(i)
    sleep(0)


def continue_ending_then_part_of_try_body(before, after):
    # The continue's jump follows the protected range; the test jumps over
    # it to the end of the body, no else part.
    for k, v in after:
        try:
            if v != before[k]:
                print(k, v)
                continue
        except KeyError:
            pass
        print(k)


def while_and_test_continuing_then_returning(self):
    while self.queue and self.connected:
        first = self.queue[0]
        try:
            data = first[:3]
        except TypeError:
            self.queue.popleft()
            continue
        if data:
            self.send(data)
        return


def while_continuing_only_from_except_clause(self):
    while self.active:
        if self.ready:
            try:
                conn = self.accept()
            except BlockingIOError:
                continue
            else:
                self.handle(conn)


def while_true_except_clause_continuing_else_raising(self):
    tries = 0
    while True:
        try:
            port = self.find()
        except OSError as ex:
            if ex.errno == 98:
                tries += 1
                continue
            else:
                raise
        else:
            break
    self.use(port)


def while_test_of_several_blocks(a, b):
    # 3.8-3.9 lay a while loop out with its test on top only: the test of
    # two blocks heads the loop, and the body's end jumps back to it.
    while a < 5 and b < 0:
        a += 1
    return a


def while_compound_test_break_at_body_end(a, b):
    # The if's test is no network with the copy of the loop's test at the
    # bottom of the body (structure_while skips that copy).
    while a < 5 and (b < 0 or a):
        a += 1
        if a:
            break
    else:
        a = 3
    return a
