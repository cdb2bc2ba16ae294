/*
 * elseexit.c - undoing 3.8-3.9's threading of an except clause's way out
 * through the end of its try's else part.
 *
 * An except clause that falls off its end jumps to the end of its try.
 * Where the try ends a loop body, that end is the loop's jump back, and
 * peephole.c (PyCode_Optimize, "Replace jumps to unconditional jumps")
 * points the clause's jump at the loop's header.  unthread.c takes it
 * back where nothing else reaches the jump it went through; after an
 * else part that falls off its end, the else part reaches it.  Read as it
 * is, the clause ends in `continue`, which 3.8 / 3.9's compile.c follows
 * with the unreachable POP_EXCEPT and jump of the clause's own end, code
 * the source lacks.  Worked example (3.9, after blocks.c; stdlib
 * functools.update_wrapper):
 *
 *     for attr in assigned:           2  FOR_ITER 28
 *         try:                        4  value = getattr(wrapped, attr)
 *             value = getattr(..)     9  JUMP 21             (handler 10)
 *         except AttributeError:     10  PUSH_EXC_INFO ... match
 *             pass                   15  POP_EXCEPT
 *         else:                      16  JUMP 2   was JUMP 27
 *             setattr(..)            18  COPY 3; POP_EXCEPT; RERAISE 1
 *                                    21  setattr(wrapper, attr, value)
 *                                    27  JUMP 2   (the loop's jump back)
 *
 * The clause's jump goes again to the first jump to the loop's header
 * from the else part's start where nothing before it in the else part
 * goes past it but to leave the loop (a break): it ends that part.  An
 * else part that ends in its own `continue` has the unreachable jump
 * back of the loop after it, where the clause went.
 */
#include "normalize/normalize.h"

/* The loop's last jump back to h: no jump after it goes there. */
static int32_t last_jump_back(const upy_ncode *code, int32_t h,
                              uint64_t *budget) {
    uint32_t k = code->count;
    while (k-- > 0 && *budget > 0) {
        --*budget;
        if (code->ins[k].op == N_JUMP && code->ins[k].target == h)
            return (int32_t)k;
    }
    return -1;
}

/* How far the code of an else part reaches, from its start e on: the
 * furthest target or handler of an inner statement (`if`, loop, try), or
 * `bad` when some instruction goes before e (to an outer loop's header)
 * or runs under a handler outside the part and the try's own, outer.
 * The loop's header h, where peephole.c threaded an inner statement's
 * way to the part's end too, and what lies past the loop's last jump back
 * b (a break) count as leaving the part, not reaching into the code
 * after it. */
typedef struct {
    int32_t furthest;
    int bad;
} else_reach;

static void reach_of(const upy_nin *in, uint32_t e, int32_t h, int32_t b,
                     int32_t outer, else_reach *r) {
    int32_t t = in->target;
    if (t >= 0 && t != h && t <= b) {
        if (t < (int32_t)e)
            r->bad = 1;
        else if (t > r->furthest)
            r->furthest = t;
    }
    if (in->handler != outer) {
        if (in->handler < (int32_t)e)
            r->bad = 1;
        else if (in->handler > r->furthest)
            r->furthest = in->handler;
    }
}

/* The first jump to the loop's header h from the else part's start e
 * on, up to the loop's last jump back b, that the code before it does
 * not reach past (reach_of): it ends the part; -1 if none. */
static int32_t else_part_end(const upy_ncode *code, uint32_t e, int32_t h,
                             int32_t b, int32_t outer) {
    else_reach r = {(int32_t)e, 0};
    uint32_t d;
    for (d = e; d <= (uint32_t)b && !r.bad; d++) {
        const upy_nin *in = &code->ins[d];
        if (in->op == N_JUMP && in->target == h && r.furthest <= (int32_t)d)
            return (int32_t)d;
        reach_of(in, e, h, b, outer, &r);
    }
    return -1;
}

int32_t upy_else_end_threaded_through(const upy_ncode *code,
                                      const uint8_t *reached, uint32_t j,
                                      uint32_t e, uint64_t *budget) {
    int32_t h = code->ins[j].target, b, d;
    if (e <= j || e >= code->count || h < 0 || h >= (int32_t)j ||
        !reached[e] || code->ins[e].op == N_JUMP)
        return -1;
    b = last_jump_back(code, h, budget);
    if (b <= (int32_t)e || *budget < (uint32_t)b - e)
        return -1;
    *budget -= (uint32_t)b - e;
    d = else_part_end(code, e, h, b, code->ins[j].handler);
    if (d >= 0 && (uint32_t)d + 1 < code->count && !reached[d + 1] &&
        code->ins[d + 1].op == N_JUMP && code->ins[d + 1].target == h)
        d++;
    return d;
}
