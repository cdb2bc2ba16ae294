/*
 * typeparams.c - 3.12+ type parameters (PEP 695).
 *
 * `def f[T](x: T)`, `class C[T](Base)` and `type A[T] = list[T]` compile
 * to a function of their own, the type parameter scope, named
 * "<generic parameters of NAME>", made and called at once where the
 * statement is:
 *
 *   - the scope makes each parameter (CALL_INTRINSIC_1 TYPEVAR,
 *     TYPEVARTUPLE, PARAMSPEC; _2 TYPEVAR_WITH_BOUND / _CONSTRAINTS;
 *     3.13 SET_TYPEPARAM_DEFAULT), stores it to its name and builds the
 *     tuple of all of them;
 *   - a def's defaults are computed outside and passed in (.defaults,
 *     .kwdefaults), its annotations inside; the function made is returned
 *     with the tuple set on it (SET_FUNCTION_TYPE_PARAMS);
 *   - a class keeps the tuple in .type_params (its body stores it as
 *     __type_params__) and gets Generic[*params] (SUBSCRIPT_GENERIC) as a
 *     last base, .generic_base, that the source does not write;
 *   - a type alias is the tuple (name, params or None, value function)
 *     given to INTRINSIC_TYPEALIAS, also outside any such scope when the
 *     alias has no parameters.
 *
 * Bounds, constraints, defaults and alias values are lazily evaluated:
 * each is a code object of its own that returns the expression.
 *
 * The scope is recovered like any code object, with the hidden names
 * holding values; its return emits the statement, which the caller's
 * store then names like a def's.
 */
#include <string.h>

#include "recover/rec.h"

#define GENERIC_PREFIX "<generic parameters of "

int rec_is_generic_scope(const upy_code *co) {
    const char *name = rec_str(co->name);
    return name && strncmp(name, GENERIC_PREFIX, strlen(GENERIC_PREFIX)) == 0;
}

static const upy_nin *nin_at(const rec *r, uint32_t i) {
    return i < r->ncode.count ? ins(r, i) : NULL;
}

static int is_intrinsic(const upy_nin *in, upy_intrinsic which) {
    return in && in->op == N_INTRINSIC && in->arg == (int32_t)which;
}

int rec_is_lazy_value(const rec *r, uint32_t i) {
    const upy_nin *next = nin_at(r, i + 1);
    if (is_intrinsic(next, UPY_INTRINSIC_TYPEVAR_WITH_BOUND) ||
        is_intrinsic(next, UPY_INTRINSIC_TYPEVAR_WITH_CONSTRAINTS) ||
        is_intrinsic(next, UPY_INTRINSIC_SET_TYPEPARAM_DEFAULT))
        return 1;
    /* A type alias's value: the last of the three items of its tuple. */
    return next && next->op == N_BUILD_TUPLE && next->arg == 3 &&
           is_intrinsic(nin_at(r, i + 2), UPY_INTRINSIC_TYPEALIAS);
}

/* Whether the instructions from i on make a function with the annotations
 * tuple built at i (then maybe a closure's tuple), then the code object. */
static int makes_annotated_function(const rec *r, uint32_t i) {
    const upy_nin *in;
    for (in = nin_at(r, ++i); in && in->op != N_MAKE_FUNCTION;
         in = nin_at(r, ++i))
        if (in->op != N_LOAD_CLOSURE && in->op != N_BUILD_TUPLE &&
            !(in->op == N_LOAD_CONST && in->obj && in->obj->kind == UPY_CODE))
            return 0;
    return in && (in->arg & 4);
}

int rec_is_starred_value(const rec *r, uint32_t i) {
    const upy_nin *in = nin_at(r, i);
    int32_t above = 0;
    if (!in || in->op != N_UNPACK_SEQUENCE || in->arg != 1)
        return 0;
    /* (A default: the lazy value returns the one item.) */
    if (r->is_lazy && nin_at(r, i + 1) && nin_at(r, i + 1)->op == N_RETURN)
        return 1;
    /* (The names and values of the annotations after it each stay above
     * it until the tuple takes them all.) */
    for (in = nin_at(r, ++i);
         in && upy_nin_falls_through(in) && !upy_nin_ends_block(in);
         in = nin_at(r, ++i)) {
        if (in->op == N_BUILD_TUPLE && above < in->arg)
            return makes_annotated_function(r, i);
        above += upy_nin_stack_effect(in, 0);
        if (above <= 0)
            return 0;
    }
    return 0;
}

