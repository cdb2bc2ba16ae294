/*
 * instr.c - decoding co_code into instructions; see instr.h.
 *
 * The walk is the one every version's dis._unpack_opargs makes: two bytes
 * per code unit, EXTENDED_ARG prefixes shifting their value into the next
 * oparg, and (3.11+) the inline CACHE units after an instruction skipped.
 * Everything version-specific comes from the opcode tables and from the
 * small oparg-format table below.
 */
#include "decode/instr.h"

#include <stddef.h>
#include <string.h>

#include "decode/linetable.h"
#include "util/error.h"

/* The input offset of byte `pos` of co_code, for error messages. */
static long long code_file_offset(const upy_code *co, uint32_t pos) {
    return (long long)(co->code->offset + pos);
}

/* How a version's opargs are encoded, beyond what the opcode tables say. */
typedef struct oparg_format {
    uint8_t minor;
    /* Bytes per unit of a jump oparg: 3.8-3.9 count bytes, 3.10+ count
     * code units. */
    uint8_t jump_unit;
    /* 3.11+: LOAD_GLOBAL's oparg is name << 1 | push-NULL. */
    uint8_t global_shift;
    /* 3.12+: LOAD_ATTR's oparg is name << 1 | method flag. */
    uint8_t attr_shift;
    /* 3.11+: local, cell and free opargs index co_localsplusnames; before,
     * locals index co_varnames and cells/frees co_cellvars + co_freevars. */
    uint8_t localsplus;
} oparg_format;

static const oparg_format oparg_formats[] = {
    {8, 1, 0, 0, 0},  {9, 1, 0, 0, 0},  {10, 2, 0, 0, 0},
    {11, 2, 1, 0, 1}, {12, 2, 1, 1, 1}, {13, 2, 1, 1, 1},
};

static const oparg_format *oparg_format_for(upy_version version) {
    size_t i;
    if (version.major != 3)
        return NULL;
    for (i = 0; i < sizeof oparg_formats / sizeof oparg_formats[0]; i++)
        if (oparg_formats[i].minor == version.minor)
            return &oparg_formats[i];
    return NULL;
}

/* The str naming cell/free slot `index` before 3.11: cells first, then
 * frees, as CPython numbers them. */
static const upy_object *cell_name(const upy_code *co, int64_t index) {
    size_t ncells = upy_seq_len(co->cellvars);
    if (index < 0)
        return NULL;
    if ((size_t)index < ncells)
        return upy_seq_item(co->cellvars, (size_t)index);
    return upy_seq_item(co->freevars, (size_t)index - ncells);
}

static const upy_object *local_name(const oparg_format *fmt, const upy_code *co,
                                    int64_t index, int is_free) {
    if (index < 0)
        return NULL;
    if (fmt->localsplus)
        return upy_seq_item(co->localsplusnames, (size_t)index);
    return is_free ? cell_name(co, index)
                   : upy_seq_item(co->varnames, (size_t)index);
}

/* Fills argobj / argobj2 from the oparg; fails when the oparg indexes past
 * the tuple it names. */
