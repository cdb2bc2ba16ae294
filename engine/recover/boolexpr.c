/*
 * boolexpr.c - conditions and the control flow inside expressions.
 *
 * Two jobs.  rec_condition() collapses the network of conditional jumps
 * the compiler makes for the test of an if / while / assert (CPython
 * compiles `a and b`, `a or b`, `not a` and chained comparisons in a test
 * straight into jumps) back into one expression with its two outcomes.
 * rec_cond_expr() rebuilds the value of an expression that contains
 * control flow: `a and b` / `a or b` (JUMP_IF_X_OR_POP), `x if c else y`
 * (a test, two values meeting at a join), chained comparisons (a test
 * that keeps the middle operand, and a cleanup block), and the shapes
 * jump threading leaves: `a and b or c` comes out as a test jumping
 * straight to `c`.
 *
 * The compiler also copies small exit blocks into the branches that jump
 * to them (`return x if c else y` has two RETURN_VALUEs); a join that does
 * not exist because of that is found as the common tail of the branches.
 */
#include <string.h>

#include "recover/rec.h"

static upy_expr *new_expr(rec *r, upy_expr_kind kind) {
    upy_expr *e = upy_expr_new(r->arena, kind);
    if (!e)
        rec_oom(r);
    return e;
}

/* not e.  `not (a is b)` and `not (a in b)` become `a is not b` and
 * `a not in b`, which the compiler makes the same code from; other
 * comparisons keep the `not` (`not a == b` is not `a != b` for it). */
upy_expr *rec_negate(rec *r, upy_expr *e) {
    upy_expr *n;
    if (e->kind == UPY_E_UNARYOP && e->u.unary.op == UPY_UOP_NOT)
        return e->u.unary.operand;
    if (e->kind == UPY_E_COMPARE && e->u.compare.n == 1) {
        static const int8_t flip[] = {-1,
                                      -1,
                                      -1,
                                      -1,
                                      -1,
                                      -1,
                                      UPY_CMP_IS_NOT,
                                      UPY_CMP_IS,
                                      UPY_CMP_NOT_IN,
                                      UPY_CMP_IN};
        int8_t to = flip[e->u.compare.ops[0]];
        if (to >= 0) {
            n = new_expr(r, UPY_E_COMPARE);
            if (!n)
                return e;
            *n = *e;
            n->u.compare.ops = upy_arena_alloc(r->arena, sizeof(upy_cmpop));
            if (!n->u.compare.ops) {
                rec_oom(r);
                return e;
            }
            n->u.compare.ops[0] = (upy_cmpop)to;
            return n;
        }
    }
    n = new_expr(r, UPY_E_UNARYOP);
    if (!n)
        return e;
    n->u.unary.op = UPY_UOP_NOT;
    n->u.unary.operand = e;
    return n;
}

static int same_boolop(const upy_expr *e, int is_and) {
    return e->kind == UPY_E_BOOLOP && e->u.boolop.is_and == is_and &&
           !e->grouped;
}

/* parts[0] and parts[1] and ... (or: or), flattening operands of the same
 * operator (the compiler makes the same jumps for `a and (b and c)`).  A
 * chain read operand by operand is built here once, from all of them:
 * joined two at a time, each join would copy the chain so far, and a
 * chain of 10,000 operands (CPython compiles it) would take hundreds of
 * megabytes. */
static upy_expr *boolop_of(rec *r, int is_and, upy_expr *const *parts,
                           uint32_t count) {
    upy_expr *e = new_expr(r, UPY_E_BOOLOP);
    upy_expr_list *values;
    uint32_t n = 0, k;
    if (!e)
        return parts[0];
    for (k = 0; k < count; k++)
        n += same_boolop(parts[k], is_and) ? parts[k]->u.boolop.values.len
                                           : 1;
    e->u.boolop.is_and = is_and;
    values = &e->u.boolop.values;
    values->items = upy_arena_array(r->arena, n, sizeof(upy_expr *));
    if (!values->items) {
        rec_oom(r);
        return parts[0];
    }
    for (k = 0; k < count; k++) {
        if (same_boolop(parts[k], is_and)) {
            memcpy(values->items + values->len,
                   parts[k]->u.boolop.values.items,
                   parts[k]->u.boolop.values.len * sizeof(upy_expr *));
            values->len += parts[k]->u.boolop.values.len;
        } else {
            values->items[values->len++] = parts[k];
        }
    }
    return e;
}

static upy_expr *boolop(rec *r, int is_and, upy_expr *a, upy_expr *b) {
    upy_expr *parts[2] = {a, b};
    return boolop_of(r, is_and, parts, 2);
}

static upy_expr *compare1(rec *r, upy_cmpop op, upy_expr *a, upy_expr *b) {
    upy_expr *e = new_expr(r, UPY_E_COMPARE);
    if (!e)
        return a;
    e->u.compare.left = a;
    e->u.compare.ops = upy_arena_alloc(r->arena, sizeof(upy_cmpop));
    e->u.compare.comparators = upy_arena_alloc(r->arena, sizeof(upy_expr *));
    if (!e->u.compare.ops || !e->u.compare.comparators) {
        rec_oom(r);
        return a;
    }
    e->u.compare.ops[0] = op;
    e->u.compare.comparators[0] = b;
    e->u.compare.n = 1;
    return e;
}

/* Appends the comparisons of `more` (whose left operand is the last
 * comparator of `chain`) to `chain`. */
static upy_expr *extend_chain(rec *r, upy_expr *chain, upy_expr *more) {
    uint32_t n = chain->u.compare.n + more->u.compare.n;
    upy_cmpop *ops = upy_arena_array(r->arena, n, sizeof(upy_cmpop));
    upy_expr **cmp = upy_arena_array(r->arena, n, sizeof(upy_expr *));
    upy_expr *e = new_expr(r, UPY_E_COMPARE);
    if (!ops || !cmp || !e) {
        rec_oom(r);
        return chain;
    }
    memcpy(ops, chain->u.compare.ops, chain->u.compare.n * sizeof *ops);
    memcpy(ops + chain->u.compare.n, more->u.compare.ops,
           more->u.compare.n * sizeof *ops);
    memcpy(cmp, chain->u.compare.comparators, chain->u.compare.n * sizeof *cmp);
    memcpy(cmp + chain->u.compare.n, more->u.compare.comparators,
           more->u.compare.n * sizeof *cmp);
    e->u.compare.left = chain->u.compare.left;
    e->u.compare.ops = ops;
    e->u.compare.comparators = cmp;
    e->u.compare.n = n;
    return e;
}

/* Whether slot v is the middle operand a chained comparison keeps: the
 * last comparator of the comparison `cmp` just made. */
static int is_chain_middle(const sval *v, const upy_expr *cmp) {
    return v && v->kind == SV_VALUE && cmp && cmp->kind == UPY_E_COMPARE &&
           v->expr == cmp->u.compare.comparators[cmp->u.compare.n - 1];
}

/* Whether block b only jumps on, as a JUMP left where a branch was removed
 * does.  A lone jump on a line of its own after a test is a statement
 * (`if t: pass` before an elif): CPython threads a jump to a jump only
 * when both are on one line (or the target has none), so that one is
 * still there.  Two exceptions, where the jump is a `break` the loop and
 * try structuring take in as exits: after a test that jumps back (the
 * last `if t: break` of a loop before 3.11), and where the jump right
 * after its test leaves the test's exception range (3.12+ places a break
 * out of a try body so).  Not after other code: after a then part's jump
 * it is an `else: break` (3.12+ lays its block out after the then part),
 * and code that runs into it goes on there (3.11: `try:` / `if r: f(r)` /
 * `break` ends the body by f(r), then the break's jump past the protected
 * range, which the test jumps to: `if r: f(r)` + `break`, not `if not r:
 * break` + `f(r)`).  structure.c else_runs_past_body then gives such a
 * break to the else part it ends, where the then part goes on elsewhere,
 * rather than to the try's else part. */
static int is_forwarding_jump(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    const upy_nin *j = ins(r, bb->start), *test;
    if (bb->end - bb->start != 1 || j->op != N_JUMP || bb->jump <= b)
        return 0;
    if (j->line < 0 || bb->start == 0)
        return 1;
    test = ins(r, bb->start - 1);
    return (test->op == N_POP_JUMP_IF && test->target <= (int32_t)bb->start) ||
           test->line == j->line ||
           (test->handler != j->handler && test->op == N_POP_JUMP_IF);
}

/* A block that only jumps on: its target; else the block itself. */
static int32_t through_jumps(rec *r, int32_t b) {
    int guard = 0;
    while (b != UPY_NO_BLOCK && guard++ < 8) {
        const upy_block *bb = blk(r, b);
        if (!is_forwarding_jump(r, b))
            break;
        r->done[b] = 1;
        b = bb->jump;
    }
    return b;
}

/* through_jumps() without marking anything done. */
static int32_t peek_through_jumps(const rec *r, int32_t b) {
    int guard = 0;
    while (b != UPY_NO_BLOCK && guard++ < 8) {
        if (!is_forwarding_jump(r, b))
            break;
        b = blk(r, b)->jump;
    }
    return b;
}

/* Statically: block b computes its values with no statements and ends
 * with a POP_JUMP_IF; returns how many values it leaves (1 for a test, 2
 * for one link of a chained comparison, which keeps its middle operand),
 * or 0.  `depth` is what it finds on the stack (1 after a chain link). */
/* Whether instruction i, of code from instruction `from` on that has
 * `depth` values on the stack, only computes a value (no statement's
 * effect): the stack depth after it, or -1. */
static int value_step(const rec *r, uint32_t i, uint32_t from, int depth) {
    switch ((upy_nop)ins(r, i)->op) {
    case N_STORE:
        /* A walrus stores a copy of a value the block computed and
         * tests the value: part of it.  (A match case's capture
         * stores a copy of the subject, from before the block.) */
        if (i > from && ins(r, i - 1)->op == N_COPY &&
            ins(r, i - 1)->arg == 1 && depth >= 2)
            break;
        return -1;
    case N_STORE_ATTR:
    case N_STORE_SUBSCR:
    case N_STORE_SLICE:
    case N_DELETE:
    case N_DELETE_ATTR:
    case N_DELETE_SUBSCR:
    case N_POP_TOP:
    case N_IMPORT_NAME:
    case N_RAISE:
    case N_BEFORE_WITH:
        return -1;
    default:
        break;
    }
    depth += upy_nin_stack_effect(ins(r, i), 0);
    return depth < 0 ? -1 : depth;
}

static int test_values(const rec *r, int32_t b, int depth) {
    const upy_block *bb = blk(r, b);
    uint32_t i;
    if (ins(r, bb->end - 1)->op != N_POP_JUMP_IF)
        return 0;
    for (i = bb->start; i + 1 < bb->end; i++) {
        depth = value_step(r, i, bb->start, depth);
        if (depth < 0)
            return 0;
    }
    if (depth == 1)
        return 1;
    /* a < b < c: ... SWAP 2; COPY 2; COMPARE_OP, the middle kept. */
    if (depth == 2 && bb->end - bb->start >= 4 &&
        ins(r, bb->end - 2)->op == N_COMPARE &&
        ins(r, bb->end - 3)->op == N_COPY && ins(r, bb->end - 3)->arg == 2 &&
        ins(r, bb->end - 4)->op == N_SWAP && ins(r, bb->end - 4)->arg == 2)
        return 2;
    return 0;
}

