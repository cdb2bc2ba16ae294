/*
 * api.c - the public entry points of unpyc.h: read, then hand the code
 * object to the layer that prints what was asked for.
 */
#include <stdlib.h>

#include "api.h"
#include "print/disasm.h"
#include "print/source.h"
#include "read/marshal.h"
#include "read/pyc.h"
#include "recover/recover.h"
#include "unpyc.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"

/* Memory limits.  What the reader builds is proportional to its input, so
 * its arena may take a fixed allowance plus a multiple of the input size;
 * the disassembler's per-code-object decode arenas get a fixed cap.  The
 * work of recovering source and its output are capped by a multiple of the
 * input too: hostile code makes expressions shared on the stack (COPY)
 * that print as trees growing exponentially, and other constructs whose
 * recovery takes memory far beyond their size; with fixed caps (256 MiB of
 * arena, 512 MiB of output) one such input of a kilobyte took seconds and
 * a third of a gigabyte.  Real files stay far below all of these (the
 * largest stdlib module, a 780 kB .pyc, decompiles in 13 MB of memory; its
 * source is about its .pyc's size). */
#define READ_ARENA_BASE ((size_t)16 << 20)
#define READ_ARENA_PER_INPUT_BYTE 32
#define DECODE_ARENA_LIMIT ((size_t)256 << 20)
#define RECOVER_ARENA_BASE ((size_t)16 << 20)
#define RECOVER_ARENA_PER_INPUT_BYTE 256
#define OUTPUT_BASE ((size_t)16 << 20)
#define OUTPUT_PER_INPUT_BYTE 256
#define OUTPUT_LIMIT ((size_t)512 << 20)

static void clear_error(unpyc_error *err) {
    if (err) {
        err->status = UNPYC_OK;
        err->offset = -1;
        err->message[0] = '\0';
    }
}

static size_t read_arena_limit(size_t input_len) {
    if (input_len > ((size_t)-1 - READ_ARENA_BASE) / READ_ARENA_PER_INPUT_BYTE)
        return (size_t)-1;
    return READ_ARENA_BASE + input_len * READ_ARENA_PER_INPUT_BYTE;
}

/* base + per_byte * input_len, at most cap. */
static size_t scaled_limit(size_t input_len, size_t base, size_t per_byte,
                           size_t cap) {
    if (input_len >= (cap - base) / per_byte)
        return cap;
    return base + input_len * per_byte;
}

static size_t output_limit(size_t input_len) {
    return scaled_limit(input_len, OUTPUT_BASE, OUTPUT_PER_INPUT_BYTE,
                        OUTPUT_LIMIT);
}

/* Reads the marshalled code object at data[0..len) and disassembles it. */
static unpyc_status dis_code_data(const uint8_t *data, size_t len,
                                  size_t base_offset, upy_version version,
                                  unpyc_dis_format format, char **out,
                                  size_t *out_len, unpyc_error *err) {
    upy_arena arena;
    upy_object *obj = NULL;
    upy_strbuf sb;
    unpyc_status st;

    upy_arena_init(&arena, read_arena_limit(len));
    upy_sb_init(&sb, output_limit(len));
    st = upy_marshal_read(data, len, base_offset, version, &arena, &obj, NULL,
                          err);
    if (st == UNPYC_OK && obj->kind != UPY_CODE)
        st = upy_fail(err, UNPYC_E_CORRUPT, (long long)base_offset,
                      "the marshal data holds no code object");
    if (st == UNPYC_OK)
        st = upy_disasm(version, obj->u.code, format, DECODE_ARENA_LIMIT, &sb,
                        err);
    if (st == UNPYC_OK) {
        *out = upy_sb_take(&sb, out_len);
        if (!*out)
            st = upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    }
    upy_sb_release(&sb);
    upy_arena_release(&arena);
    return st;
}

/* Nesting of code objects the decompiler follows (a def in a def ...);
 * CPython's own parser stops far earlier. */
#define MAX_CODE_DEPTH 200

