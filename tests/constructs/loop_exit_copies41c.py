"""Loops whose way out is a small exit block copied in place of a jump
(lie41c, stop 41; from audit41's pyserial lies).

A `break` after an `if` in a loop, where the code after the loop is a small
return (flowgraph.c inline_small_exit_blocks, compile.c extend_block on
3.10): the copy in place of the break follows a NOP for the break's line,
which the if's false jump reaches.  Joined back to the return
(normalize/uncopy.c), the jump must keep the break's line, or the break
reads as part of the if's body.  read_until_deadline (protocol_loop
Serial.read) printed `if not logger: break` / `logger.info(...)` on 3.10
and 3.12: with a logger the loop went on past its deadline.

A `while True:` whose try has an else part and a return after it
(tools.miniterm ask_for_port): 3.11 lays the else part and the return out
after the loop's last jump back, with no copy of the return, and the
clause's way on to the return read as the end of the loop body: an answer
that is no number asked again.  Marked (recover/structure.c
goes_on_past_loop), in an if statement too; in a for loop the return stays
in the loop.  3.8 and 3.9 mark both while loops as before.
"""


def stop_after_logging(port, size, expired):
    while size > 0:
        b = port.get()
        if b is None:
            break
        if expired():
            if port.logger:
                port.logger.info("read timeout")
            break
        size -= 1
    return bytes(b)


def drain_until_done(items, done, log):
    out = []
    for x in items:
        if x is None:
            break
        out.append(x)
        if done(x):
            if log:
                log.append("done")
            break
    return tuple(out)


def stop_after_either_note(port, size, expired, notes):
    data = bytearray()
    while size > 0:
        b = port.get()
        if b is None:
            break
        data += b
        if expired():
            if port.logger:
                port.logger.info("late")
            else:
                notes.append("late")
            break
        size -= 1
    return bytes(data)


def ask_until_number(answers, limit):
    while True:
        text = answers.pop(0)
        try:
            n = int(text)
            if n > limit:
                answers.append("again")
                continue
        except ValueError:
            pass
        else:
            text = n * 2
        return text


def ask_if_interactive(answers, ports, interactive):
    if interactive:
        while True:
            port = answers.pop(0)
            try:
                index = int(port) - 1
                if not 0 <= index < len(ports):
                    answers.append("invalid")
                    continue
            except ValueError:
                pass
            else:
                port = ports[index]
            return port
    return None


def ask_for_number(answers):
    for _ in range(3):
        text = answers.pop(0)
        try:
            n = int(text)
            if n < 0:
                continue
        except ValueError:
            pass
        else:
            text = n
        return text
    return None
