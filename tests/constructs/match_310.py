"""match where 3.10's pattern code differs from 3.11's (3.10+).

Class attributes and mapping values taken by subscript (DUP_TOP; LOAD_CONST
i; BINARY_SUBSCR, wildcards left out), MATCH_CLASS / MATCH_KEYS testing a
bool, captures rotated with ROT_N / ROT_THREE / ROT_FOUR, **rest by
COPY_DICT_WITHOUT_KEYS; and matches in try, except, with, loops and async
for."""


class Point:
    __match_args__ = ('x', 'y')

    def __init__(self, x, y):
        self.x = x
        self.y = y


def class_positional_and_keyword(v):
    match v:
        case Point(1, y, x=z):
            return y, z
        case Point(_, _):
            return 'two wildcards'
        case Point(x=_, y=[a, b]):
            return a, b
    return None


def class_nested(v):
    match v:
        case Point(Point(a, b), Point(x=c)):
            return a, b, c
        case Point(x={'k': k}, y=[*rest]):
            return k, rest


def mapping_values(v):
    match v:
        case {'a': 1, 'b': b, 'c': [c, d]}:
            return b, c, d
        case {'a': _, 'b': _}:
            return 'keys only'
        case {'x': x, **rest}:
            return x, rest
        case {**rest}:
            return rest


def mapping_wildcard_rest(v):
    match v:
        case {'a': _, **kw}:
            return kw
        case {}:
            return 0


def nested_sequences(v):
    match v:
        case [a, [b, c], d]:
            return a, b, c, d
        case [[x, *ys], *zs]:
            return x, ys, zs
        case (p, (q, r)):
            return p, q, r


def captures_in_or(v):
    match v:
        case [1, x] | [x, 2] | {'k': x}:
            return x
        case Point(x=a, y=b) | [a, b]:
            return a, b
        case (1 as one) | (2 as one):
            return one


def as_patterns(v):
    match v:
        case [(1 | 2) as a, (b as c)]:
            return a, b, c
        case Point(x=(0 as zero)) as p:
            return zero, p
        case {'k': [*_] as seq}:
            return seq


def guards(v, limit):
    match v:
        case [a, b] if a < b:
            return 'ascending'
        case Point(x=x) if x > limit:
            return 'far'
        case {'k': k} if k and limit:
            return k
        case _ if limit:
            return 'limit'
    return None


def in_loop(items):
    out = []
    for item in items:
        match item:
            case Point(x=0):
                continue
            case {'stop': True}:
                break
            case [a, *_] if a:
                out.append(a)
            case Point(x=x, y=y):
                out.append(x + y)
    return out


def in_while(items):
    while items:
        match items.pop():
            case {'done': d}:
                return d
            case [first, *_]:
                items.append(first)
                break
    return None




def star_middle(v):
    match v:
        case [a, *mid, b, c]:
            return a, mid, b, c
        case [*_, last]:
            return last
        case [first, *_, last]:
            return first, last


def value_and_singletons(v, ns):
    match v:
        case ns.A | ns.B:
            return 'ab'
        case None | True | False:
            return 'single'
        case -1 | 1.5 | 'x' | b'y':
            return 'lit'
        case 1 + 2j:
            return 'complex'


def deep_capture_order(v):
    match v:
        case {'a': [x, {'b': y}], 'c': Point(z, w)}:
            return x, y, z, w

def in_try(v):
    try:
        match v:
            case Point(x=x):
                return x
            case {'k': k}:
                raise ValueError(k)
    except ValueError as e:
        return e
    finally:
        print('done')


def in_except(v):
    try:
        v()
    except Exception as e:
        match e.args:
            case (msg,):
                return msg
            case (code, msg):
                return code, msg
    return None


def in_with(v, lock):
    with lock:
        match v:
            case [a, b, *_]:
                return a + b
            case Point(y=y):
                print(y)


def nested_match(v, w):
    match v:
        case [a]:
            match w:
                case {'a': b}:
                    return a, b
                case _:
                    return a
        case Point(x=x):
            return x


def loop_break_continue(items):
    total = 0
    for item in items:
        match item:
            case {'skip': True}:
                continue
            case {'stop': True}:
                break
            case Point(x=x, y=y) if x == y:
                total += x
            case [a, b]:
                total += a * b
            case _:
                total -= 1
    else:
        total = -total
    return total


async def in_async(source):
    async for item in source:
        match item:
            case {'value': v}:
                await v
            case [x, *_]:
                return x




def subject_expression(d):
    match d.get('kind'), d.get('size'):
        case ('circle', r):
            return r
        case ('rect', (w, h)):
            return w * h


def capture_store_targets(v, obj):
    match v:
        case [first, *others]:
            obj.first = first
            obj.others = others
    return obj


def while_match(stack):
    while stack:
        match stack.pop():
            case Point(x=0, y=0):
                break
            case Point(x=x):
                stack.append(x)
            case {'push': p, **rest}:
                stack.extend(p)
                stack.append(rest)
    return stack


class Q:
    __match_args__ = ('a', 'b', 'c', 'd', 'e')


def as_in_seq(v):
    match v:
        case [(a as b), c]:
            return a, b, c
        case [[x, y] as z, (w as q), *r]:
            return x, y, z, w, q, r


def many_captures(v):
    match v:
        case Q(a, b, c, d, e):
            return a, b, c, d, e
        case {'a': a, 'b': b, 'c': c, 'd': d, 'e': e, **f}:
            return a, b, c, d, e, f
        case [a, b, c, d, e, f, g]:
            return a, b, c, d, e, f, g


def or_reorders(v):
    match v:
        case [a, b] | {'x': b, 'y': a}:
            return a, b
        case Q(a=x, b=y) | Q(b=x, a=y):
            return x, y


def try_return_in_except(v):
    for x in v:
        try:
            match x:
                case [a, b, c]:
                    return a
        except KeyError:
            return x
        finally:
            print(x)


def only_or_as(v):
    match v:
        case (1 as one) | (2 as one):
            return one


def only_as_values(v):
    match v:
        case (1 | 2) as small:
            return small
        case x if x:
            return x


def capture_or_pairs(v, ns):
    match v:
        case (ns.A as a) | (ns.B as a):
            return a


def match_and_handlers(v, f):
    match v:
        case {'k': [a, b, c]}:
            pass
    try:
        f()
    except KeyError as e:
        return a
    except ValueError:
        return b
    try:
        f()
    finally:
        try:
            f()
        except OSError:
            return c
    return v


def match_in_handler(v, f):
    try:
        f()
    except Exception as e:
        match e.args:
            case [P(x=x, y=[y, z])]:
                return x + y + z
    return None


def or_in_sequence_then_return(v, ns, out):
    # The inner or-pattern's failure pops its subject and jumps to the
    # code after the match: 3.10 and 3.12+ put a copy of that `return out`
    # in place of the jump.
    match v:
        case P(x=n, y=[]):
            out.append(n)
        case [ns.B | ns.C]:
            out.append(0)
    return out


def or_in_sequence_only(v, ns, out):
    match v:
        case [ns.B | ns.C]:
            out.append(0)
    return out
