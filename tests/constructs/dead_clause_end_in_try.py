"""The dead end of an except clause whose body raises, in an if / else in a try body: 3.8-3.9 keep POP_EXCEPT; JUMP_FORWARD after it (and the name cleanup of `except E as e:`), which nothing reaches; left out of the outer try's body, it split that body, and the else part and the outer try were not recovered (networkx convert.to_networkx_graph's shape)."""


def clause_raises_in_then_part(data, nx, x):
    try:
        if data:
            try:
                return nx.a(data)
            except Exception:
                raise nx.E(1)
        else:
            x()
    except ImportError:
        pass
    return 5


def named_clauses_raise_in_both_parts(data, nx):
    try:
        import pandas as pd

        if isinstance(data, pd.DataFrame):
            if data.shape[0] == data.shape[1]:
                try:
                    return nx.a(data)
                except Exception as err:
                    raise nx.E(1) from err
            else:
                try:
                    return nx.b(data)
                except Exception as err:
                    raise nx.E(2) from err
    except ImportError:
        pass
    return 5

