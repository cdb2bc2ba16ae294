/*
 * region.c - questions about the shape of blocks that the rules of the
 * recover layer share (structure.c, try.c, boolexpr.c, tidy.c ask them),
 * kept here, below those files, so that each is written once.  (The
 * range test on a block's predecessors, a question about the graph
 * alone, is cfg.c's upy_cfg_entered_only_from.)
 */
#include <string.h>

#include "recover/rec.h"

int rec_pops_and_jumps(const rec *r, const upy_block *b) {
    return b->end - b->start >= 2 && ins(r, b->end - 2)->op == N_POP_TOP &&
           ins(r, b->end - 1)->op == N_JUMP;
}

int rec_is_lone(const rec *r, const upy_block *b, upy_nop op) {
    return b->end - b->start == 1 && ins(r, b->start)->op == op;
}

int rec_copies_of_exit(const rec *r, int32_t a, int32_t b) {
    const upy_block *ab, *bb;
    uint32_t n;
    upy_nop op;
    if (a == b)
        return 1;
    if (a == UPY_NO_BLOCK || b == UPY_NO_BLOCK)
        return 0;
    ab = blk(r, a);
    bb = blk(r, b);
    n = ab->end - ab->start;
    op = (upy_nop)ins(r, ab->end - 1)->op;
    /* (Normalizing makes at most two instructions of one: the cheap
     * bound first, as blocks of large functions are long.) */
    return n == bb->end - bb->start && n <= 2 * MAX_COPY_SIZE &&
           (op == N_RETURN || op == N_RAISE) &&
           rec_copy_size(r, ab->start, ab->end) <= MAX_COPY_SIZE &&
           rec_same_code(r, ab->start, bb->start, n);
}

int rec_under(const rec *r, int32_t b, int32_t h) {
    int32_t x = blk(r, b)->handler;
    int steps = 0;
    while (x != UPY_NO_BLOCK && steps++ < 64) {
        if (x == h)
            return 1;
        x = blk(r, x)->handler;
    }
    return 0;
}

int rec_is_name_cleanup(const rec *r, uint32_t i, const char *name) {
    return name && i < r->ncode.count &&
           upy_nin_clears_name(ins(r, i), r->ncode.count - i) &&
           strcmp(rec_str(ins(r, i + 1)->obj), name) == 0;
}

int rec_clears_a_name(const rec *r, uint32_t i) {
    return i + 1 < r->ncode.count &&
           rec_is_name_cleanup(r, i, rec_str(ins(r, i + 1)->obj));
}

int rec_has_line_of_a_pred(const rec *r, int32_t b, uint32_t i) {
    const upy_block *bb = blk(r, b);
    uint32_t k;
    for (k = 0; k < bb->npreds; k++)
        if (ins(r, blk(r, bb->preds[k])->end - 1)->line == ins(r, i)->line)
            return 1;
    return 0;
}