/* Whether block h ends in the FOR_ITER of a comprehension 3.12+ inlined
 * in the code of the expression it is a value of, by its code: the
 * accumulator built empty and put under the iterator right before
 * (BUILD_LIST 0 / BUILD_SET 0 / BUILD_MAP 0; SWAP 2).  (rec_inlined_loop
 * checks the stack when it runs.) */
static int is_inlined_header(const rec *r, int32_t h) {
    const upy_block *hb = blk(r, h);
    uint32_t f = hb->end - 1;
    const upy_nin *build;
    if (ins(r, f)->op != N_FOR_ITER || (ins(r, f)->flags & N_ASYNC) ||
        hb->jump <= h || f < 2)
        return 0;
    build = ins(r, f - 2);
    return ins(r, f - 1)->op == N_SWAP && ins(r, f - 1)->arg == 2 &&
           (build->op == N_BUILD_LIST || build->op == N_BUILD_SET ||
            build->op == N_BUILD_MAP) &&
           build->arg == 0;
}

/* Where the code after an inlined comprehension's loop, from its exit at
 * instruction i, goes on past the stores that put back the locals it
 * saved (SWAP n + 1, then n stores); *depth loses them. */
static uint32_t past_restores(const rec *r, uint32_t i, uint32_t end,
                              int *depth) {
    uint32_t n, k;
    if (i >= end || ins(r, i)->op != N_SWAP || ins(r, i)->arg < 2)
        return i;
    n = (uint32_t)ins(r, i)->arg - 1;
    if (end - i - 1 < n)
        return i;
    for (k = 1; k <= n; k++)
        if (ins(r, i + k)->op != N_STORE)
            return i;
    *depth -= (int)n;
    return i + 1 + n;
}

/* Where the code after the loop of an inlined comprehension headed by
 * block h goes on from its exit, block b: past the jump over the
 * comprehension's cleanup handler (the loop's) when b is that jump.  compile.c
 * pop_inlined_comprehension_state lays the cleanup out in line, behind a jump
 * over it; 3.12+ flowgraph.c push_cold_blocks_to_end moves it after all other
 * code and drops the jump, unless the comprehension is cold code itself (an
 * except clause), moved with it in line.  (`except E:` / `if a and [x for x in
 * y]:`.) */
static int32_t past_cleanup_jump(const rec *r, int32_t h, int32_t b) {
    const upy_block *bb = blk(r, b);
    if (!rec_is_lone(r, bb, N_JUMP) || bb->jump <= b + 1 ||
        blk(r, h)->handler != b + 1 || !blk(r, b + 1)->is_handler ||
        !upy_cfg_entered_only_from(&r->cfg, b + 1, bb->jump, b + 1, bb->jump))
        return b;
    return bb->jump;
}

/* Whether the code of block bb before instruction end computes one value
 * and nothing else. */
static int pushes_one(const rec *r, const upy_block *bb, uint32_t end) {
    int depth = 0;
    uint32_t i;
    for (i = bb->start; i < end && depth >= 0; i++)
        depth = value_step(r, i, bb->start, depth);
    return depth == 1;
}

/* Where the two values of `x if c else y` meet, as part of a value whose
 * own operands are under the test c ending block b (`f(x if c else y)`):
 * the next block computes x and jumps to the join, the block b jumps to
 * computes y and runs into the join (compile.c compiler_ifexp); else
 * UPY_NO_BLOCK.  (Arms of more than one block are not followed.) */
static int32_t value_if_exp_join(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b), *x, *y;
    int32_t join = b + 3;
    if (bb->next != b + 1 || bb->jump != b + 2 || join >= (int32_t)r->cfg.count)
        return UPY_NO_BLOCK;
    x = blk(r, b + 1);
    y = blk(r, b + 2);
    if (ins(r, x->end - 1)->op != N_JUMP || x->jump != join ||
        y->next != join || y->jump != UPY_NO_BLOCK ||
        !upy_cfg_entered_only_from(&r->cfg, b + 1, join, b, b + 1) ||
        !pushes_one(r, x, x->end - 1) || !pushes_one(r, y, y->end))
        return UPY_NO_BLOCK;
    return join;
}

int32_t rec_flow_test_last(const rec *r, int32_t t) {
    int32_t b = t, join;
    int depth = 0, flows = 0, guard = 0;
    uint32_t i = blk(r, t)->start;
    while (b != UPY_NO_BLOCK && guard++ < 64) {
        const upy_block *bb = blk(r, b);
        const upy_nin *last = ins(r, bb->end - 1);
        /* (A loop's header is reached from its body too, the blocks up to
         * its exit; the block where `x or y` is complete, from each
         * operand.) */
        if (b != t &&
            !upy_cfg_entered_only_from(&r->cfg, b, b + 1, t,
                                       is_inlined_header(r, b) ? bb->jump : b))
            return UPY_NO_BLOCK;
        for (; i + 1 < bb->end; i++)
            if ((depth = value_step(r, i, bb->start, depth)) < 0)
                return UPY_NO_BLOCK;
        /* `x if c else y` in the value (`a or f(x if c else y)`): its
         * test on top of the value's operands, its arms one value. */
        if (last->op == N_POP_JUMP_IF && depth >= 2 &&
            (join = value_if_exp_join(r, b)) != UPY_NO_BLOCK) {
            b = join;
            i = blk(r, b)->start;
            flows++;
            continue;
        }
        if (last->op == N_POP_JUMP_IF)
            return flows && depth == 1 ? b : UPY_NO_BLOCK;
        /* (The blocks of the loop, or of the operands after the first,
         * up to where the value is complete, are its own.) */
        if (is_inlined_header(r, b) &&
            upy_cfg_entered_only_from(&r->cfg, b + 1, bb->jump, b, bb->jump)) {
            depth += upy_nin_stack_effect(last, 1);
            b = past_cleanup_jump(r, b, bb->jump);
            i = past_restores(r, blk(r, b)->start, blk(r, b)->end, &depth);
            flows++;
            continue;
        }
        /* `x or y` as a value (`(x or 0) >= 1`): x kept where it jumps. */
        if (last->op == N_JUMP_IF_OR_POP && bb->jump > b &&
            upy_cfg_entered_only_from(&r->cfg, b + 1, bb->jump, b, bb->jump)) {
            depth += upy_nin_stack_effect(last, 1);
            b = bb->jump;
            i = blk(r, b)->start;
            flows++;
            continue;
        }
        if (upy_nin_ends_block(last) || bb->next != b + 1 ||
            (depth = value_step(r, i, bb->start, depth)) < 0)
            return UPY_NO_BLOCK;
        b = bb->next;
        i = blk(r, b)->start;
    }
    return UPY_NO_BLOCK;
}

int rec_is_test_block(const rec *r, int32_t b) {
    return test_values(r, b, 0) == 1;
}

/* Where the POP_JUMP_IF ending block b goes when its test holds / fails,
 * without building the test. */
static void jump_targets(const rec *r, int32_t b, int32_t *on_true,
                         int32_t *on_false) {
    const upy_block *bb = blk(r, b);
    if (ins(r, bb->end - 1)->arg == UPY_JUMP_FALSE) {
        *on_true = bb->next;
        *on_false = bb->jump;
    } else {
        *on_true = bb->jump;
        *on_false = bb->next;
    }
}

static int32_t peek_through_jumps(const rec *r, int32_t b);

/* Where the cleanup block of a chained comparison (POP_TOP, then a jump
 * or on) leads.  A lone jump after a lone POP_TOP is gone through, as the
 * exception table may have split the two (3.13); *lone is that jump's
 * block, else UPY_NO_BLOCK. */
static int32_t chain_cleanup_exit(const rec *r, const upy_block *cb,
                                  int32_t *lone) {
    int32_t after;
    const upy_block *ab;
    *lone = UPY_NO_BLOCK;
    if (cb->end - cb->start != 1)
        return peek_through_jumps(r, cb->jump);
    after = cb->next;
    if (after == UPY_NO_BLOCK)
        return after;
    ab = blk(r, after);
    if (rec_is_lone(r, ab, N_JUMP) && !ab->is_loop_header && ab->npreds == 1) {
        *lone = after;
        return ab->jump;
    }
    return after;
}

/* Whether block b is a lone jump to block t. */
static int jumps_to(const rec *r, int32_t b, int32_t t) {
    const upy_block *bb;
    if (b == UPY_NO_BLOCK || t == UPY_NO_BLOCK)
        return 0;
    bb = blk(r, b);
    return rec_is_lone(r, bb, N_JUMP) && bb->jump == t;
}

/* Whether the POP_JUMP_IF ending block b tests for None. */
static int is_none_jump(const rec *r, int32_t b) {
    upy_jump_cond cond = (upy_jump_cond)ins(r, blk(r, b)->end - 1)->arg;
    return cond == UPY_JUMP_NONE || cond == UPY_JUMP_NOT_NONE;
}

/* Whether the cleanup block of a chained comparison goes on to block t:
 * to t itself, or to a copy of t, after the cleanup or in it (3.12+
 * copies a small exit block into the cleanup's way there). */
static int cleanup_leads_to(const rec *r, int32_t cleanup, int32_t t) {
    const upy_block *cb = blk(r, cleanup), *tb;
    int32_t lone, after = chain_cleanup_exit(r, cb, &lone);
    uint32_t n;
    if (after != UPY_NO_BLOCK)
        return rec_copies_of_exit(r, t, after) || jumps_to(r, t, after);
    if (t == UPY_NO_BLOCK)
        return 0;
    tb = blk(r, t);
    n = tb->end - tb->start;
    return cb->end - cb->start == n + 1 && n <= 4 &&
           (ins(r, tb->end - 1)->op == N_RETURN ||
            ins(r, tb->end - 1)->op == N_RAISE) &&
           rec_same_code(r, cb->start + 1, tb->start, n);
}

/* Where the test starting at block s goes when it holds / fails, looking
 * through the links of a chained comparison (whose failing jumps go to a
 * cleanup block that pops the middle operand and goes on).  Returns 0 when
 * s is not a test the network can take in. */
