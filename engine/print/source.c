/*
 * source.c - the syntax tree as Python source; see source.h.
 *
 * Expressions print by precedence: each node has a binding strength (the
 * P_* ladder below, Python's own grammar from loosest to tightest) and
 * each position asks for a least strength; a node weaker than its
 * position asks for gets parentheses, and no other node does.  Tuples
 * print with their own parentheses except in the few positions that take
 * a bare one (print_bare).
 *
 * f-strings are the one place where text already printed can make later
 * text invalid: before 3.12 a replacement field may not hold a backslash
 * or the quote the f-string opened with.  The printer therefore tries the
 * quote kinds in turn (print_joined), printing the f-string into a scratch
 * buffer under the rules that quote sets for what is inside it, and keeps
 * the first that needs nothing forbidden.
 */
#include "print/source.h"

#include <math.h>
#include <string.h>

#include "print/repr.h"
#include "print/unicode_gen.h"

/* Binding strength, loosest first. */
enum {
    P_NAMED,  /* x := v */
    P_TUPLE,  /* a, b */
    P_YIELD,  /* yield x */
    P_TEST,   /* lambda, a if b else c */
    P_OR,     /* or */
    P_AND,    /* and */
    P_NOT,    /* not x */
    P_CMP,    /* <, in, is, ... */
    P_BOR,    /* | */
    P_BXOR,   /* ^ */
    P_BAND,   /* & */
    P_SHIFT,  /* << >> */
    P_ARITH,  /* + - */
    P_TERM,   /* * / // % @ */
    P_FACTOR, /* unary + - ~ */
    P_POWER,  /* ** */
    P_AWAIT,  /* await x */
    P_ATOM,   /* names, displays, calls, subscripts, attributes */
};

/* Quote kinds of a str literal. */
enum {
    Q_SQ = 1,  /* ' */
    Q_DQ = 2,  /* " */
    Q_TSQ = 4, /* ''' */
    Q_TDQ = 8, /* """ */
};

/* Quote characters, as bits of printer.no_chars / no_triples. */
enum {
    CH_SQ = 1,
    CH_DQ = 2,
};

/* Where a body printed ahead (upy_print_body) takes the indentation of
 * the def it ends up in: offsets in the text, in the order printed. */
typedef struct mark_list {
    upy_arena *arena;
    uint32_t *items;
    uint32_t len, cap;
} mark_list;

typedef struct printer {
    upy_strbuf *sb;
    mark_list *marks; /* NULL unless printing a body ahead */
    upy_version version;
    unsigned issues;  /* UPY_PRINT_* */
    int nan_negative; /* sign of the nan that inf - inf gives here */
    /* f-string state.  fdepth counts the replacement fields around the
     * text being printed; no_kinds are the quote kinds that cannot open a
     * literal there, no_chars the quote characters that cannot appear raw
     * and no_triples those that cannot appear three in a row (they would
     * end an enclosing f-string). */
    int fdepth;
    unsigned no_kinds, no_chars, no_triples;
    int strict;   /* trying a quote: what is forbidden fails the try */
    int conflict; /* the try failed */
    int level;    /* indentation of the statement being printed */
    int depth;    /* expressions being printed, one inside the other */
    int code_value_unnoted; /* the line holds a code object as `...` */
} printer;

static void print_expr(printer *p, const upy_expr *e, int min);

/* ---- small output helpers ---------------------------------------------- */

static void puts_(printer *p, const char *text) {
    upy_sb_puts(p->sb, text);
}

static void putc_(printer *p, char c) {
    upy_sb_putc(p->sb, c);
}

static int stopped(const printer *p) {
    return p->sb->failed || p->conflict || (p->issues & UPY_PRINT_TOO_DEEP);
}

/* Notes that the enclosing indentation goes here, when printing a body
 * ahead; a mark that cannot be kept fails the text like memory would. */
static void mark(printer *p) {
    mark_list *m = p->marks;
    if (!m || p->sb->failed)
        return;
    if (m->len == m->cap || p->sb->len > UINT32_MAX) {
        uint32_t *grown = p->sb->len > UINT32_MAX
                              ? NULL
                              : upy_arena_grow(m->arena, m->items, m->len,
                                               &m->cap, sizeof *grown, 64);
        if (!grown) {
            p->sb->failed = 1;
            return;
        }
        m->items = grown;
    }
    m->items[m->len++] = (uint32_t)p->sb->len;
}

static void indent(printer *p, int level) {
    static const char spaces[] = "                                "
                                 "                                ";
    int levels_at_once = (int)(sizeof spaces - 1) / 4;

    mark(p);
    for (; level > levels_at_once; level -= levels_at_once)
        upy_sb_append(p->sb, spaces, sizeof spaces - 1);
    if (level > 0)
        upy_sb_append(p->sb, spaces, 4 * (size_t)level);
}

static int at_least(const printer *p, int minor) {
    return p->version.major > 3 ||
           (p->version.major == 3 && p->version.minor >= minor);
}

/* ---- numbers ------------------------------------------------------------ */

/* The sign bit of the nan that this machine's inf - inf gives, which is
 * what CPython's constant folder computes for `1e309 - 1e309` here (x86
 * sets it, others may not).  volatile keeps the compiler from folding the
 * subtraction with its own idea of nan. */
static int host_nan_negative(void) {
    volatile double inf = HUGE_VAL;
    double nan_value = inf - inf;

    return signbit(nan_value) != 0;
}

/* Appends the shortest round-trip text of a finite non-negative m, without
 * float's ".0" (complex's repr of the part), then "j" when imaginary. */
static void put_magnitude(printer *p, double m, int imaginary) {
    upy_object o;
    upy_strbuf tmp;

    if (isinf(m)) {
        puts_(p, imaginary ? "1e309j" : "1e309");
        return;
    }
    if (isnan(m)) {
        /* Only in complex parts, whose nan sign is not kept. */
        puts_(p, imaginary ? "(1e309j - 1e309j)" : "(1e309 - 1e309)");
        return;
    }
    memset(&o, 0, sizeof o);
    o.kind = UPY_COMPLEX;
    o.u.complex.real = 0.0;
    o.u.complex.imag = m;
    upy_sb_init(&tmp, 64);
    upy_repr(&tmp, &o, p->version); /* "Nj" */
    if (tmp.failed || tmp.len < 2) {
        p->sb->failed = p->sb->failed ? p->sb->failed : 1;
    } else {
        upy_sb_append(p->sb, tmp.data, imaginary ? tmp.len : tmp.len - 1);
    }
    upy_sb_release(&tmp);
}

/* A real number with its sign, for a complex's real part. */
static void put_real_part(printer *p, double r) {
    if (isnan(r)) {
        puts_(p, "(1e309 - 1e309)");
        return;
    }
    if (signbit(r))
        putc_(p, '-');
    put_magnitude(p, fabs(r), 0);
}

/* How a complex constant is written.  Before 3.14 mixed arithmetic turns
 * a real x into complex(x, +0.0), which loses signed zeros, so each
 * combination of signs gets a form whose folding is exact (checked against
 * every CPython in tests/test_print.py); re stands for the real part, B
 * for the magnitude of the imaginary one. */
typedef enum complex_form {
    CX_IMAG,         /* Bj:              (+0, +B) */
    CX_PLUS,         /* re + Bj:         (re != 0, +B) */
    CX_NEG_ZERO_SUB, /* -(0 - Bj):       (-0, +B), B > 0 */
    CX_NEG_ZERO_MUL, /* -0.0 * 1j:       (-0, +0) */
    CX_ZERO_SUB,     /* 0 - Bj:          (+0, -B), B > 0 */
    CX_ZERO_MUL,     /* -0j * 1j:        (+0, -0) */
    CX_NEG_IMAG,     /* -Bj:             (-0, -B) */
    CX_MINUS,        /* re - Bj:         (re != 0, -B), B > 0 */
    CX_NEG_SUM,      /* -(-re + 0j):     (re != 0, -0) */
} complex_form;

static complex_form classify_complex(double re, double im) {
    int re_neg = !isnan(re) && signbit(re);
    int im_neg = !isnan(im) && signbit(im);
    int re_zero = re == 0, im_zero = im == 0;

    if (!im_neg) {
        if (re_zero && !re_neg)
            return CX_IMAG;
        if (!re_zero)
            return CX_PLUS;
        return im_zero ? CX_NEG_ZERO_MUL : CX_NEG_ZERO_SUB;
    }
    if (re_zero && !re_neg)
        return im_zero ? CX_ZERO_MUL : CX_ZERO_SUB;
    if (re_zero)
        return CX_NEG_IMAG;
    return im_zero ? CX_NEG_SUM : CX_MINUS;
}

static int complex_prec(double re, double im) {
    switch (classify_complex(re, im)) {
    case CX_IMAG:
        return P_ATOM;
    case CX_PLUS:
    case CX_ZERO_SUB:
    case CX_MINUS:
        return P_ARITH;
    case CX_NEG_ZERO_MUL:
    case CX_ZERO_MUL:
        return P_TERM;
    default:
        return P_FACTOR;
    }
}

static void put_complex(printer *p, double re, double im) {
    double b = fabs(im);

    switch (classify_complex(re, im)) {
    case CX_IMAG:
        put_magnitude(p, b, 1);
        break;
    case CX_PLUS:
        put_real_part(p, re);
        puts_(p, " + ");
        put_magnitude(p, b, 1);
        break;
    case CX_NEG_ZERO_SUB:
        puts_(p, "-(0 - ");
        put_magnitude(p, b, 1);
        putc_(p, ')');
        break;
    case CX_NEG_ZERO_MUL:
        puts_(p, "-0.0 * 1j");
        break;
    case CX_ZERO_SUB:
        puts_(p, "0 - ");
        put_magnitude(p, b, 1);
        break;
    case CX_ZERO_MUL:
        puts_(p, "-0j * 1j");
        break;
    case CX_NEG_IMAG:
        putc_(p, '-');
        put_magnitude(p, b, 1);
        break;
    case CX_MINUS:
        put_real_part(p, re);
        puts_(p, " - ");
        put_magnitude(p, b, 1);
        break;
    case CX_NEG_SUM:
        puts_(p, "-(");
        put_real_part(p, -re);
        puts_(p, " + 0j)");
        break;
    }
}

/* A complex inside a match pattern, where only `re + Bj` shapes parse:
 * exact except for some signed zeros, which no pattern can spell. */
