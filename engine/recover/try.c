/*
 * try.c - try statements from the exception table (3.11+ layout).
 *
 * The body of a try is the blocks whose handler is the try's handler (or
 * nested in it).  The handler starts with PUSH_EXC_INFO and is one of:
 *
 *   except clauses:  [type; CHECK_EXC_MATCH; POP_JUMP_IF_FALSE next]
 *                    (STORE name | POP_TOP) body POP_EXCEPT [name cleanup]
 *                    JUMP after ... and RERAISE 0 when no clause matched;
 *                    a bare except starts with POP_TOP;
 *   finally:         the finally body, then RERAISE 0; the compiler also
 *                    copies the body onto the normal way out of the try
 *                    and before every return / break / continue in it;
 *   except* clauses: the machinery of exception groups (see try_star).
 *
 * Clause bodies of named clauses are wrapped in a hidden try/finally that
 * deletes the name (its handler: LOAD_CONST None; STORE; DELETE; RERAISE),
 * and every handler has a cleanup block (COPY 3; POP_EXCEPT; RERAISE 1);
 * neither is reached by normal control flow, so the walker never enters
 * them.
 */
#include <string.h>

#include "recover/rec.h"

/* Puts the handler's entry state on the symbolic stack: what was there at
 * the try (its unwind depth), the offset for lasti handlers, then what
 * PUSH_EXC_INFO leaves: the previous exception and the exception. */
static int enter_handler(rec *r, int32_t h, uint32_t try_depth) {
    const upy_block *hb = blk(r, h);
    uint32_t depth = hb->depth_in > 0 ? (uint32_t)hb->depth_in - 1 : 0;
    (void)try_depth;
    if (r->sp > depth)
        r->sp = depth;
    while (r->sp < depth)
        RETURN_IF_ERROR(rec_push(r, SV_LASTI, NULL));
    if (rec_push(r, SV_PREV_EXC, NULL) || rec_push(r, SV_EXC, NULL))
        return ERROR;
    return SUCCESS;
}

/* Whether an instruction ends a statement: what a finally body's first
 * statement reaches before any CHECK_EXC_MATCH could follow. */
static int ends_statement(const upy_nin *in) {
    return upy_nin_ends_statement(in) ||
           (in->op == N_JUMP && (in->flags & N_JUMP_BACK) != 0);
}

/* Whether the code from i, to end, starts an except clause: the type is
 * evaluated and matched.  A type with control flow of its own (`except A
 * or B:`, test_peepholer test_bpo_42057; `except (A if c else B):`) jumps
 * within its value: the header goes on past end, in the order the
 * compiler laid its branches out, up to the match.  A finally body's
 * first statement ends (a store, a POP_TOP, a return) before any match
 * of a try in it. */
static int is_clause_header(const rec *r, uint32_t i, uint32_t end) {
    for (; i < end && i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (in->op == N_EXC_MATCH || in->op == N_EG_MATCH)
            return 1;
        if (ends_statement(in))
            return 0;
        if (in->op == N_JUMP_IF_OR_POP || in->op == N_POP_JUMP_IF ||
            in->op == N_JUMP)
            end = r->ncode.count;
    }
    return 0;
}

/* Runs the type of the except clause that starts at instruction i,
 * through the control flow of its value (see is_clause_header), up to the
 * POP_JUMP_IF on the match; *b gets that jump's block.  The index of the
 * jump, or -1 on error, or -2 when the header has another shape. */
static int clause_type(rec *r, uint32_t i, int32_t *b, const region *rg,
                       upy_ptr_vec *out) {
    int guard = 0;
    while (guard++ < 64) {
        const upy_block *bb = blk(r, *b);
        int stop = rec_run(r, i, bb->end, rg, out);
        rec_resume resume;
        if (stop < 0)
            return ERROR;
        if ((uint32_t)stop != bb->end - 1)
            return -2;
        if (ins(r, (uint32_t)stop)->op == N_POP_JUMP_IF && stop > 0 &&
            (ins(r, (uint32_t)stop - 1)->op == N_EXC_MATCH ||
             ins(r, (uint32_t)stop - 1)->op == N_EG_MATCH))
            return stop;
        if (ins(r, (uint32_t)stop)->op != N_POP_JUMP_IF &&
            ins(r, (uint32_t)stop)->op != N_JUMP_IF_OR_POP)
            return -2;
        RETURN_IF_ERROR(rec_cond_expr(r, *b, rg, &resume, out));
        if (resume.block == UPY_NO_BLOCK)
            return -2;
        *b = resume.block;
        i = resume.at;
    }
    return -2;
}

/* Walks one clause body that starts at instruction `start`; *exit gets
 * where it went when it ended normally.  Its blocks under handler alt
 * belong to it too (the way out). */
static int clause_body(rec *r, uint32_t start, int32_t end_block,
                       const char *name, uint32_t base, int32_t alt,
                       const region *rg, upy_ptr_vec *body, int32_t *exit) {
    int32_t b = r->cfg.block_of[start], own = blk(r, b)->handler;
    region crg = *rg;
    /* The clause body's own handler: the one of the clause header (the
     * handler's cleanup) or, in a named clause, the name cleanup under it
     * -- not the handler of a try the body starts with. */
    if (start > 0 && ins(r, start - 1)->handler >= 0) {
        int32_t header = r->cfg.block_of[ins(r, start - 1)->handler];
        int32_t x = own;
        int steps = 0;
        if (!name) {
            own = header;
        } else {
            while (x != UPY_NO_BLOCK && blk(r, x)->handler != header &&
                   ++steps < 64)
                x = blk(r, x)->handler;
            if (x != UPY_NO_BLOCK && blk(r, x)->handler == header)
                own = x;
        }
    }
    crg.start = b;
    crg.end = end_block > b ? end_block : b + 1;
    crg.follow = UPY_NO_BLOCK;
    crg.handler = own;
    crg.alt_handler = alt;
    crg.base = base;
    crg.except_name = name;
    r->resume_block = b;
    r->resume_at = start;
    return rec_region(r, b, &crg, body, exit);
}

/* The length of the exit block the compiler may copy at instruction i: up
 * to and with its first instruction that does not fall through (a few
 * instructions of the code object at most, see source_count), else 0. */
static uint32_t exit_copy_length(const rec *r, uint32_t i) {
    uint32_t k, n = 0;
    for (k = 0; i + k < r->ncode.count; k++) {
        if (k == 0 || ins(r, i + k)->offset != ins(r, i + k - 1)->offset)
            if (++n > 4)
                return 0;
        if (!upy_nin_falls_through(ins(r, i + k)))
            return k + 1;
    }
    return 0;
}

/* Where clause code [first, end) goes on when its walk found no way out
 * (or only the RERAISE of an exception no clause matched): the jump at
 * the end of a block of it that code before falls into and code after
 * follows, that starts with POP_EXCEPT, under the handler around the try,
 * to a block outside the clause that is no `continue` or `break` of the
 * loop around; UPY_NO_BLOCK when none, or before 3.13.  3.13's
 * inline_small_or_no_lineno_blocks (Python/flowgraph.c; layout
 * copies_jump_blocks) copies the clause's way out (POP_EXCEPT, the name's
 * cleanup, the jump; no line of its own) into the branch that jumped to
 * it, so an if statement that ends the clause ends in it, before its
 * other branch.  Worked example (3.13, asyncssh sftp._request_ranges,
 * try_else_break_clause_if_raise.py):
 *
 *     while True:               0  ... got = make(handle, size)
 *         try:                  6  NOP; got; RETURN  (the else part's break)
 *             got = make(...)   8  PUSH_EXC_INFO ... size > 5
 *         except OSError:      17  size *= 2
 *             if size > 5:     21  POP_EXCEPT; JUMP 28  (3.12: JUMP past 23)
 *                 size *= 2    23  RAISE
 *             else:            28  JUMP 0  (the loop's jump back)
 *                 raise
 *         else:
 *             break
 *
 * Read as going on nowhere, the clause left the try no way on: the else
 * part's break was printed after the try, and the loop ended after the
 * clause. */
static int32_t inlined_way_out(const rec *r, int32_t first, int32_t end,
                               const region *rg) {
    int32_t c;
    if (!r->ncode.layout->copies_jump_blocks)
        return UPY_NO_BLOCK;
    for (c = first + 1; c + 1 < end && c < (int32_t)r->cfg.count; c++) {
        const upy_block *cb = blk(r, c);
        int32_t t = cb->jump;
        if (blk(r, c - 1)->next != c || ins(r, cb->start)->op != N_POP_EXCEPT ||
            ins(r, cb->end - 1)->op != N_JUMP || cb->handler != rg->handler ||
            t == UPY_NO_BLOCK || (t >= first && t < end) || t == rg->cont ||
            t == rg->brk)
            continue;
        return t;
    }
    return UPY_NO_BLOCK;
}

static int try_except(rec *r, int32_t b, int32_t h, const region *rg,
                      upy_stmt *s, int32_t *follow, upy_ptr_vec *out) {
    uint32_t clause = blk(r, h)->start + 1, base;
    upy_ptr_vec handlers = {0};
    int guard = 0;
    (void)b;
    (void)out;

    *follow = UPY_NO_BLOCK;
    while (guard++ < 256 && clause < r->ncode.count) {
        int32_t cb = r->cfg.block_of[clause], next_clause = UPY_NO_BLOCK;
        const upy_block *cbb = blk(r, cb);
        upy_handler *hd;
        upy_ptr_vec body = {0};
        int32_t exit, clause_end, way_out = UPY_NO_BLOCK;
        uint32_t body_start;

        if (ins(r, clause)->op == N_RERAISE) {
            r->done[cb] = 1;
            break;
        }
        hd = upy_arena_alloc(r->arena, sizeof *hd);
        if (!hd)
            return rec_oom(r);
        r->done[cb] = 1;
        base = r->sp - 1; /* the previous exception stays below */
        if (is_clause_header(r, clause, cbb->end)) {
            int stop = clause_type(r, clause, &cb, rg, out);
            sval match;
            if (stop == -1)
                return ERROR;
            if (stop < 0)
                return rec_fail_region(r, cb, rg, out);
            cbb = blk(r, cb);
            match = rec_pop(r);
            hd->type = match.expr;
            next_clause = cbb->jump;
            if (cbb->next == UPY_NO_BLOCK)
                return rec_fail_region(r, cb, rg, out);
            body_start = blk(r, cbb->next)->start;
            r->done[cbb->next] = 1;
            s->u.try_.is_star = ins(r, (uint32_t)stop - 1)->op == N_EG_MATCH;
        } else {
            body_start = clause;
        }
        /* The exception: bound to a name, or dropped. */
        if (ins(r, body_start)->op == N_STORE) {
            hd->name = rec_str(ins(r, body_start)->obj);
            rec_pop(r);
            body_start++;
        } else if (ins(r, body_start)->op == N_POP_TOP) {
            rec_pop(r);
            body_start++;
        }
        r->done[r->cfg.block_of[body_start]] = 0;
        /* A clause's code ends at the next clause, the last one at the
         * handler's cleanup block, which closes the handler's code. */
        clause_end =
            next_clause != UPY_NO_BLOCK ? next_clause
            : blk(r, h)->handler != UPY_NO_BLOCK && blk(r, h)->handler > h
                ? blk(r, h)->handler
                : rg->end;
        RETURN_IF_ERROR(clause_body(r, body_start, clause_end, hd->name, base,
                                    rg->handler, rg, &body, &exit));
        if (exit == UPY_NO_BLOCK ||
            ins(r, blk(r, exit)->start)->op == N_RERAISE)
            way_out =
                inlined_way_out(r, r->cfg.block_of[body_start], clause_end, rg);
        if (way_out != UPY_NO_BLOCK)
            exit = way_out;
        hd->body = upy_vec_stmts(&body);
        if (upy_vec_push(r->arena, &handlers, hd))
            return rec_oom(r);
        /* (A clause that never runs off its end, a loop only a return
         * leaves, ends where the blocks after its code start: the
         * RERAISE of the exception no clause matched is no way on.) */
        if (*follow == UPY_NO_BLOCK && exit != UPY_NO_BLOCK &&
            ins(r, blk(r, exit)->start)->op != N_RERAISE)
            *follow = exit;
        if (next_clause == UPY_NO_BLOCK)
            break;
        /* The next clause starts from the same handler state. */
        r->sp = base;
        RETURN_IF_ERROR(rec_push(r, SV_EXC, NULL));
        clause = blk(r, next_clause)->start;
    }
    s->u.try_.handlers = upy_arena_array(
        r->arena, handlers.len ? handlers.len : 1, sizeof(upy_handler));
    if (!s->u.try_.handlers)
        return rec_oom(r);
    for (guard = 0; guard < (int)handlers.len; guard++)
        s->u.try_.handlers[guard] = *(upy_handler *)handlers.items[guard];
    s->u.try_.n_handlers = handlers.len;
    return SUCCESS;
}

/* --- the code after the try, copied into a clause's way out ---------- */

/* 3.12+ copies a small exit block (a few instructions ending in a return
 * or raise) into each jump that reaches it, and the way out of an except
 * clause is such a jump, after the clause's POP_EXCEPT (and name cleanup).
 * Code after that POP_EXCEPT is never the clause's own: a return in the
 * clause keeps its value under the exception (SWAP 2), a raise runs
 * before it.  It is a copy of the code after the try (or after the loop
 * around it, for a break).  Only a constant's return reads the same
 * either way; it stays the clause's. */
typedef struct clause_copy {
    uint32_t at, n;     /* the copy: instructions [at, at + n) */
    upy_stmt_list tail; /* its statements in the first clause that has it */
} clause_copy;

/* How many instructions of the code object [from, to] came from: the
 * compiler's limit on what it copies counts those (one may make two
 * neutral ones, as a global's load with the NULL before a call). */
static uint32_t source_count(const rec *r, uint32_t from, uint32_t to) {
    uint32_t k, n = 0;
    for (k = from; k <= to; k++)
        if (k == from || ins(r, k)->offset != ins(r, k - 1)->offset)
            n++;
    return n;
}

/* Whether code [i, e) works on what is under it (a loop's iterator a
 * return pops): then it is the clause's way out, not a statement.  A
 * POP_TOP of a value the code made (an expression statement) is one. */
static int works_under(const rec *r, uint32_t i, uint32_t e) {
    int depth = 0;
    for (; i < e; i++) {
        if (ins(r, i)->op == N_SWAP || ins(r, i)->op == N_COPY)
            return 1;
        depth += upy_nin_stack_effect(ins(r, i), 0);
        if (depth < 0)
            return 1;
    }
    return 0;
}

/* Whether the POP_EXCEPT at instruction p ends clause body `body` itself
 * and runs on to instruction e, its way out:
 *   - it runs on to e in one block, or in the next: the code after a try
 *     in a try body that ends it is the code after the outer try, which
 *     that try's handler does not protect, as it does the POP_EXCEPT;
 *   - it ends no clause of a try nested in the body (one after the
 *     body's first statement starts may): the exception it pops is no
 *     more on the stack than the clause's statements start with (depths
 *     at the starts of their blocks). */
static int ends_clause_into(const rec *r, const upy_stmt_list *body, uint32_t p,
                            uint32_t e) {
    int32_t b = r->cfg.block_of[p], at, first;
    if (b != r->cfg.block_of[e] &&
        !(blk(r, b)->end == p + 1 && blk(r, b)->next == b + 1 &&
          r->cfg.block_of[p + 1] == b + 1 && r->cfg.block_of[e] == b + 1))
        return 0;
    if (body->items[0]->start >= p)
        return 1;
    at = blk(r, b)->depth_in;
    first = blk(r, r->cfg.block_of[body->items[0]->start])->depth_in;
    return first < 0 || at <= first;
}

/* Whether instruction e is the RERAISE 0 that ends a finally body in its
 * handler: the code after a try at the end of that body runs on to it, so
 * it is a small exit block the compiler copies into the clauses' ways out
 * too (`finally: try: u() / except E: pass / x = 0` has `x = 0` and the
 * RERAISE after the POP_EXCEPT). */
static int ends_finally_body(const rec *r, uint32_t e) {
    return ins(r, e)->op == N_RERAISE && ins(r, e)->arg == 0;
}

/* The index of the first statement of clause body `body` that is such a
 * copy (*at and *n get where it is), body->len when there is none. */
static uint32_t copy_in_clause(const rec *r, const upy_stmt_list *body,
                               uint32_t *at, uint32_t *n) {
    uint32_t k, i, e, p;
    /* (A break strip_break_copies made of a copy starts where the copy
     * did.) */
    if (!body->len || body->items[body->len - 1]->kind == UPY_S_BREAK)
        return body->len;
    /* The return or raise that ends the last statement, then the
     * POP_EXCEPT a few instructions before it. */
    for (e = body->items[body->len - 1]->start;
         e < r->ncode.count && upy_nin_falls_through(ins(r, e)); e++)
        ;
    if (e >= r->ncode.count ||
        (ins(r, e)->op != N_RETURN && ins(r, e)->op != N_RAISE &&
         !ends_finally_body(r, e)))
        return body->len;
    for (p = e; p > 0 && e - p < 8 && ins(r, p - 1)->op != N_POP_EXCEPT; p--)
        ;
    if (!p || ins(r, p - 1)->op != N_POP_EXCEPT ||
        !ends_clause_into(r, body, p - 1, e))
        return body->len;
    i = p--;
    /* The name cleanup of `except E as name` comes first. */
    if (i + 3 < e && rec_clears_a_name(r, i))
        i += 3;
    /* (A lone RETURN after it returns a value the clause kept under the
     * exception; a lone bare raise after it is a copy: raises in the
     * clause run before it.) */
    if (source_count(r, i, e) > 4 || (i == e && ins(r, e)->op != N_RAISE) ||
        (i + 1 == e && ins(r, i)->op == N_LOAD_CONST &&
         ins(r, e)->op == N_RETURN))
        return body->len;
    if (works_under(r, i, e))
        return body->len;
    /* The statement-level depth of a clause counts the exception it
     * saved, so a statement after the POP_EXCEPT may start late: those
     * that start at it or after are the copy. */
    for (k = body->len; k > 0 && body->items[k - 1]->start >= p; k--)
        ;
    if (k == body->len)
        return body->len;
    *at = i;
    *n = e - i + 1;
    return k;
}

/* Whether statement x is an if without an else part. */
static int is_if_alone(const upy_stmt *x) {
    return x->kind == UPY_S_IF && !x->u.if_.orelse.len;
}

/* Whether statement x is a try with an else part and no finally body:
 * where 3.10 reads the way out of a try nested in a clause, its
 * POP_BLOCK then the clause's POP_EXCEPT and the copy. */
static int is_try_else(const upy_stmt *x) {
    return x->kind == UPY_S_TRY && x->u.try_.orelse.len &&
           !x->u.try_.finalbody.len;
}

/* Finds a copy at the end of statements L, at the end of a branch of an
 * if that ends them, at the end of the else part of a try that ends them,
 * or, where L cannot fall off its end, at the end of the body of an if
 * without an else part in L (the branch left the clause there: `if c: m =
 * f()` + the copy, then `raise E`): 1 when found (*found set). */
static int find_copy_in(const rec *r, const upy_stmt_list *L,
                        clause_copy *found) {
    uint32_t k = copy_in_clause(r, L, &found->at, &found->n);
    const upy_stmt *last;
    if (k < L->len) {
        found->tail.items = L->items + k;
        found->tail.len = L->len - k;
        return 1;
    }
    last = L->len ? L->items[L->len - 1] : NULL;
    if (last && last->kind == UPY_S_IF && last->u.if_.orelse.len &&
        (find_copy_in(r, &last->u.if_.body, found) ||
         find_copy_in(r, &last->u.if_.orelse, found)))
        return 1;
    if (last && is_try_else(last) &&
        find_copy_in(r, &last->u.try_.orelse, found))
        return 1;
    if (!rec_always_leaves(L))
        return 0;
    for (k = L->len; k > 0; k--)
        if (is_if_alone(L->items[k - 1]) &&
            find_copy_in(r, &L->items[k - 1]->u.if_.body, found))
            return 1;
    return 0;
}

static uint32_t copy_in_body(const rec *r, int32_t h, int32_t exit,
                             const upy_stmt_list *L, const clause_copy *cc);
static void strip_branch(const rec *r, upy_stmt_list *L, const clause_copy *cc,
                         upy_stmt *brk);

/* Whether every way out of statements L ends in the copy cc or leaves
 * otherwise (a return or raise), and one ends in it: at their end, at the
 * ends of the branches of an if that ends them, at the end of the else
 * part of a try that ends a clause (its clauses ending in it or leaving),
 * or at the end of the body of an if without an else part in them where
 * they cannot fall off their end (its test's failing runs the statements
 * after it: their else part).  L is an except clause's statements (h
 * UPY_NO_BLOCK), or the body of the try with handler h going on at block
 * exit (see copy_in_body). */
static int ends_in_copy(const rec *r, const upy_stmt_list *L,
                        const clause_copy *cc, int32_t h, int32_t exit) {
    uint32_t at, n, k;
    const upy_stmt *last;
    int in_body, in_else;
    if (h != UPY_NO_BLOCK) {
        if (copy_in_body(r, h, exit, L, cc) < L->len)
            return 1;
    } else if ((k = copy_in_clause(r, L, &at, &n)) < L->len) {
        return n == cc->n && rec_same_code(r, at, cc->at, n);
    }
    last = L->len ? L->items[L->len - 1] : NULL;
    /* (`|`: both branches are asked, the one without the copy must leave.) */
    if (last && last->kind == UPY_S_IF && last->u.if_.orelse.len &&
        ((in_body = ends_in_copy(r, &last->u.if_.body, cc, h, exit)) |
         (in_else = ends_in_copy(r, &last->u.if_.orelse, cc, h, exit))) &&
        (in_body || rec_always_leaves(&last->u.if_.body)) &&
        (in_else || rec_always_leaves(&last->u.if_.orelse)))
        return 1;
    if (h == UPY_NO_BLOCK && last && is_try_else(last) &&
        ends_in_copy(r, &last->u.try_.orelse, cc, h, exit)) {
        for (k = 0; k < last->u.try_.n_handlers; k++)
            if (!rec_always_leaves(&last->u.try_.handlers[k].body) &&
                !ends_in_copy(r, &last->u.try_.handlers[k].body, cc, h, exit))
                break;
        if (k == last->u.try_.n_handlers)
            return 1;
    }
    if (!rec_always_leaves(L))
        return 0;
    for (k = L->len; k > 0; k--)
        if (is_if_alone(L->items[k - 1]) &&
            ends_in_copy(r, &L->items[k - 1]->u.if_.body, cc, h, exit))
            return 1;
    return 0;
}

/* Takes the copies out of statements L that ends_in_copy() accepts; with
 * `brk`, each copy becomes that break (the copy was of the code after the
 * loop).  Without, an if before them whose body ends in one (it left the
 * clause there) gets the statements after it for its else part: they run
 * only when its test fails. */
