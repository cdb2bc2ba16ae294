/*
 * exitlines.c - 3.10's copies of an exit block whose first instruction
 * has no line, joined back to the block before normalize.c lowers the
 * code.
 *
 * 3.10's compile.c duplicate_exits_without_lineno copies an exit block
 * (straight code to a return or raise) that a jump and another way reach
 * into each jump to it, the copy laid out right after the block, when
 * is_exit_without_lineno() holds: 3.10 asks it of the block's first
 * instruction only.  3.11 asks it of every instruction, so it keeps one
 * block where a later statement has a line.  An expression statement's
 * POP_TOP has no line (compiler_visit_stmt_expr), and starts the block
 * where the statement's value joins two ways, as in `a or b()`, `x if c
 * else y`, `a < b < c`.  (exitjoin.c joins the copies of blocks that
 * start with the POP_BLOCK ending a try or with body.)
 */
#include <string.h>

#include "normalize/norm.h"

/* Whether the exit block [c, end) at a jump target is a copy of the one
 * just before it, [o, c) (o = c - (end - c)), which 3.11 keeps one block:
 * it starts with an expression statement's POP_TOP, and has the same code
 * on the same lines, with a statement of its own after the POP_TOP
 * (norm_changes_line).  The POP_TOPs take the statement's line, the
 * copy's from the jump, the block's from the code before it.  Code the
 * same by chance is the other way: extend_block (compile.c) copies a
 * small exit block into a jump.  So in
 *
 *     for i in r:             break copies `return ok` after the loop:
 *         if t(i):            ...; POP_JUMP_IF_FALSE 12
 *             break           POP_TOP; LOAD_FAST ok; RETURN_VALUE
 *         break           12  POP_TOP; LOAD_FAST ok; RETURN_VALUE
 *     return ok
 *
 * the POP_TOPs are two breaks' on two lines; in `x if c else x`
 * followed by `raise` the copy after the first x (x; POP_TOP; RAISE) is
 * the code of the second, x first. */
static int copies_block_before(const norm *nm, uint32_t c, uint32_t end) {
    uint32_t n = end - c, o;
    if (n > c || !op_is(nm, c, UPY_OP_POP_TOP))
        return 0;
    o = c - n;
    /* (A block before that was itself a copy is skipped whole.) */
    if (nm->skip[c - 1] && nm->copy_of[o] == UNSET)
        return 0;
    return norm_exit_block_end(nm, o) == c && norm_same_code(nm, o, c, n) &&
           at(nm, o)->line == at(nm, c)->line && norm_changes_line(nm, o, c);
}

/* Undoes duplicate_exits_without_lineno where 3.11 has no copy.  Worked
 * example:
 *
 *     def f(a, b, c):        0 LOAD_FAST a; JUMP_IF_TRUE_OR_POP 20
 *         a or b()           4 LOAD_FAST b; CALL_FUNCTION 0
 *         c()                8 POP_TOP; c(); POP_TOP; return None
 *                           20 POP_TOP; c(); POP_TOP; return None
 *
 * Read so, the `or` has two ways that never join, and `c()` is written
 * in each (at module level the copy is a return outside a function, "could
 * not recover").  The jump goes to the block at 8 again, and the copy
 * emits nothing, as 3.11 lays the code out. */
unpyc_status norm_undo_unlined_exit_copies(norm *nm, upy_decoded *joined) {
    uint32_t c, end, copies = 0;
    int32_t block;
    if (!nm->rules->copies_statement_exits)
        return UNPYC_OK;
    for (c = 1; c < nm->dec->count; c++) {
        if (!nm->is_target[c] || nm->skip[c] ||
            !(end = norm_exit_block_end(nm, c)) ||
            !copies_block_before(nm, c, end))
            continue;
        block = (int32_t)(c - (end - c));
        nm->copy_of[c] =
            nm->copy_of[block] != UNSET ? nm->copy_of[block] : block;
        memset(&nm->skip[c], 1, end - c);
        copies++;
        c = end - 1;
    }
    return copies ? norm_retarget_copies(nm, joined) : UNPYC_OK;
}
