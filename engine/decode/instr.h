/*
 * instr.h - decoding co_code into instructions.
 *
 * One upy_instr per instruction that dis.get_instructions() of the code's
 * version yields: EXTENDED_ARG prefixes are instructions of their own (and
 * their value is folded into the arg of what follows, as in dis), inline
 * CACHE entries are not (they are counted in `caches`).
 */
#ifndef UPY_INSTR_H
#define UPY_INSTR_H

#include <stdint.h>

#include "decode/exctable.h"
#include "decode/opcode_table.h"
#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"

typedef struct upy_instr {
    uint32_t offset; /* byte offset of the opcode in co_code */
    uint16_t op;     /* upy_op */
    uint8_t opcode;  /* the version's opcode byte */
    uint8_t caches;  /* inline CACHE code units that follow */
    uint8_t has_arg; /* the opcode takes an oparg */
    int32_t arg;     /* oparg with EXTENDED_ARG folded in (int32 wrap, as
                        CPython); 0 when has_arg is 0 */
    int32_t line;    /* see upy_linetable_lines; -1 when none */
    int64_t target;  /* jump target byte offset; -1 when not a jump */
    /* What the oparg names, resolved: the constant (hasconst), or the name
     * as a str object (hasname, haslocal, hasfree; for the 3.13 paired
     * LOAD_FAST_LOAD_FAST family, the first name, argobj2 the second).
     * NULL where the oparg names nothing. */
    const upy_object *argobj;
    const upy_object *argobj2;
} upy_instr;

/* A code object with everything the decode layer knows about it. */
typedef struct upy_decoded {
    const upy_code *code;
    const upy_opcode_table *table;
    upy_instr *instrs;
    uint32_t count;
    upy_exc_table exceptions;
} upy_decoded;

/* Decodes co.  Unknown opcodes give UNPYC_E_CORRUPT (the instruction's
 * offset in the message); a jump target outside the code is
 * UNPYC_E_CORRUPT too. */
unpyc_status upy_decode_code(upy_version version, const upy_code *co,
                             upy_arena *arena, upy_decoded *decoded,
                             unpyc_error *err);

#endif /* UPY_INSTR_H */
