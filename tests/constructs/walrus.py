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