static void strip_copy(const rec *r, upy_stmt_list *L, const clause_copy *cc,
                       upy_stmt *brk) {
    uint32_t at, n, k = copy_in_clause(r, L, &at, &n), j;
    if (k < L->len) {
        L->len = k;
        if (brk)
            L->items[L->len++] = brk;
    } else if (L->len && L->items[L->len - 1]->kind == UPY_S_IF) {
        upy_stmt *last = L->items[L->len - 1];
        strip_branch(r, &last->u.if_.body, cc, brk);
        strip_branch(r, &last->u.if_.orelse, cc, brk);
    } else if (L->len && is_try_else(L->items[L->len - 1])) {
        upy_stmt *last = L->items[L->len - 1];
        strip_branch(r, &last->u.try_.orelse, cc, brk);
        for (j = 0; j < last->u.try_.n_handlers; j++)
            strip_branch(r, &last->u.try_.handlers[j].body, cc, brk);
    }
    for (j = L->len; j > 0; j--) {
        upy_stmt *x = L->items[j - 1];
        if (!is_if_alone(x) ||
            !ends_in_copy(r, &x->u.if_.body, cc, UPY_NO_BLOCK, UPY_NO_BLOCK))
            continue;
        strip_copy(r, &x->u.if_.body, cc, brk);
        if (brk)
            continue;
        x->u.if_.orelse.items = L->items + j;
        x->u.if_.orelse.len = L->len - j;
        L->len = j;
    }
}

/* Takes the copies out of branch L of an if or a try, where it ends in
 * one. */
static void strip_branch(const rec *r, upy_stmt_list *L, const clause_copy *cc,
                         upy_stmt *brk) {
    if (ends_in_copy(r, L, cc, UPY_NO_BLOCK, UPY_NO_BLOCK))
        strip_copy(r, L, cc, brk);
}

/* Finds the copy in the clauses of try s: 1 when some clause ends in one
 * and every clause that has one has the same code. */
static int find_clause_copy(const rec *r, const upy_stmt *s, clause_copy *cc) {
    uint32_t h;
    cc->n = 0;
    for (h = 0; h < s->u.try_.n_handlers; h++) {
        clause_copy found;
        if (!find_copy_in(r, &s->u.try_.handlers[h].body, &found))
            continue;
        if (!cc->n)
            *cc = found;
        else if (found.n != cc->n || !rec_same_code(r, found.at, cc->at, cc->n))
            return 0;
    }
    return cc->n != 0;
}

/* Takes the copies out of the clauses of try s (see strip_copy). */
static void strip_clause_copies(const rec *r, upy_stmt *s,
                                const clause_copy *cc, upy_stmt *brk) {
    uint32_t h;
    for (h = 0; h < s->u.try_.n_handlers; h++)
        if (ends_in_copy(r, &s->u.try_.handlers[h].body, cc, UPY_NO_BLOCK,
                         UPY_NO_BLOCK))
            strip_copy(r, &s->u.try_.handlers[h].body, cc, brk);
}

/* Whether block b starts with the code of the copy. */
static int copy_of_block(const rec *r, int32_t b, const clause_copy *cc) {
    return b != UPY_NO_BLOCK && b < (int32_t)r->cfg.count &&
           rec_same_code(r, blk(r, b)->start, cc->at, cc->n);
}

/* The index of the first of the last statements of body L that are a copy
 * of the code after the try with handler h (cc), L->len when they are
 * not: the copies the compiler puts in place of the jumps of the body to
 * that code are not under h, which a statement written in the body is,
 * and are not that code itself, where the body goes on (exit).  (The
 * first statement after a with starts with the with's exit, under h: only
 * there is code under h passed over.  Any other statement under h is
 * written in the body, even where a copy comes right after its code:
 * 3.13 `try: if a: (if b: n += 10) / else: n += 100` / `except E:
 * pass` / `return n` lost `n += 10`, 3.12 the whole if.) */
static uint32_t copy_in_body(const rec *r, int32_t h, int32_t exit,
                             const upy_stmt_list *L, const clause_copy *cc) {
    int32_t hs = (int32_t)blk(r, h)->start;
    uint32_t k, at;
    if (L->len < cc->tail.len)
        return L->len;
    k = L->len - cc->tail.len;
    at = L->items[k]->start;
    if (k > 0 && L->items[k - 1]->kind == UPY_S_WITH)
        while (at < r->ncode.count && ins(r, at)->handler == hs &&
               upy_nin_falls_through(ins(r, at)))
            at++;
    if (at >= r->ncode.count || ins(r, at)->handler == hs ||
        (exit != UPY_NO_BLOCK && at == blk(r, exit)->start) ||
        at + cc->n > r->ncode.count || !rec_same_code(r, at, cc->at, cc->n))
        return L->len;
    return k;
}

/* Takes the copies out of body L that ends_in_copy() accepts, and out
 * of each branch of an if ending L that ends in one (the other branch runs
 * off to the code after the try all the same: `if a: (if b: x)` / `else:
 * y` + `return n`, 3.12 copies the return into the end of `x`); an if
 * of it whose body ends in one (it left the try body there) gets the
 * statements after it for its else part (as strip_copy). */
static void strip_body_copy(const rec *r, int32_t h, int32_t exit,
                            upy_stmt_list *L, const clause_copy *cc) {
    uint32_t k = copy_in_body(r, h, exit, L, cc), j;
    if (k < L->len) {
        L->len = k;
    } else if (L->len && L->items[L->len - 1]->kind == UPY_S_IF) {
        upy_stmt *last = L->items[L->len - 1];
        strip_body_copy(r, h, exit, &last->u.if_.body, cc);
        strip_body_copy(r, h, exit, &last->u.if_.orelse, cc);
    }
    for (j = L->len; j > 0; j--) {
        upy_stmt *x = L->items[j - 1];
        if (x->kind != UPY_S_IF || x->u.if_.orelse.len ||
            !ends_in_copy(r, &x->u.if_.body, cc, h, exit))
            continue;
        strip_body_copy(r, h, exit, &x->u.if_.body, cc);
        x->u.if_.orelse.items = L->items + j;
        x->u.if_.orelse.len = L->len - j;
        L->len = j;
    }
}

/* Takes the copies of the code after the try with handler h, where the
 * clauses go on (cc), out of its body, which goes on at exit. */
static void strip_body_copies(const rec *r, int32_t h, int32_t exit,
                              upy_ptr_vec *body, const clause_copy *cc) {
    upy_stmt_list L = upy_vec_stmts(body);
    strip_body_copy(r, h, exit, &L, cc);
    body->len = L.len;
}

/* --- 3.12+: the else part of a try whose handlers all leave ----------- */

/* With its handlers moved after all other code and each handler ending in
 * a return or raise, `try: A / except: B / else: C` + D and `try: A /
 * except: B` + C + D have the same control flow.  What tells them apart
 * is the order the compiler first met names and constants in, which is
 * the order of co_names and co_consts: body, else, handlers, then the
 * code after the try. */

/* Which part instruction i belongs to: the handler h (OWN_HANDLER), code
 * after the loop around the try that only the handler leads to (OWN_AFTER:
 * a `break` in it), the statement j of `rest` (j >= 0; its code is
 * [rest[j]->start, rest[j+1]->start), the last one's up to `end`, and the
 * code of the handlers of tries in it, laid out after all other code), or
 * some other code (OWN_ELSEWHERE). */
enum { OWN_AFTER = -3, OWN_HANDLER = -2, OWN_ELSEWHERE = -1 };

/* (The statements of rest start in ascending order, else_by_order checks
 * first: the last one starting at or before i is found by halves.
 * find_uses, which asks of every instruction in turn, keeps its place
 * instead: next_rest_stmt.) */
static int32_t rest_stmt_of(const upy_ptr_vec *rest, uint32_t i, uint32_t end) {
    uint32_t lo = 1, hi = (uint32_t)rest->len;
    if (i < ((upy_stmt *)rest->items[0])->start || i >= end)
        return OWN_ELSEWHERE;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (((upy_stmt *)rest->items[mid])->start <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int32_t)lo - 1;
}

/* owner_of's walks up the dominator tree, remembered per block for one
 * try (every instruction of the code asks, and the chains are as long as
 * the tries before it): warm[x] for a walk that starts at x, cold[x] for
 * one that reaches x past a handler entry, where warm_try[x] / cold_try[x]
 * is the number of the try (try_no) they were found for.  (The arrays
 * are made once per code object, see order_tables: numbering the tries
 * spares clearing them for each.) */
#define OWN_UNKNOWN INT32_MIN
typedef struct owner_walks {
    int32_t *warm, *cold;
    uint32_t *warm_try, *cold_try, try_no;
    int32_t *path; /* the blocks of the walk being found, ~x when cold */
    int32_t brk;   /* the block after the loop around the try, or none */
} owner_walks;

static int32_t known_owner(const owner_walks *w, int32_t x, int cold) {
    if (cold)
        return w->cold_try[x] == w->try_no ? w->cold[x] : OWN_UNKNOWN;
    return w->warm_try[x] == w->try_no ? w->warm[x] : OWN_UNKNOWN;
}

/* A handler is dominated by the code it protects: up from a handler
 * entry, the first code of the rest is the statement it belongs to.  Each
 * block the walk from x passes has the answer the walk finds. */
static int32_t walk_owner(const rec *r, const upy_ptr_vec *rest, uint32_t end,
                          owner_walks *w, int32_t x) {
    uint32_t n = 0;
    int cold = 0;
    int32_t own = OWN_ELSEWHERE;
    for (; x != UPY_NO_BLOCK; x = blk(r, x)->idom) {
        int32_t known = known_owner(w, x, cold);
        if (known != OWN_UNKNOWN) {
            own = known;
            break;
        }
        w->path[n++] = cold ? ~x : x;
        if (cold && (own = rest_stmt_of(rest, blk(r, x)->start, end)) >= 0)
            break;
        own = OWN_ELSEWHERE;
        if (blk(r, x)->is_handler)
            cold = 1;
    }
    while (n) {
        int32_t y = w->path[--n];
        if (y < 0) {
            w->cold[~y] = own;
            w->cold_try[~y] = w->try_no;
        } else {
            w->warm[y] = own;
            w->warm_try[y] = w->try_no;
        }
    }
    return own;
}

/* Whether instruction i of handler h's block x comes after the clause's
 * POP_EXCEPT, where the clause's cleanup no longer covers it, and numbers
 * a name: the code after the loop that the clause's break falls into
 * when nothing else leaves the loop (the compiler lays it out right
 * there).  Example (3.12): `while True:` / `try: pass` / `except E:
 * break` / `f(KEY)` + `g()`: g's code follows the handler's POP_EXCEPT in
 * its block, and is numbered after f's statement.  (A constant there may
 * be the None of the cleanup of the clause's name.) */
static int past_clause_end(const rec *r, int32_t h, int32_t x, uint32_t i) {
    int32_t cleanup = ins(r, blk(r, h)->start)->handler;
    uint32_t j = i;
    if (ins(r, i)->op == N_LOAD_CONST || ins(r, i)->handler == cleanup)
        return 0;
    while (j-- > blk(r, x)->start)
        if (ins(r, j)->op == N_POP_EXCEPT)
            return ins(r, j)->handler != cleanup;
    return 0;
}

/* (own: rest_stmt_of(rest, i, end), which the caller keeps.) */
static int32_t owner_of(const rec *r, int32_t h, const upy_ptr_vec *rest,
                        uint32_t end, owner_walks *w, uint32_t i, int32_t own) {
    int32_t x = r->cfg.block_of[i];
    if (upy_cfg_dominates(&r->cfg, h, x))
        return (w->brk != UPY_NO_BLOCK &&
                upy_cfg_dominates(&r->cfg, w->brk, x)) ||
                       past_clause_end(r, h, x, i)
                   ? OWN_AFTER
                   : OWN_HANDLER;
    if (own != OWN_ELSEWHERE)
        return own;
    return walk_owner(r, rest, end, w, x);
}

/* Where the entries of one table (0: co_names, 1: co_consts) are used:
 * the first statement of the rest, the handler, code after the try only
 * the handler leads to, other code. */
typedef struct entry_uses {
    size_t n;
    int32_t *first;    /* -1: no statement of the rest */
    uint32_t *handler; /* the first instruction in the handler, or 0 */
    uint8_t *after;
    uint8_t *elsewhere;
    /* Found once per code object (index_plain_users): for each entry,
     * its first plain use (UINT32_MAX: none), and the order users that
     * are not plain, ascending. */
    uint32_t *plain_first;
    uint32_t *unplain, n_unplain;
} entry_uses;

/* The instructions the order checks look at, ascending, found once per
 * code object (each try of a body asked every instruction of the code):
 * those that use an entry of co_names (0) or co_consts (1), and the loads
 * of None that a return follows (2). */
static int index_order_users(rec *r) {
    uint32_t i, n = r->ncode.count, counts[3] = {0, 0, 0};
    int kind;
    for (kind = 0; kind < 3; kind++) {
        r->order_users[kind] =
            upy_arena_array_uncleared(r->scratch, n + 1, sizeof(uint32_t));
        if (!r->order_users[kind])
            return rec_oom(r);
    }
    for (i = 0; i < n; i++) {
        const upy_nin *in = ins(r, i);
        for (kind = 0; kind < 2; kind++)
            if (r->table_entries[kind][i] >= 0)
                r->order_users[kind][counts[kind]++] = i;
        if (i + 1 < n && upy_nin_loads_none(in) &&
            ins(r, i + 1)->op == N_RETURN)
            r->order_users[2][counts[2]++] = i;
    }
    for (kind = 0; kind < 3; kind++)
        r->n_order_users[kind] = counts[kind];
    return SUCCESS;
}

/* Whether instruction i, of code neither in the try with handler h nor in
 * the rest after its body (which ends at end), was compiled after both:
 * code after the rest that no handler alone reaches (3.12+ keeps such
 * code in the order the compiler made it), or code only a handler reaches
 * laid out after h (push_cold_blocks_to_end keeps the order of that code
 * too: an enclosing finally body's copy for the exception, an enclosing
 * try's handler).  So in
 *
 *     try:
 *         if c:
 *             try: p = a                  (KeyError's first use is in
 *             except KeyError: raise E     the handler, before those of
 *             else: q = p.path             the finally body's copies:
 *     finally:                             the else part's `path` comes
 *         try: del b                       before it in co_names)
 *         except KeyError: pass
 *
 * An entry used there too still tells the order; one used in code before
 * (or in a copy the compiler placed out of its order there) does not. */
static int compiled_after_try(rec *r, int32_t h, uint32_t end, uint32_t i) {
    if (r->normal_reach[r->cfg.block_of[i]] == 1)
        return i >= end;
    return i > blk(r, h)->start;
}

/* rest_stmt_of(rest, i, end) for i at or past the instruction it was
 * last asked of (*stmt: the statement found then, 0 at first): the
 * order users ascend, and a search by halves for each was a tenth of the
 * time of a body of tries. */
static int32_t next_rest_stmt(const upy_ptr_vec *rest, uint32_t i, uint32_t end,
                              uint32_t *stmt) {
    if (i < ((upy_stmt *)rest->items[0])->start || i >= end)
        return OWN_ELSEWHERE;
    while (*stmt + 1 < rest->len &&
           ((upy_stmt *)rest->items[*stmt + 1])->start <= i)
        ++*stmt;
    return (int32_t)*stmt;
}

/* Notes the use of an entry of table by instruction i (ascending: *stmt
 * is next_rest_stmt's place). */
static void note_use(rec *r, int32_t h, const upy_ptr_vec *rest, uint32_t end,
                     int table, owner_walks *w, entry_uses *u, uint32_t i,
                     uint32_t *stmt) {
    int32_t en = r->table_entries[table][i],
            own = owner_of(r, h, rest, end, w, i,
                           next_rest_stmt(rest, i, end, stmt));
    if (own == OWN_HANDLER) {
        if (!u->handler[en])
            u->handler[en] = i;
    } else if (own == OWN_AFTER ||
               (own == OWN_ELSEWHERE && compiled_after_try(r, h, end, i)))
        u->after[en] = 1;
    else if (own == OWN_ELSEWHERE)
        u->elsewhere[en] = 1;
    else if (u->first[en] < 0 || own < u->first[en])
        u->first[en] = own;
}

