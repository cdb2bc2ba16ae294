/*
 * tidy.c - undoing what the compiler adds on its own, and shaping the
 * statements the way people write them.
 *
 * Each rewrite here keeps the code the compiler makes from the statements
 * the same (that is the test of the round trip); it removes what the
 * compiler would add again by itself (the implicit `return None`, a class
 * body's __module__ / __qualname__ stores) and puts back source shapes
 * that compile to the same code as the ones recovered: `if c: A; return`
 * + B at the end of a function is `if c: A` / `else: B` (the compiler
 * copies the final return into the branch), an else holding one if with
 * a terminal body is an elif chain.
 */
#include <stdlib.h>
#include <string.h>

#include "recover/rec.h"

static int is_store_of(const upy_stmt *s, const char *name) {
    return s && s->kind == UPY_S_ASSIGN && s->u.assign.targets.len == 1 &&
           s->u.assign.targets.items[0]->kind == UPY_E_NAME &&
           strcmp(s->u.assign.targets.items[0]->u.name, name) == 0;
}

/* `name = value`, value a name: the compiler's own stores of a class
 * body that are no source. */
static int is_store_of_name(const upy_stmt *s, const char *name,
                            const char *value) {
    const upy_expr *v = s ? s->u.assign.value : NULL;
    return is_store_of(s, name) && v && v->kind == UPY_E_NAME &&
           strcmp(v->u.name, value) == 0;
}

static int is_str_const(const upy_expr *e) {
    return e && e->kind == UPY_E_CONST && e->u.constant &&
           e->u.constant->kind == UPY_STR;
}

/* Drops statements [k] from the list. */
static void drop(upy_stmt_list *body, uint32_t k) {
    if (k >= body->len)
        return;
    memmove(body->items + k, body->items + k + 1,
            (body->len - k - 1) * sizeof(upy_stmt *));
    body->len--;
}

static int is_return_none(const upy_stmt *s) {
    return s->kind == UPY_S_RETURN &&
           (!s->u.value || rec_is_const_none(s->u.value));
}

/* Where the block that holds the None load at `at` of a return starts
 * when the way out of an except clause runs into it: the clause's
 * POP_EXCEPT (and the name cleanup of `except E as name`) start the
 * block, which is the code after the try when only the handler goes on
 * there.  `at` when there is none of those before it. */
static uint32_t clause_exit_before(const rec *r, uint32_t at) {
    const upy_nin *in = r->ncode.ins;
    uint32_t k = at;
    if (k >= 4 && rec_clears_a_name(r, k - 3))
        k -= 3;
    return k > 0 && in[k - 1].op == N_POP_EXCEPT ? k - 1 : at;
}

/* Whether block b, which starts a return of None, is reached as no copy
 * of the implicit return is (see written_return), where the compiler
 * copies that return into the ways that reach it:
 *   - where it copies it into every jump (upy_layout.copies_exits), by
 *     more than one way: from several blocks, or by both ways on from a
 *     conditional jump to right after it (the test of `if x or True:
 *     pass` jumps over the NOP the folded `True` left to where it runs on
 *     to anyway);
 *   - where written exits keep their jumps (3.11,
 *     upy_layout.written_exits_keep_jumps), by an unconditional forward
 *     jump from another line.  (Cold exception handlers jump back to exits
 *     without copying them.  A block without a line of its own takes the
 *     line of the jump into it: 3.11 lays the code after a with out past
 *     the with's handler, and the with's exit jumps there, to a copy of the
 *     implicit return when the with ends a branch of a final if.)
 * 3.8-3.9 end every body in the one return: no. */
static int reached_as_written(const rec *r, const upy_block *b) {
    const upy_block *p;
    uint32_t k;
    if (r->ncode.layout->copies_exits && b->npreds > 1)
        return 1;
    if (r->ncode.layout->copies_exits && b->npreds == 1) {
        p = blk(r, b->preds[0]);
        if (p->jump != UPY_NO_BLOCK && p->jump == p->next)
            return 1;
    }
    if (!r->ncode.layout->written_exits_keep_jumps)
        return 0;
    for (k = 0; k < b->npreds; k++) {
        const upy_nin *jump;
        p = blk(r, b->preds[k]);
        jump = ins(r, p->end - 1);
        if (jump->op == N_JUMP && p->start < b->start && blk(r, p->jump) == b &&
            jump->line != ins(r, b->start)->line)
            return 1;
    }
    return 0;
}

/* Whether return statement s is one the source wrote: since 3.10 the
 * compiler gives each jump to an exit block without a line number (the
 * implicit return) a copy of its own, so such a block has at most one
 * way in; a final return with more had a line of its own.  So had one
 * that 3.11 enters by a jump (see upy_layout.written_exits_keep_jumps). */
static int written_return(const rec *r, const upy_stmt *s) {
    uint32_t i = s->start;
    const upy_block *b;
    if (r->is_module || r->is_class_body)
        return 0;
    while (i < r->ncode.count && (ins(r, i)->op != N_RETURN || r->skip[i]))
        i++;
    /* The return's own block: its None load starts one. */
    if (i == 0 || i >= r->ncode.count || ins(r, i - 1)->op != N_LOAD_CONST)
        return 0;
    b = blk(r, r->cfg.block_of[i - 1]);
    if (b->start != i - 1) {
        /* (3.11 copies the implicit return alone, not the way out of a
         * clause into it: that block has more ways in either way.) */
        if (!r->ncode.layout->copies_exits ||
            r->ncode.layout->written_exits_keep_jumps ||
            b->start != clause_exit_before(r, i - 1))
            return 0;
        return b->npreds > 1 &&
               !rec_has_line_of_a_pred(r, r->cfg.block_of[i - 1], i);
    }
    return reached_as_written(r, b);
}

/* The implicit `return None` at the end of a body, and its copies the
 * compiler put at the end of each branch of a final if / try / with
 * (exit blocks are duplicated into the paths that reach them). */
/* The else part of a final loop runs on to the end of the code: its copies
 * of the implicit return go, and in a class body 3.13's
 * __static_attributes__ store copied with it (the compiler stores that at
 * the end by itself). */
static void drop_class_end_copies(upy_stmt_list *body) {
    upy_stmt *last;
    if (body->len &&
        is_store_of(body->items[body->len - 1], "__static_attributes__"))
        body->len--;
    last = body->len ? body->items[body->len - 1] : NULL;
    if (last && last->kind == UPY_S_IF) {
        drop_class_end_copies(&last->u.if_.body);
        drop_class_end_copies(&last->u.if_.orelse);
    }
}

static void drop_final_return_of_else(const rec *r, upy_stmt_list *orelse) {
    rec_drop_final_return(r, orelse);
    if (r->is_class_body)
        drop_class_end_copies(orelse);
}

void rec_drop_final_return(const rec *r, upy_stmt_list *body) {
    upy_stmt *s;
    uint32_t k;
    /* A bare return after a final compound statement (its own copies
     * dropped below) goes too. */
    while (body->len && is_return_none(body->items[body->len - 1])) {
        if (written_return(r, body->items[body->len - 1]))
            return;
        body->len--;
    }
    /* (Only where the compiler copies the implicit return does a final
     * compound statement hold copies of it: 3.8-3.9 end every body in the
     * one return, and a return in a branch is written.) */
    if (!body->len || !r->ncode.layout->copies_exits)
        return;
    s = body->items[body->len - 1];
    switch (s->kind) {
    case UPY_S_IF:
        rec_drop_final_return(r, &s->u.if_.body);
        rec_drop_final_return(r, &s->u.if_.orelse);
        break;
    case UPY_S_TRY:
        /* (A function's return in a try with a finally may be written: it
         * is kept.  A module or class body writes none, so one there is
         * the implicit return after the finally's copy on a clause's way
         * out, which 3.12+ duplicates (`try: a / except: pass / else: b /
         * finally: c` at module level read `return` after the inner try,
         * then marked as a return outside a function).) */
        if (s->u.try_.finalbody.len && !r->is_module && !r->is_class_body)
            break;
        rec_drop_final_return(r, s->u.try_.orelse.len ? &s->u.try_.orelse
                                                      : &s->u.try_.body);
        for (k = 0; k < s->u.try_.n_handlers; k++)
            rec_drop_final_return(r, &s->u.try_.handlers[k].body);
        break;
    case UPY_S_WITH:
        rec_drop_final_return(r, &s->u.with.body);
        break;
    case UPY_S_FOR:
    case UPY_S_WHILE:
        drop_final_return_of_else(
            r, s->kind == UPY_S_FOR ? &s->u.for_.orelse : &s->u.while_.orelse);
        break;
    default:
        break;
    }
}

static int ends_with_raise(const upy_stmt_list *body) {
    return body->len && body->items[body->len - 1]->kind == UPY_S_RAISE;
}

/* Whether the statement list ends with a bare `return` (or one of None),
 * looking into a final if's branches and a final try's ways on (the else
 * part, else the body, and each clause; no finally body). */
static int ends_with_return_none(const upy_stmt_list *body) {
    const upy_stmt *s;
    uint32_t k;
    if (!body->len)
        return 0;
    s = body->items[body->len - 1];
    if (is_return_none(s))
        return 1;
    if (s->kind == UPY_S_TRY) {
        if (s->u.try_.finalbody.len || !s->u.try_.n_handlers ||
            !ends_with_return_none(s->u.try_.orelse.len ? &s->u.try_.orelse
                                                        : &s->u.try_.body))
            return 0;
        /* (A clause that ends in a raise never goes on: `except E:
         * raise F('a')`, the body's way on the implicit return.) */
        for (k = 0; k < s->u.try_.n_handlers; k++)
            if (!ends_with_return_none(&s->u.try_.handlers[k].body) &&
                !ends_with_raise(&s->u.try_.handlers[k].body))
                return 0;
        return 1;
    }
    return s->kind == UPY_S_IF && s->u.if_.orelse.len &&
           ends_with_return_none(&s->u.if_.body) &&
           ends_with_return_none(&s->u.if_.orelse);
}

/* Whether two expressions are the same simple value (names, constants,
 * attributes of those): the copies of one small exit block. */
static int same_simple(const upy_expr *a, const upy_expr *b) {
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case UPY_E_NAME:
        return strcmp(a->u.name, b->u.name) == 0;
    case UPY_E_CONST:
        return a->u.constant == b->u.constant;
    case UPY_E_ATTR:
        return strcmp(a->u.attr.attr, b->u.attr.attr) == 0 &&
               same_simple(a->u.attr.value, b->u.attr.value);
    default:
        return 0;
    }
}

/* Whether two statements are copies of one statement, as the compiler
 * makes when it copies a small final block into the branches that jump
 * to it: simple statements of the same values, or defs of the same code
 * object. */
