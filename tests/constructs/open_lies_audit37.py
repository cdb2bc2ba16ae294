"""Unmarked lies found by audit37 (stop 37) on the fourth holdout corpus
(tests/realworld/holdout4.txt: fourteen PyPI packages nobody had tuned on),
reading the functions whose round trip differs with no mark
(tools/unmarked_diffs.py); reduced, open, listed as UNMARKED LIE in the
known lists for each version where the output runs differently."""


def one_shot_loop_break_in_try(items, log):
    """snowballstemmer (every *_stemmer.py; e.g. arabic_stemmer
    ArabicStemmer.__r_Normalize_pre, dutch_stemmer DutchStemmer.__r_Step_1)
    on 3.8 / 3.9 / 3.10 / 3.11: the Snowball compiler writes a block that can
    be left early as a one-shot `while True: ...; break`.  A `break` ending the
    body of a try inside it leaves the one-shot loop and goes to the
    `continue` after it.  The output drops the one-shot loop and that jump:
    the code after the try (the fallback) runs after a success too.  On 3.8 /
    3.9 the output loops forever (the outer `while True` never reaches its
    break); on 3.10 / 3.11 it appends "none" after a popped item.  Right on
    3.12 / 3.13 (see the next one for those)."""
    while True:
        try:
            while True:
                try:
                    if not items:
                        raise KeyError
                    log.append(items.pop())
                    break
                except KeyError:
                    pass
                log.append("none")
                raise IndexError
            continue
        except IndexError:
            pass
        break
    return log


def one_shot_loop_break_in_try_restore(word, out):
    """The same family with the cursor saved and restored around each block, as
    snowballstemmer writes it (arabic_stemmer ArabicStemmer.__r_Normalize_pre,
    3.8-3.13): after a match (`pos += 1; break`) the output falls into
    `pos = start` and the `raise IndexError` test of the fallback, and prints
    the `pos = saved` of the handler after the loop: for "a" it returns
    ([0], 0) where the source returns ([0], 1); 3.8 / 3.9 loop forever.
    Replacing one stemmer method at a time by its output (bound to the
    original module) changes the stems of generated words (or hangs) for 29
    (3.12) to 97 (3.8 / 3.9) entries; the decompiled package as a whole stems
    differently in 26 of its 36 languages on 3.13 and hangs in 9 (marked
    functions included)."""
    pos = 0
    while True:
        saved = pos
        try:
            while True:
                start = pos
                try:
                    if word[pos] != "a":
                        raise KeyError
                    out.append(pos)
                    pos += 1
                    break
                except KeyError:
                    pass
                pos = start
                if pos >= len(word) - 1:
                    raise IndexError
                pos += 1
                break
            continue
        except IndexError:
            pass
        pos = saved
        break
    return out, pos


def one_shot_loop_try_break_or_fallback(c):
    """The family's smallest form, as snowballstemmer writes a rule with two
    ways (finnish_stemmer FinnishStemmer.__r_A, swedish_stemmer
    SwedishStemmer.__r_main_suffix; 3.8 / 3.9 / 3.11, right on 3.10 / 3.12
    / 3.13): `while True: try: ...; break / except: pass / fallback; break`
    prints without the loop and without the try body's `break`: for "a" the
    output runs the fallback too and returns False where the source returns
    "matched"."""
    while True:
        try:
            if c != "a":
                raise KeyError
            c = "matched"
            break
        except KeyError:
            pass
        if c != "'":
            return False
        c = "fallback"
        break
    return c


def try_continue_then_code_and_break(queue, log):
    """snowballstemmer (every *_stemmer.py's loops, e.g. catalan_stemmer
    CatalanStemmer.__r_cleaning, tamil_stemmer
    TamilStemmer.__r_remove_tense_suffixes; 3.8 / 3.9, right on 3.10-3.13):
    a `while True:` whose try body ends with `continue` and whose handler
    falls into code and a `break` after the try prints the `continue` as the
    try's `else` and moves that code after the loop without the `break`:
    the handler's way goes round the loop again, forever (the source logs
    "empty" and returns)."""
    while True:
        try:
            log.append(queue.pop())
            continue
        except IndexError:
            pass
        log.append("empty")
        break
    return log


def try_continue_then_if_and_break_in_for(rows, log):
    """try_continue_then_code_and_break inside a for loop (lie37d, stop
    37): the `break` after the try goes to the for loop's header, not past
    a `while True:`; 3.8 / 3.9 print a loop that never ends (the source
    logs each row's items, then "empty", per row)."""
    for row in rows:
        while True:
            try:
                log.append(row.pop())
                continue
            except IndexError:
                pass
            if log:
                log.append("empty")
            break
    return log


def try_continue_then_code_and_break_while_test(queue, log):
    """try_continue_then_code_and_break with a test on the while loop
    (lie37d, stop 37): read right on 3.8 / 3.9 / 3.10 / 3.12 / 3.13,
    marked on 3.11."""
    n = 0
    while n < 10:
        n += 1
        try:
            log.append(queue.pop())
            continue
        except IndexError:
            log.append("none")
        log.append(n)
        break
    return log


def continue_ending_if_branch_of_while(v):
    """toml decoder._unescape (3.8 / 3.9; right on 3.10-3.13): a `continue`
    ending the first branch of an if / elif chain, in a `while` loop whose
    body ends with `i += 1` after the chain, is dropped: the output runs the
    `i += 1` after that branch too and skips the character after each
    escape ("a\\\\n\\\\nb" unescapes to "a\\n\\\\nb" where the source gives
    "a\\n\\nb")."""
    i = 0
    escaped = False
    while i < len(v):
        if escaped:
            escaped = False
            if v[i] == "n":
                v = v[:i - 1] + "\n" + v[i + 1:]
            elif v[i] == "u":
                i += 1
            else:
                raise ValueError(v[i])
            continue
        elif v[i] == "\\":
            escaped = True
        i += 1
    return v


def while_long_and_chain_break_in_try(line, is_date):
    """toml decoder.TomlDecoder.load_line (3.8 / 3.9; right on 3.10-3.13): a
    `while` whose test is `len(x) and (a and b and ... )` with eight terms,
    and whose body starts with `try: float(x); break`, prints as two nested
    loops, `while len(x) and a and ... and g:` around `while h:`.  Each
    `break` then leaves the inner loop only and the outer loop runs again with
    the same values: the output loops forever where the source returns (and
    the inner loop no longer tests the outer terms after `pair` changes).
    With fewer terms (three) the test prints right (`if not h: break`)."""
    i = 1
    pair = line.split("=", i)
    while len(pair[-1]) and (pair[-1][0] != " " and pair[-1][0] != "\t" and
                             pair[-1][0] != "'" and pair[-1][0] != '"' and
                             pair[-1][0] != "[" and pair[-1][0] != "{" and
                             pair[-1].strip() != "true" and
                             pair[-1].strip() != "false"):
        try:
            float(pair[-1])
            break
        except ValueError:
            pass
        if is_date(pair[-1]):
            break
        i += 1
        prev_val = pair[-1]
        pair = line.split("=", i)
        if prev_val == pair[-1]:
            raise ValueError("Invalid date or number")
    return pair, i