static void put_complex_pattern(printer *p, double re, double im) {
    int im_neg = !isnan(im) && signbit(im);

    if (re == 0 && (signbit(re) != 0) == im_neg) {
        /* Bj is (+0, B) and -Bj is (-0, -B). */
        if (im_neg)
            putc_(p, '-');
        put_magnitude(p, fabs(im), 1);
        return;
    }
    put_real_part(p, re);
    puts_(p, im_neg ? " - " : " + ");
    put_magnitude(p, fabs(im), 1);
}

static int float_prec(const printer *p, double d) {
    if (isnan(d))
        return (signbit(d) != 0) == p->nan_negative ? P_ARITH : P_FACTOR;
    return signbit(d) ? P_FACTOR : P_ATOM;
}

/* inf and nan have no literal: 1e309 overflows to inf when read, and
 * CPython folds inf - inf into a nan. */
static void put_float(printer *p, const upy_object *o) {
    double d = o->u.real;

    if (isnan(d)) {
        if ((signbit(d) != 0) == p->nan_negative)
            puts_(p, "1e309 - 1e309");
        else
            puts_(p, "-(1e309 - 1e309)");
    } else if (isinf(d)) {
        puts_(p, d < 0 ? "-1e309" : "1e309");
    } else {
        upy_repr(p->sb, o, p->version);
    }
}

/* Bits [pos, pos + 4) of a big int's magnitude (15-bit digits). */
static unsigned big_nibble(const upy_int *v, size_t pos) {
    unsigned value = 0, i;

    for (i = 0; i < 4; i++) {
        size_t bit = pos + i, digit = bit / 15;
        if (digit < v->ndigits && (v->digits[digit] >> (bit % 15)) & 1)
            value |= 1u << i;
    }
    return value;
}

/* Ints of more than 4300 decimal digits do not compile from decimal text
 * (CPython's int_max_str_digits, 3.11 and the 3.8-3.10 security
 * releases), while hexadecimal literals have no limit. */
static void put_int(printer *p, const upy_object *o) {
    const upy_int *v = &o->u.integer;
    size_t top, nibbles;

    if (!v->is_big || v->ndigits <= 900) {
        upy_repr(p->sb, o, p->version);
        return;
    }
    top = v->ndigits;
    while (top > 0 && v->digits[top - 1] == 0)
        top--;
    nibbles = (top * 15 + 3) / 4;
    while (nibbles > 1 && big_nibble(v, (nibbles - 1) * 4) == 0)
        nibbles--;
    puts_(p, v->negative ? "-0x" : "0x");
    while (nibbles-- > 0 && !p->sb->failed)
        putc_(p, "0123456789abcdef"[big_nibble(v, nibbles * 4)]);
}

static int int_negative(const upy_object *o) {
    return o->u.integer.is_big ? o->u.integer.negative : o->u.integer.value < 0;
}

/* ---- str and bytes literals --------------------------------------------- */

/* Decodes one UTF-8 sequence (the reader validated the text; lone
 * surrogates appear as their 3-byte forms); 0 for an invalid one. */
static size_t utf8_next(const uint8_t *s, size_t n, uint32_t *cp) {
    size_t len, i;
    uint32_t c = s[0];

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, c &= 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, c &= 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, c &= 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    *cp = c;
    return len;
}

static char quote_char(unsigned kind) {
    return kind & (Q_SQ | Q_TSQ) ? '\'' : '"';
}

static const char *quote_text(unsigned kind) {
    switch (kind) {
    case Q_DQ:
        return "\"";
    case Q_TSQ:
        return "'''";
    case Q_TDQ:
        return "\"\"\"";
    default:
        return "'";
    }
}

static unsigned char_bit(uint32_t c) {
    return c == '\'' ? CH_SQ : c == '"' ? CH_DQ : 0;
}

/* Escapes a literal needs: all of them, and those only because an
 * enclosing f-string forbids a quote. */
typedef struct escapes {
    size_t total, banned;
} escapes;

/* How put_literal_body writes a literal. */
enum {
    LIT_BRACES = 1,   /* doubles { and } (the literal text of an f-string) */
    LIT_NEWLINES = 2, /* keeps newlines raw (a triple-quoted docstring) */
};

/* How many bytes from s on put_literal_body copies as they are whatever
 * the quote and the f-string around: printable ASCII but the backslash,
 * the quotes and, when mode doubles them, braces.  (Docstrings are most
 * of the text of literals, and went through one character at a time.) */
static size_t plain_run(const uint8_t *s, size_t len, unsigned mode) {
    size_t n = 0;
    while (n < len && s[n] >= 0x20 && s[n] < 0x7F && s[n] != '\\' &&
           s[n] != '\'' && s[n] != '"' &&
           !((mode & LIT_BRACES) && (s[n] == '{' || s[n] == '}')))
        n++;
    return n;
}

/* Writes (or, when dry, only counts) the body of a str or bytes literal
 * quoted with `kind`, escaped the way repr escapes except as `mode` says;
 * `indent` follows each raw newline. */
static escapes put_literal_body(printer *p, const uint8_t *s, size_t len,
                                int is_bytes, unsigned kind, unsigned mode,
                                const char *indent, int dry) {
    escapes esc = {0, 0};
    char q = quote_char(kind), buf[12];
    int triple = (kind & (Q_TSQ | Q_TDQ)) != 0;
    size_t i = 0;

    while (i < len && !p->sb->failed) {
        uint32_t c = s[i];
        size_t n = plain_run(s + i, len - i, mode);
        int escape = 0, banned = 0;

        if (n) {
            if (!dry)
                upy_sb_append(p->sb, (const char *)s + i, n);
            i += n;
            continue;
        }
        n = 1;
        if (c >= 0x80) {
            n = is_bytes ? 0 : utf8_next(s + i, len - i, &c);
            if (n && upy_unicode_is_printable(p->version, c)) {
                if (!dry)
                    upy_sb_append(p->sb, (const char *)s + i, n);
                i += n;
                continue;
            }
            if (!n) {
                c = s[i];
                n = 1;
            }
            escape = 1;
        } else if (c == '\n' && (mode & LIT_NEWLINES)) {
            escape = 0;
        } else if (c == '\\' || c < 0x20 || c == 0x7F) {
            escape = 1;
        } else if (c == (uint8_t)q) {
            escape = !triple || i + 1 == len || s[i + 1] == c;
        }
        if (char_bit(c) & p->no_chars)
            escape = banned = 1;
        if ((char_bit(c) & p->no_triples) && i + 1 < len && s[i + 1] == c)
            escape = banned = 1;
        if (escape) {
            esc.total++;
            esc.banned += (size_t)banned;
        }
        if (dry) {
            i += n;
            continue;
        }
        if (!escape) {
            putc_(p, (char)c);
            if ((mode & LIT_BRACES) && (c == '{' || c == '}'))
                putc_(p, (char)c);
            if (c == '\n' && indent && i + 1 < len && s[i + 1] != '\n') {
                mark(p);
                puts_(p, indent);
            }
        } else if (c == '\\' || c == '\'' || c == '"') {
            buf[0] = '\\';
            buf[1] = (char)c;
            upy_sb_append(p->sb, buf, 2);
        } else if (c == '\t') {
            puts_(p, "\\t");
        } else if (c == '\n') {
            puts_(p, "\\n");
        } else if (c == '\r') {
            puts_(p, "\\r");
        } else if (c < 0x100) {
            upy_sb_printf(p->sb, "\\x%02x", (unsigned)c);
        } else if (c < 0x10000) {
            upy_sb_printf(p->sb, "\\u%04x", (unsigned)c);
        } else {
            upy_sb_printf(p->sb, "\\U%08x", (unsigned)c);
        }
        i += n;
    }
    return esc;
}

/* Whether a literal with these escapes is fine where it is.  Inside a
 * replacement field before 3.12 no backslash is; from 3.12 on any is, and
 * the quote rules are kept only to print what older versions read too. */
static int escapes_ok(const printer *p, escapes esc) {
    if (p->fdepth == 0)
        return 1;
    return at_least(p, 12) ? esc.banned == 0 : esc.total == 0;
}

/* Notes a literal that escapes what it should not: a failed try when
 * trying, else an inexact result. */
static void check_escapes(printer *p, escapes esc) {
    if (escapes_ok(p, esc))
        return;
    if (p->strict)
        p->conflict = 1;
    else
        p->issues |= UPY_PRINT_FSTRING_INEXACT;
}

/* The quote kinds in the order repr would prefer them for this text. */
static void quote_order(const uint8_t *s, size_t len, unsigned order[4]) {
    int has_sq = memchr(s, '\'', len) != NULL;
    int has_dq = memchr(s, '"', len) != NULL;

    if (has_sq && !has_dq) {
        order[0] = Q_DQ, order[1] = Q_SQ, order[2] = Q_TDQ, order[3] = Q_TSQ;
    } else {
        order[0] = Q_SQ, order[1] = Q_DQ, order[2] = Q_TSQ, order[3] = Q_TDQ;
    }
}

/* A str or bytes constant.  Outside f-strings that is repr; inside a
 * replacement field the quote is chosen to keep clear of the enclosing
 * f-strings' quotes. */
static void put_string(printer *p, const upy_object *o) {
    const uint8_t *s = o->u.bytes.data;
    size_t len = o->u.bytes.len;
    int is_bytes = o->kind == UPY_BYTES;
    unsigned order[4], kind = 0;
    int i, banned = 0;

    if (p->fdepth == 0) {
        upy_repr(p->sb, o, p->version);
        return;
    }
    quote_order(s, len, order);
    for (i = 0; i < 4 && !kind; i++) {
        if (!(order[i] & p->no_kinds) &&
            escapes_ok(
                p, put_literal_body(p, s, len, is_bytes, order[i], 0, NULL, 1)))
            kind = order[i];
    }
    if (!kind) {
        /* No quote fits: the nearest, with the escapes it needs; when
         * every kind is taken, even the quote itself is wrong. */
        for (i = 0; i < 4 && !kind; i++)
            if (!(order[i] & p->no_kinds))
                kind = order[i];
        if (!kind) {
            kind = order[0];
            banned = 1;
        }
    }
    if (is_bytes)
        putc_(p, 'b');
    puts_(p, quote_text(kind));
    check_escapes(p, put_literal_body(p, s, len, is_bytes, kind, 0, NULL, 0));
    puts_(p, quote_text(kind));
    if (banned) {
        if (p->strict)
            p->conflict = 1;
        else
            p->issues |= UPY_PRINT_FSTRING_INEXACT;
    }
}

