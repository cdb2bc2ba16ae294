/*
 * passes.c - the statements that left no code of their own.
 *
 * CPython compiles `pass` (and an expression statement of a constant) to
 * a NOP with the statement's line, and keeps the NOP where its line says
 * something new (remove_redundant_nops, see lead_nops() in
 * normalize/normalize.c).  A NOP left in the code shapes the code around
 * it, though the round trip ignores the NOP itself: a jump to the block
 * it starts is no jump to an exit without a line number, which
 * duplicate_exits_without_lineno would have copied, and it counts in the
 * size inline_small_exit_blocks checks.  So such NOPs come back as a
 * `pass` each, on its own line, before the statement whose code follows
 * them: where they start a block that jumps join (the NOP of a `break`
 * or of a `try:` line is no such block's start: those statements give
 * their NOP back themselves), and at the end of a module, before the
 * implicit `return None` the tidy-up drops.
 */
#include "recover/rec.h"

typedef struct placing {
    rec *r;
    uint8_t *placed; /* per instruction: its NOPs have their passes */
    int failed;
} placing;

static int place_in(placing *pl, upy_stmt_list *list);

static void place_visit(upy_stmt_list *list, upy_list_role role,
                        const upy_stmt *holder, void *arg) {
    placing *pl = arg;
    (void)role;
    (void)holder;
    if (!pl->failed && place_in(pl, list))
        pl->failed = 1;
}

/* Whether s is a module's `return None` whose code is the load and the
 * return alone (the NOP before a return that unwinds a with or finally
 * first is the return's own line).  (In a function the NOP before it can
 * be a try body's last statement, moved past the copy of an empty finally
 * body: the return after a try has its own block there.) */
static int is_bare_return_none(const rec *r, const upy_stmt *s) {
    const upy_nin *in = ins(r, s->start);
    return r->is_module && s->kind == UPY_S_RETURN &&
           (!s->u.value || rec_is_const_none(s->u.value)) &&
           s->start + 1 < r->ncode.count && upy_nin_loads_none(&in[0]) &&
           in[1].op == N_RETURN;
}

static int is_loop(const upy_stmt *s) {
    return s && (s->kind == UPY_S_WHILE || s->kind == UPY_S_FOR);
}

/* How many passes go before s, after `prev` (NULL when first): the NOPs
 * before its first instruction, once (an enclosing statement starting
 * there took them first).  After a loop a joined NOP can be the loop's
 * last `break`, whose jump to right after the loop CPython made a NOP. */
static uint32_t passes_before(placing *pl, const upy_stmt *prev,
                              const upy_stmt *s) {
    uint32_t i = s->start;
    const upy_nin *in;
    if (s->kind == UPY_S_PASS || i >= pl->r->ncode.count || pl->placed[i])
        return 0;
    in = ins(pl->r, i);
    if (!is_bare_return_none(pl->r, s) &&
        (!in->lead_nops_joined || is_loop(prev)))
        return 0;
    pl->placed[i] = 1;
    /* The return of a line other than the NOP's before it took the line
     * of one more, which it made redundant.  That one counts only for the
     * size of the block (more than 4 instructions are not inlined): fewer
     * NOPs start a block that is copied into the jumps to it alike. */
    if (is_bare_return_none(pl->r, s) && in->lead_nops >= 3 && in->line >= 0 &&
        in->lead_line >= 0 && in->line != in->lead_line)
        return in->lead_nops + 1;
    return in->lead_nops;
}

static int place_in(placing *pl, upy_stmt_list *list) {
    upy_ptr_vec out = {0};
    uint32_t k, n, added = 0;
    for (k = 0; k < list->len; k++) {
        upy_stmt *s = list->items[k];
        if (!s)
            continue;
        for (n = passes_before(pl, k ? list->items[k - 1] : NULL, s); n > 0;
             n--, added++) {
            upy_stmt *p = rec_stmt(pl->r, UPY_S_PASS);
            if (!p || upy_vec_push(pl->r->arena, &out, p))
                return rec_oom(pl->r);
            rec_set_start(pl->r, p, s->start);
        }
        if (upy_vec_push(pl->r->arena, &out, s))
            return rec_oom(pl->r);
        upy_stmt_each_list(s, place_visit, pl);
        if (pl->failed)
            return ERROR;
    }
    if (added)
        *list = upy_vec_stmts(&out);
    return SUCCESS;
}

/* The implicit `return None` ending a module, with NOPs before it that
 * no statement took: the module's one load of None and return, or -1.
 * (Where the compiler copied the return into the branches that reach it,
 * the NOPs before one copy are the last statements of that branch.) */
static int64_t final_return(const rec *r) {
    int64_t found = -1;
    uint32_t i;
    for (i = 0; i + 1 < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (upy_nin_loads_none(in) && in[1].op == N_RETURN) {
            if (found >= 0)
                return -1;
            found = i;
        }
    }
    return found >= 0 && ins(r, found)->lead_nops ? found : -1;
}

/* Whether a pass placed for the NOPs before instruction at is among the
 * statements. */
static int has_pass_of(upy_stmt_list *list, uint32_t at);

static void pass_in(upy_stmt_list *list, upy_list_role role,
                    const upy_stmt *holder, void *arg) {
    uint32_t *at = arg;
    (void)role;
    (void)holder;
    if (at[1] == 0 && has_pass_of(list, at[0]))
        at[1] = 1;
}

static int has_pass_of(upy_stmt_list *list, uint32_t at) {
    uint32_t k, found[2] = {at, 0};
    for (k = 0; k < list->len && !found[1]; k++) {
        if (!list->items[k])
            continue;
        if (list->items[k]->kind == UPY_S_PASS && list->items[k]->start == at)
            return 1;
        upy_stmt_each_list(list->items[k], pass_in, found);
    }
    return (int)found[1];
}

/* The passes before a module's final return go at its end, where no
 * statement took them (the structure recovered the return from another
 * copy of it, as the way out of a handler).  A return of
 * a line other than the NOP's before it took the line of one more NOP,
 * which it made redundant.  That one counts only for the size of the
 * block (more than 4 instructions are not inlined): fewer NOPs start a
 * block that is copied into the jumps to it alike. */
int rec_place_final_passes(rec *r, upy_stmt_list *body) {
    int64_t at = r->is_module ? final_return(r) : -1;
    const upy_nin *in = at >= 0 ? ins(r, at) : NULL;
    upy_ptr_vec with = {0};
    uint32_t k, n;
    if (!in || has_pass_of(body, (uint32_t)at))
        return SUCCESS;
    n = in->lead_nops;
    if (n >= 3 && in->line >= 0 && in->lead_line >= 0 &&
        in->line != in->lead_line)
        n++;
    for (k = 0; k < body->len; k++)
        if (upy_vec_push(r->arena, &with, body->items[k]))
            return rec_oom(r);
    for (k = 0; k < n; k++) {
        upy_stmt *p = rec_stmt(r, UPY_S_PASS);
        if (!p || upy_vec_push(r->arena, &with, p))
            return rec_oom(r);
        rec_set_start(r, p, (uint32_t)at);
    }
    *body = upy_vec_stmts(&with);
    return SUCCESS;
}

int rec_place_passes(rec *r, upy_stmt_list *body) {
    placing pl;
    pl.r = r;
    pl.failed = 0;
    pl.placed = upy_arena_array(r->arena, r->ncode.count + 1, 1);
    if (!pl.placed)
        return rec_oom(r);
    return place_in(&pl, body);
}
