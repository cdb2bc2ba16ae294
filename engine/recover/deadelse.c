/*
 * deadelse.c - the else part a 3.8-3.9 return leaves behind.
 *
 * An if whose body cannot fall through compiles the same with or without
 * an else (`if c: return 1 / else: return 2` and `if c: return 1 /
 * return 2`), but for what comes after the if / else: its end, where 3.8-
 * 3.9's compile.c compiler_if puts the code after the statement, a block
 * nothing reaches when both ways return.  peephole.c drops unreachable
 * code after a RETURN_VALUE in its own basic block only, so that end's
 * code stays: the implicit return at the end of a function, the jump back
 * of a loop body (upy_layout.keeps_unreachable_ends).  Written without
 * the else, the return after the if is the end of the body and nothing
 * follows it.  Worked example (3.8):
 *
 *     def g(c):                  0  LOAD c; 1 POP_JUMP_IF false -> 4
 *         if c:                  2  LOAD_CONST 1; 3 RETURN
 *             return 1           4  LOAD_CONST 2; 5 RETURN
 *         else:                  6  LOAD_CONST None; 7 RETURN
 *             return 2              (unreachable)
 *
 * So a statement list that ends in a return followed by unreachable code
 * had that return in an else part: of the last if before it whose body
 * cannot fall through, or of the last try whose clauses cannot (a try's
 * else part runs where the end of its body goes, unprotected, as the code
 * after the try does).  The statements after that if or try go into its
 * else part, which runs them the same.
 *
 * The jump after an except clause that ends in a raise, break or continue
 * stays too (compile.c compiler_try_except: POP_EXCEPT; JUMP_FORWARD end,
 * peephole.c dropping only what follows a RETURN_VALUE): it goes to the
 * end of the try, past its else part, where the code after a try without
 * one starts.  Worked example (3.9, _pyio.py BytesIO.read):
 *
 *     try:                        SETUP_FINALLY h; ...; POP_BLOCK
 *         i = size.__index__      JUMP_FORWARD e
 *     except AttributeError:   h: ...; RAISE_VARARGS 1
 *         raise TypeError(size)      POP_EXCEPT; JUMP_FORWARD end
 *     else:                          (unreachable)
 *         size = i()           e: LOAD i; CALL 0; STORE size
 *     return size            end: LOAD size; RETURN_VALUE
 *
 * So the statements after such a try that start before the end its
 * clauses' jumps give go into its else part, which runs them the same
 * where no clause goes on to them.
 */
#include "recover/rec.h"

#include <string.h>

/* The statement whose code ends that of s: the last of s's else part
 * where s is an if / else or a try with an else part and no finally. */
static const upy_stmt *last_of(const upy_stmt *s) {
    for (;;) {
        const upy_stmt_list *orelse =
            s->kind == UPY_S_IF ? &s->u.if_.orelse
            : s->kind == UPY_S_TRY && !s->u.try_.finalbody.len
                ? &s->u.try_.orelse
                : NULL;
        if (!orelse || !orelse->len)
            return s;
        s = orelse->items[orelse->len - 1];
    }
}

/* Whether statement s ends in a return followed by code nothing
 * reaches. */
static int return_before_dead_code(const rec *r, const upy_stmt *s) {
    uint32_t i;
    const upy_block *b;
    s = last_of(s);
    if (s->kind != UPY_S_RETURN)
        return 0;
    /* (Its return instruction may be one an exit copied before it, a
     * with's __exit__ call, consumed: r->skip.) */
    for (i = s->start; i < r->ncode.count && ins(r, i)->op != N_RETURN; i++)
        ;
    if (i + 1 >= r->ncode.count)
        return 0;
    b = blk(r, r->cfg.block_of[i + 1]);
    return b->start == i + 1 && b->rpo == UINT32_MAX && !b->is_handler;
}

/* The else part of s, when s is an if or try whose else part could hold
 * the statements after it (nothing else goes on to them), and the code
 * after s holds no jump of the compiler's over that else part; NULL when
 * not.  (An if body that ends in a raise, break or continue keeps the
 * jump over the else part: `if c: continue` + T is not `if c: continue` /
 * `else: T`.  The jump after a clause goes to the end of the try, where
 * the else part puts the dead code.) */
static upy_stmt_list *free_else_of(upy_stmt *s) {
    uint32_t k;
    if (s->kind == UPY_S_IF)
        return !s->u.if_.orelse.len &&
                       rec_drops_jump_over_else(&s->u.if_.body, 1)
                   ? &s->u.if_.orelse
                   : NULL;
    if (s->kind != UPY_S_TRY || s->u.try_.orelse.len ||
        s->u.try_.finalbody.len || !s->u.try_.n_handlers)
        return NULL;
    for (k = 0; k < s->u.try_.n_handlers; k++) {
        const upy_stmt_list *h = &s->u.try_.handlers[k].body;
        if (!rec_drops_jump_over_else(h, 1) &&
            !(h->len && h->items[h->len - 1]->kind == UPY_S_RAISE))
            return NULL;
    }
    return &s->u.try_.orelse;
}

static void else_in(upy_stmt_list *list, upy_list_role role,
                    const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    rec_else_before_dead_code((const rec *)arg, list);
}