static int test_targets(const rec *r, int32_t s, int32_t *on_true,
                        int32_t *on_false, int32_t *last) {
    int guard = 0;
    int32_t cleanup = UPY_NO_BLOCK;
    *last = s;
    while (guard++ < 32) {
        int values = test_values(r, s, cleanup == UPY_NO_BLOCK ? 0 : 1);
        const upy_block *sb;
        if (!values && cleanup == UPY_NO_BLOCK &&
            (*last = rec_flow_test_last(r, s)) != UPY_NO_BLOCK) {
            jump_targets(r, *last, on_true, on_false);
            *on_true = peek_through_jumps(r, *on_true);
            *on_false = peek_through_jumps(r, *on_false);
            return 1;
        }
        if (!values)
            return 0;
        sb = blk(r, s);
        if (values == 1) {
            jump_targets(r, s, on_true, on_false);
            *on_true = peek_through_jumps(r, *on_true);
            *on_false = peek_through_jumps(r, *on_false);
            /* (A last link `x is None` holds either way: see chain_test.) */
            if (cleanup != UPY_NO_BLOCK && is_none_jump(r, s) &&
                cleanup_leads_to(r, cleanup, *on_true)) {
                int32_t x = *on_true;
                *on_true = *on_false;
                *on_false = x;
            }
            return cleanup == UPY_NO_BLOCK ||
                   cleanup_leads_to(r, cleanup, *on_false);
        }
        /* A chain link: fails into its cleanup (one for all links), holds
         * into the next. */
        if (ins(r, sb->end - 1)->arg != UPY_JUMP_FALSE ||
            sb->jump == UPY_NO_BLOCK || sb->next == UPY_NO_BLOCK ||
            ins(r, blk(r, sb->jump)->start)->op != N_POP_TOP ||
            (cleanup != UPY_NO_BLOCK && sb->jump != cleanup))
            return 0;
        cleanup = sb->jump;
        s = sb->next;
    }
    return 0;
}

/* The test of the POP_JUMP_IF ending block b, with the value already on
 * the stack: what it tests for reaching *on_true. */
static upy_expr *jump_test(rec *r, int32_t b, upy_expr *value, int32_t *on_true,
                           int32_t *on_false) {
    const upy_block *bb = blk(r, b);
    const upy_nin *j = ins(r, bb->end - 1);
    switch ((upy_jump_cond)j->arg) {
    case UPY_JUMP_FALSE:
        *on_true = bb->next;
        *on_false = bb->jump;
        return value;
    case UPY_JUMP_TRUE:
        *on_true = bb->jump;
        *on_false = bb->next;
        return value;
    case UPY_JUMP_NONE:
        *on_true = bb->jump;
        *on_false = bb->next;
        return compare1(r, UPY_CMP_IS, value, rec_const(r, r->none_object));
    case UPY_JUMP_NOT_NONE:
        *on_true = bb->jump;
        *on_false = bb->next;
        return compare1(r, UPY_CMP_IS_NOT, value, rec_const(r, r->none_object));
    }
    return value;
}

/* A chained comparison in a test: the comparison popped, its middle
 * operand still on the stack, the fall-through block compares it with the
 * next operand and the jump goes to a cleanup block (POP_TOP, then on to
 * where the test fails).  Extends *test and its outcomes; 1 when it was
 * one. */
static int chain_test(rec *r, rec_cond *c, const region *rg, upy_ptr_vec *out) {
    /* Where the last link read jumps: a link in the middle of the chain
     * (a < b < c < d) fails into the cleanup too, and holds into the next
     * link; c's outcomes are those of the whole test. */
    int32_t link_false = c->on_false, link_true = c->on_true;
    while (c->test->kind == UPY_E_COMPARE && r->sp > rg->base &&
           is_chain_middle(rec_peek(r, 1), c->test)) {
        int32_t cleanup = link_false, next = link_true;
        const upy_block *cb, *nb;
        upy_expr *more;
        int32_t t_true, t_false, lone, after;
        int stop;

        if (cleanup == UPY_NO_BLOCK || next == UPY_NO_BLOCK)
            return 0;
        cb = blk(r, cleanup);
        nb = blk(r, next);
        if (ins(r, cb->start)->op != N_POP_TOP)
            return 0;
        stop = rec_run(r, nb->start, nb->end - 1, rg, out);
        if (stop != (int)nb->end - 1 ||
            ins(r, nb->end - 1)->op != N_POP_JUMP_IF)
            return 0;
        after = chain_cleanup_exit(r, cb, &lone);
        if (is_none_jump(r, next)) {
            /* A last link `x is None` is that jump on x itself, which
             * tests `is None` and `is not None` alike: the one that holds
             * where the chain goes on, away from the cleanup's way. */
            more =
                jump_test(r, next, rec_value(r, rec_pop(r)), &t_true, &t_false);
            if (cleanup_leads_to(r, cleanup, peek_through_jumps(r, t_true))) {
                int32_t x = t_true;
                t_true = t_false;
                t_false = x;
                more = rec_negate(r, more);
            }
        } else {
            more = rec_value(r, rec_pop(r));
            if (more->kind == UPY_E_COMPARE)
                (void)jump_test(r, next, more, &t_true, &t_false);
        }
        if (more->kind != UPY_E_COMPARE)
            return 0;
        r->done[next] = 1;
        r->done[cleanup] = 1;
        c->test = extend_chain(r, c->test, more);
        link_true = t_true;
        link_false = t_false;
        c->chain_cleanup = cleanup;
        c->chain_fail = t_false;
        c->on_true = through_jumps(r, t_true);
        /* The cleanup block pops the middle operand, then goes where the
         * failed test goes. */
        c->on_false = after;
        if (lone != UPY_NO_BLOCK)
            r->done[lone] = 1;
        else if (cb->end - cb->start != 1)
            (void)through_jumps(r, cb->jump);
        if (c->on_false == UPY_NO_BLOCK || jumps_to(r, t_false, c->on_false)) {
            /* (The cleanup jumping straight where the lone jump the last
             * link fails to goes, as back to a loop's header (3.11), fails
             * the test where other tests fail: to that jump.) */
            c->on_false = t_false;
        } else if (t_false != c->on_false &&
                   rec_copies_of_exit(r, t_false, c->on_false)) {
            /* Two copies of one exit, the cleanup's way on and the last
             * link's failing jump: the test goes on to the one other code
             * reaches too, the other is the test's alone. */
            if (lone == UPY_NO_BLOCK && cb->next == after &&
                blk(r, after)->npreds == 1) {
                r->done[after] = 1;
                c->on_false = t_false;
            } else {
                r->done[t_false] = 1;
            }
        }
        c->last = next > c->last ? next : c->last;
    }
    return 1;
}

/* Whether blocks a and b are copies of the RERAISE that ends a finally
 * body in its handler, each made for a jump to it (3.10+
 * duplicate_exits_without_lineno, compile.c, flowgraph.c from 3.12: the
 * block has no line of its own): lone RERAISEs of one operand under one
 * handler.  Read as two exits, `if a and b: g()` ending the finally body
 * came out as nested ifs, and on 3.12+ `if a or (b and c): g()` as `if
 * not a: (if b: if c: pass)` / `else: g()`, g() lost where a is false
 * and b and c true (textual MessagePump._process_messages_loop). */
static int reraise_copies(const rec *r, int32_t a, int32_t b) {
    const upy_block *ab = blk(r, a), *bb = blk(r, b);
    return rec_is_lone(r, ab, N_RERAISE) && rec_is_lone(r, bb, N_RERAISE) &&
           ins(r, ab->start)->arg == ins(r, bb->start)->arg &&
           ab->handler == bb->handler && !upy_cfg_falls_into(&r->cfg, a) &&
           !upy_cfg_falls_into(&r->cfg, b);
}

/* Whether control reaching a or b does the same: the same block, or two
 * copies of one exit block (the compiler copies a small exit block into
 * each jump to it, so the two outcomes of `if a and b: ... ` at the end of
 * a function can be two `return None` blocks).  The copy not used is
 * marked done. */
static int same_dest(rec *r, int32_t a, int32_t b) {
    const upy_block *ab, *bb;
    const upy_nin *first;
    uint32_t n;
    int none;
    if (a == b)
        return 1;
    if (a == UPY_NO_BLOCK || b == UPY_NO_BLOCK)
        return 0;
    ab = blk(r, a);
    bb = blk(r, b);
    n = ab->end - ab->start;
    if (reraise_copies(r, a, b))
        return 1;
    /* (A class body has no return of its own: each is a copy of its end,
     * which 3.13 makes six instructions long with a __classcell__.) */
    if (n != bb->end - bb->start || (n > 4 && !r->is_class_body) ||
        ins(r, ab->end - 1)->op != N_RETURN ||
        !rec_same_code(r, ab->start, bb->start, n))
        return 0;
    first = ins(r, ab->start);
    /* A NOP dropped before each on a line of its own: the mark of two
     * statements that left no code there (the breaks of a `while True:`,
     * each made a NOP before its copy of the code after the loop), not
     * one copied. */
    if (first->lead_line != ins(r, bb->start)->lead_line)
        return 0;
    none = n == 2 && upy_nin_loads_none(first);
    /* inline_small_exit_blocks copies a block with its lines: two returns
     * on one line are copies of one statement, one made for a jump, the
     * other maybe the block itself, fallen into (the then-body of `if a or
     * b < c < d: return 0`, which the test's first link jumps to a copy
     * of).  The implicit return's copies take their jump's line instead
     * (duplicate_exits_without_lineno). */
    if (!none && !r->is_class_body && first->line >= 0 &&
        rec_same_lines(r, ab->start, bb->start, n) &&
        (!upy_cfg_falls_into(&r->cfg, a) || !upy_cfg_falls_into(&r->cfg, b)))
        return 1;
    /* Else a copy is made for a jump; a then-body reached by falling
     * through is a statement of its own (`if a: return 0` / `if b: return
     * 0`), and two returns of a value on different lines are two. */
    return (none || r->is_class_body) && !upy_cfg_falls_into(&r->cfg, a) &&
           !upy_cfg_falls_into(&r->cfg, b);
}

/* A test written one way.  In a test the compiler turns each `not` into
 * the opposite jump, so `not (a and b)` and `not a or not b` make the same
 * code -- except at a leaf `x in y` / `x is y`: its negation is folded
 * into the other opcode (`x not in y`, CONTAINS_OP 1), so such a leaf read
 * from the code must stay as it is and a negation of it be written by a
 * `not` around the and / or above it. */
typedef struct polar {
    upy_expr *e;
    uint32_t flips; /* in / is leaves negated: each changes the code */
    uint32_t nots;  /* `not`s written: fewer reads closer to the source */
} polar;

/* Whether p is better than q: fewer flips, then fewer `not`s. */
static int better(polar p, polar q) {
    return p.flips != q.flips ? p.flips < q.flips : p.nots < q.nots;
}

/* The test of a leaf (what one conditional jump tests) and its negation.
 * A `x is None` read from POP_JUMP_IF_NONE turns around for free: the
 * compiler makes that jump from `is None` and `is not None` alike. */
static void leaf_polar(rec *r, int32_t b, upy_expr *test, polar *pos,
                       polar *neg) {
    upy_jump_cond cond = (upy_jump_cond)ins(r, blk(r, b)->end - 1)->arg;
    int is_not = test->kind == UPY_E_UNARYOP && test->u.unary.op == UPY_UOP_NOT;
    pos->e = test;
    pos->flips = 0;
    pos->nots = is_not;
    neg->e = rec_negate(r, test);
    neg->flips = 0;
    neg->nots = !is_not;
    if (test->kind == UPY_E_COMPARE && test->u.compare.n == 1 &&
        neg->e->kind == UPY_E_COMPARE) {
        /* rec_negate() turned the operator around. */
        neg->nots = 0;
        neg->flips = cond != UPY_JUMP_NONE && cond != UPY_JUMP_NOT_NONE;
    }
}

