"""Try bodies that end in an if statement whose handlers never go on:
3.11 lays the code after the try out past the handlers, behind a lone
jump over them that the if's test jumps to (each once left unrecovered on
3.11: networkx Graph.remove_edge, asyncio's _read_ready__get_buffer)."""


# The handler raises: only the jump over it reaches the code after the try.
def remove_edge(adj, u, v):
    try:
        del adj[u][v]
        if u != v:
            del adj[v][u]
    except KeyError as err:
        raise LookupError(u, v) from err
    adj.clear()


# Every clause leaves, by a raise or a return.
def read_buffer(self):
    if self.lost:
        return
    try:
        buf = self.get_buffer(-1)
        if not len(buf):
            raise RuntimeError("empty buffer")
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:
        self.fatal(exc)
        return
    self.receive(buf)


# The if statement has an else part.
def parse_status(line, log):
    try:
        version, status = line.split(None, 1)
        if log:
            log(status)
        else:
            status = status.strip()
    except ValueError:
        return None
    log.done(version)
    return version, status