/* Whether 3.13's compiler, which cleans docstrings the way inspect.cleandoc
 * does, would leave `s` as it is with every line after the first indented
 * alike: its first line starts with no blank, no other line is blank but
 * not empty, and one has no indentation while none starts with a tab. */
static int docstring_reindents(const uint8_t *s, size_t len) {
    size_t i = 0, start;
    int flush_left = 0, rest = 0;

    if (len && (s[0] == ' ' || s[0] == '\t' || s[0] == '\f'))
        return 0;
    while (i < len && s[i] != '\n')
        i++;
    while (i < len) {
        size_t blanks;
        start = ++i;
        while (i < len && s[i] != '\n')
            i++;
        if (i == start)
            continue;
        rest = 1;
        for (blanks = 0; start + blanks < i && s[start + blanks] == ' ';)
            blanks++;
        if (start + blanks == i || s[start + blanks] == '\t' ||
            s[start + blanks] == '\f')
            return 0;
        flush_left |= blanks == 0;
    }
    return flush_left || !rest;
}

/* A docstring as a triple-quoted literal with its newlines.  Before 3.13
 * the string holds its lines' indentation itself; 3.13 strips it, so it
 * is put back (level deep), or the string prints as repr where stripping
 * would change it. */
static void put_docstring(printer *p, const upy_object *o, int level) {
    const uint8_t *s = o->u.bytes.data;
    size_t len = o->u.bytes.len;
    char indent_text[4 * 64 + 1];
    const char *indent = NULL;

    if (at_least(p, 13)) {
        int width = 4 * (level < 64 ? level : 64);
        if (!docstring_reindents(s, len)) {
            upy_repr(p->sb, o, p->version);
            return;
        }
        memset(indent_text, ' ', (size_t)width);
        indent_text[width] = '\0';
        indent = indent_text;
    }
    puts_(p, "\"\"\"");
    put_literal_body(p, s, len, 0, Q_TDQ, LIT_NEWLINES, indent, 0);
    if (indent && len && s[len - 1] == '\n') {
        mark(p);
        puts_(p, indent);
    }
    puts_(p, "\"\"\"");
}

/* ---- constants ---------------------------------------------------------- */

static int is_tuple_const(const upy_expr *e) {
    return e && e->kind == UPY_E_CONST && e->u.constant &&
           e->u.constant->kind == UPY_TUPLE;
}

static int object_prec(const printer *p, const upy_object *o) {
    if (!o)
        return P_ATOM;
    switch (o->kind) {
    case UPY_INT:
        return int_negative(o) ? P_FACTOR : P_ATOM;
    case UPY_FLOAT:
        return float_prec(p, o->u.real);
    case UPY_COMPLEX:
        return complex_prec(o->u.complex.real, o->u.complex.imag);
    default:
        return P_ATOM;
    }
}

static void print_object(printer *p, const upy_object *o, int min);

/* Items of a constant container, each as an expression. */
static void print_object_items(printer *p, const upy_object *o) {
    size_t i;

    for (i = 0; i < o->u.seq.len && !stopped(p); i++) {
        if (i)
            puts_(p, ", ");
        if (o->kind == UPY_DICT) {
            print_object(p, o->u.seq.items[i], P_TEST);
            if (++i < o->u.seq.len) {
                puts_(p, ": ");
                print_object(p, o->u.seq.items[i], P_TEST);
            }
        } else {
            print_object(p, o->u.seq.items[i], P_TEST);
        }
    }
}

/* A constant, in a position that asks for strength min. */
static void print_object(printer *p, const upy_object *o, int min) {
    int paren;

    if (stopped(p))
        return;
    if (!o) {
        puts_(p, "...");
        return;
    }
    paren = object_prec(p, o) < min;
    if (paren)
        putc_(p, '(');
    switch (o->kind) {
    case UPY_NONE:
        puts_(p, "None");
        break;
    case UPY_FALSE:
        puts_(p, "False");
        break;
    case UPY_TRUE:
        puts_(p, "True");
        break;
    case UPY_STOPITER:
        /* marshal's StopIteration; no source makes it a constant. */
        puts_(p, "StopIteration");
        break;
    case UPY_ELLIPSIS:
        puts_(p, "...");
        break;
    case UPY_INT:
        put_int(p, o);
        break;
    case UPY_FLOAT:
        put_float(p, o);
        break;
    case UPY_COMPLEX:
        put_complex(p, o->u.complex.real, o->u.complex.imag);
        break;
    case UPY_STR:
    case UPY_BYTES:
        put_string(p, o);
        break;
    case UPY_TUPLE:
        putc_(p, '(');
        print_object_items(p, o);
        if (o->u.seq.len == 1)
            putc_(p, ',');
        putc_(p, ')');
        break;
    case UPY_LIST:
        putc_(p, '[');
        print_object_items(p, o);
        putc_(p, ']');
        break;
    case UPY_DICT:
        putc_(p, '{');
        print_object_items(p, o);
        putc_(p, '}');
        break;
    case UPY_SET:
    case UPY_FROZENSET:
        /* CPython makes a frozenset constant of `x in {1, 2}`; the empty
         * one comes from no display. */
        if (o->u.seq.len == 0) {
            puts_(p, o->kind == UPY_SET ? "set()" : "frozenset()");
            break;
        }
        putc_(p, '{');
        print_object_items(p, o);
        putc_(p, '}');
        break;
    case UPY_CODE:
        /* The recover layer turns code constants into def and lambda; one
         * left is a value no source makes, never a silent `...`. */
        p->issues |= UPY_PRINT_CODE_VALUE;
        p->code_value_unnoted = 1;
        puts_(p, "...");
        break;
    default:
        puts_(p, "...");
        break;
    }
    if (paren)
        putc_(p, ')');
}

/* ---- expressions -------------------------------------------------------- */

static const char *const binop_text[] = {
    "+", "&", "//", "<<", "@", "*", "%", "|", "**", ">>", "-", "/", "^",
};

static const int binop_strength[] = {
    P_ARITH, P_BAND,  P_TERM,  P_SHIFT, P_TERM, P_TERM, P_TERM,
    P_BOR,   P_POWER, P_SHIFT, P_ARITH, P_TERM, P_BXOR,
};

static const char *const cmpop_text[] = {
    "<", "<=", "==", "!=", ">", ">=", "is", "is not", "in", "not in",
};

static unsigned binop_index(upy_binop op) {
    return (unsigned)op < sizeof binop_text / sizeof *binop_text ? op : 0;
}

static int expr_prec(const printer *p, const upy_expr *e) {
    switch (e->kind) {
    case UPY_E_CONST:
        return object_prec(p, e->u.constant);
    case UPY_E_BINOP:
        return binop_strength[binop_index(e->u.binop.op)];
    case UPY_E_UNARYOP:
        return e->u.unary.op == UPY_UOP_NOT ? P_NOT : P_FACTOR;
    case UPY_E_BOOLOP:
        if (e->u.boolop.values.len == 1 && e->u.boolop.values.items[0])
            return expr_prec(p, e->u.boolop.values.items[0]);
        return e->u.boolop.is_and ? P_AND : P_OR;
    case UPY_E_COMPARE:
        if (e->u.compare.n == 0 && e->u.compare.left)
            return expr_prec(p, e->u.compare.left);
        return P_CMP;
    case UPY_E_IFEXP:
    case UPY_E_LAMBDA:
    case UPY_E_SOURCE: /* any expression; the compiler wrote it */
        return P_TEST;
    case UPY_E_YIELD:
    case UPY_E_YIELD_FROM:
        return P_YIELD;
    case UPY_E_AWAIT:
        return P_AWAIT;
    default:
        /* Tuples and walruses print their own parentheses; a starred or a
         * slice is never parenthesized (that would not parse). */
        return P_ATOM;
    }
}

static void print_expr_list(printer *p, const upy_expr_list *list, int min) {
    uint32_t i;

    for (i = 0; i < list->len && !stopped(p); i++) {
        if (i)
            puts_(p, ", ");
        print_expr(p, list->items[i], min);
    }
}

static int tuple_len(const upy_expr *e) {
    if (e && e->kind == UPY_E_TUPLE)
        return (int)(e->u.elts.len > 0x7FFFFFFF ? 0x7FFFFFFF : e->u.elts.len);
    if (is_tuple_const(e))
        return (int)(e->u.constant->u.seq.len > 0x7FFFFFFF
                         ? 0x7FFFFFFF
                         : e->u.constant->u.seq.len);
    return -1;
}

static int tuple_has(const upy_expr *e, upy_expr_kind kind) {
    uint32_t i;

    if (!e || e->kind != UPY_E_TUPLE)
        return 0;
    for (i = 0; i < e->u.elts.len; i++)
        if (e->u.elts.items[i] && e->u.elts.items[i]->kind == kind)
            return 1;
    return 0;
}

/* The items of a tuple (a display or a constant), without parentheses;
 * one item gets its trailing comma. */
static void print_tuple_items(printer *p, const upy_expr *e) {
    if (e->kind == UPY_E_TUPLE) {
        print_expr_list(p, &e->u.elts, P_TEST);
        if (e->u.elts.len == 1)
            putc_(p, ',');
    } else {
        print_object_items(p, e->u.constant);
        if (e->u.constant->u.seq.len == 1)
            putc_(p, ',');
    }
}

/* An expression in a position that takes a bare tuple of two or more
 * items (assignment, for, return, yield, ...); star_ok says whether the
 * version reads starred items there.  Anything else prints at min. */
static void print_bare(printer *p, const upy_expr *e, int star_ok, int min) {
    if (tuple_len(e) >= 2 && (star_ok || !tuple_has(e, UPY_E_STARRED)))
        print_tuple_items(p, e);
    else
        print_expr(p, e, min);
}

/* The index of a subscript: a tuple is bare there, and must be when it
 * holds a slice (`x[1:2, ::3]`); starred items need 3.11. */
static void print_index(printer *p, const upy_expr *e) {
    int n = tuple_len(e);

    if (n >= 1 && (!tuple_has(e, UPY_E_STARRED) || at_least(p, 11) ||
                   tuple_has(e, UPY_E_SLICE)))
        print_tuple_items(p, e);
    else
        print_expr(p, e, P_TEST);
}

