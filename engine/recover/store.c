/*
 * store.c - what a store means: assignment statements and bindings.
 *
 * A store pops a value and names a target.  Depending on the slot it pops
 * that is: binding the target of a for loop, with or except clause (the
 * structurer reads it back); filling one slot of a tuple unpacking; the
 * name of a def, class or import; one more target of a chained assignment
 * or walrus; one pair of a multiple assignment whose stores the compiler
 * reordered (`a, b = c, d` becomes LOAD c; LOAD d; STORE b; STORE a since
 * 3.11's swap elimination); or a plain assignment.
 */
#include <string.h>

#include "recover/rec.h"

static upy_expr *new_expr(rec *r, upy_expr_kind kind) {
    upy_expr *e = upy_expr_new(r->arena, kind);
    if (!e)
        rec_oom(r);
    return e;
}

pending *rec_new_target(rec *r) {
    pending *p = upy_arena_alloc(r->arena, sizeof *p);
    if (!p) {
        rec_oom(r);
        return NULL;
    }
    p->kind = P_TARGET;
    p->star = -1;
    return p;
}

upy_expr *rec_bound_target(pending *p) {
    return p && p->complete ? p->result : NULL;
}

static int emit_assign(rec *r, upy_expr_list targets, upy_expr *value,
                       upy_ptr_vec *out) {
    upy_stmt *s = rec_stmt(r, UPY_S_ASSIGN);
    if (!s)
        return ERROR;
    s->u.assign.targets = targets;
    s->u.assign.value = value;
    return rec_emit(r, out, s);
}

static upy_expr_list one(rec *r, upy_expr *e) {
    upy_expr_list list = {NULL, 0};
    list.items = upy_arena_alloc(r->arena, sizeof(upy_expr *));
    if (!list.items) {
        rec_oom(r);
        return list;
    }
    list.items[0] = e;
    list.len = 1;
    return list;
}

static int finish_unpack(rec *r, pending *p, upy_ptr_vec *out);

/* Fills slot `slot` of an unpacking (or the one target of a binding);
 * when the last slot is filled the whole target is stored on. */
static int bind(rec *r, pending *p, uint32_t slot, upy_expr *target,
                upy_ptr_vec *out) {
    if (p->kind == P_TARGET) {
        p->result = target;
        p->complete = 1;
        return SUCCESS;
    }
    if (slot >= p->n)
        return SUCCESS;
    if ((int32_t)slot == p->star) {
        upy_expr *star = new_expr(r, UPY_E_STARRED);
        if (!star)
            return ERROR;
        star->u.operand = target;
        target = star;
    }
    p->elts[slot] = target;
    if (++p->filled < p->n)
        return SUCCESS;
    return finish_unpack(r, p, out);
}

/* All slots of an unpacking filled (at once for `() = v`, which unpacks
 * into no target yet still checks that v is empty): the tuple target is
 * stored on. */
static int finish_unpack(rec *r, pending *p, upy_ptr_vec *out) {
    p->result = new_expr(r, UPY_E_TUPLE);
    if (!p->result)
        return ERROR;
    p->result->u.elts.items = p->elts;
    p->result->u.elts.len = p->n;
    p->complete = 1;
    if (p->parent)
        return bind(r, p->parent, p->parent_slot, p->result, out);
    return rec_store(r, p->result, p->orig, 0, out);
}

int rec_unpack(rec *r, const upy_nin *in, sval v, upy_ptr_vec *out) {
    pending *p = upy_arena_alloc(r->arena, sizeof *p);
    uint32_t before, after, n, k;
    if (!p)
        return rec_oom(r);
    if (in->op == N_UNPACK_EX) {
        before = (uint32_t)in->arg & 0xFF;
        after = (uint32_t)in->arg >> 8;
        n = before + 1 + after;
        p->star = (int32_t)before;
    } else {
        n = (uint32_t)in->arg;
        p->star = -1;
    }
    p->kind = P_UNPACK;
    p->n = n;
    p->elts = upy_arena_array(r->arena, n ? n : 1, sizeof(upy_expr *));
    if (!p->elts)
        return rec_oom(r);
    if (v.kind == SV_BIND && v.pend) {
        /* A nested unpacking, or the target of a for / with. */
        p->parent = v.pend;
        p->parent_slot = v.slot;
    } else {
        p->orig = v;
    }
    if (n == 0)
        return finish_unpack(r, p, out);
    /* The first element ends up on top. */
    for (k = n; k-- > 0;) {
        RETURN_IF_ERROR(rec_push(r, SV_BIND, NULL));
        r->stack[r->sp - 1].pend = p;
        r->stack[r->sp - 1].slot = k;
    }
    return SUCCESS;
}

