"""Whether decompiled programs mean what their originals mean, by running both.

    python3.X tools/probe_judge.py LIST

LIST names programs, one `path<TAB>label` a line (tools/probe_judge.py
--from-campaign RUN.json DIR writes one per version for a campaign's
unmarked "differs" programs, with their sources, into DIR).  Each program
is compiled by this interpreter, decompiled by unpyc (verify=False), and
both are run with every unknown name a probe: an object that records each
operation on it (attribute, call, item, operator, iteration, with) in a
trace and answers truth tests from one fixed bit stream; each def is then
called with probes for its arguments.  The two traces must be equal, for
five bit streams: LIE names the first difference (and the def it is in).
A bytecode difference whose traces agree is the same meaning written
otherwise; one whose traces differ is a lie (output that runs
differently), the worst defect (issue 16).  Run it with the unpyc to judge
on PYTHONPATH, under the version the programs were compiled for."""
import builtins, signal, sys, types
import unpyc

LIMIT = 3000
MULT = 2654435761


class Stop(BaseException):
    pass


class State:
    def __init__(self):
        self.trace, self.serial, self.bits = [], 0, 0

    def event(self, *e):
        if len(self.trace) >= LIMIT:
            raise Stop
        self.trace.append(e)

    def bit(self):
        self.bits += 1
        return ((self.bits * MULT) >> 5) & 1 == 1


S = State()


def show(v):
    if isinstance(v, Probe):
        return 'P%d' % object.__getattribute__(v, '_id')
    if isinstance(v, (types.FunctionType, type)):
        return 'def:' + v.__name__
    if isinstance(v, (int, float, complex, str, bytes, bool, type(None))):
        return repr(v)[:40]
    if isinstance(v, (tuple, list, set, frozenset, dict)):
        return type(v).__name__ + str(len(v))
    return type(v).__name__


def new_probe(*why):
    S.serial += 1
    p = object.__new__(Probe)
    object.__setattr__(p, '_id', S.serial)
    S.event('new', S.serial, *why)
    return p


class Probe:
    def __init__(self, *a, **k):  # a probe used as a metaclass (class C(probe))
        S.event('init', *map(show, a))

    def __new__(cls, *a, **k):
        return new_probe('meta', *map(show, a))

    def __getattr__(self, n):
        return new_probe('getattr', show(self), n)

    def __setattr__(self, n, v):
        S.event('setattr', show(self), n, show(v))

    def __delattr__(self, n):
        S.event('delattr', show(self), n)

    def __call__(self, *a, **k):
        return new_probe('call', show(self), *map(show, a), *sorted(k))

    def __getitem__(self, k):
        return new_probe('getitem', show(self), show(k))

    def __setitem__(self, k, v):
        S.event('setitem', show(self), show(k), show(v))

    def __delitem__(self, k):
        S.event('delitem', show(self), show(k))

    def __bool__(self):
        b = S.bit()
        S.event('bool', show(self), b)
        return b

    def __iter__(self):
        n = 2 if S.bit() else 0
        S.event('iter', show(self), n)
        return iter([new_probe('item', show(self)) for _ in range(n)])

    def __len__(self):
        S.event('len', show(self))
        return 2

    def __index__(self):
        S.event('index', show(self))
        return 1

    __int__ = __index__

    def __float__(self):
        S.event('float', show(self))
        return 1.0

    def __hash__(self):
        return 0

    def __contains__(self, x):
        b = S.bit()
        S.event('contains', show(self), show(x), b)
        return b

    def __enter__(self):
        return new_probe('enter', show(self))

    def __exit__(self, *a):
        b = S.bit()
        S.event('exit', show(self), *map(show, a), b)
        return b

    def __repr__(self):
        return 'P%d' % object.__getattribute__(self, '_id')

    def __format__(self, spec):
        S.event('format', show(self), spec)
        return repr(self)

    def __mro_entries__(self, bases):
        S.event('mro_entries', show(self))
        return ()


def _binop(name):
    def op(self, *a):
        return new_probe(name, show(self), *map(show, a))
    return op


