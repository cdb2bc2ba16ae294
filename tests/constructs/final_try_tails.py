"""A try statement ending a function, whose ways out the compiler ends in
copies of the implicit `return None` (each once read with a written
return, or with the code of an else part after the try, on 3.11: lib2to3's
print_output, test_except_star's tests)."""


# The then part's with exit runs into a copy of the implicit return, the
# else part's loop too: an if / else, not `if c: with ...; return`.
def print_diff(self, lines):
    try:
        if self.lock is not None:
            with self.lock:
                self.write(lines)
        else:
            for line in lines:
                print(line)
    except UnicodeEncodeError:
        self.warn()


# A written return in the with body keeps its line (a NOP) before the exit.
def print_diff_return(self, lines):
    try:
        if self.lock is not None:
            with self.lock:
                self.write(lines)
                return
        for line in lines:
            print(line)
    except UnicodeEncodeError:
        self.warn()


# The else part after a body that always raises never runs: the compiler
# drops its code but keeps the names it numbered.
def raises_else_fails(self, make):
    try:
        raise make()
    except ValueError:
        self.seen = True
    else:
        self.fail("not raised")


# A try ending the then part of a final if / else: every way on of the try
# ends in a copy of the implicit return, not a written one.
def spawn(mode, run, wait, pid):
    if not pid:
        try:
            if mode is None:
                run(pid)
            else:
                run(pid, mode)
        except:
            wait(127)
    else:
        while 1:
            status = wait(pid)
            if status:
                continue
            return status
