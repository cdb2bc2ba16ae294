"""global, del, assert, imports, augmented assignment, with."""
import os.path
import os.path as osp
import xml.etree.ElementTree as ET
from collections import OrderedDict as OD, deque
from . import sibling
from .package.module import name as alias

counter = 0


def uses_global():
    global counter
    counter += 1
    del counter


def deletes(d, obj, items):
    del d['key'], obj.attr
    del items[1:3]
    x = 1
    del x


def assertions(x):
    assert x
    assert x > 0, f'bad {x}'


def augmented(obj, d, i):
    obj.count += 1
    d[i] -= 2
    d[i:i + 2] *= 3
    i **= 2
    i //= 3
    i @= obj
    return i


def with_statements(a, b, path):
    with open(path) as f, a:
        f.read()
    with a as (x, y):
        print(x, y)
    with b:
        pass


read_only_global = 1


def reads_a_declared_global():
    # The declaration makes the module's stores STORE_GLOBAL, though this
    # function only reads the name.
    global read_only_global
    return read_only_global


def assert_false_with_message(x):
    # The compiler drops the constant test: only the raise is left.
    if x:
        return x
    assert False, 'unreachable'


def dead_yield_generator(x):
    # A generator by its dead yield alone.
    x()
    return
    yield


def elif_before_shared_return(self, node):
    # 3.12+ copies the final return into the first branch; the names of
    # the elif come before the return's in co_names.
    if node is None:
        node = self
    elif node.owner is not self:
        raise errors.WrongOwner()
    return node.render()


def elif_chain_raising_before_shared_return(self, kind, key):
    # Every branch that goes on copies the final return (3.12+), and the
    # else raises: no return is left after the chain.  The return's names
    # come after the whole chain's in co_names.
    if kind == 'user':
        parser = self.user[key]
    elif kind == 'default':
        parser = self.default[key]
    else:
        raise errors.InvalidSet('invalid set')
    return parser.sections()


def ifexp_stored_at_function_end(self, amt):
    # 3.12+ copies the store and the final return into both arms: the
    # attribute's name entering co_names after the else arm's names tells
    # the conditional expression from an if / else.
    self.level += amt
    self.tags = '' if self.level == 0 else 'l' + str(self.level)


def ifexp_stored_in_elif_chain(self, state):
    # As above, in each arm of an elif chain (encodings/utf_16.py): the
    # second conditional expression uses the first one's names again,
    # which come after the first store's name but do not say where that
    # store was.
    if state == 0:
        self.decoder = codecs.be_decode if sys.byteorder == "big" else codecs.le_decode
    elif state == 1:
        self.decoder = codecs.le_decode if sys.byteorder == "big" else codecs.be_decode
    else:
        self.decoder = None

def unreachable_tail(test):
    # The compiler drops the last return but keeps the names it used.
    try:
        test_id = test.id
    except AttributeError:
        return str(test)
    try:
        return test_id()
    except TypeError:
        return str(test_id)
    return repr(test)


def import_of_nested_module_as(data):
    import xml.etree.ElementTree as ET
    return ET.fromstring(data)


def folded_set_of_equal_items(size):
    size({1, 1.0, True})
    return {2, 2, 3}


def dead_code_midway(items):
    # Debugging code switched off: the compiler drops it but numbers its
    # local and names where it stands, after the loop's.
    total = None
    for item in items:
        total = item
    if 0:
        for line in items.splitlines():
            check(line)
    if total:
        items = process(items, total)
    return items


def dead_if_at_end_keeps_names(self):
    """The compiler drops the body but keeps the names it numbered."""
    self.check(signal.setitimer, -1, 0)
    if 0:
        self.check(signal.setitimer, signal.ITIMER_REAL, -1)


def elif_ending_in_nested_if_else_assert(x, y, z):
    # The nested if's failing jump goes to the elif part's jump over the
    # else part (3.11 keeps that jump apart, with the line of the if).
    if x:
        a = 1
    elif y:
        if z:
            a = 2
    else:
        assert z
        a = 3
    return a


def elif_raising_then_else(a, b):
    # 3.8-3.9 keep the jump over the else part after a raise: the else
    # part is there, and the chain an elif.
    if a:
        x = 0
    elif b:
        raise ValueError(b)
    else:
        x = 2
    return x

