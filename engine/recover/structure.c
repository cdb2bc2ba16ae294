/*
 * structure.c - structuring a control-flow graph into statements.
 *
 * CPython lays blocks out in source order (3.12+ moves exception handlers,
 * the "cold" blocks, to the end), so a region of source is an interval of
 * blocks: an if's body is the blocks from its fall-through successor up to
 * its jump target, a loop's body the blocks from its header up to the last
 * block that jumps back.  The walker goes through a region block by block,
 * running each block's instructions on the symbolic stack and deciding at
 * each block end what the control transfer means:
 *
 *   - a conditional jump at a statement boundary is an if (or an assert,
 *     or the top test of a while loop); inside an expression it is and /
 *     or / if-else, which boolexpr.c reduces;
 *   - a jump to the innermost loop's exit or header is break / continue;
 *   - a jump out of the region (to where an enclosing statement ends, after
 *     the compiler's jump threading) ends the region;
 *   - a block whose exception handler is new starts a try statement; a
 *     BEFORE_WITH starts a with statement.
 *
 * Code the compiler duplicates (finally bodies and with exits before each
 * return, break and continue; the test of a while loop at its bottom) is
 * found before the region that holds it is walked and marked skipped.
 * Each block is structured at most once: a jump back to a block already
 * done that is none of the above would need a goto and is reported as an
 * unrecovered region.
 */
#include <stdio.h>
#include <string.h>

#include "recover/rec.h"

static int inside(const region *rg, int32_t b) {
    return b != UPY_NO_BLOCK && b >= rg->start && b < rg->end;
}

region rec_sub_region(const region *rg, int32_t start, int32_t end,
                      int32_t follow) {
    region s = *rg;
    s.start = start;
    s.end = end;
    s.follow = follow;
    s.falls_to_loop = rg->falls_to_loop && end >= rg->end;
    return s;
}

static int emit_simple(rec *r, upy_ptr_vec *out, upy_stmt_kind kind) {
    return rec_emit(r, out, rec_stmt(r, kind));
}

int rec_run(rec *r, uint32_t from, uint32_t to, const region *rg,
            upy_ptr_vec *out) {
    uint32_t i;
    for (i = from; i < to; i++) {
        int st;
        if (r->skip[i])
            continue;
        if (rec_is_name_cleanup(r, i, rg->except_name)) {
            i += 2;
            continue;
        }
        if (ins(r, i)->op == N_BEFORE_WITH)
            return (int)i;
        if (r->sp == r->base + 1 && rec_match_starts(r, i))
            return (int)i;
        st = rec_eval(r, i, out);
        if (st < 0)
            return ERROR;
        if (st == NOT_THIS)
            return (int)i;
        if (r->sp <= r->base)
            r->stmt_start = i + 1;
    }
    return (int)to;
}

/* break / continue for a jump to the innermost loop's targets: 1 when
 * emitted. */
static int is_break(const region *rg, int32_t target) {
    return target != UPY_NO_BLOCK &&
           (target == rg->brk || target == rg->brk_threaded);
}

static int loop_jump(rec *r, int32_t target, const region *rg,
                     upy_ptr_vec *out) {
    if (target == UPY_NO_BLOCK)
        return 0;
    if (is_break(rg, target))
        return emit_simple(r, out, UPY_S_BREAK) ? ERROR : 1;
    if (target == rg->cont)
        return emit_simple(r, out, UPY_S_CONTINUE) ? ERROR : 1;
    return 0;
}

/* The copy s of a module's or class body's implicit `return None` in a
 * loop, where the loop's exit runs code first: a break that skips that code
 * (the loop's else part), to the end of the code (REC_TO_END; see
 * rec_breaks_to_tail), or, where no else part takes that code, the return
 * (marked: a module has none). */
static int emit_break_to_end(rec *r, upy_stmt *s, upy_ptr_vec *out) {
    s->kind = UPY_S_BREAK;
    s->u.break_.value = NULL;
    s->u.break_.to_return = REC_TO_END;
    return rec_emit(r, out, s);
}

/* `c and 0` / `c or 0` for a constant c the return at `at` returns
 * without the compiler fusing the two (N_SPLIT_CONST) where no branches
 * of a conditional expression met: what is left of `return False and x`
 * once flowgraph.c folded the test on a constant and dropped x's code
 * (and its constants, remove_unused_consts; test_compile's
 * test_consts_in_conditionals).  Other values as they are. */
static upy_expr *unfused_const(rec *r, uint32_t at, upy_expr *value) {
    static const upy_object zero = {UPY_INT, 0, {{0, 0, 0, 0, 0}}};
    const upy_object *c =
        value && value->kind == UPY_E_CONST ? value->u.constant : NULL;
    upy_expr *e, **values;
    if (!(ins(r, at)->flags & N_SPLIT_CONST) || !c ||
        !(c->kind == UPY_FALSE || c->kind == UPY_TRUE || c->kind == UPY_INT ||
          c->kind == UPY_FLOAT || c->kind == UPY_STR || c->kind == UPY_BYTES ||
          c->kind == UPY_TUPLE))
        return value;
    e = upy_expr_new(r->arena, UPY_E_BOOLOP);
    values = upy_arena_array(r->arena, 2, sizeof *values);
    if (!e || !values) {
        rec_oom(r);
        return value;
    }
    values[0] = value;
    values[1] = rec_const(r, &zero);
    e->u.boolop.is_and = rec_false_literal(c);
    e->u.boolop.values.items = values;
    e->u.boolop.values.len = 2;
    return values[1] ? e : value;
}

static int emit_return(rec *r, const region *rg, uint32_t at,
                       upy_ptr_vec *out) {
    sval v = rec_pop(r);
    upy_stmt *s;
    int st = rec_generic_return(r, v, out);
    if (st)
        return st < 0 ? ERROR : SUCCESS;
    s = rec_stmt(r, UPY_S_RETURN);
    if (!s)
        return ERROR;
    s->u.value = unfused_const(r, at, rec_value(r, v));
    /* `return None` and a bare `return` are the same code. */
    if (rec_is_const_none(s->u.value)) {
        s->u.value = NULL;
        /* A module or class body has no return statement: this is a copy
         * of its implicit one, where a loop's break went: a break, where
         * a `while True:` has no exit but its breaks (brk_moved); else one
         * to the end of the code, past what the loop's exit runs first, if
         * anything (its else part, rec_breaks_to_tail). */
        if ((r->is_module || r->is_class_body) && rg->brk != UPY_NO_BLOCK) {
            if (rg->brk_moved)
                s->kind = UPY_S_BREAK;
            else
                return emit_break_to_end(r, s, out);
        }
    }
    return rec_emit(r, out, s);
}

/* --- the order of co_names and co_consts --------------------------------- */

/* The co_names (table 0) or co_consts (table 1) entry instruction i
 * refers to, or -1.  None is left out: the compiler copies `return None`
 * everywhere.  The compiler enters names and constants in the order it
 * meets them in the source, which tells apart sources whose code is laid
 * out alike; a call's tuple of keyword names after its arguments. */
int32_t rec_table_entry(const rec *r, uint32_t i, int table) {
    const upy_nin *in = ins(r, i);
    if (r->table_entries[table == 1])
        return r->table_entries[table == 1][i];
    if (!in->obj)
        return -1;
    if (table == 1)
        return (in->op == N_LOAD_CONST && in->obj->kind != UPY_NONE) ||
                       in->op == N_CALL
                   ? rec_entry_index(r, 1, in->obj)
                   : -1;
    if (!upy_nin_uses_names(in))
        return -1;
    return rec_entry_index(r, 0, in->obj);
}

/* --- copies of exits (finally bodies, with exits) ---------------------- */

/* Whether the instructions [a, a + n) and [b, b + n) are the same code:
 * same operations and arguments, jumps to the same relative place. */
int rec_same_code(const rec *r, uint32_t a, uint32_t b, uint32_t n) {
    uint32_t k;
    if (a > r->ncode.count || b > r->ncode.count || n > r->ncode.count - a ||
        n > r->ncode.count - b)
        return 0;
    for (k = 0; k < n; k++) {
        const upy_nin *x = ins(r, a + k), *y = ins(r, b + k);
        if (x->op != y->op || x->arg != y->arg || x->obj != y->obj ||
            x->flags != y->flags)
            return 0;
        if ((x->target < 0) != (y->target < 0))
            return 0;
        if (x->target >= 0 &&
            x->target - (int32_t)a != y->target - (int32_t)b &&
            x->target != y->target)
            return 0;
    }
    return 1;
}

/* Marks [start, start + n) skipped. */
void rec_skip_range(rec *r, uint32_t start, uint32_t n) {
    uint32_t k;
    for (k = 0; k < n && start + k < r->ncode.count; k++)
        r->skip[start + k] = 1;
}

/* Whether every normal-edge predecessor of block b is in `mine`, but for
 * the jumps back to it from blocks after it (the loop it heads: a loop in
 * a handler of copied code is reached only through that handler). */
static int only_from(const rec *r, int32_t b, const uint8_t *mine) {
    uint32_t k;
    for (k = 0; k < blk(r, b)->npreds; k++)
        if (!mine[blk(r, b)->preds[k]] && blk(r, b)->preds[k] <= b)
            return 0;
    return 1;
}

int rec_skip_copy(rec *r, uint32_t at, uint32_t orig, uint32_t n) {
    int32_t *stack = NULL;
    uint8_t *mine = NULL;
    uint32_t k, sp = 0;
    rec_skip_range(r, at, n);
    /* A try (or with) in the copied code has handlers of its own, which
     * only the copy reaches: the statement the original makes holds them
     * too.  They lead out to handlers the original is under as well, and
     * may go on to code the copy's normal way reaches too (a with that
     * swallowed the exception): neither is theirs. */
    for (k = 0; k < n && at + k < r->ncode.count; k++) {
        int32_t h0;
        if (ins(r, at + k)->handler < 0 ||
            ins(r, at + k)->handler == ins(r, orig + k)->handler)
            continue;
        h0 = r->cfg.block_of[ins(r, at + k)->handler];
        if (r->done[h0] || rec_under(r, r->cfg.block_of[orig + k], h0))
            continue;
        if (!stack) {
            stack = upy_arena_alloc(r->scratch, r->cfg.count * sizeof *stack);
            mine = upy_arena_alloc(r->scratch, r->cfg.count);
            if (!stack || !mine)
                return rec_oom(r);
            memset(mine, 0, r->cfg.count);
        }
        r->done[h0] = mine[h0] = 1;
        stack[sp++] = h0;
        while (sp) {
            const upy_block *bb = blk(r, stack[--sp]);
            int32_t succ[3] = {bb->next, bb->jump, bb->handler};
            int j;
            for (j = 0; j < 3; j++) {
                int32_t x = succ[j];
                if (x == UPY_NO_BLOCK || r->done[x] ||
                    blk(r, x)->start < blk(r, h0)->start ||
                    (j < 2 && !only_from(r, x, mine)) ||
                    rec_under(r, r->cfg.block_of[orig + k], x))
                    continue;
                r->done[x] = mine[x] = 1;
                stack[sp++] = x;
            }
        }
    }
    return SUCCESS;
}

/* The with exit the compiler puts before each way out of a with body:
 * LOAD_CONST None x3; CALL 2; [AWAIT;] POP_TOP, after a SWAP 2 when a
 * value is kept for the return.  Returns its length at i, or 0. */
static uint32_t with_exit_at(const rec *r, uint32_t i, int is_async) {
    uint32_t n = 0;
    if (i < r->ncode.count && ins(r, i)->op == N_SWAP && ins(r, i)->arg == 2)
        n = 1;
    if (i + n + 5 + (is_async ? 1 : 0) > r->ncode.count)
        return 0;
    if (!upy_nin_loads_none(ins(r, i + n)) ||
        !upy_nin_loads_none(ins(r, i + n + 1)) ||
        !upy_nin_loads_none(ins(r, i + n + 2)) ||
        ins(r, i + n + 3)->op != N_CALL || ins(r, i + n + 3)->arg != 2)
        return 0;
    n += 4;
    if (is_async) {
        if (ins(r, i + n)->op != N_AWAIT)
            return 0;
        n++;
    }
    if (ins(r, i + n)->op != N_POP_TOP)
        return 0;
    return n + 1;
}

/* Instructions that leave a region: returns and jumps outside it. */
static int is_exit(const rec *r, uint32_t i, int32_t start, int32_t end) {
    const upy_nin *in = ins(r, i);
    int32_t t;
    if (in->op == N_RETURN)
        return 1;
    if (in->op != N_JUMP)
        return 0;
    t = r->cfg.block_of[in->target];
    return t < start || t >= end;
}

/* The iterator pops (SWAP 2; POP_TOP) of loops around a return that 3.12+
 * makes after the copies of the exits it leaves: where they start, given
 * the RETURN at e and the start `from` of its block. */
static uint32_t iterator_pops_before(const rec *r, uint32_t e, uint32_t from) {
    uint32_t i = e;
    while (i >= from + 2 && ins(r, i - 1)->op == N_POP_TOP &&
           ins(r, i - 2)->op == N_SWAP && ins(r, i - 2)->arg == 2 &&
           !r->skip[i - 1])
        i -= 2;
    return i;
}

/* Walks back from exit instruction `e` over instructions already skipped
 * (copies of inner statements' exits) and the constant a return may load
 * after its copies; returns where a copy of this statement must end. */
static uint32_t copy_end_before(const rec *r, uint32_t e) {
    uint32_t i = e;
    if (ins(r, e)->op == N_RETURN && e > 0 &&
        ins(r, e - 1)->op == N_LOAD_CONST && !r->skip[e - 1])
        i = e - 1;
    /* 3.12+ pops the iterators of loops around the statement after its
     * copies, before the RETURN (SWAP 2; POP_TOP under the value). */
    if (ins(r, e)->op == N_RETURN && i == e)
        i = iterator_pops_before(r, e, 0);
    while (i > 0 && r->skip[i - 1])
        i--;
    return i;
}

/* The instruction ending the way out through block b: its last one, or,
 * where it falls through into blocks that hold nothing but code already
 * skipped up to a return (maybe of a constant) or jump, that exit.  A try
 * around a with protects the with's exits but not the return after them,
 * and the copies of its finally body (structured first, so skipped) run
 * after them too: the handler changes there, and so do blocks. */
static uint32_t way_out_end(const rec *r, int32_t b) {
    uint32_t last = blk(r, b)->end - 1, i = last;
    int hops = 0;
    while (upy_nin_falls_through(ins(r, i)) && blk(r, b)->next == b + 1 &&
           b + 1 < (int32_t)r->cfg.count && hops++ < 64) {
        const upy_block *nb = blk(r, ++b);
        i = nb->start;
        while (i + 1 < nb->end && r->skip[i])
            i++;
        if (i + 2 == nb->end && ins(r, i)->op == N_LOAD_CONST &&
            ins(r, i + 1)->op == N_RETURN)
            return i + 1;
        if (i + 1 < nb->end)
            break;
        if (ins(r, i)->op == N_RETURN || ins(r, i)->op == N_JUMP)
            return i;
    }
    return last;
}

/* Fills r->under_start and r->under_blocks (see rec.h), walking each
 * block's handler chain as rec_under() does; 0, or -1 when memory ran out. */
static int find_under_lists(rec *r) {
    uint32_t n = r->cfg.count, k;
    uint32_t *start = upy_arena_array(r->scratch, n + 2, sizeof(uint32_t));
    int32_t b, x, *blocks;
    int steps;
    if (!start)
        return rec_oom(r);
    memset(start, 0, (n + 2) * sizeof(uint32_t));
    for (b = 0; b < (int32_t)n; b++)
        for (x = blk(r, b)->handler, steps = 0;
             x != UPY_NO_BLOCK && steps++ < 64; x = blk(r, x)->handler)
            start[x + 2]++;
    for (k = 0; k < n; k++)
        start[k + 2] += start[k + 1];
    blocks = upy_arena_array(r->scratch, start[n + 1] + 1, sizeof(int32_t));
    if (!blocks)
        return rec_oom(r);
    /* start[x + 1] is where x's next block goes while filling; after,
     * start[x] is where x's list starts. */
    for (b = 0; b < (int32_t)n; b++)
        for (x = blk(r, b)->handler, steps = 0;
             x != UPY_NO_BLOCK && steps++ < 64; x = blk(r, x)->handler)
            blocks[start[x + 1]++] = b;
    r->under_start = start;
    r->under_blocks = blocks;
    return SUCCESS;
}

/* The blocks of the body [from, end] of a statement whose handler is h,
 * and after it those that still hold code of the body: 3.12+ lays the
 * handlers of a try in the body out after the statement, and a return,
 * break or continue in one of its except clauses leaves from there
 * through the copies of the statement's exits.  Those are the blocks h
 * protects (rec_under()) and the block each falls into.  They are found in
 * h's list (find_under_lists), not by walking every block to the end of
 * the code: a function of many statements would cost their number times
 * its size. */
typedef struct body_walk {
    int32_t b, from, end, h;
    uint32_t k, k_end; /* h's list: where the walk is, its end */
} body_walk;

static int body_walk_start(rec *r, body_walk *w, int32_t from, int32_t end,
                           int32_t h) {
    w->b = from - 1;
    w->from = from;
    w->end = end;
    w->h = h;
    w->k = w->k_end = 0;
    if (h == UPY_NO_BLOCK)
        return SUCCESS;
    if (!r->under_start && find_under_lists(r))
        return ERROR;
    w->k = r->under_start[h];
    w->k_end = r->under_start[h + 1];
    return SUCCESS;
}

/* The walk's next block, or -1 after the last. */
static int32_t body_walk_next(const rec *r, body_walk *w) {
    if (w->b < w->end)
        return ++w->b < (int32_t)r->cfg.count ? w->b : -1;
    while (w->k < w->k_end) {
        int32_t u = r->under_blocks[w->k];
        if (u <= w->end || u < w->from) {
            w->k++;
        } else if (w->b < u) {
            return w->b = u;
        } else {
            /* u visited: the block it falls into, unless under h too. */
            w->k++;
            if ((w->k == w->k_end || r->under_blocks[w->k] != u + 1) &&
                upy_cfg_falls_into(&r->cfg, u + 1))
                return w->b = u + 1;
        }
    }
    return -1;
}

/* Marks the copy of a with's exit that ends right before instruction
 * `stop` skipped; 1 when there is one. */
static int skip_with_exit_before(rec *r, uint32_t stop, int is_async) {
    uint32_t n;
    for (n = 7; n >= 5; n--) {
        if (stop >= n && with_exit_at(r, stop - n, is_async) == n) {
            rec_skip_range(r, stop - n, n);
            return 1;
        }
    }
    return 0;
}

/* Marks the copies of a with statement's exit before every exit of its
 * body [start, end), protected by handler h. */
static void skip_with_exits(rec *r, int32_t start, int32_t end, int32_t h,
                            int is_async) {
    body_walk w;
    int32_t b;
    uint32_t last = UINT32_MAX; /* the exit whose copy was looked for */
    uint32_t pops;
    /* The block after the body too: `return x` in a with loads x in the
     * body, and the exit and RETURN_VALUE come after the protected
     * range. */
    if (body_walk_start(r, &w, start, end, h))
        return;
    while ((b = body_walk_next(r, &w)) >= 0) {
        uint32_t e = way_out_end(r, b), stop;
        /* (Two blocks may lead to one exit: look for its copy once.) */
        if (!is_exit(r, e, start, end) || e == last)
            continue;
        last = e;
        stop = copy_end_before(r, e);
        /* (A break to a return, copied into its place, pops the iterators
         * of the loops it leaves between the exit and the return.) */
        for (pops = 0; pops < 8 && !skip_with_exit_before(r, stop, is_async);
             pops++, stop--)
            if (stop == 0 || ins(r, stop - 1)->op != N_POP_TOP)
                break;
    }
}

/* A branch of the finally body [fstart, fstart + flen) that ends it early
 * jumps to a RERAISE 0 of its own in the handler (the compiler copies that
 * small exit block); in the copy at `at` before the exit [stop, e] it
 * jumps to a copy of that exit.  Marks those copies skipped and done: the
 * exit they repeat is the statement's. */
static void skip_exit_copies(rec *r, uint32_t at, uint32_t fstart,
                             uint32_t flen, uint32_t stop, uint32_t e) {
    uint32_t k, n = e + 1 - stop;
    for (k = 0; k < flen; k++) {
        int32_t t = ins(r, at + k)->target, u = ins(r, fstart + k)->target;
        if (t < 0 || u < 0 ||
            (u >= (int32_t)fstart && u < (int32_t)(fstart + flen)) ||
            ins(r, (uint32_t)u)->op != N_RERAISE || ins(r, (uint32_t)u)->arg ||
            (t >= (int32_t)at && t <= (int32_t)e) ||
            !rec_same_code(r, (uint32_t)t, stop, n))
            continue;
        rec_skip_range(r, (uint32_t)t, n);
        r->done[r->cfg.block_of[t]] = 1;
    }
}

/* Whether [at, at + n) is a copy of the finally body [first, first + n)
 * followed by the exit it runs before, [at + n, e].  A branch of the body
 * that ends it early jumps to a RERAISE 0 of its own in the handler; in
 * the copy it jumps to what follows, which the compiler copies only when
 * small (inline_small_exit_blocks): a with exit or the iterator pops of a
 * return are not, and the branch jumps straight to the copy's end.  The
 * copy of a small exit follows the exit: it keeps the jump's relative
 * place where the exit is one instruction (a RERAISE, a `return value`'s
 * RETURN), not where it is two (a constant's load and RETURN).
 * 3.11 may also give the code running off the copy's end a copy of the exit
 * of its own (extend_block, where that code's block ended in a jump to
 * it), the branch jumping to the exit after: skipped with the others
 * (skip_exit_copies). */
static int copy_to_exit(const rec *r, uint32_t at, uint32_t first, uint32_t n,
                        uint32_t e) {
    uint32_t k;
    if (rec_same_code(r, at, first, n))
        return 1;
    if (at + n > r->ncode.count || first + n > r->ncode.count)
        return 0;
    for (k = 0; k < n; k++) {
        const upy_nin *x = ins(r, at + k), *y = ins(r, first + k);
        if (rec_same_code(r, at + k, first + k, 1))
            continue;
        if (x->op != y->op || x->arg != y->arg || x->obj != y->obj ||
            x->flags != y->flags ||
            (x->target != (int32_t)(at + n) &&
             (x->target <= (int32_t)e ||
              !rec_same_code(r, (uint32_t)x->target, at + n,
                             e + 1 - at - n))) ||
            y->target < (int32_t)(first + n) ||
            ins(r, (uint32_t)y->target)->op != N_RERAISE ||
            ins(r, (uint32_t)y->target)->arg)
            return 0;
    }
    return 1;
}

static int is_swap_pop(const rec *r, uint32_t i) {
    return i + 1 < r->ncode.count && ins(r, i)->op == N_SWAP &&
           ins(r, i)->arg == 2 && ins(r, i + 1)->op == N_POP_TOP;
}

/* The unwinding compile.c compiler_unwind_fblock makes for a return
 * leaving a finally body: in the handler (FINALLY_END) the exception and
 * the exception state go, from under the value when it is kept (SWAP 2;
 * POP_TOP; SWAP 2; POP_EXCEPT; compiler_return loads a constant after the
 * unwinding: POP_TOP; POP_EXCEPT); in the copy before a `return value` of
 * the try body (POP_VALUE) that value goes instead (SWAP 2; POP_TOP, or
 * POP_TOP). */
typedef struct return_unwind {
    uint32_t at;      /* where it starts in the finally body */
    uint32_t handler; /* its length there */
    uint32_t copy;    /* the length of the copy's */
} return_unwind;

/* The unwinding of a return ending the finally body [fstart, fstart +
 * flen) (its last instruction a RETURN) in the handler.  0 when none. */
static int finally_return_unwind(const rec *r, uint32_t fstart, uint32_t flen,
                                 return_unwind *u) {
    uint32_t j;
    if (flen < 3 || ins(r, fstart + flen - 1)->op != N_RETURN)
        return 0;
    for (j = flen - 1; j-- > 0;) {
        const upy_nin *x = ins(r, fstart + j);
        if (x->op != N_POP_EXCEPT || j < 1)
            continue;
        u->at = j - 1;
        u->handler = 2;
        u->copy = 1;
        if (j >= 3 && is_swap_pop(r, fstart + j - 3) &&
            ins(r, fstart + j - 1)->op == N_SWAP &&
            ins(r, fstart + j - 1)->arg == 2) {
            u->at = j - 3;
            u->handler = 4;
            u->copy = 2;
        } else if (ins(r, fstart + j - 1)->op != N_POP_TOP) {
            return 0;
        }
        return 1;
    }
    return 0;
}

/* The copy, ending in the RETURN at e, of a finally body that ends in a
 * return, before a `return value` of the try body: the value waits under
 * the copy, and the copy's return drops it where the handler's drops the
 * exception (see return_unwind).  Its copied code and that unwinding are
 * skipped: what is left is the try body's own `return value` (and the
 * unwinding of the code around, as in the handler).  Only where the
 * handler's way out holds no copies of enclosing exits: the handler's
 * return is not read through those.  1 when found, -1 out of memory. */
static int skip_finally_return_copy(rec *r, uint32_t e, uint32_t fstart,
                                    uint32_t flen) {
    return_unwind u;
    uint32_t at, n, rest, k;
    if (!finally_return_unwind(r, fstart, flen, &u))
        return 0;
    n = flen - u.handler + u.copy;
    rest = flen - u.at - u.handler;
    if (e + 1 < n)
        return 0;
    at = e + 1 - n;
    if (!copy_to_exit(r, at, fstart, u.at, at + u.at - 1) ||
        !rec_same_code(r, at + u.at + u.copy, fstart + u.at + u.handler,
                       rest) ||
        (u.copy == 2 ? !is_swap_pop(r, at + u.at)
                     : ins(r, at + u.at)->op != N_POP_TOP))
        return 0;
    for (k = 0; k < n; k++)
        if (r->skip[at + k] || (k < u.at + u.handler && r->skip[fstart + k]))
            return 0;
    for (k = u.at + u.handler; k < flen; k++)
        if (r->skip[fstart + k])
            return 0;
    /* (A constant's return drops the value and loads the constant: all
     * but the RETURN is the copy's, which then returns the value.  The
     * unwinding of a loop around would come between: not read so.) */
    if (u.copy == 1 && rest != 2)
        return 0;
    return rec_skip_copy(r, at, fstart, u.copy == 1 ? n - 1 : u.at + u.copy)
               ? ERROR
               : 1;
}

/* Whether the code at `at`, the same as the finally body [fstart, fstart +
 * flen) before the exit jump e, runs under a handler that no copy of that
 * body runs under: then it is code of the try body, not a copy.  The
 * compiler pops the blocks of the finally and of the trys nested in its
 * body before it copies the finally body in front of an exit (compile.c
 * compiler_unwind_fblock_stack; FINALLY_TRY: POP_BLOCK first), so a copy
 * runs under the handler around the whole statement, as the exit does.
 * Two handlers tell the body's code:
 *   - the finally's own (the block holding fstart is its entry,
 *     PUSH_EXC_INFO).  (3.11:
 *
 *     try: a()                  b(); c()  <- under the finally's handler
 *     except: pass              JUMP_FORWARD L
 *     else: b(); c()            ...
 *     finally: c()           L: c()       <- the copy, shared with the
 *                                            except clause's way out
 *
 *     read the else part's c() as a copy before its jump and dropped it.)
 *   - one other than the exit jump's, where the finally body's first
 *     instruction runs under the finally's cleanup only (as its RERAISE
 *     does): a try nested in the try body.  (3.11:
 *
 *     try:
 *         try:                  if x: g()
 *             if x: g()         a()           <- under the except's handler
 *             a()               JUMP_FORWARD  <- the body's end: the copy
 *         except E: pass                         is where it jumps
 *     finally:
 *         a()
 *
 *     read a() as the copy and dropped it.) */
static int runs_under_try_handler(const rec *r, uint32_t at, uint32_t fstart,
                                  uint32_t flen, uint32_t e) {
    const upy_block *entry = blk(r, r->cfg.block_of[fstart]);
    if (entry->is_handler && ins(r, at)->handler == (int32_t)entry->start)
        return 1;
    return fstart + flen < r->ncode.count && ins(r, e)->op == N_JUMP &&
           ins(r, fstart)->handler == ins(r, fstart + flen)->handler &&
           ins(r, at)->handler != ins(r, e)->handler;
}

/* Whether a branch of the copy [at, at + n) of the finally body [fstart,
 * fstart + n) that ends that body early (it jumps past the body's RERAISE
 * to one of its own) jumps to the return [at + n, e] itself rather than
 * to a copy of it.  The return after a copy on a clause's way out has no
 * line (the compiler drops it after unwinding a finally), so
 * duplicate_exits_without_lineno copies it into each branch; one the
 * branches share has a line of its own: the code after the loop that a
 * break in the clause runs into (`while True:` / `try: f()` / `except E:
 * break` / `finally: if c: g()` + `return 3`), not the clause's return.
 * Not read so yet: left unskipped, to be marked.  (A with's exit, skipped
 * already, that the branch joins before the return is no such code.) */
static int branch_joins_return(const rec *r, uint32_t at, uint32_t fstart,
                               uint32_t n, uint32_t e) {
    uint32_t k;
    if (ins(r, e)->op != N_RETURN)
        return 0;
    for (k = 0; k < n; k++)
        if (ins(r, fstart + k)->target > (int32_t)(fstart + n) &&
            ins(r, at + k)->target >= (int32_t)(at + n) &&
            ins(r, at + k)->target <= (int32_t)e &&
            !r->skip[ins(r, at + k)->target])
            return 1;
    return 0;
}

/* Marks the copy of the finally body [fstart, fstart + flen) that starts
 * in block b and runs on past it, split by a branch of the body, before an
 * exit of the try body [start, end).  A finally body ending in `if c: g()`
 * splits each copy of it at its test, and 3.12+ copies the small exit
 * after the copy into the branch that skips g() too (flowgraph.c
 * inline_small_exit_blocks).  The way out of an except clause, after its
 * POP_EXCEPT (under the finally's handler, so a block of its own), runs
 * under no handler, the body walk's block is the copy's first only:
 *
 *     try:                       POP_EXCEPT
 *         try: f()               LOAD c; POP_JUMP_IF_FALSE L  <- block b
 *         except E: return 1     g(); POP_TOP; RETURN_CONST 1
 *     finally:                L: RETURN_CONST 1
 *         if c: g()
 *
 * 1 when found, -1 when out of memory. */
static int skip_split_copy(rec *r, int32_t b, int32_t start, int32_t end,
                           uint32_t fstart, uint32_t flen) {
    uint32_t at, e;
    for (at = blk(r, b)->start; at < blk(r, b)->end; at++) {
        if (r->skip[at] || at + flen <= blk(r, b)->end ||
            at + flen >= r->ncode.count)
            continue;
        for (e = at + flen; e + 1 < r->ncode.count && e < at + flen + 8 &&
                            upy_nin_falls_through(ins(r, e));
             e++)
            ;
        if (!is_exit(r, e, start, end) || copy_end_before(r, e) != at + flen ||
            !copy_to_exit(r, at, fstart, flen, e) ||
            branch_joins_return(r, at, fstart, flen, e))
            continue;
        RETURN_IF_ERROR(rec_skip_copy(r, at, fstart, flen));
        skip_exit_copies(r, at, fstart, flen, at + flen, e);
        return 1;
    }
    return 0;
}

/* Whether the code after the copy [at, at + m) has no line of its own:
 * it has the line of the copy's code that runs into it or jumps to it.
 * The return after a copy on a clause's way out has none (the compiler
 * drops it after unwinding a finally, and it takes the line of the code
 * before it); code after a loop that a break in the clause goes on to
 * (`while True:` / `try: f()` / `except E: break` / `finally: if c:
 * return 2` + `return 3`) has its own, and is no return of the clause. */
static int inherits_line(const rec *r, uint32_t at, uint32_t m) {
    uint32_t k;
    int32_t line = ins(r, at + m)->line;
    if (upy_nin_falls_through(ins(r, at + m - 1)) &&
        ins(r, at + m - 1)->line == line)
        return 1;
    for (k = at; k < at + m; k++)
        if (ins(r, k)->target == (int32_t)(at + m) && ins(r, k)->line == line)
            return 1;
    return 0;
}

/* Marks the copy of the finally body [fstart, fstart + flen), one that
 * returns a constant in a branch, that starts in block b before an exit of
 * the try body [start, end): the way out of an except clause.  In the
 * handler that return pops the exception first (POP_TOP; POP_EXCEPT);
 * after the clause's POP_EXCEPT nothing is left to pop, so the copy is
 * shorter than the body and copy_to_exit never matches it.  Unmarked, the
 * copy's return read as the clause's code and the clause's own return as
 * code after the try (3.11-3.13 LIE):
 *
 *     try:                       POP_EXCEPT
 *         f()                    LOAD c; POP_JUMP_IF_FALSE L  <- block b
 *     except E:                  RETURN_CONST 2
 *         return 1            L: RETURN_CONST 1
 *     finally:
 *         if c: return 2        (handler: LOAD c; POP_JUMP_IF_FALSE R;
 *                                POP_TOP; POP_EXCEPT; RETURN_CONST 2)
 *
 * 1 when found, -1 when out of memory. */
static int skip_returning_copy(rec *r, int32_t b, int32_t start, int32_t end,
                               uint32_t fstart, uint32_t flen) {
    uint32_t at, e, m, k;
    int st;
    for (at = blk(r, b)->start; at < blk(r, b)->end; at++) {
        if (r->skip[at] || !rec_same_code(r, at, fstart, 1))
            continue;
        m = flen;
        st = rec_returning_finally_copy(r, at, fstart, &m);
        if (st <= 0) {
            if (st < 0)
                return ERROR;
            continue;
        }
        for (e = at + m; e + 1 < r->ncode.count && e < at + m + 8 &&
                         upy_nin_falls_through(ins(r, e));
             e++)
            ;
        if (!is_exit(r, e, start, end) || copy_end_before(r, e) != at + m)
            continue;
        if (ins(r, e)->op == N_RETURN && inherits_line(r, at, m))
            return rec_skip_copy(r, at, fstart, m) ? ERROR : 1;
        /* (A break or continue leaves through the copy too, or runs into
         * the code after the loop: not read so yet.  The copy's returns,
         * left unskipped, are to be placed, or the output marked: the
         * structure made of it lost them, `while True:` / `try: f()` /
         * `except E: break` / `finally: if c: return 2` read as a loop
         * that never ends.) */
        for (k = at; k < at + m; k++)
            if (ins(r, k)->op == N_RETURN)
                r->must_place[k] = 1;
        return 0;
    }
    return 0;
}

/* Where the copy of the finally body [fstart, fstart + flen) on the way
 * out of a for loop's break ends, the break's jump replaced by a copy of
 * the small exit block after the loop that returns at e (3.12+
 * flowgraph.c inline_small_exit_blocks): the copy, the POP_TOP of the
 * iterator (of nothing the code after it pushed), then up to eight
 * instructions of the exit's copy.  `for x in a:` / `try: x()` / `except
 * E: break` / `finally: d()` + `g()`: POP_EXCEPT; d(); POP_TOP; POP_TOP;
 * g(); POP_TOP; RETURN_CONST None.  0 when there is none.  (Whether that
 * code is the loop's exit is the walk's to check, see
 * pops_iterator_to_exit_copy.) */
static uint32_t break_copy_end(const rec *r, uint32_t e, uint32_t fstart,
                               uint32_t flen) {
    uint32_t p;
    if (ins(r, e)->op != N_RETURN)
        return 0;
    for (p = e; p + 8 > e && p > flen + 1; p--)
        if (ins(r, p - 1)->op == N_POP_TOP && !r->skip[p - 1] &&
            ins(r, p - 2)->handler == ins(r, p - 1)->handler &&
            copy_to_exit(r, p - 1 - flen, fstart, flen, e))
            return p - 1;
    return 0;
}

/* Marks the copies of a finally body [fstart, fstart + flen) before every
 * exit of the try body [start, end) in its blocks [from, end] and, with a
 * handler h, in the blocks after it that are the body's too (see
 * body_walk). */
int rec_skip_finally(rec *r, int32_t start, int32_t end, int32_t from,
                     int32_t h, uint32_t fstart, uint32_t flen) {
    body_walk w;
    int32_t b;
    int found, returns;
    uint32_t last = UINT32_MAX; /* the exit whose copy was looked for */
    uint32_t pops;
    if (flen == 0)
        return SUCCESS;
    returns = rec_finally_returns(r, fstart, flen);
    RETURN_IF_ERROR(body_walk_start(r, &w, from, end, h));
    while ((b = body_walk_next(r, &w)) >= 0) {
        uint32_t e = blk(r, b)->end - 1, stop;
        /* (The copies of the exits of withs around the try, marked skipped
         * already, may follow the copy in blocks of their own.) */
        if (h != UPY_NO_BLOCK)
            e = way_out_end(r, b);
        /* (A copy that returns in a branch is split too, and its first
         * block may run on into that return, an exit of its own.  The
         * try's normal way out, after the body, is try.c's; a clause's
         * way out may come there too, 3.11 laying the handlers out
         * inline.) */
        found = 0;
        if (h != UPY_NO_BLOCK && !is_exit(r, e, start, end))
            found = skip_split_copy(r, b, start, end, fstart, flen);
        if (!found && returns && (h != UPY_NO_BLOCK || b < end))
            found = skip_returning_copy(r, b, start, end, fstart, flen);
        if (found < 0)
            return ERROR;
        if (found)
            continue;
        if (!is_exit(r, e, start, end) || e == last)
            continue;
        last = e;
        found = skip_finally_return_copy(r, e, fstart, flen);
        if (found < 0)
            return ERROR;
        if (found)
            continue;
        stop = copy_end_before(r, e);
        /* (A constant's return, or a break copied as the return after its
         * loop, pops the iterators of the loops it leaves between the
         * copy and the constant's load.  Pops past the end of a try around
         * the copy are not read so yet: the return after them left that
         * try, and was lost (3.11, `for k in ks: try: / try: ...; return
         * / finally: h() / except OSError: pass`); its copy stays
         * marked.) */
        for (pops = 0;
             pops < 8 && stop > flen + 1 &&
             !copy_to_exit(r, stop - flen, fstart, flen, e) &&
             ins(r, stop - 1)->op == N_POP_TOP && !r->skip[stop - 1] &&
             ins(r, stop - 2)->handler == ins(r, stop - 1)->handler;
             pops++)
            stop--;
        if ((stop < flen || !copy_to_exit(r, stop - flen, fstart, flen, e)) &&
            break_copy_end(r, e, fstart, flen))
            stop = break_copy_end(r, e, fstart, flen);
        if (stop < flen || !copy_to_exit(r, stop - flen, fstart, flen, e) ||
            runs_under_try_handler(r, stop - flen, fstart, flen, e))
            continue;
        RETURN_IF_ERROR(rec_skip_copy(r, stop - flen, fstart, flen));
        skip_exit_copies(r, stop - flen, fstart, flen, stop, e);
    }
    return SUCCESS;
}

/* --- if ----------------------------------------------------------------- */

/* The nearest target at or after else_start, before the handler, of the
 * jumps back out of the code of handler h when 3.12+ lays it out after
 * the code (h at or after else_start), up to the next handler entry, else
 * UPY_NO_BLOCK: where an except clause of a try ending a then part goes on
 * when the try body itself only leaves (a return). */
static int32_t handler_way_back(const rec *r, int32_t h, int32_t else_start,
                                const region *rg) {
    int32_t b, best = UPY_NO_BLOCK;
    if (h == UPY_NO_BLOCK || h < else_start || h >= (int32_t)r->cfg.count ||
        ins(r, blk(r, h)->start)->op != N_PUSH_EXC_INFO)
        return UPY_NO_BLOCK;
    for (b = h; b < (int32_t)r->cfg.count && (b == h || !blk(r, b)->is_handler);
         b++) {
        int32_t t = blk(r, b)->jump;
        if (ins(r, blk(r, b)->end - 1)->op != N_JUMP || t == UPY_NO_BLOCK ||
            t < else_start || t >= h || is_break(rg, t) || t == rg->cont)
            continue;
        if (best == UPY_NO_BLOCK || t < best)
            best = t;
    }
    return best;
}

/* Whether block b, which no code reaches, is the way out that compile.c
 * compiler_try_except puts after an except clause's body, POP_EXCEPT and
 * the jump to the end of the try (the name's clearing between them
 * dropped by normalize/unreached.c), where the body never runs off its
 * end (3.8-3.9 keep it: upy_layout.keeps_jump_after_exit): the clause's
 * last block but for the handler that clears its name, going back to
 * the loop.  Read as code, its jump would be a `continue` no source
 * wrote (`while True:` / `try: ...` / `except E:` / `if c: raise A()` /
 * `else: raise B()`; trio _unix_pipes FdStream.receive_some).  A written
 * `continue` there has a copy of its own before it. */
static int dead_clause_way_out(const rec *r, int32_t b, const region *rg) {
    const upy_block *bb = blk(r, b);
    int32_t k;
    if (!r->ncode.layout->keeps_jump_after_exit || bb->rpo != UINT32_MAX ||
        bb->end - bb->start != 2 || ins(r, bb->start)->op != N_POP_EXCEPT ||
        bb->jump != rg->cont || b >= rg->end)
        return 0;
    for (k = b + 1; k < rg->end; k++)
        if (!blk(r, k)->is_handler)
            return 0;
    return 1;
}

/* Whether block b, which no code reaches, ends in the jump over an else
 * part that 3.8-3.9 leave after a then part ending in raise, break or
 * continue (upy_layout.keeps_jump_after_exit), or in an if / else whose
 * parts return (rec_drops_jump_over_else): a lone jump after an
 * instruction that does not fall through, or the jump ending the code the
 * source wrote after such a statement, which they keep too
 * (written_dead_code). */
static int dead_jump_over_else(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    return r->ncode.layout->keeps_jump_after_exit &&
           ins(r, bb->end - 1)->op == N_JUMP && bb->start > 0 &&
           (!rec_is_lone(r, bb, N_JUMP) ||
            !upy_nin_falls_through(ins(r, bb->start - 1)));
}

/* The nearest place past else_start that the then part [then_start,
 * else_start) jumps to, other than a break or continue: where the if
 * statement ends, as far as the then part tells; else UPY_NO_BLOCK. */
static int32_t then_jump_end(const rec *r, int32_t then_start,
                             int32_t else_start, const region *rg) {
    int32_t b, best = UPY_NO_BLOCK;
    for (b = then_start; b < else_start && b < (int32_t)r->cfg.count; b++) {
        const upy_block *bb = blk(r, b);
        const upy_nin *last = ins(r, bb->end - 1);
        int32_t t = bb->jump;
        if (t == UPY_NO_BLOCK || t < else_start || is_break(rg, t) ||
            t == rg->cont ||
            (bb->rpo == UINT32_MAX && !dead_jump_over_else(r, b)) ||
            (last->op != N_JUMP && last->op != N_POP_JUMP_IF))
            continue;
        if (best == UPY_NO_BLOCK || t < best)
            best = t;
    }
    return best;
}

/* The end of the else part of an if whose then part is [then_start,
 * else_start): where the then part goes when it ends normally.  That is
 * the nearest target at or after else_start of the jumps leaving the then
 * part (its own final jump, or, when it ends with an if / else of its own,
 * the threaded jumps of that); with no such jump, or one to else_start,
 * there is no else part. */
static int32_t else_end(const rec *r, int32_t then_start, int32_t else_start,
                        const region *rg) {
    int32_t b, best = then_jump_end(r, then_start, else_start, rg);
    int32_t h = UPY_NO_BLOCK;
    /* A then part that only leaves but for the except clauses of a try at
     * its end, laid out after the code (3.12+), goes on where those jump
     * back to.  (Each handler once: the blocks of a try body share it.
     * The handler around the if itself is not the then part's.  One that
     * falls into else_start goes on there: no else part.) */
    if (then_start > 0 && then_start <= (int32_t)r->cfg.count)
        h = blk(r, then_start - 1)->handler;
    for (b = then_start;
         best == UPY_NO_BLOCK && b < else_start && b < (int32_t)r->cfg.count &&
         !(else_start > then_start && upy_cfg_falls_into(&r->cfg, else_start) &&
           blk(r, else_start - 1)->rpo != UINT32_MAX);
         b++) {
        int32_t bh = blk(r, b)->handler;
        if (bh == h || blk(r, b)->rpo == UINT32_MAX)
            continue;
        h = bh;
        best = handler_way_back(r, h, else_start, rg);
    }
    if (best == UPY_NO_BLOCK || best == else_start)
        return UPY_NO_BLOCK;
    return best >= rg->end ? rg->end : best;
}

/* The block whose jump ends the way out of an except clause that starts
 * (POP_EXCEPT) at block b: b itself, or the lone jump b runs into where
 * the exception table splits the two.  3.13 covers the POP_EXCEPT of a
 * clause of an inner try by the handler of the try around it, but not the
 * jump after it (`try: try: A / except E: if c: x = 1 / else: raise` /
 * `except E: B`, then code laid out before the handlers: POP_EXCEPT under
 * B's handler, JUMP_BACKWARD_NO_INTERRUPT under none), so the way out is
 * two blocks.  UPY_NO_BLOCK when b does not end in a jump. */
static int32_t way_out_jump(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b), *nb;
    if (ins(r, bb->end - 1)->op == N_JUMP)
        return b;
    if (!upy_cfg_falls_into(&r->cfg, b + 1))
        return UPY_NO_BLOCK;
    nb = blk(r, b + 1);
    return rec_is_lone(r, nb, N_JUMP) ? b + 1 : UPY_NO_BLOCK;
}

/* Whether the then part [then_start, then_end) of an if that ends an
 * except clause ends in the clause's way out (POP_EXCEPT, the jump), which
 * pops the exception below the statements' depth: the else part starts
 * from the stack as it was.  3.13's inline_small_or_no_lineno_blocks
 * (flowgraph.c; layout copies_jump_blocks) copies that way out into the
 * then part, which jumped to it, before the else part (`except OSError:`
 * / `if size > 5: size *= 2` / `else: return None` in a loop;
 * try_else_break_clause_if_raise.py clause_if_return); read from the
 * stack the then part left, the else part's POP_EXCEPT found no
 * exception to pop. */
static int then_ends_in_way_out(const rec *r, int32_t then_start,
                                int32_t then_end) {
    return then_end > then_start && then_end <= (int32_t)r->cfg.count &&
           ins(r, blk(r, then_end - 1)->start)->op == N_POP_EXCEPT &&
           way_out_jump(r, then_end - 1) == then_end - 1;
}

/* The target of the way out of an except clause in [then_start,
 * else_start) when it leaves region rg backwards, else UPY_NO_BLOCK.  With
 * the handlers laid out after the code (3.12+), each branch of an if that
 * ends a clause has its own copy of that way out (POP_EXCEPT, the name
 * cleanup, a jump back to the code after the try): the then part goes
 * there, not on to the code after the if, so the rest of the clause is
 * the else part. */
static int32_t clause_way_out(const rec *r, int32_t then_start,
                              int32_t else_start, const region *rg) {
    int32_t b, j;
    for (b = then_start; b < else_start && b < (int32_t)r->cfg.count; b++) {
        if (ins(r, blk(r, b)->start)->op != N_POP_EXCEPT ||
            (j = way_out_jump(r, b)) == UPY_NO_BLOCK)
            continue;
        j = blk(r, j)->jump;
        if (j != UPY_NO_BLOCK && j < rg->start && j != rg->cont &&
            j != rg->loop && j != rg->brk)
            return j;
    }
    return UPY_NO_BLOCK;
}

int32_t rec_finally_cleanup(const rec *r, uint32_t end) {
    return ins(r, end)->op == N_RERAISE ? ins(r, end)->handler : (int32_t)end;
}

int rec_ends_finally_early(const rec *r, uint32_t i, uint32_t end) {
    return end && i != end && end < r->ncode.count &&
           ins(r, i)->op == N_RERAISE && ins(r, i)->arg == 0 &&
           ins(r, i)->handler == rec_finally_cleanup(r, end);
}

/* Whether the loop [start, exit) in region rg, whose exit is not the end
 * of the finally body rg is in, breaks out of that body: a block of it
 * ends in a copy of the body's RERAISE.  Its else part then runs to the
 * end of rg, where the breaks go (3.11-3.13, finally body in the handler):
 *
 *     for x in y:               FOR_ITER  (to L)
 *         if a(): break         ...; POP_TOP; RERAISE 0   <- the break
 *     else:                  L: b(); RERAISE 0
 *         b()
 *
 * (the else part may also raise: then it has no RERAISE, 3.12+). */
static int breaks_end_finally(const rec *r, int32_t start, int32_t exit,
                              const region *rg) {
    int32_t b;
    if (!rg->finally_end || exit >= rg->end ||
        blk(r, exit)->start == rg->finally_end ||
        rec_ends_finally_early(r, blk(r, exit)->start, rg->finally_end))
        return 0;
    for (b = start; b < exit; b++)
        if (rec_ends_finally_early(r, blk(r, b)->end - 1, rg->finally_end))
            return 1;
    return 0;
}

/* Whether the then part [then_start, else_start) of an if ends the
 * finally body early (see rec_ends_finally_early): its last block does, and so
 * the rest of the region is the else part. */
static int ends_finally(const rec *r, int32_t then_start, int32_t else_start,
                        const region *rg) {
    return else_start > then_start &&
           rec_ends_finally_early(r, blk(r, else_start - 1)->end - 1,
                                  rg->finally_end);
}

static int falls_to_loop(const rec *r, const region *rg);

/* Whether code of the finally body that region rg is in follows the
 * region (its follow starts before the body's final RERAISE): a branch of
 * rg that ends the body early skips that code too, which no else part
 * of an if in rg can hold.  Example (3.12): `finally:` / `if a:` / `if b:
 * g()` / `else: h()` / `a.x = 3`: the then part of `if b` ends in a copy
 * of `a.x = 3` and the RERAISE (inline_small_exit_blocks), in place of its
 * jump to that code; read as the end of the body, `a.x = 3` ran twice. */
static int finally_goes_on_after(const rec *r, const region *rg) {
    /* (Going on back to a loop's header, the early end is the loop's
     * break: the code after the loop is what it skips, break_ends_finally
     * in try.c.) */
    return rg->finally_end && rg->follow != UPY_NO_BLOCK &&
           !falls_to_loop(r, rg) && rg->follow < (int32_t)r->cfg.count &&
           blk(r, rg->follow)->start < rg->finally_end &&
           ins(r, blk(r, rg->follow)->start)->handler ==
               ins(r, rg->finally_end)->handler;
}

/* The if statement whose test's code starts at instruction `start`. */
static int emit_if(rec *r, uint32_t start, upy_expr *test, upy_ptr_vec *body,
                   upy_ptr_vec *orelse, upy_ptr_vec *out) {
    upy_stmt *s = rec_stmt(r, UPY_S_IF);
    if (!s)
        return ERROR;
    rec_set_start(r, s, start);
    s->u.if_.test = test;
    s->u.if_.body = upy_vec_stmts(body);
    if (orelse)
        s->u.if_.orelse = upy_vec_stmts(orelse);
    return rec_emit(r, out, s);
}

/* Whether block b is a lone forward jump. */
static int is_lone_forward_jump(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    return rec_is_lone(r, bb, N_JUMP) && bb->jump > b;
}

/* Whether the lone jump b jumps over the cleanup of a chained comparison
 * the test read (done: a POP_TOP, then on to where the test fails). */
static int jumps_over_chain_cleanup(const rec *r, int32_t b) {
    int32_t x, to = blk(r, b)->jump;
    if (to == b + 1 || ins(r, blk(r, b + 1)->start)->op != N_POP_TOP)
        return 0;
    for (x = b + 1; x < to; x++)
        if (!r->done[x])
            return 0;
    return 1;
}

/* The lone forward jump over the block `over` that the code after test c
 * is (the body of `if c: pass` when there is an else), or UPY_NO_BLOCK.
 * After a chained comparison the last link's fall-through first jumps
 * over the chain's cleanup to it: `if a < b < c: pass` / `else: B` is
 * ... POP_JUMP_IF_FALSE B; JUMP_FORWARD j; cleanup: POP_TOP; JUMP_FORWARD
 * B; j: JUMP_FORWARD join; B: ... */
static int32_t pass_body_jump(const rec *r, const rec_cond *c, int32_t over) {
    int32_t ft = blk(r, c->last)->next;
    if (ft == UPY_NO_BLOCK || ft >= over || !is_lone_forward_jump(r, ft))
        return UPY_NO_BLOCK;
    if (blk(r, ft)->jump < over && jumps_over_chain_cleanup(r, ft) &&
        is_lone_forward_jump(r, blk(r, ft)->jump))
        ft = blk(r, ft)->jump;
    return blk(r, ft)->jump > over ? ft : UPY_NO_BLOCK;
}

/* Going back to a loop's header.  Three questions, each about a different
 * stretch of code, none computing what another does:
 *   - falls_to_loop(rg): running off region rg's end goes back to the
 *     header (rg is the rest of a loop body, or what follows it only
 *     jumps there): where rg's follow leads, asked of no block in rg;
 *   - leaves_only_to_loop(from, to, loop): every way out of the blocks
 *     [from, to) is the header (or leaves the function): their
 *     successors, whatever the last block ends in;
 *   - goes_on_to_loop(from, to, loop): that, and the stretch goes back by
 *     a jump the compiler threaded there (copied_loop_jump, after_assert,
 *     a test's jump), not by a written `continue`, which keeps a jump of
 *     its own.
 * Whether running off region rg's end goes back to its loop's header: it
 * is the rest of the loop body, or what follows it only jumps there. */
static int falls_to_loop(const rec *r, const region *rg) {
    const upy_block *fb;
    if (rg->falls_to_loop ||
        (rg->follow == rg->loop && rg->loop != UPY_NO_BLOCK))
        return 1;
    /* (A follow at the code's end, block count, has no code: a loop of
     * malformed code that breaks there.) */
    if (rg->follow == UPY_NO_BLOCK || rg->follow >= (int32_t)r->cfg.count)
        return 0;
    fb = blk(r, rg->follow);
    return rec_is_lone(r, fb, N_JUMP) && fb->jump == rg->loop;
}

/* Whether the code of blocks [from, to) goes on only to the header of
 * loop (or leaves the function): the else part of an if at the end of a
 * loop body. */
static int leaves_only_to_loop(const rec *r, int32_t from, int32_t to,
                               int32_t loop) {
    int32_t b;
    if (to <= from || loop == UPY_NO_BLOCK)
        return 0;
    for (b = from; b < to; b++) {
        const upy_block *bb = blk(r, b);
        int32_t s[2] = {bb->next, bb->jump};
        int k;
        if (bb->rpo == UINT32_MAX)
            continue;
        for (k = 0; k < 2; k++)
            if (s[k] != UPY_NO_BLOCK && (s[k] < from || s[k] >= to) &&
                s[k] != loop)
                return 0;
    }
    return 1;
}

/* Whether blocks [from, to) end in an assert whose test, when it holds,
 * goes back to loop (the end of a loop body) and else runs into the
 * raise, the last block.  (3.12 inverts such a test to jump over a copy
 * of the jump back, flowgraph.c; normalizing undid it: threads_loop_jumps.)
 * A written `continue` after the assert has a line of its own and keeps
 * its jump, which the test goes to. */
static int after_assert(const rec *r, int32_t from, int32_t to, int32_t loop) {
    const upy_block *lb = blk(r, to - 1), *tb;
    if (to - 1 <= from)
        return 0;
    tb = blk(r, to - 2);
    return tb->next == to - 1 && tb->jump == loop &&
           ins(r, tb->end - 1)->op == N_POP_JUMP_IF &&
           ins(r, lb->start)->op == N_LOAD_ASSERTION_ERROR &&
           ins(r, lb->end - 1)->op == N_RAISE;
}

static int copied_loop_jump(const rec *r, const upy_block *lb, int32_t loop) {
    uint32_t i;
    if (lb->end - lb->start < 2 || ins(r, lb->end - 1)->op != N_JUMP ||
        lb->jump != loop ||
        ins(r, lb->end - 1)->line != ins(r, lb->end - 2)->line)
        return 0;
    for (i = lb->start; i + 1 < lb->end; i++)
        if (ins(r, i)->op != N_POP_EXCEPT)
            return 1;
    return 0;
}

/* Whether blocks [from, to) go on only to the header of loop, the last
 * by a jump after code of its own, on that code's line: the then part or
 * the rest of an if at the end of a loop body, where a `continue` and
 * reaching the end are the same.  (A jump with a line of its own, or one
 * alone or after an except clause's POP_EXCEPT only, is a written
 * `continue`: 3.12 keeps its jump apart rather than thread others through
 * it.)  Or the last by a jump and one of them by a test's jump there:
 * 3.12 threads the way a test fails, on to the end of the then part of an
 * if / else, over the else part to the end of a loop body, into a jump
 * back (normalizing made it a test jumping back, inverted_back_jump); a
 * `continue` written there would keep its jump. */
static int goes_on_to_loop(const rec *r, int32_t from, int32_t to,
                           int32_t loop) {
    const upy_block *lb;
    int32_t b;
    uint8_t last_op;
    if (!leaves_only_to_loop(r, from, to, loop))
        return 0;
    lb = blk(r, to - 1);
    if (after_assert(r, from, to, loop))
        return 1;
    if (copied_loop_jump(r, lb, loop))
        return 1;
    last_op = ins(r, lb->end - 1)->op;
    if (last_op == N_JUMP && lb->jump == loop) {
        for (b = from; b < to - 1; b++)
            if (ins(r, blk(r, b)->end - 1)->op == N_POP_JUMP_IF &&
                blk(r, b)->jump == loop)
                return 1;
        return 0;
    }
    /* (Its last branch may raise or return: an earlier one runs off, by
     * such a jump.) */
    if (last_op != N_RAISE && last_op != N_RETURN)
        return 0;
    for (b = to - 2; b >= from; b--)
        if (copied_loop_jump(r, blk(r, b), loop))
            return 1;
    return 0;
}

static int only_continues(const rec *r, int32_t b);

/* Whether block b is a small block that returns, one the compiler copies
 * into each jump to it where it copies written returns. */
static int is_copied_exit(const rec *r, int32_t b) {
    const upy_block *bb;
    if (b == UPY_NO_BLOCK || !r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps)
        return 0;
    bb = blk(r, b);
    return bb->end - bb->start <= 4 && ins(r, bb->end - 1)->op == N_RETURN;
}

/* Whether the n instructions at a and at b are on the same lines. */
int rec_same_lines(const rec *r, uint32_t a, uint32_t b, uint32_t n) {
    uint32_t k;
    for (k = 0; k < n; k++)
        if (ins(r, a + k)->line != ins(r, b + k)->line)
            return 0;
    return 1;
}

/* Whether no block of [start, join) goes on past block `join` inside
 * region rg: the code there is the else part of an if that joins there
 * (a copy of the join in an elif part is no join: the rest of the else
 * part comes after it). */
static int ends_at(const rec *r, int32_t start, int32_t join,
                   const region *rg) {
    int32_t b;
    for (b = start; b < join; b++) {
        int32_t j = blk(r, b)->jump, n = blk(r, b)->next;
        if ((j > join && j < rg->end) || (n > join && n < rg->end))
            return 0;
    }
    return 1;
}

/* Whether blocks a and b hold the same code: copies of one exit (3.12+
 * flowgraph.c inline_small_exit_blocks copies the finally body and return
 * ending a function into each branch that runs off to it).  With
 * `on_lines`, under one handler and on the same lines too: one is a copy
 * of the other the compiler made, not two statements written alike (each
 * of those has a line of its own). */
static int same_block_code(const rec *r, int32_t a, int32_t b, int on_lines) {
    const upy_block *ab = blk(r, a), *bb = blk(r, b);
    uint32_t n = ab->end - ab->start;
    return bb->end - bb->start == n &&
           rec_same_code(r, ab->start, bb->start, n) &&
           (!on_lines || (ab->handler == bb->handler &&
                          rec_same_lines(r, ab->start, bb->start, n)));
}

/* A hash of what rec_same_code compares of the code [start, end), but
 * the jump targets (a copy's are its own): blocks it tells apart differ. */
static uint64_t code_hash(const rec *r, uint32_t start, uint32_t end) {
    uint64_t h = 14695981039346656037u ^ (end - start);
    uint32_t i, k;
    for (i = start; i < end; i++) {
        const upy_nin *in = ins(r, i);
        uint64_t part[3] = {((uint64_t)in->op << 32) | (uint32_t)in->arg,
                            (uint64_t)(uintptr_t)in->obj,
                            ((uint64_t)in->flags << 1) | (in->target >= 0)};
        for (k = 0; k < 3; k++)
            h = (h ^ part[k]) * 1099511628211u;
    }
    return h;
}

/* Fills r->alike_before and alike_last (by a table of the blocks' hashes
 * in an arena released after); ERROR when out of memory.
 * (Never inlined: its locals would widen the frame of structure_if, which
 * recursion repeats for every statement nested or following a try, and
 * the stack budget, REC_STACK_BUDGET, would stop sooner.) */
__attribute__((noinline)) static int index_alike_blocks(rec *r) {
    uint32_t n = r->cfg.count, size = 2, b, slot;
    upy_arena work;
    uint64_t *keys, *hash;
    int32_t *group_last;
    int status = ERROR;
    while (size < 2 * n)
        size *= 2;
    r->alike_before = upy_arena_array(r->scratch, n + 1, sizeof(int32_t));
    r->alike_last = upy_arena_array(r->scratch, n + 1, sizeof(int32_t));
    upy_arena_init_scratch(&work, r->scratch);
    keys = upy_arena_array(&work, size, sizeof *keys);
    hash = upy_arena_array(&work, n + 1, sizeof *hash);
    group_last = upy_arena_array(&work, size, sizeof *group_last);
    if (r->alike_before && r->alike_last && keys && hash && group_last) {
        for (slot = 0; slot < size; slot++)
            group_last[slot] = -1;
        for (b = 0; b < n; b++) {
            hash[b] = code_hash(r, blk(r, b)->start, blk(r, b)->end);
            for (slot = (uint32_t)hash[b] & (size - 1);
                 group_last[slot] >= 0 && keys[slot] != hash[b];)
                slot = (slot + 1) & (size - 1);
            r->alike_before[b] = group_last[slot];
            keys[slot] = hash[b];
            group_last[slot] = (int32_t)b;
        }
        for (b = 0; b < n; b++) {
            for (slot = (uint32_t)hash[b] & (size - 1); keys[slot] != hash[b];)
                slot = (slot + 1) & (size - 1);
            r->alike_last[b] = group_last[slot];
        }
        status = SUCCESS;
    }
    upy_arena_release(&work);
    if (status != SUCCESS) {
        r->alike_last = NULL;
        rec_oom(r);
    }
    return status;
}

/* Fills r->next_handler; ERROR when out of memory. */
static int index_next_handler(rec *r) {
    uint32_t n = r->cfg.count, b;
    uint32_t *next = upy_arena_array(r->scratch, n + 1, sizeof *next);
    if (!next)
        return rec_oom(r);
    next[n] = n;
    for (b = n; b-- > 0;)
        next[b] = blk(r, b)->is_handler ? b : next[b + 1];
    r->next_handler = next;
    return SUCCESS;
}

/* The first block from b on that enters a handler, or `end` when none
 * comes before it (b itself from `end` on), read from r->next_handler:
 * the rest after each try of a body of tries scanned the blocks up to
 * its handlers (quadratic).  -1 when out of memory. */
int32_t rec_first_handler_from(rec *r, int32_t b, int32_t end) {
    if (!r->next_handler && index_next_handler(r))
        return -1;
    if (b >= end)
        return b;
    return (int32_t)r->next_handler[b] < end ? (int32_t)r->next_handler[b]
                                             : end;
}

/* The join of an if / else whose then part [then_start, else_start) ends
 * (tested by cond) in a copy of the small exit block the statement goes
 * on to, or
 * UPY_NO_BLOCK: inline_small_exit_blocks (Python/flowgraph.c) put the
 * copy in place of the then part's jump over the else part, so no jump
 * tells where the else part ends.  The block copied is the last one
 * alike after the else part's start (copies into elif parts come before
 * it), before any handler laid out there, inside the region or where it
 * runs off to (in a loop, that is the way out of a break: the copy of
 * the code after the loop in place of its jump).  Read as a return of the then
 * part, the copy's names and constants would take their slots before the else
 * part's.  Both start a statement: a return's own block after its value (of
 * `return a if c else b`, or after a with's exit) is no copy of one; and no
 * handler covers them: a return in a with or try leaves through copies of the
 * cleanup, alike for every return there. */
static int32_t copied_join(rec *r, const rec_cond *cond, int32_t then_start,
                           int32_t else_start, const region *rg) {
    int32_t c = else_start - 1, x, found = UPY_NO_BLOCK;
    int32_t last = rg->follow == rg->end && rg->loop == UPY_NO_BLOCK
                       ? rg->end
                       : rg->end - 1;
    uint32_t k;
    if (else_start <= then_start || !is_copied_exit(r, c) || r->done[c] ||
        blk(r, c)->end - blk(r, c)->start < 2 || blk(r, c)->is_handler ||
        blk(r, c)->handler != UPY_NO_BLOCK ||
        blk(r, c)->depth_in != (int32_t)rg->base)
        return UPY_NO_BLOCK;
    for (k = 0; k < blk(r, c)->npreds; k++)
        if ((blk(r, c)->preds[k] < then_start || blk(r, c)->preds[k] >= c) &&
            blk(r, c)->preds[k] != cond->last)
            return UPY_NO_BLOCK;
    if ((!r->alike_last && index_alike_blocks(r)) ||
        (!r->next_handler && index_next_handler(r)))
        return UPY_NO_BLOCK;
    /* The blocks after the else part's start, up to the last one or the
     * first handler block there, from the last back: the first of them
     * alike (all are in c's group) is the last one. */
    if (last > (int32_t)r->cfg.count - 1)
        last = (int32_t)r->cfg.count - 1;
    if (else_start + 1 < (int32_t)r->cfg.count &&
        (int32_t)r->next_handler[else_start + 1] <= last)
        last = (int32_t)r->next_handler[else_start + 1] - 1;
    for (x = r->alike_last[c]; x > else_start && found == UPY_NO_BLOCK;
         x = r->alike_before[x])
        if (x <= last && !r->done[x] && blk(r, x)->npreds &&
            blk(r, x)->depth_in == (int32_t)rg->base &&
            same_block_code(r, c, x, 1))
            found = x;
    return found != UPY_NO_BLOCK && ends_at(r, else_start, found, rg)
               ? found
               : UPY_NO_BLOCK;
}

/* Whether an if on chained comparison c whose then part `body` leaves (a
 * return, a raise) has an else part: `if c: A` + rest and `if c: A else:
 * rest` compile alike but for the chain's cleanup.  Where the compiler
 * copies written returns, it copies a small then part into the jump over
 * the cleanup, right after the test, unless an else part follows it; and
 * copies a small rest into the cleanup's way there and the last link's
 * failing jump, unless that rest is an else part. */
static int chain_else(const rec *r, const rec_cond *c,
                      const upy_ptr_vec *body) {
    const upy_stmt *last;
    const upy_block *cb;
    if (c->chain_cleanup == UPY_NO_BLOCK || !body->len)
        return 0;
    last = body->items[body->len - 1];
    if (last->kind != UPY_S_RETURN && last->kind != UPY_S_RAISE)
        return 0;
    if (c->on_true > c->chain_cleanup)
        return is_copied_exit(r, c->on_true);
    cb = blk(r, c->chain_cleanup);
    return c->chain_fail == c->on_false && cb->next == c->on_false &&
           cb->end - cb->start == 1 && is_copied_exit(r, c->on_false);
}

/* The instruction of the return or raise that ends statement s. */
static uint32_t exit_of(const rec *r, const upy_stmt *s) {
    uint32_t i = s->start;
    while (i < r->ncode.count && ins(r, i)->op != N_RETURN &&
           ins(r, i)->op != N_RAISE)
        i++;
    return i;
}

/* How many statements at the end of a then part and of its else part,
 * both leaving, are copies of one tail: the code after the if, which the
 * compiler copies into the way there (up to MAX_COPY instructions).  The
 * then part keeps one statement at least. */
enum { MAX_COPY = 8 };
static uint32_t copied_tail(const rec *r, const upy_ptr_vec *body,
                            const upy_ptr_vec *orelse) {
    uint32_t m, best = 0, ea, eb;
    if (!body->len || !orelse->len)
        return 0;
    ea = exit_of(r, body->items[body->len - 1]);
    eb = exit_of(r, orelse->items[orelse->len - 1]);
    for (m = 1; m < body->len && m <= orelse->len; m++) {
        uint32_t sa = ((const upy_stmt *)body->items[body->len - m])->start;
        uint32_t sb = ((const upy_stmt *)orelse->items[orelse->len - m])->start;
        if (ea >= r->ncode.count || eb >= r->ncode.count || sa > ea ||
            sb > eb || ea - sa != eb - sb || ea - sa >= MAX_COPY ||
            !rec_same_code(r, sa, sb, ea - sa + 1))
            break;
        best = m;
    }
    return best;
}

/* The pops before the jump of a way out of a loop: the POP_EXCEPTs (with
 * the name cleanup of each named clause) of the except clauses it leaves,
 * then the POP_TOPs (the iterator of a for loop that a break leaves). */
typedef struct {
    uint32_t clauses;
    uint32_t iterators;
} loop_pops;

/* The block that ends in the jump of the way out of a loop that starts at
 * block b, else UPY_NO_BLOCK: compile.c compiler_unwind_fblock lays out a
 * break or continue (innermost block first) as the copies of the finally
 * bodies and with exits it leaves through (skipped; read past only before
 * the rest, and only where past_skipped), the pops (counted in *pops; none
 * where pops is NULL), then the jump, over blocks that fall through into
 * each other. */
static int32_t loop_way_out(const rec *r, int32_t b, int past_skipped,
                            loop_pops *pops) {
    const upy_block *bb = blk(r, b);
    uint32_t i = bb->start;
    while (past_skipped && i + 1 < bb->end && r->skip[i])
        i++;
    for (;; bb = blk(r, b)) {
        if (i == bb->end) {
            if (bb->next != b + 1 || b + 1 >= (int32_t)r->cfg.count ||
                !upy_nin_falls_through(ins(r, i - 1)))
                return UPY_NO_BLOCK;
            i = blk(r, ++b)->start;
        } else if (ins(r, i)->op == N_POP_EXCEPT && pops && !pops->iterators) {
            pops->clauses++;
            i++;
            if (i + 3 <= bb->end && rec_clears_a_name(r, i))
                i += 3;
        } else if (ins(r, i)->op == N_POP_TOP && pops) {
            pops->iterators++;
            i++;
        } else {
            return i + 1 == bb->end && ins(r, i)->op == N_JUMP ? b
                                                               : UPY_NO_BLOCK;
        }
    }
}

/* How many with statements the skipped copies of their exits at the start
 * of block b leave, their bound __exit__s on the stack's top, the
 * innermost last: each copy calls one and pops what it returned. */
static uint32_t withs_left_at(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t i = bb->start, n, withs = 0;
    while (i < bb->end && r->skip[i] && withs < r->sp &&
           r->stack[r->sp - 1 - withs].kind == SV_WITH_EXIT &&
           ((n = with_exit_at(r, i, 0)) != 0 ||
            (n = with_exit_at(r, i, 1)) != 0)) {
        i += n;
        withs++;
    }
    return withs;
}

/* Whether block b is a break or continue of rg's loop alone (see
 * loop_way_out): its jump, or the pop of the for loop's iterator (on the
 * stack's top, or under the __exit__s of the withs the break leaves,
 * their exits' copies skipped at the start of b: compile.c
 * compiler_unwind_fblock calls them before it pops the iterator) and the
 * jump of a break. */
static int breaks_or_continues(const rec *r, const region *rg, int32_t b) {
    loop_pops pops = {0, 0};
    int32_t to = blk(r, b)->jump;
    uint32_t withs;
    if (loop_way_out(r, b, 1, &pops) != b || pops.clauses)
        return 0;
    withs = withs_left_at(r, b);
    if (pops.iterators)
        return pops.iterators == 1 && r->sp > withs &&
               r->stack[r->sp - 1 - withs].kind == SV_ITER && is_break(rg, to);
    return is_break(rg, to) || to == rg->cont;
}

/* Where block b, outside region rg, goes when it is the lone jump of a
 * break or continue of rg's loop (a handler's protected range ends before
 * such a jump), else UPY_NO_BLOCK.  The break of a for loop pops its
 * iterator, on the stack's top, first: the try is left before that.  The
 * copy of a finally body the jump leaves through comes before it
 * (skipped): in `while True:` / `try: if c: f(); break` / `finally: g()`
 * the then part runs on into `g(); JUMP <exit>` past the protected range
 * (subprocess Popen._wait, 3.8-3.11). */
static int32_t lone_loop_jump(const rec *r, const region *rg, int32_t b) {
    if (b == UPY_NO_BLOCK || b >= (int32_t)r->cfg.count || inside(rg, b) ||
        !breaks_or_continues(r, rg, b) ||
        (blk(r, b)->is_handler && loop_way_out(r, b, 1, NULL) == b))
        return UPY_NO_BLOCK;
    return blk(r, b)->jump;
}

/* Whether the innermost loop of region rg is a for loop (a POP_TOP before
 * the code of its exit pops the iterator; in a while loop, a value). */
static int in_for_loop(const rec *r, const region *rg) {
    return rg->loop != UPY_NO_BLOCK &&
           ins(r, blk(r, rg->loop)->end - 1)->op == N_FOR_ITER;
}

/* The most neutral instructions of an exit block the compiler copies (up
 * to four of its own, some of which the neutral form splits). */
enum { MAX_EXIT_COPY = 8 };

/* Whether block b only leaves rg's loop or the function, as the code of
 * a break, continue or return the compiler lays out past a try body's
 * protected range: the lone jump of a break or continue, a return whose
 * value is loaded before (or a constant's), or a copy of the code at the
 * loop's exit, a small block that returns (3.12+); after the copies of
 * the finally bodies and with exits it leaves through (skipped) and, for
 * a for loop's break, the pop of the iterator.  Code that may raise, run
 * in the protected range, would be caught by the handler. */
static int only_leaves(const rec *r, const region *rg, int32_t b) {
    const upy_block *bb = blk(r, b), *eb;
    uint32_t i = bb->start, n;
    while (i + 1 < bb->end && r->skip[i])
        i++;
    if (ins(r, bb->end - 1)->op == N_JUMP)
        return breaks_or_continues(r, rg, b);
    if (ins(r, bb->end - 1)->op != N_RETURN)
        return 0;
    if (i + 1 < bb->end && ins(r, i)->op == N_POP_TOP && in_for_loop(r, rg))
        i++;
    n = bb->end - i;
    if (n == 1 || (n == 2 && ins(r, i)->op == N_LOAD_CONST))
        return 1;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count)
        return 0;
    eb = blk(r, rg->brk);
    return n <= MAX_EXIT_COPY && eb->end - eb->start >= n &&
           ins(r, eb->end - 1)->op == N_RETURN &&
           rec_same_code(r, i, eb->end - n, n);
}

/* Where block b goes when it is a break of rg's loop that the compiler
 * wrote as a copy of the small exit block at the loop's exit, which
 * returns, in place of its jump (flowgraph.c inline_small_exit_blocks,
 * 3.10 compile.c), laid out past the protected range of the try body rg
 * (compile.c compiler_unwind_fblock pops the try's block first): a for
 * loop's pops the iterator first.  rg's loop exit, else UPY_NO_BLOCK.
 * In `while i < n:` / `try: if x > 0: break` / `except E: pass` +
 * `return x[0]`, 3.12 lays out the test, then `x[0]; RETURN_VALUE` out of
 * the handler's range: read as `return x[0]` in the try, a TypeError of
 * x[0] would be caught. */
static int32_t exit_copy_break(const rec *r, const region *rg, int32_t b) {
    const upy_block *bb, *eb;
    uint32_t i, n;
    if (!r->ncode.layout->copies_exits || b == UPY_NO_BLOCK ||
        b >= (int32_t)r->cfg.count || b == rg->brk || rg->brk == UPY_NO_BLOCK ||
        rg->brk >= (int32_t)r->cfg.count)
        return UPY_NO_BLOCK;
    bb = blk(r, b);
    eb = blk(r, rg->brk);
    i = bb->start;
    while (i + 1 < bb->end && r->skip[i])
        i++;
    if (in_for_loop(r, rg)) {
        if (ins(r, i)->op != N_POP_TOP)
            return UPY_NO_BLOCK;
        i++;
    }
    n = bb->end - i;
    /* (The whole exit: a copy of its tail is a break past the loop's
     * else part, to the return after it.) */
    if (bb->is_handler || bb->handler == rg->handler || !n ||
        n > MAX_EXIT_COPY || eb->start + n > r->ncode.count ||
        ins(r, eb->start + n - 1)->op != N_RETURN ||
        !rec_same_code(r, i, eb->start, n))
        return UPY_NO_BLOCK;
    return rg->brk;
}

/* Where block b goes when it is a way out of rg's loop by a break or
 * continue: its lone jump (lone_loop_jump) or a copy of the loop's exit
 * (exit_copy_break); else UPY_NO_BLOCK. */
static int32_t loop_jump_or_copy(const rec *r, const region *rg, int32_t b) {
    int32_t t = lone_loop_jump(r, rg, b);
    return t != UPY_NO_BLOCK ? t : exit_copy_break(r, rg, b);
}

/* Whether an if with outcomes on_true, inside region rg, and on_false,
 * past its end, is the last statement of a try body whose then part ends
 * by a break, continue or return: rg is that body (the block at its end
 * is no longer under its handler: compile.c compiler_unwind_fblock pops
 * the try's block before the unwinding of the way out, the iterator's
 * POP_TOP, and its jump or return), that block is the way out (its
 * lone jump, a copy of the loop's exit in place of the jump, or the pop
 * of a for loop's iterator and a return, read with it), reached only from
 * the then part, and the test's other way goes past it.  In
 *     for s in suffixes:          FOR_ITER
 *         try:                    ... POP_JUMP_IF_FALSE L (the test)
 *             if w.endswith(s):   w = w[:-1]
 *                 w = w[:-1]      POP_TOP; LOAD_FAST w; RETURN_VALUE (rg's end)
 *                 break        L: JUMP_BACKWARD <FOR_ITER>
 *         except ValueError:
 *             pass
 *     return w
 * (3.12) the break is the then part's; read as code after the try, the
 * loop stopped after the first suffix (3.10, 3.12, 3.13; and on every
 * version where the then part ends in an if that joins at the break:
 * whoosh RomanianStemmer.stem). */
static int ends_body_by_loop_jump(const rec *r, const region *rg,
                                  int32_t on_true, int32_t on_false) {
    const upy_block *eb;
    int32_t k;
    if (rg->handler == UPY_NO_BLOCK || !inside(rg, on_true) ||
        on_false == UPY_NO_BLOCK || on_false <= rg->end || rg->end <= on_true ||
        rg->end >= (int32_t)r->cfg.count ||
        blk(r, rg->end - 1)->next != rg->end)
        return 0;
    eb = blk(r, rg->end);
    if (eb->handler == rg->handler || !eb->npreds)
        return 0;
    /* The lone jump that only running off the then part reaches. */
    if (eb->npreds == 1 && eb->preds[0] == rg->end - 1 &&
        lone_loop_jump(r, rg, rg->end) != UPY_NO_BLOCK)
        return 1;
    /* Other ways out, where nothing after them is under the handler
     * again: there the protected range goes on past a hole, and the
     * body with it (in `try: if v: try: a() / except K: continue` +
     * `b()` / `except E: ...`, 3.8, the inner clause's continue is the
     * hole). */
    for (k = rg->end + 1; k < (int32_t)r->cfg.count; k++)
        if (blk(r, k)->handler == rg->handler)
            return 0;
    /* (Nor where a test in the then part jumps out elsewhere: 3.13 keeps
     * a jump back of its own for each test, so in `if a:` / `if b: x()`
     * / `break` the if on b jumps to its own JUMP_BACKWARD; that if is
     * the one that ends the body so.) */
    for (k = on_true; k < rg->end; k++)
        if (blk(r, k)->jump > rg->end && blk(r, k)->jump != on_false &&
            ins(r, blk(r, k)->end - 1)->op == N_POP_JUMP_IF)
            return 0;
    return rg->loop != UPY_NO_BLOCK &&
           upy_cfg_entered_only_from(&r->cfg, rg->end, rg->end + 1, on_true,
                                     rg->end) &&
           (loop_jump_or_copy(r, rg, rg->end) != UPY_NO_BLOCK ||
            (in_for_loop(r, rg) && ins(r, eb->start)->op == N_POP_TOP &&
             ins(r, eb->end - 1)->op == N_RETURN));
}

/* Whether block b is a break of rg's for loop whose way out 3.12+ made
 * of copies: the copies of the finally bodies it leaves through (skipped
 * already), the POP_TOP of the iterator (on the stack's top), then, in
 * place of the jump, a copy of the small exit block at the loop's exit
 * that returns (flowgraph.c inline_small_exit_blocks).  In `for x in a:`
 * / `try: x()` / `except E: break` / `finally: d()` + `return g()` the
 * clause's break is POP_EXCEPT, then a block of its own out of the
 * handlers: d(); POP_TOP; g(); RETURN_VALUE. */
static int pops_iterator_to_exit_copy(const rec *r, const region *rg,
                                      int32_t b) {
    const upy_block *bb = blk(r, b), *eb;
    uint32_t i = bb->start, n;
    while (i + 2 < bb->end && r->skip[i])
        i++;
    if (i == bb->start || ins(r, i)->op != N_POP_TOP || !r->sp ||
        r->stack[r->sp - 1].kind != SV_ITER || !in_for_loop(r, rg) ||
        rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count)
        return 0;
    eb = blk(r, rg->brk);
    n = bb->end - i - 1;
    return ins(r, bb->end - 1)->op == N_RETURN && eb->end - eb->start >= n &&
           ins(r, eb->end - 1)->op == N_RETURN &&
           rec_same_code(r, i + 1, eb->end - n, n);
}

/* Where the else part of the if / else with then part [on_true,
 * on_false) ends when it is the last statement of a try body (region rg)
 * and runs on past the protected range into blocks that only it reaches,
 * up to one that does not fall through, while the then part jumps
 * elsewhere (*way_on gets where): those blocks end the else part, they
 * are no else part of the try; else UPY_NO_BLOCK.  The compiler leaves
 * the try before a break, continue or return (3.11 compile.c
 * compiler_unwind_fblock pops the handler first), so their jumps lie
 * after the protected range, and 3.12+ copies a small exit in a break's
 * place (flowgraph.c inline_small_exit_blocks).  In `while p < n:` /
 * `try:` / `if a: p += 1` / `else: r = g(); break` / `except E: h()`,
 * 3.11 lays out the body, the break's JUMP_FORWARD to the loop's exit,
 * then the body's JUMP_FORWARD over the handler, which the then part jumps
 * to; 3.12 the body, a copy of the code after the loop, then the code the
 * then part jumps to (3.13 may lay that out after the handlers).  A try
 * whose else part is the break has both parts of the if run into it; and
 * where the then part jumps to a copy of the same exit, the if / else
 * ends there (the code after a try / finally, copied into each branch:
 * asyncio Task.__step_run_and_handle_result, 3.12). */
static int32_t else_runs_past_body(const rec *r, const region *rg,
                                   int32_t on_true, int32_t on_false,
                                   int32_t *way_on) {
    int32_t k, j;
    if (rg->handler == UPY_NO_BLOCK || !inside(rg, on_true) ||
        !inside(rg, on_false) || on_false <= on_true)
        return UPY_NO_BLOCK;
    j = then_jump_end(r, on_true, on_false, rg);
    if (j == UPY_NO_BLOCK || j == rg->end)
        return UPY_NO_BLOCK;
    for (k = rg->end; k < (int32_t)r->cfg.count && k != j; k++) {
        const upy_block *kb = blk(r, k);
        if (kb->is_handler || kb->handler == rg->handler ||
            kb->rpo == UINT32_MAX || !kb->npreds || !only_leaves(r, rg, k))
            return UPY_NO_BLOCK;
        if (!upy_cfg_entered_only_from(&r->cfg, k, k + 1, on_false, k + 1))
            return UPY_NO_BLOCK;
        if (!upy_nin_falls_through(ins(r, kb->end - 1))) {
            *way_on = j;
            return same_block_code(r, k, j, 0) ? UPY_NO_BLOCK : k + 1;
        }
    }
    return UPY_NO_BLOCK;
}

/* Whether the if on c, whose then part [on_true, then_end) ended in
 * `continue` (body), is an if / else whose else part is a written
 * `continue` ending the loop body (region rg runs off to the loop's
 * header): its lone jump to the loop's header,
 * with a line of its own, is the last block of region rg and only the
 * test reaches it, while the then part goes back by the jump on its
 * code's line that ends any loop body.  3.12+ have no backward
 * conditional jump and keep a written continue's jump apart (flowgraph.c
 * keeps a jump with a line when it threads jumps to jumps), so the test
 * jumps forward to it: `if c: body; continue` would jump over a copy. */
static int else_is_written_continue(const rec *r, const rec_cond *c,
                                    const region *rg, int32_t then_end,
                                    const upy_ptr_vec *body) {
    const upy_block *eb;
    int32_t f = c->on_false;
    if (rg->loop == UPY_NO_BLOCK || rg->cont != rg->loop ||
        !falls_to_loop(r, rg) || f != then_end || f != rg->end - 1 ||
        !body->len ||
        ((const upy_stmt *)body->items[body->len - 1])->kind != UPY_S_CONTINUE)
        return 0;
    eb = blk(r, f);
    return rec_is_lone(r, eb, N_JUMP) && eb->jump == rg->loop && eb->npreds &&
           upy_cfg_entered_only_from(&r->cfg, f, f + 1, c->first,
                                     c->last + 1) &&
           goes_on_to_loop(r, c->on_true, then_end, rg->loop);
}

/* Whether block b of a then part that starts at block `from`, jumping back
 * to the header of the loop around, goes on to that loop's next turn, not
 * out of a loop inside the then part by a jump the compiler threaded to
 * that header: neither the break of a for loop whose header is a block
 * from `from` on and whose body b lies in (pops_to_outer_loop), nor a lone
 * jump on the line of the code before it (a written `continue` has a line
 * of its own), where an inner while loop's test at the bottom of its body
 * goes when it fails. */
static int continues_loop_around(const rec *r, int32_t from, int32_t b) {
    const upy_block *bb = blk(r, b);
    int32_t h;
    for (h = from; h < b; h++)
        if (ins(r, blk(r, h)->end - 1)->op == N_FOR_ITER && blk(r, h)->jump > b)
            return 0;
    return !(bb->end - bb->start == 1 && bb->start > 0 &&
             ins(r, bb->start - 1)->op == N_POP_JUMP_IF &&
             ins(r, bb->start)->line == ins(r, bb->start - 1)->line);
}

/* The parts of an if ending a loop body whose both parts go back to the
 * loop: the then part's last statement (its way back) is dropped, and the
 * else part, read to the region's end, loses a final continue the same
 * way (the loop goes back where the body runs off). */
static int else_back_to_loop(rec *r, int32_t on_false, const region *rg,
                             upy_ptr_vec *body, upy_ptr_vec *orelse) {
    region else_rg = rec_sub_region(rg, on_false, rg->end, rg->follow);
    if (((upy_stmt *)body->items[body->len - 1])->kind == UPY_S_CONTINUE)
        body->len--;
    RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, orelse, NULL));
    if (orelse->len &&
        ((upy_stmt *)orelse->items[orelse->len - 1])->kind == UPY_S_CONTINUE)
        orelse->len--;
    return SUCCESS;
}

static int in_cold_handler(const rec *r, int32_t b, int32_t start,
                           int32_t exit);

/* Whether blocks [from, to) end in a `while True:` loop (the last block
 * jumps back into them) and only leave by its breaks, jumps to the header
 * of the loop around, from its code or from the code of the handler of a
 * try in it, laid out after all other code (3.12+
 * push_cold_blocks_to_end): the compiler threaded those jumps through the
 * end of an if / else ending the body of the loop around to its header.
 * Example: `for i in xs:` / `if c:` / `while True:` / `try: f()` /
 * `except E: break` / `else: g()`: the clause's POP_EXCEPT then
 * JUMP_BACKWARD to the FOR_ITER. */
static int while_true_breaks_to_loop(const rec *r, int32_t from, int32_t to,
                                     int32_t loop) {
    const upy_block *lb = blk(r, to - 1);
    int32_t b, i;
    if (!leaves_only_to_loop(r, from, to, loop) ||
        ins(r, lb->end - 1)->op != N_JUMP || lb->jump < from || lb->jump >= to)
        return 0;
    for (b = lb->jump; b < to; b++) {
        int32_t h = blk(r, b)->handler;
        if (blk(r, b)->jump == loop)
            return 1;
        if (h == UPY_NO_BLOCK || h < to || !blk(r, h)->is_handler)
            continue;
        for (i = h; i < (int32_t)r->cfg.count; i++) {
            const upy_block *hb = blk(r, i);
            if (i > h && (hb->is_handler || !in_cold_handler(r, i, from, to)))
                break;
            if (ins(r, hb->end - 1)->op == N_JUMP && hb->jump == loop)
                return 1;
        }
    }
    return 0;
}

/* Whether the if on c, at the end of a loop body in region rg, is an if /
 * else whose then part [on_true, then_end) goes back to the loop by the
 * jump ending its code, threaded there by 3.12, and so does the else part
 * on_false to rg's end: running off the then part goes back to the loop
 * (an if ending it jumps there when its test fails, where 3.12 threads
 * the jump: `if a: if b: x` + `else: y` is no `if not b: continue`). */
static int then_goes_to_loop(const rec *r, const rec_cond *c, const region *rg,
                             int32_t on_true, int32_t on_false,
                             int32_t then_end) {
    return on_false == c->on_false && on_false < rg->end &&
           ((r->ncode.layout->threads_loop_jumps && falls_to_loop(r, rg) &&
             goes_on_to_loop(r, on_true, then_end, rg->loop)) ||
            while_true_breaks_to_loop(r, on_true, then_end, rg->loop)) &&
           leaves_only_to_loop(r, on_false, rg->end, rg->loop) &&
           blk(r, on_false)->end - blk(r, on_false)->start > 1;
}

/* The instruction after the pops that start the way on of with statement
 * s where its __exit__ swallowed an exception (its handler's POP_TOP;
 * POP_EXCEPT; POP_TOP; POP_TOP), or UINT32_MAX when not found. */
static uint32_t with_suppress_at(const rec *r, const upy_stmt *s) {
    uint32_t i = s->start, n = r->ncode.count;
    int32_t h;
    while (i < n && ins(r, i)->op != N_BEFORE_WITH)
        i++;
    /* (async with awaits __aenter__ first, outside the with's handler.) */
    if (i + 1 < n && ins(r, i + 1)->op == N_AWAIT)
        i++;
    if (i + 1 >= n || (h = ins(r, i + 1)->handler) < 0)
        return UINT32_MAX;
    for (i = (uint32_t)h; i + 4 < n; i++)
        if (ins(r, i)->op == N_POP_TOP && ins(r, i + 1)->op == N_POP_EXCEPT &&
            ins(r, i + 2)->op == N_POP_TOP && ins(r, i + 3)->op == N_POP_TOP)
            return i + 4;
    return UINT32_MAX;
}

/* Whether `body`, the then part of an if that ends the body of the loop
 * of region rg (rg runs off to the loop's header), ends in a with
 * statement that runs off its end: the `continue` after the with (the
 * last of body, the with's normal exit jumping back) stands for no
 * statement when the with's way on after __exit__ swallowed an exception
 * jumps straight to the header.  A written `continue` keeps a jump of its
 * own, on its own line, which the with's way on goes to (3.13 threads no
 * jump into one with a line: JUMP_BACKWARD_NO_INTERRUPT to the continue,
 * where the end of an if / else is JUMP_BACKWARD to the header). */
static int ends_in_with_off_to_loop(const rec *r, const region *rg,
                                    const upy_ptr_vec *body) {
    uint32_t j;
    if (rg->loop == UPY_NO_BLOCK || rg->cont != rg->loop ||
        !falls_to_loop(r, rg) || body->len < 2 ||
        ((const upy_stmt *)body->items[body->len - 1])->kind !=
            UPY_S_CONTINUE ||
        ((const upy_stmt *)body->items[body->len - 2])->kind != UPY_S_WITH)
        return 0;
    j = with_suppress_at(r, body->items[body->len - 2]);
    return j != UINT32_MAX && ins(r, j)->op == N_JUMP &&
           ins(r, j)->target == (int32_t)blk(r, rg->loop)->start;
}

/* Whether the if on c, ending a loop body (region rg runs off to the
 * loop's header), is an if / else: the `continue` ending its then part
 * [on_true, then_end) (the last of body) stands for no jump of its own,
 * and the rest of rg, which only goes back to the loop, is the else part.
 * Two then parts:
 *   - one that never runs off its end.  The compiler drops the then
 *     part's jump over the else part as unreachable, and threads jumps to
 *     where it went (a break of an inner for loop, to the header of this
 *     one), so `if c: A; continue` + B would keep a jump the original
 *     lacks.  A written `continue` is a lone jump of the then part to the
 *     header; a then part that goes back by the jump ending its code is
 *     the threads_loop_jumps branch's; an else part that is a lone jump
 *     back is no code of the source (the test of `assert a if c else 6`
 *     whose constant the compiler folded);
 *   - one that ends in a with that runs off its end
 *     (ends_in_with_off_to_loop). */
static int rest_is_else_part(const rec *r, const rec_cond *c, const region *rg,
                             int32_t then_end, const upy_ptr_vec *body) {
    int32_t b;
    if (rg->loop == UPY_NO_BLOCK || rg->cont != rg->loop ||
        !falls_to_loop(r, rg) || c->on_false != then_end ||
        then_end >= rg->end || !body->len ||
        ((const upy_stmt *)body->items[body->len - 1])->kind !=
            UPY_S_CONTINUE ||
        !leaves_only_to_loop(r, then_end, rg->end, rg->loop))
        return 0;
    if (ends_in_with_off_to_loop(r, rg, body))
        return 1;
    if (blk(r, then_end)->end - blk(r, then_end)->start < 2)
        return 0;
    for (b = c->on_true; b < then_end; b++) {
        const upy_block *bb = blk(r, b);
        if (bb->next == then_end ||
            (ins(r, bb->end - 1)->op == N_JUMP && bb->jump == rg->loop &&
             continues_loop_around(r, c->on_true, b)))
            return 0;
    }
    return 1;
}

/* How many instructions from `at` on are a copy of the small exit block
 * at `to` (up to its return; the compiler copies such blocks in place of
 * jumps to them), 0 when they are not. */
static uint32_t exit_copy_len(const rec *r, uint32_t at, uint32_t to) {
    uint32_t n = 0;
    while (to + n < r->ncode.count && n < 8 && ins(r, to + n)->op != N_RETURN)
        n++;
    if (at == to || to + n >= r->ncode.count ||
        ins(r, to + n)->op != N_RETURN || at + n >= r->ncode.count ||
        !rec_same_code(r, at, to, n + 1))
        return 0;
    return n + 1;
}

/* Whether the if on c, whose then part `body` ends in a with statement,
 * is the last statement of region rg, with an else part from on_false
 * on: where the with's __exit__ swallowed an exception it goes on to the
 * code after the region (a copy of it, where the compiler copies small
 * exit blocks in place of jumps to them, or a jump there), not to the
 * code at on_false, which is no code after the if then.  *ret gets where
 * that way on starts and *copy_len the length of the copy (0 where it
 * jumps); after a region that ends the code, it is `return k`, an
 * implicit `return None` or one to write after the if (*copy_len 0). */
static int then_with_leaves_region(const rec *r, const region *rg,
                                   int32_t on_false, const upy_ptr_vec *body,
                                   uint32_t *ret, uint32_t *copy_len) {
    uint32_t j, f, n, to;
    if (on_false >= rg->end || !body->len || rg->loop != UPY_NO_BLOCK ||
        ((const upy_stmt *)body->items[body->len - 1])->kind != UPY_S_WITH)
        return 0;
    j = with_suppress_at(r, body->items[body->len - 1]);
    f = blk(r, on_false)->start;
    if (j == UINT32_MAX || j + 1 >= r->ncode.count || j == f)
        return 0;
    *ret = UINT32_MAX;
    *copy_len = 0;
    if (rg->follow == UPY_NO_BLOCK) {
        if (rg->end != (int32_t)r->cfg.count || ins(r, j)->op != N_LOAD_CONST ||
            ins(r, j + 1)->op != N_RETURN || rec_same_code(r, j, f, 2))
            return 0;
        *ret = j;
        return 1;
    }
    if (rg->follow >= (int32_t)r->cfg.count)
        return 0;
    to = blk(r, rg->follow)->start;
    if (ins(r, j)->op == N_JUMP)
        return rec_jumped_to(r, j) == rec_jumped_to(r, to) &&
               rec_jumped_to(r, f) != to;
    n = exit_copy_len(r, j, to);
    if (!n || rec_same_code(r, j, f, n))
        return 0;
    *ret = j;
    *copy_len = n;
    return 1;
}

/* The statement of `LOAD_CONST k; RETURN` at instruction at, read on its
 * own where the compiler copied it (`return k`; `return` for None). */
static int emit_const_return(rec *r, uint32_t at, upy_ptr_vec *out) {
    upy_stmt *s = rec_stmt(r, UPY_S_RETURN);
    if (!s)
        return ERROR;
    rec_set_start(r, s, at);
    s->u.value = rec_const(r, ins(r, at)->obj);
    if (!s->u.value)
        return rec_oom(r);
    if (rec_is_const_none(s->u.value))
        s->u.value = NULL;
    return rec_emit(r, out, s);
}

/* `return k` at instruction at: after an if that ends the code, where a
 * with in its then part goes on (then_with_leaves_region); nothing for
 * the implicit `return None`. */
static int return_after_if(rec *r, uint32_t at, upy_ptr_vec *out) {
    if (at == UINT32_MAX || ins(r, at)->obj->kind == UPY_NONE)
        return 0;
    return emit_const_return(r, at, out);
}

/* Whether block b is `return k` alone (load: LOAD_CONST k; RETURN), or
 * `return name` (load: N_LOAD), nothing of it skipped. */
static int returns_load(const rec *r, int32_t b, upy_nop load) {
    const upy_block *bb = blk(r, b);
    return bb->end - bb->start == 2 && !r->skip[bb->start] &&
           ins(r, bb->start)->op == load &&
           ins(r, bb->start + 1)->op == N_RETURN;
}

/* Whether block b, which a test of region rg jumps to, is a copy of a
 * return of a constant (LOAD_CONST k; RETURN) out of the region, which
 * runs off back to its loop: 3.11+ copies such a block into each jump to
 * it, so the jump is that return, not the way the region goes on.  (Out
 * of a loop, running off the region may well end in that return: the
 * jump then reads as the region's way on, as it was written.) */
static int leaves_by_return_copy(const rec *r, int32_t b, const region *rg) {
    return b != UPY_NO_BLOCK && rg->falls_to_loop && !inside(rg, b) &&
           b != rg->follow && b != rg->end && b != rg->cont &&
           !is_break(rg, b) && returns_load(r, b, N_LOAD_CONST);
}

/* After `if t: continue` (or break) ending a loop body whose other way,
 * block b, is the region's end: where the body is a `while True:` loop's,
 * with the return after the loop copied there (3.11: the body's last test
 * jumps back when it holds and falls into that copy), the body runs off
 * into it: that `return`, not the way back to the loop.  Sets *next to
 * UPY_NO_BLOCK then. */
static int runs_off_into_return(rec *r, int32_t b, const region *rg,
                                int32_t *next, upy_ptr_vec *out) {
    if (b == UPY_NO_BLOCK || b != rg->end || !rg->falls_to_loop ||
        rg->loop == UPY_NO_BLOCK || b >= (int32_t)r->cfg.count ||
        b == rg->loop || r->done[b] || !returns_load(r, b, N_LOAD_CONST) ||
        blk(r, b - 1)->next != b || blk(r, b - 1)->jump != rg->loop)
        return SUCCESS;
    r->done[b] = 1;
    *next = UPY_NO_BLOCK;
    return emit_const_return(r, blk(r, b)->start, out);
}

/* Whether block b, a way out of the try body rg by the lone jump of a
 * break or continue (lone_loop_jump), is the statement of the body's last
 * if, where the test's other way is such a jump too: the compiler lays
 * the if's body out right after its test, at the end of the protected
 * range, and the jump to the end of the try after it (threaded to the
 * loop's header or exit where the try ends the loop body).  In
 *     for i in xs:               FOR_ITER
 *         try:                   ... POP_JUMP_IF_FALSE L (the test)
 *             if g(i):           POP_TOP; JUMP <after the loop>  (rg's end)
 *                 break       L: JUMP <FOR_ITER>  (end of the try body)
 *         except E:
 *             pass
 * the break is the then part and the jump back where the body goes on;
 * reading the other as where it goes on made `if g(i): pass` + `break`
 * (all versions). */
static int then_jump_at_body_end(const region *rg, int32_t b) {
    return rg->handler != UPY_NO_BLOCK && b == rg->end;
}

/* Whether a way of the test of an if in region rg, on_true or on_false,
 * would lose code that it runs, read as it is: not recovered.  Three
 * shapes:
 *   - on_false is a return of its own outside the region while running
 *     off the region ends in another return: a branch of a conditional
 *     expression in the test went to a copy of the if's small exit
 *     (flowgraph.c inline_small_exit_blocks, 3.10 and 3.12+), so the
 *     test's ways no longer meet where an if can join them, and sending
 *     on_false to the region's end would run the other return (issue 16);
 *   - the then part, ending the try body rg and laid out right after the
 *     protected range (on_true, rg's end) while on_false leaves the region
 *     too, ends in a jump of rg's loop that lone_loop_jump did not read:
 *     its unwinding is more than a skipped copy (the exit of a with around
 *     the try, not yet skipped).  The region's end would take both ways,
 *     and the break would be lost: `for i in xs:` / `with lock:` / `try:
 *     if g(i): break` / `except E: pass` came out as `if g(i): pass` (3.8,
 *     3.9, 3.11);
 *   - a way goes to the region's end where running off the region goes
 *     past it, to rg->follow: into the else part of an if / else whose
 *     then part rg is, which no written statement of the then part
 *     reaches.  The test was only part of a condition the network did not
 *     take whole (`if a or f(x if c else y):`: the second operand's own
 *     branches kept it out, and its test, read as an if of the then part
 *     of `if not a:`, jumps to the body that `a` jumps to, the else part;
 *     sqlglot Parser._parse_limit).  That way would run off the then part.
 *     (Not where the region's end is a copy of the code after the if /
 *     else that the if took as that code, done: copied_join.) */
static int if_loses_a_way(const rec *r, const region *rg, int32_t on_true,
                          int32_t on_false) {
    int32_t ways[2] = {on_true, on_false}, t;
    const upy_block *ob, *fb;
    int k;
    for (k = 0; k < 2; k++) {
        t = ways[k];
        if (t != UPY_NO_BLOCK && t == rg->end && rg->follow != UPY_NO_BLOCK &&
            rg->follow > rg->end && t != rg->brk && t != rg->cont &&
            t != rg->loop && !r->done[t])
            return 1;
    }
    if (rg->handler != UPY_NO_BLOCK && on_true == rg->end &&
        on_false != on_true && !inside(rg, on_false) &&
        on_true < (int32_t)r->cfg.count &&
        ins(r, blk(r, on_true)->end - 1)->op == N_JUMP &&
        (is_break(rg, blk(r, on_true)->jump) ||
         blk(r, on_true)->jump == rg->cont))
        return 1;
    if (on_false == UPY_NO_BLOCK || inside(rg, on_false) ||
        on_false == rg->end || on_false == rg->follow ||
        rg->follow == UPY_NO_BLOCK || on_false >= (int32_t)r->cfg.count ||
        rg->follow >= (int32_t)r->cfg.count)
        return 0;
    ob = blk(r, on_false);
    fb = blk(r, rg->follow);
    return ins(r, ob->end - 1)->op == N_RETURN &&
           ins(r, fb->end - 1)->op == N_RETURN &&
           (ob->end - ob->start != fb->end - fb->start ||
            !rec_same_code(r, ob->start, fb->start, ob->end - ob->start));
}

/* Whether the then part `body` of an if, read up to on_false, ends in a
 * with statement whose way on where __exit__ swallowed an exception is
 * block then_exit, outside the then part and not on_false (nor where the
 * test jumps when false, out of the region, nor where a lone jump at
 * on_false goes: 3.8's jump over the elif parts): 3.12+
 * flowgraph.c push_cold_blocks_to_end lays the join of the if (a while
 * loop's test, the code after a try whose body the if ends) after the
 * handlers, so both branches end in the with and the return of their
 * bodies (`while d:` / `if c:` / `with a as p: return p` / `else:` /
 * `with b as p: return p`): read as if with no else, the swallowing way
 * would run into the else part.  Example: the with's handler ends
 * POP_TOP; POP_EXCEPT; POP_TOP; POP_TOP; JUMP to the loop's test.  (In
 * `try:` / `if c: with a as p: return p` / `else: g()` / `except E:
 * pass` / `return 5`, 3.12 copies `return 5` after those pops,
 * inline_small_exit_blocks: no block of the try body's region.) */
static int with_goes_on_elsewhere(const rec *r, const rec_cond *c,
                                  const upy_ptr_vec *body, int32_t then_exit,
                                  int32_t on_false) {
    return body->len &&
           ((const upy_stmt *)body->items[body->len - 1])->kind == UPY_S_WITH &&
           then_exit != UPY_NO_BLOCK && then_exit != on_false &&
           then_exit != c->on_false && then_exit < (int32_t)r->cfg.count &&
           on_false < (int32_t)r->cfg.count &&
           rec_jumped_to(r, blk(r, then_exit)->start) !=
               rec_jumped_to(r, blk(r, on_false)->start);
}

/* Whether block b of region rg, the rest of a loop body, is the bottom
 * of that body (3.12+ lays it after the handlers, push_cold_blocks_to_end,
 * where only a with's swallowing way reaches it): the jump back of a
 * `while True:` loop, or the copy of a while loop's test, the code of the
 * test at rg->cont, jumping back to the loop's header when true. */
static int is_bottom_test_of(const rec *r, const region *rg, int32_t b) {
    const upy_block *bb, *tb;
    if (rg->loop == UPY_NO_BLOCK || rg->cont == UPY_NO_BLOCK ||
        !inside(rg, b) || !falls_to_loop(r, rg))
        return 0;
    bb = blk(r, b);
    if (rec_is_lone(r, bb, N_JUMP))
        return bb->jump == rg->loop && rg->cont == rg->loop;
    tb = blk(r, rg->cont);
    return rg->cont != rg->loop && ins(r, bb->end - 1)->op == N_POP_JUMP_IF &&
           bb->jump == rg->loop && bb->end - bb->start == tb->end - tb->start &&
           ins(r, tb->end - 1)->op == N_POP_JUMP_IF &&
           rec_same_code(r, bb->start, tb->start, bb->end - bb->start - 1);
}

/* The then part goes on at then_exit, past where the test's false way
 * goes, and not to a copy of it: the code between is an else part whose
 * end no jump shows.  So where 3.12+ lays the then part's handlers out
 * cold (flowgraph.c push_cold_blocks_to_end) and the then part ends in a
 * return: `if a: try: return f(a) / except E: x = 1` / `else: try: return
 * g(a) / except F: x = 2` + `raise L(a, x)` (babel dates.get_timezone);
 * or the handlers go on to code only they reach, laid out past the
 * region (the then part's rest or the code after the if: the same code
 * where the else part never runs off), read with the then part (`if d >
 * 1: try: return c[k] / except KeyError: pass` / `else: c[k] = 0; return
 * 0` + `try: return c[k] / ...`, hypothesis engine.cached_test_function).
 * Read as code after the if, it ran after the then part.  Reads the else
 * part into orelse: SUCCESS; NOT_THIS where it goes on elsewhere or leaves
 * a block of it unread (not recovered); ERROR. */
static int else_up_to_then_exit(rec *r, const region *rg, int32_t on_false,
                                int32_t then_exit, upy_ptr_vec *orelse) {
    int32_t end = inside(rg, then_exit) ? then_exit : rg->end, else_exit, b;
    region else_rg = rec_sub_region(rg, on_false, end, then_exit);
    RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, orelse, &else_exit));
    if (else_exit != UPY_NO_BLOCK && else_exit != then_exit)
        return NOT_THIS;
    /* (The cleanup blocks of its clauses, handlers of their own, are
     * never read as statements.) */
    for (b = on_false; b < end; b++)
        if (!r->done[b] && !blk(r, b)->is_handler)
            return NOT_THIS;
    return SUCCESS;
}

/* The dead `else: break` ending a while loop's body that the then part
 * [on_true, on_false) of an if in region rg ends by jumping to, a `break`
 * of its own: block d, a lone jump to the loop's exit inside rg, that
 * nothing falls into, the nearest place past on_false the then part jumps
 * to (then_jump_end); UPY_NO_BLOCK when there is none.  3.8 / 3.9
 * peephole.c threaded the last elif's test through d to the exit and
 * left d unreachable, and normalize/unthread.c unthread_loop_breaks sends
 * the loop's jumps to the exit back to d, a written break with them.
 * Read as the jump over an else part, d became the join of the if chain
 * it starts: `if a: pass` / `elif b: ...`, the dead break printed after
 * the chain, where an arm that goes back to the loop ran into it
 * (graphql-core Lexer.read_comment; tests/constructs/
 * open_lies_audit40.py scan_while_letters_or_digits). */
static int32_t then_breaks_to_dead_else(const rec *r, const region *rg,
                                        int32_t on_true, int32_t on_false) {
    const upy_block *lb, *db;
    int32_t d;
    if (!r->ncode.layout->keeps_jump_after_exit || rg->loop == UPY_NO_BLOCK ||
        on_true == UPY_NO_BLOCK || on_false == UPY_NO_BLOCK ||
        on_true >= on_false || !inside(rg, on_true) || !inside(rg, on_false))
        return UPY_NO_BLOCK;
    lb = blk(r, on_false - 1);
    d = lb->jump;
    if (ins(r, lb->end - 1)->op != N_JUMP || d <= on_false || !inside(rg, d) ||
        upy_cfg_falls_into(&r->cfg, d) ||
        then_jump_end(r, on_true, on_false, rg) != d)
        return UPY_NO_BLOCK;
    db = blk(r, d);
    return rec_is_lone(r, db, N_JUMP) && is_break(rg, db->jump) ? d
                                                                : UPY_NO_BLOCK;
}

/* `if c: ...; break` whose break jumps to the dead `else: break` d
 * (then_breaks_to_dead_else): the then part up to that jump, and the
 * break; the region goes on at on_false.  (Not recovered where the then
 * part goes on elsewhere.) */
static int if_then_dead_break(rec *r, const rec_cond *c, const region *rg,
                              int32_t d, int32_t *next, upy_ptr_vec *out) {
    upy_ptr_vec body = {0};
    int32_t then_exit;
    region then_rg = rec_sub_region(rg, c->on_true, c->on_false, d);
    RETURN_IF_ERROR(rec_region(r, c->on_true, &then_rg, &body, &then_exit));
    if (then_exit != d)
        return rec_fail_region(r, c->first, rg, out);
    if (emit_simple(r, &body, UPY_S_BREAK))
        return ERROR;
    *next = c->on_false;
    return emit_if(r, c->start, c->test, &body, NULL, out);
}

static int structure_if(rec *r, const rec_cond *c, const region *rg,
                        int32_t *next, upy_ptr_vec *out) {
    upy_expr *test = c->test;
    int32_t on_true = c->on_true, on_false = c->on_false, then_end, els_end;
    int32_t way_out = UPY_NO_BLOCK, pass_jump, tail_end, tb, then_exit, dead;
    uint32_t then_sp;
    upy_ptr_vec body = {0}, orelse = {0};
    region then_rg;
    sval *saved = NULL;
    uint32_t sp = 0, ret, copy_len;

    /* An assert: its test may go on straight to break / continue (the
     * last statement of a loop body, 3.12+), so it is looked for first. */
    if (rec_assert(r, c, rg, next, out))
        return SUCCESS;
    /* Both branches leave the region (the body of a try, ending at the end
     * of its protected range), one by the lone jump of a break or
     * continue: that is the branch's statement, the other is where the
     * region goes on.  Where both are such jumps, the one laid out at the
     * region's end is the statement (see then_jump_at_body_end). */
    if (!inside(rg, on_true) && !inside(rg, on_false)) {
        int32_t t = lone_loop_jump(r, rg, on_true);
        int32_t f = lone_loop_jump(r, rg, on_false);
        if (t != UPY_NO_BLOCK &&
            (f == UPY_NO_BLOCK || then_jump_at_body_end(rg, on_true))) {
            r->done[on_true] = 1;
            on_true = t;
        } else if (f != UPY_NO_BLOCK &&
                   (t == UPY_NO_BLOCK || then_jump_at_body_end(rg, on_false))) {
            r->done[on_false] = 1;
            on_false = f;
        }
    }
    /* One outcome goes straight back to the loop header, and so does
     * running off the region: the rest of the region is the if's body
     * (`if c: rest`, which compiles the same as `if not c: continue` +
     * rest, without negating c), written with the test that keeps the
     * code of its `in` / `is` leaves: the other is `if not c: continue`
     * below. */
    if (rg->cont == rg->loop && rg->cont != UPY_NO_BLOCK &&
        on_false == rg->cont && !c->prefer_negated && inside(rg, on_true) &&
        on_true < rg->end && falls_to_loop(r, rg)) {
        region then_rg = rec_sub_region(rg, on_true, rg->end, rg->follow);
        RETURN_IF_ERROR(rec_region(r, on_true, &then_rg, &body, NULL));
        /* Its end goes back to the loop anyway. */
        if (body.len &&
            ((upy_stmt *)body.items[body.len - 1])->kind == UPY_S_CONTINUE)
            body.len--;
        *next = UPY_NO_BLOCK;
        return emit_if(r, c->start, test, &body, NULL, out);
    }
    /* A branch straight to break / continue (the compiler threads the
     * jump of `if c: break` into the condition). */
    if (is_break(rg, on_true) || on_true == rg->cont) {
        if (loop_jump(r, on_true, rg, &body) < 0)
            return ERROR;
        *next = on_false;
        return emit_if(r, c->start, test, &body, NULL, out);
    }
    if (on_true == c->on_true && on_false == c->on_false &&
        (dead = then_breaks_to_dead_else(r, rg, on_true, on_false)) !=
            UPY_NO_BLOCK)
        return if_then_dead_break(r, c, rg, dead, next, out);
    if (on_false == rg->brk && on_true < on_false && on_false <= rg->end &&
        rg->loop != UPY_NO_BLOCK && rg->cont == rg->loop &&
        only_continues(r, rg->loop)) {
        /* In a loop that goes back only by continue (one with no test at
         * its bottom: its header is where continue goes), code that runs
         * on into the exit is a break there.  The body before the exit is
         * the if's (`if c: body; continue` + `break`, where `if not c:
         * break` puts the break first). */
        region then_rg = rec_sub_region(rg, on_true, on_false, on_false);
        /* Running off the body runs into that break: a jump back to the
         * header in it is a `continue` of its own. */
        then_rg.falls_to_loop = 0;
        RETURN_IF_ERROR(rec_region(r, on_true, &then_rg, &body, NULL));
        RETURN_IF_ERROR(emit_if(r, c->start, test, &body, NULL, out));
        *next = UPY_NO_BLOCK;
        return emit_simple(r, out, UPY_S_BREAK);
    }
    if (is_break(rg, on_false) || on_false == rg->cont) {
        if (loop_jump(r, on_false, rg, &body) < 0)
            return ERROR;
        *next = on_true;
        RETURN_IF_ERROR(emit_if(r, c->start, c->negated, &body, NULL, out));
        return runs_off_into_return(r, on_true, rg, next, out);
    }
    /* A branch straight to a copy of the function's return (the bottom
     * copy of `while (b if a else c) < 3 and c:` read as an if of its
     * own, failing to a copy of the return after the loop). */
    if (leaves_by_return_copy(r, on_false, rg) &&
        !leaves_by_return_copy(r, on_true, rg)) {
        RETURN_IF_ERROR(emit_const_return(r, blk(r, on_false)->start, &body));
        r->done[on_false] = 1;
        *next = on_true;
        return emit_if(r, c->start, c->negated, &body, NULL, out);
    }
    if (on_false < on_true && inside(rg, on_false) && on_true <= rg->end &&
        (pass_jump = pass_body_jump(r, c, on_false)) != UPY_NO_BLOCK) {
        /* `if c: pass` / `else: B`: the body is a lone jump over B to
         * the join, which the test's targets were threaded through. */
        region else_rg = rec_sub_region(rg, on_false, on_true, on_true);
        r->done[pass_jump] = 1;
        r->done[blk(r, c->last)->next] = 1;
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, NULL));
        *next = on_true;
        return emit_if(r, c->start, test, &body, &orelse, out);
    }
    if (ends_body_by_loop_jump(r, rg, on_true, on_false)) {
        /* The then part ends the try body the region is by a break,
         * continue or return, whose unwinding is left out of the
         * protected range: the test jumps over it to where the body goes
         * on.  A jump or a copy of the loop's exit is a break or continue;
         * other code there is read under no handler, and must read as a
         * break (to a return after the loop's else part) or as a return
         * of a value computed before or of a constant: a return of more,
         * printed in the try, would run its code under the handler. */
        int32_t jump = loop_jump_or_copy(r, rg, rg->end);
        int leaves = only_leaves(r, rg, rg->end);
        region then_rg = rec_sub_region(rg, on_true, rg->end, rg->end);
        region way_rg = rec_sub_region(rg, rg->end, rg->end + 1, UPY_NO_BLOCK);
        const upy_stmt *last;
        way_rg.handler = blk(r, rg->end)->handler;
        RETURN_IF_ERROR(rec_region(r, on_true, &then_rg, &body, &then_exit));
        /* (An if in the then part read the way out as its own and goes
         * on by a lone jump of the loop: 3.13 keeps one per test, `if a:`
         * / `if b: x(); continue` has `if b:` jump back by its own.  Any
         * other way on would lose code: not recovered.) */
        if (then_exit != rg->end && then_exit != UPY_NO_BLOCK) {
            if (!r->done[rg->end] ||
                loop_jump(r, lone_loop_jump(r, rg, then_exit), rg, &body) <= 0)
                return rec_fail_region(r, c->first, rg, out);
            r->done[then_exit] = 1;
            *next = on_false;
            return emit_if(r, c->start, test, &body, NULL, out);
        }
        if (jump != UPY_NO_BLOCK) {
            if (loop_jump(r, jump, rg, &body) < 0)
                return ERROR;
            r->done[rg->end] = 1;
        } else {
            RETURN_IF_ERROR(rec_region(r, rg->end, &way_rg, &body, &then_exit));
            last = body.len ? body.items[body.len - 1] : NULL;
            if (then_exit != UPY_NO_BLOCK || !last ||
                (last->kind != UPY_S_BREAK &&
                 !(leaves && last->kind == UPY_S_RETURN)))
                return rec_fail_region(r, c->first, rg, out);
        }
        *next = on_false;
        return emit_if(r, c->start, test, &body, NULL, out);
    }
    /* A false way out of the region elsewhere than where running off it
     * goes would lose its code: the if is marked unrecovered instead.  So
     * is a test with no true way (crafted code, found by the fuzzer). */
    if (on_true == UPY_NO_BLOCK || if_loses_a_way(r, rg, on_true, on_false))
        return rec_fail_region(r, c->first, rg, out);
    if (!inside(rg, on_false) || on_false < on_true)
        on_false = rg->end;
    then_end = on_false < rg->end ? on_false : rg->end;
    els_end = else_end(r, on_true, then_end, rg);
    if (els_end == UPY_NO_BLOCK && on_false < rg->end &&
        (way_out = clause_way_out(r, on_true, then_end, rg)) != UPY_NO_BLOCK) {
        /* The then part pops the exception below the statements' depth:
         * the else part starts from the stack as it was. */
        sp = r->sp;
        saved = upy_arena_array(r->scratch, sp + 1, sizeof *saved);
        if (!saved)
            return rec_oom(r);
        memcpy(saved, r->stack, sp * sizeof *saved);
    }
    if (els_end == UPY_NO_BLOCK && !saved && on_false == then_end &&
        (els_end = copied_join(r, c, on_true, on_false, rg)) != UPY_NO_BLOCK) {
        /* The copy is the code after the if / else, once. */
        const upy_block *cb = blk(r, on_false - 1);
        rec_skip_range(r, cb->start, cb->end - cb->start);
        r->done[on_false - 1] = 1;
        then_end = on_false - 1;
    }
    if (els_end != UPY_NO_BLOCK && on_false < els_end && !saved &&
        then_ends_in_way_out(r, on_true, then_end)) {
        sp = r->sp;
        saved = upy_arena_array(r->scratch, sp + 1, sizeof *saved);
        if (!saved)
            return rec_oom(r);
        memcpy(saved, r->stack, sp * sizeof *saved);
    }
    then_rg = rec_sub_region(rg, on_true, then_end,
                             els_end != UPY_NO_BLOCK ? els_end : on_false);
    then_rg.falls_to_loop =
        els_end == UPY_NO_BLOCK && !saved &&
        then_goes_to_loop(r, c, rg, on_true, on_false, then_end);
    then_sp = r->sp;
    RETURN_IF_ERROR(rec_region(r, on_true, &then_rg, &body, &then_exit));
    /* A then part that runs on with a value left on the stack was the
     * first value of a conditional expression the test missed: read as a
     * statement, that value would be lost (a chained comparison as the
     * test hid one so until stop 34): not recovered. */
    if (then_exit != UPY_NO_BLOCK && r->sp > then_sp)
        return rec_fail_region(r, c->first, rg, out);
    if (saved && way_out != UPY_NO_BLOCK) {
        region else_rg = rec_sub_region(rg, on_false, rg->end, way_out);
        memcpy(r->stack, saved, sp * sizeof *saved);
        r->sp = sp;
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, NULL));
        *next = way_out;
    } else if (els_end == UPY_NO_BLOCK && on_false < rg->end &&
               ends_finally(r, on_true, then_end, rg)) {
        /* (Not recovered where the early end skips code after rg.) */
        if (finally_goes_on_after(r, rg))
            return rec_fail_region(r, c->first, rg, out);
        region else_rg = rec_sub_region(rg, on_false, rg->end, rg->follow);
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, next));
    } else if (els_end == rg->end && on_false < els_end &&
               (tail_end = else_runs_past_body(r, rg, on_true, on_false,
                                               &way_out)) != UPY_NO_BLOCK) {
        region else_rg = rec_sub_region(rg, on_false, tail_end, way_out);
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, NULL));
        /* (A block of the tail the walk did not read as its break,
         * continue or return would be lost: not recovered.) */
        for (tb = rg->end; tb < tail_end; tb++)
            if (!r->done[tb])
                return rec_fail_region(r, c->first, rg, out);
        *next = way_out;
    } else if (els_end != UPY_NO_BLOCK && on_false < els_end) {
        region else_rg = rec_sub_region(rg, on_false, els_end, els_end);
        if (saved) {
            memcpy(r->stack, saved, sp * sizeof *saved);
            r->sp = sp;
        }
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, NULL));
        *next = els_end;
    } else if (then_rg.falls_to_loop && body.len) {
        /* At the end of a loop body, the then part goes back to the loop
         * by its last jump, and so does the rest: an if / else.  (With a
         * `continue` written instead, 3.12+ would keep a jump of its own
         * for it rather than thread the then part's jumps to the loop; a
         * lone jump there is a written one.)  The then part was read as
         * running off to the loop: an if ending it has no `continue`. */
        RETURN_IF_ERROR(else_back_to_loop(r, on_false, rg, &body, &orelse));
        *next = UPY_NO_BLOCK;
        RETURN_IF_ERROR(emit_if(r, c->start, test, &body, &orelse, out));
        /* Where an enclosing region goes on elsewhere, as above. */
        return falls_to_loop(r, rg) ? 0 : emit_simple(r, out, UPY_S_CONTINUE);
    } else if (rest_is_else_part(r, c, rg, then_end, &body)) {
        RETURN_IF_ERROR(else_back_to_loop(r, on_false, rg, &body, &orelse));
        *next = UPY_NO_BLOCK;
    } else if (else_is_written_continue(r, c, rg, then_end, &body)) {
        /* The else part alone keeps its `continue`; the then part's is
         * the loop's own way back, where the region runs off. */
        region else_rg = rec_sub_region(rg, on_false, rg->end, rg->end);
        body.len--;
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, NULL));
        *next = UPY_NO_BLOCK;
    } else if (on_false == c->on_false && on_false < rg->end &&
               chain_else(r, c, &body)) {
        region else_rg = rec_sub_region(rg, on_false, rg->end, rg->follow);
        uint32_t m, k;
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, next));
        /* The code after the if / else, copied into both. */
        m = copied_tail(r, &body, &orelse);
        body.len -= m;
        orelse.len -= m;
        RETURN_IF_ERROR(emit_if(r, c->start, test, &body, &orelse, out));
        /* (Statements emitted once already, into the else part.) */
        for (k = 0; k < m; k++)
            if (upy_vec_push(r->arena, out, orelse.items[orelse.len + k]))
                return rec_oom(r);
        return SUCCESS;
    } else if (then_with_leaves_region(r, rg, on_false, &body, &ret,
                                       &copy_len)) {
        region else_rg = rec_sub_region(rg, on_false, rg->end, rg->follow);
        RETURN_IF_ERROR(rec_region(r, on_false, &else_rg, &orelse, next));
        if (copy_len) {
            /* The copy of the code after the region is that code's. */
            rec_skip_range(r, ret, copy_len);
            r->done[r->cfg.block_of[ret]] = 1;
            return emit_if(r, c->start, test, &body, &orelse, out);
        }
        return emit_if(r, c->start, test, &body, &orelse, out) ||
               return_after_if(r, ret, out);
    } else if (with_goes_on_elsewhere(r, c, &body, then_exit, on_false)) {
        /* Where the with goes on back to the loop the region is the rest
         * of the body of, as the rest of the region does, that rest is
         * the else part.  Elsewhere (a copy of the code after a try) not
         * recovered. */
        if (!is_bottom_test_of(r, rg, then_exit))
            return rec_fail_region(r, c->first, rg, out);
        RETURN_IF_ERROR(else_back_to_loop(r, on_false, rg, &body, &orelse));
        *next = UPY_NO_BLOCK;
    } else if (then_exit != UPY_NO_BLOCK && then_exit > on_false &&
               on_false < rg->end &&
               (inside(rg, then_exit) || then_exit >= rg->end) &&
               !rec_is_lone(r, blk(r, on_false), N_JUMP) &&
               !rec_copies_of_exit(r, then_exit, on_false)) {
        int st = else_up_to_then_exit(r, rg, on_false, then_exit, &orelse);
        if (st < 0)
            return ERROR;
        if (st == NOT_THIS)
            return rec_fail_region(r, c->first, rg, out);
        *next = then_exit;
    } else {
        *next = on_false;
        /* (An else part that compiles to nothing: `else: pass`.) */
        if (on_false == then_end &&
            rec_jumps_over_empty_else(r, then_end, on_false) &&
            emit_simple(r, &orelse, UPY_S_PASS))
            return ERROR;
    }
    /* An if / else ending the loop body: its then part's with runs off
     * to the end (see ends_in_with_off_to_loop), with no continue. */
    if (orelse.len && *next == rg->end &&
        ends_in_with_off_to_loop(r, rg, &body))
        body.len--;
    return emit_if(r, c->start, test, &body, &orelse, out);
}

/* `assert test, msg`: the failing outcome raises AssertionError(msg),
 * which only an assert loads (LOAD_ASSERTION_ERROR).  Returns 1 when that
 * is what c leads to. */
static int is_assertion_block(const rec *r, int32_t b) {
    return b != UPY_NO_BLOCK && !r->done[b] &&
           ins(r, blk(r, b)->start)->op == N_LOAD_ASSERTION_ERROR;
}

/* What failing_assert found besides ERROR. */
enum { NO_ASSERT = 0, ONE_ASSERT = 1, BRANCHES_NOT_ASSERT = 2 };

/* The statements of the failing outcome of an assert, block fb, into
 * tmp: its raise, or where the message branches (`assert a, b if c else
 * d`), the blocks from fb up to ok (where the assert goes on) or the
 * region's end, each way ending in a copy of the raise (3.9+ copy it,
 * compile.c / flowgraph.c duplicate_exits_without_lineno and the like).
 * BRANCHES_NOT_ASSERT: those blocks, taken, are not one assert. */
static int failing_assert(rec *r, int32_t fb, int32_t ok, const region *rg,
                          upy_ptr_vec *tmp) {
    const upy_block *f = blk(r, fb);
    const upy_stmt *s;
    if (ins(r, f->end - 1)->op == N_RAISE && ins(r, f->end - 1)->arg == 1) {
        r->done[fb] = 1;
        if (rec_run(r, f->start, f->end - 1, rg, tmp) < 0 ||
            rec_eval(r, f->end - 1, tmp) < 0)
            return ERROR;
    } else {
        int32_t end = ok > fb && ok < rg->end ? ok : rg->end, exit;
        region fail_rg = rec_sub_region(rg, fb, end, ok);
        RETURN_IF_ERROR(rec_region(r, fb, &fail_rg, tmp, &exit));
        if (exit != UPY_NO_BLOCK || tmp->len != 1 ||
            ((upy_stmt *)tmp->items[0])->kind != UPY_S_ASSERT)
            return BRANCHES_NOT_ASSERT;
    }
    s = tmp->len ? tmp->items[tmp->len - 1] : NULL;
    return s && s->kind == UPY_S_ASSERT ? ONE_ASSERT : NO_ASSERT;
}

int rec_assert(rec *r, const rec_cond *c, const region *rg, int32_t *next,
               upy_ptr_vec *out) {
    int32_t fb = c->on_false, ok = c->on_true, b;
    upy_expr *test = c->test;
    upy_ptr_vec tmp = {0};
    upy_stmt *s;
    int found;

    if (!is_assertion_block(r, fb)) {
        /* The test oriented to what follows it: the raise comes first. */
        if (!is_assertion_block(r, ok))
            return 0;
        fb = c->on_true;
        ok = c->on_false;
        test = c->negated;
    }
    /* An assert's raise directly follows its test (a chained comparison's
     * cleanup, a POP_TOP and a jump over it, aside); one further away is
     * the `assert False` of a branch: `if x: return x` then `assert False`.
     * (3.12+ copies the raise to the failing end of a chained comparison
     * too, before its cleanup.) */
    for (b = c->last + 1; b < fb; b++) {
        const upy_block *bb = blk(r, b);
        if (bb->end - bb->start == blk(r, fb)->end - blk(r, fb)->start &&
            rec_same_code(r, bb->start, blk(r, fb)->start, bb->end - bb->start))
            continue;
        if (bb->end - bb->start != 1 || (ins(r, bb->start)->op != N_POP_TOP &&
                                         ins(r, bb->start)->op != N_JUMP))
            return 0;
    }
    if (fb <= c->last)
        return 0;
    found = failing_assert(r, fb, ok, rg, &tmp);
    if (found == BRANCHES_NOT_ASSERT) {
        RETURN_IF_ERROR(rec_fail_region(r, c->first, rg, out));
        return 1;
    }
    if (found != ONE_ASSERT)
        return found;
    s = tmp.items[tmp.len - 1];
    /* (The false constant the raise alone took for the dropped test of
     * `assert 0` is dead code's again: `if a: assert (), m` reads as
     * `assert not a, m`, and the () is numbered by itself.) */
    rec_unshow_const(r, s->u.assert_.test);
    s->u.assert_.test = test;
    *next = ok;
    RETURN_IF_ERROR(rec_emit(r, out, s));
    return 1;
}

/* --- loops -------------------------------------------------------------- */

/* A try ending a loop body whose else part ends in `continue`: the loop
 * goes on there anyway.  Where the version keeps a written one apart
 * (upy_layout.keeps_else_continue_apart), the try body that jumps straight
 * back to the header wrote none: 3.10 compiles
 *     for x in xs:
 *         try: a()
 *         except E: b()
 * to POP_BLOCK; JUMP_ABSOLUTE header after a(), which reads as an else
 * part of one `continue`; printed, that would compile to JUMP_FORWARD to
 * a jump of its own.  (Not after a finally body: the else part's way
 * out runs a copy of it, laid out by other rules.) */
static void drop_else_continue(const rec *r, upy_stmt_list *list) {
    upy_stmt *last = list->len ? list->items[list->len - 1] : NULL;
    upy_stmt_list *orelse;
    if (!last || last->kind != UPY_S_TRY || last->u.try_.finalbody.len ||
        !r->ncode.layout->keeps_else_continue_apart)
        return;
    orelse = &last->u.try_.orelse;
    if (orelse->len && orelse->items[orelse->len - 1]->kind == UPY_S_CONTINUE)
        orelse->len--;
}

/* A loop body ends by going back to the loop: a `continue` there is what
 * the body does anyway. */
static upy_stmt_list loop_body(const rec *r, upy_ptr_vec *body) {
    upy_stmt_list list = upy_vec_stmts(body);
    if (list.len && list.items[list.len - 1]->kind == UPY_S_CONTINUE)
        list.len--;
    drop_else_continue(r, &list);
    return list;
}

/* Whether block b, a lone jump back to header that nothing reaches, is
 * the jump 3.8 / 3.9 compile.c compiler_while emits after the body of a
 * `while True:` (no test at the header) whose body ends in a break: the
 * block before it, in the loop, ends in a jump (that break) to the block
 * right after b, or to where that block jumps (peephole.c threads the
 * break of a `while True:` that ends a for body to the for loop's header).
 * peephole.c keeps the unreached jump; 3.10's remove_unreachable drops it.
 * Without it the loop would end at its last `continue`, and the break
 * would read as a jump to the code after the loop: the loop never ends. */
static int dead_end_of_body(const rec *r, int32_t header, int32_t b) {
    const upy_block *bb = blk(r, b), *prev, *hb = blk(r, header);
    if (bb->npreds || b <= header + 1 || !rec_is_lone(r, bb, N_JUMP) ||
        (ins(r, hb->end - 1)->op == N_POP_JUMP_IF && hb->jump >= b))
        return 0;
    prev = blk(r, b - 1);
    return prev->npreds && ins(r, prev->end - 1)->op == N_JUMP &&
           b + 1 < (int32_t)r->cfg.count &&
           rec_jumped_to(r, ins(r, prev->end - 1)->target) ==
               rec_jumped_to(r, blk(r, b + 1)->start) &&
           upy_cfg_dominates(&r->cfg, header, b - 1);
}

/* Whether an exception handler that starts in the blocks (from, to) is on
 * every way to block to - 1: the code there runs only after an exception
 * (not a try's else part, which the body reaches). */
static int after_handler_only(const rec *r, int32_t from, int32_t to) {
    int32_t k;
    for (k = from + 1; k < to - 1; k++)
        if (blk(r, k)->is_handler && upy_cfg_dominates(&r->cfg, k, to - 1))
            return 1;
    return 0;
}

/* The last block of the loop at `header`: the furthest block in code
 * order with a back edge to it; or the unreached jump that ends a body
 * whose break follows a try (dead_end_of_body), when only the handlers of
 * that try, past the last back edge, lead to the break: the code they go
 * on to, up to the break, is the loop's (`while True:` / `try: ...;
 * continue` / `except E: pass` / `code` / `break`: the `continue` is the
 * last back edge).  (A try's `else: break`, which the body leads to, is
 * read as such without it.) */
static int32_t loop_last(const rec *r, int32_t header) {
    uint32_t i;
    int32_t last = header, dead = UPY_NO_BLOCK;
    for (i = (uint32_t)header; i < r->cfg.count; i++) {
        const upy_block *b = blk(r, (int32_t)i);
        if (b->jump != header && b->next != header)
            continue;
        if (upy_cfg_dominates(&r->cfg, header, (int32_t)i))
            last = (int32_t)i;
        else if (dead_end_of_body(r, header, (int32_t)i))
            dead = (int32_t)i;
    }
    return dead > last && after_handler_only(r, last, dead) ? dead : last;
}

static int is_exit_copy(const rec *r, int32_t b);

/* Whether the blocks [from, to) are ways out of region rg's protected
 * range (a try or with body): copies of exits that leave the function,
 * lone jumps of a break, none under rg's handler.  The code between a
 * loop's break or return and its jump or return is split there, so a loop
 * in such a body ends after them. */
static int unprotected_exits(const rec *r, int32_t from, int32_t to,
                             const region *rg) {
    int32_t b;
    for (b = from; b < to; b++) {
        const upy_block *bb = blk(r, b);
        if (bb->handler == rg->handler || bb->is_handler)
            return 0;
        if (!rec_is_lone(r, bb, N_JUMP) && !is_exit_copy(r, b))
            return 0;
    }
    return 1;
}

/* Whether a jump to t leaves region rg for where the region goes on: its
 * follow or a block after it (the region's end reached by jumps threaded
 * on, as the way out of a try body), or the header of its loop when
 * running off its end goes back there. */
static int leaves_to_follow(const rec *r, int32_t t, const region *rg) {
    if (t == UPY_NO_BLOCK)
        return 0;
    if (t >= rg->end || (t == rg->follow && !inside(rg, t)))
        return 1;
    return t == rg->loop && rg->cont == rg->loop && falls_to_loop(r, rg);
}

/* Whether block b, at or after the end `exit` of a loop body starting at
 * `start`, is code of the handler of a try in that body, laid out after
 * the loop (3.12+ moves handlers there): the entry of such a handler or of
 * its cleanup, code the cleanup protects, or the way out of the handler:
 * its POP_EXCEPT (and, for a break of a for loop, the POP_TOP of the
 * iterator), and the jump after it where the protection changes (3.13, a
 * try around the loop: the jump is out of its protected range).
 * (Not rec_is_cold: see there why.) */
static int in_cold_handler(const rec *r, int32_t b, int32_t start,
                           int32_t exit) {
    const upy_block *bb = blk(r, b);
    int32_t i;
    if (b > exit && rec_is_lone(r, bb, N_JUMP)) {
        /* The block before ends an except clause: its POP_EXCEPT, then the
         * cleanup of the clause's name (`except E as e`), then, for a
         * break of a for loop, the POP_TOP of the iterator. */
        const upy_block *pb = blk(r, b - 1);
        uint32_t k = pb->end - 1;
        if (k > pb->start && ins(r, k)->op == N_POP_TOP)
            k--;
        if (k >= pb->start + 3 && rec_clears_a_name(r, k - 2))
            k -= 3;
        if (ins(r, k)->op == N_POP_EXCEPT)
            return 1;
    }
    if (ins(r, bb->start)->op == N_PUSH_EXC_INFO) {
        for (i = start; i < exit; i++)
            if (blk(r, i)->handler == b)
                return 1;
        return 0;
    }
    return bb->is_handler || ins(r, bb->start)->op == N_POP_EXCEPT ||
           (bb->handler != UPY_NO_BLOCK &&
            ins(r, blk(r, bb->handler)->start)->op != N_PUSH_EXC_INFO);
}

/* Where the jump forward ending block b of handler h's code goes as a
 * break of the for loop around, else UPY_NO_BLOCK.  Either b pops the
 * iterator itself, ending its except clause: POP_EXCEPT, then the POP_TOP
 * of the iterator and the jump (rec_pops_and_jumps).  The code after the
 * loop that only such breaks reach is cold (3.12+ push_cold_blocks_to_end
 * lays it out after the handler):
 *
 *     for x in xs:              FOR_ITER; ... JUMP_BACKWARD; END_FOR;
 *         try: g(1)             raise X   (the else part)
 *         except E: break       h: ... POP_EXCEPT; POP_TOP; JUMP a
 *     else: raise X             a: g(2)   (after the handler)
 *     g(2)
 *
 * Or b jumps to code that only the handler's code reaches and that pops
 * the iterator, a block of POP_TOP; JUMP alone (normalize joined the
 * break's copy of the code after the loop back to that code).  3.12+
 * lays the code after a try that only the except clause reaches with the
 * cold code (push_cold_blocks_to_end), so a `break` there is POP_EXCEPT;
 * JUMP a / a: [test]; POP_TOP; JUMP on, past the loop's else part:
 *
 *     for p in q:
 *         try: g(p)
 *         except E: pass
 *         else: return 1
 *         if p == 2: break
 *     else: h()                                                         */
static int32_t jump_after_pop(const rec *r, int32_t h, const upy_block *b) {
    int32_t t;
    if (b->end - b->start >= 3 && rec_pops_and_jumps(r, b) &&
        ins(r, b->end - 3)->op == N_POP_EXCEPT)
        return b->jump;
    for (t = b->jump; t < (int32_t)r->cfg.count; t++) {
        const upy_block *tb = blk(r, t);
        if (tb->is_handler || !tb->npreds ||
            !upy_cfg_entered_only_from(&r->cfg, t, t + 1, h,
                                       (int32_t)r->cfg.count))
            break;
        if (tb->end - tb->start == 2 && rec_pops_and_jumps(r, tb) &&
            tb->jump < h)
            return tb->jump;
    }
    return UPY_NO_BLOCK;
}

/* The furthest block after `exit` (and before the handlers) that the code
 * of handler h, laid out after all other code (3.12+), jumps to, or brk
 * when it jumps to none further: the break of an except clause in the body
 * [start, exit) of a loop goes back up to where the loop's breaks go.  A
 * jump of that code to where region rg goes on sets *away (see
 * break_target). */
static int32_t cold_break(const rec *r, int32_t h, int32_t start, int32_t exit,
                          const region *rg, int32_t brk, int32_t *away) {
    int32_t i;
    for (i = h; i < (int32_t)r->cfg.count; i++) {
        const upy_block *b = blk(r, i);
        if (i > h && (b->is_handler || !in_cold_handler(r, i, start, exit)))
            break;
        /* (A jump on to code laid out after the handler, as a copy of a
         * while loop's test, goes on in the loop; unless it is a break of
         * a for loop, see jump_after_pop.) */
        int32_t to;
        if (ins(r, b->end - 1)->op != N_JUMP)
            continue;
        to = b->jump > h ? jump_after_pop(r, h, b) : b->jump;
        if (to == UPY_NO_BLOCK)
            continue;
        if (to > brk && to > exit && to < rg->end)
            brk = to;
        else if (leaves_to_follow(r, to, rg))
            *away = to;
    }
    return brk;
}

/* Whether block b of a loop body (in_body) pops a for loop's iterator and
 * jumps to the header of the loop around (rg's): no `continue` of that
 * loop can be written in this one, so it is a break, whose jump the
 * compiler threaded to where the code after this loop goes on, the end of
 * the outer loop's body. */
static int pops_to_outer_loop(const rec *r, const upy_block *b, int in_body,
                              const region *rg) {
    return in_body && rg->loop != UPY_NO_BLOCK && b->jump == rg->loop &&
           rec_pops_and_jumps(r, b);
}

static int jumps_back_to(const rec *r, int32_t b, int32_t header);

/* Where block b goes on as the end of an except clause, POP_EXCEPTs (and
 * the cleanup of the clause's name) then a jump, copied in place of the
 * jump of a break (3.13 flowgraph.c inline_small_or_no_lineno_blocks: the
 * clause's end has no line), after the POP_TOP of the for loop's iterator
 * that ends the block running into it; UPY_NO_BLOCK when it is none.  (The
 * jump is a block of its own under the handler of a try around.) */
static int32_t clause_end_copy(const rec *r, int32_t b, int for_loop) {
    const upy_block *bb = blk(r, b), *pb;
    uint32_t i = bb->start;
    if (b == 0 || !r->ncode.layout->copies_jump_blocks)
        return UPY_NO_BLOCK;
    pb = blk(r, b - 1);
    if (pb->next != b || (for_loop && (pb->end == pb->start ||
                                       ins(r, pb->end - 1)->op != N_POP_TOP)))
        return UPY_NO_BLOCK;
    while (i < bb->end && ins(r, i)->op == N_POP_EXCEPT)
        i++;
    if (i == bb->start)
        return UPY_NO_BLOCK;
    if (i + 3 < bb->end && rec_clears_a_name(r, i))
        i += 3;
    if (i == bb->end && bb->next == b + 1 && b + 1 < (int32_t)r->cfg.count &&
        upy_nin_falls_through(ins(r, i - 1))) {
        bb = blk(r, b + 1);
        i = bb->start;
    }
    return i + 1 == bb->end && ins(r, i)->op == N_JUMP ? bb->jump
                                                       : UPY_NO_BLOCK;
}

/* Where the breaks of the loop at header with body [start, exit) go when
 * the compiler copied the end of the except clause around the loop in
 * place of their jumps (clause_end_copy): where that clause goes on;
 * UPY_NO_BLOCK when there are none or they disagree.  (The end of a
 * clause in the loop goes on in it, or back to its header.) */
static int32_t clause_end_breaks(const rec *r, int32_t header, int32_t start,
                                 int32_t exit, int for_loop) {
    int32_t i, to = UPY_NO_BLOCK;
    for (i = start; i < exit; i++) {
        int32_t j = clause_end_copy(r, i, for_loop);
        if (j == UPY_NO_BLOCK || j == header || (j >= start && j <= exit))
            continue;
        if (to != UPY_NO_BLOCK && to != j)
            return UPY_NO_BLOCK;
        to = j;
    }
    return to;
}

/* The breaks of a loop whose exit is where a plain break goes (brk ==
 * exit, no far target) inside its region, read as copies of the end of
 * the except clause around (clause_end_breaks): where that clause goes
 * on, which becomes the far target, the breaks skipping the code from
 * the loop's exit on (its else part) up to the region's end unless that
 * code is such an end itself; UPY_NO_BLOCK when they are not. */
static int32_t breaks_past_clause_end(const rec *r, int32_t header,
                                      int32_t start, int32_t exit,
                                      const region *rg, int for_loop,
                                      int32_t *brk, int32_t *far) {
    int32_t end;
    /* (A loop ending its region has its exit for the far target already,
     * the region's way on: the clause's end copied into its breaks goes
     * elsewhere all the same.) */
    int ends_region = exit == rg->end && *far == exit;
    if (*brk != exit ||
        !(ends_region || (*far == UPY_NO_BLOCK && exit < rg->end)))
        return UPY_NO_BLOCK;
    end = clause_end_breaks(r, header, start, exit, for_loop);
    if (end == UPY_NO_BLOCK)
        return end;
    *far = end;
    if (blk(r, exit)->jump != end)
        *brk = rg->end;
    return end;
}

/* Whether a test in the blocks [start, exit), not the copy of a while
 * loop's test at the bottom (skipped), fails to block exit. */
static int tests_fail_to(const rec *r, int32_t start, int32_t exit) {
    int32_t b;
    for (b = start; b < exit; b++) {
        const upy_block *bb = blk(r, b);
        if (bb->jump == exit && ins(r, bb->end - 1)->op == N_POP_JUMP_IF &&
            !r->skip[bb->end - 1])
            return 1;
    }
    return 0;
}

/* Where the breaks of a loop with body [start, exit) in region rg go: the
 * furthest forward jump out of the body that stays in the region, else
 * `exit`.  *far is where a jump is a break too (region.brk_threaded): the
 * loop ends the region, and the compiler threaded the jumps of its breaks
 * to where the region goes on.  Then `exit` may be a lone jump there, or
 * the breaks jump past what lies between `exit` and the region's end: the
 * loop's else part (no statement in the body but a break leaves the loop
 * for there). */
static int32_t break_target(const rec *r, int32_t start, int32_t exit,
                            const region *rg, int32_t *far) {
    int32_t i, brk = exit, away = UPY_NO_BLOCK;
    const upy_block *eb;
    for (i = start; i < (int32_t)r->cfg.count; i++) {
        const upy_block *b = blk(r, i);
        const upy_nin *last = ins(r, b->end - 1);
        /* (Code after the loop structured before it, as the handlers of a
         * try before the loop that 3.12+ lays out after it, lies between
         * the loop and its own handlers.) */
        if (i >= exit && i < rg->end && r->done[i] &&
            in_cold_handler(r, i, 0, exit))
            continue;
        /* (A jump out of a handler laid out after the loop is a break
         * too.) */
        if (i >= exit && (i >= rg->end || !in_cold_handler(r, i, start, exit) ||
                          ins(r, blk(r, exit)->start)->op != N_PUSH_EXC_INFO))
            break;
        /* (The copy of a while loop's test at the bottom of its body,
         * skipped already, leaves the loop as the test does: no break.) */
        if (b->rpo == UINT32_MAX ||
            (last->op == N_POP_JUMP_IF && r->skip[b->end - 1]))
            continue;
        /* (A jump from one handler's code to another's, as from a try
         * nested in a handler to the way out of that handler, is none; nor
         * is a jump from a handler to code laid out after it that goes
         * back into the loop, as the copy of the test of a while loop in
         * the body, where its try's except clause goes on.) */
        if (last->op == N_JUMP && b->jump > brk && b->jump < rg->end &&
            (i < exit || (!in_cold_handler(r, b->jump, start, exit) &&
                          !jumps_back_to(r, b->jump, start))))
            brk = b->jump;
        else if ((last->op == N_JUMP || last->op == N_POP_JUMP_IF) &&
                 (leaves_to_follow(r, b->jump, rg) ||
                  pops_to_outer_loop(r, b, i < exit, rg)))
            away = b->jump;
    }
    /* (The breaks in the handlers of a try in the body that 3.12+ lays
     * out after all other code jump back up.) */
    if (r->ncode.layout->cold_handlers)
        for (i = start; i < exit; i++) {
            int32_t h = blk(r, i)->handler;
            if (h > exit && h != rg->handler && h != rg->alt_handler &&
                blk(r, h)->is_handler)
                brk = cold_break(r, h, start, exit, rg, brk, &away);
        }
    *far = UPY_NO_BLOCK;
    eb = brk < (int32_t)r->cfg.count ? blk(r, brk) : NULL;
    /* (Unless a jump out of the body goes to the region's end, not where
     * the lone jump goes: then that jump is the loop's else part, and the
     * jump past it a break.  3.11, `if a: while c: ... break` / `else:
     * break` + code: the else part breaks an outer loop.) */
    if (brk < rg->end && rec_is_lone(r, eb, N_JUMP) &&
        leaves_to_follow(r, eb->jump, rg) &&
        !(away == rg->end && away != eb->jump)) {
        *far = eb->jump;
        return brk;
    }
    /* (The breaks go where the loop's exit, a lone jump, goes: there is
     * no else part for them to skip.  With no jump out of the body but to
     * the exit, a jump there is read as one to where the exit goes
     * (rec_jumped_to): a break too.  3.8, `while c: ...; if d: ...` /
     * `else: break` + code, its body long enough for EXTENDED_ARG:
     * peephole.c threads d's failing jump through the break's, whose dead
     * copy normalize drops.) */
    if (brk == exit && eb && rec_is_lone(r, eb, N_JUMP) &&
        (away == UPY_NO_BLOCK ? eb->jump > exit && tests_fail_to(r, start, exit)
                              : eb->jump == away)) {
        *far = eb->jump;
        return brk;
    }
    if (brk == exit && away != UPY_NO_BLOCK) {
        /* The else part runs to the region's end, and on through the
         * ways out of a protected range (a return in it) up to where the
         * breaks go. */
        int32_t end = exit > rg->end ? exit : rg->end;
        if (away > end && unprotected_exits(r, end, away, rg))
            end = away;
        *far = away;
        return end;
    }
    if (brk >= rg->end) {
        if (leaves_to_follow(r, rg->loop, rg))
            *far = rg->loop;
        else if (leaves_to_follow(r, rg->follow, rg))
            *far = rg->follow;
    }
    return brk;
}

/* Runs the stores that bind a construct's target (for item, with value)
 * from instruction i of block b; returns the first instruction after
 * them. */
static uint32_t bind_target(rec *r, int32_t b, uint32_t i, pending *target,
                            upy_ptr_vec *out) {
    const upy_block *bb = blk(r, b);
    while (i < bb->end && !target->complete) {
        /* The target itself popped (a popped element of an unpacking is
         * the 3.13 form of two stores of one name: rec_eval's). */
        if (ins(r, i)->op == N_POP_TOP && r->sp &&
            r->stack[r->sp - 1].pend == target) {
            rec_pop(r);
            return i + 1;
        }
        if (rec_eval(r, i, out) != SUCCESS)
            break;
        i++;
    }
    return i;
}

/* The `.0` argument of a comprehension's code object: the iterator of its
 * first loop, which the caller made. */
static int is_outermost_iterator(const upy_expr *e) {
    return e && e->kind == UPY_E_NAME && strcmp(e->u.name, ".0") == 0;
}

/* Whether the stack, run up to a FOR_ITER, holds a 3.12+ inlined
 * comprehension's loop: an empty display kept under the iterator, above
 * the statement's base (with the locals it saved under it, unless its
 * targets are no plain names). */
static int holds_inlined_loop(const rec *r, const region *rg) {
    return r->sp >= 2 && r->sp - 2 >= rg->base &&
           r->stack[r->sp - 2].kind == SV_VALUE &&
           rec_is_accumulator(r->stack[r->sp - 2].expr) &&
           !(r->is_comprehension &&
             is_outermost_iterator(r->stack[r->sp - 1].expr));
}

static int structure_for(rec *r, int32_t header, const region *rg,
                         int32_t *next, upy_ptr_vec *out) {
    const upy_block *h = blk(r, header);
    const upy_nin *fi = ins(r, h->end - 1);
    int32_t exit = h->jump, body_start = h->next, brk, far, clause_end;
    uint32_t depth = r->sp, first, start = r->stmt_start, from = h->start;
    uint32_t stmt_start = r->stmt_start;
    sval iter;
    pending *target;
    upy_stmt *s;
    upy_ptr_vec body = {0}, orelse = {0};
    region body_rg;
    int inlined, ends_finally;

    r->done[header] = 1;
    if (r->resume_block == header) {
        /* (The code before the FOR_ITER in its block ran already: the
         * target of an enclosing loop.) */
        from = r->resume_at;
        r->resume_block = UPY_NO_BLOCK;
        if (r->sp <= r->base)
            start = from;
    } else if (r->sp <= rg->base) {
        /* (The walk reaches a loop header before it sets where a
         * statement starts: what the statement before left there may be
         * code that the try around takes for a copy of its own, `if a:
         * return U` before `try: for ...` + `return U`.) */
        start = from;
    }
    if (rec_run(r, from, h->end - 1, rg, out) != (int)h->end - 1)
        return rec_fail_region(r, header, rg, out);
    depth = r->sp;
    if (!r->sp || body_start == UPY_NO_BLOCK)
        return rec_fail_region(r, header, rg, out);
    iter = r->stack[r->sp - 1];
    inlined = holds_inlined_loop(r, rg);
    if (exit == UPY_NO_BLOCK ||
        (exit > rg->end && !unprotected_exits(r, rg->end, exit, rg)))
        exit = rg->end;
    /* (A comprehension has no break: its loop ends at its exit, whatever
     * the jumps of the code around it, as those of an except clause
     * inlined into a loop, look like.) */
    far = UPY_NO_BLOCK;
    brk = inlined ? exit : break_target(r, body_start, exit, rg, &far);
    clause_end = inlined ? UPY_NO_BLOCK
                         : breaks_past_clause_end(r, header, body_start, exit,
                                                  rg, 1, &brk, &far);
    ends_finally = !inlined && brk == exit && far == UPY_NO_BLOCK &&
                   breaks_end_finally(r, body_start, exit, rg);
    if (ends_finally)
        brk = rg->end;

    target = rec_new_target(r);
    if (!target || rec_push(r, SV_BIND, NULL))
        return ERROR;
    r->stack[r->sp - 1].pend = target;
    r->base = depth;
    first =
        bind_target(r, body_start, blk(r, body_start)->start, target, &body);
    body_rg = rec_sub_region(rg, body_start, exit, header);
    body_rg.brk = brk;
    body_rg.brk_threaded = far;
    body_rg.cont = header;
    body_rg.loop = header;
    body_rg.falls_to_loop = 1;
    body_rg.brk_moved = 0;
    body_rg.brk_ends_finally = ends_finally;
    body_rg.base = depth;
    r->resume_block = body_start;
    r->resume_at = first;
    RETURN_IF_ERROR(rec_region(r, body_start, &body_rg, &body, NULL));
    r->sp = depth - 1;
    r->base = rg->base;
    if (brk > exit) {
        region else_rg = rec_sub_region(rg, exit, brk, brk);
        RETURN_IF_ERROR(rec_region(r, exit, &else_rg, &orelse, NULL));
    }
    s = rec_stmt(r, UPY_S_FOR);
    if (!s)
        return ERROR;
    /* A compound statement starts at its first code (here the iterable),
     * not where its body left r->stmt_start: the order of co_names and
     * co_consts is read against where statements start (try.c). */
    rec_set_start(r, s, start);
    s->u.for_.target = rec_bound_target(target);
    if (!s->u.for_.target)
        s->u.for_.target = rec_name(r, "_");
    s->u.for_.iter = iter.expr ? iter.expr : rec_placeholder(r);
    s->u.for_.body = loop_body(r, &body);
    s->u.for_.orelse = upy_vec_stmts(&orelse);
    s->u.for_.is_async = (fi->flags & N_ASYNC) != 0;
    /* (Breaks threaded to the header of the loop around, past an else
     * part that runs to the region's end, go on there, as that part does:
     * not to the code after the region.) */
    *next = far != UPY_NO_BLOCK && (far == rg->loop || far == clause_end) &&
                    brk == rg->end && brk > exit
                ? far
                : brk;
    if (inlined) {
        /* The loop of an inlined comprehension: it becomes the value of
         * its accumulator. */
        upy_expr *comp =
            rec_inlined_comprehension(r, r->stack[depth - 2].expr, s);
        /* (The statement the comprehension is a value of goes on: it
         * started where it did, not in the loop's body.) */
        r->stmt_start = stmt_start;
        if (comp) {
            r->stack[depth - 2].expr = comp;
            return SUCCESS;
        }
        /* Its element is no statement (the loop body holds it as a
         * yield), so the loop cannot stand as one: shown unrecovered, the
         * comprehension's value missing. */
        rec_unrecovered(r, out, h->start,
                        brk != UPY_NO_BLOCK ? blk(r, brk)->start
                                            : r->ncode.count,
                        "comprehension");
        r->stack[depth - 2].expr = rec_placeholder(r);
        return SUCCESS;
    }
    RETURN_IF_ERROR(rec_emit(r, out, s));
    /* Past an else part, the breaks go where those of the loop around
     * go (to the jump of a `break` after this loop, or on, threaded): so
     * does the end of the else part.  Running off the region's end would
     * go back to the loop around instead: that break is written. */
    if (brk > exit && *next == brk && rg->falls_to_loop && brk >= rg->end &&
        brk < (int32_t)r->cfg.count &&
        (brk == rg->brk || (loop_way_out(r, brk, 1, NULL) == brk &&
                            blk(r, brk)->jump == rg->brk)))
        return emit_simple(r, out, UPY_S_BREAK);
    return SUCCESS;
}

int rec_inlined_loop(rec *r, int32_t b, const region *rg, int32_t *next,
                     upy_ptr_vec *out) {
    uint32_t base = r->base;
    int st;
    *next = UPY_NO_BLOCK;
    if (!holds_inlined_loop(r, rg))
        return NOT_THIS;
    /* (The code before the FOR_ITER ran already, as the branch's.) */
    r->resume_block = b;
    r->resume_at = blk(r, b)->end - 1;
    st = structure_for(r, b, rg, next, out);
    r->resume_block = UPY_NO_BLOCK;
    r->base = base;
    return st < 0 ? ERROR : SUCCESS;
}

/* Where the `while True:` loop at header whose last back edge comes
 * before block `exit` ends.  When `exit` leaves the function (a return)
 * and the loop's code also jumps past it, to one block t, the code from
 * `exit` up to t, reached only from the loop and never running into t, is
 * the loop's too: its way out ends the body (`if ...: continue` then
 * `return`), and t is where its break goes. */
static int32_t exit_past_return(const rec *r, int32_t header, int32_t exit,
                                const region *rg) {
    int32_t b, t = UPY_NO_BLOCK;
    const upy_nin *last;
    if (exit >= rg->end)
        return exit;
    last = ins(r, blk(r, exit)->end - 1);
    if (last->op != N_RETURN && last->op != N_RAISE)
        return exit;
    for (b = header; b < exit; b++) {
        int32_t j = blk(r, b)->jump;
        if (j <= exit || blk(r, b)->is_handler)
            continue;
        if (j >= rg->end || blk(r, j)->is_handler ||
            (t != UPY_NO_BLOCK && j != t))
            return exit;
        t = j;
    }
    if (t == UPY_NO_BLOCK ||
        upy_nin_falls_through(ins(r, blk(r, t - 1)->end - 1)) ||
        !upy_cfg_entered_only_from(&r->cfg, exit, t, header, t))
        return exit;
    return t;
}

/* Where the `while True:` loop at header whose last back edge comes
 * before block `exit` ends when its breaks go past the code from `exit` to
 * brk (where the breaks jump, or where the region goes on, far, as
 * threaded by break_target): at brk when that code is reached from the
 * loop only.  A `while True:` has no else part (never reached, the
 * compiler drops it), so that code is the end of the body, after its last
 * `continue`.  Example: `for r in rs:` / `while True:` / `if a: break` /
 * `if b: t = t.c; continue` / `r.x()` / `break`: r.x() comes after the
 * jump back of the continue.  Sets *runs_into where that code runs into
 * brk (3.11's lone jump to far; the NOP of the last `break`, whose jump
 * to the code after the loop right after it the compiler dropped):
 * running off the body is that break, not the way back. */
static int32_t body_past_continue(const rec *r, int32_t header, int32_t exit,
                                  int32_t brk, int *runs_into) {
    *runs_into = 0;
    if (brk <= exit || brk >= (int32_t)r->cfg.count ||
        upy_nin_falls_through(ins(r, blk(r, exit)->start - 1)) ||
        !upy_cfg_entered_only_from(&r->cfg, exit, brk, header, brk))
        return exit;
    *runs_into = upy_nin_falls_through(ins(r, blk(r, brk)->start - 1));
    return brk;
}

/* Ends the body of a `while True:` that runs off into brk, the code
 * after the loop, with the break it is.  A `pass` ending the body whose
 * NOP lies right before brk is that break: 3.10+ (flowgraph.c / compile.c
 * optimize_cfg) turn the jump of a break to the next instruction into a
 * NOP that keeps the break's line. */
static int end_with_break(rec *r, upy_ptr_vec *body, int32_t brk) {
    upy_stmt *last = body->len ? body->items[body->len - 1] : NULL;
    if (last && last->kind == UPY_S_PASS &&
        last->start + 1 == blk(r, brk)->start) {
        last->kind = UPY_S_BREAK;
        return SUCCESS;
    }
    return emit_simple(r, body, UPY_S_BREAK);
}

/* The first instruction of block b past the POP_EXCEPT that starts it,
 * and the cleanup of the clause's name after it (`except A as e`), when
 * that POP_EXCEPT ends an except clause in the body of the loop at header:
 * b is entered with the clause's exception above the loop's own depth (an
 * except clause around the loop leaves its exception at the loop's
 * depth).  0 when it is no such block. */
static uint32_t past_clause_pop(const rec *r, int32_t header, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t i = bb->start + 1;
    if (bb->end - bb->start < 2 || ins(r, bb->start)->op != N_POP_EXCEPT ||
        bb->depth_in != blk(r, header)->depth_in + 1)
        return 0;
    if (i + 3 < bb->end && rec_clears_a_name(r, i))
        i += 3;
    return i;
}

/* Where the breaks of the `while True:` loop at header go when the first
 * block after its last jump back, exit, is the way out of an except clause
 * in its body that jumps past brk, where break_target found them going:
 * POP_EXCEPT (and the cleanup of the clause's name), then a lone jump
 * forward, or back to the header of the loop around, the end of whose
 * body the loop is (3.8 / 3.9 peephole.c threads the jump there; *far
 * is set to it).  The body ends in a return, so its last jump back is a
 * `continue` in the clause; the clause's way out is its break, and brk,
 * the code after the try that the compiler laid out after the handlers,
 * is the body's, up to where the break goes.  3.11, `for i in z:` /
 * `while True:` / `try: t = f()` / `except A:` / `if z: continue` /
 * `break` / `return t`; 3.8 and 3.9 the same at a function's top level,
 * the break jumping to the `return None` at its end (3.10+ copies that
 * return in its place).  The break was read as running off the body,
 * back to the header (a lie). */
static int32_t clause_break_past(const rec *r, int32_t header, int32_t exit,
                                 int32_t brk, const region *rg, int32_t *far) {
    const upy_block *eb;
    int32_t to;
    uint32_t i;
    if (brk <= exit || exit >= rg->end || exit >= (int32_t)r->cfg.count)
        return brk;
    eb = blk(r, exit);
    i = past_clause_pop(r, header, exit);
    if (!i || i + 1 != eb->end || ins(r, i)->op != N_JUMP)
        return brk;
    if (eb->jump == rg->loop && rg->falls_to_loop)
        to = rg->end;
    else if (eb->jump < rg->end)
        to = eb->jump;
    else
        return brk;
    if (to <= brk || !upy_cfg_entered_only_from(&r->cfg, exit, to, header, to))
        return brk;
    if (to != eb->jump)
        *far = eb->jump;
    return to;
}

static int only_handlers_reach(const rec *r, int32_t b, int32_t from,
                               int32_t to);

/* Whether handler block x protects a block of [from, to). */
static int protects_in(const rec *r, int32_t x, int32_t from, int32_t to) {
    int32_t b;
    for (b = from; b < to; b++)
        if (blk(r, b)->handler == x)
            return 1;
    return 0;
}

/* The end of the code laid out at block b after the handlers: the next
 * handler entry but those of the tries in that code.  (`if c:` / `try:
 * return f()` / `except E: pass` / `try: return g()` / `except E: pass`:
 * 3.12+ lays the second try, which only the first one's handler reaches,
 * out after that handler, and its own handlers after it.) */
static int32_t cold_end(const rec *r, int32_t b) {
    int32_t from = b;
    for (b++; b < (int32_t)r->cfg.count &&
              (!blk(r, b)->is_handler || protects_in(r, b, from, b));
         b++)
        ;
    return b;
}

/* Whether the code laid out at block b after the handlers jumps back into
 * the loop at header. */
static int jumps_back_to(const rec *r, int32_t b, int32_t header) {
    int32_t e = cold_end(r, b), last = loop_last(r, header);
    for (; b < e; b++)
        if (blk(r, b)->jump >= header && blk(r, b)->jump <= last)
            return 1;
    return 0;
}

/* Where the breaks of a `while True:` loop [header, exit) go when
 * break_target found none in its blocks (brk is exit): only the except
 * clauses of tries in its body break, and 3.12+ lays the code after the
 * loop, which only they reach, out after their handlers.  brk when there
 * is no such code. */
static int32_t break_after_handlers(const rec *r, int32_t header, int32_t exit,
                                    const region *rg, int32_t brk) {
    int32_t b;
    if (brk != exit)
        return brk;
    /* (Such code that goes back to the loop is the rest of its body.) */
    for (b = loop_last(r, header) + 1; b < (int32_t)r->cfg.count; b++)
        if (!r->done[b] && blk(r, b)->handler == rg->handler &&
            only_handlers_reach(r, b, header, exit) &&
            !jumps_back_to(r, b, header))
            return b;
    return brk;
}

/* Whether block b, after the last jump back of the `while True:` loop at
 * header (before block exit), is the way out of an except clause in its
 * body: POP_EXCEPT, then either a jump back to the code after the try
 * (3.12+ lays the handler out after the loop, so that jump goes
 * backward), reached from the clause only, or a return, entered from the
 * loop with the clause's exception above the loop's own depth (code after
 * the loop is entered at that depth).  (`if t: continue` ending the
 * clause jumps back to the header after it; `if t: continue` / `return
 * x` / `else: raise` returns from it before the raise.) */
static int clause_exit_block(const rec *r, int32_t header, int32_t exit,
                             int32_t b) {
    const upy_block *bb = blk(r, b);
    const upy_nin *last = ins(r, bb->end - 1);
    if (ins(r, bb->start)->op != N_POP_EXCEPT || !bb->npreds)
        return 0;
    if (last->op == N_RETURN)
        return bb->depth_in > blk(r, header)->depth_in &&
               upy_cfg_entered_only_from(&r->cfg, b, b + 1, header, b);
    if (b <= exit || last->op != N_JUMP || bb->jump < header ||
        bb->jump >= exit)
        return 0;
    return upy_cfg_entered_only_from(&r->cfg, b, b + 1, exit, b);
}

/* Where the code of the `while True:` loop at header ends when the first
 * block after its last jump back, exit, is the end of an except clause in
 * its body that raises (`if t: continue` then `raise`): code under the
 * clause's own cleanup handler (not a handler's entry, as the blocks of the
 * try statement's handler are), and the clause's ways out between
 * (clause_exit_block), reached only from the loop.  3.12+ lays the
 * handler after the function's code, so that block follows the last
 * `continue` there, and is the loop's, not code after it; 3.11 lays it
 * out at the end of the clause, which can be the last code of the loop
 * too.  (`raise` there was read as a break and a raise after the loop.) */
static int32_t clause_tail_end(const rec *r, int32_t header, int32_t exit,
                               const region *rg) {
    int32_t b = exit;
    for (; b < rg->end && b < (int32_t)r->cfg.count; b++) {
        const upy_block *bb = blk(r, b);
        if (clause_exit_block(r, header, exit, b))
            continue;
        if (bb->is_handler || bb->handler == UPY_NO_BLOCK ||
            bb->handler == rg->handler ||
            bb->handler >= (int32_t)r->cfg.count ||
            ins(r, blk(r, bb->handler)->start)->op == N_PUSH_EXC_INFO ||
            !bb->npreds)
            break;
        if (!upy_cfg_entered_only_from(&r->cfg, b, b + 1, header, b))
            return exit;
    }
    if (b == exit || upy_nin_falls_through(ins(r, blk(r, b - 1)->end - 1)))
        return exit;
    return b;
}

/* Where the code of the `while True:` loop at header goes on past block
 * exit, after its last jump back: blocks protected by the handler of a try
 * that starts in the loop are that try's body, so the loop's.  Example:
 * `while True:` / `try:` / `if a: continue` / `x()` / `finally: c()` /
 * `break`: the continue (with its copy of the finally body) jumps back
 * before x(), and the break is a copy of the return after the loop. */
static int32_t try_tail_end(const rec *r, int32_t header, int32_t exit,
                            const region *rg) {
    int32_t b, t, from = exit;
    const upy_nin *last;
    for (; exit < rg->end && exit < (int32_t)r->cfg.count; exit++) {
        const upy_block *eb = blk(r, exit);
        if (eb->is_handler || eb->handler == UPY_NO_BLOCK ||
            eb->handler == rg->handler ||
            !upy_cfg_entered_only_from(&r->cfg, exit, exit + 1, header,
                                       exit + 1))
            break;
        for (b = header; b < exit && blk(r, b)->handler != eb->handler; b++)
            ;
        if (b == exit)
            break;
    }
    /* The try's way on, its finally's copy and what follows, up to the
     * jump of the loop's last break, or the return that break copies:
     * the loop's too.  (3.11 lays the try's handlers out before that
     * code, and the copy jumps over them.) */
    if (exit == from || exit >= rg->end || exit >= (int32_t)r->cfg.count)
        return exit;
    t = exit;
    if (ins(r, blk(r, exit)->end - 1)->op == N_JUMP &&
        blk(r, exit)->jump > exit) {
        for (b = exit + 1;
             b < blk(r, exit)->jump &&
             (blk(r, b)->is_handler || blk(r, b)->handler != rg->handler);
             b++)
            ;
        if (b == blk(r, exit)->jump)
            t = b;
    }
    last = ins(r, blk(r, t)->end - 1);
    if (t < rg->end &&
        (last->op == N_RETURN || last->op == N_RAISE ||
         (last->op == N_JUMP && blk(r, t)->jump > t)) &&
        upy_cfg_entered_only_from(&r->cfg, exit, exit + 1, header, exit + 1) &&
        upy_cfg_entered_only_from(&r->cfg, t, t + 1, header, t + 1))
        exit = t + 1;
    return exit;
}

static int32_t hot_loop_last(const rec *r, int32_t header);

/* The last block of the `while True:` loop at header: the last jump back
 * in the loop's code as laid out (hot_loop_last), not a `continue` of an
 * except clause that 3.12+ lays out after the function's code, past the
 * code after the loop.  Example: `while True:` / `d = r()` / `while True:`
 * / `try: s = send(d)` / `except E: continue` / `if s: d = d[s:]` /
 * `else: break`: the inner loop's break jumps to the outer loop's jump
 * back, between the inner loop's own jump back and its clause's, and was
 * read as code of the inner body, losing the break.  A loop whose code
 * jumps back only from such a clause ends there. */
static int32_t while_true_last(const rec *r, int32_t header, const region *rg) {
    int32_t hot = hot_loop_last(r, header), last = loop_last(r, header), b;
    /* (Code after it under another handler, the body of the try whose
     * clause that is, as `if not x: continue` / `try: return f(x)` /
     * `except E: continue`, is the loop's own.) */
    for (b = hot + 1; b < last && !blk(r, b)->is_handler; b++)
        if (blk(r, b)->handler != rg->handler && blk(r, b)->handler > hot &&
            blk(r, b)->handler < last)
            return last;
    return hot > header ? hot : last;
}

/* Whether the code after a `while True:` that its breaks were read as
 * (moved_exit, block b) lies outside region rg, a part of an enclosing
 * loop's body that runs off back into that loop: no walk reaches b, so
 * the loop's breaks would print as going on in the enclosing loop.  3.12+,
 * `while True:` / `try: a = f()` / `except E: pass` / `else: break` +
 * `while True:` / `try: g()` / `except S: break` + `return a`: the second
 * loop read as the first's else part, its clause's copy of `return a` as
 * its break, and the return was lost (found while auditing test_ssl). */
static int moved_exit_unreached(const rec *r, int32_t b, const region *rg) {
    return rg->loop != UPY_NO_BLOCK && !inside(rg, b) && b != rg->follow &&
           b != rg->cont && !is_break(rg, b) && b < (int32_t)r->cfg.count;
}

/* Where the code after the `while True:` loop at header starts when its
 * breaks go to block brk from an except clause in its body: past the
 * clause's POP_EXCEPT at brk's start (past_clause_pop).  flowgraph.c
 * inline_small_exit_blocks copies the code after the loop, a small exit as the
 * implicit `return None`, in place of the jump after the break's POP_EXCEPT,
 * and drops the original.  3.12, `while True:` / `try: t = f()` / `except A:` /
 * `if z: continue` / `break` + `return t`: [POP_EXCEPT, RETURN_CONST None] was
 * walked after the loop, its POP_EXCEPT popping a value missing from the stack
 * (a false mark). */
static void resume_past_clause_break(rec *r, int32_t header, int32_t brk) {
    uint32_t i;
    if (brk == UPY_NO_BLOCK || brk >= (int32_t)r->cfg.count ||
        r->resume_block != UPY_NO_BLOCK ||
        !(i = past_clause_pop(r, header, brk)))
        return;
    r->resume_block = brk;
    r->resume_at = i;
}

/* Whether the body of a `while True:` loop whose blocks end at `exit`
 * left them for `left`, code after the loop in the region around it that
 * is neither the loop's end nor where a break goes, nor where that region
 * goes on: the loop's output would go round again there.  The
 * handlers of a try in the body that go on to a return after the loop's
 * code, the code its break runs into (3.11 `try: ...; continue` / `except
 * E: pass` / `else: p = f()` / `return p`, laid out as `else: ...;
 * return p` after the loop's last jump back, where no copy of the return
 * is made): not recovered, marked. */
static int goes_on_past_loop(const rec *r, const region *rg, int32_t left,
                             int32_t exit, int32_t brk, int32_t far) {
    /* (A break's lone jump, 3.8's, goes on where the code after the loop
     * starts.) */
    if (brk != UPY_NO_BLOCK && brk < (int32_t)r->cfg.count &&
        rec_is_lone(r, blk(r, brk), N_JUMP) && blk(r, brk)->jump == left)
        return 0;
    return inside(rg, left) && left > exit && left != brk && left != far &&
           left != rg->follow && left != rg->brk && left != rg->cont;
}

/* `while True:` (or a while whose test the compiler did not invert): the
 * body is the loop [header, last], exits are breaks. */
static int structure_while_true(rec *r, int32_t header, const region *rg,
                                int32_t *next, upy_ptr_vec *out) {
    int32_t last = while_true_last(r, header, rg), exit = last + 1, brk, far, b;
    int32_t left = UPY_NO_BLOCK;
    int runs_into;
    rec_resume moved_exit = {UPY_NO_BLOCK, 0};
    upy_ptr_vec body = {0};
    region body_rg;
    upy_stmt *s;

    /* The loop goes on past the end of the region it is in, and its body
     * runs off into that end: the code after the loop sits in place of
     * its break, out of the protected range of a try around the loop,
     * which ends there (flowgraph.c inline_small_exit_blocks copies that
     * exit into the break's place; 3.12+ push_cold_blocks_to_end moves
     * the clauses and the jump back after it).  The walk would read
     * running off as going back to the header and lose the break: not
     * recovered, marked.  (Running off with a value, as a `return value`
     * in a with does into the with's exit, is that return's way out,
     * which the walk reads.) */
    if (exit > rg->end && rg->end < (int32_t)r->cfg.count &&
        blk(r, rg->end)->depth_in <= (int32_t)r->sp &&
        blk(r, rg->end - 1)->next == rg->end &&
        upy_nin_falls_through(ins(r, blk(r, rg->end - 1)->end - 1)))
        return rec_fail_region(r, header, rg, out);
    if (exit > rg->end)
        exit = rg->end;
    exit = exit_past_return(
        r, header,
        try_tail_end(r, header, clause_tail_end(r, header, exit, rg), rg), rg);
    brk = break_after_handlers(r, header, exit, rg,
                               break_target(r, header, exit, rg, &far));
    if ((b = clause_break_past(r, header, exit, brk, rg, &far)) != brk)
        exit = brk = b;
    exit = body_past_continue(r, header, exit, brk, &runs_into);
    body_rg = rec_sub_region(rg, header, exit, exit);
    body_rg.brk = brk;
    body_rg.brk_threaded = far;
    body_rg.cont = header;
    body_rg.base = r->sp;
    body_rg.loop = header;
    body_rg.falls_to_loop = !runs_into;
    body_rg.brk_ends_finally = 0;
    /* No way into the code after the loop from it: a break's code is the
     * code after the loop, moved in its place. */
    body_rg.brk_moved = r->ncode.layout->copies_exits &&
                        !r->ncode.layout->written_exits_keep_jumps &&
                        far == UPY_NO_BLOCK;
    for (b = header; b < exit && body_rg.brk_moved; b++)
        if (blk(r, b)->jump == brk ||
            (blk(r, b)->next == brk &&
             upy_nin_falls_through(ins(r, blk(r, b)->end - 1))))
            body_rg.brk_moved = 0;
    body_rg.moved_exit = &moved_exit;
    if (rec_region(r, header, &body_rg, &body, &left) ||
        (runs_into && end_with_break(r, &body, brk)))
        return ERROR;
    r->sp = rg->base;
    if (goes_on_past_loop(r, rg, left, exit, brk, far))
        return rec_fail_region(r, header, rg, out);
    if (moved_exit.block != UPY_NO_BLOCK) {
        brk = moved_exit.block;
        r->done[brk] = 0;
        r->resume_block = brk;
        r->resume_at = moved_exit.at;
        if (moved_exit_unreached(r, brk, rg)) {
            r->resume_block = UPY_NO_BLOCK;
            return rec_fail_region(r, header, rg, out);
        }
    }
    resume_past_clause_break(r, header, brk);
    s = rec_stmt(r, UPY_S_WHILE);
    if (!s)
        return ERROR;
    rec_set_start(r, s, blk(r, header)->start);
    s->u.while_.test = rec_true(r, blk(r, header)->start);
    s->u.while_.body = loop_body(r, &body);
    /* Without a break the loop never goes on: the blocks after it may be
     * the handlers of a try in its body, structured with it, or of a try
     * around it. */
    *next = brk == exit && brk < (int32_t)r->cfg.count &&
                    (r->done[brk] || blk(r, brk)->is_handler)
                ? UPY_NO_BLOCK
                : brk;
    return rec_emit(r, out, s);
}

/* The size of [from, to) as the compiler's limit on the blocks it copies
 * counts it: 3.12+ counts the instructions of the code object, of which
 * normalizing may make two (a global's load and the NULL before a call);
 * 3.11 counts its PRECALL too, which normalizing drops, so there the
 * normalized instructions are the measure that keeps to the limit. */
uint32_t rec_copy_size(const rec *r, uint32_t from, uint32_t to) {
    uint32_t k, n = 0;
    if (!r->ncode.layout->copy_limit_counts_code)
        return to - from;
    for (k = from; k < to; k++)
        if (k == from || ins(r, k)->offset != ins(r, k - 1)->offset)
            n++;
    return n;
}

/* The copy `copy` of the exit block of the loop whose blocks (its test's
 * first on) are [first, last], which the loop's tests also leave to (a
 * chained comparison's last link, and its cleanup in the copy of the test
 * at the bottom): the loop goes on at the exit itself, so the copy holds
 * the same statements.  Marked skipped and done when only the loop's
 * blocks reach it. */
static void drop_exit_copy(rec *r, int32_t copy, int32_t first, int32_t last) {
    const upy_block *cb = blk(r, copy);
    uint32_t k;
    for (k = 0; k < cb->npreds; k++) {
        const upy_block *p = blk(r, cb->preds[k]);
        if (cb->preds[k] >= first && cb->preds[k] <= last)
            continue;
        if (cb->preds[k] < first || p->end - p->start != 1 ||
            ins(r, p->start)->op != N_POP_TOP || p->next != copy ||
            p->npreds != 1 || p->preds[0] < first || p->preds[0] > last)
            return;
    }
    for (k = 0; k < cb->npreds; k++)
        if (cb->preds[k] > last)
            r->done[cb->preds[k]] = 1;
    rec_skip_range(r, cb->start, cb->end - cb->start);
    r->done[copy] = 1;
}

/* rec_same_code() for a test and its copy: jumps may leave to copies of
 * one exit block (rec_copies_of_exit, of the blocks the targets start:
 * the top and bottom tests of a while loop at the end of a function can
 * each leave to a copy). */
static int same_test_code(const rec *r, uint32_t a, uint32_t b, uint32_t n) {
    uint32_t k;
    for (k = 0; k < n; k++) {
        const upy_nin *x = ins(r, a + k), *y = ins(r, b + k);
        /* (A chained comparison's link fails into the cleanup of its own
         * copy.) */
        if (!rec_same_code(r, a + k, b + k, 1) &&
            !(x->op == y->op && x->arg == y->arg && x->obj == y->obj &&
              x->flags == y->flags && x->target >= 0 && y->target >= 0 &&
              (rec_copies_of_exit(r, r->cfg.block_of[x->target],
                                  r->cfg.block_of[y->target]) ||
               (ins(r, (uint32_t)x->target)->op == N_POP_TOP &&
                ins(r, (uint32_t)y->target)->op == N_POP_TOP))))
            return 0;
    }
    return 1;
}

/* Whether the bottom of the loop at header holds a copy of the test
 * [start, start + len) that ends `gap` instructions before the header: the same
 * instructions, the last jump inverted and aimed back at the header
 * (3.11), or kept and followed by a jump back (3.12+).  Sets *bottom to
 * where the copy starts. */
static int bottom_test(const rec *r, int32_t header, uint32_t start,
                       uint32_t len, uint32_t gap, uint32_t *bottom) {
    int32_t last;
    if (len == 0 || !blk(r, header)->is_loop_header ||
        start + len + gap != blk(r, header)->start)
        return 0;
    last = loop_last(r, header);
    if (blk(r, last)->jump != header || len > blk(r, last)->start)
        return 0;
    if (ins(r, blk(r, last)->end - 1)->op == N_JUMP) {
        if (last == 0 || blk(r, last)->end - blk(r, last)->start != 1)
            return 0;
        *bottom = blk(r, last)->start - len;
        return *bottom > start && same_test_code(r, *bottom, start, len);
    }
    *bottom = blk(r, last)->end - len;
    return *bottom > start && same_test_code(r, *bottom, start, len - 1) &&
           ins(r, *bottom + len - 1)->op == N_POP_JUMP_IF;
}

/* Whether block k is a lone forward jump to a test block that is no loop
 * header: the end of the first value of a conditional expression in the
 * test (`while (b if a else c) and d:`), jumping over the other value to
 * the rest of the test. */
static int joins_test_ahead(const rec *r, int32_t k) {
    const upy_block *kb = blk(r, k);
    int32_t t = kb->jump;
    return rec_is_lone(r, kb, N_JUMP) && t > k + 1 &&
           !blk(r, t)->is_loop_header &&
           ins(r, blk(r, t)->end - 1)->op == N_POP_JUMP_IF;
}

int32_t rec_while_test_at(const rec *r, uint32_t start) {
    int32_t b, k, last;
    uint32_t bottom, end = start, steps = 0;
    if (start >= r->ncode.count)
        return UPY_NO_BLOCK;
    b = r->cfg.block_of[start];
    /* The test's blocks each end in a conditional jump (or run through
     * inlined comprehensions to one), or are part of an operand's own
     * and / or (`while f(a or b) and c`: a block ending in a jump that
     * keeps its value, and the block it falls into); the header is the
     * block after the last, or after a chained comparison's cleanup and
     * the jump over it (see chain_gap). */
    for (k = b; k < (int32_t)r->cfg.count && steps++ < 16; k++) {
        const upy_block *kb = blk(r, k);
        if (k > b && kb->is_loop_header)
            return upy_cfg_entered_only_from(&r->cfg, k, k + 1, b,
                                             (int32_t)r->cfg.count) &&
                           bottom_test(r, k, start, end - start,
                                       kb->start - end, &bottom)
                       ? k
                       : UPY_NO_BLOCK;
        if ((ins(r, kb->end - 1)->op == N_POP_JUMP_IF ||
             ins(r, kb->end - 1)->op == N_JUMP_IF_OR_POP) &&
            (k == b || end == kb->start))
            end = kb->end;
        else if (k > b && end == kb->start &&
                 ins(r, blk(r, k - 1)->end - 1)->op == N_JUMP_IF_OR_POP &&
                 upy_nin_falls_through(ins(r, kb->end - 1)))
            end = kb->end;
        else if ((k == b || end == kb->start) &&
                 (last = rec_flow_test_last(r, k)) != UPY_NO_BLOCK)
            end = blk(r, k = last)->end;
        else if (k > b && end == kb->start && joins_test_ahead(r, k))
            end = kb->end;
        else if (k == b || !(ins(r, kb->start)->op == N_POP_TOP ||
                             (rec_is_lone(r, kb, N_JUMP) && kb->jump > k)))
            return UPY_NO_BLOCK;
    }
    return UPY_NO_BLOCK;
}

/* Whether the while loop at header b goes back only by `continue`: each
 * jump back is on a line of its own, not on the line of the `while` (as
 * the end of a body that runs on is).  Code that runs on into the exit of
 * such a loop is a break there. */
static int only_continues(const rec *r, int32_t b) {
    const upy_nin *first = ins(r, blk(r, b)->start);
    int32_t line = first->lead_line >= 0 ? first->lead_line : first->line;
    int32_t last = loop_last(r, b), k;
    if (ins(r, blk(r, b)->end - 1)->op == N_FOR_ITER)
        return 0;
    for (k = b; k <= last; k++) {
        const upy_nin *j = ins(r, blk(r, k)->end - 1);
        if ((blk(r, k)->jump == b || blk(r, k)->next == b) &&
            (j->line < 0 || j->line == line))
            return 0;
    }
    return 1;
}

/* Whether block k ends in the `continue` of an except clause that 3.12+
 * lays out after the function's code: the jump right after the clause's
 * POP_EXCEPT, in cold code (rec_is_cold).  (The rest of a loop body that
 * only a handler reaches, after a try whose body always leaves, is cold
 * too, and jumps back with no POP_EXCEPT: not a `continue`, the loop's
 * code as laid out ends there.) */
static int in_cold_clause(const rec *r, int32_t k) {
    const upy_block *kb = blk(r, k);
    uint32_t pop = kb->end - 1;
    if (pop == kb->start && k > 0)
        pop = blk(r, k - 1)->end;
    /* (`except E as name:` deletes the name after POP_EXCEPT.) */
    if (pop >= 3 && rec_clears_a_name(r, pop - 3))
        pop -= 3;
    return pop > 0 && ins(r, pop - 1)->op == N_POP_EXCEPT &&
           rec_is_cold(r, kb->start);
}

/* The last block of the loop at header that jumps back to it, leaving out
 * the code of except clauses laid out after the function's code (a
 * `continue` there): the end of the loop's code as laid out. */
static int32_t hot_loop_last(const rec *r, int32_t header) {
    int32_t k;
    for (k = loop_last(r, header); k > header; k--)
        if ((blk(r, k)->jump == header || blk(r, k)->next == header) &&
            !in_cold_clause(r, k))
            return k;
    return header;
}

/* Whether loop header b is the test of a while loop with no copy of it at
 * the bottom of the body, which the compiler leaves out when the body ends
 * every way in continue, break, return or raise: a block that is only the
 * test, jumping out of the loop when it fails.  (`while True:` whose body
 * starts with `if t: break` jumps out of the loop from its first block
 * too; but the end of its body jumps back, on the line of the `while`.
 * And its `while` line, with no code, leaves a NOP before the test.) */
static int top_only_test(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    if (!bb->is_loop_header || !rec_is_test_block(r, b) || bb->next != b + 1 ||
        bb->jump == UPY_NO_BLOCK || ins(r, bb->start)->lead_line >= 0)
        return 0;
    return bb->jump > hot_loop_last(r, b) && only_continues(r, b) &&
           rec_while_test_at(r, bb->start) == UPY_NO_BLOCK;
}

/* Where the body of a while loop with no bottom test (top_only_test) ends,
 * its last jump back ending before block exit.  The compiler lays the
 * code after the body's last `continue` there, up to where the test
 * leaves: when that code only leaves the function (`return`, `raise`) and
 * only the loop reaches it, it is the end of the body, not code after the
 * loop. */
static int32_t top_only_end(const rec *r, const rec_cond *c, int32_t exit,
                            const region *rg) {
    int32_t b, stop = UPY_NO_BLOCK;
    for (b = c->first; b <= c->last; b++) {
        int32_t j = blk(r, b)->jump;
        if (j > exit && (stop == UPY_NO_BLOCK || j < stop))
            stop = j;
    }
    /* (A loop that ends an if's then part fails to where the if goes on,
     * past its else part: the code up to the then part's end is the
     * loop's, when only the loop reaches it.  3.12, `if a:` / `while c:
     * ...; try: f(); break` / `except E: continue` / `else: ...`: the
     * break's jump over the else part ends it.) */
    if (stop != UPY_NO_BLOCK && stop > rg->end && rg->end > exit &&
        blk(r, rg->end - 1)->rpo != UINT32_MAX)
        stop = rg->end;
    if (stop == UPY_NO_BLOCK || stop > rg->end ||
        stop > (int32_t)r->cfg.count ||
        upy_nin_falls_through(ins(r, blk(r, stop - 1)->end - 1)))
        return exit;
    /* (Handlers there, inside the region, are those of tries in that code
     * or in the loop, which 3.11 lays out in place.) */
    return upy_cfg_entered_only_from(&r->cfg, exit, stop, c->first, stop)
               ? stop
               : exit;
}

/* Whether the code after the body's last jump back, up to where the test
 * leaves, ends in a break that has no jump: only the loop reaches it and
 * it runs on into the code after the loop, which is where the break went
 * (3.11's compile.c remove_redundant_jumps drops a jump to the next
 * instruction, leaving the break's NOP).  Worked example (3.11, cyclopts
 * bind.py):
 *
 *     while p < n:                 test; POP_JUMP_IF_FALSE after
 *         if g(p):                 g(p); POP_JUMP_IF_FALSE tail
 *             p += 1               p += 1
 *             continue             JUMP_BACKWARD test
 *         h()                tail: h(); POP_TOP
 *         break                    NOP
 *     return z              after: return z
 *
 * Read as code after the loop, `h()` also ran when the test failed.  (A
 * lone break there is read right.  Normalize drops the NOP, leaving its
 * line on the next instruction, lead_line: a line after the tail's.)  The
 * tail goes into the body, before its break (tail_into_body). */
static int tail_breaks_unjumped(const rec *r, const rec_cond *c, int32_t exit,
                                const region *rg) {
    int32_t stop = c->on_false;
    if (stop == UPY_NO_BLOCK || stop <= exit || stop > rg->end ||
        stop > (int32_t)r->cfg.count ||
        !upy_nin_falls_through(ins(r, blk(r, stop - 1)->end - 1)) ||
        ins(r, blk(r, stop)->start)->lead_line <=
            ins(r, blk(r, stop - 1)->end - 1)->line)
        return 0;
    return upy_cfg_entered_only_from(&r->cfg, exit, stop, c->first, stop);
}

/* Recovers the tail [from, to) of tail_breaks_unjumped into the loop's
 * body, before the break that ends it (read from the NOP's line): 1 when
 * done, 0 when the body ends in no break (the tail is then marked at the
 * body's end), -1 when out of memory. */
static int tail_into_body(rec *r, int32_t from, int32_t to,
                          const region *body_rg, upy_ptr_vec *body) {
    upy_ptr_vec tail = {0};
    region tail_rg = rec_sub_region(body_rg, from, to, to);
    upy_stmt *brk;
    uint32_t k;
    if (!body->len ||
        ((upy_stmt *)body->items[body->len - 1])->kind != UPY_S_BREAK)
        return rec_fail_region(r, from, &tail_rg, body) < 0 ? ERROR : SUCCESS;
    brk = body->items[--body->len];
    r->done[from] = 0;
    RETURN_IF_ERROR(rec_region(r, from, &tail_rg, &tail, NULL));
    r->sp = body_rg->base;
    for (k = 0; k < tail.len; k++)
        if (upy_vec_push(r->arena, body, tail.items[k]))
            return rec_oom(r);
    return upy_vec_push(r->arena, body, brk) ? rec_oom(r) : 1;
}

/* How many instructions lie between a test that is a chained comparison
 * and the header of its loop, when they are the chain's cleanup and the
 * jump over it (a cleanup that has the way out of the loop copied in);
 * 0 when anything else does. */
static uint32_t chain_gap(const rec *r, const rec_cond *c, int32_t header) {
    int32_t b;
    if (c->chain_cleanup == UPY_NO_BLOCK || header <= c->last + 1)
        return 0;
    for (b = c->last + 1; b < header; b++) {
        const upy_block *bb = blk(r, b);
        if (b != c->chain_cleanup &&
            !(rec_is_lone(r, bb, N_JUMP) && bb->jump == header))
            return 0;
    }
    return blk(r, header)->start - blk(r, c->last)->end;
}

/* Where an inner `while True:` that starts the body [from, to) of a while
 * loop whose test is not at its header ends, UPY_NO_BLOCK when there is
 * none: a block of the body that jumps back to the header (outside the
 * copy of the test at the bottom, skipped) is that loop's, as no statement
 * of the outer loop does so (continue goes to the test).  The inner loop
 * shares the header and ends after the last such block. */
static int32_t shared_header_end(const rec *r, int32_t from, int32_t to,
                                 int32_t header) {
    int32_t b, end = UPY_NO_BLOCK;
    for (b = from; b < to && b < (int32_t)r->cfg.count; b++) {
        const upy_block *bb = blk(r, b);
        const upy_nin *last = ins(r, bb->end - 1);
        if (bb->jump == header && !r->skip[bb->end - 1] &&
            (last->op == N_JUMP || last->op == N_POP_JUMP_IF))
            end = b + 1;
    }
    return end < to ? end : UPY_NO_BLOCK;
}

static int structure_while_true(rec *r, int32_t header, const region *rg,
                                int32_t *next, upy_ptr_vec *out);

/* The body of a while loop (region body_rg) that starts with an inner
 * `while True:` ending at block inner_end (shared_header_end): that loop,
 * then the rest of the body from where its breaks go. */
int rec_inner_while_true(rec *r, int32_t header, int32_t inner_end,
                         const region *body_rg, upy_ptr_vec *body,
                         int32_t *exit) {
    region inner_rg = rec_sub_region(body_rg, header, inner_end, inner_end);
    int32_t after = UPY_NO_BLOCK, h = blk(r, header)->handler;
    /* A try that starts at the header, around the inner loop: the inner
     * loop's jump back runs under the try's handler (a loop around a try
     * jumps back from outside the protected range, where a `continue`
     * leaves it first).  Read as a try in the inner loop, its except
     * clauses would go on in that loop, not out of it: the walk reads the
     * try, and the try the inner loop in its body (inner_loop_end in
     * try.c). */
    if (h != UPY_NO_BLOCK && h != body_rg->handler &&
        blk(r, inner_end - 1)->handler == h)
        return rec_region(r, header, body_rg, body, exit);
    inner_rg.loop = inner_rg.cont = inner_rg.brk = UPY_NO_BLOCK;
    inner_rg.brk_ends_finally = 0;
    inner_rg.brk_threaded = UPY_NO_BLOCK;
    inner_rg.falls_to_loop = 0;
    RETURN_IF_ERROR(structure_while_true(r, header, &inner_rg, &after, body));
    /* (Breaks that leave the body leave it as a break does: no block of
     * the body's follows.) */
    if (after == UPY_NO_BLOCK || !inside(body_rg, after)) {
        if (exit)
            *exit = UPY_NO_BLOCK;
        return SUCCESS;
    }
    return rec_region(r, after, body_rg, body, exit);
}

/* Whether block b is a lone forward jump that reaches block to, itself or
 * through more lone forward jumps: jump threading (flowgraph.c
 * optimize_basic_block) sends a jump on to the end of such a chain.
 * Example (3.11): `try: while c: pass` / `except E: pass` / `finally:
 * pass`, then code.  The loop's test fails to the code after the finally
 * (threaded through the try body's jump over its handlers and the
 * finally's normal-path jump), while its bottom test falls into the
 * first of those jumps: both are the loop's exit. */
static int jumps_on_to(const rec *r, int32_t b, int32_t to) {
    while (b < to && rec_is_lone(r, blk(r, b), N_JUMP) && blk(r, b)->jump > b)
        b = blk(r, b)->jump;
    return b == to;
}

/* The end of the blocks from exit (before block to) that are leftovers of
 * the loop at header laid out after its last jump back: unreached code
 * (peephole.c of 3.8/3.9 leaves the jumps of a try's normal exits, aimed
 * at the header, after its handler) or code of the loop that only
 * re-raises (an except clause's END_FINALLY when it does not match, and
 * the handler around that clause's body).  Example (3.8): `if a:` /
 * `while c: ...; try: f(); break` / `except E: continue` / `else: ...`:
 * the test fails past the else part, through the jump over it that
 * follows the handler's re-raise; the loop ends at that jump too. */
static int32_t leftovers_end(const rec *r, int32_t header, int32_t exit,
                             int32_t to) {
    int32_t b;
    for (b = exit; b < to && b < (int32_t)r->cfg.count; b++) {
        const upy_block *bb = blk(r, b);
        if (jumps_on_to(r, b, to) ||
            (bb->rpo != UINT32_MAX && (!upy_cfg_dominates(&r->cfg, header, b) ||
                                       ins(r, bb->end - 1)->op != N_RERAISE)))
            break;
    }
    return b;
}

/* `while test: body`: the compiler emits the test before the loop and a
 * copy at its bottom, jumping back into the body when true.  The test c
 * (instructions [c->start, end of block c->last]) leads to the loop header
 * when true.  SUCCESS when that is the shape found, NOT_THIS when not. */
static int structure_while(rec *r, const rec_cond *c, const region *rg,
                           int32_t *next, upy_ptr_vec *out) {
    int32_t header = c->on_true, last, exit, end, brk, far, clause_end,
            inner_end, anchor = c->on_false, copy = UPY_NO_BLOCK, k;
    int32_t body_start = c->on_true;
    uint32_t test_len = blk(r, c->last)->end - c->start, bottom = 0, gap = 0;
    int top_only = 0, ends_finally, tail_breaks = 0;
    upy_ptr_vec body = {0}, orelse = {0};
    region body_rg;
    upy_expr *test = c->test;
    upy_stmt *s;

    if (header == UPY_NO_BLOCK || anchor == UPY_NO_BLOCK || anchor == header ||
        (header != c->last + 1 && !(gap = chain_gap(r, c, header))))
        return NOT_THIS;
    if (!bottom_test(r, header, c->start, test_len, gap, &bottom)) {
        if (gap)
            return NOT_THIS;
        if (c->start != blk(r, c->first)->start || !top_only_test(r, c->first))
            return NOT_THIS;
        /* The test heads the loop; the body is what it holds into. */
        header = c->first;
        top_only = 1;
    }
    last = top_only ? hot_loop_last(r, header) : loop_last(r, header);
    exit = end = last + 1;
    if (top_only) {
        tail_breaks = tail_breaks_unjumped(r, c, exit, rg);
        exit = end = top_only_end(r, c, exit, rg);
    }
    /* The test's failing jump into the middle of the loop's blocks, to code
     * outside the loop: the body ends there, and the blocks of the loop
     * after it are what 3.12+ lays out after the function's code (the
     * handlers of a try in the body, and the copy of the test they go on
     * to).  3.13 aims the copy's failing jump at a jump back there. */
    if (anchor == exit && exit < (int32_t)r->cfg.count &&
        rec_is_lone(r, blk(r, exit), N_JUMP) && blk(r, exit)->jump < exit)
        anchor = blk(r, exit)->jump;
    if (anchor > header && anchor <= last &&
        !upy_cfg_dominates(&r->cfg, header, anchor))
        exit = anchor;
    else
        anchor = c->on_false;
    /* A loop that ends the body of an outer loop leaves by going back to
     * the outer one, and 3.12+ aims the test's failing jump right there:
     * the loop's exit is then a lone jump there too. */
    if (anchor < header) {
        if (exit >= (int32_t)r->cfg.count || blk(r, exit)->jump != anchor ||
            blk(r, exit)->end - blk(r, exit)->start != 1 ||
            ins(r, blk(r, exit)->start)->op != N_JUMP)
            return NOT_THIS;
        anchor = exit;
    }
    /* The test's false outcome went on through the jump that leaves the
     * loop (to where the branch the loop ends joins): the loop ends there,
     * and that jump is the branch's way out, not part of the test.  (It
     * can be the region's own way out: the jump over the handlers at the
     * end of a try body that the loop ends.) */
    /* (That jump can follow leftovers of the loop: leftovers_end.) */
    if (anchor > exit && (k = leftovers_end(r, header, exit, anchor)) > exit &&
        k <= rg->end && jumps_on_to(r, k, anchor))
        exit = end = k;
    if (anchor > exit && exit <= rg->end && exit < (int32_t)r->cfg.count &&
        jumps_on_to(r, exit, anchor)) {
        anchor = exit;
        r->done[exit] = 0;
    }
    /* Or, the loop ending its region with no bottom test (top_only_end),
     * it went to where the region goes on: past an if's else part. */
    if (top_only && anchor > exit && exit == rg->end && anchor == rg->follow)
        anchor = exit;
    /* Or it went to a copy of the return block the loop runs into, which
     * can lie past the end of the region (after the else part of an if the
     * loop ends). */
    if (anchor > exit && exit < (int32_t)r->cfg.count &&
        rec_copies_of_exit(r, exit, anchor)) {
        copy = anchor;
        anchor = exit;
    }
    if (anchor < exit || anchor > rg->end)
        return NOT_THIS;
    if (!top_only)
        rec_skip_range(r, bottom, blk(r, last)->end - bottom);
    brk = break_target(r, body_start, exit, rg, &far);
    clause_end = anchor == exit
                     ? breaks_past_clause_end(r, header, body_start, exit, rg,
                                              0, &brk, &far)
                     : UPY_NO_BLOCK;
    ends_finally = anchor == exit && brk == exit && far == UPY_NO_BLOCK &&
                   breaks_end_finally(r, body_start, exit, rg);
    if (ends_finally)
        brk = rg->end;
    /* (Only a chained comparison's links leave to such a copy that the
     * loop does not break to.) */
    if (copy != UPY_NO_BLOCK && copy != brk && c->chain_cleanup != UPY_NO_BLOCK)
        drop_exit_copy(r, copy, c->first, last);
    inner_end = !top_only && c->first != header
                    ? shared_header_end(r, body_start, exit, header)
                    : UPY_NO_BLOCK;
    body_rg = rec_sub_region(rg, body_start, end, exit);
    body_rg.brk = brk;
    body_rg.brk_threaded = far;
    body_rg.cont = c->first;
    body_rg.base = r->sp;
    body_rg.loop = header;
    body_rg.falls_to_loop = 1;
    body_rg.brk_moved = 0;
    body_rg.brk_ends_finally = ends_finally;
    r->done[body_start] = 0;
    if (inner_end != UPY_NO_BLOCK) {
        RETURN_IF_ERROR(
            rec_inner_while_true(r, header, inner_end, &body_rg, &body, NULL));
    } else if (rec_region(r, body_start, &body_rg, &body, NULL)) {
        return ERROR;
    }
    if (tail_breaks &&
        tail_into_body(r, exit, c->on_false, &body_rg, &body) < 0)
        return ERROR;
    r->sp = rg->base;
    if (brk > anchor) {
        region else_rg = rec_sub_region(rg, anchor, brk, brk);
        RETURN_IF_ERROR(rec_region(r, anchor, &else_rg, &orelse, NULL));
    }
    s = rec_stmt(r, UPY_S_WHILE);
    if (!s)
        return ERROR;
    rec_set_start(r, s, c->start);
    s->u.while_.test = test;
    /* With no copy of the test at the bottom, the body cannot end by
     * falling back to the test: its last continue stays. */
    s->u.while_.body = top_only && !r->ncode.layout->while_test_on_top
                           ? upy_vec_stmts(&body)
                           : loop_body(r, &body);
    s->u.while_.orelse = upy_vec_stmts(&orelse);
    *next = clause_end != UPY_NO_BLOCK && brk == rg->end && brk > anchor
                ? clause_end
                : brk;
    if (tail_breaks)
        *next = c->on_false;
    RETURN_IF_ERROR(rec_emit(r, out, s));
    return SUCCESS;
}

/* --- with --------------------------------------------------------------- */

/* A small block that only leaves the function: the compiler copies such
 * exit blocks into the paths that jump to them, so one can sit, outside
 * any protected range, between the blocks of a try or with body.  The way
 * out of a with body (a return, break or continue in it) is such a block
 * too, after the with's exits. */
enum { EXIT_LEAVES = 1, EXIT_JUMPS = 2, EXIT_SPLIT = 4 };

/* EXIT_LEAVES or EXIT_JUMPS, with EXIT_SPLIT when the copies go on into
 * blocks after b; 0 when b is no such block. */
static int is_exit_copy(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t i = bb->start, n, exits = 0, pops;
    int hops = 0, split = 0;
    while (i < bb->end && ((n = with_exit_at(r, i, 0)) != 0 ||
                           (n = with_exit_at(r, i, 1)) != 0)) {
        i += n;
        exits++;
        /* The copies of nested withs' exits are split into blocks where
         * the handler changes (each exit runs under the handler of the
         * with around it): go on into the next. */
        if (i == bb->end && bb->next == b + 1 && hops++ < 64 &&
            upy_nin_falls_through(ins(r, i - 1))) {
            b = bb->next;
            bb = blk(r, b);
            i = bb->start;
            split = EXIT_SPLIT;
        }
    }
    /* Copies of the finally body of a try around the with run after its
     * exits, and the exits of withs around that: structured first, they
     * are marked skipped (in blocks of their own where handlers change). */
    while (exits && hops++ < 64) {
        while (i < bb->end && r->skip[i])
            i++;
        if (i < bb->end || bb->next != b + 1 ||
            !upy_nin_falls_through(ins(r, i - 1)))
            break;
        b = bb->next;
        bb = blk(r, b);
        i = bb->start;
        split = EXIT_SPLIT;
    }
    if (exits && i + 1 == bb->end && ins(r, i)->op == N_JUMP)
        return EXIT_JUMPS | split;
    /* A return in a with body keeps its value under the exits (SWAP 2)
     * or loads a constant after them; a value loaded after them is the
     * return after the with.  (A break to a return, copied into its
     * place, pops the iterators of the loops it leaves first.) */
    pops = i;
    while (exits && pops + 2 < bb->end && ins(r, pops)->op == N_POP_TOP)
        pops++;
    if (exits && !(ins(r, bb->end - 1)->op == N_RETURN &&
                   (i + 1 == bb->end ||
                    (pops + 2 == bb->end && ins(r, pops)->op == N_LOAD_CONST))))
        return 0;
    if (bb->end - i > 4 || i >= bb->end ||
        (ins(r, bb->end - 1)->op != N_RETURN &&
         ins(r, bb->end - 1)->op != N_RERAISE))
        return 0;
    for (; i + 1 < bb->end; i++)
        if (ins(r, i)->op != N_LOAD_CONST && ins(r, i)->op != N_LOAD &&
            ins(r, i)->op != N_POP_TOP && ins(r, i)->op != N_SWAP &&
            ins(r, i)->op != N_POP_EXCEPT && ins(r, i)->op != N_COPY)
            return 0;
    return EXIT_LEAVES | split;
}

/* Whether the body of the try with handler h leads to block b: the block
 * before it falls into it, or, where that does not, only the body's
 * blocks jump to it (the exit of a for loop in the body: FOR_ITER, its
 * END_FOR dropped). */
static int body_reaches(const rec *r, int32_t b, int32_t h) {
    const upy_block *bb = blk(r, b), *pb = blk(r, b - 1);
    uint32_t k;
    if (pb->handler == h && pb->next == b &&
        upy_nin_falls_through(ins(r, pb->end - 1)))
        return 1;
    if (!bb->npreds)
        return 0;
    for (k = 0; k < bb->npreds; k++)
        if (blk(r, bb->preds[k])->handler != h || bb->preds[k] == b - 1)
            return 0;
    return 1;
}

/* Whether block b is a constant's `return` in the body of a try with
 * handler h that the protected range leaves out: the compiler pops the
 * try's block (and the handlers of clauses around it: POP_EXCEPT) before
 * it loads the constant (a bare `return` in a branch of the body), and
 * the iterators of the loops it leaves (POP_TOP).  The
 * body leads to it (body_reaches), and the block after it is the lone jump of
 * the body's normal way out, which only a branch of the body that skips the
 * return reaches: were the return an else part, the body would go on to
 * it, and nothing would jump past it. */
static int is_return_in_body(const rec *r, int32_t b, int32_t h) {
    const upy_block *bb = blk(r, b), *nb;
    uint32_t i = bb->start, k;
    if (b == 0 || b + 1 >= (int32_t)r->cfg.count || bb->handler == h)
        return 0;
    nb = blk(r, b + 1);
    /* (A return in a for loop pops its iterator first.) */
    while (i < bb->end &&
           (ins(r, i)->op == N_POP_EXCEPT || ins(r, i)->op == N_POP_TOP))
        i++;
    if (i + 2 != bb->end || ins(r, i)->op != N_LOAD_CONST ||
        ins(r, i + 1)->op != N_RETURN || !body_reaches(r, b, h) ||
        nb->is_handler || nb->handler == h)
        return 0;
    if (rec_is_lone(r, nb, N_JUMP))
        return 1;
    /* 3.12+ lays the code after the try out right after the body when
     * only the handlers (moved away) jump there: a branch of the body
     * jumping past the return to it is the body's way on.  (Code that
     * only the handlers reach, after an else part, goes with them.)
     * 3.10 copies a written return after the try into the body's way out
     * (compile.c extend_block), where 3.11 keeps the jump: `try:` / `if a
     * or b: return 1` / `except E: pass` / `return 2` lays out `return
     * 1`, which a's jump and b's fall-through reach, then the copy of
     * `return 2`, which b's jump reaches.  Read as code after the try,
     * the return made `if a or b: pass`, returning 1 either way.  (b is
     * a written return, on a line of its own: a copy of the implicit
     * `return None` takes the line of the code before it.) */
    if (!r->ncode.layout->cold_handlers &&
        (!is_copied_exit(r, b + 1) || rec_has_line_of_a_pred(r, b, i)))
        return 0;
    for (k = 0; k < nb->npreds; k++)
        if (nb->preds[k] < b && blk(r, nb->preds[k])->handler == h &&
            blk(r, nb->preds[k])->jump == b + 1)
            return 1;
    return 0;
}

/* Whether block b is a constant's `return` in the middle of the body of
 * the try with handler h, after copies of the exits it leaves (skipped
 * already), where the body goes on under h after it, or leaves through
 * the copies of the exits of a with h is the handler of (the body's next
 * statement a constant's return too, whose line's NOP the compiler
 * dropped: `try:` / `with a:` / `if c: return 1` / `return 2` / `finally:
 * g()`), and a branch of the body before it jumps there: the return ends
 * the then part of an if whose else part is the rest of the body.  (The NOP of
 * the return's line that rec_is_copied_return reads may carry no line mark:
 * after a copy the line before it is the copied code's.) */
static int is_copied_return_mid_body(const rec *r, int32_t b, int32_t h) {
    const upy_block *bb = blk(r, b), *nb;
    uint32_t i, k;
    if (b == 0 || b + 1 >= (int32_t)r->cfg.count || bb->handler == h ||
        bb->end - bb->start < 3 || !r->skip[bb->start])
        return 0;
    for (i = bb->start; i + 2 < bb->end; i++)
        if (!r->skip[i])
            return 0;
    nb = blk(r, b + 1);
    if (ins(r, i)->op != N_LOAD_CONST || ins(r, i + 1)->op != N_RETURN ||
        nb->is_handler ||
        (nb->handler != h && !(is_exit_copy(r, b + 1) & EXIT_LEAVES)))
        return 0;
    for (k = 0; k < nb->npreds; k++)
        if (nb->preds[k] < b && blk(r, nb->preds[k])->jump == b + 1)
            return 1;
    return 0;
}

/* Whether block e, which handler h does not protect, is the then part of
 * an if ending the body of the try (or with) with handler h that leaves
 * the body through a return, or a break that 3.12+ made a copy of the
 * return after the loop: it pops the try's block first, so the protected
 * range leaves it out.  (A break or continue that jumps is the business
 * of the lone-jump case of rec_protected_end.)  The test before it falls
 * into it and jumps past it to code h does not protect either, where the
 * body goes on when it ends normally (the normal end of a body is its
 * last code, so the part the test falls into is no such end).  The other
 * tests of an `or` (every other block that reaches e, under h and before
 * e) jump into it when they hold: `try:` / `if a or b: return True` /
 * `except E: pass`, read with the return after the body, came out as `if
 * a or b: pass` and `else: return True` on the try (3.11, setuptools
 * egg_info FileList._safe_path). */
static int is_branch_way_out(const rec *r, int32_t e, int32_t h) {
    const upy_block *bb = blk(r, e), *pb;
    uint32_t k;
    if (e == 0 || h == UPY_NO_BLOCK || bb->handler == h || bb->is_handler ||
        bb->end - bb->start > 4 || ins(r, bb->end - 1)->op != N_RETURN)
        return 0;
    for (k = 0; k < bb->npreds; k++) {
        int32_t p = bb->preds[k];
        pb = blk(r, p);
        if (p != e - 1 && (p > e || pb->handler != h || pb->jump != e ||
                           ins(r, pb->end - 1)->op != N_POP_JUMP_IF))
            return 0;
    }
    pb = blk(r, e - 1);
    return pb->handler == h && pb->next == e && pb->jump != UPY_NO_BLOCK &&
           pb->jump != e && ins(r, pb->end - 1)->op == N_POP_JUMP_IF &&
           blk(r, pb->jump)->handler != h && !rec_under(r, pb->jump, h) &&
           !blk(r, pb->jump)->is_handler;
}

/* Whether an except clause of handler h goes on at block e, jumping back
 * to it (3.12+ lay the handlers out after all other code; the way out of
 * a clause, POP_EXCEPT and a jump, runs under no handler of the try): e
 * is the code after the try, not part of its body. */
static int clause_goes_back_to(const rec *r, int32_t e, int32_t h) {
    const upy_block *eb = blk(r, e);
    uint32_t k;
    if (!r->ncode.layout->cold_handlers || h == UPY_NO_BLOCK || e >= h ||
        eb->handler == h || rec_under(r, e, h))
        return 0;
    for (k = 0; k < eb->npreds; k++) {
        int32_t p = eb->preds[k];
        const upy_block *pb = blk(r, p);
        if (p > h && pb->jump == e && ins(r, pb->start)->op == N_POP_EXCEPT &&
            ins(r, pb->end - 1)->op == N_JUMP && pb->handler != h &&
            !rec_under(r, p, h))
            return 1;
    }
    return 0;
}

int32_t rec_past_claimed_handlers(const rec *r, int32_t b) {
    int32_t count = (int32_t)r->cfg.count;
    if (b > 0 && b < count && blk(r, b)->is_handler && r->done[b] &&
        rec_is_lone(r, blk(r, b - 1), N_RETURN))
        while (b < count && r->done[b])
            b++;
    return b;
}

/* Whether block e, after the jump of a break or continue (and the exits
 * of the withs it leaves) in the body with handler h, is more of that
 * body: code of a try or with nested in it, which their own handler
 * protects (its first instruction PUSH_EXC_INFO), under h.  Examples:
 * `for x in y:` / `try:` / `with a:` / `if c: continue` / `d()`: d()
 * follows the continue's jump, under the with's handler again;
 * `for x in y:` / `with a:` / `if c: continue` / `try: d()` / `finally:
 * e()`: d() is under the finally's handler, nested in the with's.  (A
 * handler laid out after the jump, 3.12+, is none: the clause of a try
 * in the body comes after its handler block.) */
static int goes_on_nested(const rec *r, int32_t e, int32_t h) {
    const upy_block *eb = blk(r, e);
    return !eb->is_handler && eb->handler != UPY_NO_BLOCK &&
           ins(r, blk(r, eb->handler)->start)->op == N_PUSH_EXC_INFO &&
           rec_under(r, e, h);
}

/* (h is not always b's own handler: a try whose body starts with a loop
 * whose body starts with a try has its first block protected by the inner
 * handler only.) */
/* Where the body of the try with handler h goes on when block e starts
 * the handlers of a try before it, claimed already: 3.12+
 * push_cold_blocks_to_end lays those out after the code that follows that
 * try, here inside this body.  Example: `try: a` / `except E: b()` /
 * `try:` / `while True:` / `try: c()` / `except F: break` / `finally:
 * d()`: E's clause (and its cleanup, a handler of no statement) sits
 * between the loop's jump back and F's clause.  e when the block after
 * them is not this body's. */
static int32_t past_earlier_handlers(const rec *r, int32_t e, int32_t h) {
    int32_t x = e, count = (int32_t)r->cfg.count;
    if (!r->ncode.layout->cold_handlers || !blk(r, e)->is_handler ||
        !r->done[e] || rec_under(r, e, h))
        return e;
    while (x < count && blk(r, x)->handler != h && !rec_under(r, x, h) &&
           (r->done[x] || blk(r, x)->is_handler))
        x++;
    return x < count && (blk(r, x)->handler == h || rec_under(r, x, h)) ? x : e;
}

/* Whether block e is the jump over a try's handlers that 3.8-3.9 keep
 * after a body that ends in `break` or `continue` (peephole.c drops
 * unreachable code after a return only; layout keeps_jump_after_exit),
 * inside the range of handler h: the block before it ends in the body's
 * jump, and the code after it (the nested try's handler, whose cleanup
 * handler h encloses) is under h.  blocks.c gives unreachable code no
 * handler, so the range seemed to end there, and with it a loop in the
 * body of h's try, whose tail was read as that try's else part.  Worked
 * example (3.9, snowballstemmer persian_stemmer
 * PersianStemmer.__r_Delete_ZWNJ; one_shot_loops.py
 * inner_loop_then_continue):
 *
 *     while True:                 0  v_1 = s.pos         (handler 17)
 *         try:                    3  ... s.match()       (handler 7)
 *             while True:        16  JUMP 49  (break: the `continue`)
 *                 try: ...       17  JUMP 29  (unreachable, no handler)
 *                     break      18  handler 7 ... POP_EXCEPT; JUMP 29
 *                 except: pass   29  s.pos = v_2 ...     (handler 17)
 *                 ...            41  ... JUMP 3  (the inner loop's end)
 *             continue           49  JUMP 0
 *         except lab0: pass      51  handler 17 ...
 *         ...
 *
 * The range goes on past it; the block itself adds nothing to it. */
static int dead_jump_in_range(const rec *r, int32_t e, int32_t h) {
    const upy_block *d = blk(r, e);
    return r->ncode.layout->keeps_jump_after_exit && d->rpo == UINT32_MAX &&
           d->handler == UPY_NO_BLOCK && rec_is_lone(r, d, N_JUMP) && e > 0 &&
           ins(r, blk(r, e - 1)->end - 1)->op == N_JUMP &&
           e + 1 < (int32_t)r->cfg.count && rec_under(r, e + 1, h);
}

int32_t rec_protected_end(const rec *r, int32_t b, int32_t h,
                          const region *rg) {
    int32_t e = b, end = b + 1;
    int after_jump = 0, after_split = 0, after_leave = 0, direct = 0;
    int after_outer_exit = 0;
    while (e < (int32_t)r->cfg.count && e < rg->end) {
        int copy;
        direct |= blk(r, e)->handler == h;
        if (after_split && blk(r, e)->is_handler)
            break;
        /* (Nor after a way out that leaves, where 3.12+ lays out the
         * handlers of a try nested in the body after all other code: the
         * body ends at the way out its nested try shares with the code
         * after it, when that is the exits of a with around the try (h
         * would protect those of a with in the body), or when the body is
         * only the nested try, no block of it under h itself (the
         * module's return).  The handler of a nested with, laid out
         * alike, does not end the body of a with.) */
        if (after_leave && (after_outer_exit || !direct) &&
            r->ncode.layout->cold_handlers && e != h && blk(r, e)->is_handler &&
            blk(r, e)->start + 1 < r->ncode.count &&
            ins(r, blk(r, e)->start + 1)->op != N_WITH_EXCEPT_START)
            break;
        if (e != b && clause_goes_back_to(r, e, h))
            break;
        e = past_earlier_handlers(r, e, h);
        if (e == b || blk(r, e)->handler == h ||
            (rec_under(r, e, h) && (!after_jump || goes_on_nested(r, e, h))) ||
            rec_is_copied_return(r, e) ||
            (!after_jump && is_return_in_body(r, e, h)) ||
            (!after_jump && is_copied_return_mid_body(r, e, h)) ||
            (!after_jump && is_branch_way_out(r, e, h)) ||
            rec_is_unwinding(r, e) || rec_is_lone(r, blk(r, e), N_RETURN)) {
            /* (A return after copies of the exits it leaves is not
             * protected, yet in the body: see rec_is_copied_return.  So
             * is the lone RETURN_VALUE of `return f()`, which cannot
             * raise: its value comes from the body, so it is no code
             * after the try, even in the middle of the body.)  The
             * cleanup reraising from a nested handler holds no code of the
             * body: by itself it does not take the body past a way out
             * before it (the return a nested try's handlers share with the
             * code after this try). */
            if (!after_leave || ins(r, blk(r, e)->end - 1)->op != N_RERAISE ||
                !is_exit_copy(r, e)) {
                end = e + 1;
                after_leave = 0;
            }
            after_jump = after_split = after_outer_exit = 0;
        } else if (returns_load(r, e, N_LOAD) &&
                   e + 1 < (int32_t)r->cfg.count && blk(r, e + 1)->is_handler) {
            /* A `return name` outside the range: the code after the try
             * (the compiler loads a value it returns before it leaves
             * the try, under h), copied there into the way out of a
             * nested statement (flowgraph.c inline_small_exit_blocks).
             * Where the handlers of tries nested in the body follow it
             * (3.12+ lays them out after all other code), no more of the
             * body does; (a copy in a branch of the body is followed by
             * the rest of the body). */
            break;
        } else if ((copy = is_exit_copy(r, e)) != 0) {
            /* The with exits and jump of a break or continue leave the
             * body; only code the with itself protects comes after one
             * inside it (not a 3.12+ handler laid out after it).  Nor does
             * a handler come after the exits of nested withs before a
             * return (a 3.12+ comprehension's or try's whose own handler
             * is this one). */
            after_leave |= (copy & EXIT_LEAVES) != 0;
            after_outer_exit = (copy & EXIT_LEAVES) != 0 &&
                               (with_exit_at(r, blk(r, e)->start, 0) ||
                                with_exit_at(r, blk(r, e)->start, 1));
            after_jump |= (copy & EXIT_JUMPS) != 0;
            after_split |= (copy & EXIT_SPLIT) != 0;
        } else if (rec_past_claimed_handlers(r, e) > e) {
            /* The handlers of a try in a copy of a finally body, laid out
             * after the copy (3.11), claimed with it. */
            e = rec_past_claimed_handlers(r, e) - 1;
            end = e + 1;
        } else if (dead_jump_in_range(r, e, h)) {
            /* (Nothing reaches it: see dead_jump_in_range.) */
        } else if (loop_way_out(r, e, 1, NULL) == e && !blk(r, e)->is_handler) {
            /* The jump ending a branch of an if in the body, threaded to
             * where the body goes on (the loop header, for a try ending a
             * loop body): the compiler leaves it unprotected (the way out
             * of the body it took the place of is).  So is the jump of a
             * break or continue after the copy of the finally body it
             * leaves through, skipped (`for x in y:` / `try:` / `if c:
             * continue` / `g()` / `finally: h()`). */
            after_jump = 1;
        } else {
            break;
        }
        e++;
    }
    return end;
}

/* Where a with statement goes on when __exit__ swallowed an exception:
 * after the handler's POP_TOP; POP_EXCEPT; POP_TOP; POP_TOP.  Sets *block
 * and *offset (instructions into it): SUCCESS, or NOT_THIS when not
 * found. */
static int with_suppress_follow(rec *r, int32_t handler, int32_t *block,
                                uint32_t *offset) {
    uint32_t i, limit = r->ncode.count;
    for (i = blk(r, handler)->start; i + 4 < limit; i++) {
        if (ins(r, i)->op == N_POP_TOP && ins(r, i + 1)->op == N_POP_EXCEPT &&
            ins(r, i + 2)->op == N_POP_TOP && ins(r, i + 3)->op == N_POP_TOP) {
            int32_t b = r->cfg.block_of[i + 4];
            if (r->cfg.block_of[i + 3] != b) {
                /* The block ends with the pops: go where it goes. */
                const upy_block *pb = blk(r, r->cfg.block_of[i + 3]);
                *block = pb->next;
                *offset = 0;
                return *block == UPY_NO_BLOCK ? NOT_THIS : SUCCESS;
            }
            if (ins(r, i + 4)->op == N_JUMP) {
                *block = blk(r, b)->jump;
                *offset = 0;
                return SUCCESS;
            }
            *block = b;
            *offset = i + 4 - blk(r, b)->start;
            return SUCCESS;
        }
    }
    return NOT_THIS;
}

/* The first instruction at or after i not skipped. */
static uint32_t past_skipped(const rec *r, uint32_t i) {
    while (i < r->ncode.count && r->skip[i])
        i++;
    return i;
}

/* The first instruction at or after i that is neither skipped nor a pop
 * of the blocks a constant's return leaves after a with's exit (compile.c
 * compiler_unwind_fblock_stack, innermost first): the POP_EXCEPT of an
 * except clause around the with, with the cleanup of its name, and the
 * POP_TOP of the iterator of a for loop.  The code after that with, where
 * the clause runs off its end, pops the same way. */
static uint32_t past_clause_pops(const rec *r, uint32_t i) {
    i = past_skipped(r, i);
    while (i + 1 < r->ncode.count &&
           (ins(r, i)->op == N_POP_EXCEPT || ins(r, i)->op == N_POP_TOP)) {
        i++;
        if (ins(r, i - 1)->op == N_POP_EXCEPT && rec_clears_a_name(r, i))
            i += 3;
        i = past_skipped(r, i);
    }
    return i;
}

/* A constant's `return` ending a with body leaves through a copy of the
 * with's exit, then loads the constant and returns: the same code as the
 * return written after the with, but for where __exit__ swallowing an
 * exception goes.  That is the code after the with: when it does not
 * return the same constant, the return was in the body (and the with goes
 * on where that path goes).  The normal exit ends `exit_len` instructions
 * after instruction `from`, *cont and *exit_len say where the with goes
 * on.  The copies of the finally bodies of trys around the with, skipped
 * already (structured first), come between the exit and the constant's
 * load: compile.c compiler_return unwinds every block before it loads a
 * constant (`try:` / `with a:` / `return True` / `finally: g()`: with
 * exit; g(); LOAD_CONST True; RETURN_VALUE).  Not for None there: that
 * is also the implicit return at the end of the code, where a with ending
 * the try body runs on into (test_kqueue's test_fork, 3.13).  Returns -1
 * when out of memory. */
static int return_in_body(rec *r, int32_t handler, uint32_t from,
                          uint32_t exit_len, int32_t *cont,
                          uint32_t *cont_offset, upy_ptr_vec *body) {
    int32_t sb;
    uint32_t soff, k, at = past_clause_pops(r, from + exit_len);
    if (at + 2 > r->ncode.count || ins(r, at)->op != N_LOAD_CONST ||
        ins(r, at + 1)->op != N_RETURN ||
        (at != from + exit_len && upy_nin_loads_none(ins(r, at))) ||
        with_suppress_follow(r, handler, &sb, &soff) ||
        blk(r, sb)->start + soff == from + exit_len ||
        rec_same_code(r, at, past_clause_pops(r, blk(r, sb)->start + soff), 2))
        return SUCCESS;
    RETURN_IF_ERROR(emit_const_return(r, at, body));
    /* The exit and the return, in blocks of their own where handlers
     * change, are this statement's. */
    for (k = from; k < at + 2; k++) {
        r->skip[k] = 1;
        if (blk(r, r->cfg.block_of[k])->start == k)
            r->done[r->cfg.block_of[k]] = 1;
    }
    *cont = sb;
    *cont_offset = soff;
    return SUCCESS;
}

/* Whether statement s leaves the code around it: break, continue, return
 * or raise. */
static int is_way_out(const upy_stmt *s) {
    return s->kind == UPY_S_BREAK || s->kind == UPY_S_CONTINUE ||
           s->kind == UPY_S_RETURN || s->kind == UPY_S_RAISE;
}

uint32_t rec_jumped_to(const rec *r, uint32_t i) {
    int hops = 0;
    while (i < r->ncode.count && ins(r, i)->op == N_JUMP &&
           ins(r, i)->target >= 0 && hops++ < 8)
        i = (uint32_t)ins(r, i)->target;
    return i;
}

/* A break, continue or return ending a with body leaves through a copy of
 * the with's exit, then goes its way (pops the iterators of the loops it
 * leaves, jumps, or runs a copy of the return after the loop): the code of
 * the with's normal exit and what follows, but for where __exit__
 * swallowing an exception goes, which is the code after the with.  Where
 * that is other code, what follows the exit at *cont (*cont_offset
 * instructions in) is the body's way out: walked into the body when it is
 * one block ending in a jump or return and reads as one statement that
 * leaves, marked when not; the with goes on where the swallowing path
 * goes.  Returns -1 on error. */
static int moved_exit_after(rec *r, int32_t b, uint32_t start, int32_t brk_line,
                            const region *rg);

static int way_out_in_body(rec *r, int32_t handler, const region *rg,
                           uint32_t exit_from, int32_t *cont,
                           uint32_t *cont_offset, upy_ptr_vec *body) {
    int32_t sb, wb;
    uint32_t soff, at, s_at, n, len = body->len;
    uint8_t last;
    int placed = 0;
    if (with_suppress_follow(r, handler, &sb, &soff) ||
        *cont >= (int32_t)r->cfg.count || sb >= (int32_t)r->cfg.count)
        return SUCCESS;
    at = blk(r, *cont)->start + *cont_offset;
    s_at = blk(r, sb)->start + soff;
    if (at >= r->ncode.count || s_at >= r->ncode.count ||
        rec_jumped_to(r, at) == rec_jumped_to(r, s_at))
        return SUCCESS;
    wb = r->cfg.block_of[at];
    n = blk(r, wb)->end - at;
    if (n == blk(r, r->cfg.block_of[s_at])->end - s_at &&
        rec_same_code(r, at, s_at, n))
        return SUCCESS;
    /* A break of the `while True:` around, on the line of a NOP before
     * the exit's copy, whose code after the loop the compiler moved in
     * place of that break: the loop goes on there, after the break. */
    if (exit_from < at &&
        moved_exit_after(r, wb, at, ins(r, exit_from)->lead_line, rg)) {
        RETURN_IF_ERROR(emit_simple(r, body, UPY_S_BREAK));
        *rg->moved_exit = (rec_resume){wb, at};
        *cont = sb;
        *cont_offset = soff;
        return SUCCESS;
    }
    last = ins(r, blk(r, wb)->end - 1)->op;
    if (last == N_RETURN || last == N_JUMP) {
        r->resume_block = wb;
        r->resume_at = at;
        RETURN_IF_ERROR(rec_region(r, wb, rg, body, NULL));
        r->resume_block = UPY_NO_BLOCK;
        placed = body->len == len + 1 &&
                 is_way_out((const upy_stmt *)body->items[len]);
        if (!placed)
            body->len = len;
    }
    if (!placed) {
        rec_unrecovered(r, body, at, blk(r, wb)->end, "region");
        r->done[wb] = 1;
    }
    *cont = sb;
    *cont_offset = soff;
    return SUCCESS;
}

/* Where __exit__ swallowed an exception, the with goes on into a copy of
 * the small exit block after it (3.12+ copies `x = {}; return` there
 * rather than jump back): that copy is the code after the with, which the
 * normal way on [at, ...) structures, up to its return.  Marks it skipped,
 * its blocks done. */
static void skip_suppressed_copy(rec *r, int32_t handler, uint32_t at) {
    int32_t sb;
    uint32_t soff, from, n = 0, k;
    if (with_suppress_follow(r, handler, &sb, &soff))
        return;
    from = blk(r, sb)->start + soff;
    if (from == at)
        return;
    while (at + n < r->ncode.count && n < 8 &&
           upy_nin_falls_through(ins(r, at + n)))
        n++;
    /* (A block that returns or raises is copied so, and one that ends an
     * except clause, jumping where the normal way does; a lone jump there
     * goes on to code the normal way reaches too.) */
    if (at + n >= r->ncode.count || n >= 8 ||
        (ins(r, at + n)->op == N_JUMP &&
         (n == 0 || ins(r, at + n)->target != ins(r, from + n)->target)) ||
        !rec_same_code(r, at, from, n + 1))
        return;
    for (k = from; k <= from + n; k++) {
        r->skip[k] = 1;
        if (blk(r, r->cfg.block_of[k])->end == k + 1)
            r->done[r->cfg.block_of[k]] = 1;
    }
}

/* Where __exit__ swallowed an exception and the body never ends
 * normally, the with goes on at instruction *off of block *cont: when
 * that is a copy of the small exit block that follows region rg (3.12+
 * copy it in place of the jump there), the copy is that block's, where
 * the with goes on. */
static void suppressed_copy_of_follow(rec *r, const region *rg, int32_t *cont,
                                      uint32_t *off) {
    uint32_t at, n;
    if (rg->follow == UPY_NO_BLOCK || rg->follow >= (int32_t)r->cfg.count ||
        *cont == UPY_NO_BLOCK || *cont >= (int32_t)r->cfg.count ||
        inside(rg, *cont))
        return;
    at = blk(r, *cont)->start + *off;
    n = exit_copy_len(r, at, blk(r, rg->follow)->start);
    if (!n || blk(r, *cont)->end != at + n)
        return;
    rec_skip_range(r, at, n);
    r->done[*cont] = 1;
    *cont = rg->follow;
    *off = 0;
}

/* `with a: with b: body` is the code of `with a, b: body`: a with whose
 * body is one with of the same kind takes its items. */
static void merge_with(rec *r, upy_stmt *s) {
    upy_stmt *inner;
    upy_withitem *items;
    if (s->u.with.body.len != 1)
        return;
    inner = s->u.with.body.items[0];
    if (inner->kind != UPY_S_WITH ||
        inner->u.with.is_async != s->u.with.is_async)
        return;
    items = upy_arena_array(r->arena, s->u.with.n_items + inner->u.with.n_items,
                            sizeof(upy_withitem));
    if (!items)
        return;
    memcpy(items, s->u.with.items, s->u.with.n_items * sizeof *items);
    memcpy(items + s->u.with.n_items, inner->u.with.items,
           inner->u.with.n_items * sizeof *items);
    s->u.with.items = items;
    s->u.with.n_items += inner->u.with.n_items;
    s->u.with.body = inner->u.with.body;
}

static int unwinds_to_return(const rec *r, int32_t b, int value_loaded);
static int32_t skipped_loop_exit(const rec *r, int32_t b);
static int32_t leaving_test_way_on(const rec *r, int32_t b);
static uint32_t iterators_popped_before(const rec *r, uint32_t p);

/* Where the body of a with, protected from block start up to block end,
 * ends: end, or the block after it where end is the way out of a
 * `return value` in the body (the copy of the with's exit, skipped, then
 * RETURN_VALUE: out of the protected range) that a branch of the body
 * jumps over to the with's normal exit.  Example: `with a:` / `if c:
 * return f()` + code: the test jumps over the return's exit to the NOP of
 * its line, then the exit.  (The return ending the body is the region's
 * way out, return_in_body.) */
static int32_t body_end_past_return(const rec *r, int32_t start, int32_t end) {
    int32_t b;
    if (end + 1 >= (int32_t)r->cfg.count || blk(r, end)->is_handler ||
        !unwinds_to_return(r, end, 1) ||
        ins(r, blk(r, end)->end - 1)->op != N_RETURN)
        return end;
    for (b = start; b < end; b++)
        if (blk(r, b)->jump == end + 1)
            return end + 1;
    return end;
}

/* Whether block x starts another copy of the with's exit than block
 * end, one that no handler enters. */
static int other_exit_copy(const rec *r, int32_t x, int32_t end, int is_async) {
    return x > end && x < (int32_t)r->cfg.count && !blk(r, x)->is_handler &&
           with_exit_at(r, blk(r, x)->start, is_async) != 0;
}

/* Whether the try body that ends the with body [start, end) falls into
 * block end, the exit's copy there ends in a jump, and a block under the
 * with's handler after end (the end of an except clause: POP_EXCEPT, the
 * jump) goes to another copy of the exit: push_cold_blocks_to_end
 * (Python/flowgraph.c) moves the except clauses, and with them the
 * with's normal exit, past the `continue` or `break` that makes the try's
 * else part (NOPs dropped), so its unwinding (the __exit__ call, the
 * jump) lies right where the body ends.  3.11's layout, the handler right
 * after that jump, reads; 3.12 and later put the loop's exit (END_FOR)
 * there, and the else part was lost.  Read where cold_else_copy tells
 * the exits apart, else marked. */
static int cold_else_exit(const rec *r, int32_t start, int32_t end,
                          int is_async) {
    int32_t c, n = (int32_t)r->cfg.count;
    int32_t handler = blk(r, start)->handler;
    const upy_block *last = blk(r, end - 1);
    if (end <= start || end + 1 >= n || blk(r, end + 1)->is_handler ||
        ins(r, blk(r, end)->end - 1)->op != N_JUMP || last->next != end ||
        last->jump != UPY_NO_BLOCK || last->handler < 0 ||
        last->handler == handler)
        return 0;
    for (c = end + 1; c < n; c++)
        if (blk(r, c)->handler == handler &&
            other_exit_copy(r, blk(r, c)->jump, end, is_async))
            return 1;
    return 0;
}

/* Whether block end of the with body [start, end) under handler is
 * entered by falling off a try body (a block under another handler, not
 * a handler's own code), past straight code under handler alone: the
 * statements of the try's else part before its way out, no POP_EXCEPT
 * ending an except clause among them. */
static int falls_from_try_body(const rec *r, int32_t start, int32_t end,
                               int32_t handler) {
    int32_t p;
    uint32_t i;
    for (p = end - 1; p >= start; p--) {
        const upy_block *pb = blk(r, p);
        if (pb->next != p + 1 || pb->jump != UPY_NO_BLOCK || pb->is_handler)
            return 0;
        if (pb->handler != handler)
            return pb->handler >= 0;
        for (i = pb->start; i < pb->end; i++)
            if (ins(r, i)->op == N_POP_EXCEPT)
                return 0;
    }
    return 0;
}

/* Where the with whose body [start, end) is protected by handler goes
 * on when the exit copy at block end, which the body falls into, is no
 * normal exit but the way out of a `continue` or `break` that makes the
 * else part of a try ending the body: the copy of the exit that the
 * try's except clauses, under handler, jump to, when it goes on where the
 * with goes after __exit__ swallowed an exception and the copy at end
 * goes elsewhere (cold_else_exit's layout, told apart):
 *
 *     for s in xs:                   try body; NOP (line of continue)
 *         with cm():          end:   __exit__(None, None, None); JUMP head
 *             try: check()           END_FOR; RETURN_CONST None
 *             except E: pass         PUSH_EXC_INFO ... POP_EXCEPT; JUMP n
 *             else: continue    n:   __exit__(None, None, None); JUMP a
 *         after(s)                   with's handler ... JUMP a
 *                               a:   after(s); JUMP head
 *
 * (Statements of the else part before its way out, under handler, come
 * before that copy too.)  3.11 lays the clauses out right after the copy,
 * where the try reads it as its else part.  UPY_NO_BLOCK when not so. */
static int32_t cold_else_copy(rec *r, int32_t start, int32_t end,
                              int32_t handler, int is_async) {
    int32_t c, x, follow, n = (int32_t)r->cfg.count;
    uint32_t off;
    const upy_block *eb;
    if (end <= start || end + 1 >= n ||
        !with_exit_at(r, blk(r, end)->start, is_async))
        return UPY_NO_BLOCK;
    eb = blk(r, end);
    if (ins(r, eb->end - 1)->op != N_JUMP ||
        !falls_from_try_body(r, start, end, handler) ||
        with_suppress_follow(r, handler, &follow, &off) || off ||
        eb->jump == follow)
        return UPY_NO_BLOCK;
    for (c = end + 1; c < n; c++) {
        x = blk(r, c)->jump;
        if (blk(r, c)->handler == handler &&
            other_exit_copy(r, x, end, is_async) && blk(r, x)->jump == follow)
            return x;
    }
    return UPY_NO_BLOCK;
}

/* Whether region rg, where a with statement is, goes on to its loop's
 * next turn or exit, as a loop body does.  The code after the with,
 * which only its cold normal exit reaches, is then the rest of the
 * body; in a branch of an if statement it is no way on of the branch
 * that the if statement found. */
static int goes_on_as_loop_body(const region *rg) {
    return rg->follow != UPY_NO_BLOCK &&
           (rg->follow == rg->cont || rg->follow == rg->brk);
}

/* Whether the last statement of a with body is a try whose else part
 * ends in a break, continue or return: the way out that cold_else_copy
 * found, read so. */
static int ends_in_else_exit(const upy_ptr_vec *body) {
    const upy_stmt *t;
    const upy_stmt_list *e;
    upy_stmt_kind k;
    if (!body->len)
        return 0;
    t = body->items[body->len - 1];
    if (t->kind != UPY_S_TRY || !t->u.try_.orelse.len)
        return 0;
    e = &t->u.try_.orelse;
    k = e->items[e->len - 1]->kind;
    return k == UPY_S_BREAK || k == UPY_S_CONTINUE || k == UPY_S_RETURN;
}

/* Whether the way out at block end, entered from a try body in the with
 * body [start, end), is the else part of a try nested in a try that ends
 * the body: 3.8-3.10 lay each try's else part after its own handlers
 * (compile.c compiler_try_except), so the inner try's else part (the
 * break, continue or return through the with) comes before the outer
 * try's handlers, and the inner try's end, under the with's handler
 * again past end, jumps to the normal exit.  The outer try's range is
 * then split by that way out, which is not read yet: the with is marked
 * (`with a:` / `try:` / `try: f()` / `except E: pass` / `else: break` /
 * `except F: pass` dropped the break).  3.12+ lays handlers cold, past
 * end, where cold_else_exit reads them. */
static int nested_else_exit(const rec *r, int32_t start, int32_t end,
                            int is_async) {
    int32_t b;
    if (r->ncode.layout->cold_handlers)
        return 0;
    for (b = end + 1; b < (int32_t)r->cfg.count; b++)
        if (blk(r, b)->handler == blk(r, start)->handler &&
            other_exit_copy(r, blk(r, b)->jump, end, is_async))
            return 1;
    return 0;
}

/* Where the normal exit of a with, the __exit__(None, None, None) call,
 * starts when the copy of it at block end, where the with's protected
 * range ends, is the way out of a `break`, `continue` or `return` that
 * makes the else part of a try ending the body [start, end): 3.8-3.10 lay
 * the else part out after the try's handlers (compile.c
 * compiler_try_except) and that way out right where the range ends
 * (compiler_unwind_fblock: POP_BLOCK, the call, the jump), so it read as
 * the normal exit and the jump after it was lost, the loop running on
 * where the source leaves (pip _internal/network/lazy_wheel
 * LazyZipOverHTTP._check_zip: `with f():` / `try: check()` / `except E:
 * pass` / `else: break`).  A try body's way out goes to end, and a block
 * of the body (the end of an except clause) jumps to another copy after
 * it: that copy is the normal exit, the code after the try, and the body
 * runs up to it (the else part, a way out through the with, is the try's).
 * end where there is no such copy, or where the copy is 3.12+'s cold
 * one (cold_else_exit: structure_with reads it with cold_else_copy, or
 * marks it); -1 where the with is marked: a normal exit that the loop around
 * took for its exit is not read yet (`while True:` / `with a:` / `try:`
 * ... `else: continue` + `break`: the loop's end, which the last jump
 * back guessed, is the with's normal exit, and the clause read as a
 * break), or where the normal exit is only reached from past end
 * (nested_else_exit). */
static int32_t normal_exit_past_else(const rec *r, int32_t start, int32_t end,
                                     const region *rg, int is_async) {
    int32_t b, normal = UPY_NO_BLOCK;
    int from_try = 0;
    if (end >= (int32_t)r->cfg.count ||
        !with_exit_at(r, blk(r, end)->start, is_async))
        return end;
    if (cold_else_exit(r, start, end, is_async))
        return end;
    for (b = start; b < end; b++) {
        /* Block b ends in the way out of a try body to block end: a jump
         * under another handler than the code before it. */
        uint32_t k = blk(r, b)->end - 1;
        from_try |= blk(r, b)->jump == end && ins(r, k)->op == N_JUMP &&
                    k > 0 && ins(r, k - 1)->handler >= 0 &&
                    ins(r, k - 1)->handler != ins(r, k)->handler;
        if (normal == UPY_NO_BLOCK &&
            other_exit_copy(r, blk(r, b)->jump, end, is_async))
            normal = blk(r, b)->jump;
    }
    if (!from_try)
        return end;
    if (normal == UPY_NO_BLOCK)
        return nested_else_exit(r, start, end, is_async) ? -1 : end;
    return is_break(rg, normal) ? -1 : normal;
}

/* The end of a with's body (blocks from body_start under handler): where
 * the normal exit (the __exit__ call) starts, or -1 where the with is
 * marked.  *normal is the cold else copy the body takes in (the exit copy
 * at end may be the way out of a try's else part: the body takes it in,
 * and goes on to the normal exit), UPY_NO_BLOCK where there is none. */
static int32_t with_body_end(rec *r, int32_t body_start, int32_t handler,
                             const region *rg, int is_async, int32_t *normal) {
    int32_t end = rec_protected_end(r, body_start, handler, rg);
    end = normal_exit_past_else(r, body_start, end, rg, is_async);
    *normal = UPY_NO_BLOCK;
    if (end < 0)
        return -1;
    skip_with_exits(r, body_start, end, handler, is_async);
    end = body_end_past_return(r, body_start, end);
    *normal = cold_else_copy(r, body_start, end, handler, is_async);
    if (*normal != UPY_NO_BLOCK && !blk(r, end + 1)->is_handler)
        return goes_on_as_loop_body(rg) ? end + 1 : -1;
    if (cold_else_exit(r, body_start, end, is_async))
        return -1;
    return end;
}

/* BEFORE_WITH at instruction i of block b: binds the target, structures
 * the body (the blocks protected by the with's handler) and skips the
 * normal exit.  *resume_at is the instruction after the with. */
static int structure_with(rec *r, int32_t b, uint32_t i, const region *rg,
                          int32_t *next, uint32_t *resume_at,
                          upy_ptr_vec *out) {
    const upy_nin *bw = ins(r, i);
    int is_async = (bw->flags & N_ASYNC) != 0;
    sval ctx = rec_pop(r);
    pending *target = rec_new_target(r);
    uint32_t k = i + 1, depth, exit_len, exit_from = 0, start = r->stmt_start;
    int32_t handler, body_start, end, cont, normal;
    upy_ptr_vec body = {0};
    region body_rg;
    upy_stmt *s;
    upy_withitem *item;

    if (!target || rec_push(r, SV_WITH_EXIT, NULL) ||
        rec_push(r, SV_BIND, NULL))
        return ERROR;
    r->stack[r->sp - 1].pend = target;
    depth = r->sp - 1;
    if (is_async && k < blk(r, b)->end && ins(r, k)->op == N_AWAIT)
        k++;
    r->base = depth;
    k = bind_target(r, b, k, target, &body);
    /* The body is what the with's handler protects. */
    body_start = r->cfg.block_of[k < r->ncode.count ? k : r->ncode.count - 1];
    handler = blk(r, body_start)->handler;
    if (k >= blk(r, b)->end)
        body_start = blk(r, b)->next;
    if (body_start == UPY_NO_BLOCK)
        return rec_fail_region(r, b, rg, out);
    handler = blk(r, body_start)->handler;
    end = with_body_end(r, body_start, handler, rg, is_async, &normal);
    if (end < 0)
        return rec_fail_region(r, b, rg, out);
    body_rg = rec_sub_region(rg, body_start, end, end);
    body_rg.handler = handler;
    body_rg.alt_handler = REC_NO_ALT;
    body_rg.base = depth;
    r->resume_block = body_start;
    r->resume_at = k;
    /* Skip the normal exit, __exit__(None, None, None); without one (the
     * body never ends normally) the with goes on where the handler goes
     * when __exit__ swallows an exception. */
    RETURN_IF_ERROR(rec_region(r, body_start, &body_rg, &body, &cont));
    /* (Unless the body went on there, the copy at end read otherwise.) */
    if (normal != UPY_NO_BLOCK &&
        (cont != normal || !ends_in_else_exit(&body))) {
        r->resume_block = UPY_NO_BLOCK;
        return rec_fail_region(r, b, rg, out);
    }
    exit_len = cont != UPY_NO_BLOCK && cont < (int32_t)r->cfg.count
                   ? with_exit_at(r,
                                  r->resume_block == cont ? r->resume_at
                                                          : blk(r, cont)->start,
                                  is_async)
                   : 0;
    if (exit_len)
        exit_from =
            r->resume_block == cont ? r->resume_at : blk(r, cont)->start;
    if (exit_len && r->resume_block == cont)
        exit_len += r->resume_at - blk(r, cont)->start;
    r->resume_block = UPY_NO_BLOCK;
    if (exit_len && handler != UPY_NO_BLOCK &&
        return_in_body(r, handler, blk(r, cont)->start, exit_len, &cont,
                       &exit_len, &body))
        return ERROR;
    if (!exit_len && handler != UPY_NO_BLOCK) {
        if (with_suppress_follow(r, handler, &cont, &exit_len))
            cont = UPY_NO_BLOCK;
        else
            suppressed_copy_of_follow(r, rg, &cont, &exit_len);
    } else if (exit_len && handler != UPY_NO_BLOCK && cont != UPY_NO_BLOCK &&
               cont < (int32_t)r->cfg.count)
        skip_suppressed_copy(r, handler, blk(r, cont)->start + exit_len);
    r->sp = depth - 1;
    r->base = rg->base;
    if (exit_len && handler != UPY_NO_BLOCK &&
        way_out_in_body(r, handler, rg, exit_from, &cont, &exit_len, &body))
        return ERROR;
    s = rec_stmt(r, UPY_S_WITH);
    item = upy_arena_alloc(r->arena, sizeof *item);
    if (!s || !item)
        return rec_oom(r);
    rec_set_start(r, s, start);
    item->context = rec_value(r, ctx);
    item->vars = rec_bound_target(target);
    s->u.with.items = item;
    s->u.with.n_items = 1;
    s->u.with.body = upy_vec_stmts(&body);
    s->u.with.is_async = is_async;
    merge_with(r, s);
    *next = cont;
    *resume_at = cont != UPY_NO_BLOCK && cont < (int32_t)r->cfg.count
                     ? blk(r, cont)->start + exit_len
                     : r->ncode.count;
    return rec_emit(r, out, s);
}

/* --- try ---------------------------------------------------------------- */

/* Whether handler h is nested inside handler `in` (or is it); *outermost
 * is the outermost real handler between them (one that starts with
 * PUSH_EXC_INFO, not the cleanup block of a handler's own code). */
static int nested_in(const rec *r, int32_t h, int32_t in, int32_t *outermost) {
    int steps = 0;
    *outermost = UPY_NO_BLOCK;
    while (h != in) {
        if (h == UPY_NO_BLOCK || ++steps > 64)
            return 0;
        if (ins(r, blk(r, h)->start)->op == N_PUSH_EXC_INFO)
            *outermost = h;
        h = blk(r, h)->handler;
    }
    return 1;
}

/* Whether loop header b, the first block of a try with handler h, heads a
 * loop around the try (`while True: try: ...`) rather than one inside it:
 * a back edge that h does not protect closes it. */
static int loop_around_try(const rec *r, int32_t b, int32_t h) {
    const upy_block *bb = blk(r, b);
    uint32_t k;
    int32_t outermost;
    if (!bb->is_loop_header)
        return 0;
    for (k = 0; k < bb->npreds; k++) {
        int32_t p = bb->preds[k];
        if (upy_cfg_dominates(&r->cfg, b, p) &&
            !nested_in(r, blk(r, p)->handler, h, &outermost))
            return 1;
    }
    return 0;
}

static int walk(rec *r, int32_t b, const region *rg, upy_ptr_vec *out,
                int32_t *exit);

/* Whether block x goes on to block b as the way out of an except clause:
 * by a jump, or running on from the clause's POP_EXCEPT (3.13 copies a
 * small exit block in place of that jump: flowgraph.c
 * inline_small_or_no_lineno_blocks; `except E: pass` / `try: return m`
 * puts `return m` right after the POP_EXCEPT). */
static int clause_goes_on_to(const rec *r, int32_t x, int32_t b) {
    const upy_block *xb = blk(r, x);
    upy_nop last = (upy_nop)ins(r, xb->end - 1)->op;
    return (xb->jump == b && last == N_JUMP) ||
           (xb->next == b && last == N_POP_EXCEPT);
}

/* Whether block b is code that only the handlers of tries in blocks
 * [from, to) reach, laid out after them (3.12+ moves code that only
 * handlers reach there): each way into it is the way out of an except
 * clause under such a handler, past `to`.  (Not rec_is_cold: see there
 * why.) */
static int only_handlers_reach(const rec *r, int32_t b, int32_t from,
                               int32_t to) {
    const upy_block *bb = blk(r, b);
    uint32_t k;
    /* (The way out of an enclosing except clause, its POP_EXCEPT, is
     * that clause's.) */
    if (!r->ncode.layout->cold_handlers || bb->is_handler || !bb->npreds ||
        ins(r, bb->start)->op == N_POP_EXCEPT)
        return 0;
    for (k = 0; k < bb->npreds; k++) {
        int32_t x = bb->preds[k];
        int steps = 0;
        if (x < to || !clause_goes_on_to(r, x, b))
            return 0;
        while (x != UPY_NO_BLOCK && steps++ < 64 &&
               !(blk(r, x)->is_handler && protects_in(r, x, from, to)))
            x = blk(r, x)->idom;
        if (x == UPY_NO_BLOCK || steps >= 64 || x > b)
            return 0;
    }
    return 1;
}

/* Where the handlers of a try in region rg go on past its end, to code
 * only they reach (see only_handlers_reach): that code is the rest of the
 * region, laid out after the handlers, with a jump back to where the
 * region goes on.  Walks it into out: SUCCESS when block *b is such code
 * (*b gets where it goes on), NOT_THIS when not, ERROR on error. */
static int cold_rest(rec *r, int32_t *b, const region *rg, upy_ptr_vec *out) {
    region crg;
    int32_t h;
    /* (The code may start with a try of its own, under a handler nested
     * in the region's: see cold_end.) */
    if (*b < rg->end || *b >= (int32_t)r->cfg.count || *b == rg->brk ||
        r->done[*b] || !nested_in(r, blk(r, *b)->handler, rg->handler, &h) ||
        !only_handlers_reach(r, *b, rg->start, rg->end))
        return NOT_THIS;
    crg = *rg;
    crg.start = *b;
    crg.end = cold_end(r, *b);
    return rec_region(r, *b, &crg, out, b);
}

int rec_region(rec *r, int32_t b, const region *rg, upy_ptr_vec *out,
               int32_t *exit) {
    int32_t left = UPY_NO_BLOCK;
    int st;
    uint32_t sp = r->sp, len;
    sval *saved;
    if (exit)
        *exit = UPY_NO_BLOCK;
    if (rec_too_deep(r))
        return b == UPY_NO_BLOCK ? 0 : rec_fail_region(r, b, rg, out);
    /* A region that ends in a return, raise, break or continue may first
     * pop what its enclosing statements keep on the stack (the exception
     * an except clause saved, a for loop's iterator); the other ways
     * through go on with the stack as it was. */
    saved = upy_arena_array(r->scratch, sp + 1, sizeof *saved);
    if (!saved)
        return rec_oom(r);
    if (sp)
        memcpy(saved, r->stack, sp * sizeof *saved);
    r->nesting++;
    len = out->len;
    st = walk(r, b, rg, out, &left);
    r->nesting--;
    if (st < 0 && !r->failed && b != UPY_NO_BLOCK) {
        /* The walk met code no structuring rule knows (an instruction
         * rec_eval leaves to the structurer, in a shape none expects):
         * the whole region comes out marked, the rest of the code goes
         * on. */
        out->len = len;
        if (sp)
            memcpy(r->stack, saved, sp * sizeof *saved);
        r->sp = sp;
        return rec_fail_region(r, b, rg, out);
    }
    if (st == 0 && left == UPY_NO_BLOCK && sp && sp <= r->cap) {
        memcpy(r->stack, saved, sp * sizeof *saved);
        r->sp = sp;
    }
    if (exit)
        *exit = left;
    return st;
}

/* The skipped copy of a with's exit at i, which a return leaves through,
 * calls __exit__ with the value kept above it (SWAP 2): the with's slot
 * goes, so that the pops of the iterators of loops around the with that
 * 3.11+ makes next (SWAP 2; POP_TOP) meet their iterators. */
static void drop_left_with(rec *r, uint32_t i, uint32_t *base) {
    uint32_t at;
    if (r->sp < 2 || (!with_exit_at(r, i, 0) && !with_exit_at(r, i, 1)) ||
        ins(r, i)->op != N_SWAP)
        return;
    at = r->sp - 2;
    if (r->stack[at].kind != SV_WITH_EXIT)
        return;
    r->stack[at] = r->stack[at + 1];
    r->sp--;
    if (*base > at)
        (*base)--;
}

/* Where a statement under way goes on from block bb, whose last
 * instruction is i: the next block where i falls through (skipped, or
 * ending no block); where i is a skipped jump, the jump's target -- the
 * jump over an else part in the copy of a finally body that a return
 * leaves through (all of the copy is skipped, so either branch leads to
 * its end). */
static int32_t skipped_way_on(const rec *r, const upy_block *bb, uint32_t i) {
    const upy_nin *x = ins(r, i);
    int32_t b = r->cfg.block_of[i];
    /* (The skipped jump back to the header of a loop in that copy: the
     * loop's exit, the header's, goes on after it.) */
    if (r->skip[i] && x->op == N_JUMP && rec_loops_back_within(r, b, 0))
        return b + 1 < (int32_t)r->cfg.count ? b + 1 : UPY_NO_BLOCK;
    if (r->skip[i] && x->op == N_JUMP)
        return bb->jump;
    if (upy_nin_falls_through(x) && (r->skip[i] || !upy_nin_ends_block(x)))
        return bb->next;
    return UPY_NO_BLOCK;
}

/* A statement that begins in a protected range and ends after it (the
 * RETURN_VALUE of `return f()` in a try or with body is outside the range
 * the exception table covers; `return v` in `except E as name` runs on
 * through two more ranges: SWAP 2 under the clause's cleanup, then
 * POP_EXCEPT, the name cleanup and RETURN_VALUE under none): runs block b,
 * and the blocks it falls into, until the statement is complete.  Returns
 * 1 when the region ended there (a return), 0 when it goes on in b
 * (r->resume_* say where, b is updated), -1 on error. */
static int finish_statement(rec *r, int32_t *b, const region *rg,
                            upy_ptr_vec *out) {
    const upy_block *bb = blk(r, *b);
    uint32_t i = r->resume_block == *b ? r->resume_at : bb->start;
    uint32_t base = rg->base, popped = iterators_popped_before(r, i);
    int blocks = 0;
    int32_t on;
    r->resume_block = UPY_NO_BLOCK;
    base -= popped < base ? popped : base;
    for (; i < bb->end && r->sp > base; i++) {
        int st;
        /* (Skipped code, as the copies of exits the statement leaves
         * through, runs on into the next block too, past the skipped jump
         * of a branch in a copy of a finally body.) */
        if (r->skip[i]) {
            drop_left_with(r, i, &base);
            goto next;
        }
        /* The exception an except clause saved goes; the value kept for
         * the return (SWAP 2) took its slot. */
        if (ins(r, i)->op == N_POP_EXCEPT && base > 0)
            base--;
        /* So does the iterator of a for loop the return leaves (SWAP 2;
         * POP_TOP). */
        if (ins(r, i)->op == N_POP_TOP && base > 0 && r->sp &&
            r->stack[r->sp - 1].kind == SV_ITER)
            base--;
        if (ins(r, i)->op == N_RETURN) {
            r->done[*b] = 1;
            return emit_return(r, rg, i, out) ? ERROR : 1;
        }
        /* (The name cleanup may end its block: under the handler of a
         * try around the clause, the RETURN after it is a block of its
         * own.  A return through clauses in clauses runs the cleanup of
         * each named one after its POP_EXCEPT.) */
        if (rec_is_name_cleanup(r, i, rg->except_name) ||
            (i > 0 && ins(r, i - 1)->op == N_POP_EXCEPT &&
             rec_clears_a_name(r, i))) {
            i += 2;
            goto next;
        }
        st = rec_eval(r, i, out);
        if (st < 0)
            return ERROR;
        if (st == NOT_THIS)
            break;
    next:
        if (i + 1 == bb->end && r->sp > base &&
            (on = skipped_way_on(r, bb, i)) != UPY_NO_BLOCK && !r->done[on] &&
            ++blocks < 4) {
            r->done[*b] = 1;
            *b = on;
            bb = blk(r, *b);
            i = bb->start - 1;
        }
    }
    r->resume_block = *b;
    r->resume_at = i;
    return 0;
}

static int is_break_copy(const rec *r, const upy_block *bb, uint32_t ret,
                         const region *rg);

static uint32_t break_copy_start(const rec *r, const upy_block *bb,
                                 uint32_t ret, const region *rg);

/* Takes off the end of out the statements of the copy of a for loop's
 * exit that ends at the return at ret (is_break_copy): the exit may be
 * more than its return, all of it copied in place of the break
 * (flowgraph.c inline_small_exit_blocks), and the statements before the
 * return ran as the loop's own.  So `for x in xs: f(x); break` then
 * `lh = 3; return lh`: POP_TOP (the iterator), `lh = 3`, `return lh`
 * read as `lh = 3; break` in the loop. */
static void drop_copied_statements(const rec *r, const upy_block *bb,
                                   uint32_t ret, const region *rg,
                                   upy_ptr_vec *out) {
    uint32_t p = break_copy_start(r, bb, ret, rg);
    while (p <= ret && out->len &&
           ((const upy_stmt *)out->items[out->len - 1])->start >= p - 1)
        out->len--;
}

/* The region ends where control goes to block b, outside it: finishes a
 * statement still under way there first; *exit is where control left. */
static int leave(rec *r, int32_t b, const region *rg, upy_ptr_vec *out,
                 int32_t *exit) {
    if (b < 0 || b >= (int32_t)r->cfg.count) {
        *exit = UPY_NO_BLOCK;
        return SUCCESS;
    }
    if (inside(rg, b) && is_exit_copy(r, b) &&
        ins(r, blk(r, b)->end - 1)->op == N_RETURN) {
        /* A copy of the function's exit inside the region (outside the
         * protected range of the try or with that the region is the body
         * of): the region ends with that return. */
        const upy_block *bb = blk(r, b);
        uint32_t start = r->resume_block == b ? r->resume_at : bb->start;
        int stop;
        if (r->sp <= rg->base)
            r->stmt_start = start;
        stop = rec_run(r, start, bb->end - 1, rg, out);
        r->resume_block = UPY_NO_BLOCK;
        if (stop < 0)
            return ERROR;
        r->done[b] = 1;
        *exit = UPY_NO_BLOCK;
        /* (Or the loop's exit, copied in place of a break.) */
        if (is_break_copy(r, bb, bb->end - 1, rg)) {
            rec_pop(r);
            drop_copied_statements(r, bb, bb->end - 1, rg, out);
            return emit_simple(r, out, UPY_S_BREAK);
        }
        return emit_return(r, rg, bb->end - 1, out);
    }
    if (r->sp > rg->base && !r->done[b]) {
        int st = finish_statement(r, &b, rg, out);
        if (st < 0)
            return ERROR;
        if (st > 0) {
            *exit = UPY_NO_BLOCK;
            return SUCCESS;
        }
    }
    *exit = b;
    return SUCCESS;
}

/* Whether the two top slots are a comparison and the middle operand a
 * chained comparison keeps for its next link. */
static int chain_pending(const rec *r) {
    const upy_expr *cmp;
    if (r->sp < 2)
        return 0;
    cmp = r->stack[r->sp - 1].expr;
    return cmp && cmp->kind == UPY_E_COMPARE &&
           r->stack[r->sp - 2].kind == SV_VALUE &&
           r->stack[r->sp - 2].expr ==
               cmp->u.compare.comparators[cmp->u.compare.n - 1];
}

/* Whether the n instructions from a, a copy of those from b, kept their
 * lines: the compiler copies an exit block with its locations, while a
 * statement written in the loop has lines of its own, before the exit's.
 * The POP_EXCEPTs that start it end the handlers around at no location
 * (compile.c compiler_try_except); each copy takes the line of the code
 * before it (flowgraph.c propagate_line_numbers), so they tell nothing. */
static int copied_lines(const rec *r, uint32_t a, uint32_t b, uint32_t n) {
    while (n > 1 && ins(r, a)->op == N_POP_EXCEPT) {
        a++;
        b++;
        n--;
    }
    return ins(r, b)->line >= 0 && rec_same_lines(r, a, b, n);
}

/* Where the copy of a loop's exit that a return ending at ret would be
 * starts: after the POP_TOP of a for loop's iterator, up to
 * MAX_EXIT_COPY neutral instructions back; ret + 1 when there is none. */
static uint32_t exit_copy_start(const rec *r, const upy_block *bb,
                                uint32_t ret) {
    uint32_t p;
    for (p = ret; p > bb->start && ret - p < MAX_EXIT_COPY; p--)
        if (ins(r, p - 1)->op == N_POP_TOP)
            return p;
    /* (Or it ends the block that runs into bb, the copy of the end of an
     * except clause around the loop: the POP_TOP is under the clause's
     * handler, its POP_EXCEPT starts bb.) */
    if (p == bb->start && ret - p < MAX_EXIT_COPY && p > 0 &&
        ins(r, p)->op == N_POP_EXCEPT && ins(r, p - 1)->op == N_POP_TOP &&
        blk(r, r->cfg.block_of[p - 1])->next == r->cfg.block_of[p])
        return p;
    return ret + 1;
}

/* Whether [p, ret] is `return c`, c a constant: the code of a written
 * `return c` in a for loop too (the iterator goes before a constant is
 * loaded, after any other value). */
static int is_const_return(const rec *r, uint32_t p, uint32_t ret) {
    return ret - p == 1 && ins(r, p)->op == N_LOAD_CONST;
}

/* Where the copy of the exit of the for loop of region rg that a break
 * ending at the return at ret would be starts: after the POP_TOP of the
 * iterator, where the code from there to ret is the exit's; else
 * exit_copy_start's nearest POP_TOP.  The copy may hold POP_TOPs of its
 * own: `for x in g(): break` / `after()` copies `after(); return None`
 * (3.12 flowgraph.c inline_small_exit_blocks): POP_TOP (the iterator),
 * CALL, POP_TOP (its value), RETURN_CONST; the nearest POP_TOP would read
 * `after()` as the loop's and the break as `return`, run before the
 * iterator goes. */
static uint32_t break_copy_start(const rec *r, const upy_block *bb,
                                 uint32_t ret, const region *rg) {
    uint32_t p, exit;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count ||
        !in_for_loop(r, rg))
        return exit_copy_start(r, bb, ret);
    exit = blk(r, rg->brk)->start;
    p = ret - bb->start < MAX_EXIT_COPY ? bb->start + 1
                                        : ret + 1 - MAX_EXIT_COPY;
    for (; p < ret; p++)
        if (ins(r, p - 1)->op == N_POP_TOP &&
            exit + (ret - p) < r->ncode.count &&
            ins(r, exit + (ret - p))->op == N_RETURN &&
            rec_same_code(r, p, exit, ret - p + 1))
            return p;
    return exit_copy_start(r, bb, ret);
}

/* Whether the return at instruction ret of block bb is a `break` whose
 * target, a small block that returns, the compiler copied in place of the
 * jump (where it copies written exits): POP_TOP of the loop's iterator,
 * then the same code as the loop's exit.  A constant's `return` in the loop
 * is that same code, and stays a return; another value's is not (it is
 * loaded before the iterator goes).  In a while loop (no iterator) the
 * copy is a statement of its own with the same code as the exit and its
 * lines. */
static int is_break_copy(const rec *r, const upy_block *bb, uint32_t ret,
                         const region *rg) {
    uint32_t p, exit, n;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count ||
        !r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps)
        return 0;
    exit = blk(r, rg->brk)->start;
    p = break_copy_start(r, bb, ret, rg);
    if (p <= ret && in_for_loop(r, rg))
        return !is_const_return(r, p, ret) &&
               exit + (ret - p) < r->ncode.count &&
               ins(r, exit + (ret - p))->op == N_RETURN &&
               rec_same_code(r, p, exit, ret - p + 1);
    for (n = 1; n <= MAX_EXIT_COPY && exit + n <= r->ncode.count; n++)
        if (ins(r, exit + n - 1)->op == N_RETURN)
            break;
    if (n > MAX_EXIT_COPY || exit + n > r->ncode.count ||
        ret + 1 < bb->start + n)
        return 0;
    p = ret + 1 - n;
    return p == r->stmt_start && p != exit && rec_same_code(r, p, exit, n) &&
           copied_lines(r, p, exit, n);
}

/* Whether instruction i is a `break` of the innermost loop of region rg
 * in a finally body whose exit ends that body: the compiler copied the
 * small exit block (the RERAISE, after the POP_TOP of a for loop's
 * iterator) in place of the jump; it is a statement of its own. */
static int is_finally_break(const rec *r, const region *rg, uint32_t i) {
    uint32_t exit;
    if (!rec_ends_finally_early(r, i, rg->finally_end) ||
        rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count ||
        (i != r->stmt_start && !(in_for_loop(r, rg) && i == r->stmt_start + 1 &&
                                 ins(r, r->stmt_start)->op == N_POP_TOP)))
        return 0;
    exit = blk(r, rg->brk)->start;
    return rg->brk_ends_finally || exit == rg->finally_end ||
           rec_ends_finally_early(r, exit, rg->finally_end);
}

/* The most instructions looked at from a loop's exit for the return its
 * breaks lead to. */
enum { MAX_TAIL_SCAN = 256 };

/* Whether the jumps among instructions [from, to] all land there: that
 * code runs on to its end (or raises), as an else part made of loops and
 * ifs does.  A jump past `to` may land on a jump back into [from, to]: the
 * back edge of a loop there, laid out after the return its exit copied (a
 * while loop's break, the copy of that return). */
static int jumps_within(const rec *r, uint32_t from, uint32_t to) {
    uint32_t i;
    for (i = from; i <= to; i++) {
        int32_t t = ins(r, i)->target, back;
        if (t < 0 || ((uint32_t)t >= from && (uint32_t)t <= to))
            continue;
        if ((uint32_t)t <= to || (uint32_t)t >= r->ncode.count ||
            ins(r, t)->op != N_JUMP)
            return 0;
        back = ins(r, t)->target;
        if (back < (int32_t)from || back > (int32_t)to)
            return 0;
    }
    return 1;
}

/* The RETURN of the n instructions right after the return at instruction
 * q, the end of a loop's else part that jumps nowhere past it: a block of
 * its own ending in that RETURN, where the code after the loop goes on
 * (the else part ends in a return of its own, so its breaks' target, the
 * return after it, is laid out next); 0 when there is none. */
static uint32_t return_after(const rec *r, uint32_t q, uint32_t n) {
    uint32_t after = q + 1, k;
    if (after + n > r->ncode.count ||
        blk(r, r->cfg.block_of[after])->start != after ||
        ins(r, after + n - 1)->op != N_RETURN)
        return 0;
    for (k = after; k < after + n - 1; k++)
        if (ins(r, k)->target >= 0 || ins(r, k)->op == N_RETURN)
            return 0;
    return after + n - 1;
}

/* Whether the return at instruction ret of block bb, in a for loop of
 * 3.12+ code, is a break whose target the compiler copied, where that
 * target is the return after the code the loop's exit runs first (its
 * else part, which jumps nowhere past that return): POP_TOP of the iterator,
 * then the same code as that return, with its lines.  (A `return name` written
 * in the loop is that same code where the compiler drops the SWAP that keeps
 * the value under the iterator, on lines of its own.)  *tail: the first
 * instruction of that return. */
static int is_break_to_tail(const rec *r, const upy_block *bb, uint32_t ret,
                            const region *rg, uint32_t *tail) {
    uint32_t p, q, exit, n;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count ||
        rg->loop == UPY_NO_BLOCK || !r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps ||
        ins(r, blk(r, rg->loop)->end - 1)->op != N_FOR_ITER)
        return 0;
    p = exit_copy_start(r, bb, ret);
    if (p > ret || is_const_return(r, p, ret))
        return 0;
    n = ret - p + 1;
    exit = blk(r, rg->brk)->start;
    for (q = exit; q < r->ncode.count && q - exit < MAX_TAIL_SCAN; q++)
        if (ins(r, q)->op == N_RETURN)
            break;
    if (q >= r->ncode.count || ins(r, q)->op != N_RETURN || q + 1 < exit + n ||
        !jumps_within(r, exit, q))
        return 0;
    *tail = q + 1 - n;
    if (*tail > exit && rec_same_code(r, p, *tail, n) &&
        copied_lines(r, p, *tail, n))
        return 1;
    q = return_after(r, q, n);
    *tail = q + 1 - n;
    return q && rec_same_code(r, p, *tail, n) && copied_lines(r, p, *tail, n);
}

/* Whether constant c entered co_consts after a constant that the code
 * (from, to] loads first, none before: the compiler met c later in the
 * source than that code. */
static int const_entered_after(const rec *r, const upy_object *c, uint32_t from,
                               uint32_t to) {
    int32_t kc = rec_entry_index(r, 1, c), k;
    uint32_t i, j;
    for (i = from + 1; i <= to && i < r->ncode.count; i++) {
        k = rec_table_entry(r, i, 1);
        if (k < 0 || k >= kc)
            continue;
        for (j = 0; j <= from; j++)
            if (rec_table_entry(r, j, 1) == k)
                break;
        if (j > from)
            return 1;
    }
    return 0;
}

/* Whether the `return c` (c a constant) at instruction ret of block bb, in
 * a loop, is a break whose target, the loop's exit or the return
 * after the straight code that exit runs first (its else part), the
 * compiler copied in place of the jump: in a for loop POP_TOP of the
 * iterator, then the same code; in a while loop that code alone, a
 * statement of its own.  A written `return c` is that same code on lines
 * of its own (the copy of an implicit `return None` takes the break's), so the
 * order of co_consts tells: written there, c would have entered before
 * the constants the code after it brings.  (3.11 copies only the implicit
 * return, which is what a break reads as there: a written return keeps
 * its jumps.)  *tail: the first instruction of that return, the exit's
 * own when the loop has no else part. */
static int is_const_break(const rec *r, const upy_block *bb, uint32_t ret,
                          const region *rg, uint32_t *tail) {
    uint32_t p, q, exit;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count ||
        !r->ncode.layout->copies_exits || rg->loop == UPY_NO_BLOCK)
        return 0;
    /* (A module's or class body's copy in a while loop is read by
     * emit_return, with what 3.13 stores before it.) */
    p = in_for_loop(r, rg) ? exit_copy_start(r, bb, ret) : ret - 1;
    if (p > ret || !is_const_return(r, p, ret) ||
        (!in_for_loop(r, rg) &&
         (p != r->stmt_start || r->is_module || r->is_class_body)))
        return 0;
    exit = blk(r, rg->brk)->start;
    for (q = exit; q < r->ncode.count && q - exit < MAX_TAIL_SCAN; q++) {
        if (ins(r, q)->op == N_RETURN)
            break;
        if (ins(r, q)->target >= 0)
            return 0;
    }
    if (q >= r->ncode.count || ins(r, q)->op != N_RETURN || q < exit + 1)
        return 0;
    *tail = q - 1;
    if (!rec_same_code(r, p, *tail, 2)) {
        q = return_after(r, q, 2);
        *tail = q - 1;
        if (!q || !rec_same_code(r, p, *tail, 2))
            return 0;
    }
    return const_entered_after(r, ins(r, p)->obj, ret, q);
}

/* Whether instructions [from, to] hold lines, all before `line`. */
static int lines_before(const rec *r, uint32_t from, uint32_t to,
                        int32_t line) {
    uint32_t i;
    int any = 0;
    for (i = from; i <= to; i++) {
        if (ins(r, i)->line >= line)
            return 0;
        any |= ins(r, i)->line >= 0;
    }
    return any;
}

/* Whether the return at instruction ret of block bb, in a for loop, is a
 * break whose target, the return after the loop's else part, the
 * compiler moved in place of the jump: the else part raises, so only the
 * break reaches that return (flowgraph.c inline_small_exit_blocks copies
 * it there, remove_unreachable drops the block).  POP_TOP of the
 * iterator, then the value, on lines after all the loop's and all its
 * else part's (a return written in the loop comes before its else part);
 * the else part runs straight to its raise. */
static int is_moved_return(const rec *r, const upy_block *bb, uint32_t ret,
                           const region *rg) {
    uint32_t p, q, exit, i, loop_end;
    int32_t line;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count ||
        !r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps || !in_for_loop(r, rg))
        return 0;
    p = exit_copy_start(r, bb, ret);
    if (p >= ret || is_const_return(r, p, ret))
        return 0;
    line = ins(r, p)->line;
    exit = blk(r, rg->brk)->start;
    for (q = exit; q < r->ncode.count && q - exit < MAX_TAIL_SCAN; q++)
        if (ins(r, q)->op == N_RETURN || ins(r, q)->op == N_RAISE)
            break;
    if (line < 0 || q >= r->ncode.count || ins(r, q)->op != N_RAISE ||
        !jumps_within(r, exit, q) || !lines_before(r, exit, q, line))
        return 0;
    /* (Other breaks' copies in the loop are on that line too.) */
    loop_end = blk(r, loop_last(r, rg->loop))->end;
    for (i = blk(r, rg->loop)->start; i < loop_end; i++)
        if ((i + 1 < p || i > ret) && ins(r, i)->line > line)
            return 0;
    return 1;
}

/* Whether the names and constants of the instructions [p, ret] entered
 * co_names / co_consts after those first used in the loop at `header` after
 * them: the compiler met that code later in the source, after the loop. */
static int entered_after_loop(const rec *r, uint32_t p, uint32_t ret,
                              int32_t header) {
    uint32_t i, loop_end = blk(r, loop_last(r, header))->end;
    int table, later = 0;
    for (table = 0; table < 2; table++) {
        size_t n = upy_seq_len(table ? r->code->consts : r->code->names), e;
        uint8_t *where = upy_arena_array(r->arena, n + 1, 1);
        int32_t copy_min = -1, loop_max = -1;
        if (!where)
            return 0;
        memset(where, 0, n + 1);
        for (i = 0; i < r->ncode.count; i++) {
            int32_t k = rec_table_entry(r, i, table);
            if (k >= 0)
                where[k] |= i >= p && i <= ret        ? 1
                            : i > ret && i < loop_end ? 2
                                                      : 4;
        }
        for (e = 0; e < n; e++) {
            if (where[e] == 1 && copy_min < 0)
                copy_min = (int32_t)e;
            if (where[e] == 2)
                loop_max = (int32_t)e;
        }
        if (copy_min >= 0 && loop_max >= 0) {
            if (copy_min < loop_max)
                return 0;
            later = 1;
        }
    }
    return later;
}

static int copies_moved_exit(const rec *r, const region *rg, int32_t b,
                             uint32_t at);

/* Whether the return at instruction ret, the statement from r->stmt_start
 * in block bb, is the code after a `while True:` that has none after it
 * (region.brk_moved), moved in place of a break: on lines after all the
 * loop's, and the break's own line left as a NOP before it or its names
 * and constants entered after the loop's.  The code after the loop is
 * one: where another code was read as it (rg->moved_exit), this must be a
 * copy of that (copies_moved_exit), else it is a statement of the loop.
 * 3.10+, `try:` / `while True:` / `if a(): return True` / `if b(): ...` /
 * `else: return False` / `finally: f()`: each return is the copy of f()
 * on lines after the loop's, then its constant; both read as the code
 * after the loop, the second overwrote the first, and `return True`
 * printed `break` to `return False` (holdout 11 kazoo
 * Semaphore._inner_acquire, audit44). */
static int is_moved_exit(const rec *r, const upy_block *bb, uint32_t ret,
                         const region *rg) {
    uint32_t p = r->stmt_start, i, loop_end;
    int32_t line;
    if (!rg->brk_moved || rg->loop == UPY_NO_BLOCK || p < bb->start || p > ret)
        return 0;
    line = ins(r, p)->line;
    loop_end = blk(r, loop_last(r, rg->loop))->end;
    if (line < 0)
        return 0;
    for (i = blk(r, rg->loop)->start; i < loop_end; i++)
        if ((i < p || i > ret) && ins(r, i)->line > line)
            return 0;
    for (i = p; i <= ret; i++)
        if (ins(r, i)->line != line)
            return 0;
    if (rg->moved_exit->block != UPY_NO_BLOCK &&
        rg->moved_exit->block != (int32_t)r->cfg.block_of[bb->start] &&
        !copies_moved_exit(r, rg, (int32_t)r->cfg.block_of[bb->start], p))
        return 0;
    return ins(r, p)->lead_line >= 0 ? ins(r, p)->lead_line < line
                                     : entered_after_loop(r, p, ret, rg->loop);
}

/* Whether the code from instruction start of block b, a statement's
 * first, is the code after a `while True:` that has none after it
 * (region.brk_moved), laid out in place of the break before it: the
 * break's line left as a NOP before it, on lines after all the rest of the
 * loop's, and every way on from it (jumps, handlers) leaving by a return
 * or raise, never back into the loop.  is_moved_exit finds a lone return
 * so; this finds any number of statements, with branches and loops of
 * their own.  (`else: C` in a try in the loop, C leaving, is laid out
 * alike, but has no NOP before it.) */
/* Whether the POP_EXCEPT at instruction i comes right after its clause's
 * header: the exception's POP_TOP or the store to its name, starting a
 * block (after the match test) or right after PUSH_EXC_INFO (a bare
 * except): the clause is a lone break. */
static int break_alone_in_clause(const rec *r, uint32_t i, const region *rg) {
    const upy_nin *p;
    if (i < 2)
        return 0;
    p = ins(r, i - 1);
    if (rg->except_name
            ? p->op != N_STORE || strcmp(rec_str(p->obj), rg->except_name) != 0
            : p->op != N_POP_TOP)
        return 0;
    return blk(r, r->cfg.block_of[i - 1])->start == i - 1 ||
           ins(r, i - 2)->op == N_PUSH_EXC_INFO;
}

/* Whether the code from instruction `at` to the end of block b is a copy
 * of the code after the loop that an earlier break of it was read as
 * (rg->moved_exit): the compiler copies that small exit block, with its
 * lines, into each break's place (flowgraph.c inline_small_exit_blocks).
 * Example: `while True:` / `try: x = f()` / `except A: break` / `except
 * B: break` / `g(x)` / then `g()` after the loop: each clause ends in its
 * own copy of `g(); return None`; the first is the code after the loop,
 * the second only a break.  (Both a block of their own, ending in the
 * return.) */
static int copies_moved_exit(const rec *r, const region *rg, int32_t b,
                             uint32_t at) {
    const upy_block *mb, *bb = blk(r, b);
    const rec_resume *moved = rg->moved_exit;
    uint32_t n = bb->end - at;
    if (moved->block == UPY_NO_BLOCK || moved->block == b)
        return 0;
    mb = blk(r, moved->block);
    return mb->end - moved->at == n && ins(r, bb->end - 1)->op == N_RETURN &&
           ins(r, mb->end - 1)->op == N_RETURN &&
           rec_same_code(r, at, moved->at, n) &&
           copied_lines(r, at, moved->at, n);
}

static int moved_exit_from(rec *r, int32_t b, uint32_t *at, const region *rg) {
    uint32_t start = *at;
    const upy_nin *first;
    int32_t brk_line;
    /* (Crafted code may leave nothing of the block to resume at.) */
    if (start >= blk(r, b)->end)
        return 0;
    first = ins(r, start);
    brk_line = first->lead_line;
    /* (A break in an except clause leaves it by its POP_EXCEPT and name
     * cleanup, on the break's line, before the code moved in its
     * place.) */
    if (first->op == N_POP_EXCEPT && break_alone_in_clause(r, start, rg)) {
        uint32_t skip = rg->except_name ? 4 : 1;
        if (start + skip >= blk(r, b)->end ||
            (rg->except_name &&
             !rec_is_name_cleanup(r, start + 1, rg->except_name)))
            return 0;
        brk_line = first->line;
        start += skip;
    } else if (rg->loop != UPY_NO_BLOCK && start == blk(r, b)->start &&
               blk(r, b)->depth_in != blk(r, rg->loop)->depth_in) {
        /* Code after a `while True:` runs at the depth of its header: one
         * deeper is still in an except clause in the loop, which holds
         * the previous exception (`except E as e:` / `if __debug__:` /
         * `if c: ...` / `raise`: the NOP of the `if __debug__:` line is
         * no break's, imaplib IMAP4._get_tagged_response). */
        return 0;
    }
    /* (The code after the loop is one: see is_moved_exit.) */
    if (!moved_exit_after(r, b, start, brk_line, rg) ||
        (rg->moved_exit->block != UPY_NO_BLOCK && rg->moved_exit->block != b &&
         !copies_moved_exit(r, rg, b, start)))
        return 0;
    *at = start;
    return 1;
}

/* Whether the code from instruction start of block b is the code after a
 * `while True:` moved in place of a break on line brk_line (see
 * moved_exit_from). */
static int moved_exit_after(rec *r, int32_t b, uint32_t start, int32_t brk_line,
                            const region *rg) {
    const upy_nin *first = ins(r, start);
    int32_t *stack, x;
    uint8_t *mine;
    uint32_t sp = 0, i, loop_end;
    if (!rg->brk_moved || rg->loop == UPY_NO_BLOCK || r->sp != rg->base ||
        first->line < 0 || brk_line < 0 || brk_line >= first->line)
        return 0;
    stack = upy_arena_array(r->scratch, r->cfg.count, sizeof *stack);
    mine = upy_arena_array(r->scratch, r->cfg.count, 1);
    if (!stack || !mine)
        return 0;
    memset(mine, 0, r->cfg.count);
    mine[b] = 1;
    stack[sp++] = b;
    while (sp) {
        const upy_block *xb = blk(r, stack[--sp]);
        const upy_nin *l = ins(r, xb->end - 1);
        int32_t succ[2];
        int k, n = 0;
        if (xb->jump != UPY_NO_BLOCK)
            succ[n++] = xb->jump;
        if (xb->next != UPY_NO_BLOCK && upy_nin_falls_through(l))
            succ[n++] = xb->next;
        if (!n && l->op != N_RETURN && l->op != N_RAISE && l->op != N_RERAISE)
            return 0;
        /* (Nor by an exception: a handler in the loop goes on in it.) */
        if (xb->handler != UPY_NO_BLOCK && !mine[xb->handler]) {
            mine[xb->handler] = 1;
            stack[sp++] = xb->handler;
        }
        for (k = 0; k < n; k++) {
            x = succ[k];
            if (x == rg->loop || x == rg->cont)
                return 0;
            if (!mine[x]) {
                mine[x] = 1;
                stack[sp++] = x;
            }
        }
    }
    loop_end = blk(r, loop_last(r, rg->loop))->end;
    for (i = blk(r, rg->loop)->start; i < loop_end; i++) {
        int in_exit = mine[r->cfg.block_of[i]] && i >= start;
        if (ins(r, i)->line >= 0 && (in_exit ? ins(r, i)->line < first->line
                                             : ins(r, i)->line >= first->line))
            return 0;
    }
    return 1;
}

int rec_is_unwinding(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t i, last = bb->end - 1;
    if (bb->end == bb->start)
        return 0;
    /* (The copy of a while loop's test at the end of its body, skipped,
     * jumps back into the loop: no way out.  Unless that loop is skipped
     * too, part of a copy: a loop in a copy of a finally body, whose test
     * 3.12+ turns into a jump back around a continue.) */
    if (ins(r, last)->op == N_POP_JUMP_IF &&
        ins(r, last)->target <= (int32_t)bb->start &&
        !r->skip[ins(r, last)->target])
        return 0;
    if (ins(r, last)->op == N_RETURN && last > bb->start)
        last = iterator_pops_before(r, last, bb->start) - 1;
    for (i = bb->start; i <= last; i++)
        if (!r->skip[i])
            return 0;
    return 1;
}

int rec_loops_back_within(const rec *r, int32_t b, int32_t from) {
    const upy_block *bb = blk(r, b);
    return ins(r, bb->end - 1)->op == N_JUMP && bb->jump >= from &&
           bb->jump <= b;
}

/* Whether block q, of a copy before the return ending block b, goes on
 * into the copy: it falls into the block after it, or, all skipped, jumps
 * forward to a block up to b (the end of the then part of an if / else in
 * the copied finally body, over the else part: `finally: if r: g()` /
 * `else: h()`, 3.8 / 3.9). */
static int goes_on_in_copy(const rec *r, int32_t q, int32_t b) {
    const upy_block *qb = blk(r, q);
    if (qb->next == q + 1)
        return 1;
    return qb->next == UPY_NO_BLOCK && qb->jump > q + 1 && qb->jump <= b &&
           ins(r, qb->end - 1)->op == N_JUMP && rec_is_unwinding(r, q);
}

/* The first block of the copies before the constant's load ending block
 * b, when they all came (skipped) from blocks falling into b, the first of
 * them after the NOP of the return's line: a copy with a branch of its
 * own (a finally body that ends early in an if) is split into blocks.  So
 * are the copies of the exits of a with in the try body before the
 * finally body's, under the try's handler (not skipped yet: the with is
 * structured after the try): `try:` / `with a:` / `return 1` / `finally:
 * g()`.  b when there is none. */
static int32_t split_copy_start(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t i, load = bb->end - 2;
    int32_t p = b;
    /* (3.8 / 3.9 pop the iterators of the for loops the return leaves
     * after the copies, before the load.) */
    while (load > bb->start && ins(r, load - 1)->op == N_POP_TOP &&
           !r->skip[load - 1])
        load--;
    for (i = bb->start; i < load; i++)
        if (!r->skip[i])
            return b;
    while (p > 0 && goes_on_in_copy(r, p - 1, b) &&
           (rec_is_unwinding(r, p - 1) ||
            (is_exit_copy(r, p - 1) & EXIT_LEAVES)) &&
           ins(r, blk(r, p)->start)->lead_line < 0)
        p--;
    return p < b && ins(r, blk(r, p)->start)->lead_line >= 0 ? p : b;
}

/* Whether a test of the code before block p, under the handler of block
 * p - 1, jumps past block b: the copies [p, b] and the return ending b
 * are a branch of that code, not its way on.  (A test of the copy itself,
 * skipped, is none: a finally body `if c: try: ...` splits its copy on
 * the normal way out, and 3.12+ copy the implicit `return None` into
 * both branches; read as the body's, it printed `return` ending the try
 * body, tempfile _TemporaryFileCloser.cleanup.) */
static int branch_skips(const rec *r, int32_t p, int32_t b) {
    int32_t q, h = p > 0 ? blk(r, p - 1)->handler : UPY_NO_BLOCK;
    for (q = p - 1; q >= 0 && blk(r, q)->handler == h; q--)
        if (blk(r, q)->jump > b && !r->skip[blk(r, q)->end - 1] &&
            ins(r, blk(r, q)->end - 1)->op == N_POP_JUMP_IF)
            return 1;
    return 0;
}

/* (A block of the load and the return alone follows a copy that runs
 * under handlers of its own, a try in the finally body (3.10+), whose mark
 * is the NOP of that try's line (3.11+ keep the return's NOP before it, the
 * copy takes the last): the copy on the try body's normal way out has it
 * too, and with the implicit `return None` after it, read as the body's,
 * it printed `return` at the end of the try body (3.12 / 3.13,
 * finally_split_copy.py finally_try_except).  Only a branch of the body
 * leaves through such a block: `try:` / `if c: f()` / `return False` /
 * `except E: g()` / `finally: try: h()` / `except F: pass` read the return
 * as code after the body, and printed `if c: f()` and `else: return False`
 * on the try (gunicorn ThreadWorker.handle_request).) */
int rec_is_copied_return(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t n = bb->end - bb->start;
    int32_t p;
    if (n < 2 || ins(r, bb->end - 1)->op != N_RETURN ||
        ins(r, bb->end - 2)->op != N_LOAD_CONST)
        return 0;
    if (n >= 3 && ins(r, bb->start)->lead_line >= 0)
        return 1;
    p = split_copy_start(r, b);
    return p < b && (n >= 3 || branch_skips(r, p, b));
}

/* Whether block b starts the way out of a `return` in nested withs or
 * try bodies: the copies of their exits and finally bodies (marked
 * skipped), each under the handler of the statement around it and so
 * split into blocks of their own, falling through to the constant's load
 * and the return, or, with value_loaded, to the RETURN of a value loaded
 * before the copies (3.12+ pops the iterators of loops it leaves right
 * before it).  The blocks belong to the body the return is in, whatever
 * handler protects them.  (value_loaded: no statement is under way, as
 * when 3.11 popped a loop's iterator under the value before the copies;
 * one under way, a value kept under with exits, is finish_statement's.)
 * A constant's return pops the iterators of the loops it leaves after
 * the copies, before the load (POP_TOP each): a break of an except clause
 * in `for x in a:` / `try: x()` / `except E: if c: break` / `finally:
 * d()` whose jump the compiler threaded into the function's `return None`
 * is POP_EXCEPT, then d(); POP_TOP; RETURN_CONST None out of the handlers.
 * Read as the code after the try, that return ran on the first normal
 * pass of the loop, with no mark (3.12 / 3.13). */
static int unwinds_to_return(const rec *r, int32_t b, int value_loaded) {
    int hops = 0;
    while (b != UPY_NO_BLOCK && b < (int32_t)r->cfg.count && hops++ < 64) {
        const upy_block *bb = blk(r, b);
        uint32_t i = bb->start;
        while (i < bb->end && r->skip[i])
            i++;
        if (i < bb->end) {
            if (i == bb->start && hops == 1)
                return 0;
            while (i + 2 < bb->end && ins(r, i)->op == N_POP_TOP)
                i++;
            return (i + 2 == bb->end && ins(r, i)->op == N_LOAD_CONST &&
                    ins(r, i + 1)->op == N_RETURN) ||
                   (value_loaded && ins(r, bb->end - 1)->op == N_RETURN &&
                    iterator_pops_before(r, bb->end - 1, i) == i);
        }
        /* (A loop in the copies, a finally body's `for`, skipped whole:
         * on where it exits.) */
        if (skipped_loop_exit(r, b) != UPY_NO_BLOCK) {
            b = skipped_loop_exit(r, b);
            continue;
        }
        /* (A test in a copy that returns in a branch: on to the rest of
         * the copy, where the test jumps.) */
        if (leaving_test_way_on(r, b) != UPY_NO_BLOCK) {
            b = leaving_test_way_on(r, b);
            continue;
        }
        /* (The then part of an if / else in the copy, skipped whole: on
         * over the else part, where its jump goes; see goes_on_in_copy.) */
        if (ins(r, bb->end - 1)->op == N_JUMP && bb->jump > b) {
            b = bb->jump;
            continue;
        }
        if (bb->next != b + 1 || !upy_nin_falls_through(ins(r, bb->end - 1)))
            return 0;
        b = bb->next;
    }
    return 0;
}

/* Whether block b holds nothing but the POP_EXCEPT of an except clause
 * around the one the region is in, on the way out of a return in the
 * inner clause (see unwinds_to_return): the handler of the outer clause
 * protects it, so it is a block of its own between the inner clause's
 * POP_EXCEPT and the copies of the exits of a with around both. */
static int pops_to_return(const rec *r, int32_t b, int value_loaded) {
    const upy_block *bb = blk(r, b);
    uint32_t i;
    for (i = bb->start; i < bb->end; i++)
        if (ins(r, i)->op != N_POP_EXCEPT)
            return 0;
    return bb->next == b + 1 && upy_nin_falls_through(ins(r, bb->end - 1)) &&
           unwinds_to_return(r, b + 1, value_loaded);
}

/* What the branches from a statement-level test lead to, when each runs
 * to a return computing nothing but the value it returns (tests on the
 * way included): RT_TREE, with RT_SPLIT when a return is of a constant
 * the compiler did not fuse with it (N_SPLIT_CONST) or of a tuple of
 * constants it did not fold (the AST optimizer folds a written one),
 * RT_FUSED when one is of a constant it did, RT_LINES when two returns are
 * on different lines, and RT_TAIL when two values end in the same
 * instruction (which may be the copied code after the conditional
 * expression: `(f if c else g)(x)`), with RT_TWO_LINES when both lines
 * are known; 0 when a branch does something else. */
enum {
    RT_TREE = 1,
    RT_SPLIT = 2,
    RT_FUSED = 4,
    RT_LINES = 8,
    RT_TAIL = 16,
    RT_TWO_LINES = 32,
    RT_MAX_BLOCKS = 64
};

/* The first return returned_tree met: its line, and the instruction
 * before it (UINT32_MAX before the first). */
typedef struct rt_first {
    int32_t line;
    uint32_t before;
} rt_first;

/* Whether the code [from, ret) builds a tuple of constants alone: their
 * loads, then one BUILD_TUPLE of them all. */
static int builds_const_tuple(const rec *r, uint32_t from, uint32_t ret) {
    uint32_t i;
    const upy_nin *build = ins(r, ret - 1);
    if (ret < from + 2 || build->op != N_BUILD_TUPLE ||
        build->arg != (int32_t)(ret - 1 - from))
        return 0;
    for (i = from; i + 1 < ret; i++)
        if (ins(r, i)->op != N_LOAD_CONST)
            return 0;
    return 1;
}

/* The RT_ flags of the return at instruction ret whose value the code
 * [from, end) computes (end < ret where the return pops what a loop
 * keeps under its value first). */
static int returned_leaf(const rec *r, uint32_t from, uint32_t end,
                         uint32_t ret, rt_first *first) {
    const upy_nin *in = ins(r, ret);
    int flags = RT_TREE;
    if (first->before == UINT32_MAX) {
        first->line = in->line;
        first->before = end - 1;
    } else if (end > from && rec_same_code(r, end - 1, first->before, 1)) {
        flags |= RT_TAIL;
    }
    if (in->line < 0 || in->line != first->line)
        flags |= RT_LINES;
    if (in->line >= 0 && first->line >= 0 && in->line != first->line)
        flags |= RT_TWO_LINES;
    if ((in->flags & N_SPLIT_CONST) || builds_const_tuple(r, from, end))
        return flags | RT_SPLIT;
    if (end > from && ins(r, end - 1)->op == N_LOAD_CONST)
        return flags | RT_FUSED;
    return flags;
}

static int returned_tree(const rec *r, int32_t b, int32_t from,
                         const region *rg, int32_t base, int *budget,
                         rt_first *first) {
    const upy_block *bb;
    const upy_nin *last;
    int32_t d;
    uint32_t i, end;
    int a, c;
    if (b == UPY_NO_BLOCK || b <= from || !inside(rg, b) || r->done[b] ||
        --*budget < 0)
        return 0;
    bb = blk(r, b);
    if (bb->handler != blk(r, from)->handler || bb->depth_in != base)
        return 0;
    /* No statement in the block: the stack stays above the base.  (A
     * return in a for loop pops the iterator from under its value first,
     * compile.c compiler_unwind_fblock: `SWAP 2; POP_TOP`.) */
    d = bb->depth_in;
    end = bb->end;
    if (end - bb->start > 3 && ins(r, end - 1)->op == N_RETURN &&
        ins(r, end - 2)->op == N_POP_TOP && ins(r, end - 3)->op == N_SWAP &&
        ins(r, end - 3)->arg == 2 && base > 0)
        end -= 2;
    for (i = bb->start; i + 1 < end; i++) {
        d += upy_nin_stack_effect(ins(r, i), 0);
        if (d <= base)
            return 0;
    }
    last = ins(r, bb->end - 1);
    /* A return in a try body leaves the handler's range first (the
     * POP_BLOCK of compiler_unwind_fblock): the value's code runs into a
     * block of the return alone. */
    if (last->op != N_RETURN && last->op != N_POP_JUMP_IF &&
        upy_nin_falls_through(last) && bb->next == b + 1 &&
        rec_is_lone(r, blk(r, bb->next), N_RETURN) &&
        d + upy_nin_stack_effect(last, 0) == base + 1)
        return returned_leaf(r, bb->start, bb->end, bb->end, first);
    if (d != base + 1)
        return 0;
    if (last->op == N_RETURN)
        return returned_leaf(r, bb->start, end - 1, bb->end - 1, first);
    if (last->op != N_POP_JUMP_IF)
        return 0;
    a = returned_tree(r, bb->next, b, rg, base, budget, first);
    c = a ? returned_tree(r, bb->jump, b, rg, base, budget, first) : 0;
    return a && c ? a | c : 0;
}

/* Whether the test ending block b (its value on top of the stack) is that
 * of `return x if test else y`: 3.12+ copies the return into both branches,
 * which then read as `if test: return x` / `return y`, except that a
 * constant's load there is not fused with the return as a written `return
 * 1` is, and that the copies keep the one return's line
 * (inline_small_exit_blocks) where two returns written have two.  (Values
 * that end alike leave open where the expression ends: they stay two
 * returns unless constants tell.) */
static int is_returned_ifexp(const rec *r, int32_t b, const region *rg) {
    const upy_block *bb = blk(r, b);
    int32_t base = (int32_t)r->sp - 1;
    rt_first first = {-1, UINT32_MAX};
    int budget = RT_MAX_BLOCKS, a, c;
    /* (In a try body both ways may raise into the handler: they meet
     * there alone.) */
    if (bb->ipdom != UPY_NO_BLOCK && bb->ipdom != bb->handler)
        return 0;
    a = returned_tree(r, bb->next, b, rg, base, &budget, &first);
    c = a ? returned_tree(r, bb->jump, b, rg, base, &budget, &first) : 0;
    /* (Returns on two known lines are two statements, whatever a constant
     * not fused says: copies of one keep its line.  `if a: return m.nan`
     * then `if b: return m.nan if a == 1 else 0.0`, the 0.0 split, is no
     * conditional expression at `if a`.) */
    if (!a || !c || ((a | c) & (RT_FUSED | RT_TWO_LINES)))
        return 0;
    return (a | c) & RT_SPLIT || !((a | c) & (RT_LINES | RT_TAIL));
}

/* Whether loop header b is the test of a while loop whose continues jump
 * to it: the loop it heads is that while loop (every jump back to b comes
 * from the body of the loop at the header after the test), not a loop
 * around it. */
static int continue_test(const rec *r, int32_t b) {
    int32_t h = rec_while_test_at(r, blk(r, b)->start), last;
    uint32_t k;
    if (h == UPY_NO_BLOCK)
        return 0;
    last = loop_last(r, h);
    for (k = 0; k < blk(r, b)->npreds; k++) {
        int32_t p = blk(r, b)->preds[k];
        /* (A `continue` in an except clause laid out after the function's
         * code jumps back from there.) */
        if (p >= b && (p < h || p > last) && !in_cold_clause(r, p))
            return 0;
    }
    return 1;
}

/* The block holding the loop's jump of a break or continue of rg's loop
 * whose way out starts at block b (UPY_NO_BLOCK where b is none): b alone
 * (breaks_or_continues), or, where the jump leaves except clauses of
 * nested trys, the rest of its way out: the POP_EXCEPT of each clause it
 * leaves, with the cleanup of the clause's name, then, for a break, the
 * POP_TOP of the iterator of the for loop, and the jump.  compile.c
 * compiler_unwind_fblock pops each clause's exception as the jump leaves
 * it; the exception table puts the innermost POP_EXCEPT under the inner
 * try's own handler (the clause's region reads it: its alt_handler) and
 * each other under the handler of the try around its clause, in blocks of
 * their own that the region would leave into as the end of the try.
 * Example (asyncssh load_identities): `for x in y:` / `try: f()` /
 * `except E:` / `try: g()` / `except F:` / `if c: continue` / `raise`
 * printed `if c: pass` and ran the raise.  The block before b ends in the
 * inner clause's own POP_EXCEPT (and name cleanup), which the region read:
 * a try body's way out, [POP_EXCEPT; JUMP] of the clause around, is the
 * end of the inner try.  Where the compiler copies jump blocks (3.13), the
 * clause's own end copies that way out too: `except: pass` at the end of a
 * loop body compiles as `except: continue` would, and the clause region
 * reads it as its end; a statement in the clause (a region with a
 * follow, as an if's then part) that runs into the pops is a jump. */
static int32_t loop_jump_block(const rec *r, int32_t b, const region *rg) {
    loop_pops pops = {0, 0};
    const upy_block *before;
    uint32_t e;
    int32_t h;
    if (breaks_or_continues(r, rg, b))
        return b;
    if (b == 0 || blk(r, b - 1)->next != b ||
        (r->ncode.layout->copies_jump_blocks && rg->follow == UPY_NO_BLOCK))
        return UPY_NO_BLOCK;
    /* The block before b ends in a clause's POP_EXCEPT, or in the cleanup
     * of the clause's name after it. */
    before = blk(r, b - 1);
    e = before->end;
    if (e - before->start >= 4 && rec_clears_a_name(r, e - 3))
        e -= 3;
    if (e <= before->start || ins(r, e - 1)->op != N_POP_EXCEPT)
        return UPY_NO_BLOCK;
    h = loop_way_out(r, b, 0, &pops);
    return pops.clauses ? h : UPY_NO_BLOCK;
}

/* Whether the code from instruction start of block b, in a region that
 * runs past the end of its while loop's body (the loop's blocks after
 * where its test's failing jump goes: see structure_while), is a break:
 * the loop's exit itself, which the body runs into, or a copy of that
 * exit, a small block that returns, in its place (all of b from start on,
 * with the exit's lines). */
static int runs_into_exit(const rec *r, int32_t b, uint32_t start,
                          const region *rg) {
    const upy_block *bb = blk(r, b), *eb;
    uint32_t n;
    if (rg->brk == UPY_NO_BLOCK || rg->loop == UPY_NO_BLOCK ||
        !inside(rg, rg->brk) || in_for_loop(r, rg) ||
        rg->brk > loop_last(r, rg->loop))
        return 0;
    if (b == rg->brk)
        return 1;
    eb = blk(r, rg->brk);
    n = eb->end - eb->start;
    return r->ncode.layout->copies_exits &&
           !r->ncode.layout->written_exits_keep_jumps && n <= MAX_EXIT_COPY &&
           bb->end - start == n && ins(r, eb->end - 1)->op == N_RETURN &&
           rec_same_code(r, start, eb->start, n) &&
           copied_lines(r, start, eb->start, n);
}

/* Whether block b is copies of with exits (is_exit_copy) before the jump
 * of a break or continue, or before the iterator pops of a break that
 * goes on to a return. */
static int leaves_loop_by_copy(const rec *r, int32_t b) {
    int copy = is_exit_copy(r, b);
    const upy_block *nb;
    if (copy & EXIT_JUMPS)
        return 1;
    if (!(copy & EXIT_LEAVES) || blk(r, b)->next >= (int32_t)r->cfg.count)
        return 0;
    nb = blk(r, blk(r, b)->next);
    return ins(r, nb->start)->op == N_POP_TOP &&
           upy_nin_falls_through(ins(r, blk(r, b)->end - 1));
}

/* A break read from a copy of the return that ends at instruction
 * to_return - 1 (0: a plain break), with the value that return computes:
 * rec_breaks_to_tail (tidy.c) finds the loop's else part once the code
 * after the loop is recovered. */
static int emit_break_to_return(rec *r, upy_ptr_vec *out, uint32_t to_return,
                                int moved) {
    upy_stmt *s = rec_stmt(r, UPY_S_BREAK);
    if (!s)
        return ERROR;
    s->u.break_.value = rec_value(r, rec_pop(r));
    s->u.break_.to_return = to_return;
    s->u.break_.moved = (uint8_t)moved;
    return rec_emit(r, out, s);
}

/* Whether every instruction of block b is marked skipped. */
static int all_skipped(const rec *r, int32_t b) {
    uint32_t i;
    for (i = blk(r, b)->start; i < blk(r, b)->end; i++)
        if (!r->skip[i])
            return 0;
    return 1;
}

/* Whether the way on from block b, all skipped code, ends in a return or
 * raise: a branch of a copy of a finally body that leaves (`finally: if
 * c: return 2`), both ways of each skipped test in it. */
static int skipped_code_leaves(const rec *r, int32_t b, int depth) {
    const upy_nin *last;
    if (b == UPY_NO_BLOCK || depth > 8 || !all_skipped(r, b))
        return 0;
    last = ins(r, blk(r, b)->end - 1);
    if (last->op == N_RETURN || last->op == N_RAISE || last->op == N_RERAISE)
        return 1;
    if (last->op == N_POP_JUMP_IF &&
        !skipped_code_leaves(r, blk(r, b)->jump, depth + 1))
        return 0;
    return upy_nin_falls_through(last) &&
           skipped_code_leaves(r, blk(r, b)->next, depth + 1);
}

/* Where the code goes on from block b when it ends in a skipped test
 * whose way on leaves (skipped_code_leaves): a test in the copy of a
 * finally body that returns in a branch, whose code goes on where the
 * test jumps, the rest of the copy.  Else UPY_NO_BLOCK. */
static int32_t leaving_test_way_on(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    if (!r->skip[bb->end - 1] || ins(r, bb->end - 1)->op != N_POP_JUMP_IF ||
        bb->jump <= b || !skipped_code_leaves(r, bb->next, 0))
        return UPY_NO_BLOCK;
    return bb->jump;
}

/* Where the walk goes on from block b, all skipped code that runs on:
 * where its skipped jump forward goes where a kept value waits through it
 * (over the else part of an if / else in a copy of a finally body that a
 * return leaves through), or to the return of a constant after such a
 * copy (3.8 / 3.9: `try: if c: return` / `finally: if r: f()` / `else:
 * g()`; stopped at the jump, the walk lost the return, and read before,
 * the return became the inner try's else part, IPython
 * ExecutionMagics.run), or past a test whose way on leaves
 * (leaving_test_way_on); else the next block. */
static int32_t skipped_block_way_on(const rec *r, int32_t b, const region *rg) {
    const upy_block *bb = blk(r, b);
    if (r->skip[bb->end - 1] && ins(r, bb->end - 1)->op == N_JUMP &&
        bb->jump > b && (r->sp > rg->base || rec_is_copied_return(r, bb->jump)))
        return bb->jump;
    if (leaving_test_way_on(r, b) != UPY_NO_BLOCK)
        return leaving_test_way_on(r, b);
    return bb->next;
}

/* Where the walk goes on past the loop whose header is block b when all
 * of the loop is skipped code, else UPY_NO_BLOCK: a FOR_ITER's loop up to
 * where it exits (the loop of a comprehension inlined into a copy of a
 * while loop's test at the bottom of its body, `while [x for x in y]:`),
 * or a loop up to its last block (a while loop in a copy of a finally
 * body that a return's value waits under).  The walk goes on where the
 * loop exits, the rest of the copy. */
static int32_t skipped_loop_exit(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    int32_t k, exit;
    if (ins(r, bb->end - 1)->op == N_FOR_ITER)
        exit = bb->jump;
    else if (bb->is_loop_header)
        exit = loop_last(r, b) + 1;
    else
        return UPY_NO_BLOCK;
    if (exit <= b || exit >= (int32_t)r->cfg.count)
        return UPY_NO_BLOCK;
    for (k = b; k < exit; k++)
        if (!all_skipped(r, k))
            return UPY_NO_BLOCK;
    return exit;
}

/* Whether block b, under the handler of the clause around the region's
 * clause, goes on with a return of the region's clause under way: its
 * value was kept under the clause's exception (SWAP 2), and the
 * POP_EXCEPT that starts b ends the clause.  Each clause around has its
 * own SWAP 2 and POP_EXCEPT (a return in a clause in a clause in a
 * clause ...), under the handlers of those around it; finish_statement
 * reads them all, rather than the walk reading the first as a statement
 * of the region. */
static int returns_through_clauses(const rec *r, int32_t b, const region *rg) {
    const upy_block *bb = blk(r, b);
    return r->sp + iterators_popped_before(r, bb->start) > rg->base &&
           rg->except_name == NULL && bb->handler == rg->alt_handler &&
           bb->handler != rg->handler && bb->start > 0 &&
           ins(r, bb->start)->op == N_POP_EXCEPT &&
           ins(r, bb->start - 1)->op == N_SWAP &&
           ins(r, bb->start - 1)->arg == 2 && r->resume_block != b;
}

/* How many iterators of for loops in an except clause a return leaving
 * them popped before the POP_EXCEPT at instruction p, each a SWAP 2;
 * POP_TOP under the value, before the SWAP 2 that puts the value under the
 * exception: the walk's base still counts them.  (`except E:` / `for x in
 * y: return x` in a try body: LOAD x; SWAP 2; POP_TOP; SWAP 2;
 * POP_EXCEPT; the copy of the finally body; RETURN_VALUE.  The return was
 * lost, unmarked.) */
static uint32_t iterators_popped_before(const rec *r, uint32_t p) {
    if (p < 1 || p >= r->ncode.count || ins(r, p)->op != N_POP_EXCEPT ||
        ins(r, p - 1)->op != N_SWAP || ins(r, p - 1)->arg != 2)
        return 0;
    return (p - 1 - iterator_pops_before(r, p - 1, 0)) / 2;
}

/* Whether the walk, leaving region rg for block b, goes where the breaks
 * of rg's loop go by a break that has no jump of its own:
 *   - in a for loop, having popped the loop's iterator (the last
 *     instruction before b, falling through): the compiler left the jump
 *     out, the code after the loop coming next (3.11);
 *   - in a while loop, after a loop statement ending rg: that loop's
 *     breaks leave the loop around too, which is a break of each.  3.12+
 *     lays the code after a `while True:` in place of the `else: break`
 *     of a try in it, so in `while True:` / `try: a = f()` / `except E:
 *     pass` / `else: break` + a second such loop + `while True:` / `try:
 *     g()` / `except S: break` + `return a` the second and third loops
 *     read as the first's else part; the third's breaks jump to that
 *     return: a break after the third loop and one after the second, or
 *     both would run off back into the loops around them. */
static int leaves_as_break(const rec *r, int32_t b, const region *rg,
                           const upy_ptr_vec *out) {
    const upy_stmt *last =
        out->len ? (const upy_stmt *)out->items[out->len - 1] : NULL;
    const upy_block *pb;
    int32_t i;
    if (in_for_loop(r, rg)) {
        if (b == UPY_NO_BLOCK || b != rg->brk || b == 0 ||
            b >= (int32_t)r->cfg.count || r->sp >= rg->base)
            return 0;
        pb = blk(r, b - 1);
        return pb->next == b && inside(rg, b - 1) &&
               ins(r, pb->end - 1)->op == N_POP_TOP;
    }
    if (!last || (last->kind != UPY_S_WHILE && last->kind != UPY_S_FOR) ||
        rg->loop == UPY_NO_BLOCK || !is_break(rg, b))
        return 0;
    /* (A jump there that is no loop's test failing: a break.  The walk
     * goes on at the exit of a loop that ends the region all the same; in
     * a for loop that is where its iterator runs out, 3.12's END_FOR,
     * which its breaks jump past.) */
    for (i = 0; i < (int32_t)r->cfg.count; i++)
        if (blk(r, i)->jump == b && i != rg->loop &&
            ins(r, blk(r, i)->end - 1)->op == N_JUMP)
            return 1;
    return 0;
}

/* Whether dead block d, after block b that ends in a raise under no
 * handler, starts a try (nested_in): one the source wrote there, which
 * normalize/blocks.c walked with the block stack of the code before it
 * (walk_dead_tries).  (Read in a loop body, after a continue, or in an
 * except clause, such a try is dropped, as 3.10+ drop it.) */
static int starts_dead_try(const rec *r, int32_t b, int32_t d) {
    int32_t try_handler;
    return blk(r, b)->handler == UPY_NO_BLOCK &&
           ins(r, blk(r, b)->end - 1)->op == N_RAISE &&
           nested_in(r, blk(r, d)->handler, UPY_NO_BLOCK, &try_handler) &&
           try_handler != UPY_NO_BLOCK;
}

/* The block after b, whose code ends in a raise, break or continue,
 * where code the source wrote after that statement starts, which nothing
 * reaches: 3.8-3.9 keep it (peephole.c drops unreachable code after a
 * RETURN_VALUE only, upy_layout.keeps_jump_after_exit), so the output
 * prints it for the code to compile the same.  It starts a statement on
 * a line of its own, after that of the statement b ends in: the code the
 * compiler adds after a statement has the statement's line (the way out
 * of a with or a try around a break, POP_BLOCK; BEGIN_FINALLY ...).  Not
 * a lone jump (the jump over an else part, a loop body's jump back), nor
 * the implicit return at the end of the code, nor code under another
 * handler (what a try leaves after its clauses); else UPY_NO_BLOCK. */
static int32_t written_dead_code(const rec *r, int32_t b, const region *rg) {
    int32_t d = b + 1;
    const upy_block *db;
    if (!r->ncode.layout->keeps_jump_after_exit || !inside(rg, d) ||
        d == rg->follow || d >= (int32_t)r->cfg.count || r->done[d])
        return UPY_NO_BLOCK;
    db = blk(r, d);
    if (db->handler != blk(r, b)->handler && !starts_dead_try(r, b, d))
        return UPY_NO_BLOCK;
    if (db->rpo != UINT32_MAX ||
        ins(r, db->start)->line <= ins(r, blk(r, b)->end - 1)->line ||
        db->is_handler || rec_is_lone(r, db, N_JUMP) ||
        (db->end - db->start == 2 && ins(r, db->start)->op == N_LOAD_CONST &&
         ins(r, db->start + 1)->op == N_RETURN))
        return UPY_NO_BLOCK;
    return d;
}

/* The walk of rec_region(). */
static int walk(rec *r, int32_t b, const region *rg, upy_ptr_vec *out,
                int32_t *exit) {
    /* Each step structures at least one new block, so more steps than
     * blocks means the structure went round in circles. */
    uint32_t steps = 0, max_steps = 2 * r->cfg.count + 8;
    int32_t next;
    *exit = UPY_NO_BLOCK;
    while (b != UPY_NO_BLOCK && b != rg->follow) {
        if (++steps > max_steps)
            return rec_fail_region(r, b, rg, out);
        const upy_block *bb;
        const upy_nin *last;
        uint32_t start, tail;
        int stop, st;

        if (r->failed)
            return ERROR;
        if ((!inside(rg, b) && b != rg->loop) || b >= (int32_t)r->cfg.count) {
            st = cold_rest(r, &b, rg, out);
            if (st < 0)
                return ERROR;
            if (st == SUCCESS)
                continue;
            if (leaves_as_break(r, b, rg, out))
                return emit_simple(r, out, UPY_S_BREAK);
            return leave(r, b, rg, out, exit);
        }
        if (returns_through_clauses(r, b, rg)) {
            st = finish_statement(r, &b, rg, out);
            if (st < 0)
                return ERROR;
            if (st > 0) {
                *exit = UPY_NO_BLOCK;
                return SUCCESS;
            }
        }
        bb = blk(r, b);
        if (bb->handler != rg->handler && bb->handler != rg->alt_handler &&
            !(rec_is_copied_return(r, b) && r->skip[bb->start]) &&
            !unwinds_to_return(r, b, r->sp == rg->base) &&
            !pops_to_return(r, b, r->sp == rg->base) &&
            !pops_iterator_to_exit_copy(r, rg, b) &&
            !is_return_in_body(r, b, rg->handler) &&
            !(rg->unwind_from > 0 && b >= rg->unwind_from &&
              b < rg->unwind_end)) {
            int32_t h;
            if (!nested_in(r, bb->handler, rg->handler, &h)) {
                /* The copies of the with exits a break or continue
                 * leaves a with through, under the handler of a try
                 * around the with (`try:` / `with a:` / `if c:
                 * continue`), skipped: on to the jump, or to the return
                 * copied in place of a break, after the pops of the
                 * iterators of the loops it leaves. */
                if (inside(rg, b) && !r->done[b] && all_skipped(r, b) &&
                    bb->next != UPY_NO_BLOCK && leaves_loop_by_copy(r, b)) {
                    r->done[b] = 1;
                    b = bb->next;
                    continue;
                }
                /* The jump of a break or continue, split from the code
                 * before it where the protected range ends (after the
                 * copies of the with exits it leaves through; a for
                 * loop's break pops the iterator first; one that leaves
                 * except clauses pops each). */
                if (inside(rg, b) && !r->done[b] &&
                    (h = loop_jump_block(r, b, rg)) != UPY_NO_BLOCK) {
                    st = loop_jump(r, blk(r, h)->jump, rg, out);
                    if (st) {
                        for (; b <= h; b++)
                            r->done[b] = 1;
                        return st < 0 ? ERROR : SUCCESS;
                    }
                }
                /* Or the copy of the loop's exit in place of a break's
                 * jump (exit_copy_break), where the test of an if ending
                 * the try body goes when true: `while i < n:` / `try: if
                 * x > 0: break` / `except E: pass` + `return x[0]` (3.12)
                 * was `if x > 0: pass`, the break lost. */
                if (inside(rg, b) && !r->done[b] &&
                    exit_copy_break(r, rg, b) != UPY_NO_BLOCK) {
                    r->done[b] = 1;
                    return emit_simple(r, out, UPY_S_BREAK);
                }
                return leave(r, b, rg, out, exit);
            }
            if (h != UPY_NO_BLOCK &&
                (b == rg->loop || !loop_around_try(r, b, h))) {
                next = UPY_NO_BLOCK;
                st = rec_try(r, b, h, rg, &next, out);
                b = next;
                if (st < 0)
                    return ERROR;
                continue;
            }
        }
        if (r->done[b]) {
            /* (A lone jump, after copies of exits: see loop_way_out.) */
            int lone_jump = loop_way_out(r, b, 1, NULL) == b;
            *exit = UPY_NO_BLOCK;
            if (loop_jump(r, b, rg, out))
                return SUCCESS;
            /* The lone jump ending the region, which the statement around
             * took as its own way out (a then part's jump over the else
             * part): a test in the region that jumps there was read
             * through it, so the region ran on to it.  It holds no code,
             * and the statement around placed its jump. */
            if (b + 1 == rg->end && lone_jump)
                return SUCCESS;
            /* So is such a jump straight to where the region goes on (an
             * else part that starts at the jump over the handlers of its
             * try, which the body's last if statement took as its way
             * out): the else part is empty. */
            if (lone_jump && bb->jump == rg->follow &&
                rg->follow != UPY_NO_BLOCK) {
                *exit = rg->follow;
                return SUCCESS;
            }
            /* And a lone forward jump where the code after a try goes on,
             * over the try's handlers, that the body's last if statement
             * took as its way out (its test jumps there): it holds no
             * code, the code after the try is where it jumps. */
            if (lone_jump && bb->jump > b && inside(rg, bb->jump) &&
                !r->done[bb->jump]) {
                b = bb->jump;
                continue;
            }
            /* A block whose code is all skipped (the copy of a while
             * loop's test at the bottom of its body, where the handlers of
             * a try ending the body go on) holds no statement: the walk
             * goes on through it, as it did the first time. */
            if (all_skipped(r, b) && bb->next != UPY_NO_BLOCK) {
                b = bb->next;
                continue;
            }
            return rec_fail_region(r, b, rg, out);
        }
        /* A loop header that is a while loop's test (what `continue` in
         * the loop jumps to) is structured as the test; the loop is the
         * one at the header after it. */
        /* (A for loop whose body always leaves has no back edge: its
         * FOR_ITER still makes it one, and its block then holds the code
         * before it too, as the target of an enclosing loop that the walk
         * resumes after.) */
        if (skipped_loop_exit(r, b) != UPY_NO_BLOCK) {
            int32_t k, exit = skipped_loop_exit(r, b);
            for (k = b; k < exit; k++)
                r->done[k] = 1;
            b = exit;
            continue;
        }
        if ((bb->is_loop_header || ins(r, bb->end - 1)->op == N_FOR_ITER) &&
            b != rg->loop && !continue_test(r, b) && !top_only_test(r, b)) {
            const upy_nin *l = ins(r, bb->end - 1);
            next = UPY_NO_BLOCK;
            if (l->op == N_FOR_ITER &&
                (r->resume_block != b || !bb->is_loop_header))
                st = structure_for(r, b, rg, &next, out);
            else
                st = structure_while_true(r, b, rg, &next, out);
            if (st < 0)
                return ERROR;
            b = next;
            continue;
        }
        start = r->resume_block == b ? r->resume_at : bb->start;
        if (runs_into_exit(r, b, start, rg)) {
            /* (The exit itself is the code after the loop, still to come;
             * a copy is done with.) */
            r->resume_block = UPY_NO_BLOCK;
            r->done[b] = b != rg->brk;
            return emit_simple(r, out, UPY_S_BREAK);
        }
        if (moved_exit_from(r, b, &start, rg)) {
            r->resume_block = UPY_NO_BLOCK;
            *exit = UPY_NO_BLOCK;
            if (copies_moved_exit(r, rg, b, start)) {
                rec_skip_range(r, start, bb->end - start);
                r->done[b] = 1;
            } else {
                *rg->moved_exit = (rec_resume){b, start};
            }
            return emit_simple(r, out, UPY_S_BREAK);
        }
        r->done[b] = 1;
        start = bb->start;
        if (r->resume_block == b) {
            start = r->resume_at;
            r->resume_block = UPY_NO_BLOCK;
        } else if (r->sp > (uint32_t)bb->depth_in && bb->depth_in >= 0 &&
                   r->sp >= rg->base) {
            r->sp = (uint32_t)bb->depth_in < rg->base ? rg->base
                                                      : (uint32_t)bb->depth_in;
        }
        r->base = rg->base;
        /* (A value left on the stack by the blocks before, as a short
         * circuit's, belongs to the statement they started.) */
        if (r->sp <= r->base)
            r->stmt_start = start;
        stop = rec_run(r, start, bb->end, rg, out);
        if (stop < 0)
            return ERROR;
        if ((uint32_t)stop < bb->end - 1 || (uint32_t)stop == bb->end ||
            !upy_nin_ends_block(ins(r, (uint32_t)stop))) {
            uint32_t resume = 0;
            if ((uint32_t)stop < bb->end &&
                ins(r, (uint32_t)stop)->op == N_BEFORE_WITH) {
                next = UPY_NO_BLOCK;
                RETURN_IF_ERROR(structure_with(r, b, (uint32_t)stop, rg, &next,
                                               &resume, out));
                b = next;
                /* (The with may go on past the last block, at the end of
                 * corrupt code: the top of the loop leaves there.) */
                if (b == UPY_NO_BLOCK || b >= (int32_t)r->cfg.count)
                    continue;
                if (resume >= blk(r, b)->end) {
                    /* The with's exit filled its block. */
                    r->done[b] = 1;
                    b = blk(r, b)->next;
                } else if (resume > blk(r, b)->start) {
                    r->resume_block = b;
                    r->resume_at = resume;
                }
                continue;
            }
            /* rec_run stopped early at a statement's value, not for a
             * with: where a match statement starts (rec_match marks the
             * region unrecovered when the code does not read as one). */
            if ((uint32_t)stop < bb->end && r->sp == rg->base + 1) {
                next = UPY_NO_BLOCK;
                RETURN_IF_ERROR(
                    rec_match(r, b, (uint32_t)stop, rg, &next, out));
                b = next;
                continue;
            }
            if ((uint32_t)stop < bb->end)
                return rec_fail_region(r, b, rg, out);
            next = skipped_block_way_on(r, b, rg);
            /* (A raise, which rec_run wrote, ends its block.) */
            if (next == UPY_NO_BLOCK && ins(r, bb->end - 1)->op == N_RAISE)
                next = written_dead_code(r, b, rg);
            b = next;
            continue;
        }
        last = ins(r, (uint32_t)stop);
        /* Returns and raises leave the region going nowhere. */
        *exit = UPY_NO_BLOCK;
        switch ((upy_nop)last->op) {
        case N_RETURN:
            if (is_break_copy(r, bb, (uint32_t)stop, rg)) {
                rec_pop(r);
                drop_copied_statements(r, bb, (uint32_t)stop, rg, out);
                return emit_simple(r, out, UPY_S_BREAK);
            }
            if (is_moved_exit(r, bb, (uint32_t)stop, rg)) {
                rec_pop(r);
                *rg->moved_exit = (rec_resume){b, r->stmt_start};
                return emit_simple(r, out, UPY_S_BREAK);
            }
            if (is_break_to_tail(r, bb, (uint32_t)stop, rg, &tail)) {
                /* (The POP_EXCEPTs ending the clauses around the loop come
                 * before the return's own code.) */
                while (ins(r, tail)->op == N_POP_EXCEPT)
                    tail++;
                return emit_break_to_return(r, out, tail + 1, 0);
            }
            /* (A break to the exit itself is a plain one.) */
            if (is_const_break(r, bb, (uint32_t)stop, rg, &tail))
                return emit_break_to_return(
                    r, out, tail != blk(r, rg->brk)->start ? tail + 1 : 0, 0);
            if (is_moved_return(r, bb, (uint32_t)stop, rg))
                return emit_break_to_return(
                    r, out, exit_copy_start(r, bb, (uint32_t)stop) + 1, 1);
            return emit_return(r, rg, (uint32_t)stop, out);
        case N_RERAISE:
            if (is_finally_break(r, rg, (uint32_t)stop))
                return emit_simple(r, out, UPY_S_BREAK);
            /* (A copy of the end of the finally body in a loop of that
             * body not read as its break: ending the region there would
             * drop the break.) */
            if (rec_ends_finally_early(r, (uint32_t)stop, rg->finally_end) &&
                rg->loop != UPY_NO_BLOCK && rg->loop >= rg->finally_start)
                return rec_fail_region(r, b, rg, out);
            return SUCCESS;
        case N_RAISE:
            if (rec_eval(r, (uint32_t)stop, out))
                return ERROR;
            return SUCCESS;
        case N_JUMP:
            if (r->skip[stop]) {
                b = bb->jump;
                continue;
            }
            if (dead_clause_way_out(r, b, rg))
                return SUCCESS;
            st = loop_jump(r, bb->jump, rg, out);
            if (st > 0 && written_dead_code(r, b, rg) != UPY_NO_BLOCK) {
                b = written_dead_code(r, b, rg);
                continue;
            }
            if (st)
                return st < 0 ? ERROR : SUCCESS;
            if (!inside(rg, bb->jump)) {
                *exit = bb->jump;
                return SUCCESS;
            }
            b = bb->jump;
            continue;
        case N_POP_JUMP_IF: {
            rec_cond c;
            uint32_t values = r->sp - rg->base;
            /* The stack under the test's value, which a value the test
             * chooses (a conditional expression) stands above where the
             * ways join. */
            int32_t under = (int32_t)r->sp - 1;
            /* A chained comparison in a test keeps its middle operand under
             * the test: still a statement-level condition.  Where the ways
             * join past the chain's next link and cleanup, which hold that
             * operand, it is no part of the stack under the test either:
             * `t = a if lo <= a <= hi else b` (a `while True:` body that
             * only leaves through the next link joins there). */
            if (values == 2 && chain_pending(r)) {
                values = 1;
                if (bb->ipdom != bb->next && bb->ipdom != bb->jump)
                    under--;
            }
            if (values > 1 &&
                (rec_spilled_below(r, rg->base, r->sp - 1) || r->multi.len)) {
                /* Values kept across statements wait under the test (see
                 * spill.c): it is a statement's, they stay under it.  (A
                 * store held back as part of a multiple assignment tells
                 * the same: such an assignment has no test in it.) */
                RETURN_IF_ERROR(rec_spill(r, r->sp - 1, out));
                values = 1;
            }
            if (values > 1 ||
                (bb->ipdom != UPY_NO_BLOCK &&
                 blk(r, bb->ipdom)->depth_in > under) ||
                (values == 1 && is_returned_ifexp(r, b, rg))) {
                rec_resume way;
                RETURN_IF_ERROR(rec_cond_expr(r, b, rg, &way, out));
                b = r->resume_block = way.block;
                r->resume_at = way.at;
                continue;
            }
            c.start = r->stmt_start;
            RETURN_IF_ERROR(rec_condition(r, b, rg, &c, out));
            next = UPY_NO_BLOCK;
            st = structure_while(r, &c, rg, &next, out);
            if (st < 0)
                return ERROR;
            if (st == NOT_THIS)
                RETURN_IF_ERROR(structure_if(r, &c, rg, &next, out));
            b = next;
            continue;
        }
        case N_JUMP_IF_OR_POP: {
            rec_resume way;
            RETURN_IF_ERROR(rec_cond_expr(r, b, rg, &way, out));
            b = r->resume_block = way.block;
            r->resume_at = way.at;
            continue;
        }
        default:
            return rec_fail_region(r, b, rg, out);
        }
    }
    if (b != UPY_NO_BLOCK && r->sp > rg->base)
        return leave(r, b, rg, out, exit);
    *exit = b;
    return SUCCESS;
}
