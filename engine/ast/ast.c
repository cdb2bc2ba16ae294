/*
 * ast.c - allocating syntax tree nodes; see ast.h.
 */
#include "ast/ast.h"

#include <string.h>

upy_expr *upy_expr_new(upy_arena *arena, upy_expr_kind kind) {
    upy_expr *e = upy_arena_alloc(arena, sizeof *e);
    if (e)
        e->kind = kind;
    return e;
}

upy_stmt *upy_stmt_new(upy_arena *arena, upy_stmt_kind kind) {
    upy_stmt *s = upy_arena_alloc(arena, sizeof *s);
    if (s)
        s->kind = kind;
    return s;
}

upy_pattern *upy_pattern_new(upy_arena *arena, upy_pattern_kind kind) {
    upy_pattern *p = upy_arena_alloc(arena, sizeof *p);
    if (p)
        p->kind = kind;
    return p;
}

void upy_stmt_each_list(upy_stmt *s, upy_list_visit visit, void *arg) {
    uint32_t k;
    switch (s->kind) {
    case UPY_S_IF:
        visit(&s->u.if_.body, UPY_LIST_BRANCH, s, arg);
        visit(&s->u.if_.orelse, UPY_LIST_BRANCH, s, arg);
        break;
    case UPY_S_WHILE:
        visit(&s->u.while_.body, UPY_LIST_LOOP_BODY, s, arg);
        visit(&s->u.while_.orelse, UPY_LIST_LOOP_ELSE, s, arg);
        break;
    case UPY_S_FOR:
        visit(&s->u.for_.body, UPY_LIST_LOOP_BODY, s, arg);
        visit(&s->u.for_.orelse, UPY_LIST_LOOP_ELSE, s, arg);
        break;
    case UPY_S_WITH:
        visit(&s->u.with.body, UPY_LIST_WITH_BODY, s, arg);
        break;
    case UPY_S_TRY:
        visit(&s->u.try_.body, UPY_LIST_TRY_BODY, s, arg);
        for (k = 0; k < s->u.try_.n_handlers; k++)
            visit(&s->u.try_.handlers[k].body, UPY_LIST_HANDLER, s, arg);
        visit(&s->u.try_.orelse, UPY_LIST_TRY_ELSE, s, arg);
        visit(&s->u.try_.finalbody, UPY_LIST_FINALLY, s, arg);
        break;
    case UPY_S_MATCH:
        for (k = 0; k < s->u.match.n_cases; k++)
            visit(&s->u.match.cases[k].body, UPY_LIST_BRANCH, s, arg);
        break;
    default:
        break;
    }
}

/* (Not inlined: rec_try calls it, whose frame, repeated for each try of a
 * body in the rest of the one before, bounds how many tries fit in the
 * structurer's stack budget.) */
__attribute__((noinline)) int upy_vec_reserve(upy_arena *arena,
                                              upy_ptr_vec *vec, uint32_t more) {
    void **grown;
    if (more <= vec->cap - vec->len)
        return 0;
    if (more > UINT32_MAX - vec->len)
        return -1;
    grown = upy_arena_array_uncleared(arena, (size_t)vec->len + more,
                                      sizeof *grown);
    if (!grown)
        return -1;
    if (vec->len)
        memcpy(grown, vec->items, vec->len * sizeof *grown);
    vec->items = grown;
    vec->cap = vec->len + more;
    return 0;
}

int upy_vec_push(upy_arena *arena, upy_ptr_vec *vec, void *p) {
    if (vec->len == vec->cap) {
        void **grown = upy_arena_grow(arena, vec->items, vec->len, &vec->cap,
                                      sizeof *grown, 4);
        if (!grown)
            return -1;
        vec->items = grown;
    }
    vec->items[vec->len++] = p;
    return 0;
}
