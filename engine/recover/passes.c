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
    const upy_nin *in = &r->ncode.ins[s->start];
    return r->is_module && s->kind == UPY_S_RETURN &&
           (!s->u.value || rec_is_const_none(s->u.value)) &&
           s->start + 1 < r->ncode.count && in[0].op == N_LOAD_CONST &&
           in[0].obj && in[0].obj->kind == UPY_NONE && in[1].op == N_RETURN;
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
    in = &pl->r->ncode.ins[i];
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
            return -1;
    }
    if (added)
        *list = upy_vec_stmts(&out);
    return 0;
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
