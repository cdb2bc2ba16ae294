/*
 * constreturn.c - 3.8-3.9's return of a constant from a try body, with
 * its constant loaded inside the tries it leaves.
 *
 * compile.c compiler_return (3.8-3.9) loads a returned value before it
 * unwinds the blocks around the return, unless the value is a constant:
 * that one it loads after them, right before RETURN_VALUE.  The return of
 * a constant written last in a try body then sits where no other code of
 * the try does, after the body's POP_BLOCK; an else part follows that
 * POP_BLOCK's JUMP_FORWARD over the handlers (compiler_try_except), and a
 * small exit is not copied into a jump before 3.10 (optimize_cfg).  So a
 * run of POP_BLOCKs followed by LOAD_CONST; RETURN_VALUE is the return
 * of a constant in the body of the innermost try it leaves, and this pass
 * loads the constant before the run, where compiler_return loads any
 * other value: recovery reads the return in the body, as it reads
 * `return x`.  Worked example:
 *
 *     try:                       SETUP_FINALLY h      SETUP_FINALLY h
 *         g()                    LOAD g; CALL 0       LOAD g; CALL 0
 *         return 1               POP_TOP              POP_TOP
 *     except E:                  POP_BLOCK            LOAD_CONST 1
 *         h()                    LOAD_CONST 1         POP_BLOCK
 *                                RETURN_VALUE         RETURN_VALUE
 *
 * `try: g()` / `except E: h()` / `else: return 1` keeps its POP_BLOCK;
 * JUMP_FORWARD, with the return after the handlers.  A constant load
 * raises nothing, so the moved code runs the same.  The POP_BLOCK of a
 * try / finally is followed by a copy of the finally body, which starts
 * with LOAD_CONST; RETURN_VALUE only for `finally: return 1`; its code is
 * that of `return 1` in the body and in a bare except clause, and reads
 * as that.  The pass runs before blocks.c turns the blocks into handlers
 * (the rules table says which versions).
 */
#include "normalize/normalize.h"

#include <string.h>

#include "util/error.h"

/* Whether instruction i is a jump's target. */
static uint8_t *jump_targets(const upy_ncode *code, upy_arena *arena) {
    uint8_t *t = upy_arena_array(arena, code->count + 1, 1);
    uint32_t i;
    if (!t)
        return NULL;
    for (i = 0; i < code->count; i++)
        if (code->ins[i].target >= 0 &&
            (uint32_t)code->ins[i].target < code->count)
            t[code->ins[i].target] = 1;
    return t;
}

/* The first POP_BLOCK of the run that ends right before the LOAD_CONST
 * at c, with no jump into the run past its first instruction nor to c;
 * c when there is none, or when the run does not start the return: where
 * the return leaves a try / finally too, the copy of its finally body goes
 * between that try's POP_BLOCK and the next (compiler_unwind_fblock), and
 * the constant's place is before the first.  The run starts the return
 * where its line, the return's, is past the line of the code before it,
 * the body's; a finally body's copy is on a later line (3.9 gives the
 * POP_BLOCK after it the same line, 3.8 the return's, before it).  The
 * POP_BLOCK that ends a try body has the body's last line, and a return
 * past it starts a finally body (`try: 1/0` / `finally: return 4`, which
 * runs as a bare except clause returning beside the body's return). */
static uint32_t pop_block_run(const upy_ncode *code, const uint8_t *targeted,
                              uint32_t c) {
    uint32_t p = c;
    if (targeted[c])
        return c;
    while (p > 0 && code->ins[p - 1].op == N_POP_BLOCK) {
        p--;
        if (targeted[p])
            break;
    }
    if (p == 0 || code->ins[p].line < 0 ||
        (code->ins[p - 1].line >= code->ins[p].line &&
         code->ins[c].line <= code->ins[p].line))
        return c;
    return p;
}

/* The NOPs before the run (a `pass` ending the body) stay before it:
 * first, now the LOAD_CONST, takes them from second, the run's first
 * POP_BLOCK. */
static void keep_lead_nops(upy_nin *first, upy_nin *second) {
    first->lead_line = second->lead_line;
    first->lead_nops = second->lead_nops;
    first->lead_nops_joined = second->lead_nops_joined;
    second->lead_line = -1;
    second->lead_nops = 0;
    second->lead_nops_joined = 0;
}

/* Loads the constant of each LOAD_CONST; RETURN_VALUE after a run of
 * POP_BLOCKs before that run: the run moves down one. */
unpyc_status upy_normalize_const_returns(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err) {
    uint8_t *targeted;
    uint32_t c, p;
    upy_nin load;
    if (!code->count)
        return UNPYC_OK;
    if (!(targeted = jump_targets(code, arena)))
        return upy_fail(err,
                        arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                        -1, "out of memory");
    for (c = 1; c + 1 < code->count; c++) {
        if (code->ins[c].op != N_LOAD_CONST ||
            code->ins[c + 1].op != N_RETURN ||
            (p = pop_block_run(code, targeted, c)) == c)
            continue;
        load = code->ins[c];
        memmove(&code->ins[p + 1], &code->ins[p], (c - p) * sizeof load);
        code->ins[p] = load;
        keep_lead_nops(&code->ins[p], &code->ins[p + 1]);
    }
    return UNPYC_OK;
}
