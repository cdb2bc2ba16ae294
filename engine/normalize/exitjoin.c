/*
 * exitjoin.c - 3.10's copies of exit blocks that leave a block, and 3.10 /
 * 3.11's of the way out of a named except clause, joined back to the
 * block before normalize.c lowers the code.
 *
 * 3.10's compile.c copies a small exit block, or one with no line number,
 * into each jump to it (duplicate_exits_without_lineno, extend_block).
 * Where the block starts with the POP_BLOCK that ends a try or with body,
 * 3.11 gives it a line and keeps it one block; recovery reads 3.11's
 * layout, so these copies are undone here (rules.copies_pop_block_exits):
 * jumps to a copy go to the block again, and the copy emits nothing or
 * becomes a jump to the block.
 */
#include <string.h>

#include "normalize/norm.h"

/* compile.c MAX_COPY_SIZE (3.10): extend_block copies at most this many
 * instructions. */
#define MAX_COPY_SIZE 4

uint32_t norm_exit_block_end(const norm *nm, uint32_t s) {
    uint32_t k;
    for (k = s; k < nm->dec->count; k++) {
        if ((k > s && nm->is_target[k]) || at(nm, k)->target >= 0)
            return 0;
        if (op_is(nm, k, UPY_OP_RETURN_VALUE) || op_is(nm, k, UPY_OP_RERAISE) ||
            op_is(nm, k, UPY_OP_RAISE_VARARGS))
            return k + 1;
    }
    return 0;
}

int norm_same_ops(const norm *nm, uint32_t s, uint32_t c, uint32_t n) {
    uint32_t k;
    if (s + n > nm->dec->count || c + n > nm->dec->count)
        return 0;
    for (k = 0; k < n; k++)
        if (at(nm, s + k)->op != at(nm, c + k)->op ||
            at(nm, s + k)->arg != at(nm, c + k)->arg)
            return 0;
    return 1;
}

int norm_same_code(const norm *nm, uint32_t s, uint32_t c, uint32_t n) {
    uint32_t k;
    if (!norm_same_ops(nm, s, c, n))
        return 0;
    for (k = 1; k < n; k++)
        if (at(nm, s + k)->line != at(nm, c + k)->line)
            return 0;
    return 1;
}

/* Whether the exit block [i, end) is the end of an `except ... as e`
 * body with the return of a constant after the try inlined (extend_block):
 * POP_BLOCK; POP_EXCEPT; e = None; del e; LOAD_CONST; RETURN_VALUE, what
 * a `return None` written in the handler compiles to as well
 * (compiler_unwind_fblock unwinds before it loads a constant). */
static int ends_handler_with_const_return(const norm *nm, uint32_t i,
                                          uint32_t end) {
    return op_is(nm, i + 1, UPY_OP_POP_EXCEPT) && end == i + 7 &&
           op_is(nm, end - 2, UPY_OP_LOAD_CONST);
}

/* Whether the exit block [i, end) that starts with a POP_BLOCK ends a
 * finally's, a with's or a handler's body and holds code 3.11 gives a line
 * (compile.c), so does not copy: a with's __exit__ call, a finally body, a
 * return written after the try (3.10 inlines it, extend_block).  An
 * `except ... as e` body's end with a constant's return stays copied
 * here: only the copies tell recovery the return is the one after the try
 * (`except E as e: if c: f()` then `return None` reads as `return` in the
 * handler once they are one block), but where that return is the implicit
 * one, with no line, undo_named_clause_exit_copies joins them, and the
 * line tells recovery instead.  Joined, the end of a loop in the
 * handler (`while tb: ...` then `return frames`) is one block, as in
 * 3.11, and not a copy recovery finds no statement for. */
static int has_lined_code(const norm *nm, uint32_t i, uint32_t end) {
    if (ends_handler_with_const_return(nm, i, end))
        return 0;
    if (op_is(nm, i + 1, UPY_OP_LOAD_CONST) &&
        norm_with_exit_call(nm, i + 1) >= 0)
        return 1;
    return norm_changes_line(nm, i, end);
}

