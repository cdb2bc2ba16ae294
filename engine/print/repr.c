/*
 * repr.c - Python's repr() of constants; see repr.h.
 *
 * Each function mirrors the CPython routine named in its comment, so that
 * the text matches byte for byte (quote choice, escapes, float digits).
 */
#include "print/repr.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/unicode_gen.h"

static const char hexdigits[] = "0123456789abcdef";

/* Appends "\" esc followed by ndigits lowercase hex digits of value. */
static void put_escape(upy_strbuf *sb, char esc, uint32_t value, int ndigits) {
    char buf[10];
    int i;

    buf[0] = '\\';
    buf[1] = esc;
    for (i = 0; i < ndigits; i++)
        buf[2 + i] = hexdigits[(value >> (4 * (ndigits - 1 - i))) & 15];
    upy_sb_append(sb, buf, (size_t)(2 + ndigits));
}

/* Decodes one UTF-8 sequence at s[0..n), n >= 1.  Surrogates (ED A0..BF xx)
 * are accepted, since that is how the str form keeps lone surrogates.
 * Returns the sequence length, or 0 for an invalid sequence (the reader
 * validates, so this is only defence: the caller then escapes the byte). */
static size_t utf8_decode(const uint8_t *s, size_t n, uint32_t *cp) {
    size_t len, i;
    uint32_t c = s[0], min;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF)
        return 0;
    *cp = c;
    return len;
}

/* CPython's unicode_repr. */
void upy_repr_str(upy_strbuf *sb, const uint8_t *utf8, size_t len,
                  upy_version version) {
    int squote = 0, dquote = 0;
    char quote = '\'';
    size_t i, run;

    /* Double quotes only when that avoids escaping: the text holds ' and no
     * ".  Quote bytes are ASCII, so scanning bytes is enough. */
    for (i = 0; i < len; i++) {
        squote |= utf8[i] == '\'';
        dquote |= utf8[i] == '"';
    }
    if (squote && !dquote)
        quote = '"';

    upy_sb_putc(sb, quote);
    /* run counts the bytes before i that are copied through unchanged; they
     * are flushed in one append when an escape or the end comes. */
    for (i = 0, run = 0; i < len && !sb->failed;) {
        uint8_t c = utf8[i];
        uint32_t cp;
        size_t n;

        if (c >= 0x20 && c < 0x7F && c != '\\' && c != (uint8_t)quote) {
            run++, i++;
            continue;
        }
        if (c >= 0x80) {
            n = utf8_decode(utf8 + i, len - i, &cp);
            if (n && upy_unicode_is_printable(version, cp)) {
                run += n, i += n;
                continue;
            }
        } else {
            n = 1;
            cp = c;
        }
        upy_sb_append(sb, (const char *)utf8 + i - run, run);
        run = 0;
        if (n == 0) {
            /* Invalid UTF-8: show the byte itself. */
            put_escape(sb, 'x', c, 2);
            n = 1;
        } else if (cp == '\\' || cp == (uint8_t)quote) {
            upy_sb_putc(sb, '\\');
            upy_sb_putc(sb, (char)cp);
        } else if (cp == '\t') {
            upy_sb_append(sb, "\\t", 2);
        } else if (cp == '\n') {
            upy_sb_append(sb, "\\n", 2);
        } else if (cp == '\r') {
            upy_sb_append(sb, "\\r", 2);
        } else if (cp < 0x100) {
            put_escape(sb, 'x', cp, 2);
        } else if (cp < 0x10000) {
            put_escape(sb, 'u', cp, 4);
        } else {
            put_escape(sb, 'U', cp, 8);
        }
        i += n;
    }
    upy_sb_append(sb, (const char *)utf8 + i - run, run);
    upy_sb_putc(sb, quote);
}

