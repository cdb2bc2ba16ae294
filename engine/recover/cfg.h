/*
 * cfg.h - the control-flow graph of a code object in neutral form.
 *
 * Basic blocks over neutral instructions, their normal edges (fall-through
 * and jump) and exception edges (to the handler of the block), dominators
 * (over both kinds of edge: a handler is reached only through its
 * protected blocks), post-dominators (over normal edges, with a virtual
 * exit after every return and raise), loop headers (targets of edges whose
 * target dominates their source: the real back edges, whatever direction
 * the version spelled the jump in) and the stack depth at each block entry.
 */
#ifndef UPY_CFG_H
#define UPY_CFG_H

#include <stdint.h>

#include "normalize/nins.h"
#include "unpyc.h"
#include "util/arena.h"

#define UPY_NO_BLOCK (-1)

typedef struct upy_block {
    uint32_t start, end; /* neutral instructions [start, end) */
    /* Successors: `next` is where control goes when the last instruction
     * falls through (or a conditional jump is not taken), `jump` the
     * target of its jump.  UPY_NO_BLOCK when absent. */
    int32_t next;
    int32_t jump;
    int32_t handler; /* block of the exception handler, or UPY_NO_BLOCK */
    int32_t *preds;  /* normal-edge predecessors */
    uint32_t npreds;
    int32_t idom;       /* immediate dominator; UPY_NO_BLOCK for the entry and
                           the entries of unreachable code (whose blocks
                           have trees of their own: cfg.c
                           dead_dominators) */
    int32_t ipdom;      /* immediate post-dominator; UPY_NO_BLOCK when it is
                           the virtual exit or there is none */
    uint32_t rpo;       /* reverse post-order number; UINT32_MAX when
                           unreachable */
    int32_t depth_in;   /* stack depth on entry; -1 when unreachable */
    uint8_t is_handler; /* the entry of an exception handler */
    uint8_t is_loop_header; /* the target of a back edge */
    /* The block's span in a depth-first walk of the dominator tree: a
     * dominates b when a's span holds b's (upy_cfg_dominates asks in
     * constant time, where the idom chain can be as long as the code). */
    uint32_t dom_enter, dom_leave;
} upy_block;

typedef struct upy_cfg {
    const upy_ncode *code;
    upy_block *blocks;
    uint32_t count;
    int32_t *block_of; /* instruction index -> block index */
} upy_cfg;

/* Builds the graph and all its analyses.  Fails with UNPYC_E_CORRUPT
 * when the stack depths do not agree at a join (no compiler writes such
 * code). */
unpyc_status upy_cfg_build(const upy_ncode *code, upy_arena *arena,
                           upy_cfg *cfg, unpyc_error *err);

/* Whether block a dominates block b (every block dominates itself). */
int upy_cfg_dominates(const upy_cfg *cfg, int32_t a, int32_t b);

/* Whether block b is entered by falling off the end of block b - 1 (the
 * one block whose fall-through successor it can be, blocks being laid out
 * in code order); no for the first block and for one past the last. */
int upy_cfg_falls_into(const upy_cfg *cfg, int32_t b);

/* Whether every normal-edge predecessor of each block in [from, to) is
 * one of the blocks [lo, hi): the stretch of code is entered only from
 * there (a block with no predecessor passes; callers that need it reached
 * ask npreds).  The one range test the rules of recover share, whatever
 * the stretch: a loop's body, a branch, one block. */
int upy_cfg_entered_only_from(const upy_cfg *cfg, int32_t from, int32_t to,
                              int32_t lo, int32_t hi);

/* The last instruction of block b. */
static inline const upy_nin *upy_block_last(const upy_cfg *cfg, int32_t b) {
    return &cfg->code->ins[cfg->blocks[b].end - 1];
}

#endif /* UPY_CFG_H */
