/*
 * withexits.c - the jump that ends a with's suppressed exception, given
 * back the handler of the code around the with where 3.13 copied the end
 * of a try body into it.
 *
 * When __exit__ returns true, compile.c compiler_with_except_finish pops
 * the exception (POP_TOP; POP_EXCEPT; POP_TOP; POP_TOP) and jumps to the
 * with's exit, the code after the with, under the handlers the with
 * statement is under.  Where the with ends a try body, its exit is the
 * try body's end: POP_BLOCK (then a NOP) and a jump past the handlers,
 * with no line.  3.13's flowgraph.c basicblock_inline_small_or_no_lineno_
 * blocks copies such a block into each jump to it, instructions with
 * their handlers: the copied jump keeps the handler of the try's end,
 * past its POP_BLOCK, the try's outer one (a finally's, or none), while
 * the POP_TOPs before it are under the try's own.  Read as it is, the
 * with's way out leaves the try from inside its handler's range, and the
 * try's body and clauses came apart.  Worked example (3.13, campaign
 * seed 4343 program 240):
 *
 *     try:                  BEFORE_WITH ...  (handler H, the except's)
 *         with a:           __exit__ call    (H)
 *             x()        L: RETURN_CONST None (the finally's pass)
 *     except E:             WITH_EXCEPT_START ... POP_TOP (the with's)
 *         pass              POP_EXCEPT; POP_TOP; POP_TOP  (H)
 *     finally:              JUMP_BACKWARD_NO_INTERRUPT L  (F, the finally's)
 *         pass
 *
 * 3.12 keeps the jump to the block, and the jump is under H.  So is it
 * here: a jump right after POP_TOP; POP_EXCEPT; POP_TOP; POP_TOP takes
 * the handler of the POP_TOP before it, as the with's exit is under the
 * handlers of the with statement, where the jump leaves the range of the
 * handler it is under.  Only a copy does that: the try's end past an
 * empty finally body goes on where no handler is.  Where the outer
 * handler covers the target too (a with or try around the try), the copy
 * is read as the try's way out as it is: it tells the code after the try
 * from an else part where the clauses raise (real-world httpcore
 * http2.py handle_request, `async with` in `try` / `except
 * BaseException: ...; raise` in `async with`).  A jump raises nothing:
 * the same code runs, under the same handlers.
 */
#include "normalize/normalize.h"

/* Whether instruction k ends a with's suppressed exception: a jump after
 * POP_TOP (the exception); POP_EXCEPT; POP_TOP; POP_TOP. */
static int ends_suppressed_exception(const upy_ncode *code, uint32_t k) {
    static const uint16_t before[] = {N_POP_TOP, N_POP_EXCEPT, N_POP_TOP,
                                      N_POP_TOP};
    uint32_t n = sizeof before / sizeof before[0], j;
    if (code->ins[k].op != N_JUMP || k < n)
        return 0;
    for (j = 0; j < n; j++)
        if (code->ins[k - n + j].op != before[j])
            return 0;
    return 1;
}

/* Whether the jump goes where its handler does not cover. */
static int leaves_its_handler(const upy_ncode *code, const upy_nin *jump) {
    return jump->handler >= 0 && jump->target >= 0 &&
           (uint32_t)jump->target < code->count &&
           code->ins[jump->target].handler != jump->handler;
}

unpyc_status upy_normalize_with_exits(upy_ncode *code) {
    uint32_t k;
    for (k = 0; k < code->count; k++) {
        upy_nin *jump = &code->ins[k];
        const upy_nin *pop = &code->ins[k > 0 ? k - 1 : 0];
        if (!ends_suppressed_exception(code, k) ||
            jump->handler == pop->handler || !leaves_its_handler(code, jump))
            continue;
        jump->handler = pop->handler;
        jump->handler_depth = pop->handler_depth;
        jump->handler_lasti = pop->handler_lasti;
    }
    return UNPYC_OK;
}