/* CPython's PyBytes_Repr with smartquotes. */
static void repr_bytes(upy_strbuf *sb, const uint8_t *data, size_t len) {
    int squote = 0, dquote = 0;
    char quote = '\'';
    size_t i, run;

    for (i = 0; i < len; i++) {
        squote |= data[i] == '\'';
        dquote |= data[i] == '"';
    }
    if (squote && !dquote)
        quote = '"';

    upy_sb_putc(sb, 'b');
    upy_sb_putc(sb, quote);
    for (i = 0, run = 0; i < len && !sb->failed; i++) {
        uint8_t c = data[i];

        if (c >= 0x20 && c < 0x7F && c != '\\' && c != (uint8_t)quote) {
            run++;
            continue;
        }
        upy_sb_append(sb, (const char *)data + i - run, run);
        run = 0;
        if (c == '\\' || c == (uint8_t)quote) {
            upy_sb_putc(sb, '\\');
            upy_sb_putc(sb, (char)c);
        } else if (c == '\t') {
            upy_sb_append(sb, "\\t", 2);
        } else if (c == '\n') {
            upy_sb_append(sb, "\\n", 2);
        } else if (c == '\r') {
            upy_sb_append(sb, "\\r", 2);
        } else {
            put_escape(sb, 'x', c, 2);
        }
    }
    upy_sb_append(sb, (const char *)data + i - run, run);
    upy_sb_putc(sb, quote);
}

/* Decimal text of a big int, like CPython's long_to_decimal_string: the
 * magnitude is rebuilt in base 10**9 limbs, two base-2**15 digits (30 bits)
 * at a time.  Quadratic in the size, so the output length is estimated
 * first and the strbuf failed up front when it could not hold the text
 * anyway: that keeps a huge int in hostile input from costing minutes. */
static void repr_bigint(upy_strbuf *sb, const upy_int *v) {
    const uint32_t base = 1000000000u;
    size_t top = v->ndigits, nlimbs = 0, cap, i, j, min_text;
    uint32_t *limbs;
    char buf[16];

    while (top > 0 && v->digits[top - 1] == 0)
        top--;
    if (top == 0) {
        upy_sb_putc(sb, '0');
        return;
    }
    /* value >= 2**(15 * (top - 1)), which has at least
     * 15 * (top - 1) * log10(2) > 4.5 * (top - 1) decimal digits. */
    min_text = (top - 1) / 2 * 9;
    if (sb->limit && (sb->len > sb->limit || min_text > sb->limit - sb->len)) {
        sb->failed = 2;
        return;
    }
    /* 15 bits per digit, over 29.89 bits per limb: about 0.5018 limbs per
     * digit. */
    cap = top / 2 + top / 128 + 2;
    limbs = malloc(cap * sizeof *limbs);
    if (!limbs) {
        sb->failed = 1;
        return;
    }
    /* Most significant first; an odd count starts with a single digit. */
    i = top;
    while (i > 0) {
        uint64_t carry;
        unsigned shift;

        if (i % 2) {
            carry = v->digits[i - 1] & 0x7FFF;
            shift = 15;
            i -= 1;
        } else {
            /* Masked so that a digit out of range (which the reader
             * refuses, as marshal does) cannot overrun limbs. */
            carry = (uint64_t)(v->digits[i - 1] & 0x7FFF) << 15 |
                    (v->digits[i - 2] & 0x7FFF);
            shift = 30;
            i -= 2;
        }
        for (j = 0; j < nlimbs; j++) {
            uint64_t z = (uint64_t)limbs[j] << shift | carry;
            limbs[j] = (uint32_t)(z % base);
            carry = z / base;
        }
        while (carry) {
            limbs[nlimbs++] = (uint32_t)(carry % base);
            carry /= base;
        }
    }
    if (v->negative)
        upy_sb_putc(sb, '-');
    upy_sb_put_int(sb, (long long)limbs[nlimbs - 1]);
    for (j = nlimbs - 1; j-- > 0 && !sb->failed;) {
        snprintf(buf, sizeof buf, "%09u", (unsigned)limbs[j]);
        upy_sb_append(sb, buf, 9);
    }
    free(limbs);
}

static void repr_int(upy_strbuf *sb, const upy_int *v) {
    if (v->is_big)
        repr_bigint(sb, v);
    else
        upy_sb_put_int(sb, (long long)v->value);
}

/* Tries the decimal digits[0..n) * 10**exp10 as a round-trip for d.  (The
 * text "DIGITSeEXP" is put together here, not by snprintf, which was a
 * third of the time of printing a float that needs 17 digits.) */