static int push_expr(rec *r, upy_expr *e) {
    return e ? rec_push(r, SV_VALUE, e) : ERROR;
}

static upy_expr *type_param(rec *r, upy_type_param_kind kind, sval name) {
    upy_expr *e;
    if (!name.expr || name.expr->kind != UPY_E_CONST ||
        !upy_is_identifier(rec_str(name.expr->u.constant)))
        return rec_placeholder(r);
    e = upy_expr_new(r->arena, UPY_E_TYPEPARAM);
    if (!e) {
        rec_oom(r);
        return NULL;
    }
    e->u.type_param.kind = kind;
    e->u.type_param.name = rec_str(name.expr->u.constant);
    return e;
}

/* The items of the tuple of type parameters, or an empty list when e is
 * not one. */
static upy_expr_list params_of(const upy_expr *e) {
    upy_expr_list none = {NULL, 0};
    uint32_t k;
    if (!e || e->kind != UPY_E_TUPLE || !e->u.elts.len)
        return none;
    for (k = 0; k < e->u.elts.len; k++)
        if (e->u.elts.items[k]->kind != UPY_E_TYPEPARAM)
            return none;
    return e->u.elts;
}

/* INTRINSIC_TYPEALIAS of (name, params or None, value). */
static int type_alias(rec *r, sval v) {
    const upy_expr *t = v.expr;
    upy_stmt *s;
    if (!t || t->kind != UPY_E_TUPLE || t->u.elts.len != 3 ||
        t->u.elts.items[0]->kind != UPY_E_CONST ||
        !upy_is_identifier(rec_str(t->u.elts.items[0]->u.constant)))
        return push_expr(r, rec_placeholder(r));
    s = rec_stmt(r, UPY_S_TYPEALIAS);
    if (!s)
        return ERROR;
    s->u.typealias.name = rec_str(t->u.elts.items[0]->u.constant);
    s->u.typealias.type_params = params_of(t->u.elts.items[1]);
    s->u.typealias.value = t->u.elts.items[2];
    return rec_push_function(r, P_DEF, s, NULL);
}

int rec_type_param_intrinsic(rec *r, const upy_nin *in) {
    sval a, b;
    upy_expr *e;
    switch ((upy_intrinsic)in->arg) {
    case UPY_INTRINSIC_TYPEVAR:
        return push_expr(r, type_param(r, UPY_TP_TYPEVAR, rec_pop(r)));
    case UPY_INTRINSIC_TYPEVARTUPLE:
        return push_expr(r, type_param(r, UPY_TP_TYPEVARTUPLE, rec_pop(r)));
    case UPY_INTRINSIC_PARAMSPEC:
        return push_expr(r, type_param(r, UPY_TP_PARAMSPEC, rec_pop(r)));
    case UPY_INTRINSIC_TYPEVAR_WITH_BOUND:
    case UPY_INTRINSIC_TYPEVAR_WITH_CONSTRAINTS:
        /* Constraints are a tuple the lazy value returns: the source's
         * `T: (A, B)`, which the printer parenthesizes either way. */
        b = rec_pop(r);
        a = rec_pop(r);
        e = type_param(r, UPY_TP_TYPEVAR, a);
        if (e && e->kind == UPY_E_TYPEPARAM)
            e->u.type_param.bound = rec_value(r, b);
        return push_expr(r, e);
    case UPY_INTRINSIC_SET_TYPEPARAM_DEFAULT:
        b = rec_pop(r);
        a = rec_pop(r);
        if (a.expr && a.expr->kind == UPY_E_TYPEPARAM)
            a.expr->u.type_param.default_ = rec_value(r, b);
        return rec_push_sval(r, a);
    case UPY_INTRINSIC_SET_FUNCTION_TYPE_PARAMS:
        b = rec_pop(r); /* the parameters */
        a = rec_pop(r); /* the function */
        if (a.kind == SV_FUNCTION && a.pend && a.pend->stmt &&
            a.pend->stmt->kind == UPY_S_FUNCTIONDEF)
            a.pend->stmt->u.funcdef.type_params = params_of(b.expr);
        return rec_push_sval(r, a);
    case UPY_INTRINSIC_SUBSCRIPT_GENERIC:
        a = rec_pop(r);
        e = rec_name(r, ".generic_base");
        r->generic_base = e;
        r->generic_params = params_of(a.expr);
        return push_expr(r, e);
    case UPY_INTRINSIC_TYPEALIAS:
        return type_alias(r, rec_pop(r));
    default:
        /* Nothing else the compiler writes gets here (try.c passes over
         * except*'s PREP_RERAISE_STAR). */
        if (in->arg >= 100)
            rec_pop(r);
        rec_pop(r);
        return push_expr(r, rec_placeholder(r));
    }
}

