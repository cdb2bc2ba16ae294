/*
 * breaks.c - undoing 3.8-3.9's threading of a for loop's break through
 * the jump right after the loop's else part.
 *
 * compile.c sends a break to the block after its loop.  Where the loop's
 * else part is a single `break` (of an outer loop), the jump after that
 * else part goes back to the outer loop's header, and peephole.c
 * (PyCode_Optimize, "Replace jumps to unconditional jumps") points the
 * inner break at that header (threaded_past_else).  The break through the
 * jump right after the loop itself, the worked example of this pass until
 * stop 37 (stdlib inspect.getclasstree, tests/constructs/
 * for_break_threaded.py), is undone before this pass by unthread.c
 * (unthread_loop_breaks); gcov over every corpus found it never left here.
 *
 * A jump in a for loop's body (no inner loop around it) that goes back
 * to the outer header through the jump after the else part goes to that
 * jump again: both run the same.
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
            /* One step costs at most 1 + (e - k) < count + 1 of the budget:
             * the check keeps it from wrapping. */
            if (budget <= code->count)
                return UNPYC_OK;
            budget--;
            if (!threaded_past_else(code, j, k, (uint32_t)e))
                continue;
            budget -= (uint32_t)e - k;
            if (!in_inner_loop(code, k, j))
                code->ins[j].target = e + 1;
        }
    }
    return UNPYC_OK;
}
