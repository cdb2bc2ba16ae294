/*
 * marshal.c - reading CPython's marshal format; see marshal.h.
 *
 * The reader mirrors r_object() of CPython's Python/marshal.c, with the same
 * reference numbering (a FLAG_REF object takes the next index when its type
 * byte is read, before its children), but it trusts nothing: every size is
 * checked against the bytes that remain, every field of a code object is
 * checked for the type CPython's code constructor would demand, and a
 * reference may only name an object that is complete (CPython would hand
 * out a half-built tuple; we refuse, so the object graph stays acyclic).
 */
#include "read/marshal.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* Type codes, from Python/marshal.c.  TYPE_SLICE is 3.14's. */
enum {
    TYPE_NULL = '0',
    TYPE_NONE = 'N',
    TYPE_FALSE = 'F',
    TYPE_TRUE = 'T',
    TYPE_STOPITER = 'S',
    TYPE_ELLIPSIS = '.',
    TYPE_INT = 'i',
    TYPE_FLOAT = 'f',
    TYPE_BINARY_FLOAT = 'g',
    TYPE_COMPLEX = 'x',
    TYPE_BINARY_COMPLEX = 'y',
    TYPE_LONG = 'l',
    TYPE_STRING = 's',
    TYPE_INTERNED = 't',
    TYPE_REF = 'r',
    TYPE_TUPLE = '(',
    TYPE_LIST = '[',
    TYPE_DICT = '{',
    TYPE_CODE = 'c',
    TYPE_UNICODE = 'u',
    TYPE_UNKNOWN = '?',
    TYPE_SET = '<',
    TYPE_FROZENSET = '>',
    TYPE_ASCII = 'a',
    TYPE_ASCII_INTERNED = 'A',
    TYPE_SMALL_TUPLE = ')',
    TYPE_SHORT_ASCII = 'z',
    TYPE_SHORT_ASCII_INTERNED = 'Z',
    TYPE_SLICE = ':',
};

#define FLAG_REF 0x80

/* marshal's longs are stored in 15-bit digits. */
#define LONG_DIGIT_BITS 15

typedef struct reader {
    const uint8_t *data;
    size_t len;
    size_t pos;
    size_t base; /* added to positions in messages */
    upy_version version;
    upy_arena *arena;
    unpyc_error *err;
    /* refs[i] is the object of reference index i, NULL while it is still
     * being read. */
    upy_object **refs;
    size_t nrefs;
    size_t refs_cap;
    int depth;
} reader;

static unpyc_status fail_alloc(reader *r) {
    if (r->arena->over_limit)
        return upy_fail(r->err, UNPYC_E_TOO_LARGE,
                        (long long)(r->base + r->pos),
                        "marshal data at offset %zu needs more memory than "
                        "the engine allows for an input of %zu bytes",
                        r->base + r->pos, r->len);
    return upy_fail(r->err, UNPYC_E_NOMEM, (long long)(r->base + r->pos),
                    "out of memory");
}

/* Fails with UNPYC_E_TRUNCATED unless n more bytes remain. */
static unpyc_status need(reader *r, size_t n, const char *what) {
    if (n <= r->len - r->pos)
        return UNPYC_OK;
    return upy_fail(r->err, UNPYC_E_TRUNCATED, (long long)(r->base + r->len),
                    "marshal data ends at offset %zu, inside %s at offset "
                    "%zu (%zu bytes needed, %zu left)",
                    r->base + r->len, what, r->base + r->pos, n,
                    r->len - r->pos);
}

static unpyc_status read_u8(reader *r, uint8_t *value, const char *what) {
    unpyc_status st = need(r, 1, what);
    if (st == UNPYC_OK)
        *value = r->data[r->pos++];
    return st;
}

static unpyc_status read_i32(reader *r, int32_t *value, const char *what) {
    unpyc_status st = need(r, 4, what);
    const uint8_t *p = r->data + r->pos;
    if (st != UNPYC_OK)
        return st;
    *value = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
                       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    r->pos += 4;
    return UNPYC_OK;
}