static int same_stmt(const upy_stmt *a, const upy_stmt *b) {
    uint32_t k;
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case UPY_S_RETURN:
        return same_simple(a->u.value, b->u.value);
    case UPY_S_EXPR:
        return same_simple(a->u.expr, b->u.expr);
    case UPY_S_ASSIGN:
        if (a->u.assign.targets.len != b->u.assign.targets.len ||
            !same_simple(a->u.assign.value, b->u.assign.value))
            return 0;
        for (k = 0; k < a->u.assign.targets.len; k++)
            if (!same_simple(a->u.assign.targets.items[k],
                             b->u.assign.targets.items[k]))
                return 0;
        return 1;
    case UPY_S_FUNCTIONDEF:
        return a->u.funcdef.origin &&
               a->u.funcdef.origin == b->u.funcdef.origin;
    case UPY_S_CLASSDEF:
        return a->u.classdef.origin &&
               a->u.classdef.origin == b->u.classdef.origin;
    case UPY_S_PASS:
    case UPY_S_BREAK:
    case UPY_S_CONTINUE:
        return 1;
    default:
        return 0;
    }
}

/* Whether return statement s keeps its value under an exception being
 * handled (value; SWAP 2; POP_EXCEPT; RETURN): a return written in an
 * except clause, never a copy of the code after the try. */
static int returns_from_handler(const rec *r, const upy_stmt *s) {
    uint32_t i;
    for (i = s->start; i < r->ncode.count && ins(r, i)->op != N_RETURN; i++)
        if (ins(r, i)->op == N_SWAP || ins(r, i)->op == N_POP_EXCEPT)
            return 1;
    return 0;
}

/* Whether `body` ends with a copy of the statements `tail`.  Only 3.10
 * and 3.12+ copy written code (up to four instructions) into the branches
 * that jump to it; 3.11 copies the implicit return only. */
static int ends_with_copy(const rec *r, const upy_stmt_list *body,
                          const upy_stmt_list *tail) {
    uint32_t k;
    if (!tail->len || body->len < tail->len || !r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps)
        return 0;
    if (body->items[body->len - 1]->kind == UPY_S_RETURN &&
        returns_from_handler(r, body->items[body->len - 1]))
        return 0;
    for (k = 0; k < tail->len; k++) {
        const upy_stmt *a = body->items[body->len - tail->len + k];
        const upy_stmt *t = tail->items[k];
        if (!same_stmt(a, t))
            return 0;
        /* A copy keeps the lines of its block (inline_small_exit_blocks):
         * `return 8` on a line of its own is written twice.  The implicit
         * return's copies take their jump's line instead
         * (duplicate_exits_without_lineno), as a class body's end does. */
        if (!is_return_none(t) && !r->is_class_body &&
            a->start < r->ncode.count && t->start < r->ncode.count &&
            ins(r, a->start)->line != ins(r, t->start)->line)
            return 0;
    }
    return 1;
}

/* The co_consts entry instruction `in` uses: a constant's load, or a
 * call's tuple of keyword names (KW_NAMES, or the constant CALL_KW and
 * CALL_FUNCTION_KW take), or NULL. */
static const upy_object *const_used(const upy_nin *in) {
    return in->op == N_LOAD_CONST || in->op == N_CALL ? in->obj : NULL;
}

/* Whether constant o is used by an instruction before `before`. */
static int loaded_before(const rec *r, const upy_object *o, uint32_t before) {
    uint32_t i;
    for (i = 0; i < before && i < r->ncode.count; i++)
        if (const_used(ins(r, i)) == o)
            return 1;
    return 0;
}

/* Whether code before instruction `before` uses a constant that entered
 * co_consts after index `k`: then the source used co_consts[k] earlier
 * still.  (Instructions, not co_consts, are the test: the flowgraph copies
 * the final `return None` into earlier branches, which does not move None
 * in co_consts.) */
static int later_const_before(const rec *r, size_t k, uint32_t before) {
    const upy_object *consts = r->code->consts;
    size_t n = upy_seq_len(consts), j;
    uint32_t i;
    for (i = 0; i < before && i < r->ncode.count; i++) {
        const upy_object *o = const_used(ins(r, i));
        if (!o)
            continue;
        for (j = k + 1; j < n; j++)
            if (upy_seq_item(consts, j) == o)
                return 1;
    }
    return 0;
}

/* Whether return statement s leaves a with body by a copy of the with's
 * exit (LOAD_CONST None x3; CALL 2; [AWAIT;] POP_TOP) that runs on from
 * the code before it, in one block.  The compiler makes such a copy for
 * each return written in the body (compile.c compiler_unwind_fblock);
 * `if c: A` / `else: B` at the end of the body would reach one exit, the
 * with's own, by a jump from A. */
static int returns_through_with(const rec *r, const upy_stmt *s) {
    uint32_t i = s->start, at;
    int32_t b;
    const upy_block *bb;
    const upy_nin *in = r->ncode.ins;
    while (i < r->ncode.count && (in[i].op != N_RETURN || r->skip[i]))
        i++;
    if (i < 7 || i >= r->ncode.count || !upy_nin_loads_none(&in[i - 1]))
        return 0;
    at = i - 2;
    if (in[at].op != N_POP_TOP)
        return 0;
    if (in[at - 1].op == N_AWAIT)
        at--;
    /* (The exit is the return's, not that of a with statement just
     * before it, which ends where its exit does.) */
    if (at < 5 || at - 4 < s->start || in[at - 1].op != N_CALL ||
        in[at - 1].arg != 2 || !upy_nin_loads_none(&in[at - 2]) ||
        !upy_nin_loads_none(&in[at - 3]) || !upy_nin_loads_none(&in[at - 4]))
        return 0;
    b = r->cfg.block_of[at - 4];
    bb = blk(r, b);
    /* (The exit lies outside the body's protected range: a block of its
     * own, which the code before it runs into; or which the branches of
     * an if before the return join in at the return's line: `if c: A` /
     * `return` + B, where `if c: A` / `else: B` enters the with's own
     * exit, which has no line but the with's, by a jump from A.) */
    return bb->start < at - 4 ||
           (b > 0 && bb->npreds == 1 && bb->preds[0] == b - 1 &&
            blk(r, b - 1)->next == b &&
            in[blk(r, b - 1)->end - 1].op != N_JUMP) ||
           in[at - 4].lead_line >= 0;
}

/* Whether a final return of statements l that ends_with_return_none
 * reads was written: one that written_return or returns_through_with
 * tells (of a final if, its first), in a final try's ways on each. */
static int written_final_return(const rec *r, const upy_stmt_list *l) {
    const upy_stmt *s = l->items[l->len - 1];
    uint32_t k;
    if (s->kind != UPY_S_TRY)
        return written_return(r, s) || returns_through_with(r, s);
    for (k = 0; k < s->u.try_.n_handlers; k++)
        if (!ends_with_raise(&s->u.try_.handlers[k].body) &&
            written_final_return(r, &s->u.try_.handlers[k].body))
            return 1;
    return written_final_return(r, s->u.try_.orelse.len ? &s->u.try_.orelse
                                                        : &s->u.try_.body);
}

static int holds_copy_into(const rec *r, const upy_stmt *s, uint32_t t0,
                           uint32_t t1);
static void exit_range(const rec *r, const upy_stmt_list *l, uint32_t a,
                       uint32_t *from, uint32_t *to);

/* Whether `if c: A; return` + B (B the statements after the if, to the
 * end of the code) came from that source and not from `if c: A` / `else:
 * B`.  Both compile alike but for where None enters co_consts: at the
 * explicit return, before every constant B brings, or later (at the
 * implicit final return, or where B itself uses None), and a return
 * with more than one way in is written (see written_return).  Where the
 * constants do not tell (a function's co_consts[0] is None when it has no
 * docstring; B brings no constant; the code before B used None already),
 * a lone return is taken as a guard clause. */
static int explicit_return(const rec *r, const upy_stmt *s,
                           const upy_stmt_list *rest) {
    const upy_object *consts = r->code->consts;
    size_t none = 0, n = upy_seq_len(consts), k, first_new = n;
    uint32_t i, from = rest->items[0]->start, none_at = UINT32_MAX,
                new_at = UINT32_MAX;

    if (r->is_module)
        return 0;
    /* Before 3.10 the return of `if c: A` / `else: B` is a jump to the
     * final one, so a return at the end of A is written. */
    if (!r->ncode.layout->copies_exits ||
        written_final_return(r, &s->u.if_.body))
        return 1;
    if (rest->len > 1 && is_return_none(rest->items[rest->len - 1])) {
        uint32_t t0, t1;
        exit_range(r, rest, rest->len - 1, &t0, &t1);
        if (holds_copy_into(r, rest->items[rest->len - 2], t0, t1))
            return 1;
    }
    while (none < n && upy_seq_item(consts, none)->kind != UPY_NONE)
        none++;
    for (i = from; i < r->ncode.count; i++) {
        const upy_object *o = const_used(ins(r, i));
        if (o && o->kind == UPY_NONE && i < none_at)
            none_at = i;
        if (!o || o->kind == UPY_NONE)
            continue;
        if (new_at == UINT32_MAX && !loaded_before(r, o, from))
            new_at = i;
        for (k = 0; k < first_new; k++)
            if (upy_seq_item(consts, k) == o) {
                if (!loaded_before(r, o, from))
                    first_new = k;
                break;
            }
    }
    /* (B loading None before any constant new to it, `if x: return`
     * written first, enters None there too: then the table says
     * nothing.) */
    if (none < n && first_new < n && (none > 0 || r->is_class_body) &&
        !later_const_before(r, none, from) && none_at > new_at)
        return none < first_new;
    return s->u.if_.body.len == 1 && s->u.if_.body.items[0]->kind != UPY_S_TRY;
}

/* The instructions of statements [a, b) of a list, the last one's up to
 * its return or raise: [*from, *to). */
static void exit_range(const rec *r, const upy_stmt_list *l, uint32_t a,
                       uint32_t *from, uint32_t *to) {
    uint32_t i = l->items[l->len - 1]->start;
    while (i < r->ncode.count && ins(r, i)->op != N_RETURN &&
           ins(r, i)->op != N_RAISE)
        i++;
    *from = l->items[a]->start;
    /* (Crafted code may run off its end with no return: the range ends
     * there; fuzz/regressions/exit-range-past-end.) */
    *to = i < r->ncode.count ? i + 1 : i;
}

/* Finds the loads of None (rec.none_loads) and None's co_consts slot
 * (none_slot), once per code object. */