static unpyc_status resolve_arg(const oparg_format *fmt, const upy_code *co,
                                uint16_t flags, upy_instr *in,
                                unpyc_error *err) {
    const char *what = NULL;
    int64_t index = in->arg;

    if (flags & UPY_OPF_CONST) {
        in->argobj = upy_seq_item(co->consts, (size_t)index);
        what = "constant";
    } else if (flags & UPY_OPF_NAME) {
        if (in->op == UPY_OP_LOAD_GLOBAL)
            index >>= fmt->global_shift;
        else if (in->op == UPY_OP_LOAD_ATTR)
            index >>= fmt->attr_shift;
        else if (in->op == UPY_OP_LOAD_SUPER_ATTR)
            index >>= 2; /* name << 2 | call flag << 1 | method flag */
        in->argobj = index < 0 ? NULL : upy_seq_item(co->names, (size_t)index);
        what = "name";
    } else if (in->op == UPY_OP_LOAD_FAST_LOAD_FAST ||
               in->op == UPY_OP_STORE_FAST_LOAD_FAST ||
               in->op == UPY_OP_STORE_FAST_STORE_FAST) {
        /* 3.13 superinstructions: two 4-bit local indexes. */
        in->argobj = local_name(fmt, co, (in->arg >> 4) & 15, 0);
        in->argobj2 = local_name(fmt, co, in->arg & 15, 0);
        if (!in->argobj2)
            in->argobj = NULL;
        what = "local variable";
    } else if (flags & (UPY_OPF_LOCAL | UPY_OPF_FREE)) {
        in->argobj = local_name(fmt, co, index, (flags & UPY_OPF_FREE) != 0);
        what =
            flags & UPY_OPF_FREE ? "cell or free variable" : "local variable";
    } else {
        return UNPYC_OK;
    }
    if (index < 0 || !in->argobj)
        return upy_fail(err, UNPYC_E_CORRUPT, code_file_offset(co, in->offset),
                        "%s at offset %lld uses %s %lld, which does not "
                        "exist",
                        upy_op_names[in->op], code_file_offset(co, in->offset),
                        what, (long long)in->arg);
    return UNPYC_OK;
}

static unpyc_status compute_target(const oparg_format *fmt, uint16_t flags,
                                   const upy_code *co, upy_instr *in,
                                   unpyc_error *err) {
    int64_t unit = fmt->jump_unit;
    uint32_t code_len = (uint32_t)co->code->u.bytes.len;

    if (flags & UPY_OPF_JABS) {
        in->target = (int64_t)in->arg * unit;
    } else if (flags & UPY_OPF_JREL) {
        int64_t delta = (int64_t)in->arg * unit;
        int64_t next = (int64_t)in->offset + 2 + 2 * (int64_t)in->caches;
        in->target = flags & UPY_OPF_JBACK ? next - delta : next + delta;
    } else {
        in->target = -1;
        return UNPYC_OK;
    }
    if (in->target < 0 || in->target >= code_len || (in->target & 1))
        return upy_fail(err, UNPYC_E_CORRUPT, code_file_offset(co, in->offset),
                        "%s at offset %lld jumps to %lld, outside the code "
                        "(%u bytes)",
                        upy_op_names[in->op], code_file_offset(co, in->offset),
                        (long long)in->target, (unsigned)code_len);
    return UNPYC_OK;
}

/* How many instructions the decoding loop below finds in code[0, len): it
 * steps the same way, and stops at the same undefined opcode. */
static uint32_t count_instrs(const upy_opcode_table *table,
                             const uint8_t *code, uint32_t len) {
    uint32_t pos, n = 0;
    for (pos = 0; pos < len; n++) {
        const upy_opcode_info *info = &table->ops[code[pos]];
        if (!(info->flags & UPY_OPF_DEFINED))
            break;
        pos += 2 + 2 * (uint32_t)info->caches;
    }
    return n;
}

/* The instructions of co, their lines not set, into decoded->instrs (sized
 * for them); sets decoded->count. */
