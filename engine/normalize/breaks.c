/*
 * breaks.c - undoing 3.8-3.9's threading of a for loop's break through
 * the jump right after the loop.
 *
 * compile.c sends a break to the block after its loop.  Where the loop
 * ends an if body, that block holds the jump over the if's other
 * branches, and peephole.c (PyCode_Optimize, "Replace jumps to
 * unconditional jumps") points the break at that jump's target: the jump
 * at the end of the last branch, itself threaded to the outer loop's
 * header.  Recovery then reads the break as a jump to the end of the if
 * statement: `if p: pass`, the loop running on.  Worked example (3.8,
 * stdlib inspect.getclasstree; tests/constructs/for_break_threaded.py):
 *
 *     for c in xs:                 2  FOR_ITER 30
 *         if c:                    5  POP_JUMP_IF_FALSE 20
 *             for p in ys:         8  FOR_ITER 19
 *                 if p:           15  POP_JUMP_IF_FALSE 8
 *                     break       16  POP_TOP; 17 JUMP 29  was JUMP 19
 *         elif c not in r:        19  JUMP 2   (after the inner loop)
 *             r.append(c)         23  POP_JUMP_IF_FALSE 2 ... 29 JUMP 2
 *
 * A jump in a for loop's body (no inner loop around it) that goes past
 * the loop's exit to a jump with the target and handler of the jump at
 * that exit goes to the exit again: both run the same.
 */
#include "normalize/normalize.h"

/* Instructions the pass may visit.  Each for loop's body is walked once,
 * and again for each threaded break in it: real code nests at most
 * CO_MAXBLOCKS (20) loops, but crafted code of many loops around one long
 * body would cost quadratic time.  Past the budget the jumps are left as
 * they are. */
enum { BREAKS_BUDGET = 1 << 26 };

/* Whether instruction j, in the body of the for loop whose FOR_ITER is k,
 * sits in an inner loop: an inner FOR_ITER's body, or the range that a
 * jump back to an instruction after k closes. */
static int in_inner_loop(const upy_ncode *code, uint32_t k, uint32_t j) {
    uint32_t i, exit = (uint32_t)code->ins[k].target;
    for (i = k + 1; i < j; i++)
        if (code->ins[i].op == N_FOR_ITER && code->ins[i].target > (int32_t)j)
            return 1;
    for (i = j; i < exit; i++)
        if (code->ins[i].target > (int32_t)k &&
            code->ins[i].target <= (int32_t)j)
            return 1;
    return 0;
}

/* Whether jump j went to the exit e of its loop before peephole.c
 * threaded it through the jump there (see the header). */
static int threaded_break(const upy_ncode *code, uint32_t j, uint32_t e) {
    const upy_nin *in = &code->ins[j], *exit = &code->ins[e];
    const upy_nin *to;
    if (in->op != N_JUMP || in->target <= (int32_t)e ||
        (uint32_t)in->target >= code->count)
        return 0;
    to = &code->ins[in->target];
    return to->op == N_JUMP && to->target == exit->target &&
           to->handler == exit->handler && in->handler == exit->handler;
}

/* Whether jump j, a break that goes back to the header of an outer loop,
 * went to the jump e + 1 after the for loop's else part, the single jump
 * e (`else: break`), before peephole.c threaded it through that jump, the
 * outer loop's jump back (left unreachable where the else part leaves
 * too; holdout textual dom.DOMNode._css_bases, for_else_break_in_while_true
 * in tests/constructs/loops_3839_breaks.py).  Read as it is, the break
 * went to the outer header from inside the for loop, which no statement
 * says. */
static int threaded_past_else(const upy_ncode *code, uint32_t j, uint32_t k,
                              uint32_t e) {
    const upy_nin *in = &code->ins[j], *exit = &code->ins[e];
    const upy_nin *after = &code->ins[e + 1];
    return in->op == N_JUMP && in->target < (int32_t)k && e + 1 < code->count &&
           exit->target != in->target && after->op == N_JUMP &&
           after->target == in->target && after->handler == in->handler;
}

unpyc_status upy_normalize_unthread_breaks(upy_ncode *code) {
    uint64_t budget = BREAKS_BUDGET;
    uint32_t k, j;
    for (k = 0; k < code->count; k++) {
        int32_t e = code->ins[k].target;
        if (code->ins[k].op != N_FOR_ITER || e <= (int32_t)k ||
            (uint32_t)e >= code->count || code->ins[e].op != N_JUMP)
            continue;
        for (j = k + 1; j < (uint32_t)e; j++) {
            int32_t unthreaded;
            /* One step costs at most 1 + (e - k) < count + 1 of the budget:
             * the two readings are exclusive (one jump goes back before k,
             * the other past e), so the check keeps it from wrapping. */
            if (budget <= code->count)
                return UNPYC_OK;
            budget--;
            if (threaded_past_else(code, j, k, (uint32_t)e))
                unthreaded = e + 1;
            else if (threaded_break(code, j, (uint32_t)e))
                unthreaded = e;
            else
                continue;
            budget -= (uint32_t)e - k;
            if (!in_inner_loop(code, k, j))
                code->ins[j].target = unthreaded;
        }
    }
    return UNPYC_OK;
}