static polar wrap_not(rec *r, polar p) {
    polar n;
    if (p.e->kind == UPY_E_UNARYOP && p.e->u.unary.op == UPY_UOP_NOT) {
        n.e = p.e->u.unary.operand;
        n.nots = p.nots - 1;
    } else {
        n.e = new_expr(r, UPY_E_UNARYOP);
        if (!n.e)
            return p;
        n.e->u.unary.op = UPY_UOP_NOT;
        n.e->u.unary.operand = p.e;
        n.nots = p.nots + 1;
    }
    n.flips = p.flips;
    return n;
}

static polar join(rec *r, int is_and, polar a, polar b) {
    polar j;
    j.e = boolop(r, is_and, a.e, b.e);
    j.flips = a.flips + b.flips;
    j.nots = a.nots + b.nots;
    return j;
}

/* x and y (or x or y) in both polarities, each the better of the plain
 * form and the negation of the other (De Morgan) under a `not`. */
static void combine(rec *r, int is_and, polar xpos, polar xneg, polar ypos,
                    polar yneg, polar *pos, polar *neg) {
    polar p = join(r, is_and, xpos, ypos), n = join(r, !is_and, xneg, yneg);
    polar np = wrap_not(r, n), nn = wrap_not(r, p);
    *pos = better(np, p) ? np : p;
    *neg = better(nn, n) ? nn : n;
}

/* One test of a condition network: blocks [block, last] compute it and
 * jump on; its test both ways. */
typedef struct net_node {
    int32_t block, last, cleanup;
    polar test, negated;
    int32_t on_true, on_false;
    int live;
} net_node;

#define MAX_NETWORK 64

static int in_network(const net_node *nodes, int n, int32_t b) {
    int k;
    for (k = 0; k < n; k++)
        if (b >= nodes[k].block && b <= nodes[k].last)
            return 1;
        else if (b == nodes[k].cleanup)
            return 1;
    return 0;
}

/* Whether block p is the cleanup of a chained comparison that jumps on
 * past the test its last link holds into, laid out right after it:
 * POP_TOP; JUMP, the chain being the first operand of an `and` inside an
 * `or` (`if lo <= n <= hi and c or d:`, sqlglot _simplify_integer_cast).
 * (Where the link holds into the body of an if, `if a < b < c: return` +
 * `if d: ...`, the next statement's test is no part of this condition.) */
static int is_cleanup_jump(const rec *r, int32_t p) {
    const upy_block *pb = blk(r, p);
    return pb->end - pb->start == 2 && ins(r, pb->start)->op == N_POP_TOP &&
           ins(r, pb->start + 1)->op == N_JUMP && pb->jump > p + 1 &&
           rec_is_test_block(r, p + 1);
}

/* Whether block p is in the network, or is a lone jump or a lone POP_TOP
 * only members go to: a chained comparison that fails into the next test
 * pops its middle operand there, the last link's failing way jumping over
 * that cleanup (`if a < b < c or d:`).  (A cleanup that jumps on is left
 * out: the next test may then be an if statement of its own.) */
static int reached_from_network(const rec *r, const net_node *nodes, int n,
                                int32_t p) {
    const upy_block *pb = blk(r, p);
    uint32_t k;
    if (in_network(nodes, n, p))
        return 1;
    if (!pb->npreds ||
        !(is_forwarding_jump(r, p) || rec_is_lone(r, pb, N_POP_TOP) ||
          is_cleanup_jump(r, p)))
        return 0;
    for (k = 0; k < pb->npreds; k++)
        if (!in_network(nodes, n, pb->preds[k]))
            return 0;
    return 1;
}

/* Blocks that can join the network: pure tests (or chain links) reached
 * only from blocks already in it. */
static int is_bottom_test(int32_t t, int32_t target, const region *rg) {
    return target != UPY_NO_BLOCK && target <= t && target != rg->cont;
}

static int collect_network(rec *r, int32_t b, uint32_t start, const region *rg,
                           net_node *nodes, int n) {
    int changed = 1;
    /* Whether the whole condition is a while loop's test. */
    int whole_loop_test = rec_while_test_at(r, start) != UPY_NO_BLOCK;
    /* For each member, its targets (bit j: targets[j]) that can never
     * join: all but the test of their predecessors gives the same answer
     * on each pass (the network only grows), which asked test_targets and
     * rec_while_test_at again on each pass. */
    uint8_t never[MAX_NETWORK];
    memset(never, 0, sizeof never);
    while (changed && n < MAX_NETWORK) {
        int k;
        changed = 0;
        for (k = 0; k < n && n < MAX_NETWORK; k++) {
            int32_t targets[2], j;
            targets[0] = nodes[k].on_true;
            targets[1] = nodes[k].on_false;
            for (j = 0; j < 2 && n < MAX_NETWORK; j++) {
                int32_t t = targets[j], t_true, t_false, t_last;
                const upy_block *tb;
                uint32_t p;
                int ok = 1;
                if (never[k] & (1u << j))
                    continue;
                never[k] |= (uint8_t)(1u << j);
                /* (A block whose code is skipped is a copy a statement
                 * around took as its own: the bottom copy of a while
                 * loop's test, structure_while.) */
                if (t == UPY_NO_BLOCK || t <= b || t >= rg->end || r->done[t] ||
                    r->skip[blk(r, t)->start] || in_network(nodes, n, t) ||
                    blk(r, t)->handler != blk(r, b)->handler ||
                    !test_targets(r, t, &t_true, &t_false, &t_last))
                    continue;
                /* A test that jumps back, elsewhere than where `continue`
                 * goes, is a while loop's test copied to the bottom of its
                 * body: the end of the body, not more of this condition
                 * (`if c: break` as the body's last statement goes on into
                 * it). */
                if (is_bottom_test(t, t_true, rg) ||
                    is_bottom_test(t, t_false, rg))
                    continue;
                /* A test that starts a while loop's own test is the loop's
                 * (`if a: while b:` tests a, then b, both failing to where
                 * the if ends), unless the loop tests the whole condition
                 * (`while a and b:`). */
                if (!whole_loop_test &&
                    rec_while_test_at(r, blk(r, t)->start) != UPY_NO_BLOCK)
                    continue;
                tb = blk(r, t);
                if (!tb->npreds)
                    continue;
                never[k] &= (uint8_t) ~(1u << j);
                for (p = 0; p < tb->npreds && ok; p++)
                    ok = reached_from_network(r, nodes, n, tb->preds[p]);
                if (!ok)
                    continue;
                nodes[n].block = t;
                nodes[n].last = t_last;
                nodes[n].cleanup = UPY_NO_BLOCK;
                nodes[n].on_true = t_true;
                nodes[n].on_false = t_false;
                nodes[n].live = 1;
                n++;
                changed = 1;
            }
        }
    }
    return n;
}

/* Runs the blocks of a network member whose test runs through control
 * flow of its own value (rec_flow_test_last: the loops of inlined
 * comprehensions, `x or y` values, conditional expressions), up to the
 * POP_JUMP_IF ending its last block; its value is then on the stack.  Where
 * that flow reads as no value after all (rec_inlined_loop finds no
 * accumulator), the member is marked and its value missing. */
static int run_through_flow(rec *r, const net_node *node, const region *rg,
                             upy_ptr_vec *out) {
    int32_t b = node->block, next, on;
    rec_resume way = {UPY_NO_BLOCK, 0};
    uint32_t from = blk(r, b)->start, entry = r->sp;
    const upy_block *lb = blk(r, node->last);
    int stop, st = 0;
    while (b != node->last && !st) {
        const upy_block *bb = blk(r, b);
        stop = rec_run(r, from, bb->end, rg, out);
        if (stop < 0)
            return ERROR;
        r->done[b] = 1;
        next = bb->next;
        if ((uint32_t)stop != bb->end) {
            upy_nop op = (upy_nop)ins(r, (uint32_t)stop)->op;
            st = (uint32_t)stop + 1 != bb->end ||
                 (op != N_FOR_ITER && op != N_JUMP_IF_OR_POP &&
                  op != N_POP_JUMP_IF);
            if (!st && op == N_FOR_ITER)
                st = rec_inlined_loop(r, b, rg, &next, out);
            else if (!st) {
                st = rec_cond_expr(r, b, rg, &way, out);
                next = way.block;
            }
            if (st < 0)
                return ERROR;
            st = st ||
                 next != (op == N_POP_JUMP_IF ? value_if_exp_join(r, b)
                                              : bb->jump) ||
                 (op != N_FOR_ITER && way.at != blk(r, next)->start);
            /* (The jump over the loop's cleanup is the loop's.) */
            if (!st && op == N_FOR_ITER &&
                (on = past_cleanup_jump(r, b, next)) != next) {
                r->done[next] = 1;
                next = on;
            }
        }
        b = next;
        if (b == UPY_NO_BLOCK) {
            st = 1;
            break;
        }
        from = blk(r, b)->start;
    }
    if (!st) {
        stop = rec_run(r, from, lb->end - 1, rg, out);
        if (stop < 0)
            return ERROR;
        st = (uint32_t)stop + 1 != lb->end || r->sp != entry + 1;
    }
    r->done[node->last] = 1;
    if (!st)
        return SUCCESS;
    rec_unrecovered(r, out, blk(r, node->block)->start, lb->end,
                    "expression");
    r->sp = entry;
    return rec_push(r, SV_VALUE, rec_placeholder(r));
}

/* Runs a network member's block and reads its test (and, for a chain
 * link, the rest of the chain). */
static int evaluate_node(rec *r, net_node *node, const region *rg,
                         upy_ptr_vec *out) {
    const upy_block *nb = blk(r, node->last);
    rec_cond link;
    int chained;
    if (node->last != node->block) {
        RETURN_IF_ERROR(run_through_flow(r, node, rg, out));
        link.first = node->block;
        link.last = node->last;
        link.chain_cleanup = link.chain_fail = UPY_NO_BLOCK;
        link.test = jump_test(r, node->last, rec_value(r, rec_pop(r)),
                              &link.on_true, &link.on_false);
        leaf_polar(r, node->last, link.test, &node->test, &node->negated);
        return SUCCESS;
    }
    if (rec_run(r, nb->start, nb->end - 1, rg, out) != (int)nb->end - 1)
        return ERROR;
    r->done[node->block] = 1;
    link.first = link.last = node->block;
    link.chain_cleanup = link.chain_fail = UPY_NO_BLOCK;
    link.test = jump_test(r, node->block, rec_value(r, rec_pop(r)),
                          &link.on_true, &link.on_false);
    if (link.on_false != UPY_NO_BLOCK &&
        ins(r, blk(r, link.on_false)->start)->op == N_POP_TOP)
        node->cleanup = link.on_false;
    chained = chain_test(r, &link, rg, out);
    leaf_polar(r, node->block, link.test, &node->test, &node->negated);
    if (!chained)
        return SUCCESS;
    if (link.last == node->block)
        node->cleanup = UPY_NO_BLOCK;
    node->last = link.last;
    node->on_true = through_jumps(r, link.on_true);
    node->on_false = through_jumps(r, link.on_false);
    return SUCCESS;
}

/* How many live members jump to block t. */
static int pointers_to(const net_node *nodes, int n, int32_t t) {
    int k, count = 0;
    for (k = 0; k < n; k++)
        if (nodes[k].live)
            count += (nodes[k].on_true == t) + (nodes[k].on_false == t);
    return count;
}

