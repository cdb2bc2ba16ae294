/*
 * stack.c - the symbolic stack and small constructors; see rec.h.
 */
#include <string.h>

#include "recover/rec.h"
#include "util/error.h"

int rec_oom(rec *r) {
    if (!r->failed) {
        r->failed = 1;
        upy_fail(r->err,
                 r->arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
                 "out of memory while recovering %s",
                 rec_str(r->code->name) ? rec_str(r->code->name) : "code");
    }
    return ERROR;
}

int rec_push_sval(rec *r, sval v) {
    if (r->sp == r->cap) {
        sval *grown = upy_arena_grow(r->scratch, r->stack, r->sp, &r->cap,
                                     sizeof *grown, 32);
        if (!grown)
            return rec_oom(r);
        r->stack = grown;
    }
    r->stack[r->sp++] = v;
    return SUCCESS;
}

int rec_push(rec *r, sv_kind kind, upy_expr *expr) {
    sval v;
    memset(&v, 0, sizeof v);
    v.kind = (uint8_t)kind;
    v.expr = expr;
    v.id = r->next_id++;
    return rec_push_sval(r, v);
}

/* `...`, standing for a value the code does not provide (only in corrupt
 * or unrecovered code). */
upy_expr *rec_placeholder(rec *r) {
    static const upy_object ellipsis = {UPY_ELLIPSIS, 0, {{0, 0, 0, 0, 0}}};
    r->unrecovered++;
    r->placeholders++;
    return rec_const(r, &ellipsis);
}

sval rec_pop(rec *r) {
    sval v;
    if (r->sp)
        return r->stack[--r->sp];
    memset(&v, 0, sizeof v);
    v.kind = SV_VALUE;
    v.expr = rec_placeholder(r);
    return v;
}

sval *rec_peek(rec *r, uint32_t depth_from_top) {
    if (depth_from_top == 0 || depth_from_top > r->sp)
        return NULL;
    return &r->stack[r->sp - depth_from_top];
}

const char *rec_str(const upy_object *o) {
    return o && o->kind == UPY_STR ? (const char *)o->u.bytes.data : NULL;
}

upy_expr *rec_name(rec *r, const char *name) {
    upy_expr *e = upy_expr_new(r->arena, UPY_E_NAME);
    if (!e) {
        rec_oom(r);
        return NULL;
    }
    e->u.name = name ? rec_source_name(r, name) : "_";
    return e;
}

upy_expr *rec_const(rec *r, const upy_object *obj) {
    upy_expr *e = upy_expr_new(r->arena, UPY_E_CONST);
    if (!e) {
        rec_oom(r);
        return NULL;
    }
    e->u.constant = obj;
    if (r->const_shown) {
        int32_t k = rec_entry_index(r, 1, obj);
        if (k >= 0)
            r->const_shown[k] = 1;
    }
    return e;
}

void rec_unshow_const(rec *r, const upy_expr *e) {
    int32_t k;
    if (!r->const_shown || !e || e->kind != UPY_E_CONST)
        return;
    k = rec_entry_index(r, 1, e->u.constant);
    if (k >= 0)
        r->const_shown[k] = 0;
    if (k >= 0 && r->const_tested_at)
        r->const_tested_at[k] = UINT32_MAX;
}

upy_expr *rec_const_false(rec *r) {
    static const upy_object false_object = {UPY_FALSE, 0, {{0, 0, 0, 0, 0}}};
    return rec_const(r, &false_object);
}

int rec_is_const_none(const upy_expr *e) {
    return e && e->kind == UPY_E_CONST && e->u.constant &&
           e->u.constant->kind == UPY_NONE;
}

/* The expression of a slot; markers have none and read as `...`. */
upy_expr *rec_value(rec *r, sval v) {
    upy_expr *e;
    /* A value stored by a COPY's twin and then used: a walrus. */
    if (v.pend && v.pend->kind == P_CHAIN && !v.pend->complete)
        e = rec_chain_as_walrus(r, v.pend);
    else
        e = v.expr ? v.expr : rec_placeholder(r);
    /* Out of memory (the recovery fails, its error recorded): callers
     * still get an expression to hold. */
    return e ? e : &r->no_memory;
}