static void attach_chain(rec *r, const upy_expr *e, pending *p) {
    uint32_t k;
    for (k = r->base; k < r->sp; k++)
        if (r->stack[k].kind == SV_VALUE && r->stack[k].expr == e)
            r->stack[k].pend = p;
}

/* A chained assignment's value that was not stored again but used: the
 * stores were walruses.  The value's node becomes (t2 := (t1 := value)),
 * t1 the target stored first (the innermost walrus stores first), in
 * place: every slot and expression that holds the value reads the walrus,
 * which stores where the value is first evaluated, never a second
 * evaluation of the value without its stores. */
upy_expr *rec_chain_as_walrus(rec *r, pending *p) {
    upy_expr *node = p->value, *e = new_expr(r, UPY_E_CONST);
    uint32_t k;
    if (!e)
        return NULL;
    *e = *node;
    /* Only the walrus holds the value now; the node keeps the mark of a
     * value COPY duplicated. */
    e->copied = 0;
    for (k = 0; k < p->targets.len; k++) {
        upy_expr *w = new_expr(r, UPY_E_NAMEDEXPR);
        if (!w)
            return NULL;
        w->u.named.target = p->targets.items[k];
        w->u.named.value = e;
        e = w;
    }
    e->copied = node->copied;
    *node = *e;
    p->complete = 1;
    return node;
}

int rec_finish_chain(rec *r, sval v, upy_ptr_vec *out) {
    upy_stmt *s = rec_stmt(r, UPY_S_EXPR);
    if (!s)
        return ERROR;
    s->u.expr = rec_chain_as_walrus(r, v.pend);
    return rec_emit(r, out, s);
}

/* Whether values of the statement under way are still on the stack above
 * the statement base (markers, such as the locals an inlined
 * comprehension saved, do not count); with `e`, a slot holding e (a copy
 * made by COPY for a chained assignment or a walrus). */
static int values_pending(const rec *r, const upy_expr *e) {
    uint32_t k;
    for (k = r->base; k < r->sp; k++)
        if (r->stack[k].kind == SV_VALUE && (!e || r->stack[k].expr == e))
            return 1;
    return 0;
}

/* Whether a store under waiting values starts a multiple assignment.
 * `a, b = c, d` loads c and d, then stores them in an order other than
 * last-computed first: through a SWAP, or, for stores CPython's swap
 * elimination may move (flowgraph.c apply_static_swaps: STORE_FAST, the
 * SWAPPABLE stores), in any order.  A store of the value computed last
 * that no SWAP moved is a statement of its own: Dynamo keeps values on
 * the stack across statements (`LOAD_CONST 3; BUILD_LIST; ...;
 * STORE_SUBSCR; STORE_DEREF x` stores the item first, then x = 3). */
static int starts_multi(const rec *r, sval v, int swappable) {
    uint32_t k;
    int pending = 0;
    for (k = r->base; k < r->sp; k++) {
        if (r->stack[k].kind != SV_VALUE)
            continue;
        pending = 1;
        if (r->stack[k].id > v.id)
            return 1;
    }
    return pending && swappable;
}

/* A multiple assignment is complete when the stack is back at the
 * statement base: its targets in the order of the values they took. */
static int flush_multi(rec *r, upy_ptr_vec *out) {
    uint32_t n = r->multi.len, i, j;
    multi_store *items = (multi_store *)r->multi_items;
    upy_expr *targets, *values;
    if (n == 0 || values_pending(r, NULL))
        return SUCCESS;
    for (i = 1; i < n; i++) {
        multi_store m = items[i];
        for (j = i; j > 0 && items[j - 1].id > m.id; j--)
            items[j] = items[j - 1];
        items[j] = m;
    }
    targets = new_expr(r, UPY_E_TUPLE);
    values = new_expr(r, UPY_E_TUPLE);
    if (!targets || !values)
        return ERROR;
    targets->u.elts.items = upy_arena_array(r->arena, n, sizeof(upy_expr *));
    values->u.elts.items = upy_arena_array(r->arena, n, sizeof(upy_expr *));
    if (!targets->u.elts.items || !values->u.elts.items)
        return rec_oom(r);
    for (i = 0; i < n; i++) {
        targets->u.elts.items[i] = items[i].target;
        values->u.elts.items[i] = items[i].value;
    }
    targets->u.elts.len = values->u.elts.len = n;
    r->multi.len = 0;
    r->held.len = 0;
    return emit_assign(r, one(r, targets), values, out);
}