/* Where the jumps after the clauses of try s go (see the header), when
 * they go past after, the start of the statement after s, and agree; else
 * after.  Each is a jump nothing reaches between the two.  One that goes
 * back before the try is one peephole.c threaded through the jump back of
 * a loop the try ends the body of: past every statement after s. */
static uint32_t dead_clause_jumps_end(const rec *r, const upy_stmt *s,
                                      uint32_t after) {
    uint32_t i, end = after, to;
    for (i = s->start; i < after && i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (in->op != N_JUMP || in->target < 0 ||
            ((uint32_t)in->target < after &&
             (uint32_t)in->target >= s->start) ||
            blk(r, r->cfg.block_of[i])->rpo != UINT32_MAX)
            continue;
        to = (uint32_t)in->target < after ? UINT32_MAX : (uint32_t)in->target;
        if (end != after && end != to)
            return after;
        end = to;
    }
    return end;
}

/* Whether no clause of try s goes on to the code after it. */
static int clauses_end_terminal(const upy_stmt *s) {
    uint32_t k;
    for (k = 0; k < s->u.try_.n_handlers; k++)
        if (!rec_ends_terminal(&s->u.try_.handlers[k].body))
            return 0;
    return s->u.try_.n_handlers > 0;
}

static void else_before_clause_jumps_in(upy_stmt_list *list, upy_list_role role,
                                        const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    rec_else_before_clause_jumps((const rec *)arg, list);
}

void rec_else_before_clause_jumps(const rec *r, upy_stmt_list *body) {
    uint32_t k, m, end;
    upy_stmt **orelse;
    for (k = 0; k < body->len; k++)
        upy_stmt_each_list(body->items[k], else_before_clause_jumps_in,
                           (void *)r);
    if (!r->ncode.layout->keeps_jump_after_exit)
        return;
    for (k = 0; k + 1 < body->len; k++) {
        upy_stmt *s = body->items[k];
        if (s->kind != UPY_S_TRY || s->u.try_.orelse.len ||
            s->u.try_.finalbody.len || !clauses_end_terminal(s))
            continue;
        end = dead_clause_jumps_end(r, s, body->items[k + 1]->start);
        /* (A continue after the try is a jump back the jumps went
         * through as well.) */
        if (end == UINT32_MAX && body->items[k + 1]->kind == UPY_S_CONTINUE)
            continue;
        for (m = k + 1; m < body->len && body->items[m]->start < end; m++)
            ;
        if (m == k + 1 ||
            !(orelse = upy_arena_array(r->arena, m - k - 1, sizeof *orelse)))
            continue;
        memcpy(orelse, body->items + k + 1, (m - k - 1) * sizeof *orelse);
        s->u.try_.orelse.items = orelse;
        s->u.try_.orelse.len = m - k - 1;
        memmove(body->items + k + 1, body->items + m,
                (body->len - m) * sizeof *body->items);
        body->len -= m - k - 1;
    }
}

void rec_else_before_dead_code(const rec *r, upy_stmt_list *body) {
    uint32_t k;
    for (k = 0; k < body->len; k++)
        upy_stmt_each_list(body->items[k], else_in, (void *)r);
    if (!r->ncode.layout->keeps_unreachable_ends || body->len < 2 ||
        !return_before_dead_code(r, body->items[body->len - 1]))
        return;
    for (k = body->len - 1; k-- > 0;) {
        upy_stmt_list *orelse = free_else_of(body->items[k]);
        if (orelse) {
            orelse->items = body->items + k + 1;
            orelse->len = body->len - k - 1;
            body->len = k + 1;
            return;
        }
    }
}

/* An else part whose statements compile to nothing (`else: pass`, a
 * constant expression) still gets the jump over it: 3.8-3.9's compile.c
 * compiler_if puts a JUMP_FORWARD after the body whatever the else part
 * holds, and peephole.c keeps a jump to the next instruction (3.10's
 * optimize_cfg drops it).  Worked example (3.8):
 *
 *     if c:                      0  LOAD c; 1 POP_JUMP_IF_FALSE -> 4
 *         x                      2  LOAD x; 3 POP_TOP
 *     else:                      4  JUMP_FORWARD -> 5
 *         pass                   5  LOAD_CONST None; 6 RETURN
 *
 * So a then part whose last block ends in a jump to the instruction right
 * after it, where the test's false way goes too, had an else part: `pass`
 * (upy_layout.keeps_jump_to_next). */
int rec_jumps_over_empty_else(const rec *r, int32_t then_end, int32_t join) {
    const upy_block *last;
    uint32_t j;
    if (!r->ncode.layout->keeps_jump_to_next || then_end <= 0 ||
        join == UPY_NO_BLOCK || join >= (int32_t)r->cfg.count)
        return 0;
    last = blk(r, then_end - 1);
    j = last->end - 1;
    /* (Not the cleanup of a chained comparison, `POP_TOP; JUMP_FORWARD 0`
     * after the then part, which only the test's jump reaches.) */
    if (last->end - last->start == 2 && ins(r, last->start)->op == N_POP_TOP &&
        last->start > 0 && !upy_nin_falls_through(ins(r, last->start - 1)))
        return 0;
    return ins(r, j)->op == N_JUMP && ins(r, j)->target == (int32_t)j + 1 &&
           blk(r, join)->start == j + 1;
}