static uint32_t min_flips(const net_node *x) {
    return x->test.flips < x->negated.flips ? x->test.flips : x->negated.flips;
}

/* Whether merged member x (before, ahead of merging y into it) is better
 * left as `if x: assert y`: y fails into an assertion, and one test of
 * both turns around an `in` / `is` leaf that the two apart keep.  (The
 * assert turns its own test around by the jump: `if a in b: assert c is
 * d` is neither `assert a not in b or c is d` nor `assert not (a in b and
 * c is not d)` in code.) */
static int splits_assert(const rec *r, const net_node *before,
                         const net_node *x, const net_node *y) {
    int k;
    int32_t outs[2];
    outs[0] = y->on_true;
    outs[1] = y->on_false;
    if (min_flips(x) <= min_flips(before) + min_flips(y))
        return 0;
    for (k = 0; k < 2; k++)
        if (outs[k] != UPY_NO_BLOCK &&
            ins(r, blk(r, outs[k])->start)->op == N_LOAD_ASSERTION_ERROR)
            return 1;
    return 0;
}

/* Merges member y into member x when x jumps to y and they share an
 * outcome: x and y, x or y, or (when the shared outcome is y's other one)
 * (not x) or y, (not x) and y -- each written the way that keeps its
 * leaves' code (combine()).  Returns 1 when merged. */
static int merge_nodes(rec *r, net_node *x, net_node *y) {
    net_node before = *x;
    if (x->on_true == y->block && same_dest(r, y->on_false, x->on_false)) {
        combine(r, 1, x->test, x->negated, y->test, y->negated, &x->test,
                &x->negated);
        x->on_true = y->on_true;
    } else if (x->on_true == y->block &&
               same_dest(r, y->on_true, x->on_false)) {
        combine(r, 0, x->negated, x->test, y->test, y->negated, &x->test,
                &x->negated);
        x->on_true = x->on_false;
        x->on_false = y->on_false;
    } else if (x->on_false == y->block &&
               same_dest(r, y->on_true, x->on_true)) {
        combine(r, 0, x->test, x->negated, y->test, y->negated, &x->test,
                &x->negated);
        x->on_false = y->on_false;
    } else if (x->on_false == y->block &&
               same_dest(r, y->on_false, x->on_true)) {
        combine(r, 1, x->negated, x->test, y->test, y->negated, &x->test,
                &x->negated);
        x->on_false = x->on_true;
        x->on_true = y->on_true;
    } else {
        return 0;
    }
    if (splits_assert(r, &before, x, y)) {
        *x = before;
        return 0;
    }
    y->live = 0;
    if (y->last > x->last)
        x->last = y->last;
    return 1;
}

static polar if_exp(rec *r, polar test, polar body, polar orelse) {
    polar p = test;
    p.e = new_expr(r, UPY_E_IFEXP);
    if (!p.e)
        return body;
    p.e->u.ifexp.test = test.e;
    p.e->u.ifexp.body = body.e;
    p.e->u.ifexp.orelse = orelse.e;
    p.flips = test.flips + body.flips + orelse.flips;
    p.nots = test.nots + body.nots + orelse.nots;
    return p;
}

/* The in / is leaves member m turns around written as an if of its own,
 * the code that follows it being the body. */
static uint32_t if_flips(const rec *r, const net_node *m) {
    int32_t ft = peek_through_jumps(r, blk(r, m->last)->next);
    return m->on_false == ft ? m->negated.flips : m->test.flips;
}

/* same_dest(), and with copies, also two copies of one small return
 * block that the branches of a conditional expression each run into:
 * 3.12+ copies the body of `if not (a if c else x in y): return` into the
 * end of a's test.  (Apart, as two ifs, the `in` would turn around.)  A
 * raise's copies stay two ifs: merged here, they left a function of pip's
 * package_finder.py (3.8-3.13) and of test_finalization.py (3.12)
 * unrecovered. */
static int same_exit(rec *r, int32_t a, int32_t b, int copies) {
    if (same_dest(r, a, b))
        return 1;
    return copies && a != UPY_NO_BLOCK && b != UPY_NO_BLOCK &&
           ins(r, blk(r, a)->end - 1)->op == N_RETURN &&
           rec_copies_of_exit(r, a, b);
}

/* Merges into member x the two members it jumps to, tests of their own
 * with the same two outcomes: `(a if x else b)` as a test.  The compiler
 * lays a out after x (x failing jumps to b), and a's way to its outcome
 * the other way than b's is a jump.  Returns 1 when merged. */
static int merge_if_exp(rec *r, net_node *nodes, int n, net_node *x) {
    int32_t body_block = peek_through_jumps(r, blk(r, x->last)->next);
    int32_t else_block = x->on_true == body_block ? x->on_false : x->on_true;
    net_node *a = NULL, *b = NULL;
    polar test, not_test, pos, neg, not_pos, not_neg;
    int k, same, copies;
    if (x->on_true != body_block && x->on_false != body_block)
        return 0;
    for (k = 0; k < n; k++) {
        if (!nodes[k].live || &nodes[k] == x)
            continue;
        if (nodes[k].block == body_block)
            a = &nodes[k];
        else if (nodes[k].block == else_block)
            b = &nodes[k];
    }
    if (!a || !b || pointers_to(nodes, n, a->block) != 1 ||
        pointers_to(nodes, n, b->block) != 1)
        return 0;
    copies = if_flips(r, a) + if_flips(r, b) > 0;
    same = same_exit(r, a->on_true, b->on_true, copies) &&
           same_exit(r, a->on_false, b->on_false, copies);
    if (!same && !(same_exit(r, a->on_true, b->on_false, copies) &&
                   same_exit(r, a->on_false, b->on_true, copies)))
        return 0;
    /* The test of x that leads to a, or not the other one: whichever
     * keeps the code of its leaves. */
    test = x->on_true == body_block ? x->test : x->negated;
    not_test = wrap_not(r, x->on_true == body_block ? x->negated : x->test);
    if (better(not_test, test))
        test = not_test;
    pos = if_exp(r, test, a->test, same ? b->test : b->negated);
    neg = if_exp(r, test, a->negated, same ? b->negated : b->test);
    /* Either polarity may read better as `not` around the other: `not (a
     * if x else y in z)` keeps the `in` of its leaf. */
    not_pos = wrap_not(r, neg);
    not_neg = wrap_not(r, pos);
    x->test = better(not_pos, pos) ? not_pos : pos;
    x->negated = better(not_neg, neg) ? not_neg : neg;
    x->on_true = a->on_true;
    x->on_false = a->on_false;
    if (copies) {
        /* The copy b runs into is the one after the whole test, where the
         * body of the if is laid out. */
        x->on_true = same ? b->on_true : b->on_false;
        x->on_false = same ? b->on_false : b->on_true;
    }
    a->live = b->live = 0;
    if (a->last > x->last)
        x->last = a->last;
    if (b->last > x->last)
        x->last = b->last;
    return 1;
}

int rec_condition(rec *r, int32_t b, const region *rg, rec_cond *c,
                  upy_ptr_vec *out) {
    net_node nodes[MAX_NETWORK];
    int n = 1, k, changed = 1;
    rec_cond first;

    /* The first test: its value is on the stack already. */
    first.first = first.last = b;
    first.start = c->start;
    first.test = jump_test(r, b, rec_value(r, rec_pop(r)), &first.on_true,
                           &first.on_false);
    first.negated = rec_negate(r, first.test);
    first.prefer_negated = first.prefer_test = 0;
    first.chain_cleanup = first.chain_fail = UPY_NO_BLOCK;
    *c = first;
    if (!chain_test(r, &first, rg, out))
        return SUCCESS;
    nodes[0].block = b;
    nodes[0].last = first.last;
    nodes[0].cleanup = UPY_NO_BLOCK;
    leaf_polar(r, b, first.test, &nodes[0].test, &nodes[0].negated);
    nodes[0].on_true = through_jumps(r, first.on_true);
    nodes[0].on_false = through_jumps(r, first.on_false);
    nodes[0].live = 1;

    /* The other members, evaluated in code order.  A chained comparison
     * in the middle (`a or b < c < d or e`) spans its links and cleanup
     * only once read: the test after it, which its last link jumps to
     * and its cleanup falls into, joins then. */
    for (k = 1, n = collect_network(r, b, c->start, rg, nodes, n); k < n;) {
        for (; k < n; k++) {
            int j;
            for (j = k + 1; j < n; j++)
                if (nodes[j].block < nodes[k].block) {
                    net_node t = nodes[j];
                    nodes[j] = nodes[k];
                    nodes[k] = t;
                }
            RETURN_IF_ERROR(evaluate_node(r, &nodes[k], rg, out));
        }
        n = collect_network(r, b, c->start, rg, nodes, n);
    }

    /* Reduce, innermost first. */
    while (changed) {
        changed = 0;
        for (k = n - 1; k >= 0 && !changed; k--) {
            int j;
            if (!nodes[k].live)
                continue;
            for (j = 1; j < n && !changed; j++) {
                if (j == k || !nodes[j].live ||
                    (nodes[k].on_true != nodes[j].block &&
                     nodes[k].on_false != nodes[j].block) ||
                    pointers_to(nodes, n, nodes[j].block) != 1)
                    continue;
                changed = merge_nodes(r, &nodes[k], &nodes[j]);
            }
        }
        for (k = n - 1; k >= 0 && !changed; k--)
            if (nodes[k].live)
                changed = merge_if_exp(r, nodes, n, &nodes[k]);
    }
    /* Members the entry did not absorb are tests of their own (an if
     * inside the branch): they are structured again later. */
    for (k = 1; k < n; k++) {
        if (nodes[k].live) {
            int32_t x;
            for (x = nodes[k].block; x <= nodes[k].last; x++)
                r->done[x] = 0;
            if (nodes[k].cleanup != UPY_NO_BLOCK)
                r->done[nodes[k].cleanup] = 0;
        }
    }
    c->first = b;
    c->last = nodes[0].last;
    c->test = nodes[0].test.e;
    c->negated = nodes[0].negated.e;
    c->prefer_negated = nodes[0].negated.flips < nodes[0].test.flips;
    c->prefer_test = nodes[0].test.flips < nodes[0].negated.flips;
    c->on_true = nodes[0].on_true;
    c->on_false = nodes[0].on_false;
    /* (Only a test that is the chain alone.) */
    c->chain_cleanup =
        c->last == first.last ? first.chain_cleanup : UPY_NO_BLOCK;
    c->chain_fail = first.chain_fail;
    /* The body of an if (or the first value of an if-else) is what follows
     * the test in the code: make on_true that.  A chained comparison's
     * failing end may be a copy of where the test goes (left for the copy
     * after its cleanup, see chain_test), which counts as that block:
     * `if a or not (p <= q <= r): return 1` / `return p` (3.12+), where
     * the fall-through copy of `return 1` is the body. */
    {
        int32_t ft = peek_through_jumps(r, blk(r, c->last)->next);
        int copy_of_false = c->on_false != ft && c->on_true != ft &&
                            rec_copies_of_exit(r, ft, c->on_false) &&
                            !rec_copies_of_exit(r, ft, c->on_true);
        if ((c->on_false == ft && c->on_true != ft) || copy_of_false) {
            int32_t t = c->on_true;
            c->on_true = c->on_false;
            c->on_false = t;
            c->test = nodes[0].negated.e;
            c->negated = nodes[0].test.e;
            c->prefer_negated = nodes[0].test.flips < nodes[0].negated.flips;
            c->prefer_test = nodes[0].negated.flips < nodes[0].test.flips;
        }
    }
    /* A test whose outcomes meet (`if t: pass`, the body gone): the jump
     * over the body tells which way it was written, the body being where
     * the test holds.  A jump when the value holds (or is None) skips it:
     * `if not v`, keeping the code of an `in` / `is` leaf. */
    if (c->on_true == c->on_false && c->first == c->last &&
        ins(r, blk(r, c->last)->end - 1)->op == N_POP_JUMP_IF &&
        ins(r, blk(r, c->last)->end - 1)->arg != UPY_JUMP_FALSE) {
        polar n = nodes[0].negated.flips > nodes[0].test.flips
                      ? wrap_not(r, nodes[0].test)
                      : nodes[0].negated;
        c->negated = c->test;
        c->test = n.e;
        c->prefer_negated = c->prefer_test = 0;
    }
    return SUCCESS;
}