static unpyc_status read_double(reader *r, double *value, const char *what) {
    uint64_t bits = 0;
    int i;
    unpyc_status st = need(r, 8, what);
    if (st != UNPYC_OK)
        return st;
    for (i = 7; i >= 0; i--)
        bits = bits << 8 | r->data[r->pos + (size_t)i];
    memcpy(value, &bits, sizeof *value);
    r->pos += 8;
    return UNPYC_OK;
}

/* A size field of a container or string: negative is corrupt; more
 * elements than bytes left (each takes at least min_bytes) is truncation,
 * caught here before anything is allocated for it. */
static unpyc_status read_size(reader *r, size_t *size, size_t min_bytes,
                              const char *what) {
    size_t at = r->pos;
    int32_t n;
    unpyc_status st = read_i32(r, &n, what);
    if (st != UNPYC_OK)
        return st;
    if (n < 0)
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "negative size %ld of %s at offset %zu", (long)n, what,
                        r->base + at);
    *size = (size_t)n;
    if (min_bytes && *size > (r->len - r->pos) / min_bytes)
        return upy_fail(r->err, UNPYC_E_TRUNCATED,
                        (long long)(r->base + r->len),
                        "marshal data ends at offset %zu, before the %zu "
                        "items of %s at offset %zu",
                        r->base + r->len, *size, what, r->base + at);
    return UNPYC_OK;
}

/* The index of the first byte of s[0, n) at or over 0x80, or n: eight
 * bytes a step (a str of a .pyc is ASCII in all but a few, and checking
 * its names byte by byte was a hundredth of a small function's cost). */
static size_t first_non_ascii(const uint8_t *s, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, s + i, 8);
        if (word & UINT64_C(0x8080808080808080))
            break;
    }
    while (i < n && s[i] < 0x80)
        i++;
    return i;
}

/* Validates UTF-8 as CPython's "surrogatepass" decoder accepts it: strict
 * UTF-8, except that encoded surrogates (ED A0..BF xx) are allowed.
 * Returns the index of the first bad byte, or n when all is well. */
static size_t utf8_check(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len, k;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i += first_non_ascii(s + i, n - i);
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4;
        else
            return i;
        if (c == 0xE0)
            lo = 0xA0; /* no overlong 3-byte forms */
        else if (c == 0xF0)
            lo = 0x90; /* no overlong 4-byte forms */
        else if (c == 0xF4)
            hi = 0x8F; /* nothing past U+10FFFF */
        if (len > n - i)
            return i;
        for (k = 1; k < len; k++) {
            uint8_t lo_k = k == 1 ? lo : 0x80, hi_k = k == 1 ? hi : 0xBF;
            if (s[i + k] < lo_k || s[i + k] > hi_k)
                return i;
        }
        i += len;
    }
    return n;
}

static unpyc_status read_object(reader *r, upy_object **result, int allow_null);

/* TYPE_STRING (bytes) and every str form: TYPE_UNICODE and TYPE_INTERNED
 * hold UTF-8, the ASCII forms ASCII. */
static unpyc_status read_text(reader *r, uint8_t type, upy_object **result) {
    size_t at = r->pos - 1, n = 0, bad;
    upy_kind kind = type == TYPE_STRING ? UPY_BYTES : UPY_STR;
    const char *what = type == TYPE_STRING ? "a bytes object" : "a string";
    upy_object *o;
    unpyc_status st;

    if (type == TYPE_SHORT_ASCII || type == TYPE_SHORT_ASCII_INTERNED) {
        uint8_t n8;
        st = read_u8(r, &n8, what);
        n = n8;
    } else {
        st = read_size(r, &n, 0, what);
    }
    if (st == UNPYC_OK)
        st = need(r, n, what);
    if (st != UNPYC_OK)
        return st;

    if (type == TYPE_UNICODE || type == TYPE_INTERNED) {
        bad = utf8_check(r->data + r->pos, n);
        if (bad != n)
            return upy_fail(r->err, UNPYC_E_CORRUPT,
                            (long long)(r->base + r->pos + bad),
                            "invalid UTF-8 at offset %zu in the string at "
                            "offset %zu",
                            r->base + r->pos + bad, r->base + at);
    } else if (kind == UPY_STR) {
        bad = first_non_ascii(r->data + r->pos, n);
        if (bad != n)
            return upy_fail(r->err, UNPYC_E_CORRUPT,
                            (long long)(r->base + r->pos + bad),
                            "non-ASCII byte at offset %zu in the ASCII "
                            "string at offset %zu",
                            r->base + r->pos + bad, r->base + at);
    }
    /* A str is copied, NUL-terminated, since its users read names as C
     * strings; bytes (co_code, the line and exception tables: a third of
     * a .pyc) stay where they are in the input, which the entry points'
     * callers hold for the whole call. */
    o = kind == UPY_STR ? upy_object_new_str(r->arena, r->data + r->pos, n)
                        : upy_object_new(r->arena, kind);
    if (!o)
        return fail_alloc(r);
    if (kind == UPY_BYTES)
        o->u.bytes.data = r->data + r->pos;
    o->u.bytes.len = n;
    o->offset = r->base + r->pos;
    r->pos += n;
    *result = o;
    return UNPYC_OK;
}

