"""An `except E as e:` clause at the end of a function whose if / elif
ends in a test of two links (`elif a and b:`).

3.10 / 3.11 copy the clause's way out (POP_EXCEPT; e = None; del e;
return None: no line, so duplicate_exits_without_lineno copies it whole,
six instructions) into each jump to it, and the two links of the `and`
fail to two copies on the elif's line.  Read as two exits, the `and`
becomes nested ifs and one copy is held by no statement: marked, not
recovered (stdlib urllib.robotparser RobotFileParser.read, pip's
utils/misc.py, asyncio base_subprocess; a false alarm, found at stop 42).
Without the name (copies of three instructions) and on 3.8 / 3.9 / 3.12 /
3.13 it is recovered.  Normalize joins the copies back (exitjoin.c
undo_named_clause_exit_copies); on 3.10, which lays the else part out
after the clauses, the joined way out on the line of a way into it is
the implicit return, a written `return` has a line of its own
(written_return, try.c falls_off_end_of_code).
"""


def read_status(self, urlopen, HTTPError):
    try:
        f = urlopen(self.url)
    except HTTPError as err:
        if err.code in (401, 403):
            self.disallow_all = True
        elif err.code >= 400 and err.code < 500:
            self.allow_all = True
    else:
        self.parse(f.read())


def remove_dir(path, rmdir, errno):
    try:
        rmdir(path)
    except OSError as e:
        if e.errno != errno.EEXIST and e.errno != errno.ENOTEMPTY:
            raise


def read_status_unnamed(self, urlopen, HTTPError):
    try:
        f = urlopen(self.url)
    except HTTPError:
        if self.code in (401, 403):
            self.disallow_all = True
        elif self.code >= 400 and self.code < 500:
            self.allow_all = True
    else:
        self.parse(f.read())


def read_status_written_return(self, urlopen, HTTPError):
    try:
        f = urlopen(self.url)
    except HTTPError as err:
        if err.code in (401, 403):
            self.disallow_all = True
        elif err.code >= 400 and err.code < 500:
            self.allow_all = True
        return
    self.parse(f.read())


def read_status_in_if_body(self, urlopen, HTTPError, c):
    if c:
        try:
            f = urlopen(self.url)
        except HTTPError as err:
            if err.code in (401, 403):
                self.disallow_all = True
            elif err.code >= 400 and err.code < 500:
                self.allow_all = True
        else:
            self.parse(f.read())
    else:
        self.other()


def read_status_value_after(self, urlopen, HTTPError):
    try:
        f = urlopen(self.url)
    except HTTPError as err:
        if err.code in (401, 403):
            self.disallow_all = True
        elif err.code >= 400 and err.code < 500:
            self.allow_all = True
    else:
        self.parse(f.read())
    return self


def read_status_two_named_clauses(self, urlopen, HTTPError):
    try:
        f = urlopen(self.url)
    except HTTPError as err:
        if err.code in (401, 403):
            self.disallow_all = True
        elif err.code >= 400 and err.code < 500:
            self.allow_all = True
    except OSError as err:
        if err.errno and err.strerror:
            self.log(err)
    else:
        self.parse(f.read())


def named_clause_in_loop(self, items, HTTPError):
    for it in items:
        try:
            f = it()
        except HTTPError as err:
            if err.code and err.reason:
                self.log(err)
        else:
            self.parse(f)


try:
    import zlib
except ImportError as exc:
    if exc.name and exc.path:
        zlib = None
else:
    level = zlib.Z_DEFAULT_COMPRESSION