int norm_changes_line(const norm *nm, uint32_t s, uint32_t end) {
    uint32_t k;
    for (k = s + 1; k < end; k++)
        if (at(nm, k)->line != at(nm, s)->line)
            return 1;
    return 0;
}

unpyc_status norm_retarget_copies(norm *nm, upy_decoded *joined) {
    uint32_t k, count = nm->dec->count;
    upy_instr *ins = upy_arena_array_uncleared(nm->arena, count, sizeof *ins);
    if (!ins)
        return norm_fail_memory(nm);
    memcpy(ins, nm->dec->instrs, count * sizeof *ins);
    for (k = 0; k < count; k++) {
        int32_t t =
            ins[k].target >= 0 ? norm_index_of_offset(nm, ins[k].target) : -1;
        if (t >= 0 && nm->copy_of[t] != UNSET)
            ins[k].target = ins[nm->copy_of[t]].offset;
    }
    *joined = *nm->dec;
    joined->instrs = ins;
    nm->dec = joined;
    memset(nm->is_target, 0, count + 1);
    memset(nm->jumped_on_line, 0, count + 1);
    norm_mark_targets(nm);
    return UNPYC_OK;
}

/* Undoes 3.10's compile.c duplicate_exits_without_lineno: an exit block
 * whose first instruction has no line, as the POP_BLOCK that ends a try
 * body before the copy of its finally body, is copied into each jump to
 * it, the copies laid out right after the block.  Worked example:
 *
 *     try:                          2 SETUP_FINALLY
 *         if a or (b and c):        4 POP_JUMP_IF_TRUE 14; LOAD_FAST b
 *             g()                     POP_JUMP_IF_FALSE 36; ...
 *     finally:                     14 g(); POP_BLOCK; close(); RETURN
 *         close()                  36 POP_BLOCK; close(); RETURN
 *                                  50 POP_BLOCK; close(); RETURN
 *
 * Recovery would read each copy as the end of a branch (here `if not a:
 * if b: if c: pass`, g() lost).  Jumps to a copy go to the block again,
 * as in 3.11, where the finally body's line keeps the block from being
 * copied; the copies emit nothing.  Blocks 3.11 copies too (no
 * has_lined_code) stay copies: recovery reads those as 3.11's. */
unpyc_status norm_undo_duplicate_exits(norm *nm, upy_decoded *joined) {
    uint32_t i, end, n, c, copies = 0;
    if (!nm->rules->copies_pop_block_exits)
        return UNPYC_OK;
    for (i = 0; i < nm->dec->count; i++) {
        if (!op_is(nm, i, UPY_OP_POP_BLOCK) ||
            !(end = norm_exit_block_end(nm, i)) || !has_lined_code(nm, i, end))
            continue;
        n = end - i;
        for (c = end;
             op_is(nm, c, UPY_OP_POP_BLOCK) && nm->is_target[c] &&
             norm_exit_block_end(nm, c) == c + n &&
             norm_same_code(nm, i, c, n) && has_lined_code(nm, c, c + n);
             c += n, copies++) {
            memset(&nm->skip[c], 1, n);
            nm->copy_of[c] = (int32_t)i;
        }
        i = c - 1;
    }
    return copies ? norm_retarget_copies(nm, joined) : UNPYC_OK;
}

/* The instruction after the way on of a with's handler that starts at
 * decoded instruction h, where an exception __exit__ swallowed goes on
 * after the with (3.9-3.10 compile.c compiler_with_except_finish):
 * WITH_EXCEPT_START; POP_JUMP_IF_TRUE t; RERAISE; t: POP_TOP x3;
 * POP_EXCEPT; POP_TOP.  0 when the code is not so. */