static unpyc_status read_long(reader *r, upy_object **result) {
    size_t at = r->pos - 1, n, i;
    int32_t signed_n;
    uint16_t *digits;
    upy_object *o;
    unpyc_status st = read_i32(r, &signed_n, "an int");

    if (st != UNPYC_OK)
        return st;
    if (signed_n == INT32_MIN)
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "bad size of the long at offset %zu", r->base + at);
    n = (size_t)(signed_n < 0 ? -(int64_t)signed_n : signed_n);
    if (n > (r->len - r->pos) / 2)
        return need(r, 2 * n, "an int");
    o = upy_object_new(r->arena, UPY_INT);
    digits = upy_arena_array(r->arena, n ? n : 1, sizeof *digits);
    if (!o || !digits)
        return fail_alloc(r);
    for (i = 0; i < n; i++) {
        const uint8_t *p = r->data + r->pos + 2 * i;
        digits[i] = (uint16_t)(p[0] | p[1] << 8);
        if (digits[i] >> LONG_DIGIT_BITS)
            return upy_fail(
                r->err, UNPYC_E_CORRUPT, (long long)(r->base + r->pos + 2 * i),
                "digit out of range in the long at offset %zu", r->base + at);
    }
    if (n && digits[n - 1] == 0)
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "unnormalized long data at offset %zu (top digit "
                        "is 0)",
                        r->base + at);
    r->pos += 2 * n;
    o->offset = r->base + at;
    o->u.integer.negative = signed_n < 0;
    o->u.integer.ndigits = (uint32_t)n;
    o->u.integer.digits = digits;
    /* Up to 4 digits (60 bits) the value fits an int64; later layers then
     * use it directly. */
    if (n <= 4) {
        int64_t v = 0;
        for (i = n; i-- > 0;)
            v = v << LONG_DIGIT_BITS | digits[i];
        o->u.integer.value = signed_n < 0 ? -v : v;
    } else {
        o->u.integer.is_big = 1;
    }
    *result = o;
    return UNPYC_OK;
}

/* The text form of a float: a length byte and ASCII digits, parsed as
 * PyOS_string_to_double would ("inf", "nan" and exponents included). */
static unpyc_status read_float_text(reader *r, double *value) {
    size_t at = r->pos;
    char buf[257], *end;
    uint8_t n;
    unpyc_status st = read_u8(r, &n, "a float");

    if (st == UNPYC_OK)
        st = need(r, n, "a float");
    if (st != UNPYC_OK)
        return st;
    memcpy(buf, r->data + r->pos, n);
    buf[n] = '\0';
    r->pos += n;
    if (n == 0 || buf[0] == ' ' || buf[0] == '\t' ||
        (*value = strtod(buf, &end), end != buf + n))
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "bad float text at offset %zu", r->base + at);
    return UNPYC_OK;
}

/* Items of a tuple, list, set or frozenset. */
static unpyc_status read_items(reader *r, upy_object *o, size_t n) {
    size_t i;
    unpyc_status st;
    o->u.seq.len = n;
    for (i = 0; i < n; i++) {
        st = read_object(r, &o->u.seq.items[i], 0);
        if (st != UNPYC_OK)
            return st;
    }
    return UNPYC_OK;
}

