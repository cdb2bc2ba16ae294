"""try / except / else / finally, nested, with return, break and continue."""


def plain(f):
    try:
        f()
    except ValueError:
        print('value')
    except (TypeError, KeyError) as e:
        print('type or key', e)
    except Exception:
        raise
    else:
        print('no error')
    finally:
        print('always')


def return_in_finally_body(f):
    try:
        return f()
    finally:
        print('cleanup')


def return_in_handler(f):
    try:
        x = f()
    except OSError as e:
        return e.errno
    return x


def nested(f, g):
    try:
        try:
            f()
        except KeyError:
            g()
        finally:
            f()
    except Exception as outer:
        try:
            g(outer)
        except Exception:
            pass
    else:
        return 1
    return 0


def loop_control(items, f):
    total = 0
    for item in items:
        try:
            if item is None:
                continue
            if item < 0:
                break
            total += f(item)
        except ZeroDivisionError:
            continue
        except ValueError:
            break
        finally:
            total += 1
    return total


def while_try(f):
    while True:
        try:
            value = f()
        except StopIteration:
            break
        else:
            if value:
                return value


def bare_reraise(f):
    try:
        f()
    except:
        print('failed')
        raise


def raise_from(f):
    try:
        f()
    except KeyError as e:
        raise ValueError('missing') from e
    except IndexError:
        raise ValueError('bad') from None


def return_constant_in_finally(self, fut):
    try:
        fut()
        return True
    finally:
        self.release(fut)


def return_constant_in_if_in_finally(self, fut):
    try:
        if fut():
            return 1
        x = fut()
    finally:
        self.release(fut)
    return x


def return_in_with_branch(self):
    with self.lock:
        if self.raw is None or self.closed:
            return
    self.flush()


def return_value_in_finally_in_with(self, timeout):
    with self.cond:
        index = self.count
        try:
            if index + 1 == self.parties:
                self.release()
            else:
                self.wait(timeout)
            return index
        finally:
            self.count -= 1
            self.exit()


def finally_with_branch_at_function_end(self, exc):
    try:
        if self.connected:
            self.protocol.connection_lost(exc)
    finally:
        self.sock = None
        server = self.server
        if server is not None:
            server.detach()


def returns_from_nested_withs_in_loop(a, b, size):
    # Each with's exit is copied before each return, under the handler of
    # the with around it (blocks of their own).
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        while True:
            x = fa.read(size)
            y = fb.read(size)
            if x != y:
                return False
            if not x:
                return True


def return_constant_in_with_in_try(make):
    # `return True` after the with would be where __exit__ swallowing an
    # exception goes too; in the body, that path returns None.
    try:
        with make() as s:
            s.setup(0)
            return True
    except OSError:
        return False


def with_ending_if_branch_before_elif(self, name, f):
    if name:
        if not self.empty():
            with f:
                self.write(f)
        elif self.exists(name):
            self.remove(name)


def for_else_return_in_try(files, f):
    if f():
        try:
            for name in files:
                if f(name):
                    break
            else:
                return 1
        except OSError:
            pass
    f(2)


def return_from_for_in_with(f):
    with f:
        for line in f:
            if line.startswith("x"):
                return True
    return False


def if_else_return_in_try_in_loop(items, f):
    for b in items:
        try:
            if f(b):
                if b.ignore > 0:
                    b.ignore -= 1
                else:
                    return (b, True)
        except:
            return (b, False)
    return (None, None)


def handler_falls_into_return(fut):
    # 3.12+ copies the final return into the clause's way out (after its
    # POP_EXCEPT): code after the try, not the clause's.
    try:
        get_loop = fut.get_loop
    except AttributeError:
        pass
    else:
        return get_loop()
    return fut._loop


def handler_falls_into_return_in_if(self):
    self.check()
    if self.seekable is None:
        try:
            self.tell()
        except OSError:
            self.seekable = False
        else:
            self.seekable = True
    return self.seekable


def named_handler_falls_into_return(run, parser, args):
    if args:
        try:
            run(args)
        except BrokenPipeError as exc:
            parser.exit(exc.errno)
    else:
        parser.print_usage()
    return parser


