/*
 * loopbreak.c - the `break` that ends a loop's body, given back where
 * 3.10+ made it a NOP for the loop's exit laid out right after it.
 *
 * 3.10's compile.c optimize_cfg, 3.11's compile.c and 3.12+'s flowgraph.c
 * remove_redundant_jumps turn a jump to the block laid out next into a
 * NOP that keeps its line.  A `break` written last in a loop's body, after
 * an inner loop whose else part goes back to the header (`continue`),
 * jumps to the loop's exit, which comes right after it:
 *
 *     while i < n:               h:  i < n; POP_JUMP_IF_FALSE exit
 *         while not err:         t:  err; POP_JUMP_IF_TRUE else
 *             if f():                f(); POP_JUMP_IF_FALSE t
 *                 break              JUMP_FORWARD brk     (inner break)
 *             ...                    JUMP_BACKWARD t
 *         else:                else: JUMP_BACKWARD h      (continue)
 *             continue         brk:  NOP, line of `break`
 *         break               exit:  return ...
 *     return ...
 *
 * Read as it falls, the loop ends at its last jump back (the else part's
 * `continue`): the NOP reads as a `pass` after the loop, the inner break
 * as leaving the inner loop only, and the outer loop runs on (a lie).
 * This pass gives the NOP its jump back where the NOP is reached only by
 * jumps leaving loops nested in the outer one and no code after it goes
 * back into the outer loop: control leaves the loop there.  A NOP that a
 * statement of the outer body left (`pass`) has the rest of the body after
 * it, which goes back to the header.  (Where the exit is a small return,
 * 3.10 and 3.12+ copy it after the NOP and uncopy.c gives the copy back as
 * the jump; 3.11 copies only the implicit return.  A jump to the NOP from
 * a loop's handler that 3.12+ laid out after all other code is not seen:
 * tests/constructs/loop_break_after_inner_else.py.) */
#include "normalize/norm.h"

/* Whether decoded instruction k jumps to an offset at or before its own. */
static int jumps_back(const norm *nm, uint32_t k) {
    return at(nm, k)->target >= 0 && at(nm, k)->target <= at(nm, k)->offset;
}

/* Whether a jump of decoded instructions [t, b] goes forward past
 * decoded instruction k. */
static int jumps_past(norm *nm, uint32_t t, uint32_t b, uint32_t k) {
    uint32_t c;
    if (nm->scan_budget < (uint64_t)(b - t + 1))
        return 0;
    nm->scan_budget -= b - t + 1;
    for (c = t; c <= b; c++)
        if (at(nm, c)->target > (int64_t)at(nm, k)->offset)
            return 1;
    return 0;
}

/* Whether the jump at decoded instruction k (h < k < i - 1) lies in a
 * loop nested in the one whose header is h: a jump back at b < i - 1 to
 * a header t with h < t <= k, the loop from t to b leaving past k.  k may
 * lie after b: 3.10 lays a try's else part after its handlers.  (The
 * jumps back after i are no loop's: 3.12+ lay the handlers after all
 * other code, and a clause that falls off jumps back to the try's join;
 * an inner loop that goes back only from there is not seen.) */
static int in_inner_loop(norm *nm, uint32_t h, uint32_t k, uint32_t i) {
    uint32_t b;
    int32_t t;
    if (nm->scan_budget < (uint64_t)(i - h))
        return 0;
    nm->scan_budget -= i - h;
    for (b = h + 1; b < i - 1; b++) {
        if (!jumps_back(nm, b) || at(nm, b)->target <= at(nm, h)->offset ||
            at(nm, b)->target > at(nm, k)->offset)
            continue;
        t = norm_index_of_offset(nm, at(nm, b)->target);
        if (t >= 0 && jumps_past(nm, (uint32_t)t, b, k))
            return 1;
    }
    return 0;
}

/* Whether every jump to decoded instruction i comes from a loop nested
 * in the one whose header is h, before i - 1 (its last jump back). */
