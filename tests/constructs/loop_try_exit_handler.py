"""A try / except that ends a for loop's body in a try: 3.8 / 3.9 peephole.c threads the try's ways out through the loop's jump back, which unthread.c sends to that jump again; unreachable before, that jump had no handler (blocks.c), so it read as leaving the outer try too: `except KeyError: break / else: break`, the loop stopped after one pass (3.9 LIE at f1768de, real world networkx set_node_attributes / set_edge_attributes)."""


def set_attrs(G, values, name):
    try:
        for n in values:
            try:
                G[n][name] = values[n]
            except KeyError:
                pass
    except AttributeError:
        for n in G:
            G[n][name] = values
    return G



def set_edge_attrs(G, values, name):
    try:
        for (u, v), value in values.items():
            try:
                G[u][v][name] = value
            except KeyError:
                pass
    except AttributeError:
        for u, v, data in G:
            data[name] = values
