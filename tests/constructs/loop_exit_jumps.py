"""Loop bodies whose ends 3.12+ replaced by copies of the jump back to the loop (issue 16; stdlib inspect.getclasstree, real-world cyclopts Argument._update_lookup)."""


def inner_break_to_outer_header(classes, unique, roots):
    for c in classes:
        if c.__bases__:
            for parent in c.__bases__:
                if c:
                    g()
                if unique and parent in classes:
                    break
        elif c not in roots:
            roots.append(c)


def then_ends_in_raise(self, field_infos, discriminator):
    for key, field_info in field_infos.items():
        if existing := self._lookup.get(key):
            if existing == field_info:
                pass
            elif discriminator:
                g()
            else:
                raise NotImplementedError
        else:
            self._lookup[key] = field_info


def then_ends_in_return(xs):
    for x in xs:
        if x:
            if x > 1:
                g()
            else:
                return x
        else:
            h(x)
