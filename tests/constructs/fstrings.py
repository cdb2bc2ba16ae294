"""f-strings: conversions, format specs, nesting."""


def formats(name, value, width, items):
    a = f'{name}'
    b = f'{name!r} {name!s} {name!a}'
    c = f'{value:>10}'
    d = f'{value:{width}.{width}f}'
    e = f'{value!r:^20}'
    f = f"{'x' if value else 'y'} and {items[0]}"
    g = f'{{literal}} {value}%'
    h = f'{name}{value}'
    return a, b, c, d, e, f, g, h


def percent_format_fstring_literal(cls, name):
    # 3.11+'s AST optimizer folds '%s.%s' % (a, b) into an f-string, but
    # not when the format is itself an f-string without fields.
    full = f'%s.%s' % (cls.__module__, name)
    kept = f'{{%s}} %d' % (name, 1)
    plain = '%s:%r' % (name, cls)
    return full, kept, plain
