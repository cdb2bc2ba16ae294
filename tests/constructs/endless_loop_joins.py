"""Code before a loop that never ends, no path leaving it: such code had no
post-dominator (cfg.c), so the join of a conditional expression went unseen
and `w = x if c else y` came out as `if c: pass` / `else: w = y`, unmarked
(found by lie17's campaign, seed 12 program 477, on 3.11-3.13)."""

def stored_before_endless_loop(c):
    w = x if c else y
    v = 1
    while True:
        z(w, v)


def evaluated_before_endless_loop(c):
    x if c else y
    while True:
        z()


def serve(sock, c):
    handler = sock.accept if c else sock.recv
    while True:
        if handler():
            continue
        sock.close()


# Last: nothing after a module-level endless loop runs (nor is compiled).
x if c else y
while True:
    z()