/* The first of the order users of table at or after instruction i. */
static uint32_t first_user_from(const rec *r, int table, uint32_t i) {
    uint32_t lo = 0, hi = r->n_order_users[table];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->order_users[table][mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Where the handler is laid out after the rest (h past end, as 3.12+
 * puts every handler after the code), a plain use before the rest (see
 * index_plain_users) is other code, compiled before the try: the
 * entry is used elsewhere, without reading each such use again for each
 * try of a body (the tries before it). */
static void find_uses(rec *r, int32_t h, const upy_ptr_vec *rest, uint32_t end,
                      int table, owner_walks *w, entry_uses *u) {
    size_t e;
    uint32_t k, stmt = 0, from = 0,
                rest_at = ((upy_stmt *)rest->items[0])->start;
    int plain_before = rest_at <= end && end <= blk(r, h)->start;
    for (e = 0; e < u->n; e++) {
        u->first[e] = -1;
        u->elsewhere[e] = plain_before && u->plain_first[e] < rest_at;
    }
    memset(u->handler, 0, u->n * sizeof *u->handler);
    memset(u->after, 0, u->n);
    if (plain_before) {
        for (k = 0; k < u->n_unplain && u->unplain[k] < rest_at; k++)
            note_use(r, h, rest, end, table, w, u, u->unplain[k], &stmt);
        from = first_user_from(r, table, rest_at);
    }
    for (k = from; k < r->n_order_users[table]; k++)
        note_use(r, h, rest, end, table, w, u, r->order_users[table][k], &stmt);
}

/* What else_by_order judges by: r->order_evidence, its arrays made once
 * per code object and filled again for each try (a body of k tries asked
 * for k sets of them: the allocation and clearing of a chunk per try was a
 * tenth of the time). */
struct order_evidence {
    entry_uses names, consts;
    owner_walks walks;
};

static int entry_uses_of(rec *r, int table, entry_uses *u) {
    u->n = upy_seq_len(table ? r->code->consts : r->code->names);
    u->first =
        upy_arena_array_uncleared(r->scratch, u->n + 1, sizeof *u->first);
    u->handler =
        upy_arena_array_uncleared(r->scratch, u->n + 1, sizeof *u->handler);
    u->after = upy_arena_array_uncleared(r->scratch, u->n + 1, 1);
    u->elsewhere = upy_arena_array_uncleared(r->scratch, u->n + 1, 1);
    return u->first && u->handler && u->after && u->elsewhere ? SUCCESS : ERROR;
}

/* For each block x, the latest start of a handler entry that dominates x
 * (or is x), in handler_at[x], and of a block above the lowest such
 * entry in the dominator tree, in above_handler[x] (-1: none).  An
 * instruction i of x is plain when neither is past x's start: then no
 * try whose handler h and rest [R, end) are laid out after it (i < R <=
 * end <= h's start) finds it in h (h would dominate x from after it) or
 * in the handler of a try of the rest (owner_of's walk up from x meets
 * code of the rest only above the lowest handler entry: from R on), so
 * owner_of calls it other code, and compiled_after_try code before the
 * try (i < end, i < h's start). */
static int handler_ancestry(const rec *r, int32_t *handler_at,
                            int32_t *above_handler) {
    uint32_t n = r->cfg.count, x, len;
    int32_t *latest =
                upy_arena_array_uncleared(r->scratch, n + 1, sizeof *latest),
            *chain =
                upy_arena_array_uncleared(r->scratch, n + 1, sizeof *chain);
    if (!latest || !chain)
        return ERROR;
    /* (latest[x]: the latest start of x and the blocks above it;
     * INT32_MIN until found.) */
    for (x = 0; x < n; x++)
        latest[x] = INT32_MIN;
    for (x = 0; x < n; x++) {
        int32_t y = (int32_t)x;
        len = 0;
        while (y != UPY_NO_BLOCK && latest[y] == INT32_MIN) {
            chain[len++] = y;
            y = blk(r, y)->idom;
        }
        while (len) {
            int32_t c = chain[--len], p = blk(r, c)->idom,
                    start = (int32_t)blk(r, c)->start;
            int handler = blk(r, c)->is_handler;
            int32_t up = p == UPY_NO_BLOCK ? -1 : latest[p];
            latest[c] = start > up ? start : up;
            handler_at[c] = p == UPY_NO_BLOCK ? -1 : handler_at[p];
            if (handler && start > handler_at[c])
                handler_at[c] = start;
            above_handler[c] =
                handler ? up : (p == UPY_NO_BLOCK ? -1 : above_handler[p]);
        }
    }
    return SUCCESS;
}

/* The plain uses (handler_ancestry) of the entries of table: the first of
 * each entry, and the other users apart. */
static int index_plain_users(rec *r, int table, entry_uses *u,
                             const int32_t *handler_at,
                             const int32_t *above_handler) {
    uint32_t k, n = r->n_order_users[table];
    size_t e;
    u->plain_first =
        upy_arena_array_uncleared(r->scratch, u->n + 1, sizeof *u->plain_first);
    u->unplain =
        upy_arena_array_uncleared(r->scratch, n + 1, sizeof *u->unplain);
    if (!u->plain_first || !u->unplain)
        return ERROR;
    for (e = 0; e < u->n; e++)
        u->plain_first[e] = UINT32_MAX;
    u->n_unplain = 0;
    for (k = 0; k < n; k++) {
        uint32_t i = r->order_users[table][k];
        int32_t x = r->cfg.block_of[i], en = r->table_entries[table][i];
        if (handler_at[x] > (int32_t)blk(r, x)->start ||
            above_handler[x] > (int32_t)blk(r, x)->start)
            u->unplain[u->n_unplain++] = i;
        else if (u->plain_first[en] == UINT32_MAX)
            u->plain_first[en] = i;
    }
    return SUCCESS;
}

static order_evidence *order_tables(rec *r) {
    order_evidence *ev = r->order_evidence;
    owner_walks *w;
    uint32_t n = r->cfg.count;
    if (ev)
        return ev;
    ev = upy_arena_alloc(r->scratch, sizeof *ev);
    if (!ev || entry_uses_of(r, 0, &ev->names) ||
        entry_uses_of(r, 1, &ev->consts) ||
        (!r->order_users[0] && index_order_users(r)))
        return NULL;
    w = &ev->walks;
    w->warm = upy_arena_array_uncleared(r->scratch, n + 1, sizeof *w->warm);
    w->cold = upy_arena_array_uncleared(r->scratch, n + 1, sizeof *w->cold);
    w->path = upy_arena_array_uncleared(r->scratch, n + 1, sizeof *w->path);
    w->warm_try = upy_arena_array(r->scratch, n + 1, sizeof *w->warm_try);
    w->cold_try = upy_arena_array(r->scratch, n + 1, sizeof *w->cold_try);
    w->try_no = 0;
    /* (The walks' arrays hold handler_ancestry's answers until a try
     * needs them.) */
    if (!w->warm || !w->cold || !w->path || !w->warm_try || !w->cold_try ||
        handler_ancestry(r, w->warm, w->cold) ||
        index_plain_users(r, 0, &ev->names, w->warm, w->cold) ||
        index_plain_users(r, 1, &ev->consts, w->warm, w->cold))
        return NULL;
    r->order_evidence = ev;
    return ev;
}

/* Whether, with k statements of the rest in the else part, the order the
 * compiler meets the entries in -- body, rest[0..k), handler, rest[k..),
 * the code after the try only the handler leads to -- agrees with their
 * order in the table.  Only entries used nowhere but there tell anything;
 * in the handler, its code is in the order of its clauses. */
static int agrees(const entry_uses *u, uint32_t k) {
    uint32_t last = 0, last_in = 0, at, in;
    size_t e;
    for (e = 0; e < u->n; e++) {
        if (u->elsewhere[e] ||
            (u->first[e] < 0 && !u->handler[e] && !u->after[e]))
            continue;
        in = 0;
        if (u->first[e] >= 0 && (uint32_t)u->first[e] < k) {
            at = (uint32_t)u->first[e]; /* in the else part */
        } else if (u->handler[e]) {
            at = k;
            in = u->handler[e];
        } else if (u->first[e] >= 0) {
            at = (uint32_t)u->first[e] + 1; /* after the handler */
        } else {
            at = UINT32_MAX; /* after the try */
        }
        if (at < last || (at == last && in < last_in))
            return 0;
        last = at;
        last_in = in;
    }
    return 1;
}

/* Whether a handler returns None where None entered co_consts after a
 * constant only the rest uses (none of these tables' evidence: the
 * compiler copies the implicit `return None`).  A `return` written in the
 * handler enters None before the code after the try; one that falls off
 * the end of the code gets a copy of the implicit return, whose None
 * comes later, after all the rest's: the whole rest is then the else
 * part. */
static int handler_falls_off_end(rec *r, int32_t h, const entry_uses *consts) {
    const upy_object *tuple = r->code->consts;
    size_t none = 0, e;
    uint32_t k;
    while (none < consts->n && upy_seq_item(tuple, none)->kind != UPY_NONE)
        none++;
    /* (find_uses indexed the returns of None.  One after the loop the
     * handler breaks out of is the implicit one too: owner_of's OWN_HANDLER
     * or OWN_AFTER, the code h dominates, asked directly since each try of
     * a body meets the returns of the handlers before it first.) */
    for (k = 0; k < r->n_order_users[2]; k++)
        if (upy_cfg_dominates(&r->cfg, h,
                              r->cfg.block_of[r->order_users[2][k]]))
            break;
    if (k == r->n_order_users[2])
        return 0;
    /* A module or class body has no return statement: the handler's is a
     * copy of the implicit one at the end of the code, past the rest, where
     * the clause's way out (POP_EXCEPT, the name's cleanup) goes straight
     * to it (not where a copy of the rest's code comes first). */
    if ((r->is_module || r->is_class_body) && r->order_users[2][k] > 0) {
        uint8_t before = ins(r, r->order_users[2][k] - 1)->op;
        if (before == N_POP_EXCEPT || before == N_DELETE)
            return 1;
    }
    /* (A return written in the handler of `try` / `except` / `else: C`
     * + D enters None between C's constants and D's.) */
    for (e = 0; e < consts->n; e++)
        if (!consts->elsewhere[e] && !consts->handler[e] &&
            consts->first[e] >= 0 && e > none)
            return 0;
    for (e = 0; e < none && e < consts->n; e++)
        if (!consts->elsewhere[e] && !consts->handler[e] &&
            consts->first[e] >= 0)
            return 1;
    return 0;
}

/* Fills r->jumps_to: the unconditional jumps by target, found once per
 * code object (body_jumps_on_under asked every instruction for each try
 * of a body). */
static int index_jumps(rec *r) {
    uint32_t i, n = r->ncode.count, *start, *fill, *to;
    start = upy_arena_array(r->scratch, n + 2, sizeof *start);
    fill = upy_arena_array_uncleared(r->scratch, n + 1, sizeof *fill);
    if (!start || !fill)
        return rec_oom(r);
    for (i = 0; i < n; i++)
        if (ins(r, i)->op == N_JUMP && ins(r, i)->target >= 0 &&
            (uint32_t)ins(r, i)->target < n)
            start[ins(r, i)->target + 1]++;
    for (i = 0; i < n; i++)
        start[i + 1] += start[i];
    memcpy(fill, start, n * sizeof *fill);
    to = upy_arena_array_uncleared(r->scratch, start[n] + 1, sizeof *to);
    if (!to)
        return rec_oom(r);
    for (i = 0; i < n; i++)
        if (ins(r, i)->op == N_JUMP && ins(r, i)->target >= 0 &&
            (uint32_t)ins(r, i)->target < n)
            to[fill[ins(r, i)->target]++] = i;
    r->jumps_to_start = start;
    r->jumps_to = to;
    return SUCCESS;
}

/* Whether the body of the try with handler h jumps to block exit, where
 * it goes on, under h.  3.13 replaces a jump to a block without a line
 * that ends in a jump (as the try's way out after its body) by a copy of
 * that block, with the block's handler: a jump that leaves the body under
 * h went to code written inside the try statement, the else part (or a
 * break or continue ending the body, which compiles the same). */
static int body_jumps_on_under(rec *r, int32_t h, int32_t exit) {
    uint32_t k, to;
    if (!r->ncode.layout->copies_jump_blocks || exit == UPY_NO_BLOCK)
        return 0;
    to = blk(r, exit)->start;
    if (ins(r, to)->handler == (int32_t)blk(r, h)->start)
        return 0;
    if (!r->jumps_to && index_jumps(r))
        return 0;
    for (k = r->jumps_to_start[to]; k < r->jumps_to_start[to + 1]; k++)
        if (ins(r, r->jumps_to[k])->handler == (int32_t)blk(r, h)->start)
            return 1;
    return 0;
}

/* The handler's start (kind 0) or the throw_offset (1) of instruction i,
 * UINT32_MAX where it has none. */
static uint32_t order_key(const rec *r, int kind, uint32_t i) {
    const upy_nin *in = ins(r, i);
    if (kind)
        return in->throw_offset ? in->throw_offset : UINT32_MAX;
    return in->handler >= 0 ? (uint32_t)in->handler : UINT32_MAX;
}

/* Fills r->key_tree[kind], once per code object (each try of a body
 * scanned the rest after it back from its end, and a chain of ever
 * smaller keys back from there still passed every try of the rest: 3.12
 * lays the handlers out at the end, in order: 5 % of a body of 554
 * tries): a tree of the least key (order_key) under each node, leaves at
 * [r->key_leaves, 2 * r->key_leaves).  NULL for a kind no instruction has
 * a key of (no CLEANUP_THROW: most code). */
static int index_key_trees(rec *r) {
    uint32_t n = r->ncode.count, leaves = 1, i, *tree;
    int kind;
    while (leaves < n) {
        if (leaves > UINT32_MAX / 4)
            return rec_oom(r);
        leaves *= 2;
    }
    r->key_leaves = leaves;
    for (kind = 0; kind < 2; kind++) {
        for (i = 0; kind && i < n && order_key(r, kind, i) == UINT32_MAX; i++)
            ;
        if (kind && i == n)
            continue;
        tree = upy_arena_array_uncleared(r->scratch, 2 * (size_t)leaves,
                                         sizeof *tree);
        if (!tree)
            return rec_oom(r);
        for (i = 0; i < leaves; i++)
            tree[leaves + i] = i < n ? order_key(r, kind, i) : UINT32_MAX;
        for (i = leaves - 1; i > 0; i--)
            tree[i] =
                tree[2 * i] < tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
        r->key_tree[kind] = tree;
    }
    return 0;
}

/* The last leaf of [from, end) under node p of tree, which covers
 * [lo, lo + width), whose key is below bound, or UINT32_MAX.  A node
 * whose least key is not below bound is not entered, and one inside the
 * range whose least key is finds its leaf on one path down: O(log n)
 * nodes a call. */
static uint32_t last_below_under(const uint32_t *tree, uint32_t p, uint32_t lo,
                                 uint32_t width, uint32_t from, uint32_t end,
                                 uint32_t bound) {
    uint32_t found, half = width / 2;
    if (lo >= end || lo + width <= from || tree[p] >= bound)
        return UINT32_MAX;
    if (width == 1)
        return lo;
    found =
        last_below_under(tree, 2 * p + 1, lo + half, half, from, end, bound);
    return found != UINT32_MAX
               ? found
               : last_below_under(tree, 2 * p, lo, half, from, end, bound);
}

/* The last instruction of [from, end) whose key (order_key) is below
 * bound, or UINT32_MAX. */
static uint32_t last_key_below(const rec *r, int kind, uint32_t from,
                               uint32_t end, uint32_t bound) {
    if (!r->key_tree[kind] || from >= end)
        return UINT32_MAX;
    return last_below_under(r->key_tree[kind], 1, 0, r->key_leaves, from, end,
                            bound);
}

/* Fills r->by_dom_enter, once per code object. */
static int index_dom_walk(rec *r) {
    uint32_t n = 2 * r->cfg.count + 1, b;
    int32_t *by = upy_arena_array_uncleared(r->scratch, n, sizeof *by);
    if (!by)
        return rec_oom(r);
    for (b = 0; b < n; b++)
        by[b] = UPY_NO_BLOCK;
    for (b = 0; b < r->cfg.count; b++)
        if (blk(r, b)->dom_enter < n)
            by[blk(r, b)->dom_enter] = (int32_t)b;
    r->by_dom_enter = by;
    return SUCCESS;
}

/* Whether code that handler h dominates uses an entry of co_names or
 * co_consts, or loads the None of a return: found from the blocks h
 * dominates, not from every order user of the code (each try of a body
 * of tries read all those of the rest after it: quadratic).  When none
 * does, no entry is placed by the handler (find_uses notes OWN_HANDLER
 * only in code h dominates), so agrees gives one answer for every count
 * of else statements, and handler_falls_off_end finds no return of
 * None in it: else_by_order's answer is k_min.  -1 when out of memory. */
static int handler_has_order_users(rec *r, int32_t h) {
    const upy_block *hb = blk(r, h);
    uint32_t clock;
    int table;
    if (!r->order_users[0] && index_order_users(r))
        return ERROR;
    if (!r->by_dom_enter && index_dom_walk(r))
        return ERROR;
    for (clock = hb->dom_enter; clock <= hb->dom_leave; clock++) {
        int32_t x = r->by_dom_enter[clock];
        if (x == UPY_NO_BLOCK)
            continue;
        for (table = 0; table < 3; table++) {
            uint32_t k = first_user_from(r, table, blk(r, x)->start);
            if (k < r->n_order_users[table] &&
                r->order_users[table][k] < blk(r, x)->end)
                return 1;
        }
    }
    return 0;
}

/* How many statements of `rest` are the else part (see above): as few as
 * the evidence of both tables, of the layout of handlers and of the jumps
 * of the body to exit, where the rest starts, allows; when the tables
 * contradict, what the layout says.  brk: the block after the loop
 * around the try, or none. */
static uint32_t else_by_order(rec *r, int32_t h, int32_t exit, int32_t brk,
                              const upy_ptr_vec *rest, uint32_t end) {
    /* (In the code object's scratch arena, not in this frame, which may
     * be inlined into the recursion of tries in tries: the C stack bounds
     * how many fit.) */
    order_evidence *ev;
    uint32_t j, k, k_min = 0, from, last, thrown;
    int uses;
    if (!rest->len)
        return 0;
    if (body_jumps_on_under(r, h, exit))
        k_min = 1;
    for (j = 1; j < rest->len; j++)
        if (((upy_stmt *)rest->items[j])->start <
            ((upy_stmt *)rest->items[j - 1])->start)
            return 0;
    /* (A loop no code leaves but the handler's break to a copy of the
     * return after it ends where the handler starts: no code after it.) */
    if (brk != UPY_NO_BLOCK && blk(r, brk)->is_handler)
        brk = UPY_NO_BLOCK;
    /* The handlers of a try in the else part are laid out before h (the
     * compiler makes the else part before the handlers); those of one
     * after the try, after h.  So is the CLEANUP_THROW of an await or
     * yield from there (3.12+, see upy_nin.throw_offset).  (The last such
     * instruction is in the latest statement: last_key_below.) */
    if (!r->key_leaves && index_key_trees(r))
        return 0;
    from = ((upy_stmt *)rest->items[0])->start;
    last = last_key_below(r, 0, from, end, blk(r, h)->start);
    thrown = last_key_below(r, 1, from, end, ins(r, blk(r, h)->start)->offset);
    if (thrown != UINT32_MAX && (last == UINT32_MAX || thrown > last))
        last = thrown;
    if (last != UINT32_MAX) {
        int32_t own = rest_stmt_of(rest, last, end);
        if (own >= 0 && (uint32_t)own >= k_min)
            k_min = (uint32_t)own + 1;
    }
    uses = handler_has_order_users(r, h);
    if (uses < 0)
        return 0;
    if (!uses)
        return k_min;
    ev = order_tables(r);
    if (!ev) {
        rec_oom(r);
        return 0;
    }
    ev->walks.brk = brk;
    ev->walks.try_no++;
    find_uses(r, h, rest, end, 0, &ev->walks, &ev->names);
    find_uses(r, h, rest, end, 1, &ev->walks, &ev->consts);
    if (handler_falls_off_end(r, h, &ev->consts) &&
        agrees(&ev->names, rest->len) && agrees(&ev->consts, rest->len))
        return rest->len;
    for (k = k_min; k <= rest->len; k++)
        if (agrees(&ev->names, k) && agrees(&ev->consts, k))
            return k;
    return k_min;
}

/* When the copy is of the code after the loop around the try (rg), the
 * clauses that end in it end in a break: 1 when so, 0 when not, -1 on
 * error.  Where a `while True:` has no code after it, the copy is the
 * only instance of that code (is_moved_break): it goes after the loop. */
static int is_moved_break(const rec *r, const region *rg, uint32_t at,
                          uint32_t n);

static int break_copy(rec *r, const region *rg, upy_stmt *s,
                      const clause_copy *cc) {
    upy_stmt *brk;
    int moved;
    if (rg->brk == UPY_NO_BLOCK)
        return 0;
    moved = !copy_of_block(r, rg->brk, cc);
    if (moved && !is_moved_break(r, rg, cc->at, cc->n))
        return 0;
    brk = rec_stmt(r, UPY_S_BREAK);
    if (!brk)
        return ERROR;
    rec_set_start(r, brk, cc->at);
    if (moved)
        *rg->moved_exit = (rec_resume){r->cfg.block_of[cc->at], cc->at};
    strip_clause_copies(r, s, cc, brk);
    return 1;
}

/* Whether the n instructions at `at` are the code after a `while True:`
 * that has none after it (region.brk_moved), moved in place of a break:
 * the break's line left on the POP_EXCEPT before it (at - 1), and its
 * lines after all the loop's but those of the same code moved in place of
 * other breaks (the break's line left as a NOP before it, or a POP_EXCEPT
 * before it).  Code after the try, the loop's last statement, has its
 * lines after all the loop's too, but also an instance without such a
 * mark, where the try's body goes on. */
static int is_moved_break(const rec *r, const region *rg, uint32_t at,
                          uint32_t n) {
    int32_t line = ins(r, at)->line, b, last = rg->loop;
    uint32_t i, end, pop = at;
    if (!rg->brk_moved || rg->loop == UPY_NO_BLOCK || line < 0)
        return 0;
    while (pop > 0 && ins(r, pop - 1)->op != N_POP_EXCEPT && at - pop < 4)
        pop--;
    if (!pop || ins(r, pop - 1)->line < 0 || ins(r, pop - 1)->line >= line)
        return 0;
    for (i = at; i < at + n; i++)
        if (ins(r, i)->line < line)
            return 0;
    for (b = rg->loop; b < (int32_t)r->cfg.count; b++)
        if (blk(r, b)->jump == rg->loop)
            last = b;
    end = blk(r, last)->end;
    for (i = blk(r, rg->loop)->start; i < end; i++) {
        /* (This copy, or the same code moved in place of another break,
         * with its mark.) */
        if (i == at ||
            (i + n <= r->ncode.count && rec_same_code(r, i, at, n) && i > 0 &&
             ((ins(r, i)->lead_line >= 0 && ins(r, i)->lead_line < line) ||
              ins(r, i - 1)->op == N_POP_EXCEPT)))
            i += n - 1;
        else if (ins(r, i)->line >= line)
            return 0;
    }
    return 1;
}

/* Turns the copies of the code after the loop around the try (rg) that
 * end the branches of if statements in clause L into breaks (a copy that
 * ends L itself is a clause copy, see below, which finds breaks too): a
 * break in a clause is its POP_EXCEPT and a jump there, which the
 * compiler replaces by a copy of that small exit block, whether the
 * clause goes on after the if or not.  A clause that always leaves does
 * not end in one (its last statement a `return None`), so no clause copy
 * finds them.  -1 on error. */
static int strip_break_copies_in(rec *r, const region *rg, upy_stmt_list *L,
                                 int in_if) {
    uint32_t at, n, k;
    for (k = 0; k < L->len; k++) {
        upy_stmt *x = L->items[k];
        if (x->kind == UPY_S_IF &&
            (strip_break_copies_in(r, rg, &x->u.if_.body, 1) ||
             strip_break_copies_in(r, rg, &x->u.if_.orelse, 1)))
            return ERROR;
    }
    k = copy_in_clause(r, L, &at, &n);
    if (in_if && k < L->len &&
        ((rec_same_code(r, blk(r, rg->brk)->start, at, n) &&
          blk(r, rg->brk)->start != at) ||
         is_moved_break(r, rg, at, n))) {
        upy_stmt *brk = rec_stmt(r, UPY_S_BREAK);
        if (!brk)
            return ERROR;
        rec_set_start(r, brk, at);
        if (!rec_same_code(r, blk(r, rg->brk)->start, at, n))
            *rg->moved_exit = (rec_resume){r->cfg.block_of[at], at};
        L->items[k] = brk;
        L->len = k + 1;
    }
    return SUCCESS;
}

/* strip_break_copies_in for each clause of try s. */
static int strip_break_copies(rec *r, const region *rg, upy_stmt *s) {
    uint32_t h;
    if (rg->brk == UPY_NO_BLOCK || rg->brk >= (int32_t)r->cfg.count)
        return SUCCESS;
    for (h = 0; h < s->u.try_.n_handlers; h++)
        RETURN_IF_ERROR(
            strip_break_copies_in(r, rg, &s->u.try_.handlers[h].body, 0));
    return SUCCESS;
}

/* Takes the copies of the n instructions at `code` off the ends of the
 * branches of if statements that end statements L, whose way on runs
 * into that code: 3.13 copies a small block into the branch that falls
 * into it, and the other branches jump to the original. */
static void strip_tail_copies(const rec *r, upy_stmt_list *L, uint32_t code,
                              uint32_t n) {
    uint32_t at, m, k = copy_in_clause(r, L, &at, &m);
    upy_stmt *last;
    if (k < L->len) {
        if (m == n && at != code && rec_same_code(r, at, code, n))
            L->len = k;
        return;
    }
    last = L->len ? L->items[L->len - 1] : NULL;
    if (last && last->kind == UPY_S_IF) {
        strip_tail_copies(r, &last->u.if_.body, code, n);
        strip_tail_copies(r, &last->u.if_.orelse, code, n);
    }
}

/* In each clause of try s that ends in a clause copy (its POP_EXCEPT and
 * the code after the try) after an if statement, the copies of that code
 * ending the if's branches: those branches ran on into it. */
static void strip_branch_copies(const rec *r, upy_stmt *s) {
    uint32_t h, at, n, k;
    for (h = 0; h < s->u.try_.n_handlers; h++) {
        upy_stmt_list *L = &s->u.try_.handlers[h].body;
        upy_stmt *x;
        k = copy_in_clause(r, L, &at, &n);
        if (k == L->len || k == 0 || L->items[k - 1]->kind != UPY_S_IF)
            continue;
        x = L->items[k - 1];
        strip_tail_copies(r, &x->u.if_.body, at, n);
        strip_tail_copies(r, &x->u.if_.orelse, at, n);
    }
}

/* Walks the rest of region rg from exit (where the try body goes on) into
 * after; *follow is where that rest leaves the region. */
static int walk_rest(rec *r, const region *rg, int32_t exit, int32_t *follow,
                     upy_ptr_vec *after) {
    region rest_rg = *rg;
    rest_rg.start = exit;
    return rec_region(r, exit, &rest_rg, after, follow);
}

/* Moves the first n_else statements of after to the else part. */
static int move_to_else(rec *r, upy_ptr_vec *after, uint32_t n_else,
                        upy_ptr_vec *orelse) {
    uint32_t k;
    for (k = 0; k < n_else; k++)
        if (upy_vec_push(r->arena, orelse, after->items[k]))
            return rec_oom(r);
    if (n_else) { /* (items is NULL when the rest is empty) */
        /* (The room left shrinks too: a push into after, the copy of the
         * code after the try put back, wrote past its array when the
         * else part took all of it and the array was full.) */
        after->items += n_else;
        after->len -= n_else;
        after->cap -= n_else;
    }
    return SUCCESS;
}

/* Whether the rest of region rg after a try goes on at block follow, past
 * the region's end, to the code that the clauses end in a copy of (cc):
 * then the clauses go there straight, the rest runs only after the body,
 * and it is the else part.  So in a try nested in another's body, where
 * the code after the outer try is a small exit block
 * (flowgraph.c inline_small_exit_blocks copies it into the inner
 * clause's jump):
 *
 *     try:                       link(); remove(); LOAD uniq; RETURN
 *         try: link()            h: ... rename(); POP_EXCEPT;
 *         except E: rename()        LOAD uniq; RETURN   (the copy)
 *         else: remove()
 *     except OSError: ...
 *     return uniq
 *
 * (A loop's exit or header is a break or continue: break_copy.) */
static int rest_goes_on_to_copy(const rec *r, const region *rg, int32_t follow,
                                const clause_copy *cc) {
    return follow >= rg->end && follow != rg->brk && follow != rg->cont &&
           follow != rg->loop && !rg->falls_to_loop &&
           copy_of_block(r, follow, cc);
}

/* Whether block b is a clause's way out ([the name's cleanup;] return
 * None after its POP_EXCEPT) that several ways reach, on the line of one
 * of them: the implicit return at the end of the code, which has no line
 * (3.10 compile.c extend_block inlines it into the way out), whose copies
 * for each jump (duplicate_exits_without_lineno) exitjoin.c joined back.
 * A `return` written in the clause has a line of its own. */
static int falls_off_end_of_code(const rec *r, int32_t b) {
    const upy_block *bb = blk(r, b);
    uint32_t e = bb->end - 1;
    return bb->end - bb->start >= 3 && ins(r, e)->op == N_RETURN &&
           upy_nin_loads_none(ins(r, e - 1)) &&
           (ins(r, e - 2)->op == N_POP_EXCEPT ||
            ins(r, e - 2)->op == N_DELETE) &&
           bb->npreds > 1 && rec_has_line_of_a_pred(r, b, e);
}

/* Whether a clause of the try whose handlers are the blocks [h, past)
 * ends the finally body that region rg is in early (a copy of the body's
 * final RERAISE, rec_ends_finally_early, or a jump to it, 3.8 / 3.9's
 * layout): the clause falls off the try
 * there, so the try's join is the end of that body, and the rest of rg
 * from past, where the body jumps over the handlers and which the clause
 * skips, is the try's else part.  3.8-3.10
 * lay the else part out after the handlers (compile.c
 * compiler_try_except), where no table of names tells it from code after
 * the try.  Example (3.10, the handler's copy of `finally:` / `try:
 * d.pop()` / `except KeyError: pass` / `else: rr()`):
 *
 *         d.pop(); JUMP L                    <- the body
 *     h:  ...KeyError...; POP_EXCEPT; RERAISE 0   <- falls off: the end
 *     L:  rr(); RERAISE 0                    <- the else part, then the end
 *
 * Read as code after the try, rr() ran after a KeyError too.  (Not in a
 * loop of the finally body, whose break to the body's end is such a copy
 * too.)  Outside a finally body, a clause that falls off the end of the
 * code (falls_off_end_of_code) does so: 3.10, `try: f = u()` / `except E
 * as e: if a: x = 1` / `elif b and c: y = 1` / `else: g(f)` lays out
 * g(f) after the clause, whose way out ends in the implicit return; read
 * as code after the try, the clause's way out read as a `return` written
 * there, which compiles with no copies. */
static int clause_skips_rest(const rec *r, int32_t h, int32_t past,
                             const region *rg) {
    int32_t b;
    if (rg->brk != UPY_NO_BLOCK || past <= h || past >= rg->end)
        return 0;
    for (b = h; b < past; b++) {
        int32_t t = blk(r, b)->jump;
        if (!rg->finally_end ? falls_off_end_of_code(r, b)
                             : rec_ends_finally_early(r, blk(r, b)->end - 1,
                                                      rg->finally_end) ||
                                   (t != UPY_NO_BLOCK &&
                                    blk(r, t)->start == rg->finally_end))
            return 1;
    }
    return 0;
}

/* The rest of region rg from exit, where the try body goes on, when no
 * handler goes on after the try: a first part of it may be the else part.
 * When the clauses end in a copy of the code after the try (cc), that
 * code is the last statement of the rest, or the rest ends in a return or
 * raise: then the rest is the else part and the copy is the code after
 * the try.  Else the order of co_names and co_consts tells (see
 * else_by_order).  *follow gets where the rest goes on. */
static int rest_after_try(rec *r, int32_t h, const region *rg, int32_t exit,
                          upy_stmt *s, const clause_copy *cc, int32_t *follow,
                          upy_ptr_vec *orelse, upy_ptr_vec *after) {
    uint32_t end, k, n_else;
    int32_t b2;
    int copy_after = 1;
    RETURN_IF_ERROR(walk_rest(r, rg, exit, follow, after));
    if (cc) {
        /* The rest ends in the copy's statements (as many), or does not
         * reach the code after the try. */
        int ends_in_copy =
            after->len >= cc->tail.len &&
            rec_same_code(
                r, ((upy_stmt *)after->items[after->len - cc->tail.len])->start,
                cc->at, cc->n);
        if (ends_in_copy) {
            n_else = after->len - cc->tail.len;
        } else if (*follow == UPY_NO_BLOCK) {
            n_else = after->len;
        } else if (rest_goes_on_to_copy(r, rg, *follow, cc)) {
            n_else = after->len;
            copy_after = 0;
        } else {
            if (break_copy(r, rg, s, cc) < 0)
                return ERROR;
            cc = NULL;
        }
    }
    if (!cc) {
        b2 = rec_first_handler_from(r, exit, rg->end);
        if (b2 < 0)
            return ERROR;
        end = b2 < (int32_t)r->cfg.count ? blk(r, b2)->start : r->ncode.count;
        n_else = else_by_order(r, h, exit, rg->brk, after, end);
    }
    RETURN_IF_ERROR(move_to_else(r, after, n_else, orelse));
    if (cc) {
        if (!after->len && copy_after)
            for (k = 0; k < cc->tail.len; k++)
                if (upy_vec_push(r->arena, after, cc->tail.items[k]))
                    return rec_oom(r);
        strip_clause_copies(r, s, cc, NULL);
    }
    return SUCCESS;
}

/* Whether block `exit`, where the body of a try at the end of region rg
 * goes on, is a copy of the code after rg that ends the finally body rg
 * is in (its RERAISE 0): the compiler copies that small exit block into
 * the body's jump over the handlers (inline_small_exit_blocks), as into
 * the clauses' ways out.  Example (3.12, in the finally's handler):
 * `if c:` / `try: u()` / `except E: pass` + `d = False`: the body goes on
 * to `d = False; RERAISE 0`, a copy of the code where `if c` jumps when
 * false. */
static int exit_copies_finally_rest(const rec *r, const region *rg,
                                    int32_t exit) {
    const upy_block *eb, *fb;
    uint32_t n;
    if (!rg->finally_end || exit == UPY_NO_BLOCK || exit == rg->follow ||
        rg->follow == UPY_NO_BLOCK || rg->follow >= (int32_t)r->cfg.count)
        return 0;
    eb = blk(r, exit);
    fb = blk(r, rg->follow);
    n = eb->end - eb->start;
    return ends_finally_body(r, eb->end - 1) && fb->end - fb->start == n &&
           eb->handler == fb->handler &&
           rec_same_code(r, eb->start, fb->start, n) &&
           rec_same_lines(r, eb->start, fb->start, n);
}

/* Where the code after the try is when the clauses of try s end in a copy
 * of it (cc), the body going on at exit: 1 when placed (the copies taken
 * out of the clauses; *follow, *orelse and *after set), 0 when the copy
 * says nothing (the clauses keep it), -1 on error. */
static int clause_copy_exit(rec *r, int32_t h, const region *rg, upy_stmt *s,
                            const clause_copy *cc, int32_t exit,
                            uint32_t depth_after, int32_t *follow,
                            upy_ptr_vec *orelse, upy_ptr_vec *after) {
    uint32_t k;
    if (*follow != UPY_NO_BLOCK) {
        /* Another clause goes on to the code after the try; the copy in
         * this one is of that code, or of the code after the loop around
         * the try (a break: `except StopIteration: res.append('STOP')` /
         * `break` beside `except Exception as ex: ...`, test_asyncgen
         * sync_iterate). */
        if (copy_of_block(r, *follow, cc))
            strip_clause_copies(r, s, cc, NULL);
        else if (break_copy(r, rg, s, cc) < 0)
            return ERROR;
        return 0;
    }
    if (exit == UPY_NO_BLOCK) {
        /* The body does not go on: the copy is the only code after the
         * try. */
        for (k = 0; k < cc->tail.len; k++)
            if (upy_vec_push(r->arena, after, cc->tail.items[k]))
                return rec_oom(r);
        strip_clause_copies(r, s, cc, NULL);
        return 1;
    }
    if (exit_copies_finally_rest(r, rg, exit) && copy_of_block(r, exit, cc)) {
        /* The body goes on to the code after the region, in a copy. */
        rec_skip_range(r, blk(r, exit)->start,
                       blk(r, exit)->end - blk(r, exit)->start);
        r->done[exit] = 1;
        strip_clause_copies(r, s, cc, NULL);
        *follow = rg->follow;
        return 1;
    }
    if (exit < rg->start || exit >= rg->end || exit == rg->cont ||
        exit == rg->loop) {
        /* The body leaves the region: the code after the try is where it
         * goes, or the copy is of the code after the loop (a break). */
        int st = 1;
        if (copy_of_block(r, exit, cc))
            strip_clause_copies(r, s, cc, NULL);
        else if ((st = break_copy(r, rg, s, cc)) <= 0)
            return st;
        *follow = exit;
        return 1;
    }
    r->sp = depth_after;
    RETURN_IF_ERROR(
        rest_after_try(r, h, rg, exit, s, cc, follow, orelse, after));
    return 1;
}

uint8_t *rec_normal_reach(const rec *r) {
    int32_t *stack =
        upy_arena_array(r->scratch, r->cfg.count + 1, sizeof *stack);
    uint8_t *reach = upy_arena_array(r->scratch, r->cfg.count + 1, 1);
    uint32_t sp = 0;
    if (!stack || !reach)
        return NULL;
    memset(reach, 2, r->cfg.count);
    if (!r->cfg.count)
        return reach;
    stack[sp++] = 0;
    reach[0] = 1;
    while (sp) {
        const upy_block *x = blk(r, stack[--sp]);
        int32_t succ[2];
        int k;
        succ[0] =
            upy_nin_falls_through(ins(r, x->end - 1)) ? x->next : UPY_NO_BLOCK;
        succ[1] = x->jump;
        for (k = 0; k < 2; k++)
            if (succ[k] != UPY_NO_BLOCK && reach[succ[k]] != 1) {
                reach[succ[k]] = 1;
                stack[sp++] = succ[k];
            }
    }
    return reach;
}

int rec_is_cold(const rec *r, uint32_t i) {
    if (!r->ncode.layout->cold_handlers)
        return 0;
    return r->normal_reach[r->cfg.block_of[i]] != 1;
}

/* Where the else part [exit, h) of a try whose handlers never go on
 * after it (laid out in place, at h) goes on: running off its end would
 * enter the handlers, which no code falls into, so an if statement ending
 * it that the walk closed at h jumped over them, to code after the try
 * (the jump back to the loop around it, the copy of an enclosing finally
 * body).  The first such jump's target
 * (not a break or continue of rg's loop, which are statements of their
 * own), or UPY_NO_BLOCK when the else part never goes on. */
static int32_t else_jumps_past(const rec *r, int32_t exit, int32_t h,
                               const region *rg) {
    int32_t b;
    for (b = exit; b < h; b++) {
        int32_t t = blk(r, b)->jump;
        if (ins(r, blk(r, b)->end - 1)->op == N_JUMP && t > h &&
            !blk(r, t)->is_handler && t != rg->brk && t != rg->cont)
            return t;
    }
    return UPY_NO_BLOCK;
}

/* Whether block j, the way on of a try body over its handlers (laid out
 * in place), is a lone jump to the break target of rg's loop that a test
 * of the body read its false way through (so it is done and the walk of
 * the else part found no statement there): running off the body breaks
 * all the same.  3.11, `while n < 30:` / `try: if a: n += 10` / `except
 * E: continue` / `break`: POP_JUMP_FORWARD_IF_FALSE to the JUMP_FORWARD
 * over the handler, which goes to the break's NOP; the test read as `if
 * not a: break`, the try's own way on lost, so the loop ran on.  The
 * same where an else part [exit, j) runs off into j, the test of the if
 * ending it read through j: `except E: continue` / `else: g(); if a:
 * n += 10` + `break` (holdout 11 httplib2 Http._conn_request: `if not
 * a: break` / `n += 10`, the loop went round again, every GET sent
 * twice). */
static int breaks_over_handlers(const rec *r, int32_t j, int32_t exit,
                                const region *rg) {
    const upy_block *eb = blk(r, j), *before;
    if (j < exit)
        return 0;
    before = j > exit ? blk(r, j - 1) : NULL;
    if (before &&
        (before->next != j || !upy_nin_falls_through(ins(r, before->end - 1))))
        return 0;
    return r->done[j] && rec_is_lone(r, eb, N_JUMP) &&
           eb->jump != UPY_NO_BLOCK &&
           (eb->jump == rg->brk || eb->jump == rg->brk_threaded);
}

/* Whether the layout tells the else part of the try whose body starts at
 * block b and goes on at block exit: its handlers laid out in place, code
 * the body falls into before them being an else part.  So before 3.12;
 * 3.12+ moves the code that only handlers reach (cold code) to the end,
 * the handlers with it, but as one streak: a try in code only a handler
 * reaches (after a try whose else part returns, the handler's way on)
 * keeps its handlers in place.  There, a way on that ends the enclosing
 * handler (POP_EXCEPT first) is the code after the try, a small exit
 * block the compiler copied into the body's jump, not an else part. */
static int handlers_in_place(const rec *r, int32_t b, int32_t exit) {
    if (!r->ncode.layout->cold_handlers)
        return 1;
    if (exit != UPY_NO_BLOCK && ins(r, blk(r, exit)->start)->op == N_POP_EXCEPT)
        return 0;
    return rec_is_cold(r, blk(r, b)->start);
}

/* Whether block exit, where the body of a try with handlers at block h
 * goes on, starts its else part laid out cold (3.12+ flowgraph.c
 * push_cold_blocks_to_end): only a handler's code reaches it (the way on
 * of a with statement ending the body that suppressed an exception, the
 * body's last statement raising), past region rg's end.  The cold code
 * keeps the order the compiler made it in, the else part before the
 * handlers, code after the try after them:
 *
 *     for x in xs:                   ...; RAISE
 *         try:                       (cold) with's way on: JUMP E
 *             with cm(): raise x     E: g(); JUMP header
 *         except E: f()              h: PUSH_EXC_INFO ... f() ...
 *         else: g()
 *
 * (A lone jump past the handlers, or the end of the with statement's way
 * on jumping there, goes to code after the try.) */
static int cold_else_part(const rec *r, int32_t exit, int32_t h,
                          const region *rg) {
    const upy_block *eb = blk(r, exit);
    if (!r->ncode.layout->cold_handlers || exit < rg->end)
        return 0;
    return rec_is_cold(r, eb->start) && !eb->is_handler &&
           !(ins(r, eb->end - 1)->op == N_JUMP && eb->jump > h &&
             (eb->end - eb->start == 1 ||
              ins(r, eb->start)->op == N_POP_EXCEPT));
}

/* Where the body of a try in an except clause jumps from block exit, a
 * lone jump, when that is a copy of block follow, where the handlers go
 * on: the way out of the clause around, which returns (its POP_EXCEPT,
 * name cleanup, the implicit return without a line, which the compiler
 * copies into each jump that reaches it).  Starting with POP_EXCEPT, the
 * copy is no else part of the try, which would run before the clause
 * ends.  UPY_NO_BLOCK when not so. */
static int32_t clause_exit_copy(const rec *r, int32_t exit, int32_t follow) {
    const upy_block *e, *f, *t;
    if (exit == UPY_NO_BLOCK || follow == UPY_NO_BLOCK)
        return UPY_NO_BLOCK;
    e = blk(r, exit);
    f = blk(r, follow);
    if (e->end - e->start != 1 || ins(r, e->start)->op != N_JUMP ||
        e->jump == UPY_NO_BLOCK || e->jump == follow)
        return UPY_NO_BLOCK;
    t = blk(r, e->jump);
    if (ins(r, f->start)->op != N_POP_EXCEPT ||
        ins(r, f->end - 1)->op != N_RETURN || f->start == 0 ||
        upy_nin_falls_through(ins(r, f->start - 1)) ||
        t->handler != f->handler || t->end - t->start != f->end - f->start ||
        !rec_same_code(r, t->start, f->start, f->end - f->start))
        return UPY_NO_BLOCK;
    return e->jump;
}

/* Whether block exit, where the try body goes on, is a copy of block
 * follow, where the handlers go on: the compiler copies a small block that
 * ends in a jump (as the POP_EXCEPT and continue closing an enclosing
 * handler) into each way that reaches it.  The body then goes on to the
 * code after the try, and there is no else part. */
static int exit_copies_follow(const rec *r, int32_t exit, int32_t follow) {
    const upy_block *e, *f;
    if (exit == UPY_NO_BLOCK || follow == UPY_NO_BLOCK || exit == follow)
        return 0;
    e = blk(r, exit);
    f = blk(r, follow);
    /* (A copied return is left to the clause copies below: the
     * function's implicit return is copied to the ends of nested
     * statements, an else part that returns reads the same.) */
    return e->next == UPY_NO_BLOCK && f->next == UPY_NO_BLOCK &&
           ins(r, f->end - 1)->op == N_JUMP && e->handler == f->handler &&
           e->end - e->start == f->end - f->start &&
           rec_same_code(r, e->start, f->start, e->end - e->start);
}

/* Whether instruction i is in a copy of block exit that a clause's
 * POP_EXCEPT falls into, or is that POP_EXCEPT: in a try nested in a
 * handler, the code after the try starts with the POP_EXCEPT of the
 * enclosing handler and, small and without a line, is copied into each
 * clause's way out. */
static int in_exit_copy(const rec *r, int32_t exit, uint32_t i) {
    int32_t c = r->cfg.block_of[i];
    const upy_block *e = blk(r, exit), *cb;
    if (c + 1 < (int32_t)r->cfg.count && blk(r, c)->end - 1 == i &&
        ins(r, i)->op == N_POP_EXCEPT && blk(r, c)->next == c + 1)
        c++;
    cb = blk(r, c);
    return c != exit && c > 0 && cb->next == UPY_NO_BLOCK &&
           ins(r, cb->start)->op == N_POP_EXCEPT &&
           ins(r, cb->start - 1)->op == N_POP_EXCEPT &&
           blk(r, c - 1)->next == c && cb->handler == e->handler &&
           cb->end - cb->start == e->end - e->start &&
           rec_same_code(r, cb->start, e->start, e->end - e->start);
}

enum { NO_WAY_OUT = UINT32_MAX };

/* The first instruction from i on that does not fall through, a few
 * instructions on (the POP_EXCEPTs and name cleanups of clause ends), or
 * NO_WAY_OUT. */
static uint32_t way_out_end(const rec *r, uint32_t i) {
    uint32_t k;
    for (k = i; k < r->ncode.count && k - i < 8; k++)
        if (!upy_nin_falls_through(ins(r, k)))
            return k;
    return NO_WAY_OUT;
}

/* Whether block x, where an else part stopped, leaves the enclosing
 * clauses (POP_EXCEPT first) to another place than block follow, where
 * the handlers go on (copies of one no-line clause end, popping one
 * exception more or less, end in the same jump: tqdm.pandas 3.13).
 * 3.13, in a for loop: `try: a = f()` / `except E: try: a = g()` /
 * `except L: try: a = h()` / `except E: continue` copies the two outer
 * clauses' ends (POP_EXCEPT; POP_EXCEPT; a jump to the code after the
 * outer try) into the innermost try's way on; the `continue` after it,
 * where the handler goes on, printed after the else part, would end it
 * too (xmlschema XsdAttributeGroup.iter_decode, tests/constructs
 * exit_ends_handler_in_loop.py continue_in_nested_handler). */
static int leaves_clause_elsewhere(const rec *r, int32_t x, int32_t follow) {
    uint32_t a = way_out_end(r, blk(r, x)->start),
             b = way_out_end(r, blk(r, follow)->start);
    return ins(r, blk(r, x)->start)->op == N_POP_EXCEPT && a != NO_WAY_OUT &&
           b != NO_WAY_OUT &&
           (ins(r, a)->op != ins(r, b)->op ||
            ins(r, a)->target != ins(r, b)->target);
}

/* Takes the copies of block exit (see in_exit_copy) off the ends of the
 * clauses of try s: 1 when some clause ended in one. */
static int strip_exit_copies(const rec *r, upy_stmt *s, int32_t exit) {
    uint32_t k;
    int found = 0;
    if (exit == UPY_NO_BLOCK || blk(r, exit)->next != UPY_NO_BLOCK ||
        ins(r, blk(r, exit)->start)->op != N_POP_EXCEPT)
        return 0;
    for (k = 0; k < s->u.try_.n_handlers; k++) {
        upy_stmt_list *L = &s->u.try_.handlers[k].body;
        while (L->len && in_exit_copy(r, exit, L->items[L->len - 1]->start)) {
            L->len--;
            found = 1;
        }
    }
    return found;
}

/* Whether block b is reached by the failing jumps of tests alone. */
static int only_tests_reach(const rec *r, int32_t b) {
    uint32_t k;
    for (k = 0; k < blk(r, b)->npreds; k++) {
        const upy_block *p = blk(r, blk(r, b)->preds[k]);
        if (ins(r, p->end - 1)->op != N_POP_JUMP_IF || p->jump != b)
            return 0;
    }
    return blk(r, b)->npreds > 0;
}

/* Whether a block after the one of instruction `last` and before
 * instruction `end` is reached: code of the finally body after the
 * RERAISE at `last`, which then ends a branch only.  (3.12+ lays the else
 * part of a for loop whose break ends the body out after the copy of the
 * RERAISE the break got:
 *
 *     finally:                  FOR_ITER  (to L)
 *         for x in y:           ...
 *             if a(): break     POP_TOP; RERAISE 0   <- the break
 *         else:              L: END_FOR
 *             raise E           ...; RAISE_VARARGS
 *
 * the body never runs off its end, so it has no RERAISE of its own.) */
static int reached_past(const rec *r, const uint8_t *reached, uint32_t last,
                        uint32_t end) {
    int32_t b;
    for (b = r->cfg.block_of[last] + 1;
         b < (int32_t)r->cfg.count && blk(r, b)->start < end; b++)
        if (reached[b])
            return 1;
    return 0;
}

/* The finally body in the handler: [first, reraise) of instructions.  Its
 * RERAISE is under the handler's cleanup, as PUSH_EXC_INFO is; those of
 * the handlers of a try in the body (3.11 lays them out inside it) are
 * under cleanups of their own.  A branch that ends the body early ends in
 * a RERAISE of its own too, a copy of the last: the body ends at the last
 * that its code reaches (not a handler of a try in it: an except clause
 * ending the body ends so too, and 3.12+ lays those out after it).  1
 * when there is no such body, -1 when out of memory. */
static int finally_range(rec *r, int32_t h, uint32_t *first,
                         uint32_t *reraise) {
    int32_t cleanup = ins(r, blk(r, h)->start)->handler, fb, b;
    uint32_t i, last = 0, k;
    uint8_t *reached;
    *first = blk(r, h)->start + 1;
    if (cleanup < 0 || *first >= r->ncode.count)
        return 1;
    fb = r->cfg.block_of[*first];
    reached = upy_arena_alloc(r->arena, r->cfg.count);
    if (!reached)
        return rec_oom(r);
    memset(reached, 0, r->cfg.count);
    reached[fb] = 1;
    for (i = *first; i < r->ncode.count && i != (uint32_t)cleanup; i++) {
        b = r->cfg.block_of[i];
        /* (Loops are entered from before: a forward pass reaches all.) */
        if (i == blk(r, b)->start && b != fb)
            for (k = 0; k < blk(r, b)->npreds; k++)
                if (blk(r, b)->preds[k] < b && reached[blk(r, b)->preds[k]])
                    reached[b] = 1;
        if (reached[b] && ends_finally_body(r, i) &&
            ins(r, i)->handler == cleanup)
            last = i;
        if (ins(r, i)->op == N_PUSH_EXC_INFO && ins(r, i)->handler == cleanup)
            break;
    }
    if (last && reached_past(r, reached, last, i))
        last = 0;
    /* (The body's last statement may leave by more than one lone RERAISE
     * in a row: an if without else, by the then part's and then by the
     * one only the test jumps to; an if ending in a loop, by the one the
     * test jumps to and then by the loop's exit.  The body ends at the
     * first, the others are branches' own ways out, which in its copies go
     * on after the copy.  A 3.11 try's handlers in the body may come
     * between.  A body that always raises ends at the cleanup.) */
    while (last) {
        b = r->cfg.block_of[last];
        for (k = last; k-- > *first;)
            if (reached[r->cfg.block_of[k]] && ends_finally_body(r, k) &&
                ins(r, k)->handler == cleanup)
                break;
        if (k < *first || k == UINT32_MAX)
            break;
        if ((blk(r, b)->start == last && only_tests_reach(r, b)) ||
            (k + 1 == last && blk(r, r->cfg.block_of[k])->start == k))
            last = k;
        else
            break;
    }
    if (last)
        *reraise = last;
    else if (i == (uint32_t)cleanup)
        *reraise = i;
    else
        return 1;
    return 0;
}

/* Whether block b falls through to the next block, or jumps forward past
 * it (the jump over the else part of an if / else in a copy of a finally
 * body, which goes on in the blocks after), or back in the copy of the
 * finally body [fstart, fstart + flen) from block `from` on: the end of a
 * loop's body in that copy, whose exit goes on after it, where the code
 * from `from` up to b's end is the start of that body (not code after the
 * try that holds a loop: a copy of the same finally body may follow that,
 * before another try's RETURN). */
static int goes_on_to_next(const rec *r, int32_t b, int32_t from,
                           uint32_t fstart, uint32_t flen) {
    const upy_block *bb = blk(r, b);
    uint32_t n = bb->end - blk(r, from)->start;
    return bb->next == b + 1 ||
           (ins(r, bb->end - 1)->op == N_JUMP && bb->jump > b + 1) ||
           (rec_loops_back_within(r, b, from) && n <= flen &&
            rec_same_code(r, blk(r, from)->start, fstart, n));
}

/* Where the copy of the finally body [fstart, fstart + flen) that returns
 * in a branch (rec_returning_finally_copy) starting block `end` ends: the
 * block of the code after it, where a return of the try body goes on
 * (`try: f(); return 5` / `finally: if c: return 2`: the copy's own
 * return is not that return).  end when there is no such copy. */
static int32_t past_returning_copy(rec *r, int32_t end, uint32_t fstart,
                                   uint32_t flen) {
    uint32_t at, n = flen;
    if (end >= (int32_t)r->cfg.count || !rec_finally_returns(r, fstart, flen))
        return end;
    at = blk(r, end)->start;
    if (rec_returning_finally_copy(r, at, fstart, &n) != 1 ||
        at + n >= r->ncode.count)
        return end;
    return r->cfg.block_of[at + n];
}

/* The block of the RETURN that the blocks from `end` on fall through to,
 * unprotected (the way out of a `return value`: copies of finally bodies
 * and with exits in blocks of their own, a branch of a finally body ending
 * one), or end when there is none.  Past the end of region rg only the
 * copies of the exits of statements around it (marked skipped already)
 * may come: a with body ends where its exit starts, and 3.12+ may lay a
 * handler out right after the return.  The finally body is [fstart,
 * fstart + flen). */
static int32_t return_after(rec *r, int32_t end, const region *rg,
                            uint32_t fstart, uint32_t flen) {
    int32_t ret = past_returning_copy(r, end, fstart, flen),
            count = (int32_t)r->cfg.count;
    while (ret < count && (ret < rg->end || rec_is_unwinding(r, ret)) &&
           !blk(r, ret)->is_handler &&
           goes_on_to_next(r, ret, end, fstart, flen) &&
           ins(r, blk(r, ret)->end - 1)->op != N_RETURN)
        ret++;
    if (ret >= count || (ret >= rg->end && !rec_is_unwinding(r, ret)) ||
        ins(r, blk(r, ret)->end - 1)->op != N_RETURN)
        return end;
    return ret;
}

/* The block after the way out of the return ending block ret: after the
 * copies of its end, its RETURN or its constant's load and RETURN, that
 * branches of the copy of the finally body before that return ending the
 * finally body early jump to (the compiler copies that small exit block,
 * inline_small_exit_blocks; the value of `return value` was loaded before
 * the copies, a constant's is loaded after them). */
static int32_t past_return_copies(const rec *r, int32_t ret) {
    int32_t on, count = (int32_t)r->cfg.count;
    uint32_t ret_len = blk(r, ret)->end - blk(r, ret)->start;
    for (on = ret + 1; on < count; on++) {
        uint32_t n = blk(r, on)->end - blk(r, on)->start;
        if ((n != 1 && n != 2) || ret_len < n || blk(r, on)->is_handler ||
            ins(r, blk(r, on)->end - 1)->op != N_RETURN ||
            !rec_same_code(r, blk(r, on)->start, blk(r, ret)->end - n, n))
            break;
    }
    return on;
}

/* The last block of the way out of a return that ends a branch of the
 * try body [b, end)'s last statement (`if c: return x`), laid out (copies
 * of the finally body, RETURN) before the branch that goes on to the
 * normal way out of the try: ret, the RETURN after the copies, or the lone
 * RETURNs after it that branches of the copy ending the finally body
 * early jump to; the body jumps right past them.  UPY_NO_BLOCK when the
 * body does not. */
static int32_t branch_return_end(const rec *r, int32_t b, int32_t end,
                                 int32_t ret) {
    int32_t on;
    uint32_t i, after;
    if (ret < end || ret >= (int32_t)r->cfg.count ||
        blk(r, ret)->end <= blk(r, ret)->start ||
        ins(r, blk(r, ret)->end - 1)->op != N_RETURN)
        return UPY_NO_BLOCK;
    on = past_return_copies(r, ret);
    if (on >= (int32_t)r->cfg.count)
        return UPY_NO_BLOCK;
    after = blk(r, on)->start;
    for (i = blk(r, b)->start; i < blk(r, end)->start; i++)
        if (ins(r, i)->target == (int32_t)after)
            return on - 1;
    return UPY_NO_BLOCK;
}

/* Whether the try body of handler h goes on after the RETURN ending block
 * ret (a return in the middle of it, the body's protected range ending
 * at block end before it):
 *   - its protected range starts again right after, or after the copies
 *     of the return that branches ending the finally body early jump to in
 *     the copies before it.  (3.11 lays the handlers of a try nested in
 *     the body out inline: the body goes on in them after a return in its
 *     else part, `try:` / `with a:` / `try: f()` / `except E: pass` /
 *     `else: return 1` / `finally: if c: g()`.)
 *   - the blocks [end, ret] are a copy of a finally body split from its
 *     RETURN, which it runs under handlers of its own (a try in the
 *     finally body; 3.11 lays their handlers out after the RETURN, and the
 *     try body may go on after those). */
static int body_goes_on(const rec *r, int32_t end, int32_t ret, int32_t h) {
    int32_t on = past_return_copies(r,
                                    rec_past_claimed_handlers(r, ret + 1) - 1),
            count = (int32_t)r->cfg.count;
    if (ret == end + 1 && rec_is_lone(r, blk(r, ret), N_RETURN) &&
        blk(r, end)->handler == ret + 1)
        return 1;
    if (on >= count)
        return 0;
    if (!blk(r, on)->is_handler)
        return blk(r, on)->handler == h;
    return !r->ncode.layout->cold_handlers && rec_under(r, on, h);
}

/* Marks the copies of the finally body [fstart, fstart + flen) before the
 * exits of the try body [b, end), and returns where the body ends.  A
 * `return value` at the end of the body unwinds past the protected
 * blocks: its copies of the finally body (and of enclosing with exits),
 * then the RETURN, falling through blocks of their own.  Those belong to
 * the body too; *unwind_from is the first of them (left alone when there
 * are none).  ERROR when out of memory. */
static int32_t skip_finally_copies(rec *r, int32_t b, int32_t h, int32_t end,
                                   const region *rg, uint32_t fstart,
                                   uint32_t flen, int32_t *unwind_from) {
    int32_t ret, x, from = b, branch_return = UPY_NO_BLOCK;
    /* A return in the middle of the body unwinds through blocks of its own
     * too, outside the protected range, which ended there; once its copies
     * are skipped (and those of the exit a branch ending the finally body
     * early jumps to) the body goes on after them. */
    for (;;) {
        ret = return_after(r, end, rg, fstart, flen);
        if (branch_return_end(r, b, end, ret) != UPY_NO_BLOCK)
            branch_return = branch_return_end(r, b, end, ret);
        else if (!body_goes_on(r, end, ret, h))
            ret = end;
        RETURN_IF_ERROR(
            rec_skip_finally(r, b, ret, from, UPY_NO_BLOCK, fstart, flen));
        x = rec_protected_end(r, b, h, rg);
        if (x <= end)
            break;
        from = end + 1;
        end = x;
    }
    ret = return_after(r, end, rg, fstart, flen);
    if (ret > end)
        RETURN_IF_ERROR(
            rec_skip_finally(r, b, ret, end + 1, UPY_NO_BLOCK, fstart, flen));
    /* (And once the body's end is known, the handlers of trys in it laid
     * out after it.) */
    RETURN_IF_ERROR(rec_skip_finally(r, b, end, ret + 1, h, fstart, flen));
    /* (The branch's RETURN is the body's, which goes on after it: the
     * protected range took in the copies before it, skipped.) */
    if (branch_return != UPY_NO_BLOCK && ret == end && branch_return >= end)
        return rec_past_claimed_handlers(r, branch_return + 1);
    if (ret == end)
        return end;
    /* (The RETURN is a block of its own where the copies before it run
     * under handlers of their own: a try in the finally body.  Or a
     * constant's return ends the copy's last block: a finally body ending
     * in `if c: f()` splits its copy, and 3.12+ copies the return into
     * both branches (flowgraph.c inline_small_exit_blocks):
     *
     *     try:                         NOP (return's line)
     *         try: a()                 LOAD c; POP_JUMP_IF_FALSE L
     *         except E: pass           f(); RETURN_CONST True  <- ret
     *         return True           L: RETURN_CONST True
     *     finally:
     *         if c: f()
     *
     * ended the body before the return, which was then lost.) */
    for (x = end; x <= ret; x++)
        if (!rec_is_unwinding(r, x) && !(x == ret && x > end &&
                                         (rec_is_lone(r, blk(r, x), N_RETURN) ||
                                          rec_is_copied_return(r, x))))
            return end;
    *unwind_from = end;
    /* (3.11 lays the handlers of a try in the copies out right after the
     * RETURN: the body goes on after them.) */
    return rec_past_claimed_handlers(r, ret + 1);
}

/* Whether a jump to instruction t goes where the jump at instruction i
 * goes: the compiler threads a jump to an unconditional jump to that
 * jump's target (a branch of a copy ending a loop body jumps straight back
 * to the loop's header). */
static int threads_past(const rec *r, uint32_t i, int32_t t) {
    return i < r->ncode.count && ins(r, i)->op == N_JUMP &&
           ins(r, i)->target == t;
}

/* Whether [at, at + n) is the copy of the finally body [first, first + n)
 * on the normal way out of the try.  A branch of the finally body that
 * ends the body early jumps to a RERAISE 0 of its own in the handler (the
 * compiler copies that small exit block); in the copy it jumps to a copy
 * of what follows the finally (a small exit block too, as the implicit
 * `return None`).  Those copies are marked done. */
static int is_normal_finally_copy(rec *r, uint32_t at, uint32_t first,
                                  uint32_t n) {
    uint32_t k, tail;
    int32_t back_to = -1;
    if (rec_same_code(r, at, first, n))
        return 1;
    if (at + n > r->ncode.count || first + n > r->ncode.count)
        return 0;
    tail = exit_copy_length(r, at + n);
    /* What follows may be a jump back to a loop's header: 3.12 threads a
     * branch to it there (normalizing made that a backward conditional
     * jump, inverted_back_jump). */
    if (at + n < r->ncode.count && ins(r, at + n)->op == N_JUMP &&
        ins(r, at + n)->target <= (int32_t)at)
        back_to = ins(r, at + n)->target;
    for (k = 0; k < n; k++) {
        const upy_nin *x = ins(r, at + k), *y = ins(r, first + k);
        int32_t t;
        if (rec_same_code(r, at + k, first + k, 1))
            continue;
        if (x->op != y->op || x->arg != y->arg || x->target < 0 ||
            y->target < 0)
            return 0;
        t = y->target;
        if ((t >= (int32_t)first && t < (int32_t)(first + n)) ||
            ins(r, (uint32_t)t)->op != N_RERAISE || ins(r, (uint32_t)t)->arg)
            return 0;
        /* (What follows may be no small exit block, or one with a line of
         * its own, that the compiler does not copy: the branch joins it.) */
        t = x->target;
        if (t == (int32_t)(at + n) || t == back_to ||
            threads_past(r, at + n, t))
            continue;
        if (!tail || (t >= (int32_t)at && t <= (int32_t)(at + n)) ||
            !rec_same_code(r, (uint32_t)t, at + n, tail))
            return 0;
    }
    for (k = 0; k < n; k++)
        if (ins(r, at + k)->target >= 0 &&
            ins(r, at + k)->target != (int32_t)(at + n) &&
            ins(r, at + k)->target != back_to &&
            !threads_past(r, at + n, ins(r, at + k)->target) &&
            !rec_same_code(r, at + k, first + k, 1)) {
            uint32_t t = (uint32_t)ins(r, at + k)->target;
            rec_skip_range(r, t, tail);
            r->done[r->cfg.block_of[t]] = 1;
        }
    return 1;
}

/* Past the pops under a returned value from instruction i on (SWAP 2;
 * POP_TOP each: 3.12+ pops the iterators of the loops a return leaves
 * there, in the copy too), up to end. */
static uint32_t pops_under_value(const rec *r, uint32_t i, uint32_t end) {
    while (i + 2 < end && ins(r, i)->op == N_SWAP && ins(r, i)->arg == 2 &&
           ins(r, i + 1)->op == N_POP_TOP)
        i += 2;
    return i;
}

/* How many instructions from instruction i of a finally body in its
 * handler pop what a `return` in it leaves (the exception, then the one
 * before it: compile.c compiler_unwind_fblock, FINALLY_END), which its
 * copy on the normal way out of the try has not, as that copy returns
 * with nothing to pop; 0 when i starts no such pops.  A constant's return
 * pops before the load: POP_TOP; POP_EXCEPT; LOAD_CONST; RETURN.  Another
 * value's, loaded first, pops under it: `finally: return a` is LOAD a;
 * SWAP 2; POP_TOP; SWAP 2; POP_EXCEPT; RETURN_VALUE in the handler, LOAD
 * a; RETURN_VALUE in the copy. */
static uint32_t handler_return_pops(const rec *r, uint32_t i, uint32_t end) {
    if (i + 3 < end && ins(r, i)->op == N_POP_TOP &&
        ins(r, i + 1)->op == N_POP_EXCEPT &&
        ins(r, i + 2)->op == N_LOAD_CONST && ins(r, i + 3)->op == N_RETURN)
        return 2;
    if (i + 4 < end && ins(r, i)->op == N_SWAP && ins(r, i)->arg == 2 &&
        ins(r, i + 1)->op == N_POP_TOP && ins(r, i + 2)->op == N_SWAP &&
        ins(r, i + 2)->arg == 2 && ins(r, i + 3)->op == N_POP_EXCEPT &&
        ins(r, pops_under_value(r, i + 4, end))->op == N_RETURN)
        return 4;
    return 0;
}

int rec_finally_returns(const rec *r, uint32_t first, uint32_t n) {
    uint32_t k;
    for (k = 0; k < n; k++)
        if (handler_return_pops(r, first + k, first + n))
            return 1;
    return 0;
}

/* The length of the small exit block (ending in a return) at instruction
 * i that the compiler copied in place of a jump to it, else 0. */
static uint32_t inlined_return_length(const rec *r, uint32_t i) {
    uint32_t t = exit_copy_length(r, i);
    return t && ins(r, i + t - 1)->op == N_RETURN ? t : 0;
}

/* Whether nothing runs on from the end of a copy of a finally body at
 * instruction i (its last statement raises): the handlers follow it.
 * Every jump to its end then got the implicit `return None` instead. */
static int copy_runs_off_nowhere(const rec *r, uint32_t i) {
    return i < r->ncode.count && ins(r, i)->op == N_PUSH_EXC_INFO &&
           i > 0 && !upy_nin_falls_through(ins(r, i - 1));
}

/* Whether the t instructions at i are `return None`. */
static int returns_none(const rec *r, uint32_t i, uint32_t t) {
    const upy_nin *c = ins(r, i);
    return t == 2 && upy_nin_loads_none(c);
}

/* Whether instruction x of a copy of the finally body [first, end), whose
 * instructions are at pos[] in the copy, runs under the handler of its
 * original y: the copy of the handler of a try in the body (3.11 lays it
 * out inside the body), else the handler around the copy, *outer (set by
 * the first such instruction). */
#define NO_HANDLER_YET (-2)
static int copied_handler(const upy_nin *x, const upy_nin *y, uint32_t first,
                          uint32_t end, const uint32_t *pos, int32_t *outer) {
    if (y->handler >= (int32_t)first && y->handler < (int32_t)end)
        return x->handler == (int32_t)pos[(uint32_t)y->handler - first];
    if (*outer == NO_HANDLER_YET)
        *outer = x->handler;
    return x->handler == *outer;
}

/* Whether the code at `at` is a copy of the finally body [first, first +
 * *n) that returns in a branch, run with no exception (on the normal way
 * out of the try, or an except clause's after its POP_EXCEPT): the same
 * code but for the pops before each constant's return
 * (handler_return_pops), and for each jump to the body's end (a break out
 * of a loop in it), or copy of its RERAISE (see ends_early), where the
 * copy has the code after the copy, a small exit block the compiler
 * copied in place of the jump (inline_small_exit_blocks); its jumps land
 * on the same code.  Sets *n to the copy's length. */
int rec_returning_finally_copy(rec *r, uint32_t at, uint32_t first,
                               uint32_t *n) {
    uint32_t *pos = upy_arena_array(r->scratch, *n + 1, sizeof *pos);
    uint32_t k, j = at, m, t, end = first + *n;
    int32_t outer = NO_HANDLER_YET;
    int loose = 0;
    if (!pos)
        return rec_oom(r);
    for (k = 0; k < *n; k++) {
        const upy_nin *y = ins(r, first + k);
        pos[k] = j;
        if (handler_return_pops(r, first + k, end)) {
            for (t = handler_return_pops(r, first + k, end); t > 1; t--)
                pos[++k] = j;
            loose = 1;
        } else if (((y->op == N_JUMP && (uint32_t)y->target == end) ||
                    rec_ends_finally_early(r, first + k, end)) &&
                   j < r->ncode.count && ins(r, j)->op != N_JUMP &&
                   (t = inlined_return_length(r, j)) != 0) {
            j += t;
            loose = 1;
        } else {
            j++;
        }
    }
    pos[*n] = j;
    m = j - at;
    if (!loose || at + m > r->ncode.count)
        return 0;
    for (k = 0; k < *n; k++) {
        const upy_nin *y = ins(r, first + k), *x;
        if (handler_return_pops(r, first + k, end)) {
            k += handler_return_pops(r, first + k, end) - 1;
            continue;
        }
        x = ins(r, pos[k]);
        if (((y->op == N_JUMP && (uint32_t)y->target == end) ||
             rec_ends_finally_early(r, first + k, end)) &&
            x->op != N_JUMP) {
            t = inlined_return_length(r, pos[k]);
            if (!rec_same_code(r, pos[k], at + m, t) &&
                !(copy_runs_off_nowhere(r, at + m) &&
                  returns_none(r, pos[k], t)))
                return 0;
            continue;
        }
        if (x->op != y->op || x->arg != y->arg || x->obj != y->obj ||
            x->flags != y->flags || (x->target < 0) != (y->target < 0) ||
            !copied_handler(x, y, first, end, pos, &outer))
            return 0;
        if (y->target >= 0 &&
            ((uint32_t)y->target < first || (uint32_t)y->target > end ||
             (uint32_t)x->target != pos[(uint32_t)y->target - first]))
            return 0;
    }
    *n = m;
    return 1;
}

/* Whether the n instructions at `at` hold a return to be placed
 * (rec.must_place). */
static int places_returns(const rec *r, uint32_t at, uint32_t n) {
    uint32_t k;
    for (k = 0; k < n; k++)
        if (r->must_place[at + k])
            return 1;
    return 0;
}

/* Claims the other copies of block `exit` -- the normal copy of the
 * finally body and the return after it, a small exit block -- that
 * branches of the try body [b, end) jump to: the compiler's
 * inline_small_exit_blocks (3.11 extend_block, 3.13
 * inline_small_or_no_lineno_blocks) copies such a block into each branch
 * that jumps to it, so an if ending the body whose then part falls into
 * the copy jumps to a copy of its own.  Only an identical block, under
 * the same handler, that only the body jumps to, is the same way out. */
static void claim_exit_copies(rec *r, int32_t b, int32_t end, int32_t exit) {
    const upy_block *eb = blk(r, exit);
    uint32_t n = eb->end - eb->start;
    int32_t x;
    if (ins(r, eb->end - 1)->op != N_RETURN)
        return;
    for (x = end; x < (int32_t)r->cfg.count; x++) {
        const upy_block *xb = blk(r, x);
        if (x == exit || r->done[x] || xb->is_handler ||
            xb->handler != eb->handler || xb->end - xb->start != n ||
            !rec_same_code(r, xb->start, eb->start, n))
            continue;
        if (!xb->npreds ||
            !upy_cfg_entered_only_from(&r->cfg, x, x + 1, b, end))
            continue;
        rec_skip_range(r, xb->start, n);
        r->done[x] = 1;
    }
}

/* The copy of the finally body [first, first + *n) on the normal way out
 * of the try may differ from the body in the handler in two ways the
 * compiler's layout makes:
 *  - 3.12+ moves the handlers of a try in the finally body, and the code
 *    only they reach, after all other code, but not inside the finally's
 *    own handler, which is all such code: the copy lacks them (and a jump
 *    over them alone), and rec_skip_copy claims them;
 *  - a jump of the body to its end (the RERAISE), or a RERAISE of a
 *    branch's own (see ends_early), is, in the copy, a jump to the small
 *    exit block after the copy, which the compiler copies in its place
 *    (or, for such a RERAISE, a jump where the copy's end goes).
 * The copy [at, ...) is matched through a map of the body's instructions
 * to it.  When it is such a copy, marks it (and the copies of the exit
 * that branches ending the body early jump to) skipped, and sets *n to its
 * length.  -1 when out of memory. */
/* Where the copy of the finally body [first, end) mapped by map (see
 * copy_without_handlers) has the target t of a jump of the body: its copy,
 * or, for a jump over the handlers only that the copy lacks (a jump there
 * lands after them), the copy of that jump's target.  UINT32_MAX when
 * none. */
static uint32_t mapped_target(const rec *r, const uint32_t *map,
                              uint32_t first, uint32_t end, uint32_t t) {
    int32_t on = ins(r, t)->target;
    if (map[t - first] != UINT32_MAX || ins(r, t)->op != N_JUMP ||
        on <= (int32_t)t || on >= (int32_t)end)
        return map[t - first];
    return map[(uint32_t)on - first];
}

/* The length of the code at i of the finally body [first, end) that is a
 * copy of its tail, the code after the cold blocks (cold[], from block fb
 * on) that follow it up to the RERAISE at end, else 0: 3.12+ copies that
 * small exit block into the jump of a try's body over its handlers
 * (inline_small_exit_blocks), which the copy on the normal way out lacks
 * with the handlers.  `finally: if c:` / `try: u()` / `except E: pass` +
 * `d = False` has, after u(), `d = False; RERAISE 0` in the handler. */
static uint32_t tail_over_handlers(const rec *r, uint32_t i, uint32_t end,
                                   const uint8_t *cold, int32_t fb) {
    uint32_t n = exit_copy_length(r, i), j;
    if (!n || !rec_ends_finally_early(r, i + n - 1, end))
        return 0;
    for (j = i + n; j < end && cold[r->cfg.block_of[j] - fb]; j++)
        ;
    if (j == i + n || end - j + 1 != n || !rec_same_code(r, i, j, n))
        return 0;
    return n;
}

/* Whether the n instructions at i (see tail_over_handlers, 3.12) are a
 * copy of the end of the copy, up to c, with the small exit block of
 * `tail` instructions at c after it. */
static int copies_copy_end(const rec *r, uint32_t i, uint32_t n, uint32_t c,
                           uint32_t tail) {
    return n > tail && c + tail >= i + 2 * n &&
           rec_same_code(r, i, c + tail - n, n);
}

static int copy_without_handlers(rec *r, uint32_t at, uint32_t first,
                                 uint32_t *n) {
    uint32_t end = first + *n, i, c = at, hot, tail, run,
             count = r->ncode.count;
    int32_t fb, lb, x;
    int differs = 0;
    uint8_t *cold;
    uint32_t *map, *inl;
    if (*n == 0)
        return 0;
    fb = r->cfg.block_of[first];
    lb = r->cfg.block_of[end - 1];
    cold = upy_arena_alloc(r->arena, (size_t)(lb - fb + 1));
    map = upy_arena_alloc(r->arena, *n * sizeof *map);
    inl = upy_arena_alloc(r->arena, *n * sizeof *inl);
    if (!cold || !map || !inl)
        return rec_oom(r);
    memset(cold, 0, (size_t)(lb - fb + 1));
    /* (A block the handlers alone reach is cold; one that code before it
     * in the body reaches is not.) */
    for (x = fb + 1; x <= lb; x++) {
        const upy_block *bb = blk(r, x);
        uint32_t j;
        int all = bb->is_handler || bb->npreds > 0;
        for (j = 0; j < bb->npreds && all && !bb->is_handler; j++)
            all = bb->preds[j] > fb && bb->preds[j] < x &&
                  cold[bb->preds[j] - fb];
        cold[x - fb] = (uint8_t)all;
    }
    for (i = first; i < end && c < count; i++) {
        uint32_t j = i + 1;
        int32_t t = ins(r, i)->target;
        map[i - first] = UINT32_MAX;
        inl[i - first] = 0;
        if (cold[r->cfg.block_of[i] - fb]) {
            differs = 1;
            continue;
        }
        if ((run = tail_over_handlers(r, i, end, cold, fb)) != 0) {
            /* (3.12 copies the tail into the copy's jump too, there
             * followed by the implicit `return None`: a copy of it.) */
            uint32_t m = exit_copy_length(r, c);
            if (m >= run && ins(r, c + m - 1)->op == N_RETURN &&
                rec_same_code(r, c, i, run - 1) &&
                rec_same_code(r, c, c + m, m)) {
                map[i - first] = c;
                inl[i - first] = m;
                c += m;
            }
            for (; run > 1; run--) {
                i++;
                map[i - first] = UINT32_MAX;
                inl[i - first] = 0;
            }
            differs = 1;
            continue;
        }
        if (ins(r, i)->op == N_JUMP && t > (int32_t)j && t < (int32_t)end) {
            /* (A jump over the handlers only, to the next code left.) */
            while (j < (uint32_t)t && cold[r->cfg.block_of[j] - fb])
                j++;
            if (j == (uint32_t)t) {
                differs = 1;
                continue;
            }
        }
        map[i - first] = c;
        if (rec_ends_finally_early(r, i, end))
            differs = 1;
        if (((ins(r, i)->op == N_JUMP && t == (int32_t)end) ||
             rec_ends_finally_early(r, i, end)) &&
            ins(r, c)->op != N_JUMP &&
            (inl[i - first] = exit_copy_length(r, c)) != 0) {
            differs = 1;
            c += inl[i - first];
            continue;
        }
        c++;
    }
    if (!differs || i < end || c >= count)
        return 0;
    hot = c - at;
    tail = exit_copy_length(r, c);
    for (i = first; i < end; i++) {
        const upy_nin *y = ins(r, i), *cp;
        int32_t t = y->target;
        if (map[i - first] == UINT32_MAX)
            continue;
        if (inl[i - first]) {
            /* (Where the copy never runs off its end, its branches that
             * end the body early got the implicit `return None` after the
             * try, which nothing else reaches.) */
            if ((inl[i - first] != tail ||
                 !rec_same_code(r, map[i - first], c, tail)) &&
                !(copy_runs_off_nowhere(r, c) &&
                  returns_none(r, map[i - first], inl[i - first])) &&
                !copies_copy_end(r, map[i - first], inl[i - first], c, tail))
                return 0;
            continue;
        }
        cp = ins(r, map[i - first]);
        if (rec_ends_finally_early(r, i, end)) {
            /* (Its copy jumps where the copy's end goes.) */
            if (cp->op != N_JUMP ||
                (cp->target != (int32_t)c &&
                 (ins(r, c)->op != N_JUMP || cp->target != ins(r, c)->target)))
                return 0;
            continue;
        }
        if (cp->op != y->op || cp->arg != y->arg || cp->obj != y->obj ||
            cp->flags != y->flags || (cp->target < 0) != (t < 0))
            return 0;
        if (t < 0)
            continue;
        if (t >= (int32_t)first && t < (int32_t)end) {
            uint32_t mt = mapped_target(r, map, first, end, (uint32_t)t);
            if (mt == UINT32_MAX || cp->target != (int32_t)mt)
                return 0;
            continue;
        }
        /* A jump to the end, or a branch ending the body early (see
         * is_normal_finally_copy). */
        if (ins(r, (uint32_t)t)->op != N_RERAISE || ins(r, (uint32_t)t)->arg)
            return 0;
        if (cp->target == (int32_t)c)
            continue;
        if (!tail || (cp->target >= (int32_t)at && cp->target < (int32_t)c) ||
            !rec_same_code(r, (uint32_t)cp->target, c, tail))
            return 0;
    }
    for (i = first; i < end; i += run) {
        run = 1;
        if (map[i - first] == UINT32_MAX)
            continue;
        if (inl[i - first] || rec_ends_finally_early(r, i, end)) {
            rec_skip_range(r, map[i - first],
                           inl[i - first] ? inl[i - first] : 1);
            continue;
        }
        while (i + run < end && !inl[i + run - first] &&
               !rec_ends_finally_early(r, i + run, end) &&
               map[i + run - first] == map[i - first] + run)
            run++;
        RETURN_IF_ERROR(rec_skip_copy(r, map[i - first], i, run));
    }
    for (i = first; i < end; i++) {
        int32_t t = ins(r, i)->target, ct;
        if (map[i - first] == UINT32_MAX || inl[i - first] || t < 0 ||
            (t >= (int32_t)first && t < (int32_t)end))
            continue;
        ct = ins(r, map[i - first])->target;
        if (ct != (int32_t)c) {
            rec_skip_range(r, (uint32_t)ct, tail);
            r->done[r->cfg.block_of[ct]] = 1;
        }
    }
    *n = hot;
    return 1;
}

/* --- 3.13: a copy that joins the tail its handler copy inlines -------- */

/* The length of the copy at instruction k of the tail of the finally body
 * ending at `end` (its last instructions and RERAISE, [end - n + 1, end]):
 * a branch's own way out that ends the body early (see ends_early), else
 * 0. */
static uint32_t tail_copy_length(const rec *r, uint32_t k, uint32_t end) {
    uint32_t n = exit_copy_length(r, k);
    if (!n || k + n > end || !rec_ends_finally_early(r, k + n - 1, end) ||
        !rec_same_code(r, k, end + 1 - n, n))
        return 0;
    return n;
}

/* Whether the code [from, to) holds only handlers laid out in place and
 * what those alone reach: no way in but an exception, or a jump from
 * inside. */
static int only_handlers_in(const rec *r, uint32_t from, uint32_t to) {
    int32_t b = r->cfg.block_of[from], e, x;
    if (to >= r->ncode.count || blk(r, b)->start != from ||
        blk(r, r->cfg.block_of[to])->start != to || !blk(r, b)->is_handler)
        return 0;
    e = r->cfg.block_of[to];
    for (x = b; x < e; x++)
        if (!blk(r, x)->is_handler &&
            !upy_cfg_entered_only_from(&r->cfg, x, x + 1, b, e))
            return 0;
    return 1;
}

/* Whether instruction x of the copy runs under the handler that y of the
 * finally body does: the same map of handlers all through (hmap, indexed
 * by y's handler, -1 an index past the code). */
static int same_handler_map(const rec *r, int32_t *hmap, const upy_nin *x,
                            const upy_nin *y) {
    uint32_t hy = y->handler < 0 ? r->ncode.count : (uint32_t)y->handler;
    if (hmap[hy] == NO_HANDLER_YET)
        hmap[hy] = x->handler;
    return hmap[hy] == x->handler;
}

/* Where the copy of the finally body has the jump target t of the body,
 * [first, end] mapped by pos (UINT32_MAX: not copied one for one), else
 * UINT32_MAX. */
static uint32_t copied_target(const uint32_t *pos, uint32_t first, uint32_t end,
                              int32_t t) {
    if (t < (int32_t)first || t > (int32_t)end)
        return UINT32_MAX;
    return pos[(uint32_t)t - first];
}

/* Whether the copy mapped by pos (see copy_joining_tail) has the code of
 * the finally body [first, end): each instruction one for one, with its
 * jumps mapped, or a jump to the copy of the tail in place of a copy of
 * the tail (tail_copy_length). */
static int copy_matches_map(rec *r, const uint32_t *pos, uint32_t first,
                            uint32_t end) {
    int32_t *hmap =
        upy_arena_array(r->scratch, r->ncode.count + 1, sizeof *hmap);
    uint32_t k, run;
    if (!hmap)
        return rec_oom(r);
    for (k = 0; k <= r->ncode.count; k++)
        hmap[k] = NO_HANDLER_YET;
    for (k = first; k < end; k++) {
        const upy_nin *y = ins(r, k), *x;
        if (pos[k - first] == UINT32_MAX)
            continue;
        x = ins(r, pos[k - first]);
        run = tail_copy_length(r, k, end);
        if (run && x->op == N_JUMP && y->op != N_JUMP) {
            if ((uint32_t)x->target != pos[end + 1 - run - first])
                return 0;
            continue;
        }
        if (x->op != y->op || x->arg != y->arg || x->obj != y->obj ||
            x->flags != y->flags || (x->target < 0) != (y->target < 0) ||
            !same_handler_map(r, hmap, x, y))
            return 0;
        if (y->target >= 0 &&
            (uint32_t)x->target != copied_target(pos, first, end, y->target))
            return 0;
    }
    return 1;
}

/* Claims the copy mapped by pos: the runs copied one for one (with the
 * handlers of trys in them, rec_skip_copy), the jumps standing for
 * copies of the tail, and the handlers jumped over (over[], the jump
 * before the instruction, UINT32_MAX when none).  -1 when out of memory. */
static int claim_mapped_copy(rec *r, const uint32_t *pos, const uint32_t *over,
                             uint32_t first, uint32_t end) {
    uint32_t k, run;
    for (k = first; k < end; k += run) {
        uint32_t p = pos[k - first], o = over[k - first];
        run = 1;
        if (o != UINT32_MAX) {
            int32_t b;
            rec_skip_range(r, o, p - o);
            for (b = r->cfg.block_of[o + 1]; blk(r, b)->start < p; b++)
                r->done[b] = 1;
        }
        if (p == UINT32_MAX)
            continue;
        if (tail_copy_length(r, k, end) && ins(r, p)->op == N_JUMP &&
            ins(r, k)->op != N_JUMP) {
            rec_skip_range(r, p, 1);
            continue;
        }
        while (k + run < end && pos[k + run - first] == p + run &&
               over[k + run - first] == UINT32_MAX &&
               !tail_copy_length(r, k + run, end))
            run++;
        RETURN_IF_ERROR(rec_skip_copy(r, p, k, run));
    }
    return SUCCESS;
}

/* The copy of a finally body whose last statement follows a try, on the
 * normal way out of an outer finally's handler (3.13, fileinput.py
 * FileInput.nextfile):
 *
 *     try: a()                          handler copy:   normal copy:
 *     finally:                          e()             e()
 *         try: b()                      s.x = 1         JUMP t
 *         finally:                      RERAISE 0       handlers, each
 *             try: e()                  handlers, each    JUMP t
 *             except: pass                s.x = 1     t: s.x = 1
 *             s.x = 1                     RERAISE 0     RERAISE 0 (outer)
 *
 * flowgraph.c inline_small_or_no_lineno_blocks copies the small exit block
 * `s.x = 1; RERAISE 0` into each jump to it in the handler copy; in the
 * normal copy the tail first took in the jump to the outer RERAISE after
 * it, which left a NOP that makes it too long to copy.  Matched through a
 * map of the body's instructions to the copy: a copy of the tail there is
 * a jump to the tail's copy, and the handlers the handler copy lays out
 * after its end (past `end`) are jumped over in place.  Claims the copy
 * and sets *n to its length; -1 when out of memory. */
static int copy_joining_tail(rec *r, uint32_t at, uint32_t first, uint32_t *n) {
    uint32_t end = first + *n, k = first, j = at, run, m;
    uint32_t *pos = upy_arena_array(r->scratch, *n + 1, sizeof *pos);
    uint32_t *over = upy_arena_array(r->scratch, *n + 1, sizeof *over);
    int differs = 0, st;
    if (!pos || !over)
        return rec_oom(r);
    for (m = 0; m <= *n; m++)
        over[m] = UINT32_MAX;
    while (k < end) {
        const upy_nin *x;
        if (j >= r->ncode.count)
            return 0;
        x = ins(r, j);
        run = tail_copy_length(r, k, end);
        if (x->op == N_JUMP && ins(r, k)->op != N_JUMP && !run &&
            over[k - first] == UINT32_MAX && x->target > (int32_t)j + 1 &&
            only_handlers_in(r, j + 1, (uint32_t)x->target)) {
            over[k - first] = j;
            j = (uint32_t)x->target;
            differs = 1;
            continue;
        }
        pos[k - first] = j++;
        if (run && x->op == N_JUMP && ins(r, k)->op != N_JUMP) {
            for (m = 1; m < run; m++)
                pos[k + m - first] = UINT32_MAX;
            differs = 1;
            k += run;
            continue;
        }
        k++;
    }
    pos[*n] = j;
    if (!differs)
        return 0;
    st = copy_matches_map(r, pos, first, end);
    if (st <= 0)
        return st;
    RETURN_IF_ERROR(claim_mapped_copy(r, pos, over, first, end));
    *n = j - at;
    return 1;
}

/* 3.11 lays the handler of a try that ends the finally body out inside
 * the body, after the jump of that try's normal way out to the RERAISE.
 * On the normal way out of the outer try, the compiler copies the small
 * exit block that follows (as the implicit `return None`) into that jump,
 * so the copy of the handler comes after it.  When the copy [at, ...) is
 * so, *n gets the length of its part before the exit block. */
static int ends_in_inline_handler(const rec *r, uint32_t at, uint32_t first,
                                  uint32_t *n) {
    uint32_t reraise = first + *n, j, tail;
    for (j = first; j + 1 < reraise; j++) {
        const upy_nin *x = ins(r, j);
        if (x->op != N_JUMP || x->target != (int32_t)reraise ||
            ins(r, j + 1)->op != N_PUSH_EXC_INFO)
            continue;
        tail = exit_copy_length(r, at + (j - first));
        if (tail && rec_same_code(r, at, first, j - first) &&
            rec_same_code(r, at + (j - first) + tail, j + 1, reraise - j - 1)) {
            *n = j - first;
            return 1;
        }
    }
    return 0;
}

/* --- except* (3.11+) --------------------------------------------------- */

/* An except* handler keeps three things under the clauses: the exception
 * group it caught, a list of the groups its clauses raise, and the rest
 * of the group no clause has matched yet:
 *
 *   PUSH_EXC_INFO; the prologue making [group, list, rest] (COPY 1;
 *   BUILD_LIST 0; SWAP 2 on 3.11, BUILD_LIST 0; COPY 2 later);
 *   each clause:  type; CHECK_EG_MATCH; COPY 1; POP_JUMP_IF_NONE miss;
 *                 (STORE name | POP_TOP) body, which goes on to the next
 *                 clause; an exception in the body goes to a handler of
 *                 the body's own (LIST_APPEND 3: into the list) that goes
 *                 on to the next clause too;
 *         miss:   POP_TOP, then the next clause;
 *   after the last clause: LIST_APPEND 1 (the rest; 3.13 copies it onto
 *   each way in); PREP_RERAISE_STAR; COPY 1; POP_JUMP_IF_NOT_NONE raise;
 *   POP_TOP; POP_EXCEPT and the way on after the try (a jump, or a copy
 *   of the code after it); raise: SWAP 2; POP_EXCEPT; RERAISE 0.
 *
 * A clause body cannot return, break or continue (the compiler refuses
 * them), so each one ends where the next clause starts. */

static int is_prep_reraise(const rec *r, uint32_t i) {
    return i < r->ncode.count && ins(r, i)->op == N_INTRINSIC &&
           ins(r, i)->arg == UPY_INTRINSIC_PREP_RERAISE_STAR;
}

/* The CHECK_EG_MATCH of the clause header starting at instruction at (the
 * type, then the match test ending its block), or 0 when none starts
 * there. */
static uint32_t star_match_at(const rec *r, uint32_t at) {
    const upy_block *cb;
    uint32_t i;
    if (at >= r->ncode.count)
        return 0;
    cb = blk(r, r->cfg.block_of[at]);
    if (cb->end < at + 3 || ins(r, cb->end - 1)->op != N_POP_JUMP_IF ||
        ins(r, cb->end - 1)->arg != UPY_JUMP_NONE ||
        ins(r, cb->end - 2)->op != N_COPY || ins(r, cb->end - 2)->arg != 1 ||
        ins(r, cb->end - 3)->op != N_EG_MATCH)
        return 0;
    for (i = at; i < cb->end - 3; i++)
        if (ins(r, i)->op == N_EG_MATCH || ins(r, i)->op == N_EXC_MATCH)
            return 0;
    return cb->end - 3;
}

/* Where the first clause header of handler h starts, after the prologue;
 * 0 when h is no except* handler. */
static uint32_t star_first_clause(const rec *r, int32_t h) {
    const upy_block *hb = blk(r, h);
    uint32_t i = hb->start + 1, lists = 0;
    while (i < hb->end && i < hb->start + 4 &&
           (ins(r, i)->op == N_COPY || ins(r, i)->op == N_SWAP ||
            (ins(r, i)->op == N_BUILD_LIST && ins(r, i)->arg == 0))) {
        lists += ins(r, i)->op == N_BUILD_LIST;
        i++;
    }
    return lists == 1 && star_match_at(r, i) ? i : 0;
}

/* Gives up on the whole handler h (to its cleanup block). */
static int star_fail(rec *r, int32_t h, int32_t cleanup, const region *rg,
                     upy_ptr_vec *out) {
    region frg = *rg;
    frg.start = h;
    frg.end = cleanup > h ? cleanup + 1 : h + 1;
    return rec_fail_region(r, h, &frg, out);
}

/* The miss of the clause whose match test is at instruction eg: the
 * POP_TOP its test jumps to, or 0. */
static uint32_t star_miss(const rec *r, uint32_t eg) {
    int32_t t = ins(r, eg + 2)->target;
    return t > (int32_t)eg && ins(r, (uint32_t)t)->op == N_POP_TOP ? (uint32_t)t
                                                                   : 0;
}

/* The clauses of the except* handler h, its first clause header at
 * instruction at (see above); exit is where the try body goes on.
 * *follow gets where the handler goes on after the try; when the handler
 * ends in a copy of the code after the try instead, *copy is where (0
 * when not). */
static int try_star(rec *r, int32_t h, uint32_t at, int32_t exit,
                    const region *rg, upy_stmt *s, int32_t *follow,
                    uint32_t *copy, upy_ptr_vec *out) {
    int32_t cleanup = blk(r, h)->handler, fb, x;
    uint32_t first = at, prep, base, i, t, raise;
    upy_ptr_vec handlers = {0};
    int guard = 0;

    *follow = UPY_NO_BLOCK;
    *copy = 0;
    /* The shape first: the clause headers, each miss going on to the next
     * one, then the end they all go to. */
    for (;;) {
        uint32_t eg = star_match_at(r, at), miss = eg ? star_miss(r, eg) : 0;
        if (!miss || ++guard > 256)
            return star_fail(r, h, cleanup, rg, out);
        at = miss + 1;
        if (!star_match_at(r, at))
            break;
    }
    if (at < r->ncode.count && ins(r, at)->op == N_LIST_APPEND &&
        ins(r, at)->arg == 1)
        at++;
    if (!is_prep_reraise(r, at) || at + 5 >= r->ncode.count ||
        ins(r, at + 1)->op != N_COPY || ins(r, at + 2)->op != N_POP_JUMP_IF ||
        ins(r, at + 2)->arg != UPY_JUMP_NOT_NONE ||
        ins(r, at + 2)->target < 0 || ins(r, at + 3)->op != N_POP_TOP ||
        ins(r, at + 4)->op != N_POP_EXCEPT)
        return star_fail(r, h, cleanup, rg, out);
    prep = at;
    fb = r->cfg.block_of[prep];
    raise = (uint32_t)ins(r, prep + 2)->target;
    if (raise + 2 >= r->ncode.count || ins(r, raise)->op != N_SWAP ||
        ins(r, raise + 1)->op != N_POP_EXCEPT ||
        ins(r, raise + 2)->op != N_RERAISE)
        return star_fail(r, h, cleanup, rg, out);
    /* The rest appended on each way into the end is no code of a clause
     * body. */
    for (i = blk(r, h)->start; i < prep; i++)
        if (ins(r, i)->op == N_LIST_APPEND && ins(r, i)->arg == 1 &&
            (i + 1 == prep ||
             (ins(r, i + 1)->op == N_JUMP &&
              ins(r, i + 1)->target == (int32_t)blk(r, fb)->start)))
            r->skip[i] = 1;

    /* [exc] -> [group, list, rest]: slots no statement reads. */
    rec_skip_range(r, blk(r, h)->start + 1, first - blk(r, h)->start - 1);
    rec_pop(r);
    for (i = 0; i < 3; i++)
        RETURN_IF_ERROR(rec_push(r, SV_EXC, NULL));
    base = r->sp;

    for (at = first;;) {
        uint32_t eg = star_match_at(r, at), miss = star_miss(r, eg), start;
        int32_t cb = r->cfg.block_of[eg], nb = blk(r, cb)->next, expect;
        int32_t body_exit;
        upy_ptr_vec body = {0};
        upy_handler *hd = upy_arena_alloc(r->arena, sizeof *hd);
        int stop;
        if (!hd)
            return rec_oom(r);
        memset(hd, 0, sizeof *hd);
        r->done[cb] = 1;
        r->sp = base;
        r->base = base;
        stop = rec_run(r, at, eg, rg, out);
        if (stop < 0)
            return ERROR;
        if ((uint32_t)stop != eg || r->sp != base + 1 || nb == UPY_NO_BLOCK)
            return star_fail(r, h, cleanup, rg, out);
        hd->type = rec_value(r, rec_pop(r));
        rec_skip_range(r, eg, 3);
        r->skip[miss] = 1;
        r->done[r->cfg.block_of[miss]] = 1;
        /* The match: bound to a name, or dropped. */
        start = blk(r, nb)->start;
        if (ins(r, start)->op == N_STORE)
            hd->name = rec_str(ins(r, start)->obj);
        else if (ins(r, start)->op != N_POP_TOP)
            return star_fail(r, h, cleanup, rg, out);
        r->skip[start++] = 1;
        r->done[nb] = 1;
        r->done[r->cfg.block_of[start]] = 0;
        at = miss + 1;
        expect = star_match_at(r, at) ? r->cfg.block_of[at] : fb;
        RETURN_IF_ERROR(clause_body(r, start, r->cfg.block_of[miss], hd->name,
                                    base, cleanup, rg, &body, &body_exit));
        if (body_exit != UPY_NO_BLOCK && body_exit != expect)
            return star_fail(r, h, cleanup, rg, out);
        hd->body = upy_vec_stmts(&body);
        if (upy_vec_push(r->arena, &handlers, hd))
            return rec_oom(r);
        if (expect == fb)
            break;
    }

    /* The end: the machinery, done; then the way on. */
    rec_skip_range(r, blk(r, fb)->start, prep + 5 - blk(r, fb)->start);
    for (x = fb; x <= r->cfg.block_of[prep + 4]; x++)
        r->done[x] = 1;
    rec_skip_range(r, raise, 3);
    r->done[r->cfg.block_of[raise]] = 1;
    for (x = h + 1; x < (int32_t)r->cfg.count && x <= cleanup; x++)
        if (blk(r, x)->is_handler && blk(r, x)->handler == cleanup)
            r->done[x] = 1; /* the clause bodies' own handlers */
    if (cleanup != UPY_NO_BLOCK)
        r->done[cleanup] = 1;
    t = prep + 5;
    x = r->cfg.block_of[t];
    if (ins(r, t)->op == N_JUMP) {
        r->skip[t] = 1;
        if (blk(r, x)->start == t)
            r->done[x] = 1;
        *follow = ins(r, t)->target >= 0 ? r->cfg.block_of[ins(r, t)->target]
                                         : UPY_NO_BLOCK;
    } else if (exit != UPY_NO_BLOCK) {
        /* A copy of the code after the try, which the body's way on
         * reaches too. */
        uint32_t n = exit_copy_length(r, t);
        if (!n)
            return star_fail(r, h, cleanup, rg, out);
        rec_skip_range(r, t, n);
        r->done[x] = 1;
        *copy = t;
    } else {
        /* Only the handler goes on: the code after the try follows it. */
        r->done[x] = 0;
        r->resume_block = x;
        r->resume_at = t;
        *follow = x;
    }

    s->u.try_.is_star = 1;
    s->u.try_.handlers =
        upy_arena_array(r->arena, handlers.len, sizeof(upy_handler));
    if (!s->u.try_.handlers)
        return rec_oom(r);
    for (i = 0; i < handlers.len; i++)
        s->u.try_.handlers[i] = *(upy_handler *)handlers.items[i];
    s->u.try_.n_handlers = handlers.len;
    r->sp = base;
    return SUCCESS;
}

/* Whether the body of a try in a loop of a finally body (as the finally
 * handler's copy reads it, region rg) goes on to the RERAISE ending that
 * body while its handlers go on in the loop: the body's way out is a
 * break.  3.12+ lay the end of the finally body (its normal copy: the code
 * after the try statement around it) right after the try's body, in place
 * of the jump of `else: break` (flowgraph.c inline_small_exit_blocks and
 * duplicate_exits_without_lineno copy that small exit block, the RERAISE
 * in the handler's copy, into the jump):
 *
 *     try: ...                         body
 *     finally:                         RERAISE 0        <- the break
 *         while True:                  handler ...
 *             try: c.wait()            JUMP_BACKWARD    (the loop)
 *             except E: pass
 *             else: break
 */
static int breaks_to_finally_end(const rec *r, const region *rg,
                                 int32_t exit, int32_t follow) {
    return exit != UPY_NO_BLOCK && follow != UPY_NO_BLOCK && exit != follow &&
           rg->finally_end && rg->loop != UPY_NO_BLOCK &&
           rg->loop >= rg->finally_start &&
           blk(r, exit)->start == rg->finally_end;
}

/* Appends a `break` starting at instruction at to statements out. */
static int emit_break_at(rec *r, uint32_t at, upy_ptr_vec *out) {
    upy_stmt *brk = rec_stmt(r, UPY_S_BREAK);
    if (!brk)
        return ERROR;
    rec_set_start(r, brk, at);
    return rec_emit(r, out, brk);
}

/* Whether an instruction in [from, to) jumps to block b. */
static int jumps_into(const rec *r, uint32_t from, uint32_t to, int32_t b) {
    uint32_t i;
    for (i = from; i < to; i++)
        if (ins(r, i)->target == (int32_t)blk(r, b)->start)
            return 1;
    return 0;
}

/* 3.12+: `while True:` / `while True:` / `try: A / except: B / else:
 * break` + C, the outer loop's body going on after the inner loop.  The
 * handler goes on at the inner loop's jump back, which
 * push_cold_blocks_to_end lays out after it, and the else part's break
 * runs into C, laid out in its place: the walk of the else part read C
 * and its jump back to the outer loop (a break) as `else: C / break`,
 * the same code.  The order of co_names and co_consts tells them apart
 * (see else_by_order): C's entries come after the handler's.  (A break
 * to code after the inner loop, not to the outer loop's header, is one
 * of the else part.)  The statements of C then end the inner loop (moved_exit),
 * whose walk goes on there; a jump in them to the inner loop's header keeps
 * them in it. Example: consume_nonblock in test_queue.py. */
static int split_else_at_loop_exit(rec *r, int32_t h, int32_t exit,
                                   const region *rg, upy_ptr_vec *orelse) {
    uint32_t n_else, at, end = blk(r, h)->start;
    upy_ptr_vec rest = *orelse;
    upy_stmt *last = orelse->len ? orelse->items[orelse->len - 1] : NULL;
    int32_t b;
    if (!last || last->kind != UPY_S_BREAK || orelse->len < 2 ||
        rg->loop == UPY_NO_BLOCK || rg->moved_exit->block != UPY_NO_BLOCK ||
        ins(r, blk(r, rg->loop)->end - 1)->op == N_FOR_ITER ||
        rg->brk_threaded == UPY_NO_BLOCK || ins(r, last->start)->op != N_JUMP ||
        ins(r, last->start)->target != (int32_t)blk(r, rg->brk_threaded)->start)
        return SUCCESS;
    rest.len--;
    n_else = else_by_order(r, h, exit, UPY_NO_BLOCK, &rest, end);
    if (n_else >= rest.len)
        return SUCCESS;
    at = ((upy_stmt *)rest.items[n_else])->start;
    if (jumps_into(r, at, end, rg->loop))
        return SUCCESS;
    orelse->len = n_else;
    RETURN_IF_ERROR(emit_break_at(r, at, orelse));
    *rg->moved_exit = (rec_resume){r->cfg.block_of[at], at};
    for (b = rg->moved_exit->block; b < h; b++)
        r->done[b] = 0;
    return SUCCESS;
}

/* Values the code keeps on the stack across a try whose handler keeps
 * less (Dynamo's code: a call whose function and arguments were pushed
 * before the protected range, results waiting after it; CPython's
 * handlers keep all that is under a try).  What waits at the try's start
 * is assigned to temporaries before the try statement, and what the body
 * leaves waiting at its end, inside the body (that is where it runs).
 * The handler's walk overwrites the slots above its depth, so the
 * stack the body left is kept in saved and put back after the handler:
 * the code after the try goes on from it. */
typedef struct kept_stack {
    sval *saved;
    uint32_t sp;
} kept_stack;

static uint32_t handler_depth(const rec *r, int32_t h) {
    const upy_block *hb = blk(r, h);
    return hb->depth_in > 0 ? (uint32_t)hb->depth_in - 1 : 0;
}

static int save_body_stack(rec *r, int32_t h, kept_stack *k,
                           upy_ptr_vec *body) {
    uint32_t base = r->base;
    int st;
    r->base = handler_depth(r, h);
    st = rec_spill(r, r->sp, body);
    r->base = base;
    if (st)
        return ERROR;
    k->sp = r->sp;
    k->saved = upy_arena_array(r->arena, r->sp + 1, sizeof *k->saved);
    if (!k->saved)
        return rec_oom(r);
    memcpy(k->saved, r->stack, r->sp * sizeof *k->saved);
    return SUCCESS;
}

static void restore_body_stack(rec *r, const kept_stack *k) {
    memcpy(r->stack, k->saved, k->sp * sizeof *k->saved);
    r->sp = k->sp;
}

/* Whether a lone jump that nothing reaches lies between block exit, where
 * the try body leaves by a jump, and the handlers at block h: the
 * compiler's jump over the handlers (compile.c compiler_try_except:
 * POP_BLOCK; JUMP_FORWARD to the else part), which peephole.c leaves
 * behind, unreachable, after a `break` written last in the body.  A
 * written `else: break` is laid out after the handlers; the body's jump
 * to it is right before them.  Worked example (3.8 after blocks.c;
 * connect_retrying in tests/constructs/open_lies_audit42.py):
 *
 *     while True:
 *         try:                 6  got = attempt()    (handler 11)
 *             got = attempt()
 *             break            9  JUMP 25            (exit)
 *                             10  JUMP 6             (nothing reaches it)
 *         except OSError:     11  PUSH_EXC_INFO ...  (h)
 *             continue
 *     return got, n           25  ...
 *
 * Read without it, the break was printed as the try's `else: break`,
 * which runs the same and recompiles to a jump of its own. */
static int dead_jump_over_handlers(const rec *r, int32_t exit, int32_t h) {
    const upy_block *d = blk(r, exit + 1);
    return exit + 2 == h && !d->npreds && rec_is_lone(r, d, N_JUMP);
}

/* Moves the else part of a try to the end of its body where it is one
 * `break` read before the handlers (exit < h): where the version lays a
 * written else part out after them (upy_layout.else_after_handlers), that
 * is the unwinding of a break written last in the body.  3.10,
 * `for f in fs:` / `try: d = g(f); break` / `except E: pass`: POP_BLOCK;
 * POP_TOP; <copy of the loop's exit> before the handler; printed as
 * `else: break` it compiles to JUMP_FORWARD over the handlers to it.  (A
 * break raises nothing a handler could catch: it runs the same.)  A break
 * of a while loop is a lone jump, which the version threads a written
 * else part's jump through (`while True:` / `try: t = list(s)` / `except
 * E: ...` / `else: break`, asyncio.all_tasks): only the for loop's
 * POP_TOP tells.  And a written else part's break, laid out after the
 * handlers, moves back before them where the version copies the small
 * exit it then is (POP_TOP; LOAD_FAST z; RETURN_VALUE, 3.10 optimize_cfg's
 * inlining of small exit blocks) into the body's JUMP_FORWARD to it: the
 * break's line, before the first handler's or after it, tells.  Where the
 * version keeps unreachable code, the compiler's own jump over the
 * handlers, after a break that ends the body, tells too
 * (dead_jump_over_handlers). */
static int break_ends_body(rec *r, int32_t exit, int32_t h, upy_ptr_vec *body,
                           upy_ptr_vec *orelse) {
    const upy_stmt *only = orelse->len == 1 ? orelse->items[0] : NULL;
    const upy_nin *pop;
    uint32_t i = blk(r, h)->start;
    if (!r->ncode.layout->else_after_handlers || exit == UPY_NO_BLOCK ||
        exit >= h || !only || only->kind != UPY_S_BREAK)
        return SUCCESS;
    pop = ins(r, blk(r, exit)->start);
    while (i < r->ncode.count && ins(r, i)->line < 0)
        i++;
    if (!dead_jump_over_handlers(r, exit, h) &&
        (pop->op != N_POP_TOP || pop->line < 0 || i == r->ncode.count ||
         pop->line >= ins(r, i)->line))
        return SUCCESS;
    if (upy_vec_push(r->arena, body, orelse->items[0]))
        return rec_oom(r);
    orelse->len = 0;
    return SUCCESS;
}

/* --- 3.13: a try that ends an except clause in a loop ----------------- */

/* UPY_S_BREAK or UPY_S_CONTINUE when block b is that statement leaving
 * the except clause of region rg (POP_EXCEPT, the name cleanup of a named
 * clause, for a break of a for loop the POP_TOP of its iterator, a jump to
 * the innermost loop's targets), else UPY_S_PASS. */
static upy_stmt_kind clause_loop_jump(const rec *r, int32_t b,
                                      const region *rg) {
    const upy_block *bb = blk(r, b);
    uint32_t i = bb->start + 1;
    int32_t t = bb->jump;
    if (ins(r, bb->start)->op != N_POP_EXCEPT ||
        ins(r, bb->end - 1)->op != N_JUMP || t == UPY_NO_BLOCK ||
        rg->loop == UPY_NO_BLOCK)
        return UPY_S_PASS;
    if (rg->except_name) {
        if (i + 3 > bb->end || !rec_is_name_cleanup(r, i, rg->except_name))
            return UPY_S_PASS;
        i += 3;
    }
    if (i + 1 == bb->end && t == rg->cont)
        return UPY_S_CONTINUE;
    if (i + 2 == bb->end && ins(r, i)->op == N_POP_TOP)
        i++;
    return i + 1 == bb->end && (t == rg->brk || t == rg->brk_threaded)
               ? UPY_S_BREAK
               : UPY_S_PASS;
}

/* Where the body of a try that goes on at block b leaves the except
 * clause of region rg by the clause's own way out (POP_EXCEPT, the name
 * cleanup, a jump to the code after the try around, not to the loop): that
 * block, b or the one 3.12 jumps to over the handlers; else UPY_NO_BLOCK. */
static int32_t way_out_of_clause(const rec *r, int32_t b, const region *rg) {
    const upy_block *bb;
    if (b == UPY_NO_BLOCK || b < rg->start || b >= rg->end)
        return UPY_NO_BLOCK;
    bb = blk(r, b);
    if (rec_is_lone(r, bb, N_JUMP) && bb->jump > b && bb->jump < rg->end)
        bb = blk(r, b = bb->jump);
    return ins(r, bb->start)->op == N_POP_EXCEPT &&
                   ins(r, bb->end - 1)->op == N_JUMP && bb->jump != rg->cont &&
                   bb->jump != rg->brk && bb->jump != rg->brk_threaded &&
                   bb->end - bb->start == (rg->except_name ? 5u : 2u)
               ? b
               : UPY_NO_BLOCK;
}

/* A try that ends an enclosing except clause, region rg, whose body goes
 * on by the clause's way out (exit, way_out_of_clause; 3.13 lays it out
 * right after the body) while its handlers go on at *follow to a break or
 * continue of the clause (clause_loop_jump), laid out after the clause's
 * code as if it were the code after the try.  That statement ends each
 * handler that runs off, and the try goes on where the body does: 1 when
 * so, 0 when not that shape.  (3.11 and 3.12 jump to the way out over the
 * handlers: not read this way yet; rec_try marks them.) */
static int handlers_end_in_loop_jump(rec *r, const region *rg, upy_stmt *s,
                                     int32_t exit, int32_t *follow) {
    upy_stmt_kind kind;
    upy_stmt *j;
    uint32_t k;
    if (*follow == UPY_NO_BLOCK || exit == *follow || *follow < rg->start ||
        *follow >= rg->end || way_out_of_clause(r, exit, rg) != exit)
        return 0;
    kind = clause_loop_jump(r, *follow, rg);
    if (kind == UPY_S_PASS)
        return 0;
    j = rec_stmt(r, kind);
    if (!j)
        return rec_oom(r);
    rec_set_start(r, j, blk(r, *follow)->start);
    for (k = 0; k < s->u.try_.n_handlers; k++) {
        upy_stmt_list *L = &s->u.try_.handlers[k].body;
        upy_stmt **items;
        if (rec_ends_terminal(L))
            continue;
        items = upy_arena_array(r->arena, L->len + 1, sizeof *items);
        if (!items)
            return rec_oom(r);
        if (L->len)
            memcpy(items, L->items, L->len * sizeof *items);
        items[L->len] = j;
        L->items = items;
        L->len++;
    }
    r->done[*follow] = 1;
    *follow = exit;
    return 1;
}

/* Whether code of a try in region rg that runs on into block b goes back
 * to rg's loop header: rg runs off to it and b is past rg's end, or b is a
 * lone jump there.  Else a `continue` in the try is no way of running off
 * its body or a clause: in
 *     for i in xs:
 *         try:
 *             if i: continue
 *             g()
 *         except E as e:
 *             if e.args: continue
 *             raise
 *         h()
 * `if not i: g()` (and `if e.args: pass` / `else: raise`) would run h()
 * where the continue skips it. */
static int runs_into_loop(const rec *r, const region *rg, int32_t b) {
    const upy_block *eb;
    if (!rg->falls_to_loop || b >= rg->end)
        return rg->falls_to_loop;
    eb = blk(r, b);
    return rec_is_lone(r, eb, N_JUMP) && eb->jump == rg->loop &&
           !eb->is_handler;
}

/* Where the inner `while True:` that the body of the try at block b
 * (protected by handler h up to block end) starts with ends, when b is
 * the header of the loop around (region rg's) too: after the last block
 * of the body that jumps back there under h; UPY_NO_BLOCK when none does.
 * The inner loop shares that header (its NOP removed), as in `while c:` /
 * `try:` / `while True: f()` / `except E: g()`.  A `continue` of the loop
 * around jumps back from outside the protected range (it leaves the try
 * first), so a jump back under h is the inner loop's. */
static int32_t inner_loop_end(const rec *r, int32_t b, int32_t h, int32_t end,
                              const region *rg) {
    int32_t k, inner_end = UPY_NO_BLOCK;
    if (b != rg->loop)
        return UPY_NO_BLOCK;
    for (k = b; k < end && k < (int32_t)r->cfg.count; k++) {
        const upy_block *kb = blk(r, k);
        if (kb->handler == h && kb->jump == b && !r->skip[kb->end - 1] &&
            ins(r, kb->end - 1)->op == N_JUMP)
            inner_end = k + 1;
    }
    return inner_end;
}

/* Whether the body of the try at block b made no code (N_EMPTY_BODY
 * alone under its handler h, normalize.c find_empty_tries) yet holds
 * statements before a return: the code after the try, up to its return,
 * that the body's end took in (rec_protected_end, is_return_in_body).
 * except* clauses have no reading that gives it back as the code after
 * the try (an else part they do give back): 3.12 `try: pass` / `except*
 * E: pass` / `x` read `x; return` as the body, so the NameError of x went
 * to the clause.  Such a try is marked.  (A lone return taken in, as
 * where a finally body's copy before it is skipped, runs the same.) */
static int took_code_after_empty_body(const rec *r, int32_t b, int32_t h,
                                      const upy_ptr_vec *body) {
    const upy_nin *first = ins(r, blk(r, b)->start);
    uint32_t k, n = body->len;
    if (blk(r, b)->end - blk(r, b)->start != 1 || first->op != N_EMPTY_BODY ||
        first->handler != (int32_t)blk(r, h)->start || !n ||
        ((const upy_stmt *)body->items[n - 1])->kind != UPY_S_RETURN)
        return 0;
    for (k = 0; k + 1 < n; k++)
        if (((const upy_stmt *)body->items[k])->kind != UPY_S_PASS)
            return 1;
    return 0;
}

/* Whether a way out of the try body at block b through a copy of its
 * finally body (skipped), before the copy on the normal way out at block
 * exit, jumps forward past the code after the try (block follow) to code
 * that is no break of the loop around (region rg): the break of a loop
 * whose jump back the compiler dropped as unreachable (a `while True:`
 * body that ends in `break`), which no statement here can make.  In
 *     while True:                    (no loop in the code)
 *         try:
 *             if not out: break      copy of the finally body; JUMP L
 *             out.append(8)
 *         finally: out.append(10)    copy; (follow:)
 *         out.append(11)
 *         break
 *     out.append(13)              L:
 * the jump was read as the end of `if not out: pass`, which ran
 * out.append(11) (test_sys_settrace test_jump_over_break_in_try_finally_
 * block, all versions): the try is marked. */
static int copy_jumps_past_follow(const rec *r, int32_t b, int32_t exit,
                                  int32_t follow, const region *rg) {
    uint32_t i, after;
    if (exit == UPY_NO_BLOCK || follow == UPY_NO_BLOCK ||
        follow >= (int32_t)r->cfg.count)
        return 0;
    after = blk(r, follow)->start;
    for (i = blk(r, b)->start + 1; i < blk(r, exit)->start; i++) {
        int32_t t = ins(r, i)->target, tb;
        if (ins(r, i)->op != N_JUMP || r->skip[i] || !r->skip[i - 1] ||
            t <= (int32_t)after || t >= (int32_t)r->ncode.count)
            continue;
        /* (A break or continue of rg's loop.) */
        tb = r->cfg.block_of[t];
        if (rg->loop == UPY_NO_BLOCK ||
            (tb != rg->brk && tb != rg->brk_threaded && tb != rg->cont &&
             tb != rg->loop))
            return 1;
    }
    return 0;
}

/* Where the copy of the finally body on the normal way out of a try body
 * that went on to block exit starts: at exit, or, when the body ran the
 * code of exit's block up to a lone jump forward ending it (at exit_at),
 * where that jump goes.  3.8-3.10, `try:` / `with a:` / `with b:` / `try:
 * g()` / `except E: return False` / `else: return True` / `finally: g()`
 * (3.9 test_shutil.supports_file2file_sendfile): the body ends in a's
 * __exit__ call, reached where b's handler goes when __exit__ swallows,
 * past the unprotected copies of the finally body on the returns' ways
 * out, and a jump to the copy. */
static uint32_t normal_copy_at(const rec *r, int32_t exit, uint32_t exit_at) {
    const upy_block *eb = blk(r, exit);
    if (exit_at > eb->start && exit_at + 1 == eb->end &&
        ins(r, exit_at)->op == N_JUMP && eb->jump != UPY_NO_BLOCK &&
        eb->jump > exit)
        return blk(r, eb->jump)->start;
    return eb->start;
}

/* Whether the try body [b, end) went on at block exit, past its end,
 * over block end, which starts with a copy of a with's exit that
 * skip_with_exits took and which nothing read: the way out, through the
 * with, of a `continue` or `break` that makes the else part of an inner
 * try.  3.8-3.10 lay each try's else part after its own handlers
 * (compile.c compiler_try_except), so the inner try's lies between them
 * and the outer try's, outside the outer try's range, and the inner try
 * read no else part: the `continue` was lost and the code after the with
 * ran (with_try_else_exits.py else_continue_nested_try: `with a:` /
 * `try:` / `try: f()` / `except E: pass` / `else: continue` / `except F:
 * pass`, then `after()`).  Not recovered.  (3.12+ lay handlers cold,
 * past the code, where a body may go on past such a block rightly.) */
static int skips_exit_copy(const rec *r, int32_t end, int32_t exit) {
    return !r->ncode.layout->cold_handlers && exit != UPY_NO_BLOCK &&
           exit > end && !r->done[end] && r->skip[blk(r, end)->start] &&
           !r->skip[blk(r, end)->end - 1];
}

/* Whether the else part read as the rest of the region [exit, rg->end)
 * left it at its end, a lone jump to the loop's `continue`, while the
 * handlers go on at follow, cold code past it: the else part then skips
 * that code, which the try's output would run after it.  The body's
 * `break` of a one-shot `while True:` (flowgraph.c drops its unreachable
 * back edge) jumps to the `continue` after that loop, and the code after
 * the try, which only the handlers reach, push_cold_blocks_to_end lays
 * out past the handlers (open_lies_audit37.py
 * one_shot_loop_break_in_try_restore, snowballstemmer arabic_stemmer
 * ArabicStemmer.__r_Normalize_pre: `while True:` / `try:` / `while
 * True:` / `try: ...; break` / `except KeyError: pass` / `pos = start`
 * ... / `break` / `continue`, 3.12 / 3.13).  Not recovered. */
static int else_skips_cold_follow(const rec *r, const region *rg,
                                  int32_t follow, int32_t else_left) {
    const upy_block *e;
    if (else_left == UPY_NO_BLOCK || else_left != rg->end ||
        follow <= else_left || rg->cont == UPY_NO_BLOCK ||
        else_left >= (int32_t)r->cfg.count)
        return 0;
    e = blk(r, else_left);
    return rec_is_lone(r, e, N_JUMP) && e->jump == rg->cont;
}

/* Whether the code after the try, at follow, laid out past the else
 * part or the body's way out (push_cold_blocks_to_end: only the handlers
 * reach it), jumps to `to` in the 64 blocks from follow (the rule's few
 * statements, so that many tries cost linear time). */
static int cold_follow_jumps_to(const rec *r, const region *rg, int32_t follow,
                                int32_t to) {
    int32_t q;
    for (q = follow; q < (int32_t)r->cfg.count && q - follow < 64; q++) {
        const upy_block *c = blk(r, q);
        /* (A lone jump has no handler: 3.12+ cover only what may raise.) */
        if (c->jump == to && !c->is_handler &&
            (c->handler == rg->handler ||
             (rec_is_lone(r, c, N_JUMP) && c->handler < 0)))
            return 1;
    }
    return 0;
}

/* Where the body that left the try at exit goes on: past the lone jump
 * at exit, unless that is the loop's break or continue. */
static int32_t body_way_on(const rec *r, const region *rg, int32_t exit) {
    int32_t to;
    if (!rec_is_lone(r, blk(r, exit), N_JUMP))
        return exit;
    to = blk(r, exit)->jump;
    return to == rg->cont || to == rg->brk ? exit : to;
}

/* Whether the code after the try, at follow, laid out past the else
 * part read at exit, jumps into that else part: it was no else part, but
 * code that the body and the code after the try share, which a one-shot
 * `while True:` whose body the try starts leaves for with a `break`
 * (flowgraph.c drops the loop's unreachable back edge).  Read as it is,
 * the shared code ran as the try's else part, and the code after the try
 * after it (snowballstemmer english_stemmer
 * EnglishStemmer.__r_mark_regions, 3.13: `while True:` / `try: ...;
 * break` / `except lab1: pass` / code / `break`, then code;
 * one_shot_loops.py).  The body's `break` may be a lone jump to the
 * shared code, as where a second such try follows (french_stemmer
 * FrenchStemmer.__r_mark_regions, 3.12 / 3.13:
 * one_shot_loops.py::two_tries_share_the_break).  Not recovered. */
static int cold_follow_joins_else(const rec *r, const region *rg, int32_t exit,
                                  int32_t follow) {
    if (exit == UPY_NO_BLOCK || follow == UPY_NO_BLOCK || follow <= exit ||
        exit == rg->follow)
        return 0;
    return cold_follow_jumps_to(r, rg, follow, exit) ||
           cold_follow_jumps_to(r, rg, follow, body_way_on(r, rg, exit));
}

/* Whether the body, with no else part, leaves the try at exit past the
 * code after the try, at follow, which only the handlers reach and which
 * no statement around explains: read as it is, that code ran after the
 * body too.  Each shape is the `break` out of a one-shot `while True:`
 * whose back edge nothing reaches (flowgraph.c drops it; 3.8 / 3.9
 * peephole.c keeps it, unreachable, and no loop is read).  Not recovered.
 *   - The body leaves the region [rg->start, rg->end) at its end (or past
 *     it, where nothing follows the region), while the handlers go on at
 *     follow, past exit, code that the region's handler still protects:
 *     the code after the try laid out past the handlers
 *     (push_cold_blocks_to_end), which the break, ending the body of an
 *     enclosing try, skips for the code after that try (snowballstemmer
 *     english_stemmer EnglishStemmer.__r_Step_1b, catalan_stemmer
 *     CatalanStemmer._stem, 3.12 / 3.13: `try:` / `while True:` / `try:
 *     ...; break` / `except lab1: pass` / code / `break` / `except lab0:
 *     pass`; one_shot_loops.py).
 *   - The body leaves by a lone jump over that code, cold, to where that
 *     code jumps too: the break in a branch of an if statement, which
 *     goes where the if does (snowballstemmer estonian_stemmer
 *     EstonianStemmer.__r_case_ending, polish_stemmer
 *     PolishStemmer.__r_remove_endings, 3.12 / 3.13: `if c:` / `while
 *     True:` / `try: ...; break` / `except lab0: pass` / code / `break`;
 *     one_shot_loops.py::branch_try_break).  (A handler's own code going
 *     on where the body does, `if c: try: ... / except E: x = 1`, is no
 *     code after the try: follow is that jump, or where it goes.  Nor is
 *     the code after the region, where the cold exit of a with statement
 *     in the body jumps too.)
 *   - The body leaves the region by a lone jump at exit to code past it,
 *     while the handlers go on at follow inside the region: the break
 *     goes to the `continue` after the one-shot loop, past the enclosing
 *     try's body (3.8 / 3.9, open_lies_audit37.py
 *     one_shot_loop_break_in_try: `while True:` / `try:` / `while True:`
 *     / `try: ...; break` / `except KeyError: pass` / code / `raise
 *     IndexError` / `continue` / `except IndexError: pass`). */
static int body_skips_cold_follow(const rec *r, const region *rg, int32_t exit,
                                  int32_t follow) {
    int32_t on;
    if (exit == UPY_NO_BLOCK || follow == UPY_NO_BLOCK)
        return 0;
    if ((exit == rg->end || (exit > rg->end && rg->follow == UPY_NO_BLOCK)) &&
        follow > exit && follow < (int32_t)r->cfg.count &&
        blk(r, follow)->handler == rg->handler && exit != rg->follow &&
        follow != rg->follow && exit != rg->brk && exit != rg->cont)
        return 1;
    if (follow > exit && follow < (int32_t)r->cfg.count &&
        follow != rg->follow) {
        on = body_way_on(r, rg, exit);
        if (on != exit && on != follow &&
            !(rec_is_lone(r, blk(r, follow), N_JUMP) &&
              blk(r, follow)->jump == on) &&
            cold_follow_jumps_to(r, rg, follow, on))
            return 1;
    }
    if (follow == exit || follow < rg->start || follow >= rg->end ||
        !rec_is_lone(r, blk(r, exit), N_JUMP))
        return 0;
    on = blk(r, exit)->jump;
    return on >= rg->end && on != rg->follow && on != rg->brk &&
           on != rg->brk_threaded && on != rg->cont;
}

int rec_try(rec *r, int32_t b, int32_t h, const region *rg, int32_t *next,
            upy_ptr_vec *out) {
    const upy_block *hb = blk(r, h);
    uint32_t try_depth = r->sp, first = 0, reraise = 0, depth_after, star = 0;
    int is_finally, copy_ok = 0, uncopied = 0;
    int32_t end = rec_protected_end(r, b, h, rg), exit, follow = UPY_NO_BLOCK;
    int32_t unwind_from = 0, inner_end;
    uint32_t exit_at = 0;
    upy_ptr_vec body = {0}, orelse = {0}, finalbody = {0}, after = {0};
    region body_rg;
    upy_stmt *s = rec_stmt(r, UPY_S_TRY);
    int kept = r->sp > handler_depth(r, h);
    kept_stack body_stack = {NULL, 0};

    if (!s)
        return ERROR;
    /* (The statement starts with its body: what was evaluated last may be
     * some other code, as the handlers of the try before.) */
    rec_set_start(r, s, blk(r, b)->start);
    /* (PUSH_EXC_INFO may be a block of its own: a finally body that
     * starts with a try is under that try's handler from its next
     * instruction on.) */
    if (ins(r, hb->start)->op != N_PUSH_EXC_INFO ||
        hb->start + 1 >= r->ncode.count)
        return rec_fail_region(r, b, rg, out);
    is_finally = 0;
    if (ins(r, hb->start + 1)->op != N_POP_TOP &&
        !is_clause_header(r, hb->start + 1, hb->end)) {
        int st = finally_range(r, h, &first, &reraise);
        if (st < 0)
            return ERROR;
        is_finally = st == 0;
    }
    if (is_finally) {
        end = skip_finally_copies(r, b, h, end, rg, first, reraise - first,
                                  &unwind_from);
        if (end < 0)
            return ERROR;
    }
    /* (Kept values across except clauses: not modelled, so not
     * recovered rather than read from a stack the handlers overwrote.) */
    if (kept && !is_finally)
        return rec_fail_region(r, b, rg, out);
    if (kept && rec_spill(r, r->sp, out))
        return ERROR;

    /* The body. */
    body_rg = *rg;
    body_rg.start = b;
    body_rg.end = end;
    body_rg.follow = UPY_NO_BLOCK;
    body_rg.handler = h;
    body_rg.alt_handler = REC_NO_ALT;
    body_rg.unwind_from = unwind_from;
    body_rg.unwind_end = end;
    body_rg.falls_to_loop = runs_into_loop(r, rg, end);
    /* (With values kept, the body may take them and leave others: it ends
     * at its end all the same, not where those would be used.  Its
     * statements end at the depth it leaves, that of the block after.) */
    if (kept)
        body_rg.base = end < (int32_t)r->cfg.count && blk(r, end)->depth_in >= 0
                           ? (uint32_t)blk(r, end)->depth_in
                           : try_depth;
    inner_end = inner_loop_end(r, b, h, end, rg);
    if (inner_end != UPY_NO_BLOCK
            ? rec_inner_while_true(r, b, inner_end, &body_rg, &body, &exit)
            : rec_region(r, b, &body_rg, &body, &exit))
        return ERROR;
    if (exit != UPY_NO_BLOCK && exit < (int32_t)r->cfg.count)
        exit_at = r->resume_block == exit ? r->resume_at : blk(r, exit)->start;
    if (!is_finally && end < h && skips_exit_copy(r, end, exit))
        return rec_fail_region(r, b, rg, out);
    depth_after = try_depth;
    if (kept && exit != UPY_NO_BLOCK &&
        save_body_stack(r, h, &body_stack, &body))
        return ERROR;

    /* The handler. */
    r->done[h] = 1;
    RETURN_IF_ERROR(enter_handler(r, h, try_depth));
    if (is_finally) {
        region frg = *rg;
        int32_t fb = r->cfg.block_of[first];
        frg.start = h;
        frg.end = r->cfg.block_of[reraise] +
                  (ins(r, reraise)->op == N_RERAISE ? 1 : 0);
        frg.follow = UPY_NO_BLOCK;
        frg.handler = hb->handler;
        frg.alt_handler = REC_NO_ALT;
        frg.base = r->sp;
        frg.finally_end = reraise;
        frg.brk_ends_finally = 0;
        frg.finally_start = h;
        r->resume_block = fb;
        r->resume_at = first;
        r->done[fb] = 0;
        RETURN_IF_ERROR(rec_region(r, fb, &frg, &finalbody, NULL));
        /* The copy on the normal way out of the body. */
        if (exit != UPY_NO_BLOCK) {
            uint32_t at = normal_copy_at(r, exit, exit_at), n = reraise - first;
            int moved = copy_without_handlers(r, at, first, &n);
            if (moved < 0)
                return ERROR;
            copy_ok = moved || is_normal_finally_copy(r, at, first, n) ||
                      ends_in_inline_handler(r, at, first, &n);
            if (!copy_ok) {
                copy_ok = rec_returning_finally_copy(r, at, first, &n);
                if (copy_ok < 0)
                    return ERROR;
                /* (Not the copy a clause's break leaves through, which
                 * 3.12+ may lay out where the body runs off its end.) */
                if (copy_ok && places_returns(r, at, n))
                    copy_ok = 0;
            }
            if (!copy_ok) {
                /* (It claims the copy itself, as copy_without_handlers.) */
                moved = copy_ok = copy_joining_tail(r, at, first, &n);
                if (copy_ok < 0)
                    return ERROR;
            }
            if (copy_ok) {
                if (!moved && rec_skip_copy(r, at, first, n))
                    return ERROR;
                if (blk(r, exit)->start == at)
                    claim_exit_copies(r, b, end, exit);
                follow = r->cfg.block_of[at + n < r->ncode.count ? at + n : at];
                /* (A finally body that always raises, with no RERAISE of
                 * its own, leaves nothing after its copy: what follows is
                 * the handler.) */
                if (ins(r, reraise)->op != N_RERAISE ||
                    copy_runs_off_nowhere(r, at + n))
                    follow = UPY_NO_BLOCK;
                else if (at + n < r->ncode.count &&
                    blk(r, follow)->start != at + n) {
                    r->resume_block = follow;
                    r->resume_at = at + n;
                }
            } else {
                /* The body goes on without the copy of the finally body
                 * the compiler puts there, as this reads it: the code
                 * there is not known to be the code after the try. */
                uncopied = 1;
            }
        }
        s->u.try_.finalbody = upy_vec_stmts(&finalbody);
        if (copy_jumps_past_follow(r, b, exit, follow, rg))
            return rec_fail_region(r, b, rg, out);
    } else {
        uint32_t copy = 0;
        clause_copy cc;
        int handled = 0, in_place = handlers_in_place(r, b, exit);
        /* (The clauses run off to where the body goes on.) */
        region clauses_rg = *rg;
        if (exit != UPY_NO_BLOCK)
            clauses_rg.falls_to_loop = runs_into_loop(r, rg, exit);
        star = star_first_clause(r, h);
        if (star && took_code_after_empty_body(r, b, h, &body))
            return rec_fail_region(r, b, rg, out);
        if (star ? try_star(r, h, star, exit, rg, s, &follow, &copy, out)
                 : try_except(r, b, h, &clauses_rg, s, &follow, out))
            return ERROR;
        if (exit_copies_follow(r, exit, follow)) {
            rec_skip_range(r, blk(r, exit)->start,
                           blk(r, exit)->end - blk(r, exit)->start);
            r->done[exit] = 1;
            /* (Only code without a line was copied: a jump back to the
             * loop is the implicit way on of the code around the try, not
             * a continue written there.) */
            if (blk(r, follow)->jump == rg->cont)
                r->skip[blk(r, follow)->end - 1] = 1;
            exit = follow;
        }
        if (clause_exit_copy(r, exit, follow) != UPY_NO_BLOCK) {
            int32_t t = clause_exit_copy(r, exit, follow);
            rec_skip_range(r, blk(r, t)->start,
                           blk(r, t)->end - blk(r, t)->start);
            rec_skip_range(r, blk(r, exit)->start, 1);
            r->done[t] = r->done[exit] = 1;
            exit = follow;
        }
        if (follow == UPY_NO_BLOCK && !star && strip_exit_copies(r, s, exit)) {
            /* (The clauses went on into copies of the code after the
             * try: it is where the body goes on.) */
            follow = exit;
        }
        if (!star && strip_break_copies(r, rg, s))
            return ERROR;
        if (!star)
            strip_branch_copies(r, s);
        if (!star && find_clause_copy(r, s, &cc)) {
            /* (A copy of the loop's exit, a break in the clauses
             * (break_copy), is a break in the body too, not the body
             * running on into the code after the try: `try: if c:
             * break; A / except E: break` in a while loop lost its
             * first break.) */
            if (!copy_of_block(r, rg->brk, &cc))
                strip_body_copies(r, h, exit, &body, &cc);
            handled = clause_copy_exit(r, h, rg, s, &cc, exit, depth_after,
                                       &follow, &orelse, &after);
            if (handled < 0)
                return ERROR;
        }
        if (!handled && !star) {
            int32_t w = way_out_of_clause(r, exit, rg);
            handled = handlers_end_in_loop_jump(r, rg, s, exit, &follow);
            if (handled < 0)
                return ERROR;
            /* (Else a body that leaves the clause there while the handlers
             * go on inside it to other code: that code, after the try in
             * the source, would run after the body too.  Not recovered.) */
            if (!handled && w != UPY_NO_BLOCK && follow != UPY_NO_BLOCK &&
                follow != w && follow != exit && follow >= rg->start &&
                follow < rg->end)
                return rec_fail_region(r, b, rg, out);
        }
        /* The else part: from where the body left to where the handlers
         * go on. */
        if (handled) {
            /* (clause_copy_exit placed the code after the try.) */
        } else if (copy && exit >= rg->start) {
            /* The except* handler ends in a copy of the code after the
             * try (a final return): what the body goes on to, but for a
             * last statement of that code, is the else part. */
            uint32_t n = exit_copy_length(r, copy), n_else = 0;
            const upy_stmt *last;
            r->sp = depth_after;
            RETURN_IF_ERROR(walk_rest(r, rg, exit, &follow, &after));
            last = after.len ? after.items[after.len - 1] : NULL;
            if (last && rec_same_code(r, last->start, copy, n) &&
                !rec_same_code(r, blk(r, exit)->start, copy, n))
                n_else = after.len - 1;
            RETURN_IF_ERROR(move_to_else(r, &after, n_else, &orelse));
        } else if (breaks_to_finally_end(r, rg, exit, follow)) {
            RETURN_IF_ERROR(emit_break_at(r, blk(r, exit)->start, &orelse));
        } else if (exit != UPY_NO_BLOCK && follow != UPY_NO_BLOCK &&
                   exit != follow && exit < follow && exit >= rg->start &&
                   (follow <= rg->end || star || (in_place && exit < h))) {
            /* (Where the handlers go on past the region, as to the copy
             * of an enclosing finally body, the else part ends at the
             * handler that follows it -- except after an except* handler,
             * which goes on after the else part only: 3.11 writes that
             * after the handler.) */
            region erg = *rg;
            int32_t else_left = UPY_NO_BLOCK;
            erg.start = exit;
            erg.end = follow <= rg->end || star ? follow : h;
            erg.follow = follow;
            r->sp = depth_after;
            RETURN_IF_ERROR(rec_region(r, exit, &erg, &orelse, &else_left));
            /* (An else part that jumps past where the handlers go on, to
             * code of the region -- or past the region, when the else part
             * itself runs past it up to the handler -- that no loop or
             * enclosing statement explains, skips that code, which the
             * try's output would run after it: a `break` of a one-shot
             * `while True:` whose back edge the compiler removed as
             * unreachable.  Not recovered.  So does an else part that
             * prints nothing and stops at a block of its own before where
             * the handlers go on, leaving the enclosing clauses elsewhere
             * (leaves_clause_elsewhere).) */
            if (((else_left > follow &&
                  (else_left <= rg->end || erg.end > rg->end)) ||
                 (else_left >= exit && else_left < follow && !orelse.len &&
                  leaves_clause_elsewhere(r, else_left, follow))) &&
                else_left != rg->follow && else_left != rg->brk &&
                else_left != rg->cont)
                return rec_fail_region(r, b, rg, out);
        } else if ((!in_place && exit != UPY_NO_BLOCK &&
                    follow != UPY_NO_BLOCK && exit >= rg->start &&
                    exit < rg->end && follow >= rg->end && follow != rg->brk) ||
                   (star && exit != UPY_NO_BLOCK && exit != follow &&
                    exit >= rg->start && follow != UPY_NO_BLOCK &&
                    (follow == rg->follow || follow == rg->cont) &&
                    !(blk(r, exit)->end - blk(r, exit)->start == 1 &&
                      blk(r, exit)->jump == follow))) {
            /* The rest of the region from where the body goes on is the
             * else part when no code after the try is left in it: on
             * 3.12+, with the handlers moved after all other code, when
             * they go on past the region (where an enclosing if statement
             * ends); and when an except* handler goes on where the region
             * does (to the next turn of the loop the try ends), unless
             * the body only jumps there too. */
            region erg = *rg;
            int32_t else_left = UPY_NO_BLOCK;
            erg.start = exit;
            erg.follow = follow;
            r->sp = depth_after;
            if (rec_region(r, exit, &erg, &orelse, &else_left) ||
                split_else_at_loop_exit(r, h, exit, rg, &orelse))
                return ERROR;
            if (else_skips_cold_follow(r, rg, follow, else_left))
                return rec_fail_region(r, b, rg, out);
        } else if (exit != UPY_NO_BLOCK && exit < h &&
                   cold_else_part(r, exit, h, rg)) {
            /* The else part is the cold code up to the handlers; the try
             * goes on where they do, or where the else part does. */
            region erg = *rg;
            int32_t else_exit;
            erg.start = exit;
            erg.end = h;
            erg.follow = follow;
            r->sp = depth_after;
            RETURN_IF_ERROR(rec_region(r, exit, &erg, &orelse, &else_exit));
            if (follow == UPY_NO_BLOCK)
                follow = else_exit;
        } else if (follow == UPY_NO_BLOCK && exit != UPY_NO_BLOCK && in_place &&
                   exit < h && exit >= rg->start) {
            /* No handler goes on after the try, but the body does, and
             * before the handlers: that is an else part (code after the
             * try would follow the handlers). */
            region erg = *rg;
            int32_t way_on;
            erg.start = exit;
            erg.end = h;
            erg.follow = UPY_NO_BLOCK;
            r->sp = depth_after;
            RETURN_IF_ERROR(rec_region(r, exit, &erg, &orelse, &follow));
            /* (So when the else part is empty: the body's last if
             * statement read its test through the lone jump over the
             * handlers, 3.11's, which then holds no statement.) */
            if (follow == h || (follow == UPY_NO_BLOCK && !orelse.len))
                follow = else_jumps_past(r, exit, h, rg);
            if (follow != UPY_NO_BLOCK && !orelse.len &&
                clause_skips_rest(r, h, follow, rg)) {
                erg.start = follow;
                erg.end = rg->end;
                erg.follow = rg->follow;
                RETURN_IF_ERROR(rec_region(r, follow, &erg, &orelse, &follow));
            }
            /* (A break the else part's walk wrote from a lone jump of its
             * own is no way on lost: only code before the jump runs into
             * it.) */
            way_on = orelse.len ? h - 1 : exit;
            if (follow == UPY_NO_BLOCK && (!orelse.len || way_on > exit) &&
                breaks_over_handlers(r, way_on, exit, rg) &&
                emit_break_at(r, blk(r, way_on)->start, &orelse))
                return ERROR;
        } else if (follow == UPY_NO_BLOCK && exit != UPY_NO_BLOCK &&
                   !in_place && exit >= rg->start && exit < rg->end) {
            r->sp = depth_after;
            RETURN_IF_ERROR(rest_after_try(r, h, rg, exit, s, NULL, &follow,
                                           &orelse, &after));
        } else if (follow == UPY_NO_BLOCK) {
            follow = exit;
        }
        if (!star && orelse.len && cold_follow_joins_else(r, rg, exit, follow))
            return rec_fail_region(r, b, rg, out);
        if (!star && !orelse.len && body_skips_cold_follow(r, rg, exit, follow))
            return rec_fail_region(r, b, rg, out);
        RETURN_IF_ERROR(break_ends_body(r, exit, h, &body, &orelse));
        s->u.try_.orelse = upy_vec_stmts(&orelse);
    }
    r->sp = depth_after;
    if (body_stack.saved)
        restore_body_stack(r, &body_stack);
    r->base = rg->base;
    s->u.try_.body = upy_vec_stmts(&body);
    *next = follow;
    RETURN_IF_ERROR(rec_emit(r, out, s));
    if (uncopied) {
        region rest = rec_sub_region(rg, exit, rg->end > exit ? rg->end : exit + 1,
                                     UPY_NO_BLOCK);
        *next = UPY_NO_BLOCK;
        return rec_fail_region(r, exit, &rest, out);
    }
    RETURN_IF_ERROR(rec_emit_all(r, out, &after));
    return SUCCESS;
}