static uint32_t with_swallow_end(const norm *nm, uint32_t h) {
    static const uint16_t way_on[] = {UPY_OP_POP_TOP, UPY_OP_POP_TOP,
                                      UPY_OP_POP_TOP, UPY_OP_POP_EXCEPT,
                                      UPY_OP_POP_TOP};
    uint32_t t = h + 3, k;
    if (t >= nm->dec->count || !op_is(nm, h, UPY_OP_WITH_EXCEPT_START) ||
        !op_is(nm, h + 1, UPY_OP_POP_JUMP_IF_TRUE) ||
        at(nm, h + 1)->target != (int64_t)at(nm, t)->offset ||
        !op_is(nm, h + 2, UPY_OP_RERAISE))
        return 0;
    for (k = 0; k < sizeof way_on / sizeof way_on[0]; k++)
        if (!op_is(nm, t + k, way_on[k]) || (k > 0 && nm->is_target[t + k]))
            return 0;
    return t + k;
}

/* Whether decoded instructions [x, end) leave a block (POP_BLOCK,
 * POP_EXCEPT): a return in a try body or handler, not after it.  The
 * copy of `return True` after a with in a try body starts with the try's
 * POP_BLOCK, and read as a jump it would go to the try's else part. */
static int leaves_a_block(const norm *nm, uint32_t x, uint32_t end) {
    uint32_t k;
    for (k = x; k < end; k++)
        if (op_is(nm, k, UPY_OP_POP_BLOCK) || op_is(nm, k, UPY_OP_POP_EXCEPT))
            return 1;
    return 0;
}

/* Undoes 3.10's compile.c extend_block where it copied the small exit
 * block after a with (a return) into the with's normal way out, after
 * the __exit__ call: the way on of the with's handler falls into the
 * block itself.  Worked example:
 *
 *     if c:                 0 POP_JUMP_IF_FALSE 48
 *         with lock:          SETUP_WITH 32; ... POP_BLOCK
 *             make()       18 __exit__(None, None, None); POP_TOP
 *     return c             28 LOAD_FAST c; RETURN_VALUE     (the copy)
 *                          32 WITH_EXCEPT_START ... POP_EXCEPT; POP_TOP
 *                          48 LOAD_FAST c; RETURN_VALUE
 *
 * Read so, the with ends the if body with `return c`, and the block at
 * 48, which the if's jump and the swallowed exception reach, belongs to
 * no statement ("could not recover").  The copy becomes a jump to the
 * block, as 3.11 lays the with out (it copies no written return). */
void norm_undo_extended_with_exits(norm *nm) {
    uint32_t i, x, end, h, y;
    int32_t call;
    if (!nm->rules->copies_pop_block_exits)
        return;
    for (i = 0; i + 1 < nm->dec->count; i++) {
        if (!op_is(nm, i, UPY_OP_POP_BLOCK) ||
            !op_is(nm, i + 1, UPY_OP_LOAD_CONST) ||
            (call = norm_with_exit_call(nm, i + 1)) < 0 ||
            !op_is(nm, (uint32_t)call + 1, UPY_OP_POP_TOP))
            continue;
        x = (uint32_t)call + 2;
        if (x >= nm->dec->count || nm->is_target[x] ||
            !(end = norm_exit_block_end(nm, x)) || end - x > MAX_COPY_SIZE ||
            leaves_a_block(nm, x, end))
            continue;
        /* (Copies of the with's way out that undo_duplicate_exits joined
         * come before its handler.) */
        for (h = end; h < nm->dec->count && nm->skip[h]; h++)
            ;
        if (!(y = with_swallow_end(nm, h)) ||
            norm_exit_block_end(nm, y) != y + (end - x) ||
            !norm_same_code(nm, x, y, end - x) ||
            at(nm, x)->line != at(nm, y)->line)
            continue;
        nm->jump_instead[x] = (int32_t)y;
        memset(&nm->skip[x + 1], 1, end - x - 1);
    }
}

/* The jump undo_extended_with_exits puts for the copy at decoded
 * instruction i. */
unpyc_status norm_put_jump_instead(norm *nm, uint32_t i) {
    upy_nin *in = norm_emit(nm, N_JUMP, 0, NULL, i);
    if (!in)
        return norm_fail_memory(nm);
    nm->target_off[nm->n - 1] = at(nm, (uint32_t)nm->jump_instead[i])->offset;
    return UNPYC_OK;
}

