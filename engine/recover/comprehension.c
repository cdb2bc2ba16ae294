/*
 * comprehension.c - list, set and dict comprehensions and generator
 * expressions.
 *
 * Before 3.12 a comprehension is a code object of its own, called on the
 * iterator of its outermost iterable: its body is a for loop over `.0`,
 * with if tests and inner for loops, around one LIST_APPEND / SET_ADD /
 * MAP_ADD (or a yield for a generator expression).  We recover that body
 * with the ordinary structurer, with the append recorded as a
 * `yield element` statement, and then read the clauses off the statement
 * tree.
 */
#include <string.h>

#include "recover/rec.h"

static upy_expr *new_expr(rec *r, upy_expr_kind kind) {
    upy_expr *e = upy_expr_new(r->arena, kind);
    if (!e)
        rec_oom(r);
    return e;
}

/* LIST_APPEND / SET_ADD / MAP_ADD: with depth 1 onto a display right
 * below (the compiler builds long or starred displays that way), else the
 * element of a comprehension. */
int rec_comprehension_add(rec *r, const upy_nin *in, upy_ptr_vec *out) {
    sval value = rec_pop(r), key;
    sval *target;
    upy_expr *elt, *y;
    upy_stmt *s;

    memset(&key, 0, sizeof key);
    if (in->op == N_MAP_ADD)
        key = rec_pop(r);
    target = rec_peek(r, (uint32_t)in->arg);
    if (in->arg == 1 && target && target->expr) {
        upy_expr *d = target->expr;
        if (in->op == N_MAP_ADD && d->kind == UPY_E_DICT) {
            upy_expr **keys =
                upy_arena_array(r->arena, d->u.dict.n + 1, sizeof(upy_expr *));
            upy_expr **values =
                upy_arena_array(r->arena, d->u.dict.n + 1, sizeof(upy_expr *));
            if (!keys || !values)
                return rec_oom(r);
            if (d->u.dict.n) {
                memcpy(keys, d->u.dict.keys, d->u.dict.n * sizeof *keys);
                memcpy(values, d->u.dict.values, d->u.dict.n * sizeof *values);
            }
            keys[d->u.dict.n] = rec_value(r, key);
            values[d->u.dict.n] = rec_value(r, value);
            d->u.dict.keys = keys;
            d->u.dict.values = values;
            d->u.dict.n++;
            return SUCCESS;
        }
        if ((in->op == N_LIST_APPEND && d->kind == UPY_E_LIST) ||
            (in->op == N_SET_ADD && d->kind == UPY_E_SET)) {
            upy_expr **items = upy_arena_array(r->arena, d->u.elts.len + 1,
                                               sizeof(upy_expr *));
            if (!items)
                return rec_oom(r);
            if (d->u.elts.len)
                memcpy(items, d->u.elts.items,
                       d->u.elts.len * sizeof(upy_expr *));
            items[d->u.elts.len++] = rec_value(r, value);
            d->u.elts.items = items;
            return SUCCESS;
        }
    }
    if (in->op == N_MAP_ADD) {
        elt = new_expr(r, UPY_E_TUPLE);
        if (!elt)
            return ERROR;
        elt->u.elts.items = upy_arena_array(r->arena, 2, sizeof(upy_expr *));
        if (!elt->u.elts.items)
            return rec_oom(r);
        elt->u.elts.items[0] = rec_value(r, key);
        elt->u.elts.items[1] = rec_value(r, value);
        elt->u.elts.len = 2;
    } else {
        elt = rec_value(r, value);
    }
    y = new_expr(r, UPY_E_YIELD);
    s = rec_stmt(r, UPY_S_EXPR);
    if (!y || !s)
        return ERROR;
    y->u.operand = elt;
    s->u.expr = y;
    return rec_emit(r, out, s);
}

static upy_expr *from_loop(rec *r, upy_expr_kind kind, const upy_stmt *loop,
                           upy_expr *iter);

/* Which if clauses were on another line than the element: the line of
 * a condition decides whether the compiler threads its jumps (see
 * upy_comprehension.own_line_ifs).  if_stmts are the ifs of all the
 * generators in gens, in order; element the statement holding the
 * element. */