/* Whether stored is the name of type parameter `name` as the compiler
 * stores it: the same, or below a class _Class__name (a private name
 * mangled). */
static int is_param_name(const char *stored, const char *name) {
    size_t ns = strlen(stored), nn = strlen(name);
    if (strcmp(stored, name) == 0)
        return 1;
    return strncmp(name, "__", 2) == 0 && ns > nn + 1 && stored[0] == '_' &&
           stored[1] != '_' && strcmp(stored + ns - nn, name) == 0;
}

static int is_hidden(const char *name) {
    return name && name[0] == '.';
}

int rec_generic_store(rec *r, const char *name, sval v) {
    uint32_t k;
    if (!r->is_generic || !name)
        return 0;
    /* A type parameter bound to its own name: the parameter list says
     * so. */
    if (v.kind == SV_VALUE && v.expr && v.expr->kind == UPY_E_TYPEPARAM &&
        is_param_name(name, v.expr->u.type_param.name))
        return 1;
    if (!is_hidden(name))
        return 0;
    for (k = 0; k < r->n_hidden; k++)
        if (strcmp(r->hidden[k].name, name) == 0)
            break;
    if (k == REC_MAX_HIDDEN)
        return 0;
    if (k == r->n_hidden)
        r->n_hidden++;
    r->hidden[k].name = name;
    r->hidden[k].value = rec_value(r, v);
    return 1;
}

int rec_generic_load(rec *r, const char *name) {
    uint32_t k;
    if (!r->is_generic || !is_hidden(name))
        return 0;
    for (k = 0; k < r->n_hidden; k++)
        if (strcmp(r->hidden[k].name, name) == 0)
            return rec_push(r, SV_VALUE, r->hidden[k].value) ? ERROR : 1;
    return 0;
}

int rec_generic_call(rec *r, sval fn, const sval *args, uint32_t nargs) {
    const upy_expr *code = fn.pend->value;
    upy_stmt *s = NULL;
    if (code && code->kind == UPY_E_CONST && code->u.constant &&
        code->u.constant->kind == UPY_CODE)
        s = rec_generic_body(r, code->u.constant->u.code, args, nargs);
    if (r->failed)
        return ERROR;
    if (!s)
        return push_expr(r, rec_placeholder(r));
    return rec_push_function(r, P_DEF, s, NULL);
}

/* A generic class's bases end with .generic_base: the source's bases are
 * the ones before it. */
static int finish_class(rec *r, upy_stmt *s) {
    upy_expr_list *bases = &s->u.classdef.bases;
    if (!r->generic_base || !r->generic_params.len || !bases->len ||
        bases->items[bases->len - 1] != r->generic_base)
        return 0;
    bases->len--;
    s->u.classdef.type_params = r->generic_params;
    return 1;
}

int rec_generic_return(rec *r, sval v, upy_ptr_vec *out) {
    upy_stmt *s;
    if (!r->is_generic || v.kind != SV_FUNCTION || !v.pend || !v.pend->stmt)
        return 0;
    s = v.pend->stmt;
    if (s->kind == UPY_S_CLASSDEF && !finish_class(r, s))
        return 0;
    v.pend->complete = 1;
    return rec_emit(r, out, s) ? ERROR : 1;
}
