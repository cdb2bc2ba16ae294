/*
 * disasm.c - disassembly listings and JSON; see disasm.h.
 *
 * The decode layer says what each oparg means; this file only says how each
 * version's dis module shows it.  Those display habits differ between
 * versions in small ways (where "NULL" goes in LOAD_GLOBAL's text, whether
 * absolute jumps show a target, labels in 3.13) and are kept in the dialect
 * table below, so the code reads the same for every version.
 */
#include "print/disasm.h"

#include <stdlib.h>
#include <string.h>

#include "decode/instr.h"
#include "print/repr.h"
#include "util/arena.h"
#include "util/error.h"

typedef struct dis_dialect {
    uint8_t minor;
    /* 3.10+ show "to N" for absolute jumps; 3.8-3.9 show nothing. */
    uint8_t show_absolute_target;
    /* 3.13 names jump targets "L1", "L2"... in offset order. */
    uint8_t labels;
    /* 3.11 resolves only LOAD_CONST's constant (not KW_NAMES'). */
    uint8_t only_load_const;
    /* COMPARE_OP: the comparison is cmp_op[arg >> compare_shift]; 3.13
     * adds "bool(...)" when bit 16 is set. */
    uint8_t compare_shift;
    uint8_t compare_bool;
    /* Text around a name whose instruction also pushes NULL. */
    const char *global_null_prefix, *global_null_suffix;
    const char *attr_null_prefix, *attr_null_suffix;
} dis_dialect;

static const dis_dialect dialects[] = {
    {8, 0, 0, 0, 0, 0, "", "", "", ""},
    {9, 0, 0, 0, 0, 0, "", "", "", ""},
    {10, 1, 0, 0, 0, 0, "", "", "", ""},
    {11, 1, 0, 1, 0, 0, "NULL + ", "", "", ""},
    {12, 1, 0, 0, 4, 0, "NULL + ", "", "NULL|self + ", ""},
    {13, 1, 1, 0, 5, 1, "", " + NULL", "", " + NULL|self"},
};

/* dis.FORMAT_VALUE_CONVERTERS / CONVERT_VALUE names, and the flag names of
 * MAKE_FUNCTION (3.8-3.12) and SET_FUNCTION_ATTRIBUTE (3.13); the same in
 * every version. */
static const char *const converter_names[4] = {"", "str", "repr", "ascii"};
static const char *const function_flag_names[4] = {"defaults", "kwdefaults",
                                                   "annotations", "closure"};

static const dis_dialect *dialect_for(upy_version version) {
    size_t i;
    for (i = 0; i < sizeof dialects / sizeof dialects[0]; i++)
        if (version.major == 3 && dialects[i].minor == version.minor)
            return &dialects[i];
    return NULL;
}

typedef struct dis_context {
    upy_version version;
    const dis_dialect *dialect;
    unpyc_dis_format format;
    size_t arena_limit;
    upy_strbuf *out;
    unpyc_error *err;
} dis_context;

/* Jump targets, sorted and unique, for 3.13's labels. */
typedef struct label_set {
    int64_t *offsets;
    uint32_t count;
} label_set;

