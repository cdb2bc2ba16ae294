/*
 * region.c - questions about the shape of blocks that the rules of the
 * recover layer share (structure.c, try.c, boolexpr.c, tidy.c ask them),
 * kept here, below those files, so that each is written once.  (The
 * range test on a block's predecessors, a question about the graph
 * alone, is cfg.c's upy_cfg_entered_only_from.)
 */
#include "recover/rec.h"

int rec_pops_and_jumps(const rec *r, const upy_block *b) {
    return b->end - b->start >= 2 && ins(r, b->end - 2)->op == N_POP_TOP &&
           ins(r, b->end - 1)->op == N_JUMP;
}

int rec_is_lone(const rec *r, const upy_block *b, upy_nop op) {
    return b->end - b->start == 1 && ins(r, b->start)->op == op;
}
