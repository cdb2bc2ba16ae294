"""A try whose body is laid out around the handlers of a try before it:
3.12+ push_cold_blocks_to_end puts the earlier try's except clause after
the code that follows that try, here between a loop's jump back and the
clause of a try in the loop.  The body's protected range ended at those
handlers, the loop's break (a copy of the finally body, then the return)
was lost and that copy marked (code.py InteractiveConsole.interact)."""


def clause_break_past_earlier_handler(read, write, f):
    try:
        f.ps1
    except AttributeError:
        f.ps1 = '>>> '
    try:
        while True:
            try:
                read()
            except EOFError:
                break
    finally:
        write()


def clause_break_past_earlier_handler_if_finally(read, write, old, msg):
    try:
        read.ps1
    except AttributeError:
        read.ps1 = '>>> '
    try:
        while True:
            try:
                line = read()
            except EOFError:
                write('\n')
                break
            else:
                msg = write(line)
    finally:
        if old is not None:
            write(old)
        if msg is None:
            write('bye')