static unpyc_status decode_instrs(upy_version version, const upy_code *co,
                                  upy_decoded *decoded, unpyc_error *err) {
    const oparg_format *fmt = oparg_format_for(version);
    const upy_opcode_table *table = decoded->table;
    const uint8_t *code = co->code->u.bytes.data;
    uint32_t len = (uint32_t)co->code->u.bytes.len, pos, n = 0;
    uint32_t extended = 0;
    unpyc_status st;

    for (pos = 0; pos < len;) {
        uint8_t opcode = code[pos];
        const upy_opcode_info *info = &table->ops[opcode];
        upy_instr *in = &decoded->instrs[n];

        if (!(info->flags & UPY_OPF_DEFINED))
            return upy_fail(err, UNPYC_E_CORRUPT, code_file_offset(co, pos),
                            "unknown opcode %u at offset %lld for Python "
                            "%d.%d",
                            (unsigned)opcode, code_file_offset(co, pos),
                            version.major, version.minor);
        in->offset = pos;
        in->op = info->op;
        in->opcode = opcode;
        in->caches = info->caches;
        if (info->flags & UPY_OPF_HASARG) {
            /* Unsigned arithmetic, then the same int32 wrap-around that
             * dis and the interpreter apply to over-long prefix chains. */
            uint32_t value = code[pos + 1] | extended;
            in->has_arg = 1;
            in->arg = (int32_t)value;
            extended = opcode == table->extended_arg ? value << 8 : 0;
        } else {
            in->has_arg = 0;
            in->arg = 0;
            extended = 0;
        }
        in->target = -1;
        in->argobj = in->argobj2 = NULL;
        if (in->has_arg) {
            st = compute_target(fmt, info->flags, co, in, err);
            if (st == UNPYC_OK)
                st = resolve_arg(fmt, co, info->flags, in, err);
            if (st != UNPYC_OK)
                return st;
        }
        n++;
        /* An instruction whose caches run past the end is cut short, as
         * in dis; nothing after it is an instruction. */
        pos += 2 + 2 * (uint32_t)info->caches;
    }
    decoded->count = n;
    return UNPYC_OK;
}

unpyc_status upy_decode_code(upy_version version, const upy_code *co,
                             upy_arena *arena, upy_decoded *decoded,
                             unpyc_error *err) {
    const oparg_format *fmt = oparg_format_for(version);
    const upy_opcode_table *table = upy_opcode_table_for(version);
    const uint8_t *code;
    uint32_t len, slots;
    unpyc_error ins_err;
    unpyc_status st, ins_st;

    decoded->code = co;
    decoded->table = table;
    decoded->instrs = NULL;
    decoded->count = 0;
    if (!fmt || !table)
        return upy_fail(err, UNPYC_E_UNSUPPORTED, -1,
                        "no opcode table for Python %d.%d", version.major,
                        version.minor);
    if (!co->code || co->code->kind != UPY_BYTES ||
        co->code->u.bytes.len > UINT32_MAX / 2)
        return upy_fail(err, UNPYC_E_CORRUPT, -1, "code object has no code");
    code = co->code->u.bytes.data;
    len = (uint32_t)co->code->u.bytes.len;
    if (len & 1)
        return upy_fail(err, UNPYC_E_CORRUPT, code_file_offset(co, 0),
                        "code at offset %lld has an odd length (%u bytes)",
                        code_file_offset(co, 0), (unsigned)len);

    /* Sized by the instructions, not the code units: 3.11+ caches take
     * most of them.  Not cleared: decode_instrs sets every field of each
     * instruction but its line (upy_linetable_lines sets that), and the slots
     * after the last are cleared after it (clearing the whole array was 2 % of
     * the engine's time). */
    slots = count_instrs(table, code, len) + 1;
    decoded->instrs =
        upy_arena_array_uncleared(arena, slots, sizeof(upy_instr));
    if (!decoded->instrs)
        return upy_fail(
            err, arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
            "no memory for %u instructions", (unsigned)(len / 2));

    /* Each instruction's line is read from the line table after them, as
     * its ranges are decoded (upy_linetable_lines); an error of the line
     * table, then one of the exception table, is reported before one of
     * the instructions. */
    ins_err.status = UNPYC_OK;
    ins_err.offset = -1;
    ins_err.message[0] = '\0';
    ins_st = decode_instrs(version, co, decoded, &ins_err);
    st = upy_linetable_lines(version, co, decoded->instrs,
                             ins_st == UNPYC_OK ? decoded->count : 0, err);
    if (st == UNPYC_OK)
        st = upy_exctable_decode(co, arena, &decoded->exceptions, err);
    if (st == UNPYC_OK && ins_st != UNPYC_OK) {
        if (err && err->status == UNPYC_OK)
            *err = ins_err;
        st = ins_st;
    }
    if (st == UNPYC_OK)
        memset(&decoded->instrs[decoded->count], 0,
               (slots - decoded->count) * sizeof(upy_instr));
    return st;
}