/* The most bytes a decompilation held at once, as unpyc_decompile_pyc_measured
 * says it: the arenas' peak, and the larger of the two text buffers, which
 * are never held together (the bodies' buffer is released before the
 * output is printed) and only grow: a bound from above, and a close one. */
static size_t held_peak(const upy_arena *arena, size_t body_text_cap,
                        size_t output_cap) {
    return upy_arena_peak(arena) +
           (body_text_cap > output_cap ? body_text_cap : output_cap);
}

/* The limits of the arena a decompilation runs in, for an input of len
 * bytes. */
static size_t decompile_arena_limit(size_t len) {
    size_t read = read_arena_limit(len);
    size_t recover =
        scaled_limit(len, RECOVER_ARENA_BASE, RECOVER_ARENA_PER_INPUT_BYTE,
                     DECODE_ARENA_LIMIT);
    return read > (size_t)-1 - recover ? (size_t)-1 : read + recover;
}

/* The input length of a reader that tells it as it reads (marshal data
 * is under 4 GiB: upy_marshal_read). */
#define UPY_LENGTH_UNKNOWN ((size_t)-1)

/* Marshal data of a code object, read by read_marshal. */
typedef struct marshal_source {
    const uint8_t *data;
    size_t len;
    size_t base_offset;
} marshal_source;

static unpyc_status read_marshal(void *source, upy_version version,
                                 upy_arena *arena, upy_code **code,
                                 size_t *size, unpyc_error *err) {
    const marshal_source *m = source;
    upy_object *obj = NULL;
    unpyc_status st = upy_marshal_read(m->data, m->len, m->base_offset, version,
                                       arena, &obj, NULL, err);
    if (st == UNPYC_OK && obj->kind != UPY_CODE)
        st = upy_fail(err, UNPYC_E_CORRUPT, (long long)m->base_offset,
                      "the marshal data holds no code object");
    if (st == UNPYC_OK)
        *code = obj->u.code;
    *size = m->len;
    return st;
}

/* Reads the code object by read and decompiles it; *peak_bytes (when not
 * NULL) gets held_peak, *input_marks (when not NULL) the count of parts not
 * recovered whose mark may quote the input (upy_recover_options).
 * input_len is the input's length when it is known
 * before reading (marshal data: the read runs under the limits), or
 * UPY_LENGTH_UNKNOWN when the reader tells it (a live code object: the
 * limits are set after the read, and a read that took more than they allow
 * fails). */
static unpyc_status decompile_from(upy_code_reader read, void *source,
                                   size_t input_len, upy_version version,
                                   const unpyc_decompile_options *given,
                                   char **out, size_t *out_len,
                                   unsigned *unrecovered, size_t *peak_bytes,
                                   unsigned *input_marks, unpyc_error *err) {
    upy_arena arena;
    upy_code *code = NULL;
    upy_strbuf sb, body_text;
    upy_stmt_list body;
    upy_recover_options options;
    unsigned lost = 0;
    size_t body_text_cap, len = input_len;
    unpyc_status st;

    options.max_depth = MAX_CODE_DEPTH;
    options.stable_globals = given ? given->stable_globals : NULL;
    options.n_stable_globals = given ? given->n_stable_globals : 0;
    /* Def and class bodies are printed as they are recovered (the tree
     * of a module was most of its peak memory): see rec_def_body. */
    options.print_body = upy_print_body;
    options.print_text = &body_text;
    options.input_marks = input_marks;
    if (input_marks)
        *input_marks = 0;
    upy_arena_init(&arena, input_len == UPY_LENGTH_UNKNOWN
                               ? 0
                               : decompile_arena_limit(input_len));
    upy_arena_seed(&arena);
    st = read(source, version, &arena, &code, &len, err);
    if (st == UNPYC_OK && input_len == UPY_LENGTH_UNKNOWN) {
        arena.limit = decompile_arena_limit(len);
        if (arena.allocated > arena.limit)
            st = upy_fail(err, UNPYC_E_TOO_LARGE, -1,
                          "the code object needs more memory than the "
                          "engine allows for an input of %zu bytes",
                          len);
    }
    upy_sb_init(&body_text, output_limit(len));
    upy_sb_init(&sb, output_limit(len));
    if (st == UNPYC_OK)
        st = upy_recover(code, version, &options, &arena, &body, &lost, err);
    /* (Every def's and class's body is printed by now: the buffer they
     * were printed in, as big as the biggest of them, is not kept while
     * the output grows.) */
    body_text_cap = body_text.cap;
    upy_sb_release(&body_text);
    if (st == UNPYC_OK) {
        unsigned issues = upy_print_module_ex(&sb, &body, version);
        /* (A code object printed as `...` is a part not recovered.) */
        lost += (issues & UPY_PRINT_CODE_VALUE) != 0;
        if (issues & UPY_PRINT_TOO_DEEP)
            st = upy_fail(err, UNPYC_E_TOO_LARGE, -1,
                          "an expression is nested more than %d levels deep",
                          UPY_PRINT_MAX_DEPTH);
        else if (sb.failed)
            st = upy_fail(err,
                          sb.failed == 2 ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                          -1, "source is larger than the output limit");
    }
    if (peak_bytes)
        *peak_bytes = held_peak(&arena, body_text_cap, sb.cap);
    if (st == UNPYC_OK) {
        *out = upy_sb_take(&sb, out_len);
        if (!*out)
            st = upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    }
    if (unrecovered)
        *unrecovered = lost;
    upy_sb_release(&sb);
    upy_arena_release(&arena);
    return st;
}