static int add_multi(rec *r, upy_expr *target, sval v, upy_ptr_vec *out) {
    multi_store *items;
    if (r->multi.len == r->multi_cap) {
        multi_store *grown =
            upy_arena_grow(r->arena, r->multi_items, r->multi.len,
                           &r->multi_cap, sizeof *grown, 8);
        if (!grown)
            return rec_oom(r);
        r->multi_items = grown;
    }
    items = (multi_store *)r->multi_items;
    items[r->multi.len].target = target;
    items[r->multi.len].value = v.expr;
    items[r->multi.len].id = v.id;
    r->multi.len++;
    RETURN_IF_ERROR(rec_hold_store(r));
    return flush_multi(r, out);
}

/* `x += v` is LOAD x; v; BINARY_OP +=; STORE x (with COPYs of the owner
 * and key for attributes and items): the target matches the left operand
 * of the in-place operation. */
static int same_target(const upy_expr *target, const upy_expr *left) {
    if (!target || !left || target->kind != left->kind)
        return 0;
    switch (target->kind) {
    case UPY_E_NAME:
        return strcmp(target->u.name, left->u.name) == 0;
    case UPY_E_ATTR:
        return target->u.attr.value == left->u.attr.value &&
               strcmp(target->u.attr.attr, left->u.attr.attr) == 0;
    case UPY_E_SUBSCRIPT:
        if (target->u.subscript.value != left->u.subscript.value)
            return 0;
        if (target->u.subscript.index == left->u.subscript.index)
            return 1;
        /* Slices are rebuilt for the store from the same bounds. */
        return target->u.subscript.index->kind == UPY_E_SLICE &&
               left->u.subscript.index->kind == UPY_E_SLICE &&
               target->u.subscript.index->u.slice.lower ==
                   left->u.subscript.index->u.slice.lower &&
               target->u.subscript.index->u.slice.upper ==
                   left->u.subscript.index->u.slice.upper;
    default:
        return 0;
    }
}

static int store_def(rec *r, upy_expr *target, sval v, upy_ptr_vec *out) {
    upy_stmt *s = v.pend->stmt;
    /* A def keeps its code object's name: the store is of the same name,
     * mangled in a class body. */
    if (target->kind == UPY_E_NAME && s->kind == UPY_S_CLASSDEF)
        s->u.classdef.name = target->u.name;
    v.pend->complete = 1;
    return rec_emit(r, out, s);
}

static int store_import(rec *r, upy_expr *target, sval v, upy_ptr_vec *out) {
    upy_stmt *s = v.pend->stmt;
    const char *stored = target->kind == UPY_E_NAME ? target->u.name : NULL;
    upy_alias *names;
    upy_alias alias;

    memset(&alias, 0, sizeof alias);
    if (s->kind == UPY_S_IMPORT_FROM) {
        alias.name =
            v.expr && v.expr->kind == UPY_E_NAME ? v.expr->u.name : "_";
        if (stored && strcmp(stored, alias.name) != 0)
            alias.asname = stored;
    } else {
        /* import a.b.c binds a; anything else is an `as`. */
        const char *module = s->u.import.module ? s->u.import.module : "_";
        size_t first = strcspn(module, ".");
        alias.name = module;
        if (!stored || v.pend->filled || strlen(stored) != first ||
            strncmp(stored, module, first) != 0)
            alias.asname = stored;
    }
    names = upy_arena_array(r->arena, s->u.import.n + 1, sizeof(upy_alias));
    if (!names)
        return rec_oom(r);
    if (s->u.import.n)
        memcpy(names, s->u.import.names, s->u.import.n * sizeof *names);
    names[s->u.import.n++] = alias;
    s->u.import.names = names;
    if (s->kind == UPY_S_IMPORT) {
        v.pend->complete = 1;
        return rec_emit(r, out, s);
    }
    return SUCCESS;
}

/* In a module or class body, `x: T = v` stores v to x and then T to
 * __annotations__['x'].  The name of such an annotation store, else NULL. */