def handler_falls_into_raise(self, warn):
    if not self.testing:
        try:
            print(warn)
        except OSError:
            pass
    raise SystemExit


def handler_then_else_loop_then_return(mod, aliases, name):
    try:
        found = mod.getaliases()
    except AttributeError:
        pass
    else:
        for alias in found:
            if alias not in aliases:
                aliases[alias] = name
    return name


def while_handler_breaks_to_return(f, x):
    while x:
        try:
            x = f(x)
        except ValueError:
            break
    return x


def code_after_try_in_if_only_handler_reaches(ok, f, g):
    # The try body returns: 3.12+ lays the code after the try out after
    # the handler, with a jump back to the if's end.
    if ok:
        try:
            return f()
        except KeyError:
            pass
        g()
    return 5


def return_none_after_try_only_handler_reaches(self, name):
    # A return written after the try has a line: 3.12+ does not copy it
    # into the clause's ways out, which both run into it.
    try:
        return load(name)
    except ImportError as error:
        if self.warn:
            warn(error)
    return None


def handler_returns_constant(f, g):
    try:
        f()
    except KeyError:
        return 5
    g()


def if_else_ending_clause(date_time, time):
    # 3.12+ gives each branch its own way out of the clause (POP_EXCEPT and
    # a jump back to the code after the try).
    try:
        gmtoff = date_time.tm_gmtoff
    except AttributeError:
        if time.daylight:
            gmtoff = 1
        else:
            gmtoff = -time.timezone
    delta = make(gmtoff)
    return delta


def if_else_ending_clause_into_return(date_time, time):
    try:
        gmtoff = date_time.tm_gmtoff
    except AttributeError:
        if time.daylight:
            gmtoff = 1
        else:
            gmtoff = -time.timezone
    return gmtoff


def if_break_else_raise_in_clause(data, decode):
    results = []
    while True:
        try:
            res = decode(data)
        except ValueError:
            if results:
                break
            else:
                raise
        results.append(res)
        data = data[1:]
        if not data:
            break
    return b''.join(results)


def else_at_function_end(self, arg):
    # Each handler ends in the implicit return, so the else part could as
    # well follow the try: the order of co_names (the else part's names
    # before the handlers') says where it was written.
    try:
        arg = int(arg)
    except ValueError:
        self.error("not a number")
    else:
        try:
            self.frame.lineno = arg
        except ValueError as e:
            self.error("failed: %s" % e)


def else_loop_at_function_end(path):
    # The else part is a loop: a compound statement starts where its
    # first code does (the iterable), which is what the order of co_names
    # is read against.
    try:
        entries = list(path)
    except OSError:
        pass
    else:
        for entry in entries:
            print(entry)


def else_with_at_function_end(self):
    try:
        result = self.opener.open(self.URL)
    except OSError:
        pass
    else:
        with result:
            while result.read():
                pass


def else_break_then_statements_after_loop(self, delay):
    # The code after the loop is laid out where the break was (nothing
    # else leaves the loop): the break's line, left as a NOP, tells.
    while True:
        try:
            obj, fmt = self.queue.get()
        except QueueEmpty:
            time.sleep(delay)
        else:
            break
    if fmt is not None:
        assert obj is None, repr(obj)
        return resolve(fmt)
    if fmt == PICKLED:
        obj = pickle.loads(obj)
    return obj


def else_holding_a_try_in_a_loop(ns, tpl):
    # The handler goes on to the loop, as the code after the try does: the
    # handler of the try in the else part, laid out before the outer
    # handler, says it was made first (names tell nothing here).
    for key, val in ns.items():
        if key in prohibited:
            raise AttributeError("cannot overwrite " + key)
        elif key not in special:
            try:
                set_name = type(val).__set_name__
            except AttributeError:
                pass
            else:
                try:
                    set_name(val, tpl, key)
                except BaseException as e:
                    e.add_note("calling __set_name__")
                    raise
    return tpl