static int left_from_inner_loops(norm *nm, uint32_t h, uint32_t i) {
    uint32_t k, from_inner = 0;
    if (nm->scan_budget < (uint64_t)nm->dec->count)
        return 0;
    nm->scan_budget -= nm->dec->count;
    for (k = 0; k < nm->dec->count; k++) {
        if (at(nm, k)->target != (int64_t)at(nm, i)->offset)
            continue;
        if (k <= h || k >= i - 1 || !in_inner_loop(nm, h, k, i))
            return 0;
        from_inner++;
    }
    return from_inner > 0 && from_inner == (uint32_t)nm->jumps_to[i];
}

/* Pushes decoded instruction k on the walk's stack unless walked, or
 * before h (a jump back to the header of a loop around the outer one,
 * which comes to it again in its next round); 0 when k lies in [h, i]:
 * the walk came back into the loop. */
static int walk_to(uint32_t *stack, uint32_t *n, uint8_t *seen, int64_t k,
                   uint32_t h, uint32_t i) {
    if (k < (int64_t)h || seen[k])
        return 1;
    if ((uint32_t)k >= h && (uint32_t)k <= i)
        return 0;
    seen[k] = 1;
    stack[(*n)++] = (uint32_t)k;
    return 1;
}

/* Whether no way on from decoded instruction i + 1 (falling, jumping,
 * raising to a handler) comes back to [h, i]: the code after the NOP is
 * outside the loop.  (3.12+ lay the handlers of the loop's tries after
 * it: their jumps back are no way on from there.)  0 when out of budget
 * or memory. */
static int stays_out_of_loop(norm *nm, uint32_t h, uint32_t i) {
    uint32_t count = nm->dec->count, n = 0, k;
    upy_arena_mark mark;
    uint32_t *stack;
    uint8_t *seen;
    int out = 1;
    upy_arena_mark_now(nm->arena, &mark);
    stack = upy_arena_array_uncleared(nm->arena, count, sizeof *stack);
    seen = upy_arena_array(nm->arena, count, sizeof *seen);
    if (!stack || !seen)
        out = 0;
    else
        out = walk_to(stack, &n, seen, i + 1, h, i);
    while (out && n > 0 && nm->scan_budget > 0) {
        const upy_exc_entry *e;
        nm->scan_budget--;
        k = stack[--n];
        e = norm_entry_of(nm, k);
        if (at(nm, k)->target >= 0)
            out = walk_to(stack, &n, seen,
                          norm_index_of_offset(nm, at(nm, k)->target), h, i);
        if (out && e)
            out = walk_to(stack, &n, seen, norm_index_of_offset(nm, e->target),
                          h, i);
        if (out && !norm_ends_without_fall(nm, k) && k + 1 < count)
            out = walk_to(stack, &n, seen, k + 1, h, i);
    }
    out = out && n == 0;
    upy_arena_rollback(nm->arena, &mark);
    return out;
}

/* Whether decoded instructions a and b are under one handler, or both
 * under none. */
static int same_handler(const norm *nm, uint32_t a, uint32_t b) {
    const upy_exc_entry *ea = norm_entry_of(nm, a), *eb = norm_entry_of(nm, b);
    return ea == eb || (ea && eb && ea->target == eb->target);
}

int norm_is_removed_loop_break(norm *nm, uint32_t i) {
    int32_t h;
    if (!nm->rules->removes_redundant_jumps || i < 2 ||
        i + 1 >= nm->dec->count || at(nm, i)->line < 0 || !nm->is_target[i])
        return 0;
    /* Right after the outer loop's last jump back, which is unconditional
     * (a conditional one is a while loop's test at the bottom). */
    if (!jumps_back(nm, i - 1) || !norm_ends_without_fall(nm, i - 1))
        return 0;
    /* The exit must be code of the try the loop is in, if any: where the
     * loop ends a try's body, the way on (a jump past the handlers, or the
     * code after the try, 3.12+) reads as the try's end, and a jump to it
     * as leaving the try, the break lost (`try: while c: ...` / `except
     * E:`). */
    if (norm_ends_without_fall(nm, i + 1) || !same_handler(nm, i, i + 1))
        return 0;
    h = norm_index_of_offset(nm, at(nm, i - 1)->target);
    return h >= 0 && (uint32_t)h < i - 1 &&
           left_from_inner_loops(nm, (uint32_t)h, i) &&
           stays_out_of_loop(nm, (uint32_t)h, i);
}