/* A dict: key/value pairs until a TYPE_NULL key.  The pairs are gathered
 * in an arena array that doubles as needed (at most twice the memory). */
static unpyc_status read_dict(reader *r, upy_object *o) {
    size_t cap = 8, n = 0;
    upy_object **items = upy_arena_array(r->arena, cap, sizeof *items);
    unpyc_status st;

    if (!items)
        return fail_alloc(r);
    for (;;) {
        upy_object *key = NULL, *value = NULL;
        st = read_object(r, &key, 1);
        if (st != UNPYC_OK)
            return st;
        if (!key)
            break;
        st = read_object(r, &value, 0);
        if (st != UNPYC_OK)
            return st;
        if (n + 2 > cap) {
            upy_object **grown =
                upy_arena_array(r->arena, cap * 2, sizeof *items);
            if (!grown)
                return fail_alloc(r);
            memcpy(grown, items, n * sizeof *items);
            items = grown;
            cap *= 2;
        }
        items[n++] = key;
        items[n++] = value;
    }
    o->u.seq.items = items;
    o->u.seq.len = n;
    return UNPYC_OK;
}

/* One field of a code object and the kind CPython demands of it. */
typedef enum field_kind {
    FIELD_BYTES,
    FIELD_STR,
    FIELD_TUPLE,
    FIELD_NAMES, /* tuple of str */
} field_kind;

static const char *const field_kind_text[] = {"bytes", "a str", "a tuple",
                                              "a tuple of str"};

static unpyc_status read_field(reader *r, upy_object **field, field_kind kind,
                               const char *name) {
    size_t at = r->pos, i;
    upy_object *o = NULL;
    int ok;
    unpyc_status st = read_object(r, &o, 0);

    if (st != UNPYC_OK)
        return st;
    switch (kind) {
    case FIELD_BYTES:
        ok = o->kind == UPY_BYTES;
        break;
    case FIELD_STR:
        ok = o->kind == UPY_STR;
        break;
    case FIELD_TUPLE:
        ok = o->kind == UPY_TUPLE;
        break;
    default:
        ok = o->kind == UPY_TUPLE;
        for (i = 0; ok && i < o->u.seq.len; i++)
            ok = o->u.seq.items[i]->kind == UPY_STR;
        break;
    }
    if (!ok)
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "code object field %s at offset %zu is not %s", name,
                        r->base + at, field_kind_text[kind]);
    *field = o;
    return UNPYC_OK;
}

static unpyc_status read_code_int(reader *r, int *value, const char *name) {
    size_t at = r->pos;
    int32_t v;
    unpyc_status st = read_i32(r, &v, "a code object");
    if (st != UNPYC_OK)
        return st;
    if (v < 0)
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "code object field %s at offset %zu is negative (%ld)",
                        name, r->base + at, (long)v);
    *value = v;
    return UNPYC_OK;
}

/* co_varnames, co_cellvars and co_freevars of a 3.11+ code object: the
 * localsplus names whose kind has `bit`, in order (as CPython's
 * get_localsplus_names does). */
static upy_object *names_of_kind(reader *r, const upy_code *co, uint8_t bit,
                                 int *count) {
    size_t n = co->localsplusnames->u.seq.len, i, k = 0;
    upy_object *o;
    for (i = 0; i < n; i++)
        k += (co->localspluskinds->u.bytes.data[i] & bit) != 0;
    o = upy_object_new_seq(r->arena, UPY_TUPLE, k);
    if (!o)
        return NULL;
    k = 0;
    for (i = 0; i < n; i++)
        if (co->localspluskinds->u.bytes.data[i] & bit)
            o->u.seq.items[k++] = co->localsplusnames->u.seq.items[i];
    o->u.seq.len = k;
    if (count)
        *count = (int)k;
    return o;
}

/* The fields in the order each version's w_object writes them. */
/* The parameters are the first local names (CPython's code constructor
 * refuses any other code): a count past them is corrupt data, which later
 * layers would otherwise print as that many parameters. */
