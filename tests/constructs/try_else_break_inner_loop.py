"""`while True:` / `while True:` / `try: A / except: B / else: break`
+ code after the inner loop: 3.12+ lay the inner loop's jump back (where
the handler goes on) out cold, after the handler, and the else part's
break runs into the code after the inner loop, which jumps back to the
outer loop's header.  Read as `else: C / break`, the same code; the order
of co_names tells (stdlib test_queue consume_nonblock, 3.12 / 3.13)."""


def consume_then_return(self, q, results, sentinel):
    while True:
        while True:
            try:
                val = q.get(block=False)
            except self.queue.Empty:
                time.sleep(1e-05)
            else:
                break
        if val == sentinel:
            return
        results.append(val)


def consume_then_call(q, results, sleep):
    while True:
        while True:
            try:
                val = q.get()
            except KeyError:
                sleep(1)
            else:
                break
        results.append(val)


def else_part_then_break(q, results, sleep):
    while True:
        while True:
            try:
                val = q.get()
            except KeyError:
                sleep(1)
            else:
                results.append(val)
                break