def continue_in_if_ending_try_body(entries, parse, dir_only):
    # The protected range ends before the jump of the continue: both ways
    # out of the test leave the try's body, one by that lone jump.
    for entry in entries:
        if dir_only:
            try:
                if not entry.is_dir():
                    continue
            except OSError:
                continue
        path = parse(entry)
        yield path


def else_sharing_a_name_with_a_handler(self):
    try:
        self.obj.handshake()
    except AgainErrors:
        self.flush()
    except OSError as exc:
        self.complete(exc)
    else:
        self.complete(None)


def else_ending_in_a_short_circuit_raise(it, default, too_long):
    first = next(it, default)
    try:
        second = next(it)
    except StopIteration:
        return first
    else:
        msg = "more than one: {!r}, {!r}".format(first, second)
        raise too_long or ValueError(msg)


def bare_return_in_a_try_in_a_clause(self, arg):
    try:
        func = getattr(self, "help_" + arg)
    except AttributeError:
        try:
            doc = getattr(self, "do_" + arg).__doc__
            if doc:
                self.write(doc)
                return
        except AttributeError:
            pass
        self.write(arg)
        return
    func()


def loop_of_tries_in_try(queue, run, on_error):
    try:
        while True:
            try:
                item = queue.get()
            except LookupError:
                pass
            else:
                run(item)
    except BaseException:
        on_error()


def break_from_try_nested_in_loop_try(self, more):
    while True:
        try:
            try:
                line = self.raw_input(more)
            except EOFError:
                break
            else:
                more = self.push(line)
        except KeyboardInterrupt:
            more = 0
    self.write("bye")


def finally_starting_with_a_try(self):
    # PUSH_EXC_INFO is a block of its own (the inner try's protection starts
    # right after it), and the copy of the finally body on the normal way
    # out has handlers of its own that the original's statement holds.
    try:
        if self._mode == 1:
            self._buffer.close()
    finally:
        try:
            if self._closefp:
                self._fp.close()
        finally:
            self._fp = None
            self._closefp = False


def finally_holding_a_with(sock):
    # The copied with's handler goes on, when it swallows the exception,
    # to the code after the copy: that code is not the handler's.
    try:
        sock.bind()
    finally:
        with expect(OSError):
            sock.close()
    with expect(TypeError):
        close(None)


def finally_that_only_raises(self):
    try:
        self.close()
    finally:
        raise


def return_value_mid_try_body(f, x):
    # The way out of `return x` (the copy of the finally body, then the
    # RETURN) lies between blocks of the body, which goes on after it.
    try:
        if x:
            return x
        f.flush()
    finally:
        f.close()
    return None


def finally_branch_before_return(f, x):
    # The finally body's branch ends it early: in the copies before the
    # return and on the normal way out it jumps to a copy of the RETURN and
    # to the code after the try.
    try:
        if x:
            return x
        f.flush()
    finally:
        if f:
            f.close()
    return None


def finally_holding_a_loop_of_tries(names, modules):
    # 3.12+ moves the inner handlers after all other code, but not in the
    # finally's own handler: the copy on the normal way out lacks them.
    try:
        yield
    finally:
        for name in names:
            try:
                del modules[name]
            except KeyError:
                pass


def finally_holding_try_finally_with_handler(self):
    try:
        self.flush()
    finally:
        sock = self.sock
        if sock is not None:
            try:
                sock.shutdown()
            except OSError:
                raise
            finally:
                sock.close()


def handler_falls_into_raise_of_a_call(stdin, code):
    # The copy of the code after the try is four instructions of the code
    # object, five neutral ones (the global's load pushes a NULL too).
    try:
        stdin.close()
    except:
        pass
    raise SystemExit(code)


def bare_return_in_branch_of_try_body(self, args):
    # 3.12+: no jump follows the return; the branch skipping it goes
    # straight on to the code after the try, which the handler jumps to.
    try:
        cond = args[1]
        if cond:
            self.error(cond)
            return
    except IndexError:
        cond = None
    self.go(cond)


def return_from_loop_around_try_finally(items, f):
    # 3.12+ pops the loop's iterator after the copy of the finally body,
    # right before the RETURN.
    for item in items:
        try:
            if item:
                return item
            f.flush()
        finally:
            f.close()