/* One parameter: name, `: annotation`, default. */
static void print_param(printer *p, const upy_arg *arg, const upy_expr *dflt,
                        int annotations) {
    int annotated = annotations && arg->annotation;

    puts_(p, arg->name ? arg->name : "_");
    if (annotated) {
        puts_(p, ": ");
        print_expr(p, arg->annotation, P_TEST);
    }
    if (dflt) {
        /* PEP 8: spaces around = only next to an annotation. */
        puts_(p, annotated ? " = " : "=");
        print_expr(p, dflt, P_TEST);
    }
}

/* A def's or lambda's parameter list, without parentheses. */
static void print_arguments(printer *p, const upy_arguments *a,
                            int annotations) {
    uint32_t total, first_default, skipped, i;
    int any = 0;

    if (!a)
        return;
    total = a->n_posonly + a->n_args;
    /* Defaults belong to the last n_defaults positional parameters. */
    first_default = a->n_defaults < total ? total - a->n_defaults : 0;
    skipped = a->n_defaults > total ? a->n_defaults - total : 0;
    for (i = 0; i < total && !stopped(p); i++) {
        const upy_arg *arg =
            i < a->n_posonly ? &a->posonly[i] : &a->args[i - a->n_posonly];
        const upy_expr *dflt = NULL;

        if (i >= first_default && a->defaults)
            dflt = a->defaults[i - first_default + skipped];
        if (any)
            puts_(p, ", ");
        print_param(p, arg, dflt, annotations);
        any = 1;
        if (i + 1 == a->n_posonly)
            puts_(p, ", /");
    }
    if (a->vararg || a->n_kwonly) {
        if (any)
            puts_(p, ", ");
        putc_(p, '*');
        if (a->vararg)
            print_param(p, a->vararg, NULL, annotations);
        any = 1;
    }
    for (i = 0; i < a->n_kwonly && !stopped(p); i++) {
        puts_(p, ", ");
        print_param(p, &a->kwonly[i], a->kw_defaults ? a->kw_defaults[i] : NULL,
                    annotations);
    }
    if (a->kwarg) {
        if (any)
            puts_(p, ", ");
        puts_(p, "**");
        print_param(p, a->kwarg, NULL, annotations);
    }
}

static int has_arguments(const upy_arguments *a) {
    return a &&
           (a->n_posonly || a->n_args || a->vararg || a->n_kwonly || a->kwarg);
}

static void print_keywords(printer *p, const upy_keyword *kw, uint32_t n,
                           int any) {
    uint32_t i;

    for (i = 0; i < n && !stopped(p); i++) {
        if (any || i)
            puts_(p, ", ");
        if (kw[i].name) {
            puts_(p, kw[i].name);
            putc_(p, '=');
        } else {
            puts_(p, "**");
        }
        print_expr(p, kw[i].value, P_TEST);
    }
}

static void print_generators(printer *p, const upy_expr *e) {
    uint32_t i, j;

    for (i = 0; i < e->u.comp.n_generators && !stopped(p); i++) {
        const upy_comprehension *g = &e->u.comp.generators[i];

        puts_(p, g->is_async ? " async for " : " for ");
        print_bare(p, g->target, 1, P_TEST);
        puts_(p, " in ");
        print_expr(p, g->iter, P_OR);
        for (j = 0; j < g->ifs.len && !stopped(p); j++) {
            /* Inside the brackets a clause can start a line (not inside
             * an f-string's field before 3.12). */
            if (j < 32 && (g->own_line_ifs >> j & 1) &&
                (p->fdepth == 0 || at_least(p, 12))) {
                putc_(p, '\n');
                indent(p, p->level + 1);
                puts_(p, "if ");
            } else {
                puts_(p, " if ");
            }
            print_expr(p, g->ifs.items[j], P_OR);
        }
    }
}

/* A comprehension's inside, without its brackets. */
static void print_comp_body(printer *p, const upy_expr *e) {
    if (e->kind == UPY_E_DICTCOMP) {
        print_expr(p, e->u.comp.key, P_TEST);
        puts_(p, ": ");
    }
    print_expr(p, e->u.comp.elt, P_TEST);
    print_generators(p, e);
}

static void print_call(printer *p, const upy_expr *e) {
    const upy_expr_list *args = &e->u.call.args;

    print_expr(p, e->u.call.func, P_ATOM);
    putc_(p, '(');
    /* f(x for x in y): a lone generator argument needs no parentheses of
     * its own. */
    if (args->len == 1 && e->u.call.n_keywords == 0 && args->items[0] &&
        args->items[0]->kind == UPY_E_GENEXP)
        print_comp_body(p, args->items[0]);
    else
        print_expr_list(p, args, P_TEST);
    print_keywords(p, e->u.call.keywords, e->u.call.n_keywords, args->len > 0);
    putc_(p, ')');
}

/* ---- f-strings ---------------------------------------------------------- */

static void emit_fstring(printer *p, const upy_expr *const *parts, uint32_t n,
                         unsigned kind, int bans);

/* The rules a quote kind sets for the replacement fields inside it. */
static void ban_quote(printer *p, unsigned kind) {
    if (kind == Q_SQ || kind == Q_DQ) {
        p->no_chars |= char_bit((uint8_t)quote_char(kind));
        p->no_kinds |= kind == Q_SQ ? Q_SQ | Q_TSQ : Q_DQ | Q_TDQ;
    } else {
        p->no_triples |= char_bit((uint8_t)quote_char(kind));
        p->no_kinds |= kind;
    }
}

/* A field's expression ends at a ':' or '!' outside brackets, so a lambda
 * there (possibly as the last branch of a conditional) needs parentheses;
 * nothing else prints such a character bare. */
static int field_needs_parens(const upy_expr *e) {
    while (e && e->kind == UPY_E_IFEXP)
        e = e->u.ifexp.orelse;
    return e && e->kind == UPY_E_LAMBDA;
}

/* A str constant: literal text of an f-string.  Any other part prints
 * as a replacement field, which at least keeps its value. */
static int is_str_const(const upy_expr *e) {
    return e && e->kind == UPY_E_CONST && e->u.constant &&
           e->u.constant->kind == UPY_STR;
}

/* Literal text of the f-string being printed. */
static void emit_fstring_text(printer *p, const upy_expr *part, unsigned kind) {
    const upy_object *o = part->u.constant;

    check_escapes(p, put_literal_body(p, o->u.bytes.data, o->u.bytes.len, 0,
                                      kind, LIT_BRACES, NULL, 0));
}

/* One replacement field {value!c:spec}. */
static void emit_field(printer *p, const upy_expr *f, unsigned kind, int bans) {
    unsigned no_kinds = p->no_kinds, no_chars = p->no_chars;
    unsigned no_triples = p->no_triples;
    const upy_expr *value = f, *spec = NULL;
    int conversion = -1;
    size_t start;

    if (f->kind == UPY_E_FORMATTED) {
        value = f->u.formatted.value;
        conversion = f->u.formatted.conversion;
        spec = f->u.formatted.format_spec;
    }
    putc_(p, '{');
    if (bans)
        ban_quote(p, kind);
    p->fdepth++;
    start = p->sb->len;
    if (field_needs_parens(value)) {
        putc_(p, '(');
        print_expr(p, value, P_NAMED);
        putc_(p, ')');
    } else {
        print_expr(p, value, P_TEST);
    }
    /* `{{` would be an escaped brace: a field that starts with a display
     * gets a space. */
    if (!p->sb->failed && p->sb->len > start && p->sb->data[start] == '{') {
        putc_(p, ' ');
        if (!p->sb->failed) {
            memmove(p->sb->data + start + 1, p->sb->data + start,
                    p->sb->len - start - 1);
            p->sb->data[start] = ' ';
        }
    }
    p->fdepth--;
    p->no_kinds = no_kinds, p->no_chars = no_chars;
    p->no_triples = no_triples;
    if (conversion == 's' || conversion == 'r' || conversion == 'a') {
        putc_(p, '!');
        putc_(p, (char)conversion);
    }
    /* A spec's fields nest in the field; crafted code can chain specs
     * without end (FORMAT_VALUE's spec another FORMAT_VALUE's result), so
     * they count as expression depth does (fuzz: a stack overflow). */
    if (spec && p->depth >= UPY_PRINT_MAX_DEPTH) {
        p->issues |= UPY_PRINT_TOO_DEEP;
        return;
    }
    if (spec) {
        /* The spec's text is the f-string's own literal text, its fields
         * nested fields. */
        putc_(p, ':');
        p->depth++;
        if (spec->kind == UPY_E_JOINEDSTR) {
            uint32_t i;
            for (i = 0; i < spec->u.joined.len && !stopped(p); i++) {
                const upy_expr *part = spec->u.joined.items[i];
                if (is_str_const(part))
                    emit_fstring_text(p, part, kind);
                else if (part)
                    emit_field(p, part, kind, bans);
            }
        } else {
            emit_field(p, spec, kind, bans);
        }
        p->depth--;
    }
    putc_(p, '}');
}

static void emit_fstring(printer *p, const upy_expr *const *parts, uint32_t n,
                         unsigned kind, int bans) {
    uint32_t i;

    putc_(p, 'f');
    puts_(p, quote_text(kind));
    for (i = 0; i < n && !stopped(p); i++) {
        if (!parts[i])
            continue;
        if (is_str_const(parts[i]))
            emit_fstring_text(p, parts[i], kind);
        else
            emit_field(p, parts[i], kind, bans);
    }
    puts_(p, quote_text(kind));
}

/* Whether the literal text of an f-string (its parts and its fields'
 * specs) holds a ' or a ", to prefer the quote repr would take. */
static void fstring_quote_order(const upy_expr *const *parts, uint32_t n,
                                unsigned order[4]) {
    int has_sq = 0, has_dq = 0;
    uint32_t i, j;

    for (i = 0; i < n; i++) {
        const upy_expr *part = parts[i];
        const upy_expr_list *spec = NULL;

        if (part && part->kind == UPY_E_FORMATTED &&
            part->u.formatted.format_spec &&
            part->u.formatted.format_spec->kind == UPY_E_JOINEDSTR)
            spec = &part->u.formatted.format_spec->u.joined;
        for (j = 0; j < (spec ? spec->len : 1); j++) {
            const upy_expr *text = spec ? spec->items[j] : part;
            const upy_object *o;
            if (!text || text->kind != UPY_E_CONST)
                continue;
            o = text->u.constant;
            if (!o || o->kind != UPY_STR)
                continue;
            has_sq |= memchr(o->u.bytes.data, '\'', o->u.bytes.len) != NULL;
            has_dq |= memchr(o->u.bytes.data, '"', o->u.bytes.len) != NULL;
        }
    }
    if (has_sq && !has_dq) {
        order[0] = Q_DQ, order[1] = Q_SQ, order[2] = Q_TDQ, order[3] = Q_TSQ;
    } else {
        order[0] = Q_SQ, order[1] = Q_DQ, order[2] = Q_TSQ, order[3] = Q_TDQ;
    }
}