static unpyc_status check_parameters(reader *r, const upy_code *co,
                                     int localsplus) {
    enum { VARARGS = 0x4, VARKEYWORDS = 0x8 }; /* co_flags bits */
    size_t names = upy_seq_len(localsplus ? co->localsplusnames : co->varnames);
    size_t params = (size_t)co->argcount + (size_t)co->kwonlyargcount +
                    ((co->flags & VARARGS) != 0) +
                    ((co->flags & VARKEYWORDS) != 0);
    if (co->posonlyargcount > co->argcount || params > names)
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + r->pos),
                        "code object before offset %zu has %zu parameters "
                        "(%d positional-only of %d positional) for %zu local "
                        "names",
                        r->base + r->pos, params, co->posonlyargcount,
                        co->argcount, names);
    return UNPYC_OK;
}

static unpyc_status read_code(reader *r, upy_object *o) {
    int localsplus = r->version.minor >= 11;
    upy_code *co = upy_arena_alloc(r->arena, sizeof *co);
    unpyc_status st;
    int firstlineno;

    if (!co)
        return fail_alloc(r);
    o->u.code = co;
    if ((st = read_code_int(r, &co->argcount, "co_argcount")) ||
        (st = read_code_int(r, &co->posonlyargcount, "co_posonlyargcount")) ||
        (st = read_code_int(r, &co->kwonlyargcount, "co_kwonlyargcount")) ||
        (!localsplus && (st = read_code_int(r, &co->nlocals, "co_nlocals"))) ||
        (st = read_code_int(r, &co->stacksize, "co_stacksize")) ||
        (st = read_i32(r, (int32_t *)&co->flags, "a code object")) ||
        (st = read_field(r, &co->code, FIELD_BYTES, "co_code")) ||
        (st = read_field(r, &co->consts, FIELD_TUPLE, "co_consts")) ||
        (st = read_field(r, &co->names, FIELD_NAMES, "co_names")))
        return st;
    if (localsplus) {
        if ((st = read_field(r, &co->localsplusnames, FIELD_NAMES,
                             "co_localsplusnames")) ||
            (st = read_field(r, &co->localspluskinds, FIELD_BYTES,
                             "co_localspluskinds")))
            return st;
    } else {
        if ((st = read_field(r, &co->varnames, FIELD_NAMES, "co_varnames")) ||
            (st = read_field(r, &co->freevars, FIELD_NAMES, "co_freevars")) ||
            (st = read_field(r, &co->cellvars, FIELD_NAMES, "co_cellvars")))
            return st;
    }
    if ((st = read_field(r, &co->filename, FIELD_STR, "co_filename")) ||
        (st = read_field(r, &co->name, FIELD_STR, "co_name")) ||
        (localsplus &&
         (st = read_field(r, &co->qualname, FIELD_STR, "co_qualname"))) ||
        (st = read_code_int(r, &firstlineno, "co_firstlineno")) ||
        (st = read_field(r, &co->linetable, FIELD_BYTES,
                         localsplus || r->version.minor == 10 ? "co_linetable"
                                                              : "co_lnotab")) ||
        (localsplus && (st = read_field(r, &co->exceptiontable, FIELD_BYTES,
                                        "co_exceptiontable"))))
        return st;
    co->firstlineno = firstlineno;

    if (localsplus) {
        if (co->localspluskinds->u.bytes.len != co->localsplusnames->u.seq.len)
            return upy_fail(r->err, UNPYC_E_CORRUPT,
                            (long long)(r->base + r->pos),
                            "code object before offset %zu has %zu "
                            "co_localspluskinds for %zu co_localsplusnames",
                            r->base + r->pos, co->localspluskinds->u.bytes.len,
                            co->localsplusnames->u.seq.len);
        if (!(co->varnames =
                  names_of_kind(r, co, UPY_FAST_LOCAL, &co->nlocals)) ||
            !(co->cellvars = names_of_kind(r, co, UPY_FAST_CELL, NULL)) ||
            !(co->freevars = names_of_kind(r, co, UPY_FAST_FREE, NULL)))
            return fail_alloc(r);
    }
    return check_parameters(r, co, localsplus);
}

/* Reads the value of an object whose type byte (without FLAG_REF) was just
 * consumed. */
