"""Loops and except clauses where the exception table tells the shapes apart.

A `while True:` whose except clause starts with a statement that left only
a NOP (`if __debug__:`): the clause's code is no code after the loop moved
in place of a break (imaplib IMAP4._get_tagged_response).  A one-line
`if not c: continue` in a loop in a try: 3.12+ spells the `if c:` that
ends a loop body the same way, but its pair of jumps has no handler (a hole
in the try's range), the written continue has the try's (imaplib's
module-level try)."""


def clause_debug_nop_in_endless_loop(self):
    while 1:
        self.g()
        try:
            self.h()
        except ValueError as val:
            if __debug__:
                if self.debug:
                    self.p(val)
            raise


def one_line_continue_ends_loop_in_try(seq, run):
    try:
        for cmd in seq:
            uid = run(cmd)
            if not uid: continue
            run('uid')
    except:
        raise


def if_ends_loop_in_try(seq, run):
    try:
        for cmd in seq:
            uid = run(cmd)
            if uid:
                run('uid')
    except:
        raise
