/*
 * coldjump.c - the jump a try's else part ends in, given back where 3.12+
 * dropped it for the block laid out right after it.
 *
 * 3.12's flowgraph.c push_cold_blocks_to_end lays the code that only an
 * exception reaches after all other code.  Where a try's else part ends
 * in a jump (a `break`) and the try's join is such cold code, the jump's
 * target can come to lie right after the else part, and
 * remove_redundant_jumps turns the jump into a NOP (kept for its line):
 *
 *     with self.lock:                  BEFORE_WITH
 *         while self.go:               POP_JUMP_IF_FALSE exit
 *             try:                     r = self.h()     (try's handler)
 *                 r = self.h()         NOP, line 9      (the with's)
 *             except KeyError:   exit: __exit__ call; return r
 *                 self.clear()         ...
 *             else:                    handler: ... POP_EXCEPT
 *                 break                JUMP_FORWARD join
 *     return r                   join: the loop's test (cold)
 *
 * Read as it falls, the try body goes on into the with's exit, the way a
 * try without an else part goes on to its join, and the break is lost.
 * 3.11 keeps the jump (the exit lies after the handlers); so does this
 * pass: the NOP becomes a jump to the instruction after it where it
 * ends a straight run of code right after a try body (its else part, the
 * NOP alone for `else: break`; under another handler, entered by no
 * jump) and the clauses of the try join elsewhere, after their handler's
 * code (a clause's `continue` goes back, to before it).  Where the else
 * part falls off, the join comes right after it: no jump is made.
 */
#include "normalize/norm.h"

/* Whether decoded instruction i is an unconditional jump. */
static int is_plain_jump(const norm *nm, uint32_t i) {
    return op_is(nm, i, UPY_OP_JUMP_FORWARD) ||
           op_is(nm, i, UPY_OP_JUMP_BACKWARD) ||
           op_is(nm, i, UPY_OP_JUMP_BACKWARD_NO_INTERRUPT);
}

/* The byte offset where the clauses of the try handled at decoded
 * instruction h join (POP_EXCEPT, then a jump forward past the handler's
 * code, after the clearing of an `as` name), or -1 when none does or
 * they go to more than one place.  The walk stops at the handler's
 * cleanup (COPY 3; POP_EXCEPT; RERAISE 1), which its code covers. */
static int64_t clauses_join(norm *nm, uint32_t h, int32_t cleanup) {
    int64_t join = -1;
    uint32_t k, j;
    if (nm->scan_budget < (uint64_t)cleanup - h)
        return -1;
    nm->scan_budget -= (uint64_t)cleanup - h;
    for (k = h; k < (uint32_t)cleanup; k++) {
        if (!op_is(nm, k, UPY_OP_POP_EXCEPT))
            continue;
        for (j = k + 1; j < (uint32_t)cleanup && j <= k + 4; j++)
            if (is_plain_jump(nm, j))
                break;
        if (j == (uint32_t)cleanup || !is_plain_jump(nm, j) ||
            at(nm, j)->target <= (int64_t)at(nm, (uint32_t)cleanup)->offset)
            continue;
        if (join >= 0 && join != at(nm, j)->target)
            return -1;
        join = at(nm, j)->target;
    }
    return join;
}

/* The byte offset of the handler decoded instruction i is under, -1 when
 * none or one no source statement makes (a generator's wrapper: dead). */
static int64_t handler_at(const norm *nm, uint32_t i) {
    const upy_exc_entry *e = norm_entry_of(nm, i);
    int32_t h = e ? norm_index_of_offset(nm, e->target) : -1;
    return h >= 0 && !nm->dead[h] ? (int64_t)e->target : -1;
}

/* The first instruction of the straight run of code that ends at the NOP
 * at decoded instruction i, under its handler: the else part it ends
 * (the NOP alone for `else: break`); -1 when the walk runs out of
 * budget. */
static int64_t else_part_start(norm *nm, uint32_t i) {
    uint32_t s = i;
    while (s > 0 && !nm->is_target[s] &&
           handler_at(nm, s - 1) == handler_at(nm, i) &&
           !norm_ends_without_fall(nm, s - 1)) {
        if (!nm->scan_budget)
            return -1;
        nm->scan_budget--;
        s--;
    }
    return s;
}

int norm_is_dropped_else_jump(norm *nm, uint32_t i) {
    int64_t s, join;
    int32_t h, cleanup;
    if (!nm->rules->layout.cold_handlers || i + 1 >= nm->dec->count ||
        at(nm, i)->line < 0)
        return 0;
    /* A jump made a NOP keeps its handler; the NOPs flowgraph.c
     * label_exception_targets makes of SETUP_* and POP_BLOCK (an inner
     * `try:` line) get none.  (Under none, the loop's way out is no with's
     * exit nor finally's copy, and reads right as it is.) */
    if (handler_at(nm, i) < 0)
        return 0;
    s = else_part_start(nm, i);
    if (s <= 0 || nm->is_target[s] ||
        norm_ends_without_fall(nm, (uint32_t)s - 1))
        return 0;
    h = norm_index_of_offset(nm, handler_at(nm, (uint32_t)s - 1));
    if (h < 0 || !op_is(nm, (uint32_t)h, UPY_OP_PUSH_EXC_INFO))
        return 0;
    /* Outside the try, under the handler its own handler's code is under
     * (the NOP of an inner try's `try:` line is under the inner one's). */
    cleanup = norm_index_of_offset(nm, handler_at(nm, (uint32_t)h));
    if (cleanup <= h || handler_at(nm, (uint32_t)cleanup) != handler_at(nm, i))
        return 0;
    /* The way out must be entered by a jump too (a while loop's test):
     * one that only the fall-off enters lies outside the loop, and the
     * fall-off reads as leaving it already (`while True: try: ...; break`
     * in a finally body, asyncio Condition.wait 3.13). */
    join = clauses_join(nm, (uint32_t)h, cleanup);
    return join >= 0 && join != (int64_t)at(nm, i + 1)->offset &&
           nm->is_target[i + 1];
}