static unpyc_status read_value(reader *r, uint8_t type, upy_object **result,
                               int allow_null) {
    size_t at = r->pos - 1, n = 0;
    upy_object *o;
    unpyc_status st = UNPYC_OK;

    switch (type) {
    case TYPE_NULL:
        if (!allow_null)
            return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                            "null object at offset %zu where a value is "
                            "needed",
                            r->base + at);
        *result = NULL;
        return UNPYC_OK;
    case TYPE_NONE:
    case TYPE_FALSE:
    case TYPE_TRUE:
    case TYPE_STOPITER:
    case TYPE_ELLIPSIS:
        o = upy_object_new(r->arena, type == TYPE_NONE       ? UPY_NONE
                                     : type == TYPE_FALSE    ? UPY_FALSE
                                     : type == TYPE_TRUE     ? UPY_TRUE
                                     : type == TYPE_STOPITER ? UPY_STOPITER
                                                             : UPY_ELLIPSIS);
        break;
    case TYPE_INT: {
        int32_t v;
        if ((st = read_i32(r, &v, "an int")) != UNPYC_OK)
            return st;
        if ((o = upy_object_new(r->arena, UPY_INT)))
            o->u.integer.value = v;
        break;
    }
    case TYPE_LONG:
        return read_long(r, result);
    case TYPE_FLOAT:
        if ((o = upy_object_new(r->arena, UPY_FLOAT)))
            st = read_float_text(r, &o->u.real);
        break;
    case TYPE_BINARY_FLOAT:
        if ((o = upy_object_new(r->arena, UPY_FLOAT)))
            st = read_double(r, &o->u.real, "a float");
        break;
    case TYPE_COMPLEX:
        if ((o = upy_object_new(r->arena, UPY_COMPLEX)) &&
            (st = read_float_text(r, &o->u.complex.real)) == UNPYC_OK)
            st = read_float_text(r, &o->u.complex.imag);
        break;
    case TYPE_BINARY_COMPLEX:
        if ((o = upy_object_new(r->arena, UPY_COMPLEX)) &&
            (st = read_double(r, &o->u.complex.real, "a complex")) == UNPYC_OK)
            st = read_double(r, &o->u.complex.imag, "a complex");
        break;
    case TYPE_STRING:
    case TYPE_INTERNED:
    case TYPE_UNICODE:
    case TYPE_ASCII:
    case TYPE_ASCII_INTERNED:
    case TYPE_SHORT_ASCII:
    case TYPE_SHORT_ASCII_INTERNED:
        return read_text(r, type, result);
    case TYPE_TUPLE:
    case TYPE_SMALL_TUPLE:
    case TYPE_LIST:
    case TYPE_SET:
    case TYPE_FROZENSET: {
        const char *what = type == TYPE_LIST        ? "a list"
                           : type == TYPE_SET       ? "a set"
                           : type == TYPE_FROZENSET ? "a frozenset"
                                                    : "a tuple";
        if (type == TYPE_SMALL_TUPLE) {
            uint8_t n8;
            st = read_u8(r, &n8, what);
            n = n8;
        } else {
            st = read_size(r, &n, 1, what);
        }
        if (st != UNPYC_OK)
            return st;
        o = upy_object_new_seq(r->arena,
                               type == TYPE_LIST        ? UPY_LIST
                               : type == TYPE_SET       ? UPY_SET
                               : type == TYPE_FROZENSET ? UPY_FROZENSET
                                                        : UPY_TUPLE,
                               n);
        if (o)
            st = read_items(r, o, n);
        break;
    }
    case TYPE_DICT:
        if ((o = upy_object_new(r->arena, UPY_DICT)))
            st = read_dict(r, o);
        break;
    case TYPE_CODE:
        if ((o = upy_object_new(r->arena, UPY_CODE)))
            st = read_code(r, o);
        break;
    case TYPE_SLICE:
        return upy_fail(r->err, UNPYC_E_UNSUPPORTED, (long long)(r->base + at),
                        "slice object at offset %zu (a Python 3.14 marshal "
                        "type)",
                        r->base + at);
    default:
        return upy_fail(r->err, UNPYC_E_CORRUPT, (long long)(r->base + at),
                        "unknown marshal type code 0x%02x at offset %zu",
                        (unsigned)type, r->base + at);
    }
    if (st != UNPYC_OK)
        return st;
    if (!o)
        return fail_alloc(r);
    o->offset = r->base + at;
    *result = o;
    return UNPYC_OK;
}