/* --- expressions with control flow -------------------------------------- */

static int value_from(rec *r, int32_t b, uint32_t from, int32_t merge,
                      uint32_t stop_at, const region *rg, upy_ptr_vec *out);

/* The instruction a branch starting at block b ends with when it runs to
 * a return or raise without reaching `merge` (following fall-through and
 * forward jumps); -1 when it reaches `merge` or goes elsewhere. */
static int64_t branch_terminal(const rec *r, int32_t b, int32_t merge) {
    int guard = 0;
    while (b != UPY_NO_BLOCK && b != merge && guard++ < 256) {
        const upy_block *bb = blk(r, b);
        const upy_nin *last = ins(r, bb->end - 1);
        if (last->op == N_RETURN || last->op == N_RAISE ||
            last->op == N_RERAISE)
            return bb->end - 1;
        if (last->op == N_JUMP) {
            if (bb->jump <= b)
                return -1;
            b = bb->jump;
        } else if (last->op == N_POP_JUMP_IF) {
            /* A conditional expression nested in the branch, its own
             * branches ending in copies of the exit too (`a if t else b
             * if u else c` returned): its first branch's copy is where
             * the value of this branch is complete. */
            b = bb->next;
        } else if (last->op == N_FOR_ITER && is_inlined_header(r, b)) {
            /* An inlined comprehension's loop: one value of the branch. */
            b = bb->jump;
        } else if (last->op == N_JUMP_IF_OR_POP || last->op == N_FOR_ITER) {
            /* Other nested control flow: not a shape the compiler
             * duplicates. */
            return -1;
        } else {
            b = bb->next;
        }
    }
    return -1;
}

/* What the code [from, to) of one branch leaves on the stack, each
 * inlined comprehension's loop in it (from its FOR_ITER to its exit) one
 * value. */
static int branch_effect(const rec *r, uint32_t from, uint32_t to) {
    int d = 0;
    uint32_t i = from;
    while (i < to) {
        const upy_nin *in = ins(r, i);
        int32_t b = r->cfg.block_of[i];
        if (in->op == N_FOR_ITER && i + 1 == blk(r, b)->end &&
            is_inlined_header(r, b) && in->target > (int32_t)i) {
            d += upy_nin_stack_effect(in, 1);
            i = (uint32_t)in->target;
            continue;
        }
        d += upy_nin_stack_effect(in, 0);
        i++;
    }
    return d;
}

/* Whether two instructions do the same (a constant split from its return
 * or not: the flags may differ between copies). */
static int same_op(const upy_nin *x, const upy_nin *y) {
    return x->op == y->op && x->arg == y->arg && x->obj == y->obj;
}

/* Two branches that end in copies of the same exit block: the length of
 * their common tail that leaves exactly one value for it on each side.
 * `depth` is the stack depth at the start of both branches. */
static uint32_t common_tail(const rec *r, uint32_t start_a, uint32_t end_a,
                            uint32_t start_b, uint32_t end_b) {
    uint32_t k = 0, best = 0, offsets = 0;
    while (k <= end_a - start_a && k <= end_b - start_b) {
        const upy_nin *x = ins(r, end_a - k), *y = ins(r, end_b - k);
        if (!same_op(x, y))
            break;
        /* The compiler copies at most MAX_COPY_SIZE instructions of its
         * own (flowgraph.c inline_small_exit_blocks; a neutral one keeps
         * its source's offset): what comes before them is the branches'
         * own code, `(str(a + n if c else b + n),)`. */
        if (!k || x->offset != ins(r, end_a - k + 1)->offset)
            offsets++;
        if (offsets > MAX_COPY_SIZE)
            break;
        k++;
    }
    /* The tail must start where each branch has pushed exactly its one
     * value: try the longest first. */
    for (; k > 0; k--) {
        uint32_t ta = end_a - k + 1, tb = end_b - k + 1;
        if (branch_effect(r, start_a, ta) == 1 &&
            branch_effect(r, start_b, tb) == 1) {
            best = k;
            break;
        }
    }
    return best;
}

/* Where block b, run from instruction `from` with `held` values of the
 * branch already on the stack, ends in a copy of the small exit block
 * merge (a return) after its one value: the first instruction of the
 * copy, else UINT32_MAX.  3.8-3.11 copy the return into the last operand
 * of `return (a or b) if c else d`, the other operands jumping to it. */
static uint32_t copied_merge_at(const rec *r, int32_t b, uint32_t from,
                                int32_t merge, int32_t held) {
    const upy_block *bb = blk(r, b), *mb;
    uint32_t n, i;
    if (merge == UPY_NO_BLOCK || ins(r, bb->end - 1)->op != N_RETURN)
        return UINT32_MAX;
    mb = blk(r, merge);
    n = mb->end - mb->start;
    if (n > 4 || bb->end - from <= n || ins(r, mb->end - 1)->op != N_RETURN ||
        !rec_same_code(r, bb->end - n, mb->start, n))
        return UINT32_MAX;
    for (i = from; i < bb->end - n; i++)
        held += upy_nin_stack_effect(ins(r, i), 0);
    return held == 1 ? bb->end - n : UINT32_MAX;
}

/* Evaluates the instructions of one branch, from instruction `from` of
 * block b, until control reaches block `merge` (or instruction stop_at):
 * the branch's value is then on the stack.  Returns 1 when it stopped at
 * stop_at, 0 when it went on to merge (or gave up, marked), -1 on error. */
static int value_from(rec *r, int32_t b, uint32_t from, int32_t merge,
                      uint32_t stop_at, const region *rg, upy_ptr_vec *out) {
    int guard = 0;
    uint32_t entry = r->sp;
    while (b != UPY_NO_BLOCK && b != merge && guard++ < 4096) {
        const upy_block *bb = blk(r, b);
        uint32_t to = bb->end, copy;
        int stop;
        if (stop_at >= bb->start && stop_at < bb->end) {
            if (from > stop_at) {
                /* A nested value whose branches met past the tail the
                 * branches of this one share: they join at two points,
                 * no one expression.  3.12+ copies `LOAD_ATTR nan;
                 * RETURN` of `if a: return m.nan` and of `return m.nan
                 * if a == 1 else 0.0` after it, and `.nan` ends both, but
                 * the second value is complete only at its RETURN. */
                rec_unrecovered(r, out, bb->start, bb->end, "expression");
                return 0;
            }
            to = stop_at;
        }
        if (r->done[b] && from == bb->start) {
            /* Back to a block already evaluated: not an expression. */
            rec_unrecovered(r, out, bb->start, bb->end, "expression");
            return 0;
        }
        r->done[b] = 1;
        copy = copied_merge_at(r, b, from, merge, (int32_t)(r->sp - entry));
        if (to == bb->end && copy != UINT32_MAX) {
            /* The branch's value complete where the compiler copied the
             * exit block merge in: that copy is merge's. */
            stop = rec_run(r, from, copy, rg, out);
            if (stop < 0)
                return ERROR;
            if ((uint32_t)stop != copy)
                rec_unrecovered(r, out, bb->start, bb->end, "expression");
            return 0;
        }
        stop = rec_run(r, from, to, rg, out);
        if (stop < 0)
            return ERROR;
        if ((uint32_t)stop == stop_at)
            return 1;
        if ((uint32_t)stop == bb->end) {
            b = bb->next;
        } else {
            const upy_nin *last = ins(r, (uint32_t)stop);
            if (last->op == N_JUMP) {
                b = bb->jump;
            } else if (last->op == N_POP_JUMP_IF ||
                       last->op == N_JUMP_IF_OR_POP) {
                rec_resume resume;
                RETURN_IF_ERROR(rec_cond_expr(r, b, rg, &resume, out));
                b = resume.block;
                from = resume.at;
                /* A nested value that ends where the compiler copied the
                 * exit block `merge` in (3.12+): this branch's value is
                 * complete there too, and that copy is merge's. */
                if (b != UPY_NO_BLOCK && merge != UPY_NO_BLOCK && b != merge &&
                    from > blk(r, b)->start && from < blk(r, b)->end &&
                    blk(r, b)->end - from ==
                        blk(r, merge)->end - blk(r, merge)->start &&
                    ins(r, blk(r, b)->end - 1)->op == N_RETURN &&
                    rec_same_code(r, from, blk(r, merge)->start,
                                  blk(r, b)->end - from)) {
                    r->done[b] = 1;
                    /* (Its other branch may have run into merge itself,
                     * which it then took for a copy of its shared tail
                     * and marked done: merge is where this value goes
                     * on, in `r or (a if c else b)` returned.) */
                    r->done[merge] = 0;
                    return 0;
                }
                continue;
            } else if (last->op == N_FOR_ITER) {
                int32_t after;
                int st = rec_inlined_loop(r, b, rg, &after, out);
                if (st < 0)
                    return ERROR;
                if (st == NOT_THIS) {
                    rec_unrecovered(r, out, bb->start, bb->end, "expression");
                    return 0;
                }
                b = after;
            } else {
                /* A return or raise inside an expression's branch: not a
                 * shape this reducer knows. */
                rec_unrecovered(r, out, bb->start, bb->end, "expression");
                return 0;
            }
        }
        if (b != UPY_NO_BLOCK)
            from = blk(r, b)->start;
        if (stop_at != UINT32_MAX && b != UPY_NO_BLOCK &&
            stop_at == blk(r, b)->start)
            return 1;
    }
    return 0;
}

/* How many of the k instructions ending at `end` also end every return
 * or raise the branch from block b runs to, each way of a conditional
 * expression nested in it followed (the ways branch_terminal follows;
 * others tell nothing here).  The tail the branches share is what all of
 * them end with: in `(m.nan if a else m.nan if b else 0.0) if e else 1.5`
 * returned, 3.12+ copies the return into each branch, and `.nan; RETURN`
 * ends the first way of `m.nan if b else 0.0`, but not the second. */