def code_after_try_copied_into_finally_branch(f, items):
    # The code after the try is a small exit block: the copy of the
    # finally body on the normal way out has a copy of it in its branch.
    try:
        for item in items:
            if item:
                return item
    finally:
        if f:
            f.close()
    done()


def return_in_middle_of_try_finally(self):
    # The finally body's copy before the return is a block of its own,
    # outside the protected range: the body goes on after it.
    try:
        if self.ready:
            return self.result()
        self.wait()
    finally:
        self = None


def return_from_with_in_try_finally(self, timeout):
    # The return's value waits under the with's exits, then the finally
    # body's copy, each under another handler.
    try:
        with self.lock:
            if self.done:
                return self.get()
            self.lock.wait(timeout)
    finally:
        self = None


def return_from_with_in_try_except(path):
    # The with's exits are protected by the try, its RETURN is not.
    try:
        with open(path, 'rb') as f:
            return load(f)
    except OSError:
        return None


def return_from_if_in_try_body(self, host):
    # The RETURN_VALUE of the return, which cannot raise, is left out of
    # the protected range in the middle of the body.
    try:
        resp = self.request(host)
        if resp.status == 200:
            return self.parse(resp)
    except Exception:
        self.close()
        raise
    raise ProtocolError(host, resp.status)


def return_from_except_in_with(compiler, source):
    # 3.12+ lays the handler out after the with: the return in the
    # clause leaves through a copy of the with's exit there.
    with catch_warnings():
        try:
            compiler(source)
        except SyntaxError:
            return None
    return compiler(source, strict=True)


def return_from_nested_except_in_with(compiler, source):
    # The return in the inner clause pops both exceptions: the outer
    # clause's POP_EXCEPT is a block of its own, under the with's handler.
    with catch_warnings():
        try:
            compiler(source)
        except SyntaxError:
            try:
                compiler(source + "\n")
            except SyntaxError as e:
                if "incomplete input" in str(e):
                    return None
    return compiler(source, strict=True)


def return_from_except_in_try_finally(run, cleanup):
    # 3.12+ lays the inner handler out after the code: the return in its
    # clause leaves through a copy of the finally body there.
    try:
        try:
            run()
        except KeyError:
            return 1
    finally:
        cleanup()
    return 2


def try_in_clause_in_loop(commands, rules):
    # 3.13 copies the way on of the outer clause (POP_EXCEPT; jump back to
    # the loop) into the inner try's body exit: no else part, no continue.
    for b in commands:
        try:
            rules[b]()
        except TypeError:
            try:
                run(rules[b], rules)
            except:
                pass


def try_in_clause_then_return(cache, key):
    # 3.12+ copies the code after the outer try (with the outer POP_EXCEPT)
    # into each way out of the inner try: it stays after the outer try.
    try:
        files = cache[key]
    except KeyError:
        try:
            files = cache[key] = read(key)
        except ImportError:
            files = {}

    return files


def if_else_ends_finally(run, ok, good, bad):
    # 3.11+ gives each branch ending the finally body its own RERAISE in
    # the handler: the body ends at the last, not the first.
    try:
        run()
    finally:
        if ok:
            good()
        else:
            bad()


def break_ends_finally(self, retries):
    # The break that ends the finally body is a copy of its RERAISE (after
    # the POP_TOP of the iterator) in the handler.
    try:
        self.run()
    finally:
        self.finished.append(1)
        for _ in retries():
            if self.can_exit:
                break


def if_with_try_ends_finally(fp, fn):
    # 3.11 lays the handler of the try out inside the finally body, before
    # the RERAISE the if's test jumps to.
    try:
        fp = None
    finally:
        if fp:
            try:
                unlink(fn)
            except OSError:
                pass


def if_with_loop_ends_finally(modes, count):
    # The if's test and the loop's exit leave by lone RERAISEs in a row.
    try:
        count()
    finally:
        if modes is not None:
            for m in modes:
                restore(m)
    return count