/* An f-string.  Each quote kind that the enclosing f-strings leave free is
 * tried in a scratch buffer; the first whose fields need nothing forbidden
 * wins.  Trying is bounded: each level of nesting bans at least one more
 * kind, so at most 4 * 3 * 2 tries reach any field, and a level with no
 * kind left fails at once. */
/* The % conversion of a field as 3.11's constant folding reads it back
 * into `{value!c:spec}`: spec is empty, or [>]width[.precision] (without
 * '>' the '-' flag); into fmt.  0 when the field is not of that form. */
static int percent_field(const upy_expr *f, upy_strbuf *fmt) {
    const char *spec = "";
    size_t k = 0;
    int right = 0;
    if (f->kind != UPY_E_FORMATTED ||
        (f->u.formatted.conversion != 's' && f->u.formatted.conversion != 'r' &&
         f->u.formatted.conversion != 'a'))
        return 0;
    if (f->u.formatted.format_spec) {
        const upy_expr *s = f->u.formatted.format_spec;
        if (s->kind == UPY_E_JOINEDSTR && s->u.joined.len == 1)
            s = s->u.joined.items[0];
        if (!is_str_const(s))
            return 0;
        spec = (const char *)s->u.constant->u.bytes.data;
    }
    right = spec[0] == '>';
    k = (size_t)right;
    if (spec[k] == '0')
        return 0;
    while (spec[k] >= '0' && spec[k] <= '9')
        k++;
    if (spec[k] == '.') {
        k++;
        if (!(spec[k] >= '0' && spec[k] <= '9'))
            return 0;
        while (spec[k] >= '0' && spec[k] <= '9')
            k++;
    }
    if (spec[k] || (right && !(spec[1] >= '1' && spec[1] <= '9')))
        return 0;
    upy_sb_putc(fmt, '%');
    if (!right && spec[0] && spec[0] != '.')
        upy_sb_putc(fmt, '-');
    upy_sb_puts(fmt, spec + right);
    upy_sb_putc(fmt, (char)f->u.formatted.conversion);
    return 1;
}

/* One conversion unit of a %-format after its '%', as 3.11+'s AST
 * optimizer (ast_opt.c simple_format_arg_parse / parse_format) accepts it
 * for folding into an f-string field: flags "-+ #0", at most two width
 * digits, '.' and at most two precision digits, then s, r or a.  The
 * index past the unit, or 0 when the unit is not of that form. */
static size_t foldable_percent_unit(const uint8_t *s, size_t len, size_t k) {
    size_t digits;
    while (k < len && s[k] && strchr("-+ #0", s[k]))
        k++;
    for (digits = 0; k < len && s[k] >= '0' && s[k] <= '9'; k++)
        if (++digits > 2)
            return 0;
    if (k < len && s[k] == '.') {
        for (digits = 0, k++; k < len && s[k] >= '0' && s[k] <= '9'; k++)
            if (++digits > 2)
                return 0;
    }
    if (k >= len || (s[k] != 's' && s[k] != 'r' && s[k] != 'a'))
        return 0;
    return k + 1;
}

/* Whether 3.11+'s AST optimizer folds `'...' % (a, b)` (a str literal and
 * a tuple display without starred items) into an f-string: each unit
 * foldable and one unit per item.  Such a left operand was written as an
 * f-string without fields, which the optimizer leaves alone:
 * `f'%s.%s' % (a, b)` keeps LOAD_CONST '%s.%s' ... BINARY_OP %, while
 * `'%s.%s' % (a, b)` compiles as f'{a!s}.{b!s}'. */
static int percent_format_folds(const upy_expr *e) {
    const upy_expr *left = e->u.binop.left, *right = e->u.binop.right;
    const uint8_t *s;
    size_t len, k, units = 0;
    uint32_t i;
    int variable = 0;

    if (e->u.binop.op != UPY_BIN_MOD || !is_str_const(left) || !right ||
        right->kind != UPY_E_TUPLE)
        return 0;
    /* A tuple of constants is folded into one constant first, and is no
     * tuple display by then. */
    for (i = 0; i < right->u.elts.len; i++) {
        const upy_expr *item = right->u.elts.items[i];
        if (!item || item->kind == UPY_E_STARRED)
            return 0;
        variable |= item->kind != UPY_E_CONST;
    }
    if (!variable)
        return 0;
    s = left->u.constant->u.bytes.data;
    len = left->u.constant->u.bytes.len;
    for (k = 0; k < len;) {
        if (s[k++] != '%')
            continue;
        if (k < len && s[k] == '%') {
            k++;
            continue;
        }
        k = foldable_percent_unit(s, len, k);
        if (!k)
            return 0;
        units++;
    }
    return units == right->u.elts.len;
}

/* An f-string no quoting can print before 3.12 (a backslash or quote in a
 * field) as the `'...' % (...)` it may have been: 3.11 folds such an
 * expression into this very f-string.  0 when it is not of that form. */
static int print_percent_format(printer *p, const upy_expr *const *parts,
                                uint32_t n) {
    upy_strbuf fmt;
    upy_object text;
    uint32_t k, fields = 0;
    int ok = 1;

    upy_sb_init(&fmt, 0);
    for (k = 0; k < n && ok; k++) {
        if (is_str_const(parts[k])) {
            const upy_object *o = parts[k]->u.constant;
            size_t i;
            for (i = 0; i < o->u.bytes.len; i++) {
                upy_sb_putc(&fmt, (char)o->u.bytes.data[i]);
                if (o->u.bytes.data[i] == '%')
                    upy_sb_putc(&fmt, '%');
            }
        } else {
            ok = percent_field(parts[k], &fmt);
            fields++;
        }
    }
    if (!ok || !fields || fmt.failed || !fmt.data) {
        upy_sb_release(&fmt);
        return 0;
    }
    memset(&text, 0, sizeof text);
    text.kind = UPY_STR;
    text.u.bytes.data = (const uint8_t *)fmt.data;
    text.u.bytes.len = fmt.len;
    putc_(p, '(');
    upy_repr(p->sb, &text, p->version);
    puts_(p, " % (");
    for (k = 0, ok = 0; k < n; k++) {
        if (is_str_const(parts[k]))
            continue;
        if (ok++)
            puts_(p, ", ");
        print_expr(p, parts[k]->u.formatted.value, P_TEST);
    }
    puts_(p, fields == 1 ? ",))" : "))");
    upy_sb_release(&fmt);
    return 1;
}

static void print_joined(printer *p, const upy_expr *const *parts, uint32_t n) {
    upy_strbuf *out = p->sb, tmp;
    int strict = p->strict, i;
    unsigned order[4], kind = 0;
    size_t room;
    /* Marks made in tmp (a lambda's own line in a field, 3.12+) move with
     * its text into out, or go with a try given up. */
    uint32_t marks_before = p->marks ? p->marks->len : 0, k;

    fstring_quote_order(parts, n, order);
    room = out->limit ? (out->len < out->limit ? out->limit - out->len : 1) : 0;
    for (i = 0; i < 4; i++) {
        if (order[i] & p->no_kinds)
            continue;
        upy_sb_init(&tmp, room);
        p->sb = &tmp;
        p->strict = 1;
        p->conflict = 0;
        emit_fstring(p, parts, n, order[i], 1);
        p->sb = out;
        p->strict = strict;
        if (!p->conflict && !tmp.failed) {
            for (k = marks_before; p->marks && k < p->marks->len; k++)
                p->marks->items[k] += (uint32_t)out->len;
            upy_sb_append(out, tmp.data, tmp.len);
            upy_sb_release(&tmp);
            return;
        }
        if (p->marks)
            p->marks->len = marks_before;
        p->conflict = 0;
        if (tmp.failed) {
            out->failed = tmp.failed;
            upy_sb_release(&tmp);
            return;
        }
        upy_sb_release(&tmp);
    }
    if (strict) {
        /* Let the enclosing f-string try its next quote. */
        p->conflict = 1;
        return;
    }
    if (at_least(p, 12)) {
        /* PEP 701: any quote may be reused inside a field, so the fields
         * start afresh. */
        unsigned no_kinds = p->no_kinds, no_chars = p->no_chars;
        unsigned no_triples = p->no_triples;
        int fdepth = p->fdepth;

        p->no_kinds = p->no_chars = p->no_triples = 0;
        p->fdepth = 0;
        emit_fstring(p, parts, n, order[0], 0);
        p->no_kinds = no_kinds, p->no_chars = no_chars;
        p->no_triples = no_triples;
        p->fdepth = fdepth;
        return;
    }
    if (p->fdepth == 0 && print_percent_format(p, parts, n))
        return;
    /* Before 3.12 nothing fits: print the nearest text and say so. */
    for (i = 0; i < 4 && !kind; i++)
        if (!(order[i] & p->no_kinds))
            kind = order[i];
    p->issues |= UPY_PRINT_FSTRING_INEXACT;
    emit_fstring(p, parts, n, kind ? kind : order[0], 1);
}

/* ---- the expression switch ---------------------------------------------- */

