/*
 * unthread.c - undoing 3.8-3.9's jump threading where it left the jump
 * it threaded through unreachable.
 *
 * peephole.c (PyCode_Optimize, "Replace jumps to unconditional jumps")
 * points a jump to an unconditional jump at that jump's target.  At the
 * end of a loop body the jump a try body or an except clause takes to
 * the end of its try is the loop's jump back: threaded, it goes to the
 * loop's header, and where nothing else reached the end of the try, the
 * jumps there stay behind, unreachable (peephole.c drops dead code after
 * a return only).  The clause then reads as one that ends in `continue`,
 * and the try body as one with an `else: continue`.  Worked example
 * (3.9, after blocks.c; lost_mark in tests/test_constructs.py):
 *
 *     while True:              0  st = g(path)        (handler 5)
 *         try:                 4  JUMP 22  was JUMP 20
 *             st = g(path)     5  PUSH_EXC_INFO ... path = h(path)
 *         except OSError:     14  POP_EXCEPT
 *             path = h(path)  15  JUMP 0   was JUMP 21
 *         else:               17  COPY 3; POP_EXCEPT; RERAISE 1
 *             break           20  JUMP 22  (else: break, unreachable)
 *     ...                     21  JUMP 0   (end of the body, unreachable)
 *                             22  ...
 *
 * The jump after a try body or after a clause's POP_EXCEPT goes back to
 * the unreachable jump with the same target among those right after the
 * try's cleanup block, where its else part and its end were: the one it
 * was threaded through.  A `break` or `continue` that ends a body or a
 * clause jumps there itself, and the compiler's own jump to the end of
 * the try, unreachable, follows it: those jumps are left alone.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Marks the instructions a path from the first one reaches (by falling
 * through, jumping, or raising to a handler); work holds those still to
 * follow. */
static void find_reached(const upy_ncode *code, uint8_t *reached,
                         uint32_t *work) {
    uint32_t n = 0;
    reached[0] = 1;
    work[n++] = 0;
    while (n) {
        uint32_t i = work[--n], k;
        const upy_nin *in = &code->ins[i];
        int32_t next[3] = {upy_nin_falls_through(in) ? (int32_t)i + 1 : -1,
                           in->target, in->handler};
        for (k = 0; k < 3; k++)
            if (next[k] >= 0 && (uint32_t)next[k] < code->count &&
                !reached[next[k]]) {
                reached[next[k]] = 1;
                work[n++] = (uint32_t)next[k];
            }
    }
}

/* Whether instruction i starts the next except clause after one that
 * ends at i - 1: a failed match jumps there. */
static int starts_next_clause(const upy_ncode *code, uint32_t i) {
    uint32_t k;
    for (k = 1; k < code->count; k++)
        if (code->ins[k].op == N_POP_JUMP_IF &&
            code->ins[k].target == (int32_t)i &&
            code->ins[k - 1].op == N_EXC_MATCH)
            return 1;
    return 0;
}

/* Whether jump j, reached, is the way out of a try body (right before
 * the handler of the code before it) or of an except clause (after its
 * POP_EXCEPT, right before what follows the clause: the reraise of an
 * exception no clause matched, the next clause, or the cleanup block).
 * A `continue` that ends an if in a body or a clause is followed by the
 * rest of it. */
static int ends_try_part(const upy_ncode *code, const uint8_t *reached,
                         uint32_t j) {
    const upy_nin *in = &code->ins[j], *before;
    if (in->op != N_JUMP || j < 2 || j + 1 >= code->count || !reached[j])
        return 0;
    before = &code->ins[j - 1];
    if (before->op != N_POP_EXCEPT)
        return before->handler == (int32_t)j + 1 &&
               in->handler != (int32_t)j + 1;
    return code->ins[j + 1].op == N_RERAISE ||
           code->ins[j - 2].handler == (int32_t)j + 1 ||
           starts_next_clause(code, j + 1);
}

/* The instruction after the cleanup block (COPY 3; POP_EXCEPT; RERAISE,
 * blocks.c) of the try that jump j leaves, where its else part and its
 * end were laid out; 0 when there is none.  The code of an except clause
 * before its POP_EXCEPT has that block for handler; a try body has its
 * handler's PUSH_EXC_INFO, which has it. */
static uint32_t after_cleanup(const upy_ncode *code, uint32_t j) {
    int32_t c = code->ins[j - 2].handler;
    if (code->ins[j - 1].op != N_POP_EXCEPT) {
        int32_t h = code->ins[j - 1].handler;
        c = code->ins[h].op == N_PUSH_EXC_INFO ? code->ins[h].handler : -1;
    }
    if (c < 0 || (uint32_t)c + 3 >= code->count || code->ins[c].op != N_COPY ||
        code->ins[c + 1].op != N_POP_EXCEPT || code->ins[c + 2].op != N_RERAISE)
        return 0;
    return (uint32_t)c + 3;
}

/* The jump j was threaded through: one of the unreachable jumps right
 * after its try's cleanup block with j's target, or -1. */
static int32_t threaded_through(const upy_ncode *code, const uint8_t *reached,
                                uint32_t j) {
    uint32_t d = after_cleanup(code, j);
    for (; d > j && d < code->count && !reached[d] && code->ins[d].op == N_JUMP;
         d++)
        if (code->ins[d].target == code->ins[j].target)
            return (int32_t)d;
    return -1;
}

unpyc_status upy_normalize_unthread(upy_ncode *code, upy_arena *arena,
                                    unpyc_error *err) {
    uint8_t *reached = upy_arena_array(arena, code->count + 1, 1);
    uint32_t *work = upy_arena_array(arena, code->count + 1, sizeof *work);
    uint32_t j;
    if (!reached || !work)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if (!code->count)
        return UNPYC_OK;
    find_reached(code, reached, work);
    for (j = 0; j < code->count; j++) {
        int32_t d;
        if (!ends_try_part(code, reached, j))
            continue;
        d = threaded_through(code, reached, j);
        if (d >= 0)
            code->ins[j].target = d;
    }
    return UNPYC_OK;
}
