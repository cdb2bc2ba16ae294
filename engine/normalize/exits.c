/*
 * exits.c - the copies of a return after a finally body that 3.10+ make.
 *
 * A `return v` in a try with a finally body computes v, runs a copy of
 * the finally body over it and returns.  When that body branches, its
 * branches meet at the return.  From 3.10 on the return has no line
 * number there (compile.c compiler_unwind_fblock unsets it after the
 * body), and compile.c duplicate_exits_without_lineno gives each jump to
 * it a copy of its own, right after it; recovery reads that layout.  3.8
 * and 3.9 have no such pass: the return is one block that the branches
 * jump to.  Worked example (3.9; return_in_split_finally in
 * tests/test_constructs.py, shortened):
 *
 *     try:                     LOAD run; CALL          (the value)
 *         return run()         LOAD final
 *     finally:                 POP_JUMP_IF_FALSE R     (3.10: R2)
 *         if final:            LOAD announce; CALL; POP_TOP
 *             announce()    R: RETURN_VALUE
 *                                                      (3.10: R2:
 *                                                       RETURN_VALUE)
 *
 * Only there does a conditional jump go straight to a return: the value
 * returned is under the jump's condition, which no expression leaves (a
 * conditional expression's jumps go to code that pushes a value, and
 * peephole.c has made each unconditional jump to a return a return).  So
 * a return that a POP_JUMP_IF reaches is taken for that block, and each
 * jump to it while it has other ways in gets a copy, as the pass does.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Whether instruction r is a return that a conditional jump reaches. */
static int is_finally_return(const upy_ncode *code, const uint32_t *cond,
                             uint32_t r) {
    return code->ins[r].op == N_RETURN && cond[r] > 0;
}

/* The ways into each instruction: jumps, and the instruction before. */
static void count_ways(const upy_ncode *code, uint32_t *ways, uint32_t *cond) {
    uint32_t i;
    for (i = 0; i < code->count; i++) {
        const upy_nin *in = &code->ins[i];
        if (i + 1 < code->count && upy_nin_falls_through(in))
            ways[i + 1]++;
        if (in->target < 0 || (uint32_t)in->target >= code->count)
            continue;
        ways[in->target]++;
        if (in->op == N_POP_JUMP_IF)
            cond[in->target]++;
    }
}

/* The copies: copy_of[i] = the return jump i gets a copy of (or -1),
 * and copies[r] how many return r gets.  Returns the total. */
static uint32_t plan_copies(const upy_ncode *code, uint32_t *ways,
                            const uint32_t *cond, int32_t *copy_of,
                            uint32_t *copies) {
    uint32_t i, total = 0;
    for (i = 0; i < code->count; i++) {
        int32_t t = code->ins[i].target;
        copy_of[i] = -1;
        if (t < 0 || (uint32_t)t >= code->count ||
            !is_finally_return(code, cond, (uint32_t)t) || ways[t] < 2)
            continue;
        ways[t]--;
        copy_of[i] = t;
        copies[t]++;
        total++;
    }
    return total;
}

unpyc_status upy_normalize_exit_copies(upy_ncode *code, upy_arena *arena,
                                       unpyc_error *err) {
    uint32_t n = code->count, i, at = 0, total, *ways, *cond, *copies,
             *new_index, *next_copy;
    int32_t *copy_of;
    upy_nin *out;

    ways = upy_arena_array(arena, n + 1, sizeof *ways);
    cond = upy_arena_array(arena, n + 1, sizeof *cond);
    copies = upy_arena_array(arena, n + 1, sizeof *copies);
    copy_of = upy_arena_array(arena, n + 1, sizeof *copy_of);
    new_index = upy_arena_array(arena, n + 1, sizeof *new_index);
    next_copy = upy_arena_array(arena, n + 1, sizeof *next_copy);
    if (!ways || !cond || !copies || !copy_of || !new_index || !next_copy)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    count_ways(code, ways, cond);
    total = plan_copies(code, ways, cond, copy_of, copies);
    if (!total)
        return UNPYC_OK;
    out = upy_arena_array(arena, n + total, sizeof *out);
    if (!out)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    /* Each copy goes right after its return, the last made first. */
    for (i = 0; i < n; i++) {
        new_index[i] = at;
        out[at++] = code->ins[i];
        next_copy[i] = at + copies[i];
        at += copies[i];
    }
    for (i = 0; i < n; i++) {
        int32_t r = copy_of[i];
        upy_nin *c;
        if (r < 0)
            continue;
        c = &out[--next_copy[r]];
        *c = code->ins[r];
        c->line = code->ins[i].line;
        c->lead_line = -1;
        c->lead_nops = 0;
        c->lead_nops_joined = 0;
        out[new_index[i]].target = (int32_t)(c - out);
    }
    for (i = 0; i < at; i++)
        if (out[i].handler >= 0)
            out[i].handler = (int32_t)new_index[out[i].handler];
    for (i = 0; i < n; i++)
        if (copy_of[i] < 0 && out[new_index[i]].target >= 0)
            out[new_index[i]].target =
                (int32_t)new_index[out[new_index[i]].target];
    code->ins = out;
    code->count = at;
    return UNPYC_OK;
}