static void print_expr_inner(printer *p, const upy_expr *e) {
    switch (e->kind) {
    case UPY_E_CONST:
        print_object(p, e->u.constant, P_NAMED);
        break;
    case UPY_E_NAME:
        /* A cell used as a value (as torch.compile's Dynamo passes cells to
         * the functions it makes): a lambda reading the variable closes
         * over that very cell. */
        if (e->cell)
            puts_(p, "(lambda: ");
        puts_(p, e->u.name ? e->u.name : "_");
        if (e->cell)
            puts_(p, ").__closure__[0]");
        break;
    case UPY_E_ATTR: {
        const upy_expr *v = e->u.attr.value;
        /* `1.real` would read as the float `1.`. */
        int int_value = v && v->kind == UPY_E_CONST && v->u.constant &&
                        v->u.constant->kind == UPY_INT &&
                        expr_prec(p, v) == P_ATOM;
        if (int_value)
            putc_(p, '(');
        print_expr(p, v, P_ATOM);
        if (int_value)
            putc_(p, ')');
        putc_(p, '.');
        puts_(p, e->u.attr.attr ? e->u.attr.attr : "_");
        break;
    }
    case UPY_E_SUBSCRIPT:
        print_expr(p, e->u.subscript.value, P_ATOM);
        putc_(p, '[');
        print_index(p, e->u.subscript.index);
        putc_(p, ']');
        break;
    case UPY_E_SLICE:
        if (e->u.slice.lower)
            print_expr(p, e->u.slice.lower, P_TEST);
        putc_(p, ':');
        if (e->u.slice.upper)
            print_expr(p, e->u.slice.upper, P_TEST);
        if (e->u.slice.step) {
            putc_(p, ':');
            print_expr(p, e->u.slice.step, P_TEST);
        }
        break;
    case UPY_E_CALL:
        print_call(p, e);
        break;
    case UPY_E_BINOP: {
        unsigned op = binop_index(e->u.binop.op);
        int strength = binop_strength[op];
        if (e->u.binop.op == UPY_BIN_POW) {
            /* Right-associative, and its left operand binds tighter than
             * a unary minus: (-1) ** 2, (a ** b) ** c, a ** -b. */
            print_expr(p, e->u.binop.left, P_AWAIT);
            puts_(p, " ** ");
            print_expr(p, e->u.binop.right, P_FACTOR);
        } else if (at_least(p, 11) && percent_format_folds(e)) {
            print_joined(p, (const upy_expr *const *)&e->u.binop.left, 1);
            puts_(p, " % ");
            print_expr(p, e->u.binop.right, strength + 1);
        } else {
            print_expr(p, e->u.binop.left, strength);
            putc_(p, ' ');
            puts_(p, binop_text[op]);
            putc_(p, ' ');
            print_expr(p, e->u.binop.right, strength + 1);
        }
        break;
    }
    case UPY_E_UNARYOP:
        switch (e->u.unary.op) {
        case UPY_UOP_NOT:
            puts_(p, "not ");
            print_expr(p, e->u.unary.operand, P_NOT);
            break;
        default:
            putc_(p, e->u.unary.op == UPY_UOP_POS      ? '+'
                     : e->u.unary.op == UPY_UOP_INVERT ? '~'
                                                       : '-');
            print_expr(p, e->u.unary.operand, P_FACTOR);
            break;
        }
        break;
    case UPY_E_BOOLOP: {
        const upy_expr_list *values = &e->u.boolop.values;
        uint32_t i;
        if (values->len <= 1) {
            print_expr(p, values->len ? values->items[0] : NULL, P_NAMED);
            break;
        }
        /* Operands one step tighter: a nested and/or keeps its
         * parentheses, so the tree keeps its shape. */
        for (i = 0; i < values->len && !stopped(p); i++) {
            if (i)
                puts_(p, e->u.boolop.is_and ? " and " : " or ");
            print_expr(p, values->items[i], e->u.boolop.is_and ? P_NOT : P_AND);
        }
        break;
    }
    case UPY_E_COMPARE: {
        uint32_t i;
        /* Operands tighter than a comparison: a nested one would chain. */
        print_expr(p, e->u.compare.left, P_BOR);
        for (i = 0; i < e->u.compare.n && !stopped(p); i++) {
            unsigned op = (unsigned)e->u.compare.ops[i];
            putc_(p, ' ');
            puts_(p, cmpop_text[op < 10 ? op : 0]);
            putc_(p, ' ');
            print_expr(p, e->u.compare.comparators[i], P_BOR);
        }
        break;
    }
    case UPY_E_IFEXP:
        print_expr(p, e->u.ifexp.body, P_OR);
        puts_(p, " if ");
        print_expr(p, e->u.ifexp.test, P_OR);
        puts_(p, " else ");
        print_expr(p, e->u.ifexp.orelse, P_TEST);
        break;
    case UPY_E_LAMBDA:
        puts_(p, "lambda");
        if (has_arguments(e->u.lambda.args)) {
            putc_(p, ' ');
            print_arguments(p, e->u.lambda.args, 0);
        }
        puts_(p, ": ");
        print_expr(p, e->u.lambda.body, P_TEST);
        break;
    case UPY_E_TUPLE:
        putc_(p, '(');
        print_tuple_items(p, e);
        putc_(p, ')');
        break;
    case UPY_E_LIST:
        putc_(p, '[');
        print_expr_list(p, &e->u.elts, P_TEST);
        putc_(p, ']');
        break;
    case UPY_E_SET:
        /* No display makes an empty set; this one at least parses. */
        if (e->u.elts.len == 0) {
            puts_(p, "{*()}");
            break;
        }
        putc_(p, '{');
        print_expr_list(p, &e->u.elts, P_TEST);
        putc_(p, '}');
        break;
    case UPY_E_DICT: {
        uint32_t i;
        putc_(p, '{');
        for (i = 0; i < e->u.dict.n && !stopped(p); i++) {
            if (i)
                puts_(p, ", ");
            if (e->u.dict.keys && e->u.dict.keys[i]) {
                print_expr(p, e->u.dict.keys[i], P_TEST);
                puts_(p, ": ");
                print_expr(p, e->u.dict.values[i], P_TEST);
            } else {
                puts_(p, "**");
                print_expr(p, e->u.dict.values[i], P_BOR);
            }
        }
        putc_(p, '}');
        break;
    }
    case UPY_E_LISTCOMP:
        putc_(p, '[');
        print_comp_body(p, e);
        putc_(p, ']');
        break;
    case UPY_E_SETCOMP:
    case UPY_E_DICTCOMP:
        putc_(p, '{');
        print_comp_body(p, e);
        putc_(p, '}');
        break;
    case UPY_E_GENEXP:
        putc_(p, '(');
        print_comp_body(p, e);
        putc_(p, ')');
        break;
    case UPY_E_STARRED:
        putc_(p, '*');
        print_expr(p, e->u.operand, P_BOR);
        break;
    case UPY_E_AWAIT:
        puts_(p, "await ");
        print_expr(p, e->u.operand, P_ATOM);
        break;
    case UPY_E_YIELD:
        puts_(p, "yield");
        if (e->u.operand) {
            putc_(p, ' ');
            print_bare(p, e->u.operand, 1, P_TEST);
        }
        break;
    case UPY_E_YIELD_FROM:
        puts_(p, "yield from ");
        print_expr(p, e->u.operand, P_TEST);
        break;
    case UPY_E_JOINEDSTR:
        print_joined(p, (const upy_expr *const *)e->u.joined.items,
                     e->u.joined.len);
        break;
    case UPY_E_FORMATTED:
        /* Only inside a JOINEDSTR; alone it is an f-string of one field. */
        print_joined(p, &e, 1);
        break;
    case UPY_E_SOURCE:
        puts_(p, e->u.name);
        break;
    case UPY_E_TYPEPARAM:
        puts_(p, e->u.type_param.kind == UPY_TP_TYPEVARTUPLE ? "*"
                 : e->u.type_param.kind == UPY_TP_PARAMSPEC  ? "**"
                                                             : "");
        puts_(p, e->u.type_param.name);
        if (e->u.type_param.bound) {
            puts_(p, ": ");
            print_expr(p, e->u.type_param.bound, P_TEST);
        }
        if (e->u.type_param.default_) {
            puts_(p, " = ");
            print_expr(p, e->u.type_param.default_, P_TEST);
        }
        break;
    case UPY_E_NAMEDEXPR:
        /* Always in parentheses: valid in every position. */
        putc_(p, '(');
        print_expr(p, e->u.named.target, P_ATOM);
        puts_(p, " := ");
        print_expr(p, e->u.named.value, P_TEST);
        putc_(p, ')');
        break;
    default:
        puts_(p, "...");
        break;
    }
}

/* An expression in a position that asks for strength min. */
static void print_expr(printer *p, const upy_expr *e, int min) {
    int paren, own_line;

    if (stopped(p))
        return;
    if (!e) {
        /* The producer leaves no holes; this keeps the text parseable. */
        puts_(p, "...");
        return;
    }
    if (p->depth >= UPY_PRINT_MAX_DEPTH) {
        p->issues |= UPY_PRINT_TOO_DEEP;
        return;
    }
    /* A line of its own, in parentheses (not inside an f-string's field
     * before 3.12, where no newline may be). */
    own_line = e->own_line && (p->fdepth == 0 || at_least(p, 12));
    paren = own_line || expr_prec(p, e) < min;
    if (paren)
        putc_(p, '(');
    if (own_line) {
        putc_(p, '\n');
        indent(p, p->level + 1);
    }
    p->depth++;
    print_expr_inner(p, e);
    p->depth--;
    if (paren)
        putc_(p, ')');
}

/* ---- match patterns ----------------------------------------------------- */

/* Pattern strength: as-patterns loosest, then or-patterns, then closed
 * patterns (which an alternative of | must be). */
enum { PP_AS, PP_OR, PP_CLOSED };

static void print_pattern(printer *p, const upy_pattern *pat, int min);

static void print_patterns(printer *p, const upy_pattern_list *list, int any) {
    uint32_t i;

    for (i = 0; i < list->len && !stopped(p); i++) {
        if (any || i)
            puts_(p, ", ");
        print_pattern(p, list->items[i], PP_AS);
    }
}

/* A literal or dotted value inside a pattern: only `re + imj` complex
 * shapes parse there. */
static void print_pattern_value(printer *p, const upy_expr *e) {
    const upy_object *o = e && e->kind == UPY_E_CONST ? e->u.constant : NULL;

    if (o && o->kind == UPY_COMPLEX)
        put_complex_pattern(p, o->u.complex.real, o->u.complex.imag);
    else
        print_expr(p, e, P_FACTOR);
}

