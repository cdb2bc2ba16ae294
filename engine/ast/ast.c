/*
 * ast.c - allocating syntax tree nodes; see ast.h.
 */
#include "ast/ast.h"

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