static uint32_t tail_of_all(const rec *r, int32_t b, uint32_t end, uint32_t k,
                            int *budget) {
    while (b != UPY_NO_BLOCK && k && --*budget >= 0) {
        const upy_block *bb = blk(r, b);
        const upy_nin *last = ins(r, bb->end - 1);
        uint32_t n = 0;
        if (last->op == N_RETURN || last->op == N_RAISE ||
            last->op == N_RERAISE) {
            while (n < k && n < bb->end && n <= end &&
                   same_op(ins(r, bb->end - 1 - n), ins(r, end - n)))
                n++;
            return n;
        }
        if (last->op == N_POP_JUMP_IF && bb->jump > b)
            k = tail_of_all(r, bb->jump, end, k, budget);
        else if (last->op == N_JUMP && bb->jump > b)
            b = bb->jump;
        else if (last->op == N_FOR_ITER && is_inlined_header(r, b))
            b = bb->jump;
        else if (last->op == N_JUMP_IF_OR_POP || last->op == N_FOR_ITER ||
                 last->op == N_JUMP)
            return k;
        if (last->op != N_JUMP && last->op != N_FOR_ITER)
            b = bb->next;
    }
    return k;
}

/* Where an expression's branches meet.  Returns the join block, or
 * UPY_NO_BLOCK when they end in duplicated exits (then *tail_a / *tail_b
 * are where the common tails start). */
static int32_t join_of(rec *r, int32_t first, int32_t a, int32_t b,
                       uint32_t *tail_a, uint32_t *tail_b) {
    int32_t j = blk(r, first)->ipdom;
    int64_t ea, eb;
    uint32_t k;
    int budget = 256;
    *tail_a = *tail_b = UINT32_MAX;
    if (j != UPY_NO_BLOCK)
        return j;
    ea = branch_terminal(r, a, UPY_NO_BLOCK);
    eb = branch_terminal(r, b, UPY_NO_BLOCK);
    if (ea < 0 || eb < 0)
        return UPY_NO_BLOCK;
    k = common_tail(r, blk(r, a)->start, (uint32_t)ea, blk(r, b)->start,
                    (uint32_t)eb);
    k = tail_of_all(r, a, (uint32_t)ea, k, &budget);
    k = tail_of_all(r, b, (uint32_t)ea, k, &budget);
    if (k == 0)
        return UPY_NO_BLOCK;
    *tail_a = (uint32_t)ea - k + 1;
    *tail_b = (uint32_t)eb - k + 1;
    return UPY_NO_BLOCK;
}

/* Marks done the blocks of a duplicated tail starting at instruction t. */
static void mark_tail_done(rec *r, uint32_t t) {
    int32_t b = r->cfg.block_of[t];
    while (b != UPY_NO_BLOCK) {
        const upy_block *bb = blk(r, b);
        r->done[b] = 1;
        if (!upy_nin_falls_through(ins(r, bb->end - 1)) ||
            ins(r, bb->end - 1)->op != N_JUMP)
            break;
        b = bb->jump;
    }
}

/* The first block from b on, before target, that ends in a JUMP_IF_X_OR_POP
 * (X being `cond`) to target; UPY_NO_BLOCK if none. */
static int32_t next_keep_link(const rec *r, int32_t b, int32_t target,
                              int32_t cond) {
    for (; b != UPY_NO_BLOCK && b < target; b++) {
        const upy_nin *j = ins(r, blk(r, b)->end - 1);
        if (j->op == N_JUMP_IF_OR_POP && j->arg == cond &&
            blk(r, b)->jump == target)
            return b;
    }
    return UPY_NO_BLOCK;
}

/* Whether an operand, blocks b to link (whose JUMP_IF_X_OR_POP ends it),
 * holds a JUMP_IF_Y_OR_POP to that very jump: an and/or inside the
 * or/and whose jump the compiler did not thread to the next operand (Y
 * the other kind) or to the end (Y the same kind).  3.10-3.11 thread it
 * only where both jumps have one line (compile.c optimize_basic_block,
 * JUMP_IF_FALSE_OR_POP to JUMP_IF_TRUE_OR_POP or to another
 * JUMP_IF_FALSE_OR_POP): the inner and/or started another line.  Other
 * versions keep or thread the jump whatever the lines (the rules
 * table's threads_jumps_of_one_line). */
static int keeps_inner_link(const rec *r, int32_t b, int32_t link) {
    if (!r->ncode.layout->threads_jumps_of_one_line)
        return 0;
    for (; b < link; b++) {
        const upy_nin *j = ins(r, blk(r, b)->end - 1);
        if (j->op == N_JUMP_IF_OR_POP && blk(r, b)->jump == link)
            return 1;
    }
    return 0;
}

/* An and/or operand v of an and/or of the same kind (is_and) that the
 * compiler did not merge into it: its jumps end at its own test (3.12+
 * never thread a COPY; POP_JUMP_IF to the one after it, 3.10-3.11 only
 * on one line).  The source had it in parentheses; flat, its last value
 * would be tested once, not twice. */
static void keep_grouped(upy_expr *v, int is_and) {
    if (v->kind == UPY_E_BOOLOP && v->u.boolop.is_and == is_and)
        v->grouped = 1;
}

/* The operands after the first of `x and y and z ...` (or `or`, X being
 * `cond`), from block b to the join `target`, joined.  Each operand but
 * the last ends in the same jump to target: read one after another, not
 * each inside the one before, a chain of hundreds of operands (CPython
 * compiles them) nests no deeper than one.  A link found inside an
 * operand's own control flow (a conditional expression's branch that
 * jump threading sent to target) is read there, as part of the operand.
 * With `end` (else UPY_NO_BLOCK) the last operand is the one whose link
 * falls into block end: the operands of a threaded `(t and (x or y)) or
 * end`.  NULL on error. */
static upy_expr *keep_operands(rec *r, int32_t b, int32_t target,
                               int32_t cond, int32_t end, const region *rg,
                               upy_ptr_vec *out) {
    upy_ptr_vec operands = {0};
    upy_expr *v;
    for (;;) {
        int32_t link = next_keep_link(r, b, target, cond);
        uint32_t depth = r->sp;
        int st = value_from(r, b, blk(r, b)->start, target,
                            link != UPY_NO_BLOCK ? blk(r, link)->end - 1
                                                 : UINT32_MAX,
                            rg, out);
        if (st < 0)
            return NULL;
        if ((st == 1 && r->sp != depth + 1) ||
            (st == 0 && end != UPY_NO_BLOCK)) {
            /* Not an operand alone on the stack, or past the end: not a
             * shape known. */
            rec_unrecovered(r, out, blk(r, b)->start, blk(r, b)->end,
                            "expression");
            st = 0;
        }
        v = rec_value(r, rec_pop(r));
        if (st == 1 && v->kind == UPY_E_BOOLOP && keeps_inner_link(r, b, link))
            v->own_line = 1;
        if (st == 1)
            keep_grouped(v, cond == UPY_JUMP_FALSE);
        if (upy_vec_push(r->scratch, &operands, v)) {
            rec_oom(r);
            return NULL;
        }
        if (st == 0)
            break;
        r->done[link] = 1;
        b = blk(r, link)->next;
        if (b == UPY_NO_BLOCK) {
            /* The link ends the code (only malformed code does): no
             * operand follows it. */
            rec_unrecovered(r, out, blk(r, link)->start, blk(r, link)->end,
                            "expression");
            break;
        }
        if (b == end)
            break;
    }
    return operands.len == 1 ? operands.items[0]
                             : boolop_of(r, cond == UPY_JUMP_FALSE,
                                         (upy_expr *const *)operands.items,
                                         operands.len);
}

/* The block from b on, before end, that falls into end with a
 * JUMP_IF_X_OR_POP; UPY_NO_BLOCK if none. */
static int32_t keep_into(const rec *r, int32_t b, int32_t end) {
    for (; b != UPY_NO_BLOCK && b < end; b++)
        if (blk(r, b)->next == end &&
            ins(r, blk(r, b)->end - 1)->op == N_JUMP_IF_OR_POP)
            return b;
    return UPY_NO_BLOCK;
}

/* One threaded group `(t and k)` / `(t or k)` (see threaded_boolop): the
 * blocks of k, from kb to the block `last` whose link falls into rest, all
 * keep-jump to m when k is kept (keeps_true) . */
typedef struct threaded_group {
    int32_t kb, rest, last, m;
    int reach_true, keeps_true;
} threaded_group;

/* Whether the outcomes of a test reach a threaded group, the test's
 * outcome `reach_true` reaching k; fills *g. */
static int find_group(const rec *r, int32_t on_true, int32_t on_false,
                      int reach_true, threaded_group *g) {
    const upy_nin *j;
    g->kb = reach_true ? on_true : on_false;
    g->rest = reach_true ? on_false : on_true;
    g->reach_true = reach_true;
    if (g->kb == UPY_NO_BLOCK || g->rest == UPY_NO_BLOCK || r->done[g->kb])
        return 0;
    g->last = keep_into(r, g->kb, g->rest);
    if (g->last == UPY_NO_BLOCK)
        return 0;
    j = ins(r, blk(r, g->last)->end - 1);
    g->m = blk(r, g->last)->jump;
    g->keeps_true = j->arg == UPY_JUMP_TRUE;
    return next_keep_link(r, g->kb, g->m, j->arg) != UPY_NO_BLOCK;
}

/* `(reach and k)` or `(not reach or k)` of group g after test c. */
static upy_expr *group_value(rec *r, const rec_cond *c,
                             const threaded_group *g, const region *rg,
                             upy_ptr_vec *out) {
    upy_expr *kv = keep_operands(
        r, g->kb, g->m, g->keeps_true ? UPY_JUMP_TRUE : UPY_JUMP_FALSE,
        g->rest, rg, out);
    if (!kv)
        return NULL;
    if (g->keeps_true)
        return boolop(r, 1, g->reach_true ? c->test : c->negated, kv);
    return boolop(r, 0, g->reach_true ? c->negated : c->test, kv);
}

/* Whether block b is one test alone whose outcomes make another group
 * like g (to the same join, kept the same way): the next operand of
 * `(a0 or x0) and (a1 or x1) and ...`.  Its outcomes are no tests, so
 * rec_condition() reads b alone. */
static int next_group_at(const rec *r, int32_t b, const threaded_group *g,
                         threaded_group *next) {
    int32_t t, f;
    int k;
    if (b == UPY_NO_BLOCK || b >= g->m || r->done[b] ||
        test_values(r, b, 0) != 1 || is_none_jump(r, b))
        return 0;
    jump_targets(r, b, &t, &f);
    t = peek_through_jumps(r, t);
    f = peek_through_jumps(r, f);
    for (k = 1; k >= 0; k--)
        if (find_group(r, t, f, k, next) && next->m == g->m &&
            next->keeps_true == g->keeps_true && next->kb > b)
            return 1;
    return 0;
}

/* A value not recovered after all: block bb marked, nothing follows. */
static int gave_up(rec *r, const upy_block *bb, rec_resume *resume,
                   upy_ptr_vec *out) {
    rec_unrecovered(r, out, bb->start, bb->end, "expression");
    resume->block = UPY_NO_BLOCK;
    return 1;
}