static void print_pattern(printer *p, const upy_pattern *pat, int min) {
    uint32_t i;
    int strength, paren;

    if (stopped(p))
        return;
    if (!pat) {
        putc_(p, '_');
        return;
    }
    /* `p as _` is not a pattern: an as-pattern without a name is its
     * pattern. */
    if (pat->kind == UPY_P_AS && pat->u.as.pattern && !pat->u.as.name) {
        print_pattern(p, pat->u.as.pattern, min);
        return;
    }
    strength = pat->kind == UPY_P_OR                        ? PP_OR
               : pat->kind == UPY_P_AS && pat->u.as.pattern ? PP_AS
                                                            : PP_CLOSED;
    paren = strength < min;
    if (paren)
        putc_(p, '(');
    switch (pat->kind) {
    case UPY_P_VALUE:
        print_pattern_value(p, pat->u.value);
        break;
    case UPY_P_SINGLETON:
        print_object(p, pat->u.constant, P_ATOM);
        break;
    case UPY_P_SEQUENCE:
        putc_(p, '[');
        print_patterns(p, &pat->u.seq, 0);
        putc_(p, ']');
        break;
    case UPY_P_MAPPING:
        putc_(p, '{');
        for (i = 0; i < pat->u.mapping.keys.len && !stopped(p); i++) {
            if (i)
                puts_(p, ", ");
            print_pattern_value(p, pat->u.mapping.keys.items[i]);
            puts_(p, ": ");
            print_pattern(p,
                          i < pat->u.mapping.patterns.len
                              ? pat->u.mapping.patterns.items[i]
                              : NULL,
                          PP_AS);
        }
        if (pat->u.mapping.rest) {
            if (pat->u.mapping.keys.len)
                puts_(p, ", ");
            puts_(p, "**");
            puts_(p, pat->u.mapping.rest);
        }
        putc_(p, '}');
        break;
    case UPY_P_CLASS:
        print_expr(p, pat->u.cls.cls, P_ATOM);
        putc_(p, '(');
        print_patterns(p, &pat->u.cls.patterns, 0);
        for (i = 0; i < pat->u.cls.kwd_patterns.len && !stopped(p); i++) {
            if (pat->u.cls.patterns.len || i)
                puts_(p, ", ");
            puts_(p, pat->u.cls.kwd_attrs && pat->u.cls.kwd_attrs[i]
                         ? pat->u.cls.kwd_attrs[i]
                         : "_");
            putc_(p, '=');
            print_pattern(p, pat->u.cls.kwd_patterns.items[i], PP_AS);
        }
        putc_(p, ')');
        break;
    case UPY_P_STAR:
        putc_(p, '*');
        puts_(p, pat->u.name ? pat->u.name : "_");
        break;
    case UPY_P_AS:
        if (pat->u.as.pattern) {
            print_pattern(p, pat->u.as.pattern, PP_OR);
            puts_(p, " as ");
            puts_(p, pat->u.as.name);
        } else {
            puts_(p, pat->u.as.name ? pat->u.as.name : "_");
        }
        break;
    case UPY_P_OR:
        for (i = 0; i < pat->u.seq.len && !stopped(p); i++) {
            if (i)
                puts_(p, " | ");
            print_pattern(p, pat->u.seq.items[i], PP_CLOSED);
        }
        break;
    default:
        putc_(p, '_');
        break;
    }
    if (paren)
        putc_(p, ')');
}

/* ---- statements --------------------------------------------------------- */

static void print_stmts(printer *p, const upy_stmt_list *body, int level);

static int is_definition(const upy_stmt *s) {
    return s && (s->kind == UPY_S_FUNCTIONDEF || s->kind == UPY_S_CLASSDEF);
}

/* A str constant as a statement: the compiler keeps one only as the first
 * statement of a body, the docstring. */
static int is_docstring(const upy_stmt *s) {
    return s->kind == UPY_S_EXPR && s->u.expr->kind == UPY_E_CONST &&
           s->u.expr->u.constant && s->u.expr->u.constant->kind == UPY_STR;
}

/* The end of a line of source: a comment first where the line printed a
 * code object as `...` (UPY_PRINT_CODE_VALUE). */
static void end_line(printer *p) {
    if (p->code_value_unnoted) {
        puts_(p, "  # unpyc: a code object used as a value prints as ...");
        p->code_value_unnoted = 0;
    }
    putc_(p, '\n');
}

/* The statements of a suite one level in, or `pass` where nothing but
 * comments would be there. */
static void print_suite(printer *p, const upy_stmt_list *body, int level) {
    uint32_t i;
    int real = 0;

    for (i = 0; i < body->len; i++)
        real |= body->items[i] && body->items[i]->kind != UPY_S_UNRECOVERED;
    print_stmts(p, body, level + 1);
    if (!real) {
        indent(p, level + 1);
        puts_(p, "pass\n");
    }
}

/* A body printed ahead (UPY_S_PRINTED) under a def or class at level:
 * its text with that level's indentation at each mark. */
static void splice_printed(printer *p, const upy_stmt *s, int level) {
    size_t at = 0;
    uint32_t k;

    for (k = 0; k < s->u.printed.n_marks && !p->sb->failed; k++) {
        upy_sb_append(p->sb, s->u.printed.text + at,
                      s->u.printed.marks[k] - at);
        at = s->u.printed.marks[k];
        indent(p, level);
    }
    upy_sb_append(p->sb, s->u.printed.text + at, s->u.printed.len - at);
    p->issues |= s->u.printed.issues;
    if (s->u.printed.failed && !p->sb->failed)
        p->sb->failed = s->u.printed.failed;
}

/* A suite after a line ending in ':'. */
static void print_block(printer *p, const upy_stmt_list *body, int level) {
    putc_(p, ':');
    end_line(p);
    if (body->len == 1 && body->items[0] &&
        body->items[0]->kind == UPY_S_PRINTED)
        splice_printed(p, body->items[0], level);
    else
        print_suite(p, body, level);
}

/* Each line of an unrecovered region's text as a comment.  A CR would end
 * the comment for the tokenizer and other control characters are not
 * source text, so they are replaced. */
static void print_comment(printer *p, const char *text, int level) {
    const char *s = text ? text : "";

    do {
        size_t n = strcspn(s, "\n\r"), i;

        indent(p, level);
        putc_(p, '#');
        if (n)
            putc_(p, ' ');
        for (i = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            putc_(p, (c < 0x20 && c != '\t') || c == 0x7F ? '?' : (char)c);
        }
        putc_(p, '\n');
        s += n;
        if (*s == '\r' && s[1] == '\n')
            s++;
        if (*s)
            s++;
    } while (*s && !p->sb->failed);
}

static void print_decorators(printer *p, const upy_expr_list *decorators,
                             int level) {
    uint32_t i;

    for (i = 0; i < decorators->len && !stopped(p); i++) {
        indent(p, level);
        putc_(p, '@');
        print_expr(p, decorators->items[i], P_TEST);
        end_line(p);
    }
}

/* 3.12+: `[T, *Ts, **P]` after the name of a generic def, class or type
 * alias. */
static void print_type_params(printer *p, const upy_expr_list *params) {
    if (!params->len)
        return;
    putc_(p, '[');
    print_expr_list(p, params, P_TEST);
    putc_(p, ']');
}

static void print_funcdef(printer *p, const upy_stmt *s, int level) {
    print_decorators(p, &s->u.funcdef.decorators, level);
    indent(p, level);
    puts_(p, s->u.funcdef.is_async ? "async def " : "def ");
    puts_(p, s->u.funcdef.name ? s->u.funcdef.name : "_");
    print_type_params(p, &s->u.funcdef.type_params);
    putc_(p, '(');
    print_arguments(p, s->u.funcdef.args, 1);
    putc_(p, ')');
    if (s->u.funcdef.returns) {
        puts_(p, " -> ");
        print_expr(p, s->u.funcdef.returns, P_TEST);
    }
    print_block(p, &s->u.funcdef.body, level);
}

static void print_classdef(printer *p, const upy_stmt *s, int level) {
    print_decorators(p, &s->u.classdef.decorators, level);
    indent(p, level);
    puts_(p, "class ");
    puts_(p, s->u.classdef.name ? s->u.classdef.name : "_");
    print_type_params(p, &s->u.classdef.type_params);
    if (s->u.classdef.bases.len || s->u.classdef.n_keywords) {
        putc_(p, '(');
        print_expr_list(p, &s->u.classdef.bases, P_TEST);
        print_keywords(p, s->u.classdef.keywords, s->u.classdef.n_keywords,
                       s->u.classdef.bases.len > 0);
        putc_(p, ')');
    }
    print_block(p, &s->u.classdef.body, level);
}

static void print_if(printer *p, const upy_stmt *s, int level) {
    indent(p, level);
    puts_(p, "if ");
    for (;;) {
        const upy_stmt_list *orelse = &s->u.if_.orelse;

        print_expr(p, s->u.if_.test, P_TEST);
        print_block(p, &s->u.if_.body, level);
        if (orelse->len == 1 && orelse->items[0] &&
            orelse->items[0]->kind == UPY_S_IF && !stopped(p)) {
            s = orelse->items[0];
            indent(p, level);
            puts_(p, "elif ");
            continue;
        }
        if (orelse->len) {
            indent(p, level);
            puts_(p, "else");
            print_block(p, orelse, level);
        }
        break;
    }
}

static void print_try(printer *p, const upy_stmt *s, int level) {
    uint32_t i;

    indent(p, level);
    puts_(p, "try");
    print_block(p, &s->u.try_.body, level);
    for (i = 0; i < s->u.try_.n_handlers && !stopped(p); i++) {
        const upy_handler *h = &s->u.try_.handlers[i];
        indent(p, level);
        puts_(p, s->u.try_.is_star ? "except*" : "except");
        if (h->type) {
            putc_(p, ' ');
            print_expr(p, h->type, P_TEST);
            if (h->name) {
                puts_(p, " as ");
                puts_(p, h->name);
            }
        }
        print_block(p, &h->body, level);
    }
    if (s->u.try_.orelse.len) {
        indent(p, level);
        puts_(p, "else");
        print_block(p, &s->u.try_.orelse, level);
    }
    /* A try needs a handler or a finally to parse. */
    if (s->u.try_.finalbody.len || s->u.try_.n_handlers == 0) {
        indent(p, level);
        puts_(p, "finally");
        print_block(p, &s->u.try_.finalbody, level);
    }
}

static void print_with(printer *p, const upy_stmt *s, int level) {
    uint32_t i;

    indent(p, level);
    puts_(p, s->u.with.is_async ? "async with " : "with ");
    for (i = 0; i < s->u.with.n_items && !stopped(p); i++) {
        const upy_withitem *item = &s->u.with.items[i];
        /* From 3.9 `with (a, b):` means two context managers; a tuple as
         * the only one needs a second pair of parentheses. */
        int doubled = s->u.with.n_items == 1 && !item->vars &&
                      tuple_len(item->context) >= 0 && at_least(p, 9);
        if (i)
            puts_(p, ", ");
        if (doubled)
            putc_(p, '(');
        print_expr(p, item->context, P_TEST);
        if (doubled)
            putc_(p, ')');
        if (item->vars) {
            puts_(p, " as ");
            print_expr(p, item->vars, P_TEST);
        }
    }
    print_block(p, &s->u.with.body, level);
}