static void mark_own_lines(upy_ptr_vec *gens, const upy_ptr_vec *if_stmts,
                           const upy_stmt *element) {
    int32_t line = element->line;
    uint32_t g, k, n = 0;
    for (g = 0; g < gens->len; g++) {
        upy_comprehension *gen = gens->items[g];
        for (k = 0; k < gen->ifs.len && n < if_stmts->len; k++, n++) {
            int32_t if_line = ((const upy_stmt *)if_stmts->items[n])->line;
            if (k < 32 && line >= 0 && if_line >= 0 && if_line != line)
                gen->own_line_ifs |= (uint32_t)1 << k;
        }
    }
}

/* The clause `for y in [v]` of assignment s, `y = v`. */
static upy_comprehension *assignment_clause(rec *r, const upy_stmt *s) {
    upy_comprehension *g = upy_arena_alloc(r->arena, sizeof *g);
    upy_expr *list = upy_expr_new(r->arena, UPY_E_LIST);
    upy_expr **items = upy_arena_array(r->arena, 1, sizeof(upy_expr *));
    if (!g || !list || !items)
        return NULL;
    memset(g, 0, sizeof *g);
    items[0] = s->u.assign.value;
    list->u.elts.items = items;
    list->u.elts.len = 1;
    g->target = s->u.assign.targets.items[0];
    g->iter = list;
    return g;
}

/* Reads the clauses of a comprehension off its recovered body.  Returns
 * the element (for a dict comprehension a (key, value) tuple), or NULL
 * when the body has another shape. */
static upy_expr *read_clauses(rec *r, const upy_stmt *loop,
                              upy_expr *outer_iter, upy_ptr_vec *gens) {
    int first = 1;
    upy_ptr_vec if_stmts = {0};
    while (loop && loop->kind == UPY_S_FOR) {
        upy_comprehension *g = upy_arena_alloc(r->arena, sizeof *g);
        upy_ptr_vec ifs = {0};
        upy_stmt_list body = loop->u.for_.body;
        uint32_t k = 0;
        if (!g) {
            rec_oom(r);
            return NULL;
        }
        g->target = loop->u.for_.target;
        g->iter = first ? outer_iter : loop->u.for_.iter;
        g->is_async = loop->u.for_.is_async;
        first = 0;
        if (upy_vec_push(r->arena, gens, g)) {
            rec_oom(r);
            return NULL;
        }
        loop = NULL;
        while (k < body.len) {
            upy_stmt *s = body.items[k];
            if (s->kind == UPY_S_IF && s->u.if_.orelse.len == 0 &&
                s->u.if_.body.len == 1 &&
                s->u.if_.body.items[0]->kind == UPY_S_CONTINUE) {
                /* `if not c: continue`: the clause `if c`. */
                if (upy_vec_push(r->arena, &ifs,
                                 rec_negate(r, s->u.if_.test)) ||
                    upy_vec_push(r->arena, &if_stmts, s))
                    return NULL;
                k++;
                continue;
            }
            if (s->kind == UPY_S_ASSIGN && s->u.assign.targets.len == 1 &&
                k + 1 < body.len) {
                /* `for y in [v]`: 3.9+ compile a one-item list or tuple
                 * iterated by an inner clause as the assignment y = v. */
                g->ifs = upy_vec_exprs(&ifs);
                memset(&ifs, 0, sizeof ifs);
                g = assignment_clause(r, s);
                if (!g || upy_vec_push(r->arena, gens, g)) {
                    rec_oom(r);
                    return NULL;
                }
                k++;
                continue;
            }
            if (k + 1 != body.len)
                return NULL;
            if (s->kind == UPY_S_IF && s->u.if_.orelse.len == 0) {
                if (upy_vec_push(r->arena, &ifs, s->u.if_.test) ||
                    upy_vec_push(r->arena, &if_stmts, s))
                    return NULL;
                body = s->u.if_.body;
                k = 0;
                continue;
            }
            if (s->kind == UPY_S_FOR) {
                loop = s;
                break;
            }
            if (s->kind == UPY_S_EXPR && s->u.expr->kind == UPY_E_YIELD) {
                g->ifs = upy_vec_exprs(&ifs);
                mark_own_lines(gens, &if_stmts, s);
                /* (eval.c reads `yield None` as a bare yield: the element
                 * None of a generator expression is that.) */
                return s->u.expr->u.operand
                           ? s->u.expr->u.operand
                           : rec_const(r, r->none_object);
            }
            return NULL;
        }
        g->ifs = upy_vec_exprs(&ifs);
    }
    return NULL;
}