static const char *annotation_key(const rec *r, const upy_expr *target) {
    const upy_expr *owner, *key;
    if (!(r->is_module || r->is_class_body) || target->kind != UPY_E_SUBSCRIPT)
        return NULL;
    owner = target->u.subscript.value;
    key = target->u.subscript.index;
    if (owner->kind != UPY_E_NAME ||
        strcmp(owner->u.name, "__annotations__") != 0 ||
        key->kind != UPY_E_CONST || !key->u.constant ||
        key->u.constant->kind != UPY_STR ||
        !upy_is_identifier(rec_str(key->u.constant)))
        return NULL;
    return rec_str(key->u.constant);
}

/* The annotated assignment `name: annotation`, taking the value of an
 * assignment to name just before it. */
static int emit_annotation(rec *r, const char *name, upy_expr *annotation,
                           upy_ptr_vec *out) {
    upy_stmt *s = rec_stmt(r, UPY_S_ANNASSIGN), *prev;
    if (!s)
        return ERROR;
    s->u.annassign.target = rec_name(r, name);
    s->u.annassign.annotation = rec_annotation(r, annotation);
    s->u.annassign.simple = 1;
    prev = out->len ? (upy_stmt *)out->items[out->len - 1] : NULL;
    if (prev && prev->kind == UPY_S_ASSIGN && prev->u.assign.targets.len == 1 &&
        prev->u.assign.targets.items[0]->kind == UPY_E_NAME &&
        strcmp(prev->u.assign.targets.items[0]->u.name, name) == 0) {
        s->u.annassign.value = prev->u.assign.value;
        /* (The statement's code starts with the value's: what dead code
         * placed by its start (rec_dead_place) numbered came before.) */
        rec_set_start(r, s, prev->start);
        out->len--;
    }
    return rec_emit(r, out, s);
}

int rec_store(rec *r, upy_expr *target, sval v, int swappable,
              upy_ptr_vec *out) {
    const char *annotated;
    if (!target)
        return ERROR;
    switch ((sv_kind)v.kind) {
    case SV_BIND:
        return v.pend ? bind(r, v.pend, v.slot, target, out) : 0;
    case SV_FUNCTION:
        if (v.pend && v.pend->stmt)
            return store_def(r, target, v, out);
        break;
    case SV_IMPORT:
        if (v.pend && v.pend->stmt)
            return store_import(r, target, v, out);
        break;
    case SV_SAVED:
        /* 3.12+: an inlined comprehension restoring a local. */
        return SUCCESS;
    default:
        break;
    }
    if (v.pend && v.pend->kind == P_CHAIN && !v.pend->complete) {
        pending *p = v.pend;
        if (upy_vec_push(r->arena, &p->targets, target))
            return rec_oom(r);
        if (values_pending(r, p->value))
            return SUCCESS;
        p->complete = 1;
        return emit_assign(r, upy_vec_exprs(&p->targets), p->value, out);
    }
    if (v.kind == SV_VALUE && values_pending(r, v.expr)) {
        pending *p = upy_arena_alloc(r->arena, sizeof *p);
        if (!p)
            return rec_oom(r);
        p->kind = P_CHAIN;
        p->value = v.expr;
        if (upy_vec_push(r->arena, &p->targets, target))
            return rec_oom(r);
        attach_chain(r, v.expr, p);
        return SUCCESS;
    }
    if (v.inplace && v.expr && v.expr->kind == UPY_E_BINOP &&
        same_target(target, v.expr->u.binop.left)) {
        upy_stmt *s = rec_stmt(r, UPY_S_AUGASSIGN);
        if (!s)
            return ERROR;
        s->u.augassign.target = v.expr->u.binop.left;
        s->u.augassign.op = v.expr->u.binop.op;
        s->u.augassign.value = v.expr->u.binop.right;
        return rec_emit(r, out, s);
    }
    if (r->multi.len || starts_multi(r, v, swappable))
        return add_multi(r, target, v, out);
    annotated = annotation_key(r, target);
    if (annotated && v.kind == SV_VALUE)
        return emit_annotation(r, annotated, v.expr, out);
    return emit_assign(r, one(r, target), rec_value(r, v), out);
}

int rec_flush(rec *r, uint32_t base, upy_ptr_vec *out) {
    while (r->sp > base) {
        sval v = rec_pop(r);
        if (v.kind == SV_VALUE && v.expr && !rec_kept_across(&v)) {
            upy_stmt *s = rec_stmt(r, UPY_S_EXPR);
            if (!s)
                return ERROR;
            s->u.expr = v.expr;
            RETURN_IF_ERROR(rec_emit(r, out, s));
        }
    }
    return SUCCESS;
}