/* Reads the marshalled code object at data[0..len) and decompiles it. */
static unpyc_status decompile_code_data(const uint8_t *data, size_t len,
                                        size_t base_offset, upy_version version,
                                        const unpyc_decompile_options *given,
                                        char **out, size_t *out_len,
                                        unsigned *unrecovered,
                                        size_t *peak_bytes, unpyc_error *err) {
    marshal_source source;
    source.data = data;
    source.len = len;
    source.base_offset = base_offset;
    return decompile_from(read_marshal, &source, len, version, given, out,
                          out_len, unrecovered, peak_bytes, NULL, err);
}

static int valid_call(const uint8_t *data, unpyc_dis_format format,
                      char **out) {
    return data && out &&
           (format == UNPYC_DIS_TEXT || format == UNPYC_DIS_JSON);
}

unpyc_status unpyc_dis_pyc(const uint8_t *data, size_t len,
                           unpyc_dis_format format, char **out, size_t *out_len,
                           unpyc_error *err) {
    upy_pyc_header header;
    unpyc_status st;

    clear_error(err);
    if (!valid_call(data, format, out))
        return upy_fail(err, UNPYC_E_USAGE, -1, "invalid arguments");
    *out = NULL;
    st = upy_pyc_read_header(data, len, &header, err);
    if (st != UNPYC_OK)
        return st;
    return dis_code_data(data + UPY_PYC_HEADER_SIZE, len - UPY_PYC_HEADER_SIZE,
                         UPY_PYC_HEADER_SIZE, header.version, format, out,
                         out_len, err);
}

/* The version the caller of a *_marshal entry point names, when the
 * engine reads it. */
static unpyc_status marshal_version(int major, int minor, upy_version *version,
                                    unpyc_error *err) {
    version->major = (uint8_t)major;
    version->minor = (uint8_t)minor;
    if (major != 3 || minor < 0 || minor > 255 ||
        !upy_magic_for_version(*version))
        return upy_fail(err, UNPYC_E_UNSUPPORTED, -1,
                        "Python %d.%d is not supported; unpyc reads 3.8 to "
                        "3.13",
                        major, minor);
    return UNPYC_OK;
}

unpyc_status unpyc_dis_marshal(const uint8_t *data, size_t len, int major,
                               int minor, unpyc_dis_format format, char **out,
                               size_t *out_len, unpyc_error *err) {
    upy_version version;
    unpyc_status st;

    clear_error(err);
    if (!valid_call(data, format, out))
        return upy_fail(err, UNPYC_E_USAGE, -1, "invalid arguments");
    *out = NULL;
    st = marshal_version(major, minor, &version, err);
    if (st != UNPYC_OK)
        return st;
    return dis_code_data(data, len, 0, version, format, out, out_len, err);
}