static int round_trips(const char *digits, size_t n, int exp10, double d) {
    char buf[48], exp_digits[12], *p = buf + n + 1;
    unsigned magnitude = exp10 < 0 ? 0u - (unsigned)exp10 : (unsigned)exp10;
    size_t k = 0;

    memcpy(buf, digits, n);
    buf[n] = 'e';
    if (exp10 < 0)
        *p++ = '-';
    do {
        exp_digits[k++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    while (k)
        *p++ = exp_digits[--k];
    *p = '\0';
    return strtod(buf, NULL) == d;
}

/* Adds delta (+1 or -1) to the last digit of digits[0..*n), carrying;
 * returns 0 when the result would be zero.  *n may grow or shrink by one
 * (999 + 1 = 1000, 100 - 1 = 99). */
static int step_digits(char *digits, size_t *n, int delta) {
    size_t i = *n;

    while (i-- > 0) {
        if (delta > 0 && digits[i] == '9') {
            digits[i] = '0';
        } else if (delta < 0 && digits[i] == '0') {
            digits[i] = '9';
        } else {
            digits[i] = (char)(digits[i] + delta);
            break;
        }
    }
    if (i == (size_t)-1) { /* carried out of the first digit */
        memmove(digits + 1, digits, *n);
        digits[0] = '1';
        (*n)++;
    } else if (digits[0] == '0') {
        if (*n == 1)
            return 0;
        memmove(digits, digits + 1, *n - 1);
        (*n)--;
    }
    return 1;
}

/* The n-digit (1 to 16) correctly rounded form of d, from s17, the 17
 * digits of its "%.16e" whose exponent is e17: the digits in out, their
 * exponent's place in *exp10 (as shortest_digits has it), and in *dist
 * how far they are from s17 in units of its last digit.  0 where s17's
 * digits after the n-th are 5 and zeros: d may be on either side of the
 * half then (s17 itself rounded), so printf is asked.  (Elsewhere the
 * half lies at least a unit of s17 away from s17, and d at most half a
 * unit: both round the same way.)  Worked example: 9.96 to 2 digits,
 * s17 "99600000000000003" e17 0: "99" + up, carried: "10", *exp10 0. */
static int rounded_from_17(const char *s17, int e17, size_t n, char *out,
                           int *exp10, uint64_t *dist) {
    uint64_t tail = 0, unit = 1;
    size_t k;
    for (k = n; k < 17; k++) {
        tail = tail * 10 + (uint64_t)(s17[k] - '0');
        unit *= 10;
    }
    if (tail == unit / 2)
        return 0;
    memcpy(out, s17, n);
    *dist = tail < unit / 2 ? tail : unit - tail;
    if (tail > unit / 2) {
        k = n;
        while (k > 0 && out[k - 1] == '9')
            out[--k] = '0';
        if (k > 0) {
            out[k - 1]++;
        } else { /* 99 -> 10, a place up */
            out[0] = '1';
            e17++;
        }
    }
    *exp10 = e17 - (int)(n - 1);
    return 1;
}

/* Whether n digits dist units of s17 (above) away from d are too far from
 * it to read back: for a normal d, the half gap to its neighbours is at
 * most d * 2**-53 < 10**(e17 + 1) * 2**-53, 11.1 units of s17's last
 * digit, and d is at most half a unit from s17. */
static int too_far(double d, uint64_t dist) {
    return d >= DBL_MIN && dist >= 12;
}

/* The shortest digit string that reads back as d (positive, finite, not
 * zero), and among those the closest to d: what _Py_dg_dtoa mode 0 returns.
 * Fills digits (no trailing zeros) and returns their count; *decpt is where
 * the decimal point goes (d = 0.DIGITS * 10**decpt).
 *
 * For each length, the correctly rounded digits (printf's "%.*e", found
 * from its 17-digit form: rounded_from_17) are the closest candidate.  It
 * can miss where the gap below d is half the gap above (d a power of two)
 * while the next candidate up still reads back, so the neighbours on both
 * sides are tried too -- from 16 digits on: with n <= 15 digits (10**n <
 * 2**52) a neighbour is at least half of 10**(e - n + 1) from d, more than
 * the half gap d * 2**-53 of a normal d.  (Asking strtod, and printf, for
 * every length was the most of the time of printing a float.) */
static size_t shortest_digits(double d, char digits[24], int *decpt) {
    char buf[40], cand[24], s17[24];
    int prec, exp10 = 0, e17, delta;
    size_t n = 0, cn;
    uint64_t dist;
    char *e;

    snprintf(buf, sizeof buf, "%.16e", d);
    /* buf is "D.DDDDe+XX" ("De+XX" below, when prec is 0). */
    for (e = buf; *e != 'e'; e++)
        if (*e != '.')
            s17[n++] = *e;
    e17 = atoi(e + 1);
    for (prec = 0; prec < 17; prec++) {
        n = (size_t)prec + 1;
        if (n == 17) {
            memcpy(digits, s17, n);
            exp10 = e17 - prec;
        } else if (rounded_from_17(s17, e17, n, digits, &exp10, &dist)) {
            if (too_far(d, dist))
                continue;
        } else {
            snprintf(buf, sizeof buf, "%.*e", prec, d);
            n = 0;
            for (e = buf; *e != 'e'; e++)
                if (*e != '.')
                    digits[n++] = *e;
            exp10 = atoi(e + 1) - prec;
        }
        if (round_trips(digits, n, exp10, d))
            goto found;
        if (n <= 15 && d >= DBL_MIN)
            continue;
        for (delta = -1; delta <= 1; delta += 2) {
            memcpy(cand, digits, n);
            cn = n;
            if (step_digits(cand, &cn, delta) &&
                round_trips(cand, cn, exp10, d)) {
                memcpy(digits, cand, cn);
                n = cn;
                goto found;
            }
        }
    }
    /* 17 significant digits always read back. */
    n = 17;
    memcpy(digits, s17, n);
    exp10 = e17 - 16;
found:
    *decpt = (int)n + exp10;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    return n;
}

/* CPython's PyOS_double_to_string(d, 'r', 0, flags) (format_float_short):
 * shortest round-trip digits, exponent form when the decimal point would be
 * more than 16 places right or 4 places left of the first digit.  add_dot_0
 * is float's Py_DTSF_ADD_DOT_0 ("1.0"); add_sign is Py_DTSF_SIGN. */
static void put_double(upy_strbuf *sb, double d, int add_dot_0, int add_sign) {
    char digits[24];
    size_t n;
    int decpt, use_exp, exp = 0;

    if (isnan(d)) {
        /* CPython never shows a sign for a nan, except a requested '+'. */
        upy_sb_puts(sb, add_sign ? "+nan" : "nan");
        return;
    }
    if (signbit(d)) {
        upy_sb_putc(sb, '-');
        d = -d;
    } else if (add_sign) {
        upy_sb_putc(sb, '+');
    }
    if (isinf(d)) {
        upy_sb_puts(sb, "inf");
        return;
    }
    if (d == 0) {
        /* dtoa gives "0" with the point after it. */
        digits[0] = '0';
        n = 1;
        decpt = 1;
    } else {
        n = shortest_digits(d, digits, &decpt);
    }
    use_exp = decpt <= -4 || decpt > 16;
    if (use_exp) {
        exp = decpt - 1;
        decpt = 1;
    }
    if (decpt <= 0) {
        upy_sb_append(sb, "0.", 2);
        for (; decpt < 0; decpt++)
            upy_sb_putc(sb, '0');
        upy_sb_append(sb, digits, n);
    } else if ((size_t)decpt >= n) {
        upy_sb_append(sb, digits, n);
        for (; (size_t)decpt > n; decpt--)
            upy_sb_putc(sb, '0');
        if (add_dot_0 && !use_exp)
            upy_sb_append(sb, ".0", 2);
    } else {
        upy_sb_append(sb, digits, (size_t)decpt);
        upy_sb_putc(sb, '.');
        upy_sb_append(sb, digits + decpt, n - (size_t)decpt);
    }
    if (use_exp)
        upy_sb_printf(sb, "e%+.02d", exp);
}

/* CPython's complex_repr: a +0.0 real part is left out along with the
 * parentheses; neither part gets float's ".0". */
static void repr_complex(upy_strbuf *sb, double real, double imag) {
    if (real == 0 && !signbit(real)) {
        put_double(sb, imag, 0, 0);
        upy_sb_putc(sb, 'j');
        return;
    }
    upy_sb_putc(sb, '(');
    put_double(sb, real, 0, 0);
    put_double(sb, imag, 0, 1);
    upy_sb_append(sb, "j)", 2);
}

/* Appends the items of a sequence, separated by ", "; dicts as k: v. */
static void repr_items(upy_strbuf *sb, const upy_object *o,
                       upy_version version) {
    size_t i, step = o->kind == UPY_DICT ? 2 : 1;

    for (i = 0; i < o->u.seq.len && !sb->failed; i += step) {
        if (i)
            upy_sb_append(sb, ", ", 2);
        upy_repr(sb, o->u.seq.items[i], version);
        if (step == 2 && i + 1 < o->u.seq.len) {
            upy_sb_append(sb, ": ", 2);
            upy_repr(sb, o->u.seq.items[i + 1], version);
        }
    }
}

/* A str object's text as is (PyUnicode_FromFormat's %U), or "???" where
 * the reader left something else. */
static void put_plain_str(upy_strbuf *sb, const upy_object *o) {
    if (o && o->kind == UPY_STR)
        upy_sb_append(sb, (const char *)o->u.bytes.data, o->u.bytes.len);
    else
        upy_sb_puts(sb, "???");
}

/* CPython's code_repr; a first line of 0 shows as -1 there. */
static void repr_code(upy_strbuf *sb, const upy_code *co) {
    upy_sb_puts(sb, "<code object ");
    put_plain_str(sb, co->name);
    upy_sb_puts(sb, " at " UPY_REPR_CODE_ADDRESS ", file ");
    if (co->filename && co->filename->kind == UPY_STR) {
        upy_sb_putc(sb, '"');
        put_plain_str(sb, co->filename);
        upy_sb_putc(sb, '"');
    } else {
        upy_sb_puts(sb, "???");
    }
    upy_sb_printf(sb, ", line %d>",
                  co->firstlineno != 0 ? co->firstlineno : -1);
}

void upy_repr(upy_strbuf *sb, const upy_object *obj, upy_version version) {
    if (sb->failed)
        return;
    if (!obj) {
        /* The reader never leaves holes; shown rather than crashed on. */
        upy_sb_puts(sb, "<NULL>");
        return;
    }
    switch (obj->kind) {
    case UPY_NONE:
        upy_sb_puts(sb, "None");
        break;
    case UPY_FALSE:
        upy_sb_puts(sb, "False");
        break;
    case UPY_TRUE:
        upy_sb_puts(sb, "True");
        break;
    case UPY_STOPITER:
        upy_sb_puts(sb, "<class 'StopIteration'>");
        break;
    case UPY_ELLIPSIS:
        upy_sb_puts(sb, "Ellipsis");
        break;
    case UPY_INT:
        repr_int(sb, &obj->u.integer);
        break;
    case UPY_FLOAT:
        put_double(sb, obj->u.real, 1, 0);
        break;
    case UPY_COMPLEX:
        repr_complex(sb, obj->u.complex.real, obj->u.complex.imag);
        break;
    case UPY_BYTES:
        repr_bytes(sb, obj->u.bytes.data, obj->u.bytes.len);
        break;
    case UPY_STR:
        upy_repr_str(sb, obj->u.bytes.data, obj->u.bytes.len, version);
        break;
    case UPY_TUPLE:
        upy_sb_putc(sb, '(');
        repr_items(sb, obj, version);
        if (obj->u.seq.len == 1)
            upy_sb_putc(sb, ',');
        upy_sb_putc(sb, ')');
        break;
    case UPY_LIST:
        upy_sb_putc(sb, '[');
        repr_items(sb, obj, version);
        upy_sb_putc(sb, ']');
        break;
    case UPY_DICT:
        upy_sb_putc(sb, '{');
        repr_items(sb, obj, version);
        upy_sb_putc(sb, '}');
        break;
    case UPY_SET:
        if (obj->u.seq.len == 0) {
            upy_sb_puts(sb, "set()");
            break;
        }
        upy_sb_putc(sb, '{');
        repr_items(sb, obj, version);
        upy_sb_putc(sb, '}');
        break;
    case UPY_FROZENSET:
        if (obj->u.seq.len == 0) {
            upy_sb_puts(sb, "frozenset()");
            break;
        }
        upy_sb_puts(sb, "frozenset({");
        repr_items(sb, obj, version);
        upy_sb_puts(sb, "})");
        break;
    case UPY_CODE:
        if (obj->u.code)
            repr_code(sb, obj->u.code);
        else
            upy_sb_puts(sb, "<NULL>");
        break;
    default:
        upy_sb_puts(sb, "<?>");
        break;
    }
}