static int index_none_loads(rec *r) {
    uint32_t i, n = 0;
    if (r->none_loads)
        return SUCCESS;
    r->none_loads = upy_arena_array_uncleared(r->scratch, r->ncode.count + 1,
                                              sizeof *r->none_loads);
    if (!r->none_loads)
        return ERROR;
    r->none_slot = -1;
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (in->op != N_LOAD_CONST || !in->obj || in->obj->kind != UPY_NONE)
            continue;
        if (r->none_slot < 0)
            r->none_slot = rec_entry_index(r, 1, in->obj);
        r->none_loads[n++] = i;
    }
    r->n_none_loads = n;
    return SUCCESS;
}

static int line_order(const void *a, const void *b) {
    const line_at *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Sorts the instructions by line (rec.by_line), once per code object:
 * the copies of a tail on its lines are looked for among the
 * instructions of its first line, not in the whole code per if. */
static int index_lines(rec *r) {
    uint32_t i;
    if (r->by_line)
        return SUCCESS;
    r->by_line = upy_arena_array_uncleared(r->scratch, r->ncode.count + 1,
                                           sizeof *r->by_line);
    if (!r->by_line)
        return ERROR;
    for (i = 0; i < r->ncode.count; i++) {
        r->by_line[i].line = ins(r, i)->line;
        r->by_line[i].at = i;
    }
    qsort(r->by_line, r->ncode.count, sizeof *r->by_line, line_order);
    return SUCCESS;
}

/* The first instruction of rec.by_line on `line` or after it. */
static uint32_t first_on_line(const rec *r, int32_t line) {
    uint32_t lo = 0, hi = r->ncode.count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->by_line[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Where an entry is used: 1 in the tail T (or its copy), 2 in B, 4
 * elsewhere. */
enum { IN_TAIL = 1, IN_B = 2, IN_ELSEWHERE = 4 };

/* Whether the order of entries used only in T and B is B's, then T's
 * (tail_first 0), or T's, then B's (1). */
static int order_agrees(const uint8_t *where, size_t n, int tail_first) {
    size_t e;
    int last = 0, at;
    for (e = 0; e < n; e++) {
        if (!where[e] || (where[e] & IN_ELSEWHERE))
            continue;
        at = where[e] & (tail_first ? IN_TAIL : IN_B) ? 0 : 1;
        if (at < last)
            return 0;
        last = at;
    }
    return 1;
}

/* Where instruction i uses its entry: IN_TAIL, IN_B or IN_ELSEWHERE. */
typedef uint8_t (*use_place)(const rec *r, uint32_t i, const void *arg);

/* Whether, with where[e] the places of each entry of both tables
 * (co_names, co_consts), the order the compiler met names and constants
 * in says the tail T came after B: in co_names and in co_consts the
 * entries used only in T and B come in B's, then T's order, and not (in
 * both) T's, then B's, which also agrees with T written where it stands. */
static int order_says_tail_after_b(uint8_t *const where[2], const size_t n[2]) {
    int table, explicit_agrees = 1;
    for (table = 0; table < 2; table++) {
        if (!order_agrees(where[table], n[table], 0))
            return 0;
        explicit_agrees &= order_agrees(where[table], n[table], 1);
    }
    return !explicit_agrees;
}

/* The co_consts slot of None where T is the final return itself, or -1:
 * rec_table_entry leaves None out (copies of the implicit return load it
 * everywhere), but there None's slot says where the compiler met T (but
 * for the first slot, a docstring's, that None takes where there is
 * none). */
static int32_t none_slot_of(rec *r, int with_none) {
    return with_none && index_none_loads(r) == SUCCESS ? r->none_slot : -1;
}

/* The co_names (table 0) or co_consts (table 1) entry instruction i
 * refers to, None's too where none_slot (see none_slot_of) is one. */
static int32_t entry_of(const rec *r, uint32_t i, int table,
                        int32_t none_slot) {
    const upy_nin *in = ins(r, i);
    if (none_slot > 0 && table == 1 && upy_nin_loads_none(in))
        return none_slot;
    return r->table_entries[table][i];
}

/* order_says_tail_after_b with the places of each instruction's entry
 * given by place; None's slot counted where with_none. */
static int tail_entered_after_b(rec *r, use_place place, const void *arg,
                                int with_none) {
    uint8_t *where[2];
    size_t n[2];
    int table;
    uint32_t i;
    int32_t none_slot = none_slot_of(r, with_none);
    for (table = 0; table < 2; table++) {
        n[table] = upy_seq_len(table ? r->code->consts : r->code->names);
        where[table] = upy_arena_array(r->scratch, n[table] + 1, 1);
        if (!where[table])
            return 0;
        for (i = 0; i < r->ncode.count; i++) {
            int32_t e = entry_of(r, i, table, none_slot);
            if (e >= 0)
                where[table][e] |= place(r, i, arg);
        }
    }
    return order_says_tail_after_b(where, n);
}

/* The instructions that use each entry of table (0: co_names, 1:
 * co_consts), ascending: uses->at[uses->start[e]] up to
 * uses->at[uses->start[e + 1]].  Found once per code object: every if of
 * an elif chain asks where the entries are used, and scanning the code
 * each time was quadratic. */
static int index_entry_uses(rec *r, int table) {
    table_uses *u = &r->uses_of[table];
    size_t n = upy_seq_len(table ? r->code->consts : r->code->names), e;
    uint32_t i, total = 0, *fill;
    u->start = upy_arena_array(r->scratch, n + 2, sizeof *u->start);
    fill = upy_arena_array(r->scratch, n + 1, sizeof *fill);
    if (!u->start || !fill)
        return ERROR;
    for (i = 0; i < r->ncode.count; i++)
        if (r->table_entries[table][i] >= 0)
            u->start[r->table_entries[table][i] + 1]++;
    for (e = 0; e < n; e++) {
        fill[e] = total;
        total += u->start[e + 1];
        u->start[e + 1] = total;
    }
    u->at = upy_arena_array_uncleared(r->scratch, total + 1, sizeof *u->at);
    if (!u->at)
        return ERROR;
    for (i = 0; i < r->ncode.count; i++)
        if (r->table_entries[table][i] >= 0)
            u->at[fill[r->table_entries[table][i]]++] = i;
    return SUCCESS;
}

/* How many of the uses at[0, n) (ascending) are before instruction i. */
static uint32_t uses_before(const uint32_t *at, uint32_t n, uint32_t i) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (at[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of the uses at[0, n) are in [from, to). */
static uint32_t uses_in(const uint32_t *at, uint32_t n, uint32_t from,
                        uint32_t to) {
    return to <= from ? 0 : uses_before(at, n, to) - uses_before(at, n, from);
}

/* tail_after_else's places: T's code and its copy, and B before it. */
typedef struct else_places {
    uint32_t c0, c1, t0, t1, b0;
    uint32_t o0, o1; /* T's own code after the if's parent, or empty */
    int with_none;   /* T is the final return: None's slot counts */
} else_places;

typedef code_span span;

static int span_order(const void *a, const void *b) {
    const span *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

/* Merges the spans s[0, n), sorted by start, that overlap or touch, and
 * drops empty ones; returns how many are left. */
static uint32_t merge_sorted(span *s, uint32_t n) {
    uint32_t k, m = 0;
    for (k = 0; k < n; k++) {
        if (s[k].to <= s[k].from)
            continue;
        if (m && s[k].from <= s[m - 1].to)
            s[m - 1].to = s[k].to > s[m - 1].to ? s[k].to : s[m - 1].to;
        else
            s[m++] = s[k];
    }
    return m;
}

/* Sets rec.in_copy of the instructions of rec.copies to `in`. */
static void mark_copies(rec *r, uint8_t in) {
    uint32_t k, i;
    for (k = 0; k < r->n_copies; k++)
        for (i = r->copies[k].from; i < r->copies[k].to; i++)
            r->in_copy[i] = in;
}

/* Finds the copies of T's code [t0, t1) on its lines, among the
 * instructions of its first line, into rec.copies, unless they are there
 * already: the same code on the same lines is a copy the compiler made of
 * T (a copy folded away already, in an if nested in B or A), not code
 * written alike. */
static int copies_of(rec *r, uint32_t t0, uint32_t t1) {
    int32_t line = ins(r, t0)->line;
    uint32_t k, n = 0;
    if (!r->copies) {
        r->copies = upy_arena_array_uncleared(r->scratch, r->ncode.count + 1,
                                              sizeof *r->copies);
        r->in_copy = upy_arena_array(r->scratch, r->ncode.count + 1, 1);
        if (!r->copies || !r->in_copy)
            return ERROR;
    } else if (r->copies_t0 == t0 && r->copies_t1 == t1) {
        return SUCCESS;
    }
    mark_copies(r, 0);
    for (k = first_on_line(r, line);
         t1 > t0 && k < r->ncode.count && r->by_line[k].line == line; k++) {
        uint32_t at = r->by_line[k].at;
        if (at != t0 && rec_same_code(r, at, t0, t1 - t0) &&
            rec_same_lines(r, at, t0, t1 - t0)) {
            r->copies[n].from = at;
            r->copies[n++].to = at + (t1 - t0);
        }
    }
    qsort(r->copies, n, sizeof *r->copies, span_order);
    r->n_copies = merge_sorted(r->copies, n);
    r->copies_t0 = t0;
    r->copies_t1 = t1;
    mark_copies(r, 1);
    return SUCCESS;
}

/* The code counted as T's for p, in *out, ascending and disjoint: T's
 * code, its copy in A, T's own code (o0, o1) and T's other copies on
 * its lines (copies_of, found before).  Returns their count, or ERROR.
 * The copies are sorted already: the three others go in among them. */
static int tail_spans(rec *r, const else_places *p, span **out) {
    span own[3] = {{p->c0, p->c1}, {p->t0, p->t1}, {p->o0, p->o1}};
    uint32_t n = r->n_copies, k = 0, j = 0, m = 0;
    span *s = upy_arena_array_uncleared(r->scratch, n + 3, sizeof *s);
    if (!s)
        return ERROR;
    qsort(own, 3, sizeof *own, span_order);
    while (k < n || j < 3)
        s[m++] = j == 3 || (k < n && r->copies[k].from < own[j].from)
                     ? r->copies[k++]
                     : own[j++];
    *out = s;
    return (int)merge_sorted(s, m);
}

/* Whether instruction i is counted as T's (see tail_spans). */
static int in_tail(const rec *r, const else_places *p, uint32_t i) {
    return r->in_copy[i] || (i >= p->c0 && i < p->c1) ||
           (i >= p->t0 && i < p->t1) || (i >= p->o0 && i < p->o1);
}

/* The places of an entry used by instructions at[0, uses): IN_TAIL for
 * those in the spans s[0, n) counted as T's, IN_B for those in [b0, t0)
 * outside them, IN_ELSEWHERE for the rest.  Each use is looked up, or
 * each span's uses counted, whichever are fewer: T copied into every
 * branch of an elif chain has as many spans as the chain has branches. */
static uint8_t place_of_uses(const rec *r, const else_places *p,
                             const uint32_t *at, uint32_t uses,
                             const span *s, int n) {
    uint32_t tail = 0, in_b = 0, k, b0 = p->b0, b1 = p->t0;
    if (uses <= (uint32_t)n) {
        for (k = 0; k < uses; k++) {
            int t = in_tail(r, p, at[k]);
            tail += (uint32_t)t;
            in_b += !t && at[k] >= b0 && at[k] < b1;
        }
    } else {
        in_b = uses_in(at, uses, b0, b1);
        for (k = 0; k < (uint32_t)n; k++) {
            tail += uses_in(at, uses, s[k].from, s[k].to);
            in_b -= uses_in(at, uses, s[k].from > b0 ? s[k].from : b0,
                            s[k].to < b1 ? s[k].to : b1);
        }
    }
    return (uint8_t)((tail ? IN_TAIL : 0) | (in_b ? IN_B : 0) |
                     (tail + in_b < uses ? IN_ELSEWHERE : 0));
}

/* The instructions using entry e of table, ascending: at[0, *uses).
 * None's slot (none_slot, see none_slot_of) is used by the loads of
 * None. */
static const uint32_t *entry_uses(const rec *r, int table, size_t e,
                                  int32_t none_slot, uint32_t *uses) {
    const table_uses *u = &r->uses_of[table];
    if (table == 1 && none_slot > 0 && e == (size_t)none_slot) {
        *uses = r->n_none_loads;
        return r->none_loads;
    }
    *uses = u->start[e + 1] - u->start[e];
    return u->at + u->start[e];
}

/* ranges_entered_after_b once the code's indexes are built. */
static int spans_entered_after_b(rec *r, const else_places *p,
                                 int32_t none_slot) {
    uint8_t *where[2];
    size_t n[2], e;
    int table, ns;
    span *s;
    if ((ns = tail_spans(r, p, &s)) < 0)
        return 0;
    for (table = 0; table < 2; table++) {
        n[table] = upy_seq_len(table ? r->code->consts : r->code->names);
        where[table] = upy_arena_array(r->scratch, n[table] + 1, 1);
        if (!where[table])
            return 0;
        for (e = 0; e < n[table]; e++) {
            uint32_t uses;
            const uint32_t *at = entry_uses(r, table, e, none_slot, &uses);
            if (uses)
                where[table][e] = place_of_uses(r, p, at, uses, s, ns);
        }
    }
    return order_says_tail_after_b(where, n);
}

/* tail_entered_after_b with the places of p: T's code and the code
 * counted as T's (tail_spans) in the tail, the rest of [b0, t0) in B, the
 * rest elsewhere; each entry's places counted from its uses in those
 * ranges, not instruction by instruction (elif chains ask for each if).
 * What one question takes is given back after it: an elif chain asks as
 * many as it has branches. */
static int ranges_entered_after_b(rec *r, const else_places *p) {
    int32_t none_slot = none_slot_of(r, p->with_none);
    upy_arena_mark mark;
    int said, over;
    if (index_lines(r) || copies_of(r, p->t0, p->t1) ||
        (!r->uses_of[0].start && index_entry_uses(r, 0)) ||
        (!r->uses_of[1].start && index_entry_uses(r, 1)))
        return 0;
    /* (A rollback clears the limit's flag: keep one already set.) */
    over = r->scratch->over_limit ||
           (r->scratch->budget && r->scratch->budget->over_limit);
    upy_arena_mark_now(r->scratch, &mark);
    said = spans_entered_after_b(r, p, none_slot);
    if (!over)
        upy_arena_rollback(r->scratch, &mark);
    return said;
}

/* Whether the last m statements of class body `body` are the end the
 * compiler gives every class body: the return (of its __class__ cell,
 * stored in __classcell__ first), after 3.13's __static_attributes__
 * store. */
static int is_class_end(const rec *r, const upy_stmt_list *body,
                        uint32_t m) {
    uint32_t k;
    if (!r->is_class_body || !m || m > 2 ||
        body->items[body->len - 1]->kind != UPY_S_RETURN)
        return 0;
    for (k = body->len - m; k + 1 < body->len; k++)
        if (!is_store_of(body->items[k], "__static_attributes__"))
            return 0;
    /* (All of it: the store is no source either.) */
    return m == 2 || body->len < 2 ||
           !is_store_of(body->items[body->len - 2], "__static_attributes__");
}

/* Whether `if c: A; T` + B + T (T the last m statements, ending in a
 * return or raise, copied into A by the compiler: the same code) came from `if
 * c: A` / `else: B` + T: whether the order the compiler met names and constants
 * in says T came after B, not at the end of A. */
static int tail_after_else(rec *r, const upy_stmt_list *a_body,
                           const upy_stmt_list *rest, uint32_t m,
                           const uint32_t orig[2]) {
    else_places p;
    p.o0 = orig[0];
    p.o1 = orig[1];
    p.with_none = orig[1] > orig[0];
    if (!r->ncode.layout->copies_exits)
        return 0;
    p.b0 = rest->items[0]->start;
    exit_range(r, a_body, a_body->len - m, &p.c0, &p.c1);
    exit_range(r, rest, rest->len - m, &p.t0, &p.t1);
    if (!(p.c1 <= p.b0 && p.b0 <= p.t0) || p.c1 - p.c0 != p.t1 - p.t0 ||
        !rec_same_code(r, p.c0, p.t0, p.c1 - p.c0) ||
        returns_from_handler(r, a_body->items[a_body->len - 1]))
        return 0;
    /* The end of a class body is no source (it has no line: 3.11 copies
     * it too): copied, it followed the if. */
    if (r->is_class_body && rest->items[rest->len - 1]->kind == UPY_S_RETURN)
        return is_class_end(r, rest, m);
    if (r->ncode.layout->written_exits_keep_jumps)
        return 0;
    return ranges_entered_after_b(r, &p);
}

/* Whether the last m statements of `body` (more than m) are a copy of
 * the code [t0, t1) (see exit_range). */
static int ends_in_code(const rec *r, const upy_stmt_list *body, uint32_t m,
                        uint32_t t0, uint32_t t1) {
    uint32_t c0, c1;
    if (body->len <= m)
        return 0;
    exit_range(r, body, body->len - m, &c0, &c1);
    return c1 - c0 == t1 - t0 && rec_same_code(r, c0, t0, t1 - t0);
}

/* The most neutral instructions of a small exit block the compiler
 * copies (four of its own, some of which the neutral form splits). */
enum { MAX_TAIL_COPY = 8 };

/* Whether simple statement s, right before the code [t0, t1) ending in a
 * return, ran on into that return in one block: an exit block that began
 * in s was copied (flowgraph.c inline_small_exit_blocks, 3.12+), so s is
 * no else part's end (an if's join starts a block of its own).  In
 *     if a: g(1); return
 *     g(b if a else None)
 * each branch of the conditional expression ends in CALL, POP_TOP,
 * RETURN_CONST; as `else: g(b if a else None)` the join is the call
 * alone, jumped to.  (Only a copy of a block the return ends holds code
 * of a simple statement twice.) */
static int holds_copy_into(const rec *r, const upy_stmt *s, uint32_t t0,
                           uint32_t t1) {
    uint32_t i, n;
    if (s->kind == UPY_S_IF || s->kind == UPY_S_WHILE || s->kind == UPY_S_FOR ||
        s->kind == UPY_S_WITH || s->kind == UPY_S_TRY ||
        s->kind == UPY_S_MATCH || t1 <= t0)
        return 0;
    for (i = s->start; i < r->ncode.count; i++) {
        if (ins(r, i)->op != N_RETURN || i + 1 == t1)
            continue;
        for (n = t1 - t0 + 1;
             n <= MAX_TAIL_COPY && n <= i + 1 - s->start && n <= t1 - s->start;
             n++)
            if (rec_same_code(r, i + 1 - n, t1 - n, n))
                return 1;
    }
    return 0;
}

/* tail_after_chain's places: T, the copies of T ending the ifs of B,
 * and B. */
typedef struct chain_places {
    const upy_stmt_list *rest;
    uint32_t m, t0, t1, b0, b1;
    uint32_t o0, o1; /* T's own code after the if's parent, or empty */
} chain_places;

static uint8_t chain_place(const rec *r, uint32_t i, const void *arg) {
    const chain_places *p = arg;
    uint32_t j, c0, c1;
    int in_copy = (i >= p->t0 && i < p->t1) || (i >= p->o0 && i < p->o1);
    for (j = 0; j < p->rest->len && !in_copy; j++) {
        const upy_stmt *x = p->rest->items[j];
        if (x->kind != UPY_S_IF || x->u.if_.orelse.len ||
            !ends_in_code(r, &x->u.if_.body, p->m, p->t0, p->t1))
            continue;
        exit_range(r, &x->u.if_.body, x->u.if_.body.len - p->m, &c0, &c1);
        in_copy = i >= c0 && i < c1;
    }
    return in_copy ? IN_TAIL : i >= p->b0 && i < p->b1 ? IN_B : IN_ELSEWHERE;
}

/* Whether `if c: A; T` + B (T the last m statements of A, ending in a
 * return; B the rest of the body, ending in a return or raise of its own)
 * came from `if c: A` / `else: B` + T, B's ifs that end in a copy of T
 * being `elif`s (or ifs with an else).  T after the whole statement is
 * reached only from the branches that go on, which get copies of it (the
 * compiler copies small exit blocks: straight code ending in the return),
 * so it has no code of its own left.  What tells is the order the compiler
 * met names and constants in: T's after B's. */
static int tail_after_chain(rec *r, const upy_stmt_list *a_body,
                            const upy_stmt_list *rest, uint32_t m,
                            const uint32_t orig[2]) {
    const upy_stmt *end = rest->items[rest->len - 1];
    chain_places p;
    uint32_t i, c0;
    if (!r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps ||
        (end->kind != UPY_S_RETURN && end->kind != UPY_S_RAISE) ||
        returns_from_handler(r, a_body->items[a_body->len - 1]))
        return 0;
    p.rest = rest;
    p.m = m;
    p.o0 = orig[0];
    p.o1 = orig[1];
    p.b0 = rest->items[0]->start;
    exit_range(r, a_body, a_body->len - m, &p.t0, &p.t1);
    exit_range(r, rest, rest->len - 1, &c0, &p.b1);
    if (p.t1 > p.b0 || p.t1 - p.t0 > MAX_TAIL_COPY ||
        ins(r, p.t1 - 1)->op != N_RETURN ||
        ends_in_code(r, rest, m, p.t0, p.t1))
        return 0;
    for (i = p.t0; i + 1 < p.t1; i++)
        if (ins(r, i)->target >= 0 || !upy_nin_falls_through(ins(r, i)))
            return 0;
    return tail_entered_after_b(r, chain_place, &p, orig[1] > orig[0]);
}

/* Makes the ifs of `l` (see tail_after_chain) whose bodies end in the m
 * statements of a copy of T into ifs with an else: the statements after
 * each. */
static void fold_chain(const rec *r, upy_stmt_list *l, uint32_t m, uint32_t t0,
                       uint32_t t1) {
    uint32_t j;
    for (j = 0; j + 1 < l->len; j++) {
        upy_stmt *x = l->items[j];
        if (x->kind != UPY_S_IF || x->u.if_.orelse.len ||
            !ends_in_code(r, &x->u.if_.body, m, t0, t1))
            continue;
        x->u.if_.body.len -= m;
        x->u.if_.orelse.items = l->items + j + 1;
        x->u.if_.orelse.len = l->len - j - 1;
        l->len = j + 1;
        fold_chain(r, &x->u.if_.orelse, m, t0, t1);
        return;
    }
}

/* The lone assignment to one target of statements l (copies of the
 * final return after it aside), or NULL. */
static const upy_stmt *lone_assign(const upy_stmt_list *l) {
    uint32_t k;
    if (!l->len || l->items[0]->kind != UPY_S_ASSIGN ||
        l->items[0]->u.assign.targets.len != 1)
        return NULL;
    for (k = 1; k < l->len; k++)
        if (!is_return_none(l->items[k]))
            return NULL;
    return l->items[0];
}

/* Whether final statement `if c: t = A` / `else: t = B` came from `t = A
 * if c else B`: 3.12+ copies the store and the return after it (a small
 * exit block) into both branches, so both compile alike but for where
 * the compiler met t's name: after B's names, not before them. */
static int store_of_ifexp(const rec *r, const upy_stmt *s) {
    const upy_stmt *a = lone_assign(&s->u.if_.body);
    const upy_stmt *b = lone_assign(&s->u.if_.orelse);
    size_t n = upy_seq_len(r->code->names), e;
    uint32_t b0, b1, i;
    int32_t target = -1;
    uint8_t *where;
    if (!a || !b || !r->ncode.layout->copies_exits ||
        r->ncode.layout->written_exits_keep_jumps ||
        !same_simple(a->u.assign.targets.items[0],
                     b->u.assign.targets.items[0]))
        return 0;
    exit_range(r, &s->u.if_.orelse, 0, &b0, &b1);
    for (i = b0; i < b1; i++)
        if ((ins(r, i)->op == N_STORE || ins(r, i)->op == N_STORE_ATTR) &&
            rec_table_entry(r, i, 0) >= 0)
            target = rec_table_entry(r, i, 0);
    where = upy_arena_array(r->arena, n + 1, 1);
    if (target < 0 || !where)
        return 0;
    memset(where, 0, n + 1);
    /* Only the code before B decides whether B met a name first (the
     * names of a later elif's own conditional expression, say, do not). */
    for (i = 0; i < b1; i++) {
        int32_t k = rec_table_entry(r, i, 0);
        if (k >= 0)
            where[k] |= i >= b0 ? IN_B : IN_ELSEWHERE;
    }
    for (e = 0; e < (size_t)target; e++)
        if (where[e] == IN_B)
            return 1;
    return 0;
}

/* How many statements of `after` up to its first return, when they are
 * few enough to be a small exit block the compiler copies; else 0. */
static uint32_t exit_prefix(const upy_stmt_list *after) {
    uint32_t m;
    for (m = 0; m < after->len && m < 4; m++)
        if (after->items[m]->kind == UPY_S_RETURN)
            return m + 1;
    return 0;
}

/* fold_nested_if where B, the rest of list l, ends in a copy of T too:
 * `if c: A` / `else: B` + that copy, which the if enclosing l then folds
 * the same way. */
static int fold_before_copy(rec *r, upy_stmt_list *l, uint32_t j,
                            uint32_t m, const uint32_t orig[2]) {
    upy_stmt *x = l->items[j];
    upy_stmt_list b = {l->items + j + 1, l->len - j - 1};
    upy_stmt **orelse;
    if (!tail_after_else(r, &x->u.if_.body, &b, m, orig))
        return 0;
    orelse = upy_arena_array(r->arena, b.len - m, sizeof(upy_stmt *));
    if (!orelse)
        return 0;
    memcpy(orelse, b.items, (b.len - m) * sizeof *orelse);
    x->u.if_.orelse.items = orelse;
    x->u.if_.orelse.len = b.len - m;
    x->u.if_.body.len -= m;
    memmove(l->items + j + 1, b.items + b.len - m, m * sizeof(upy_stmt *));
    l->len = j + 1 + m;
    return 1;
}

/* Folds `if c: A; T` + B, the rest of list l (a branch of a final if of
 * its parent, or of an if after it), where T, the first m statements of
 * `after` (what l runs off to), was copied into A: `if c: A` / `else: B`,
 * the way tail_after_else and tail_after_chain tell at the top level,
 * with T's own code after the parent counted as T's.  Returns whether it
 * folded. */
static int fold_nested_if(rec *r, upy_stmt_list *l, uint32_t j,
                          const upy_stmt_list *after, uint32_t m) {
    upy_stmt *x = l->items[j];
    upy_stmt_list t = {after->items, m}, b = {l->items + j + 1, l->len - j - 1};
    uint32_t orig[2], c0, c1, k;
    upy_ptr_vec joined = {0};
    const upy_stmt *end = b.items[b.len - 1];
    exit_range(r, &t, 0, &orig[0], &orig[1]);
    if (x->u.if_.orelse.len || !ends_in_code(r, &x->u.if_.body, m, orig[0],
                                             orig[1]))
        return 0;
    exit_range(r, &x->u.if_.body, x->u.if_.body.len - m, &c0, &c1);
    if (ends_in_code(r, &b, m, orig[0], orig[1]))
        return fold_before_copy(r, l, j, m, orig);
    if (end->kind == UPY_S_RETURN || end->kind == UPY_S_RAISE) {
        if (!tail_after_chain(r, &x->u.if_.body, &b, m, orig))
            return 0;
        x->u.if_.orelse = b;
        fold_chain(r, &x->u.if_.orelse, m, c0, c1);
    } else {
        for (k = 0; k < b.len + m; k++)
            if (upy_vec_push(r->arena, &joined,
                             k < b.len ? b.items[k] : t.items[k - b.len]))
                return 0;
        t = upy_vec_stmts(&joined);
        if (!tail_after_else(r, &x->u.if_.body, &t, m, orig))
            return 0;
        x->u.if_.orelse = b;
    }
    x->u.if_.body.len -= m;
    l->len = j + 1;
    return 1;
}

/* The ifs of list l and of the branches of its final if, where l runs
 * off to `after`: see fold_nested_if. */
static void fold_nested_tails(rec *r, upy_stmt_list *l,
                              const upy_stmt_list *after, uint32_t m) {
    uint32_t j;
    for (j = 0; j < l->len; j++) {
        upy_stmt *x = l->items[j];
        if (x->kind != UPY_S_IF)
            continue;
        if (j + 1 < l->len && m && fold_nested_if(r, l, j, after, m))
            j = l->len - 1;
        if (j + 1 == l->len) {
            fold_nested_tails(r, &x->u.if_.body, after, m);
            fold_nested_tails(r, &x->u.if_.orelse, after, m);
        }
    }
}

/* fold_nested_tails in the ifs of body, each running off to the
 * statements after it. */
static void fold_nested_in_ifs(rec *r, upy_stmt_list *body) {
    uint32_t k;
    for (k = 0; k + 1 < body->len; k++) {
        upy_stmt *s = body->items[k];
        upy_stmt_list rest = {body->items + k + 1, body->len - k - 1};
        uint32_t m = exit_prefix(&rest);
        if (s->kind == UPY_S_IF) {
            fold_nested_tails(r, &s->u.if_.body, &rest, m);
            fold_nested_tails(r, &s->u.if_.orelse, &rest, m);
        }
    }
}

/* Whether statements l are all copies of the implicit `return None`. */
static int implicit_returns_only(const rec *r, const upy_stmt_list *l) {
    uint32_t k;
    for (k = 0; k < l->len; k++)
        if (!is_return_none(l->items[k]) || written_return(r, l->items[k]))
            return 0;
    return 1;
}

/* Whether the statements `tail` hold code the compiler copies with its
 * line (not only the implicit return, whose copies take the line of their
 * jump): then a copy of them ending a branch (ends_with_copy) cannot be
 * written code, which has a line of its own. */
static int tail_keeps_lines(const upy_stmt_list *tail) {
    uint32_t k;
    if (!tail->len || tail->items[tail->len - 1]->kind != UPY_S_RETURN)
        return 0;
    for (k = 0; k < tail->len; k++)
        if (!is_return_none(tail->items[k]))
            return 1;
    return 0;
}

/* Strips from statements l, which run off into the statements `tail`
 * (see tail_keeps_lines), the copies of tail ending them or the branches
 * of their final if, at any depth: a branch that runs off goes on to
 * tail.  So 3.12+ (flowgraph.c inline_small_exit_blocks) made of
 *
 *     if t == 1:                  each branch that runs off jumps to
 *         if c: d = g(d)          `self.x = d; return`: a small exit
 *     elif t == 2: d = []         block, copied into the jumps, with
 *     else: raise E               its line
 *     self.x = d
 *
 * `if c: d = g(d); self.x = d; return` in the first branch, which would
 * meet x's name before E's. */
static void strip_branch_tail_copies(const rec *r, upy_stmt_list *l,
                                     const upy_stmt_list *tail) {
    uint32_t j;
    upy_stmt *last;
    if (!l->len)
        return;
    if (l->len > tail->len && ends_with_copy(r, l, tail)) {
        l->len -= tail->len;
        return;
    }
    for (j = 0; j + 1 < l->len; j++) {
        upy_stmt *x = l->items[j];
        if (x->kind == UPY_S_IF && !x->u.if_.orelse.len &&
            x->u.if_.body.len > tail->len &&
            rec_ends_terminal(&x->u.if_.body) &&
            ends_with_copy(r, &x->u.if_.body, tail)) {
            /* `if c: A; T` + B, which rec_elif_chains makes an elif
             * chain later: the copy goes, B goes in the else. */
            x->u.if_.orelse.items = l->items + j + 1;
            x->u.if_.orelse.len = l->len - j - 1;
            l->len = j + 1;
        }
    }
    last = l->items[l->len - 1];
    if (last->kind != UPY_S_IF)
        return;
    strip_branch_tail_copies(r, &last->u.if_.body, tail);
    strip_branch_tail_copies(r, &last->u.if_.orelse, tail);
}

/* Whether every way statements l run off ends in a copy of tail, the
 * ways strip_branch_tail_copies strips (a way that never runs off, as a
 * return or raise, does too): then l without the copies; tail runs as l.
 * *copies counts the copies found. */
static int runs_off_in_copies(const rec *r, const upy_stmt_list *l,
                              const upy_stmt_list *tail, uint32_t *copies) {
    uint32_t j;
    const upy_stmt *last;
    if (!l->len)
        return 0;
    if (l->len > tail->len && ends_with_copy(r, l, tail))
        return ++*copies;
    for (j = 0; j + 1 < l->len; j++) {
        const upy_stmt *x = l->items[j];
        if (x->kind == UPY_S_IF && !x->u.if_.orelse.len &&
            x->u.if_.body.len > tail->len &&
            rec_ends_terminal(&x->u.if_.body) &&
            ends_with_copy(r, &x->u.if_.body, tail)) {
            upy_stmt_list rest = {l->items + j + 1, l->len - j - 1};
            ++*copies;
            return runs_off_in_copies(r, &rest, tail, copies);
        }
    }
    last = l->items[l->len - 1];
    if (last->kind == UPY_S_IF && last->u.if_.orelse.len)
        return runs_off_in_copies(r, &last->u.if_.body, tail, copies) &&
               runs_off_in_copies(r, &last->u.if_.orelse, tail, copies);
    return rec_ends_terminal(l);
}

/* Whether statements tail hold one the compiler copies with its line
 * (see tail_keeps_lines). */
static int tail_has_line(const upy_stmt_list *tail) {
    uint32_t k;
    for (k = 0; k < tail->len; k++)
        if (!is_return_none(tail->items[k]))
            return 1;
    return 0;
}

/* Moves the last statements T of the else part of final if s (the last
 * statement of body) after it where each way its body runs off ends in a
 * copy of T (runs_off_in_copies, some of them with the line of T): `if c:
 * A; T` / `else: B; T` is `if c: A` / `else: B` + T, the original laid out
 * last.  So 3.12+ made of
 *
 *     if c:
 *         if token == '@': self.d = True     the first branch jumps to
 *         elif token == 'def': ...           `self.p = True; return`,
 *         self.p = True                      copied into its jump
 *
 * `if token == '@': self.d = True; self.p = True` / `else: ...;
 * self.p = True`.  -1 out of memory. */
static int hoist_else_tail(rec *r, upy_stmt_list *body, upy_stmt *s) {
    upy_stmt_list *orelse = &s->u.if_.orelse, tail = {NULL, 0};
    upy_stmt **items;
    uint32_t m, copies = 0;
    for (m = 1; m <= orelse->len; m++) {
        tail.items = orelse->items + orelse->len - m;
        tail.len = m;
        copies = 0;
        if (tail_has_line(&tail) &&
            runs_off_in_copies(r, &s->u.if_.body, &tail, &copies) && copies)
            break;
    }
    if (m > orelse->len)
        return SUCCESS;
    items = upy_arena_array(r->arena, body->len + m, sizeof *items);
    if (!items)
        return rec_oom(r);
    strip_branch_tail_copies(r, &s->u.if_.body, &tail);
    memcpy(items, body->items, body->len * sizeof *items);
    memcpy(items + body->len, tail.items, m * sizeof *items);
    orelse->len -= m;
    body->items = items;
    body->len += m;
    return SUCCESS;
}

/* Whether match statement s ends each way it goes on in a copy of tail
 * (a case's body, none of them irrefutable), a body that does not
 * never running off. */
static int cases_end_in_copies(const rec *r, const upy_stmt *s,
                               const upy_stmt_list *tail) {
    uint32_t k, copies = 0;
    const upy_match_case *last;
    if (!s->u.match.n_cases)
        return 0;
    last = &s->u.match.cases[s->u.match.n_cases - 1];
    if (!last->guard && last->pattern->kind == UPY_P_AS &&
        !last->pattern->u.as.pattern)
        return 0;
    for (k = 0; k < s->u.match.n_cases; k++) {
        const upy_stmt_list *b = &s->u.match.cases[k].body;
        if (b->len > tail->len && ends_with_copy(r, b, tail))
            copies++;
        else if (!rec_ends_terminal(b))
            return 0;
    }
    return copies > 0;
}

/* Where the match statement at body[k] is followed by R + T, T ending in
 * a return, and its cases end in copies of T (cases_end_in_copies): the
 * cases went on to T, which the source had after the match, and R, where
 * no case matched, was the body of a trailing `case _` (its NOP is R's
 * first `pass`).  3.12 made of
 *
 *     match v:                  each case body jumps to `r.s = s;
 *         case A(): s = v       return`: copied into the jumps, with
 *         case _: s = None      their line
 *     r.s = s
 *
 * `case A(): s = v; r.s = s; return` + `pass; s = None; r.s = s`.
 * -1 out of memory. */
static int fold_match_default(rec *r, upy_stmt_list *body, uint32_t k) {
    upy_stmt *s = body->items[k];
    upy_stmt_list tail = {NULL, 0};
    upy_match_case *cases;
    uint32_t m, n = s->u.match.n_cases, j;
    for (m = 1; k + 1 + m <= body->len; m++) {
        tail.items = body->items + body->len - m;
        tail.len = m;
        if (tail_keeps_lines(&tail) && cases_end_in_copies(r, s, &tail))
            break;
    }
    if (k + 1 + m > body->len)
        return SUCCESS;
    cases = upy_arena_array(r->arena, n + 1, sizeof *cases);
    if (!cases)
        return rec_oom(r);
    memcpy(cases, s->u.match.cases, n * sizeof *cases);
    for (j = 0; j < n; j++)
        if (cases[j].body.len > m && ends_with_copy(r, &cases[j].body, &tail))
            cases[j].body.len -= m;
    if (k + 1 + m < body->len) {
        /* (R's statements move into the case: T takes their place.) */
        uint32_t n_r = body->len - m - k - 1;
        upy_stmt **rest = upy_arena_array(r->arena, n_r, sizeof *rest);
        cases[n].pattern = upy_pattern_new(r->arena, UPY_P_AS);
        if (!rest || !cases[n].pattern)
            return rec_oom(r);
        memcpy(rest, body->items + k + 1, n_r * sizeof *rest);
        cases[n].body.items = rest;
        cases[n].body.len = n_r;
        n++;
    }
    s->u.match.cases = cases;
    s->u.match.n_cases = n;
    memmove(body->items + k + 1, tail.items, m * sizeof *tail.items);
    body->len = k + 1 + m;
    return SUCCESS;
}

/* The copies of the statements after the last if of body that end its
 * branches (strip_branch_tail_copies), once rec_fold_tail_returns has
 * made the elif chains (`if c: A; T` + `raise E` is `if c: A; T` /
 * `else: raise E` only then); in the branches of a final if too, after
 * hoist_else_tail. */
void rec_strip_tail_copies(rec *r, upy_stmt_list *body) {
    uint32_t k;
    upy_stmt *s;
    upy_stmt_list tail;
    if (!body->len)
        return;
    s = body->items[body->len - 1];
    if (s->kind == UPY_S_IF && s->u.if_.orelse.len &&
        hoist_else_tail(r, body, s))
        return;
    for (k = body->len; k > 0 && body->items[k - 1]->kind != UPY_S_MATCH; k--)
        ;
    if (k && fold_match_default(r, body, k - 1))
        return;
    for (k = body->len; k > 0 && body->items[k - 1]->kind != UPY_S_IF; k--)
        ;
    if (!k)
        return;
    s = body->items[k - 1];
    if (k == body->len) {
        rec_strip_tail_copies(r, &s->u.if_.body);
        rec_strip_tail_copies(r, &s->u.if_.orelse);
        return;
    }
    tail.items = body->items + k;
    tail.len = body->len - k;
    if (!tail_keeps_lines(&tail))
        return;
    strip_branch_tail_copies(r, &s->u.if_.body, &tail);
    strip_branch_tail_copies(r, &s->u.if_.orelse, &tail);
}

/* `if c: A; return` followed by B at the end of a body is what the
 * compiler makes of `if c: A` / `else: B` (the jump to the final return
 * is replaced by a copy of it): put B back in the else, unless the
 * constants say the source had the return.  Required at module level,
 * where a return is not valid source. */
void rec_fold_tail_returns(rec *r, upy_stmt_list *body) {
    static const uint32_t no_orig[2] = {0, 0};
    uint32_t k;
    upy_stmt *last;
    fold_nested_in_ifs(r, body);
    for (k = 0; k + 1 < body->len; k++) {
        upy_stmt *s = body->items[k];
        upy_stmt_list rest;
        rest.items = body->items + k + 1;
        rest.len = body->len - k - 1;
        /* `if c: A; return x` + `return x`: the final statements copied
         * into the branch (3.12+ copies up to four instructions). */
        if (s->kind == UPY_S_IF && !s->u.if_.orelse.len &&
            s->u.if_.body.len > rest.len &&
            ends_with_copy(r, &s->u.if_.body, &rest)) {
            s->u.if_.body.len -= rest.len;
            break;
        }
        /* `if c: A; T` + B + T, T copied into A: `if c: A` / `else: B`
         * + T where the order of co_names / co_consts says so. */
        if (s->kind == UPY_S_IF && !s->u.if_.orelse.len) {
            uint32_t m;
            for (m = 1; m < rest.len && m < s->u.if_.body.len; m++) {
                if (tail_after_else(r, &s->u.if_.body, &rest, m, no_orig))
                    break;
            }
            if (m < rest.len && m < s->u.if_.body.len) {
                upy_stmt **orelse =
                    upy_arena_array(r->arena, rest.len - m, sizeof(upy_stmt *));
                if (!orelse)
                    return;
                memcpy(orelse, rest.items, (rest.len - m) * sizeof *orelse);
                s->u.if_.body.len -= m;
                s->u.if_.orelse.items = orelse;
                s->u.if_.orelse.len = rest.len - m;
                /* A class body's end, copied into an elif chain too. */
                if (is_class_end(r, &rest, m)) {
                    uint32_t t0, t1;
                    exit_range(r, &rest, rest.len - m, &t0, &t1);
                    fold_chain(r, &s->u.if_.orelse, m, t0, t1);
                }
                memmove(body->items + k + 1, rest.items + rest.len - m,
                        m * sizeof(upy_stmt *));
                body->len = k + 1 + m;
                break;
            }
        }
        /* `if c: A; T` + B, B never going on: `if c: A` / `else: B` + T
         * where the order of co_names / co_consts says so. */
        if (s->kind == UPY_S_IF && !s->u.if_.orelse.len) {
            uint32_t m, t0, t1;
            for (m = 1; m < s->u.if_.body.len; m++)
                if (tail_after_chain(r, &s->u.if_.body, &rest, m, no_orig))
                    break;
            if (m < s->u.if_.body.len) {
                upy_stmt **orelse =
                    upy_arena_array(r->arena, rest.len, sizeof(upy_stmt *));
                upy_stmt **items =
                    upy_arena_array(r->arena, k + 1 + m, sizeof(upy_stmt *));
                if (!orelse || !items)
                    return;
                memcpy(orelse, rest.items, rest.len * sizeof *orelse);
                memcpy(items, body->items, (k + 1) * sizeof *items);
                memcpy(items + k + 1,
                       s->u.if_.body.items + s->u.if_.body.len - m,
                       m * sizeof *items);
                exit_range(r, &s->u.if_.body, s->u.if_.body.len - m, &t0, &t1);
                s->u.if_.orelse.items = orelse;
                s->u.if_.orelse.len = rest.len;
                fold_chain(r, &s->u.if_.orelse, m, t0, t1);
                s->u.if_.body.len -= m;
                body->items = items;
                body->len = k + 1 + m;
                break;
            }
        }
        if (s->kind == UPY_S_TRY && !s->u.try_.finalbody.len &&
            s->u.try_.n_handlers) {
            uint32_t h, copies = 0;
            for (h = 0; h < s->u.try_.n_handlers; h++)
                copies += ends_with_copy(r, &s->u.try_.handlers[h].body, &rest);
            if (copies) {
                for (h = 0; h < s->u.try_.n_handlers; h++)
                    if (ends_with_copy(r, &s->u.try_.handlers[h].body, &rest))
                        s->u.try_.handlers[h].body.len -= rest.len;
                break;
            }
        }
        if (s->kind == UPY_S_IF && !s->u.if_.orelse.len &&
            ends_with_return_none(&s->u.if_.body) &&
            !explicit_return(r, s, &rest)) {
            s->u.if_.orelse = rest;
            body->len = k + 1;
            rec_drop_final_return(r, &s->u.if_.body);
            break;
        }
    }
    /* The bodies of a final compound statement are at the end too, and so
     * are those of one before the copies of the implicit return (the
     * structure may place one after an if whose else only returns). */
    for (k = body->len; k > 0 && is_return_none(body->items[k - 1]) &&
                        !written_return(r, body->items[k - 1]);
         k--)
        ;
    if (!k)
        return;
    last = body->items[k - 1];
    if (last->kind == UPY_S_IF && store_of_ifexp(r, last)) {
        upy_expr *v = upy_expr_new(r->arena, UPY_E_IFEXP);
        const upy_stmt *a = last->u.if_.body.items[0];
        if (!v)
            return;
        v->u.ifexp.test = last->u.if_.test;
        v->u.ifexp.body = a->u.assign.value;
        v->u.ifexp.orelse = last->u.if_.orelse.items[0]->u.assign.value;
        last->kind = UPY_S_ASSIGN;
        last->u.assign.targets = a->u.assign.targets;
        last->u.assign.value = v;
        return;
    }
    switch (last->kind) {
    case UPY_S_IF:
        rec_fold_tail_returns(r, &last->u.if_.body);
        rec_fold_tail_returns(r, &last->u.if_.orelse);
        break;
    case UPY_S_TRY:
        if (last->u.try_.finalbody.len)
            break;
        /* (An else part of copies of the implicit return alone, where the
         * body's last statement ran out, leaves the body at the end too.) */
        if (!last->u.try_.orelse.len ||
            implicit_returns_only(r, &last->u.try_.orelse))
            rec_fold_tail_returns(r, &last->u.try_.body);
        if (last->u.try_.orelse.len)
            rec_fold_tail_returns(r, &last->u.try_.orelse);
        for (k = 0; k < last->u.try_.n_handlers; k++)
            rec_fold_tail_returns(r, &last->u.try_.handlers[k].body);
        break;
    case UPY_S_WITH:
        rec_fold_tail_returns(r, &last->u.with.body);
        break;
    case UPY_S_FOR:
        rec_fold_tail_returns(r, &last->u.for_.orelse);
        break;
    case UPY_S_WHILE:
        rec_fold_tail_returns(r, &last->u.while_.orelse);
        break;
    default:
        break;
    }
}

/* Whether return statement t, right after try statement s with a finally
 * body, is the last statement of the try body.  The compiler unwinds the
 * finally body (and the loops and withs around it) before it loads a
 * constant it returns (compile.c compiler_return), leaving the return's
 * line as a NOP before the copy of the finally body on the normal way out:
 * the load and the return after that copy have no line of their own.  A
 * return written after the try has its line after all of the try's, on
 * its load or on the NOP before what it unwinds.  (`try: a(); return 0` /
 * `finally: b()` against `try: a()` / `finally: b()` + `return 0`.)  The
 * implicit `return None` has no line of its own either, so None is left
 * where it is. */
static int unwound_return(const rec *r, const upy_stmt *s, const upy_stmt *t) {
    const upy_nin *in = r->ncode.ins;
    uint32_t i;
    int32_t last = -1;
    if (s->kind != UPY_S_TRY || !s->u.try_.finalbody.len ||
        t->kind != UPY_S_RETURN || !t->u.value ||
        t->u.value->kind != UPY_E_CONST || rec_is_const_none(t->u.value) ||
        t->start <= s->start)
        return 0;
    /* (Copies of the return after the try, as 3.13 puts in place of a
     * break in the finally body, tell nothing.) */
    for (i = s->start; i < t->start; i++)
        if (in[i].line > last && in[i].op != N_RETURN &&
            !(in[i].op == N_LOAD_CONST && in[i + 1].op == N_RETURN))
            last = in[i].line;
    for (i = t->start; i < r->ncode.count; i++) {
        if (in[i].line > last || in[i].lead_line > last)
            return 0;
        if (in[i].op == N_RETURN)
            return i > 0 && in[i - 1].op == N_LOAD_CONST;
    }
    return 0;
}

static void unwound_returns_in(upy_stmt_list *list, upy_list_role role,
                               const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    rec_unwound_returns(arg, list);
}

/* Puts each return that unwound_return tells back at the end of its try
 * body. */
void rec_unwound_returns(rec *r, upy_stmt_list *body) {
    uint32_t k;
    for (k = 0; k < body->len; k++) {
        upy_stmt *s = body->items[k];
        upy_stmt_each_list(s, unwound_returns_in, r);
        if (k + 1 < body->len && unwound_return(r, s, body->items[k + 1])) {
            upy_stmt_list *tb = &s->u.try_.body;
            upy_stmt **items =
                upy_arena_array(r->arena, tb->len + 1, sizeof(upy_stmt *));
            if (!items)
                return;
            memcpy(items, tb->items, tb->len * sizeof *items);
            items[tb->len] = body->items[k + 1];
            tb->items = items;
            tb->len++;
            drop(body, k + 1);
        }
    }
}

/* A module or class docstring is stored to __doc__ as the first
 * statement; print it as the docstring it was. */
void rec_docstring_from_doc(upy_stmt_list *body, uint32_t at) {
    upy_stmt *s;
    if (at >= body->len || !is_store_of(body->items[at], "__doc__") ||
        !is_str_const(body->items[at]->u.assign.value))
        return;
    s = body->items[at];
    s->kind = UPY_S_EXPR;
    s->u.expr = s->u.assign.value;
}

static void class_cell_returns_in(upy_stmt_list *list, upy_list_role role,
                                  const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    (void)arg;
    rec_class_cell_returns(list);
}

/* A class body whose methods use super() ends in `return (__classcell__
 * := __class__)` where another ends in `return None`: its implicit return,
 * as the compiler copies it into the branches before it.  A class body
 * has no return of its own, so each such one becomes the bare return the
 * implicit one is, which the folds of the final return know. */
void rec_class_cell_returns(upy_stmt_list *body) {
    uint32_t k;
    for (k = 0; k < body->len; k++) {
        upy_stmt *s = body->items[k];
        const upy_expr *v = s->kind == UPY_S_RETURN ? s->u.value : NULL;
        if (v && v->kind == UPY_E_NAMEDEXPR &&
            strcmp(v->u.named.target->u.name, "__classcell__") == 0)
            s->u.value = NULL;
        upy_stmt_each_list(s, class_cell_returns_in, NULL);
    }
}

/* What the compiler stores in every class body by itself. */
void rec_tidy_class_body(upy_stmt_list *body) {
    /* The compiler's own stores of these come first; a later one is the
     * source's (`__module__ = 're'`). */
    static const char *const leading[] = {"__module__", "__qualname__",
                                          "__firstlineno__"};
    int seen[3] = {0, 0, 0};
    uint32_t k = 0, j;
    while (k < body->len) {
        upy_stmt *s = body->items[k];
        for (j = 0; j < 3; j++)
            if (!seen[j] && is_store_of(s, leading[j]))
                break;
        if (j < 3) {
            seen[j] = 1;
            drop(body, k);
            continue;
        }
        if (is_store_of(s, "__static_attributes__") ||
            /* (Only the cell: `__classcell__ = 42` is the source's,
             * test_descr's test_slots_special2.) */
            is_store_of_name(s, "__classcell__", "__class__") ||
            /* 3.12+: a generic class's type parameters, and the class
             * namespace its annotation scopes (generic methods, type
             * aliases) read through a cell. */
            is_store_of_name(s, "__type_params__", ".type_params") ||
            is_store_of_name(s, "__classdict__", "locals()") ||
            is_store_of_name(s, "__classdictcell__", "__classdict__")) {
            drop(body, k);
            continue;
        }
        k++;
    }
    rec_docstring_from_doc(body, 0);
}

/* Whether the statement list cannot fall off its end. */
int rec_ends_terminal(const upy_stmt_list *body) {
    const upy_stmt *s;
    if (!body->len)
        return 0;
    s = body->items[body->len - 1];
    switch (s->kind) {
    case UPY_S_RETURN:
    case UPY_S_RAISE:
    case UPY_S_BREAK:
    case UPY_S_CONTINUE:
        return 1;
    case UPY_S_IF:
        return s->u.if_.orelse.len && rec_ends_terminal(&s->u.if_.body) &&
               rec_ends_terminal(&s->u.if_.orelse);
    default:
        return 0;
    }
}

/* Whether the compiler leaves out the jump over an else part after an if
 * body ending so: after any body that cannot fall through, but 3.8-3.9
 * after a return only (see upy_layout.keeps_jump_after_exit). */
int rec_drops_jump_over_else(const upy_stmt_list *body, int only_return) {
    const upy_stmt *last;
    if (!rec_ends_terminal(body))
        return 0;
    if (!only_return)
        return 1;
    last = body->items[body->len - 1];
    if (last->kind == UPY_S_IF)
        return rec_drops_jump_over_else(&last->u.if_.body, 1) &&
               rec_drops_jump_over_else(&last->u.if_.orelse, 1);
    return last->kind == UPY_S_RETURN;
}

static void elif_in(upy_stmt_list *list, upy_list_role role,
                    const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    rec_elif_chains(list, *(const int *)arg);
}

/* `else: if c: A(terminal) / B` is `elif c: A / else: B`: an if whose body
 * cannot fall through compiles the same with or without an else (where
 * the compiler leaves out the jump over the else part after A). */
void rec_elif_chains(upy_stmt_list *body, int keeps_jump_after_exit) {
    uint32_t k;
    for (k = 0; k < body->len; k++) {
        upy_stmt *s = body->items[k];
        upy_stmt_list *orelse = &s->u.if_.orelse;
        if (s->kind == UPY_S_IF && orelse->len > 1 &&
            orelse->items[0]->kind == UPY_S_IF &&
            !orelse->items[0]->u.if_.orelse.len &&
            rec_drops_jump_over_else(&orelse->items[0]->u.if_.body,
                                     keeps_jump_after_exit)) {
            upy_stmt *inner = orelse->items[0];
            inner->u.if_.orelse.items = orelse->items + 1;
            inner->u.if_.orelse.len = orelse->len - 1;
            orelse->len = 1;
        }
        upy_stmt_each_list(s, elif_in, &keeps_jump_after_exit);
    }
}

/* --- breaks laid out as copies of the return they lead to --------------- */

/* The breaks of one loop that stand for a copied return (see
 * upy_stmt.u.break_). */
typedef struct tail_breaks {
    rec *r;
    uint32_t to_return; /* of the first one; 0 when there is none */
    upy_expr *value;    /* the value of that return */
    int moved;          /* that return is the break's copy alone */
    int agree;          /* all lead to the same return */
    int settled;        /* the loop got its else part: they are breaks */
} tail_breaks;

static void find_tail_breaks(upy_stmt_list *l, upy_list_role role,
                             const upy_stmt *holder, void *arg) {
    tail_breaks *t = arg;
    uint32_t k;
    (void)holder;
    /* (A break in a nested loop's body is that loop's.) */
    if (role == UPY_LIST_LOOP_BODY)
        return;
    for (k = 0; k < l->len; k++) {
        upy_stmt *s = l->items[k];
        if (s->kind == UPY_S_BREAK && s->u.break_.to_return) {
            if (!t->to_return) {
                t->to_return = s->u.break_.to_return;
                t->value = s->u.break_.value;
                t->moved = s->u.break_.moved;
            } else if (t->to_return != s->u.break_.to_return)
                t->agree = 0;
        }
        upy_stmt_each_list(s, find_tail_breaks, arg);
    }
}

/* Makes the marked breaks plain breaks, or, when the loop has no else
 * part to skip, the returns they were read from. */
static void settle_tail_breaks(upy_stmt_list *l, upy_list_role role,
                               const upy_stmt *holder, void *arg) {
    const tail_breaks *t = arg;
    uint32_t k;
    (void)holder;
    if (role == UPY_LIST_LOOP_BODY)
        return;
    for (k = 0; k < l->len; k++) {
        upy_stmt *s = l->items[k];
        if (s->kind == UPY_S_BREAK && s->u.break_.to_return) {
            upy_expr *value = s->u.break_.value;
            if (t->settled) {
                /* (3.13 copies a class body's end, its
                 * __static_attributes__ store before the return, into
                 * the break: no source.) */
                if (s->u.break_.to_return == REC_TO_END &&
                    t->r->is_class_body && k &&
                    is_store_of(l->items[k - 1], "__static_attributes__")) {
                    drop(l, --k);
                    s = l->items[k];
                }
                s->u.break_.to_return = 0;
            } else {
                s->kind = UPY_S_RETURN;
                s->u.value = value;
            }
        }
        upy_stmt_each_list(s, settle_tail_breaks, arg);
    }
}

/* Moves body[k + 1, j) into the empty else part of the loop body[k]. */
static int move_to_loop_else(rec *r, upy_stmt_list *body, uint32_t k,
                             uint32_t j, upy_stmt_list *orelse) {
    uint32_t n = j - k - 1;
    upy_stmt **items;
    if (!n)
        return SUCCESS;
    items = upy_arena_array(r->arena, n, sizeof *items);
    if (!items)
        return ERROR;
    memcpy(items, body->items + k + 1, n * sizeof *items);
    orelse->items = items;
    orelse->len = n;
    memmove(body->items + k + 1, body->items + j,
            (body->len - j) * sizeof *items);
    body->len -= n;
    return SUCCESS;
}

/* The most instructions of a return the compiler copies (see
 * structure.c MAX_EXIT_COPY). */
enum { MAX_RETURN_COPY = 8 };

/* Whether statement s is the return the marked breaks lead to, or one
 * with its code and lines: the return after a try whose except clause
 * holds the loop, which the compiler copied to the clause's end, after
 * its POP_EXCEPT (flowgraph.c inline_small_exit_blocks), and from there
 * in place of the breaks. */
static int is_tail_return(const rec *r, const upy_stmt *s, uint32_t to_return) {
    const upy_nin *in = r->ncode.ins;
    uint32_t n;
    if (to_return == REC_TO_END)
        return s && s->kind == UPY_S_RETURN &&
               (!s->u.value || rec_is_const_none(s->u.value));
    if (!s || s->kind != UPY_S_RETURN)
        return 0;
    if (s->start + 1 == to_return)
        return 1;
    for (n = 1; n <= MAX_RETURN_COPY && s->start + n <= r->ncode.count; n++)
        if (in[s->start + n - 1].op == N_RETURN)
            break;
    if (n > MAX_RETURN_COPY || s->start + n > r->ncode.count ||
        !rec_same_code(r, s->start, to_return - 1, n))
        return 0;
    while (n--)
        if (in[s->start + n].line != in[to_return - 1 + n].line)
            return 0;
    return 1;
}

/* Ends body with the return the breaks t lead to, which the compiler
 * moved in place of the one break (see upy_stmt.u.break_). */
static int append_moved_return(rec *r, upy_stmt_list *body,
                               const tail_breaks *t) {
    upy_stmt *s = upy_stmt_new(r->arena, UPY_S_RETURN);
    if (!s)
        return rec_oom(r);
    rec_set_start(r, s, t->to_return - 1);
    s->u.value = t->value;
    return rec_insert_stmt(r, body, body->len, s);
}

/* Settles the marked breaks of the loop body[k]; after is the statement
 * that runs when the list falls off its end (NULL: none known).  The
 * return they lead to follows the loop's else part: in this list, or
 * right after it. */
static void settle_loop(rec *r, upy_stmt_list *body, uint32_t k,
                        const upy_stmt *after) {
    upy_stmt *s = body->items[k];
    int is_for = s->kind == UPY_S_FOR;
    upy_stmt_list *loop_body = is_for ? &s->u.for_.body : &s->u.while_.body;
    upy_stmt_list *orelse = is_for ? &s->u.for_.orelse : &s->u.while_.orelse;
    tail_breaks t = {NULL, 0, NULL, 0, 1, 0};
    uint32_t j;
    t.r = r;
    find_tail_breaks(loop_body, UPY_LIST_BRANCH, s, &t);
    if (!t.to_return)
        return;
    for (j = k + 1; j < body->len; j++)
        if (is_tail_return(r, body->items[j], t.to_return))
            break;
    if (t.agree && !orelse->len &&
        (j < body->len || is_tail_return(r, after, t.to_return)))
        t.settled = move_to_loop_else(r, body, k, j, orelse) == SUCCESS;
    else if (t.agree && t.moved && !orelse->len && k + 1 < body->len &&
             body->items[body->len - 1]->kind == UPY_S_RAISE)
        t.settled =
            move_to_loop_else(r, body, k, body->len, orelse) == SUCCESS &&
            append_moved_return(r, body, &t) == SUCCESS;
    settle_tail_breaks(loop_body, UPY_LIST_BRANCH, s, &t);
}

/* A statement list, with what runs when it falls off its end. */
typedef struct tail_walk {
    rec *r;
    const upy_stmt *next; /* after the statement holding the list */
} tail_walk;

static void breaks_to_tail_in(rec *r, upy_stmt_list *body,
                              const upy_stmt *after);

static void breaks_to_tail_of(upy_stmt_list *list, upy_list_role role,
                              const upy_stmt *holder, void *arg) {
    const tail_walk *w = arg;
    const upy_stmt *after = w->next;
    /* A loop body goes back to its loop, a with's exit and a finally
     * body run before whatever follows, a try body goes on into its else
     * part. */
    if (role == UPY_LIST_LOOP_BODY || role == UPY_LIST_WITH_BODY ||
        role == UPY_LIST_FINALLY ||
        (holder->kind == UPY_S_TRY && holder->u.try_.finalbody.len) ||
        (role == UPY_LIST_TRY_BODY && holder->u.try_.orelse.len))
        after = NULL;
    breaks_to_tail_in(w->r, list, after);
}

static void breaks_to_tail_in(rec *r, upy_stmt_list *body,
                              const upy_stmt *after) {
    uint32_t k;
    for (k = 0; k < body->len; k++) {
        tail_walk w;
        if (body->items[k]->kind == UPY_S_FOR ||
            body->items[k]->kind == UPY_S_WHILE)
            settle_loop(r, body, k, after);
        w.r = r;
        w.next = k + 1 < body->len ? body->items[k + 1] : after;
        upy_stmt_each_list(body->items[k], breaks_to_tail_of, &w);
    }
}

void rec_breaks_to_tail(rec *r, upy_stmt_list *body) {
    /* (Running off the end of a module or class body is its implicit
     * return, where the breaks read from copies of it go, REC_TO_END.) */
    upy_stmt end;
    memset(&end, 0, sizeof end);
    end.kind = UPY_S_RETURN;
    end.start = REC_TO_END - 1;
    breaks_to_tail_in(r, body, r->is_module || r->is_class_body ? &end : NULL);
}