def else_after_try_in_cold_code(open_, url):
    # The first try's else part returns: the code after it is reached from
    # the handler only, and 3.12+ keeps the handlers of the second try in
    # place there.
    try:
        p = open_(url)
    except OSError:
        pass
    else:
        p.wait()
        return True
    try:
        p = open_(url, 1)
    except OSError:
        return False
    else:
        return p.poll() is None


def try_else_ends_elif_branch(path, c, percent, env):
    # The handler goes on past the branch (where the if statement ends):
    # the rest of the branch is the else part.
    while path:
        if c == 1:
            use(c)
        elif c == percent:
            if path[0] == percent:
                path = path[1:]
            else:
                try:
                    index = path.index(percent)
                except ValueError:
                    index = 5
                else:
                    var = path[:index]
                    try:
                        value = env[var]
                    except KeyError:
                        value = percent
                    use(value)
        else:
            use(path)
        path = path[1:]
    return path


def except_pass_else_raise(it):
    """The handler falls off the end: a copy of the implicit return."""
    try:
        next(it)
    except StopIteration:
        pass
    else:
        raise AssertionError("too many items", it)


def with_then_break_in_try(names):
    # 3.13: the with's way on after a swallowed exception keeps the try's
    # handler when it goes to a break (or an else part) written in the try.
    for name in names:
        try:
            with open(name) as fp:
                data = fp.read()
            break
        except OSError:
            pass
    print(data)


def with_in_try_else_ends(self, f):
    try:
        with f:
            1 / 0
    except ZeroDivisionError:
        pass
    else:
        self.fail("no exception")


def return_after_try_copied_into_body(filename, check):
    # 3.12+ copies the return after the try into the ends of the body (not
    # under the try's handler) and of the clause.
    result = False
    try:
        if hasattr(filename, "read"):
            result = check(fp=filename)
        else:
            with open(filename, "rb") as fp:
                result = check(fp)
    except OSError:
        pass
    return result


def return_in_with_finally_ending_with_if(f, x):
    # The finally's if jumps straight to the with exit in the copy run
    # before the return.
    with f:
        try:
            return f.read()
        finally:
            if x:
                f.close()


def return_in_finally_in_with_after_handler(path, x):
    # 3.12+ lays the except clause out right after the with's exit and
    # the return, past the end of the with body.
    try:
        f = open(path)
    except OSError:
        raise
    with f:
        try:
            return f.read()
        finally:
            f.close()


def elif_after_then_try_returning(self, dirname):
    # The then part's try body returns: it goes on only through its except
    # clause, laid out after the code (3.12+), which jumps back past the
    # elif.
    if dirname == '..':
        try:
            return self.up()
        except OSError as msg:
            if msg.args[0] != 5:
                raise
    elif dirname == '':
        dirname = '.'
    return self.go(dirname)


def return_value_then_finally_returns(a, b):
    # The finally body's copy before `return a + b` drops the kept value
    # (SWAP 2; POP_TOP) where the handler drops the exception: a + b is
    # computed first, a - b is what returns.
    try:
        return a + b
    finally:
        return a - b


def return_call_then_finally_returns_constant(a, b):
    try:
        print(a)
        return a(b)
    finally:
        print(b)
        return None


def return_in_loop_then_finally_returns(items, b):
    for a in items:
        try:
            return a + b
        finally:
            return a - b


def clause_left_only_by_return(it, read):
    # The clause's loop never runs off its end: the RERAISE of an
    # exception no clause matched follows its code, and is no way on.
    try:
        for chunk in it:
            yield chunk
    except AttributeError:
        while True:
            chunk = read()
            if not chunk:
                return
            yield chunk


def else_before_finally_copies(name, modules):
    # 3.12+: the handler raises, so the else part could as well follow the
    # try; KeyError, first met in the handler, is used again by the copies
    # of the finally body, compiled later: it still tells that the else
    # part's __path__ came before it in co_names.
    if modules.get(name) is None:
        raise ImportError(name=name)
    try:
        if name:
            try:
                parent = modules[name]
            except KeyError:
                raise ImportError(name=name) from None
            else:
                path = parent.__path__
        else:
            path = None
        return path
    finally:
        try:
            del modules[name]
        except KeyError:
            pass