static unpyc_status read_reference(reader *r, upy_object **result) {
    size_t at = r->pos - 1;
    int32_t index;
    unpyc_status st = read_i32(r, &index, "a reference");
    if (st != UNPYC_OK)
        return st;
    if (index < 0 || (size_t)index >= r->nrefs)
        return upy_fail(r->err, UNPYC_E_BAD_REF, (long long)(r->base + at),
                        "reference %ld at offset %zu names no object (%zu "
                        "read so far)",
                        (long)index, r->base + at, r->nrefs);
    if (!r->refs[index])
        return upy_fail(r->err, UNPYC_E_BAD_REF, (long long)(r->base + at),
                        "reference %ld at offset %zu names an object that "
                        "contains it",
                        (long)index, r->base + at);
    *result = r->refs[index];
    return UNPYC_OK;
}

/* Takes the next reference index, to be filled when the object is read. */
static unpyc_status reserve_ref(reader *r, size_t *index) {
    if (r->nrefs == r->refs_cap) {
        size_t cap = r->refs_cap ? r->refs_cap * 2 : 64;
        upy_object **grown = upy_arena_array(r->arena, cap, sizeof *grown);
        if (!grown)
            return fail_alloc(r);
        if (r->nrefs)
            memcpy(grown, r->refs, r->nrefs * sizeof *grown);
        r->refs = grown;
        r->refs_cap = cap;
    }
    *index = r->nrefs;
    r->refs[r->nrefs++] = NULL;
    return UNPYC_OK;
}

/* Types that never take a reference index, flagged or not (CPython returns
 * its singletons without registering them). */
static int is_unreferenced_type(uint8_t type) {
    return type == TYPE_NULL || type == TYPE_NONE || type == TYPE_FALSE ||
           type == TYPE_TRUE || type == TYPE_STOPITER ||
           type == TYPE_ELLIPSIS || type == TYPE_REF;
}

static unpyc_status read_object(reader *r, upy_object **result,
                                int allow_null) {
    uint8_t code, type;
    size_t index = 0;
    int flagged;
    unpyc_status st;

    if (r->depth >= UPY_MARSHAL_MAX_DEPTH)
        return upy_fail(r->err, UNPYC_E_TOO_LARGE,
                        (long long)(r->base + r->pos),
                        "marshal data nested too deep (over %d levels) at "
                        "offset %zu",
                        UPY_MARSHAL_MAX_DEPTH, r->base + r->pos);
    if ((st = read_u8(r, &code, "an object")) != UNPYC_OK)
        return st;
    type = code & (uint8_t)~FLAG_REF;
    if (type == TYPE_REF)
        return read_reference(r, result);
    flagged = (code & FLAG_REF) && !is_unreferenced_type(type);
    if (flagged && (st = reserve_ref(r, &index)) != UNPYC_OK)
        return st;
    r->depth++;
    st = read_value(r, type, result, allow_null);
    r->depth--;
    if (st == UNPYC_OK && flagged)
        r->refs[index] = *result;
    return st;
}

unpyc_status upy_marshal_read(const uint8_t *data, size_t len,
                              size_t base_offset, upy_version version,
                              upy_arena *arena, upy_object **result,
                              size_t *consumed, unpyc_error *err) {
    reader r;
    unpyc_status st;

    memset(&r, 0, sizeof r);
    r.data = data;
    r.len = len;
    r.base = base_offset;
    r.version = version;
    r.arena = arena;
    r.err = err;
    if (version.major != 3 || version.minor < 8 || version.minor > 13)
        return upy_fail(err, UNPYC_E_UNSUPPORTED, -1,
                        "marshal format of Python %d.%d is not supported",
                        version.major, version.minor);
    if (base_offset > UINT32_MAX || len > UINT32_MAX - base_offset)
        return upy_fail(err, UNPYC_E_TOO_LARGE, -1,
                        "input of %zu bytes: over 4 GiB", base_offset + len);
    st = read_object(&r, result, 0);
    if (st == UNPYC_OK && consumed)
        *consumed = r.pos;
    return st;
}