/* The end of the exit block at s when it is the way out of an `except E
 * as e:` clause with the return after the try inlined, and no line of its
 * own: [POP_BLOCK;] POP_EXCEPT; LOAD_CONST None; STORE e; DELETE e, then
 * the return (compile.c compiler_try_except compiles the name's cleanup
 * with no line; 3.10's POP_BLOCK ends the handler of that cleanup), each
 * instruction on the line propagate_line_numbers gave the first; else 0.
 * The instructions are matched before the block's end is looked for: that
 * scan runs to the next jump, and from every instruction it cost ~3.5 k
 * instructions a median 3.11 function (perf44) and the square of the
 * length of long straight code. */
static uint32_t named_clause_exit_end(const norm *nm, uint32_t s) {
    uint32_t k = op_is(nm, s, UPY_OP_POP_BLOCK) ? s + 1 : s, end;
    if (!op_is(nm, k, UPY_OP_POP_EXCEPT) ||
        !op_is(nm, k + 1, UPY_OP_LOAD_CONST) || !at(nm, k + 1)->argobj ||
        at(nm, k + 1)->argobj->kind != UPY_NONE ||
        !norm_stores_and_deletes_name(nm, k + 2))
        return 0;
    end = norm_exit_block_end(nm, s);
    return end > k + 4 && !norm_changes_line(nm, s, end) ? end : 0;
}

/* Whether decoded instructions s and c are under the same handler. */
static int same_entry(const norm *nm, uint32_t s, uint32_t c) {
    const upy_exc_entry *a = norm_entry_of(nm, s), *b = norm_entry_of(nm, c);
    return a == b || (a && b && a->target == b->target &&
                      a->depth == b->depth && a->lasti == b->lasti);
}

/* Undoes duplicate_exits_without_lineno (3.10 / 3.11 compile.c) where it
 * copied the way out of an `except E as e:` clause at the end of the
 * code: the return after the try is inlined into it (3.10 extend_block,
 * 3.11 inline_small_exit_blocks), which leaves an exit block of six or
 * seven instructions with no line, and each jump to it gets a copy, laid
 * out right after it, on the jump's line.  Worked example (3.11):
 *
 *     try:                          ...
 *         f = urlopen(url)     220  (line 23) POP_EXCEPT; err = None;
 *     except HTTPError as err:           del err; return None
 *         if err.code == 401:  232  (line 22) the same   <- `>= 400` fails
 *             x = 1            244  (line 21) the same   <- after x = 1
 *         elif a and b:        256  (line 22) the same   <- `< 500` fails
 *             y = 1
 *
 * The copies are longer than the exits recovery takes for copies of one
 * (at most four instructions, MAX_COPY_SIZE): read as two exits, the
 * `and` became nested ifs and one copy was held by no statement.  Jumps
 * to a copy go to the block again, one way out as the compiler made it
 * before the pass, and the copies emit nothing; recovery tells the
 * implicit return from a written one by its line (a written one has its
 * own: tidy.c written_return).  (3.12+ make the same copies, of five
 * instructions with RETURN_CONST, which recovery reads as they are: not
 * enabled there.) */
unpyc_status norm_undo_named_clause_exit_copies(norm *nm, upy_decoded *joined) {
    uint32_t i, end, n, c, copies = 0;
    if (!nm->rules->copies_named_clause_exits)
        return UNPYC_OK;
    for (i = 0; i < nm->dec->count; i++) {
        if (nm->skip[i] || !(end = named_clause_exit_end(nm, i)))
            continue;
        n = end - i;
        for (c = end; c < nm->dec->count && nm->is_target[c] && !nm->skip[c] &&
                      named_clause_exit_end(nm, c) == c + n &&
                      norm_same_ops(nm, i, c, n) && same_entry(nm, i, c);
             c += n, copies++) {
            memset(&nm->skip[c], 1, n);
            nm->copy_of[c] = (int32_t)i;
        }
        i = c - 1;
    }
    return copies ? norm_retarget_copies(nm, joined) : UNPYC_OK;
}