unpyc_status unpyc_decompile_pyc(const uint8_t *data, size_t len, char **out,
                                 size_t *out_len, unsigned *unrecovered,
                                 unpyc_error *err) {
    return unpyc_decompile_pyc_measured(data, len, out, out_len, unrecovered,
                                        NULL, err);
}

unpyc_status unpyc_decompile_pyc_measured(const uint8_t *data, size_t len,
                                          char **out, size_t *out_len,
                                          unsigned *unrecovered,
                                          size_t *peak_bytes,
                                          unpyc_error *err) {
    upy_pyc_header header;
    unpyc_status st;

    clear_error(err);
    if (peak_bytes)
        *peak_bytes = 0;
    if (!valid_call(data, UNPYC_DIS_TEXT, out))
        return upy_fail(err, UNPYC_E_USAGE, -1, "invalid arguments");
    *out = NULL;
    st = upy_pyc_read_header(data, len, &header, err);
    if (st != UNPYC_OK)
        return st;
    return decompile_code_data(data + UPY_PYC_HEADER_SIZE,
                               len - UPY_PYC_HEADER_SIZE, UPY_PYC_HEADER_SIZE,
                               header.version, NULL, out, out_len, unrecovered,
                               peak_bytes, err);
}

unpyc_status unpyc_pyc_version(const uint8_t *data, size_t len, int *major,
                               int *minor, unpyc_error *err) {
    upy_pyc_header header;
    unpyc_status st;

    clear_error(err);
    if (!data || !major || !minor)
        return upy_fail(err, UNPYC_E_USAGE, -1, "invalid arguments");
    st = upy_pyc_read_header(data, len, &header, err);
    if (st != UNPYC_OK)
        return st;
    *major = header.version.major;
    *minor = header.version.minor;
    return UNPYC_OK;
}

/* Whether options, when given, lists its stable globals as it says. */
static int valid_options(const unpyc_decompile_options *options) {
    size_t k;
    if (!options)
        return 1;
    if (options->n_stable_globals && !options->stable_globals)
        return 0;
    for (k = 0; k < options->n_stable_globals; k++)
        if (!options->stable_globals[k])
            return 0;
    return 1;
}

unpyc_status unpyc_decompile_marshal_with(const uint8_t *data, size_t len,
                                          int major, int minor,
                                          const unpyc_decompile_options *options,
                                          char **out, size_t *out_len,
                                          unsigned *unrecovered,
                                          unpyc_error *err) {
    upy_version version;
    unpyc_status st;

    clear_error(err);
    if (!valid_call(data, UNPYC_DIS_TEXT, out) || !valid_options(options))
        return upy_fail(err, UNPYC_E_USAGE, -1, "invalid arguments");
    *out = NULL;
    st = marshal_version(major, minor, &version, err);
    if (st != UNPYC_OK)
        return st;
    return decompile_code_data(data, len, 0, version, options, out, out_len,
                               unrecovered, NULL, err);
}

unpyc_status upy_decompile_read(upy_code_reader read, void *source, int major,
                                int minor,
                                const unpyc_decompile_options *options,
                                char **out, size_t *out_len,
                                unsigned *unrecovered, unsigned *input_marks,
                                unpyc_error *err) {
    upy_version version;
    unpyc_status st;

    clear_error(err);
    if (!read || !out || !valid_options(options))
        return upy_fail(err, UNPYC_E_USAGE, -1, "invalid arguments");
    *out = NULL;
    st = marshal_version(major, minor, &version, err);
    if (st != UNPYC_OK)
        return st;
    return decompile_from(read, source, UPY_LENGTH_UNKNOWN, version, options,
                          out, out_len, unrecovered, NULL, input_marks, err);
}

unpyc_status unpyc_decompile_marshal(const uint8_t *data, size_t len, int major,
                                     int minor, char **out, size_t *out_len,
                                     unsigned *unrecovered, unpyc_error *err) {
    return unpyc_decompile_marshal_with(data, len, major, minor, NULL, out,
                                        out_len, unrecovered, err);
}

void unpyc_free(char *text) {
    free(text);
}
