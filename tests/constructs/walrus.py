"""Assignment expressions."""
import re


def in_if(text):
    if (m := re.match('a+', text)) is not None:
        return m.group(0)
    return None


def in_while(read):
    while chunk := read():
        print(chunk)


def in_comprehension(items):
    return [y for x in items if (y := x * 2) > 3]


def in_comprehension_value(items):
    total = 0
    return [(total := total + x) for x in items]


def in_while_second_test(read, size):
    while len(size) < 4 and (chunk := read()):
        size += chunk
    return size


# A walrus whose value is a for loop's iterable (issue 16: the store was
# dropped, `for x in b:`, found by the campaign at seeds 11 and 12;
# decorators: walrus_decorators.py).
for loop_item in (loop_source := make_items()):
    use(loop_item)


def for_iter_walrus(b):
    for x in (a := b):
        f(x)
    return a


def for_iter_walrus_else(b):
    for x in (a := b):
        if x:
            break
    else:
        h(a)
