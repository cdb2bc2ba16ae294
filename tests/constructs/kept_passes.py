"""Statements that left only a NOP: `pass` where blocks join and at the end (3.10+)."""
# CPython keeps a NOP of its own line (remove_redundant_nops), and a block it
# starts is no exit without a line number: the jumps of the match below go
# to it instead of each getting a copy of the final return
# (duplicate_exits_without_lineno), and 3.12+ do not inline it
# (inline_small_exit_blocks), the passes making it more than four
# instructions.  The output keeps the passes, and so the jumps.


def ends_in_pass(x):
    x.close()
    pass


match value:
    case 1:
        pass
    case 2:
        pass
pass
pass
pass
pass
pass