/* A test whose true (or false) outcome goes to blocks that keep their
 * value and jump out, else fall to where the test's other outcome goes:
 * `(t and k) or rest` / `(t or k) and rest` after jump threading, k
 * itself maybe `x or y` (`x and y`) whose links all jump out.  Which
 * outcome of the test reaches k and which value of k is kept are
 * independent: the test may read either way round (`(a or k) and rest`
 * reaches k when a fails, and keeps k when k fails).  The test that
 * reaches k is `reach`: k kept when true is `(reach and k) or rest`, kept
 * when false `(not reach or k) and rest`.  When rest starts with another
 * such group, it is read here too, one group after another: a chain of
 * hundreds nests no deeper than one. */
static int threaded_boolop(rec *r, rec_cond *c, const region *rg,
                           rec_resume *resume, upy_ptr_vec *out) {
    threaded_group g, next;
    upy_ptr_vec operands = {0};
    upy_expr *v;
    int k;

    for (k = 1; k >= 0; k--)
        if (find_group(r, c->on_true, c->on_false, k, &g))
            break;
    if (k < 0)
        return 0;
    v = group_value(r, c, &g, rg, out);
    while (v && next_group_at(r, g.rest, &g, &next)) {
        const upy_block *nb = blk(r, g.rest);
        rec_cond nc;
        int stop = rec_run(r, nb->start, nb->end - 1, rg, out);
        if (stop < 0 || upy_vec_push(r->scratch, &operands, v))
            return stop < 0 ? ERROR : rec_oom(r);
        r->done[g.rest] = 1;
        nc.start = 0;
        if (stop != (int)nb->end - 1 || rec_condition(r, g.rest, rg, &nc, out))
            return gave_up(r, nb, resume, out);
        for (k = 1; k >= 0; k--)
            if (find_group(r, nc.on_true, nc.on_false, k, &next) &&
                next.m == g.m && next.keeps_true == g.keeps_true)
                break;
        /* (next_group_at saw the same outcomes.) */
        if (k < 0)
            return gave_up(r, nb, resume, out);
        v = group_value(r, &nc, &next, rg, out);
        g = next;
    }
    if (!v ||
        value_from(r, g.rest, blk(r, g.rest)->start, g.m, UINT32_MAX, rg,
                   out) < 0)
        return ERROR;
    if (upy_vec_push(r->scratch, &operands, v) ||
        upy_vec_push(r->scratch, &operands, rec_value(r, rec_pop(r))))
        return rec_oom(r);
    RETURN_IF_ERROR(
        rec_push(r, SV_VALUE,
                 boolop_of(r, !g.keeps_true, (upy_expr *const *)operands.items,
                           operands.len)));
    resume->block = g.m;
    resume->at = g.m != UPY_NO_BLOCK ? blk(r, g.m)->start : 0;
    return 1;
}

/* Where the last link of a chained comparison, from instruction `from` of
 * a block ending at `end`, has its value: after the comparison that
 * replaces the middle operand with its result.  3.12+ can copy the exit
 * block the chain's value goes to (a store, a return) right after it.
 * A link that keeps its operand for the next one runs to the end. */
static uint32_t last_link_end(const rec *r, uint32_t from, uint32_t end) {
    int32_t depth = 0;
    uint32_t i;
    for (i = from; i < end; i++) {
        depth += upy_nin_stack_effect(ins(r, i), 0);
        if (ins(r, i)->op == N_COMPARE && depth == 0)
            return i + 1;
    }
    return end;
}

/* JUMP_IF_X_OR_POP ending block b: `x and rest` / `x or rest`, where rest
 * is what the fall-through computes up to the jump target; a chained
 * comparison when the comparison's middle operand waits below x. */
static int keep_jump(rec *r, int32_t b, const region *rg, rec_resume *resume,
                     upy_ptr_vec *out) {
    const upy_block *bb = blk(r, b);
    const upy_nin *j = ins(r, bb->end - 1);
    sval x = rec_pop(r);
    int32_t target = bb->jump;
    upy_expr *rest;

    if (j->arg == UPY_JUMP_FALSE && x.expr && x.expr->kind == UPY_E_COMPARE &&
        is_chain_middle(rec_peek(r, 1), x.expr)) {
        /* a < b < c: the fall-through compares the middle operand with
         * the next one; the jump goes to a cleanup (SWAP 2; POP_TOP). */
        upy_expr *chain = x.expr;
        int32_t cleanup = target, cur = bb->next;
        while (cur != UPY_NO_BLOCK) {
            const upy_block *cb = blk(r, cur);
            int stop = rec_run(r, cb->start,
                               last_link_end(r, cb->start, cb->end), rg, out);
            upy_expr *more;
            if (stop < 0)
                return ERROR;
            r->done[cur] = 1;
            more = rec_value(r, rec_pop(r));
            if (more->kind != UPY_E_COMPARE)
                break;
            chain = extend_chain(r, chain, more);
            if ((uint32_t)stop < cb->end &&
                ins(r, (uint32_t)stop)->op == N_JUMP_IF_OR_POP &&
                cb->jump == cleanup && is_chain_middle(rec_peek(r, 1), more)) {
                cur = cb->next;
                continue;
            }
            /* The end of the chain: a jump over the cleanup, or (3.12+)
             * the exit block duplicated right here. */
            r->done[cleanup] = 1;
            RETURN_IF_ERROR(rec_push(r, SV_VALUE, chain));
            if ((uint32_t)stop < cb->end &&
                ins(r, (uint32_t)stop)->op == N_JUMP) {
                resume->block = cb->jump;
                resume->at = blk(r, cb->jump)->start;
            } else {
                resume->block = cur;
                resume->at = (uint32_t)stop;
                r->done[cur] = 0;
                /* The cleanup's copy of the tail is not walked. */
                mark_tail_done(r, blk(r, cleanup)->start);
            }
            return SUCCESS;
        }
        rec_unrecovered(r, out, bb->start, bb->end, "chained comparison");
        return SUCCESS;
    }
    /* x an and/or whose jumps end here, at the test of its value, not
     * threaded past it: `(a or b) or c` (kept apart from this one), or on
     * 3.10-3.11 an and/or on lines of its own (keeps_inner_link). */
    if (x.expr && x.expr->kind == UPY_E_BOOLOP) {
        keep_grouped(x.expr, j->arg == UPY_JUMP_FALSE);
        if (r->ncode.layout->threads_jumps_of_one_line)
            x.expr->own_line = 1;
    }
    if (bb->next == UPY_NO_BLOCK) {
        /* The jump ends the code (only malformed code does): no operand
         * follows it. */
        rec_unrecovered(r, out, bb->start, bb->end, "expression");
        return SUCCESS;
    }
    rest = keep_operands(r, bb->next, target, j->arg, UPY_NO_BLOCK, rg, out);
    if (!rest)
        return ERROR;
    RETURN_IF_ERROR(
        rec_push(r, SV_VALUE,
                 boolop(r, j->arg == UPY_JUMP_FALSE, rec_value(r, x), rest)));
    resume->block = target;
    resume->at = target != UPY_NO_BLOCK ? blk(r, target)->start : 0;
    return SUCCESS;
}

/* The value of one branch of `x if test else y`, from block b to the join
 * (or the tail the branches share): *v.  NOT_THIS when the branch is no
 * value: it did not leave exactly one on the stack, or it emitted a
 * statement, without a mark of its own saying why. */
static int branch_value(rec *r, int32_t b, int32_t join, uint32_t tail,
                        const region *rg, upy_expr **v, upy_ptr_vec *out) {
    uint32_t depth = r->sp, len = out->len;
    unsigned marks = r->unrecovered;
    /* (A test with no way there: crafted code, found by the fuzzer.) */
    if (b == UPY_NO_BLOCK || b >= (int32_t)r->cfg.count)
        return NOT_THIS;
    if (value_from(r, b, blk(r, b)->start, join, tail, rg, out) < 0)
        return ERROR;
    if (r->unrecovered == marks && (r->sp != depth + 1 || out->len != len))
        return NOT_THIS;
    *v = rec_value(r, rec_pop(r));
    r->sp = depth;
    return SUCCESS;
}

static int cond_expr(rec *r, int32_t b, const region *rg, rec_resume *resume,
                     upy_ptr_vec *out);

int rec_cond_expr(rec *r, int32_t b, const region *rg, rec_resume *resume,
                  upy_ptr_vec *out) {
    int st;
    /* (Where an expression could not be recovered, nothing follows.) */
    resume->block = UPY_NO_BLOCK;
    resume->at = 0;
    if (r->nesting >= REC_MAX_NESTING) {
        rec_unrecovered(r, out, blk(r, b)->start, blk(r, b)->end,
                        "expression (nested too deep)");
        return SUCCESS;
    }
    r->nesting++;
    st = cond_expr(r, b, rg, resume, out);
    r->nesting--;
    return st;
}

/* The work of rec_cond_expr(). */
static int cond_expr(rec *r, int32_t b, const region *rg, rec_resume *resume,
                     upy_ptr_vec *out) {
    const upy_nin *j = ins(r, blk(r, b)->end - 1);
    rec_cond c;
    int32_t join;
    uint32_t tail_a, tail_b;
    upy_expr *v1, *v2, *e;
    uint32_t depth, len;
    int st;

    r->done[b] = 1;
    if (j->op == N_JUMP_IF_OR_POP)
        return keep_jump(r, b, rg, resume, out);
    c.start = 0;
    RETURN_IF_ERROR(rec_condition(r, b, rg, &c, out));
    st = threaded_boolop(r, &c, rg, resume, out);
    if (st)
        return st < 0 ? ERROR : SUCCESS;
    /* x if test else y. */
    join = join_of(r, c.first, c.on_true, c.on_false, &tail_a, &tail_b);
    depth = r->sp;
    len = out->len;
    st = branch_value(r, c.on_true, join, tail_a, rg, &v1, out);
    if (st == SUCCESS)
        st = branch_value(r, c.on_false, join, tail_b, rg, &v2, out);
    if (st < 0)
        return ERROR;
    r->sp = depth;
    if (st == NOT_THIS) {
        /* Not a conditional expression (a value the code keeps under its
         * test, popped in one branch: a shape no rule here knows).  What
         * its branches emitted would run where they do not: marked. */
        out->len = len;
        rec_unrecovered(r, out, blk(r, b)->start, blk(r, b)->end,
                        "expression");
        resume->block = UPY_NO_BLOCK;
        return SUCCESS;
    }
    e = new_expr(r, UPY_E_IFEXP);
    if (!e)
        return ERROR;
    e->u.ifexp.test = c.test;
    e->u.ifexp.body = v1;
    e->u.ifexp.orelse = v2;
    RETURN_IF_ERROR(rec_push(r, SV_VALUE, e));
    if (join != UPY_NO_BLOCK) {
        resume->block = join;
        resume->at = blk(r, join)->start;
    } else if (tail_a != UINT32_MAX) {
        resume->block = r->cfg.block_of[tail_a];
        resume->at = tail_a;
        r->done[resume->block] = 0;
        mark_tail_done(r, tail_b);
    } else {
        resume->block = UPY_NO_BLOCK;
        rec_unrecovered(r, out, blk(r, b)->start, blk(r, b)->end,
                        "conditional expression");
    }
    return SUCCESS;
}