static void print_match(printer *p, const upy_stmt *s, int level) {
    uint32_t i;

    indent(p, level);
    puts_(p, "match ");
    print_bare(p, s->u.match.subject, 1, P_TEST);
    putc_(p, ':');
    end_line(p);
    for (i = 0; i < s->u.match.n_cases && !stopped(p); i++) {
        const upy_match_case *c = &s->u.match.cases[i];
        indent(p, level + 1);
        puts_(p, "case ");
        print_pattern(p, c->pattern, PP_AS);
        if (c->guard) {
            puts_(p, " if ");
            print_expr(p, c->guard, P_TEST);
        }
        print_block(p, &c->body, level + 1);
    }
}

#define DOT_RUN 64
static const char dot_run[DOT_RUN + 1] =
    "................................................................";

static void print_import(printer *p, const upy_stmt *s) {
    uint32_t i;

    if (s->kind == UPY_S_IMPORT_FROM) {
        int dots;
        puts_(p, "from ");
        /* (In runs: crafted code may give a level of millions, which
         * fails the text at its size limit.) */
        for (dots = s->u.import.level; dots > 0 && !p->sb->failed;
             dots -= DOT_RUN)
            upy_sb_append(p->sb, dot_run,
                          dots < DOT_RUN ? (size_t)dots : DOT_RUN);
        if (s->u.import.module)
            puts_(p, s->u.import.module);
        puts_(p, " import ");
    } else {
        puts_(p, "import ");
    }
    for (i = 0; i < s->u.import.n && !stopped(p); i++) {
        if (i)
            puts_(p, ", ");
        puts_(p, s->u.import.names[i].name ? s->u.import.names[i].name : "_");
        if (s->u.import.names[i].asname) {
            puts_(p, " as ");
            puts_(p, s->u.import.names[i].asname);
        }
    }
}

static void print_names(printer *p, const char *keyword, const upy_stmt *s) {
    uint32_t i;

    puts_(p, keyword);
    for (i = 0; i < s->u.names.n && !stopped(p); i++) {
        puts_(p, i ? ", " : " ");
        puts_(p, s->u.names.names[i] ? s->u.names.names[i] : "_");
    }
}

/* Statements that fit on one line, after the indent, before the newline. */
static void print_simple(printer *p, const upy_stmt *s) {
    uint32_t i;

    switch (s->kind) {
    case UPY_S_EXPR:
        print_bare(p, s->u.expr, 1, P_YIELD);
        break;
    case UPY_S_TYPEALIAS:
        puts_(p, "type ");
        puts_(p, s->u.typealias.name);
        print_type_params(p, &s->u.typealias.type_params);
        puts_(p, " = ");
        print_expr(p, s->u.typealias.value, P_TEST);
        break;
    case UPY_S_ASSIGN:
        for (i = 0; i < s->u.assign.targets.len && !stopped(p); i++) {
            print_bare(p, s->u.assign.targets.items[i], 1, P_TEST);
            puts_(p, " = ");
        }
        print_bare(p, s->u.assign.value, 1, P_YIELD);
        break;
    case UPY_S_AUGASSIGN:
        print_expr(p, s->u.augassign.target, P_TEST);
        putc_(p, ' ');
        puts_(p, binop_text[binop_index(s->u.augassign.op)]);
        puts_(p, "= ");
        print_bare(p, s->u.augassign.value, at_least(p, 9), P_YIELD);
        break;
    case UPY_S_ANNASSIGN: {
        const upy_expr *t = s->u.annassign.target;
        int paren = !s->u.annassign.simple && t && t->kind == UPY_E_NAME;
        if (paren)
            putc_(p, '(');
        print_expr(p, t, P_TEST);
        if (paren)
            putc_(p, ')');
        puts_(p, ": ");
        print_expr(p, s->u.annassign.annotation, P_TEST);
        if (s->u.annassign.value) {
            puts_(p, " = ");
            print_bare(p, s->u.annassign.value, 1, P_YIELD);
        }
        break;
    }
    case UPY_S_DELETE:
        puts_(p, "del ");
        print_expr_list(p, &s->u.targets, P_TEST);
        break;
    case UPY_S_PASS:
        puts_(p, "pass");
        break;
    case UPY_S_BREAK:
        puts_(p, "break");
        break;
    case UPY_S_CONTINUE:
        puts_(p, "continue");
        break;
    case UPY_S_RETURN:
        puts_(p, "return");
        if (s->u.value) {
            putc_(p, ' ');
            print_bare(p, s->u.value, 1, P_TEST);
        }
        break;
    case UPY_S_RAISE:
        puts_(p, "raise");
        if (s->u.raise.exc) {
            putc_(p, ' ');
            print_expr(p, s->u.raise.exc, P_TEST);
            if (s->u.raise.cause) {
                puts_(p, " from ");
                print_expr(p, s->u.raise.cause, P_TEST);
            }
        }
        break;
    case UPY_S_GLOBAL:
        print_names(p, "global", s);
        break;
    case UPY_S_NONLOCAL:
        print_names(p, "nonlocal", s);
        break;
    case UPY_S_IMPORT:
    case UPY_S_IMPORT_FROM:
        print_import(p, s);
        break;
    case UPY_S_ASSERT:
        puts_(p, "assert ");
        print_expr(p, s->u.assert_.test, P_TEST);
        if (s->u.assert_.msg) {
            puts_(p, ", ");
            print_expr(p, s->u.assert_.msg, P_TEST);
        }
        break;
    default:
        puts_(p, "pass");
        break;
    }
}

static void print_stmt(printer *p, const upy_stmt *s, int level) {
    p->level = level;
    switch (s->kind) {
    case UPY_S_IF:
        print_if(p, s, level);
        break;
    case UPY_S_WHILE:
        indent(p, level);
        puts_(p, "while ");
        print_expr(p, s->u.while_.test, P_TEST);
        print_block(p, &s->u.while_.body, level);
        if (s->u.while_.orelse.len) {
            indent(p, level);
            puts_(p, "else");
            print_block(p, &s->u.while_.orelse, level);
        }
        break;
    case UPY_S_FOR:
        indent(p, level);
        puts_(p, s->u.for_.is_async ? "async for " : "for ");
        print_bare(p, s->u.for_.target, 1, P_TEST);
        puts_(p, " in ");
        print_bare(p, s->u.for_.iter, at_least(p, 9), P_TEST);
        print_block(p, &s->u.for_.body, level);
        if (s->u.for_.orelse.len) {
            indent(p, level);
            puts_(p, "else");
            print_block(p, &s->u.for_.orelse, level);
        }
        break;
    case UPY_S_WITH:
        print_with(p, s, level);
        break;
    case UPY_S_TRY:
        print_try(p, s, level);
        break;
    case UPY_S_FUNCTIONDEF:
        print_funcdef(p, s, level);
        break;
    case UPY_S_CLASSDEF:
        print_classdef(p, s, level);
        break;
    case UPY_S_MATCH:
        print_match(p, s, level);
        break;
    case UPY_S_UNRECOVERED:
        print_comment(p, s->u.unrecovered.text, level);
        break;
    default:
        indent(p, level);
        print_simple(p, s);
        end_line(p);
        break;
    }
}

/* A statement list at one level.  PEP 8: def and class get two blank
 * lines around them at the top level, one inside a body. */
static void print_stmts(printer *p, const upy_stmt_list *body, int level) {
    uint32_t i;
    const upy_stmt *prev = NULL;

    for (i = 0; i < body->len && !stopped(p); i++) {
        const upy_stmt *s = body->items[i];
        if (!s)
            continue;
        if (prev && (is_definition(prev) || is_definition(s)))
            puts_(p, level == 0 ? "\n\n" : "\n");
        if (i == 0 && is_docstring(s)) {
            indent(p, level);
            put_docstring(p, s->u.expr->u.constant, level);
            putc_(p, '\n');
        } else {
            print_stmt(p, s, level);
        }
        prev = s;
    }
}

/* ---- entry points ------------------------------------------------------- */

static void printer_init(printer *p, upy_strbuf *sb, upy_version version) {
    memset(p, 0, sizeof *p);
    p->sb = sb;
    p->version = version;
    p->nan_negative = host_nan_negative();
}

unsigned upy_print_module_ex(upy_strbuf *sb, const upy_stmt_list *body,
                             upy_version version) {
    printer p;

    printer_init(&p, sb, version);
    if (body)
        print_stmts(&p, body, 0);
    return p.issues;
}

upy_stmt *upy_print_body(const upy_stmt_list *body, upy_version version,
                         upy_strbuf *sb, upy_arena *arena) {
    upy_arena work;
    mark_list marks = {0};
    printer p;
    upy_stmt *s = upy_stmt_new(arena, UPY_S_PRINTED);
    uint32_t *kept = NULL;
    char *text = NULL;

    /* The marks grow in an arena of their own, so that only their final
     * copy stays in arena. */
    upy_arena_init_scratch(&work, arena);
    marks.arena = &work;
    upy_sb_clear(sb);
    printer_init(&p, sb, version);
    p.marks = &marks;
    print_suite(&p, body, 0);
    if (s && !sb->failed) {
        text = upy_arena_array_uncleared(arena, sb->len + 1, 1);
        kept = upy_arena_array_uncleared(arena, marks.len, sizeof *kept);
    }
    if (text && kept) {
        if (sb->len)
            memcpy(text, sb->data, sb->len);
        text[sb->len] = '\0';
        if (marks.len)
            memcpy(kept, marks.items, marks.len * sizeof *kept);
        s->u.printed.text = text;
        s->u.printed.len = sb->len;
        s->u.printed.marks = kept;
        s->u.printed.n_marks = marks.len;
    } else if (s) {
        s->u.printed.text = "";
        s->u.printed.failed = sb->failed ? sb->failed : 1;
    }
    if (s)
        s->u.printed.issues = p.issues;
    upy_arena_release(&work);
    return s;
}

void upy_print_module(upy_strbuf *sb, const upy_stmt_list *body,
                      upy_version version) {
    (void)upy_print_module_ex(sb, body, version);
}

void upy_print_expr(upy_strbuf *sb, const upy_expr *e, upy_version version) {
    printer p;

    printer_init(&p, sb, version);
    print_expr(&p, e, P_TEST);
}
