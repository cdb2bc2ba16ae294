/*
 * fuzz_engine.c - libFuzzer target over the engine's public entry points.
 *
 * The first input byte picks what the rest is, (data[0] & 3):
 *   0: a whole .pyc file, disassembled and decompiled;
 *   1: marshal data of the version (data[0] >> 2) selects, disassembled
 *      and decompiled;
 *   2, 3: raw bytecode.  The target wraps it in a well-formed code object
 *      of the selected version (fixed names, locals and constants, the
 *      last bytes as the exception table from 3.11 on) and decompiles it.
 * Mutating whole files mostly breaks the marshal structure, which the
 * reader rejects early; the bytecode mode sends every mutation straight to
 * the decoder, the normalize and recover layers and the printer, the parts
 * that must turn any instruction sequence into valid output or a clean
 * error.  Any crash, sanitizer report, leak or hang is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "unpyc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int minors[] = {8, 9, 10, 11, 12, 13};

static void check(unpyc_status st, char *out, const unpyc_error *err) {
    /* A failure must say something; a success must give text. */
    if (st != UNPYC_OK && (err->status != st || err->message[0] == '\0'))
        __builtin_trap();
    if (st == UNPYC_OK && !out)
        __builtin_trap();
    unpyc_free(out);
}

/* A marshal writer into a fixed buffer; inputs past its size are cut. */
typedef struct writer {
    uint8_t buf[1 << 16];
    size_t len;
} writer;

static void put_byte(writer *w, uint8_t b) {
    if (w->len < sizeof(w->buf))
        w->buf[w->len++] = b;
}

static void put_i32(writer *w, uint32_t v) {
    int k;
    for (k = 0; k < 4; k++)
        put_byte(w, (uint8_t)(v >> (8 * k)));
}

static void put_bytes(writer *w, const uint8_t *p, size_t n) {
    put_byte(w, 's');
    put_i32(w, (uint32_t)n);
    while (n--)
        put_byte(w, *p++);
}

static void put_str(writer *w, const char *s) {
    size_t n = strlen(s);
    put_byte(w, 'z'); /* short ASCII */
    put_byte(w, (uint8_t)n);
    while (*s)
        put_byte(w, (uint8_t)*s++);
}

static void put_str_tuple(writer *w, const char *const *items, int n) {
    int k;
    put_byte(w, ')'); /* small tuple */
    put_byte(w, (uint8_t)n);
    for (k = 0; k < n; k++)
        put_str(w, items[k]);
}

static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static const char *const locals[] = {"x", "y", "z", "w"};

/* co_consts: None, an int, a string, a tuple, a float. */
static void put_consts(writer *w) {
    static const uint8_t pi[8] = {0x18, 0x2d, 0x44, 0x54,
                                  0xfb, 0x21, 0x09, 0x40};
    size_t k;
    put_byte(w, ')');
    put_byte(w, 5);
    put_byte(w, 'N');
    put_byte(w, 'i');
    put_i32(w, 7);
    put_str(w, "s");
    put_byte(w, ')');
    put_byte(w, 2);
    put_byte(w, 'i');
    put_i32(w, 1);
    put_str(w, "t");
    put_byte(w, 'g'); /* binary float */
    for (k = 0; k < sizeof(pi); k++)
        put_byte(w, pi[k]);
}

/* Marshal data of a function code object of 3.minor whose co_code is
 * `code` and, from 3.11 on, whose exception table is `table`. */
static void put_code(writer *w, int minor, const uint8_t *code, size_t ncode,
                     const uint8_t *table, size_t ntable) {
    static const uint8_t kinds[4] = {0x20, 0x20, 0x20, 0x20}; /* locals */
    put_byte(w, 'c');
    put_i32(w, 1);  /* co_argcount */
    put_i32(w, 0);  /* co_posonlyargcount */
    put_i32(w, 0);  /* co_kwonlyargcount */
    if (minor < 11)
        put_i32(w, 4); /* co_nlocals */
    put_i32(w, 16); /* co_stacksize */
    put_i32(w, 3);  /* co_flags: OPTIMIZED | NEWLOCALS */
    put_bytes(w, code, ncode);
    put_consts(w);
    put_str_tuple(w, names, 8);
    put_str_tuple(w, locals, 4);
    if (minor >= 11) {
        put_bytes(w, kinds, sizeof(kinds));
    } else {
        put_str_tuple(w, NULL, 0); /* co_freevars */
        put_str_tuple(w, NULL, 0); /* co_cellvars */
    }
    put_str(w, "fuzz.py");
    put_str(w, "f");
    if (minor >= 11)
        put_str(w, "f");
    put_i32(w, 1); /* co_firstlineno */
    put_bytes(w, NULL, 0); /* co_lnotab / co_linetable: no lines */
    if (minor >= 11)
        put_bytes(w, table, ntable);
}

static void decompile_bytecode(const uint8_t *data, size_t size, int minor) {
    static writer w;
    size_t ntable = 0, ncode;
    unsigned unrecovered = 0;
    unpyc_error err;
    char *out = NULL;
    size_t out_len = 0;
    unpyc_status st;

    /* From 3.11 on the first byte says how many of the last bytes are the
     * exception table. */
    if (minor >= 11 && size > 0) {
        ntable = data[0] % 16;
        data++;
        size--;
        if (ntable > size)
            ntable = size;
    }
    ncode = (size - ntable) & ~(size_t)1; /* whole code units */
    w.len = 0;
    put_code(&w, minor, data, ncode, data + size - ntable, ntable);
    st = unpyc_decompile_marshal(w.buf, w.len, 3, minor, &out, &out_len,
                                 &unrecovered, &err);
    check(st, out, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unpyc_error err;
    unsigned unrecovered = 0;
    char *out = NULL;
    size_t out_len = 0;
    unpyc_status st;
    int format, mode, minor;

    if (size < 1)
        return 0;
    mode = data[0] & 3;
    minor = minors[(data[0] >> 2) % 6];
    if (mode >= 2) {
        decompile_bytecode(data + 1, size - 1, minor);
        return 0;
    }
    for (format = UNPYC_DIS_TEXT; format <= UNPYC_DIS_JSON; format++) {
        out = NULL;
        if (mode == 0)
            st = unpyc_dis_pyc(data + 1, size - 1, (unpyc_dis_format)format,
                               &out, &out_len, &err);
        else
            st = unpyc_dis_marshal(data + 1, size - 1, 3, minor,
                                   (unpyc_dis_format)format, &out, &out_len,
                                   &err);
        check(st, out, &err);
    }
    out = NULL;
    if (mode == 0)
        st = unpyc_decompile_pyc(data + 1, size - 1, &out, &out_len,
                                 &unrecovered, &err);
    else
        st = unpyc_decompile_marshal(data + 1, size - 1, 3, minor, &out,
                                     &out_len, &unrecovered, &err);
    check(st, out, &err);
    return 0;
}