/* The names the compiler gives the code of each kind of comprehension. */
static const struct {
    const char *name;
    upy_expr_kind kind;
} comprehension_names[] = {
    {"<listcomp>", UPY_E_LISTCOMP},
    {"<setcomp>", UPY_E_SETCOMP},
    {"<dictcomp>", UPY_E_DICTCOMP},
    {"<genexpr>", UPY_E_GENEXP},
};

/* The index of co's name in comprehension_names, or -1. */
static int comprehension_index(const upy_code *co) {
    const char *name = rec_str(co->name);
    int k;
    for (k = 0; name && k < (int)(sizeof comprehension_names /
                                  sizeof comprehension_names[0]);
         k++)
        if (strcmp(name, comprehension_names[k].name) == 0)
            return k;
    return -1;
}

int rec_is_comprehension_code(const upy_code *co) {
    return comprehension_index(co) >= 0;
}

upy_expr *rec_comprehension(rec *r, const upy_code *co, upy_expr *iter) {
    int index = comprehension_index(co);
    upy_expr_kind kind =
        index >= 0 ? comprehension_names[index].kind : UPY_E_GENEXP;
    int ok = 1;
    upy_stmt_list body = rec_nested_body(r, co, &ok);
    upy_expr *e = NULL;
    uint32_t k;

    for (k = 0; k < body.len && !e; k++)
        if (body.items[k]->kind == UPY_S_FOR)
            e = from_loop(r, kind, body.items[k], iter);
    if (e && kind != UPY_E_GENEXP && (co->flags & CO_COROUTINE))
        e->u.comp.awaits_call = 1;
    return e ? e : rec_placeholder(r);
}

/* The comprehension an accumulator display (an empty list, set or dict
 * built for it) and its loop make, or NULL. */
static upy_expr *from_loop(rec *r, upy_expr_kind kind, const upy_stmt *loop,
                           upy_expr *iter) {
    upy_ptr_vec gens = {0};
    upy_expr *elt = read_clauses(r, loop, iter, &gens), *e;
    uint32_t k;
    if (!elt || !gens.len)
        return NULL;
    e = new_expr(r, kind);
    if (!e)
        return NULL;
    if (kind == UPY_E_DICTCOMP) {
        if (elt->kind != UPY_E_TUPLE || elt->u.elts.len != 2)
            return NULL;
        e->u.comp.key = elt->u.elts.items[0];
        e->u.comp.elt = elt->u.elts.items[1];
    } else {
        e->u.comp.elt = elt;
    }
    e->u.comp.generators =
        upy_arena_array(r->arena, gens.len, sizeof(upy_comprehension));
    if (!e->u.comp.generators) {
        rec_oom(r);
        return NULL;
    }
    for (k = 0; k < gens.len; k++)
        e->u.comp.generators[k] = *(upy_comprehension *)gens.items[k];
    e->u.comp.n_generators = gens.len;
    return e;
}

upy_expr *rec_inlined_comprehension(rec *r, const upy_expr *accumulator,
                                    const upy_stmt *loop) {
    upy_expr_kind kind;
    /* (The loop's body may have stored over the display's stack slot in
     * corrupt code: then there is no comprehension to make.) */
    if (!rec_is_accumulator(accumulator))
        return NULL;
    kind = accumulator->kind == UPY_E_LIST  ? UPY_E_LISTCOMP
           : accumulator->kind == UPY_E_SET ? UPY_E_SETCOMP
                                            : UPY_E_DICTCOMP;
    return from_loop(r, kind, loop, loop->u.for_.iter);
}

int rec_is_accumulator(const upy_expr *e) {
    return e && (((e->kind == UPY_E_LIST || e->kind == UPY_E_SET) &&
                  e->u.elts.len == 0) ||
                 (e->kind == UPY_E_DICT && e->u.dict.n == 0));
}