for _n in ('add sub mul matmul truediv floordiv mod pow lshift rshift and xor or '
           'radd rsub rmul rmatmul rtruediv rfloordiv rmod rpow rlshift rrshift rand rxor ror '
           'iadd isub imul imatmul itruediv ifloordiv imod ipow ilshift irshift iand ixor ior '
           'neg pos invert abs lt le eq ne gt ge').split():
    setattr(Probe, '__%s__' % _n, _binop(_n))
Probe.__str__ = Probe.__repr__


class Namespace(dict):
    def __missing__(self, k):
        if k in builtins.__dict__:
            raise KeyError(k)
        return new_probe('name', k)

    def __setitem__(self, k, v):
        S.event('store', k, show(v))
        dict.__setitem__(self, k, v)

    def __delitem__(self, k):
        S.event('delete', k)
        dict.__delitem__(self, k)


def alarm(*a):
    raise Stop


def run(code):
    global S
    S = State()
    ns = Namespace(__name__='m', __builtins__=builtins)
    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        try:
            exec(code, ns)
            S.event('module done')
        except Stop:
            S.trace.append(('stopped',))
            return S.trace
        except BaseException as e:
            S.trace.append(('raised', type(e).__name__))
        for name in sorted(k for k, v in dict.items(ns) if isinstance(v, types.FunctionType)):
            fn = dict.__getitem__(ns, name)
            c = fn.__code__
            S.event('call def', name)
            try:
                args = [new_probe('arg') for _ in range(c.co_argcount)]
                kw = {v: new_probe('kw') for v in c.co_varnames[c.co_argcount:c.co_argcount + c.co_kwonlyargcount]}
                r = fn(*args, **kw)
                if isinstance(r, types.GeneratorType):
                    for _ in range(3):
                        S.event('yielded', show(next(r)))
                elif isinstance(r, types.CoroutineType):
                    for _ in range(3):
                        S.event('awaited', show(r.send(None)))
                else:
                    S.event('returned', show(r))
            except Stop:
                S.trace.append(('stopped',))
                return S.trace
            except BaseException as e:
                S.trace.append(('raised', type(e).__name__))
        return S.trace
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def from_campaign(run_json, folder):
    """Writes the sources of a campaign run's "differs" programs into
    folder, and folder/list-SEED-3.X.txt naming them per version."""
    import json
    import os
    from pysource_codegen import generate

    run_data = json.load(open(run_json))
    for version in run_data['versions']:
        names = []
        for record in version['records']:
            if record['status'] != 'differs':
                continue
            _generator, seed, k = record['program'].rsplit(':', 2)
            path = os.path.join(folder, '%s_%s.py' % (seed, k))
            if not os.path.exists(path):
                with open(path, 'w') as f:
                    f.write(str(generate(int(seed) * 100003 + int(k),
                                         node_limit=run_data['node_limit'],
                                         depth_limit=run_data['depth_limit'])))
            names.append(path + '\t' + record['category'])
        listing = os.path.join(folder, 'list-%s-%s.txt' % (run_data['seed'], version['version']))
        with open(listing, 'w') as f:
            f.write('\n'.join(names) + '\n')


def main():
    if sys.argv[1] == '--from-campaign':
        from_campaign(sys.argv[2], sys.argv[3])
        return
    lies = same = 0
    for line in open(sys.argv[1]):
        if not line.strip():
            continue
        path, category = line.rstrip('\n').split('\t')
        src = open(path).read()
        try:
            code = compile(src, path, 'exec')
        except Exception:
            print('SKIP', path)
            continue
        out = unpyc.decompile(code, verify=False)
        try:
            code2 = compile(out, path, 'exec')
        except Exception as e:
            print('INVALID', path, e)
            continue
        global MULT
        for MULT in (2654435761, 40503, 2246822519, 3266489917, 668265263):
            a, b = run(code), run(code2)
            if a != b:
                break
        if a == b:
            same += 1
            print('SAME', path, category, len(a))
        else:
            lies += 1
            k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            fn = [e[1] for e in a[:k] if e[0] == 'call def']
            print('LIE', path, category, 'in', fn[-1] if fn else 'module', 'at', k, a[k:k + 2], '|', b[k:k + 2])
    print('total same %d lie %d' % (same, lies))


if __name__ == '__main__':
    main()