static int compare_offsets(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int collect_labels(const upy_decoded *dec, upy_arena *arena,
                          label_set *labels) {
    uint32_t i, n = 0;
    labels->offsets = upy_arena_array(arena, dec->count + 1, sizeof(int64_t));
    if (!labels->offsets)
        return -1;
    for (i = 0; i < dec->count; i++)
        if (dec->instrs[i].target >= 0)
            labels->offsets[n++] = dec->instrs[i].target;
    qsort(labels->offsets, n, sizeof(int64_t), compare_offsets);
    labels->count = 0;
    for (i = 0; i < n; i++)
        if (i == 0 || labels->offsets[i] != labels->offsets[i - 1])
            labels->offsets[labels->count++] = labels->offsets[i];
    return 0;
}

/* The 1-based label of a jump target (always present: every target was
 * collected). */
static uint32_t label_of(const label_set *labels, int64_t offset) {
    uint32_t lo = 0, hi = labels->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (labels->offsets[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo + 1;
}

static void put_str_object(upy_strbuf *sb, const upy_object *s) {
    if (s && s->kind == UPY_STR)
        upy_sb_append(sb, (const char *)s->u.bytes.data, s->u.bytes.len);
}

static void put_name_list(upy_strbuf *sb, const char *const *names, int count,
                          uint32_t bits) {
    int i, first = 1;
    for (i = 0; i < count; i++) {
        if (bits & (1u << i)) {
            if (!first)
                upy_sb_puts(sb, ", ");
            upy_sb_puts(sb, names[i]);
            first = 0;
        }
    }
}

static void put_indexed_name(upy_strbuf *sb, const char *const *names,
                             int count, int64_t index) {
    if (index >= 0 && index < count)
        upy_sb_puts(sb, names[index]);
    else
        upy_sb_printf(sb, "<%lld>", (long long)index);
}

/* Appends what dis shows as the instruction's argrepr. */
static void put_argrepr(const dis_context *cx, const upy_decoded *dec,
                        const label_set *labels, const upy_instr *in,
                        upy_strbuf *sb) {
    const dis_dialect *d = cx->dialect;
    const upy_opcode_table *t = dec->table;
    uint16_t flags = t->ops[in->opcode].flags;
    uint32_t arg = (uint32_t)in->arg;

    if (!in->has_arg)
        return;
    if (flags & UPY_OPF_CONST) {
        if (!d->only_load_const || in->op == UPY_OP_LOAD_CONST)
            upy_repr(sb, in->argobj, cx->version);
    } else if (flags & UPY_OPF_NAME) {
        const char *prefix = "", *suffix = "";
        if (in->op == UPY_OP_LOAD_GLOBAL && (arg & 1)) {
            prefix = d->global_null_prefix;
            suffix = d->global_null_suffix;
        } else if ((in->op == UPY_OP_LOAD_ATTR ||
                    in->op == UPY_OP_LOAD_SUPER_ATTR) &&
                   (arg & 1)) {
            prefix = d->attr_null_prefix;
            suffix = d->attr_null_suffix;
        }
        upy_sb_puts(sb, prefix);
        put_str_object(sb, in->argobj);
        upy_sb_puts(sb, suffix);
    } else if (in->target >= 0) {
        if (d->labels)
            upy_sb_printf(sb, "to L%u", (unsigned)label_of(labels, in->target));
        else if ((flags & UPY_OPF_JREL) || d->show_absolute_target)
            upy_sb_printf(sb, "to %lld", (long long)in->target);
    } else if (in->argobj2) {
        put_str_object(sb, in->argobj);
        upy_sb_puts(sb, ", ");
        put_str_object(sb, in->argobj2);
    } else if (in->argobj) {
        put_str_object(sb, in->argobj);
    } else if (flags & UPY_OPF_COMPARE) {
        if (d->compare_bool && (arg & 16))
            upy_sb_puts(sb, "bool(");
        put_indexed_name(sb, t->cmp_op, t->n_cmp_op,
                         (int64_t)(arg >> d->compare_shift));
        if (d->compare_bool && (arg & 16))
            upy_sb_puts(sb, ")");
    } else {
        switch (in->op) {
        case UPY_OP_FORMAT_VALUE:
            upy_sb_puts(sb, converter_names[arg & 3]);
            if (arg & 4)
                upy_sb_puts(sb, (arg & 3) ? ", with format" : "with format");
            break;
        case UPY_OP_CONVERT_VALUE:
            put_indexed_name(sb, converter_names, 4, in->arg);
            break;
        case UPY_OP_MAKE_FUNCTION:
        case UPY_OP_SET_FUNCTION_ATTRIBUTE:
            put_name_list(sb, function_flag_names, 4, arg);
            break;
        case UPY_OP_BINARY_OP:
            put_indexed_name(sb, t->nb_ops, t->n_nb_ops, in->arg);
            break;
        case UPY_OP_CALL_INTRINSIC_1:
            put_indexed_name(sb, t->intrinsic1, t->n_intrinsic1, in->arg);
            break;
        case UPY_OP_CALL_INTRINSIC_2:
            put_indexed_name(sb, t->intrinsic2, t->n_intrinsic2, in->arg);
            break;
        default:
            break;
        }
    }
}

static void put_json_string(upy_strbuf *sb, const char *text, size_t len) {
    upy_sb_putc(sb, '"');
    upy_sb_json_escape(sb, text, len);
    upy_sb_putc(sb, '"');
}

static void put_json_str_object(upy_strbuf *sb, const upy_object *s) {
    if (s && s->kind == UPY_STR)
        put_json_string(sb, (const char *)s->u.bytes.data, s->u.bytes.len);
    else
        upy_sb_puts(sb, "null");
}

static void put_json_line(upy_strbuf *sb, int32_t line) {
    if (line < 0)
        upy_sb_puts(sb, "null");
    else
        upy_sb_printf(sb, "%ld", (long)line);
}

/* One code object's own part of the JSON document, up to its children. */
static void json_code_head(const dis_context *cx, const upy_decoded *dec,
                           const label_set *labels, upy_strbuf *scratch) {
    upy_strbuf *sb = cx->out;
    const upy_code *co = dec->code;
    uint32_t i;

    upy_sb_puts(sb, "{\"name\": ");
    put_json_str_object(sb, co->name);
    upy_sb_puts(sb, ", \"qualname\": ");
    put_json_str_object(sb, co->qualname);
    upy_sb_printf(sb, ", \"firstlineno\": %d, \"instructions\": [",
                  co->firstlineno);
    for (i = 0; i < dec->count && !sb->failed; i++) {
        const upy_instr *in = &dec->instrs[i];
        scratch->len = 0;
        put_argrepr(cx, dec, labels, in, scratch);
        upy_sb_printf(sb, "%s{\"offset\": %u, \"opname\": ", i ? ", " : "",
                      (unsigned)in->offset);
        put_json_string(sb, upy_op_names[in->op], strlen(upy_op_names[in->op]));
        if (in->has_arg)
            upy_sb_printf(sb, ", \"arg\": %ld", (long)in->arg);
        else
            upy_sb_puts(sb, ", \"arg\": null");
        upy_sb_puts(sb, ", \"argrepr\": ");
        put_json_string(sb, scratch->data ? scratch->data : "", scratch->len);
        upy_sb_puts(sb, ", \"line\": ");
        put_json_line(sb, in->line);
        upy_sb_putc(sb, '}');
    }
    upy_sb_puts(sb, "], \"exception_table\": [");
    for (i = 0; i < dec->exceptions.count; i++) {
        const upy_exc_entry *e = &dec->exceptions.entries[i];
        upy_sb_printf(sb,
                      "%s{\"start\": %u, \"end\": %u, \"target\": %u, "
                      "\"depth\": %u, \"lasti\": %s}",
                      i ? ", " : "", (unsigned)e->start, (unsigned)e->end,
                      (unsigned)e->target, (unsigned)e->depth,
                      e->lasti ? "true" : "false");
    }
    upy_sb_puts(sb, "], \"children\": [");
}

/* Whether instruction `index` is the target of some jump. */
static int is_jump_target(const label_set *labels, uint32_t offset) {
    uint32_t label = label_of(labels, offset);
    return label <= labels->count && labels->offsets[label - 1] == offset;
}

/* The listing of one code object, in the layout of CPython's dis. */
static void text_code(const dis_context *cx, const upy_decoded *dec,
                      const label_set *labels, upy_strbuf *scratch) {
    upy_strbuf *sb = cx->out;
    int32_t last_line = -2;
    uint32_t i;

    for (i = 0; i < dec->count && !sb->failed; i++) {
        const upy_instr *in = &dec->instrs[i];
        int new_line = in->line != last_line;

        if (new_line) {
            if (i > 0)
                upy_sb_putc(sb, '\n');
            if (in->line >= 0)
                upy_sb_printf(sb, "%4ld ", (long)in->line);
            else
                upy_sb_puts(sb, "  -- ");
            last_line = in->line;
        } else {
            upy_sb_puts(sb, "     ");
        }
        upy_sb_printf(sb, "%s %6u %-24s",
                      is_jump_target(labels, in->offset) ? ">>" : "  ",
                      (unsigned)in->offset, upy_op_names[in->op]);
        if (in->has_arg) {
            scratch->len = 0;
            put_argrepr(cx, dec, labels, in, scratch);
            upy_sb_printf(sb, " %5ld", (long)in->arg);
            if (scratch->len) {
                upy_sb_puts(sb, " (");
                upy_sb_append(sb, scratch->data, scratch->len);
                upy_sb_putc(sb, ')');
            }
        }
        /* Trailing blanks of the padded opname column go. */
        while (sb->len && sb->data[sb->len - 1] == ' ')
            sb->data[--sb->len] = '\0';
        upy_sb_putc(sb, '\n');
    }
    if (dec->exceptions.count) {
        upy_sb_puts(sb, "ExceptionTable:\n");
        for (i = 0; i < dec->exceptions.count; i++) {
            const upy_exc_entry *e = &dec->exceptions.entries[i];
            upy_sb_printf(sb, "  %u to %u -> %u [%u]%s\n", (unsigned)e->start,
                          (unsigned)e->end, (unsigned)e->target,
                          (unsigned)e->depth, e->lasti ? " lasti" : "");
        }
    }
}

static unpyc_status disasm_code(const dis_context *cx, const upy_code *co,
                                int depth) {
    upy_arena arena;
    upy_decoded dec;
    label_set labels;
    upy_strbuf scratch;
    unpyc_status st;
    size_t i, nconsts, nchildren = 0;

    upy_arena_init(&arena, cx->arena_limit);
    upy_sb_init(&scratch, cx->out->limit);
    st = upy_decode_code(cx->version, co, &arena, &dec, cx->err);
    if (st == UNPYC_OK && collect_labels(&dec, &arena, &labels))
        st = upy_fail(cx->err,
                      arena.over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
                      "no memory for jump labels");
    if (st != UNPYC_OK)
        goto done;

    if (cx->format == UNPYC_DIS_JSON) {
        json_code_head(cx, &dec, &labels, &scratch);
    } else {
        if (depth > 0) {
            upy_sb_puts(cx->out, "\nDisassembly of <code object ");
            put_str_object(cx->out, co->name);
            upy_sb_puts(cx->out, " at " UPY_REPR_CODE_ADDRESS ", file \"");
            put_str_object(cx->out, co->filename);
            upy_sb_printf(cx->out, "\", line %d>:\n", co->firstlineno);
        }
        text_code(cx, &dec, &labels, &scratch);
    }
    /* The decoded form of this code object is not needed by its children:
     * release it before descending so memory follows the depth only. */
    upy_arena_release(&arena);

    nconsts = upy_seq_len(co->consts);
    for (i = 0; i < nconsts && st == UNPYC_OK; i++) {
        const upy_object *c = upy_seq_item(co->consts, i);
        if (c->kind != UPY_CODE)
            continue;
        if (cx->out->failed)
            break;
        if (cx->format == UNPYC_DIS_JSON && nchildren++ > 0)
            upy_sb_puts(cx->out, ", ");
        st = disasm_code(cx, c->u.code, depth + 1);
    }
    if (cx->format == UNPYC_DIS_JSON)
        upy_sb_puts(cx->out, "]}");
done:
    upy_arena_release(&arena);
    upy_sb_release(&scratch);
    if (st == UNPYC_OK && (cx->out->failed || scratch.failed))
        st = upy_fail(cx->err,
                      cx->out->failed == 2 ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                      -1, "disassembly is larger than the output limit");
    return st;
}

unpyc_status upy_disasm(upy_version version, const upy_code *co,
                        unpyc_dis_format format, size_t arena_limit,
                        upy_strbuf *out, unpyc_error *err) {
    dis_context cx;
    unpyc_status st;

    cx.version = version;
    cx.dialect = dialect_for(version);
    cx.format = format;
    cx.arena_limit = arena_limit;
    cx.out = out;
    cx.err = err;
    if (!cx.dialect)
        return upy_fail(err, UNPYC_E_UNSUPPORTED, -1,
                        "no disassembler for Python %d.%d", version.major,
                        version.minor);
    if (format == UNPYC_DIS_JSON)
        upy_sb_printf(out, "{\"version\": \"%d.%d\", \"code\": ", version.major,
                      version.minor);
    st = disasm_code(&cx, co, 0);
    if (format == UNPYC_DIS_JSON)
        upy_sb_puts(out, "}\n");
    if (st == UNPYC_OK && out->failed)
        st = upy_fail(err, out->failed == 2 ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                      -1, "disassembly is larger than the output limit");
    return st;
}