int rec_push_function(rec *r, pending_kind kind, upy_stmt *stmt,
                      upy_expr *value) {
    pending *p = upy_arena_alloc(r->arena, sizeof *p);
    if (!p)
        return rec_oom(r);
    p->kind = kind;
    p->stmt = stmt;
    p->value = value;
    RETURN_IF_ERROR(rec_push(r, SV_FUNCTION, NULL));
    r->stack[r->sp - 1].pend = p;
    return SUCCESS;
}

upy_stmt *rec_stmt(rec *r, upy_stmt_kind kind) {
    upy_stmt *s = upy_stmt_new(r->arena, kind);
    if (!s)
        rec_oom(r);
    else
        rec_set_start(r, s, r->stmt_start);
    return s;
}

void rec_set_start(const rec *r, upy_stmt *s, uint32_t start) {
    s->start = start;
    s->line = start < r->ncode.count ? ins(r, start)->line : -1;
}

/* Statements that run where they are emitted, their operands just
 * popped: values still waiting under them were computed before them. */
static int runs_in_place(const upy_stmt *s) {
    switch (s->kind) {
    case UPY_S_EXPR:
    case UPY_S_ASSIGN:
    case UPY_S_AUGASSIGN:
    case UPY_S_ANNASSIGN:
    case UPY_S_DELETE:
    case UPY_S_RETURN:
    case UPY_S_RAISE:
    case UPY_S_IMPORT:
    case UPY_S_IMPORT_FROM:
    case UPY_S_FUNCTIONDEF:
    case UPY_S_CLASSDEF:
    case UPY_S_TYPEALIAS:
        return 1;
    default:
        return 0;
    }
}

int rec_emit(rec *r, upy_ptr_vec *out, upy_stmt *s) {
    int deferred;
    if (!s)
        return ERROR;
    deferred = rec_del_passes_waiting(r, s, out);
    if (deferred < 0 ||
        (!deferred && (runs_in_place(s) || r->multi.len) && rec_spill(r, r->sp, out)))
        return ERROR;
    /* A value the spill named is no statement any more. */
    if (s->kind == UPY_S_EXPR && rec_is_spilled(s->u.expr))
        return SUCCESS;
    if (r->placeholders > r->placeholders_marked) {
        /* Never a silent `...`: the statement gets a comment. */
        upy_stmt *note = upy_stmt_new(r->arena, UPY_S_UNRECOVERED);
        if (!note)
            return rec_oom(r);
        note->u.unrecovered.text =
            "unpyc: a value missing from the stack here prints as ... "
            "in the next statement";
        note->u.unrecovered.lost = 1;
        r->lost_marks++;
        r->placeholders_marked = r->placeholders;
        if (upy_vec_push(r->arena, out, note))
            return rec_oom(r);
    }
    if (upy_vec_push(r->arena, out, s))
        return rec_oom(r);
    return SUCCESS;
}

/* Where no value of this frame is on the stack, no multiple store is under
 * way and every placeholder has its comment, rec_emit of a statement is its
 * push (none for an expression statement spilled already): nothing waits
 * to go before it (rec_del_passes_waiting, rec_spill find nothing).  Then
 * the statements are copied without the per-statement checks, which were
 * a quarter of the cost of 800 `try: ... except E: break` in a while:
 * each try's rest is emitted again into the rest of the try before it,
 * n^2 / 2 statements for n tries.  (Not inlined into rec_try, whose
 * frame bounds how many tries fit in REC_STACK_BUDGET.) */
__attribute__((noinline)) int rec_emit_all(rec *r, upy_ptr_vec *out,
                                           const upy_ptr_vec *stmts) {
    uint32_t k;
    /* (Room for them at once: growing `out` by doubling copied and
     * cleared each try's rest again, half the cost of the tries above.) */
    if (upy_vec_reserve(r->arena, out, stmts->len))
        return rec_oom(r);
    if (r->sp > r->base || r->multi.len ||
        r->placeholders > r->placeholders_marked) {
        for (k = 0; k < stmts->len; k++)
            RETURN_IF_ERROR(rec_emit(r, out, stmts->items[k]));
        return SUCCESS;
    }
    for (k = 0; k < stmts->len; k++) {
        upy_stmt *s = stmts->items[k];
        if (s->kind != UPY_S_EXPR || !rec_is_spilled(s->u.expr))
            out->items[out->len++] = s;
    }
    return SUCCESS;
}
