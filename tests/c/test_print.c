/*
 * test_print.c - the source printer (engine/print/source.c) on trees built
 * by hand.
 *
 *   test_print          checks every case, prints each failure, exits 1 on
 *                       any ("N passed, N failed" last)
 *   test_print --list   prints each case as one JSON line: name, kind
 *                       ("expr", "module" or "const"), the versions the
 *                       text must parse on (min, max: minor numbers), the
 *                       printed text, and for expressions a canonical dump
 *                       of the tree (tree) that tests/test_print.py
 *                       compares with what CPython parses from the text;
 *                       for constants the value's bits, which it compares
 *                       with what CPython's constant folding makes of it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/ast.h"
#include "print/repr.h"
#include "print/source.h"
#include "util/strbuf.h"

static upy_arena arena;
static int list_mode, passed, failed;

/* ---- building trees ----------------------------------------------------- */

static void *must(void *p) {
    if (!p) {
        fprintf(stderr, "test_print: out of memory\n");
        exit(2);
    }
    return p;
}

static upy_object *obj(upy_kind kind) {
    upy_object *o = must(upy_arena_alloc(&arena, sizeof *o));
    o->kind = kind;
    return o;
}

static upy_object *obj_str(upy_kind kind, const char *s, size_t n) {
    upy_object *o = obj(kind);
    uint8_t *data = must(upy_arena_alloc(&arena, n + 1));
    memcpy(data, s, n);
    o->u.bytes.data = data;
    o->u.bytes.len = n;
    return o;
}

static upy_object *obj_int(int64_t v) {
    upy_object *o = obj(UPY_INT);
    o->u.integer.value = v;
    return o;
}

static upy_object *obj_float(double d) {
    upy_object *o = obj(UPY_FLOAT);
    o->u.real = d;
    return o;
}

static upy_object *obj_seq(upy_kind kind, int n, ...) {
    upy_object *o = obj(kind);
    va_list ap;
    int i;

    o->u.seq.items =
        n ? must(upy_arena_array(&arena, (size_t)n, sizeof *o->u.seq.items))
          : NULL;
    o->u.seq.len = (size_t)n;
    va_start(ap, n);
    for (i = 0; i < n; i++)
        o->u.seq.items[i] = va_arg(ap, upy_object *);
    va_end(ap);
    return o;
}

static upy_expr *expr(upy_expr_kind kind) {
    return must(upy_expr_new(&arena, kind));
}

static upy_expr *cobj(const upy_object *o) {
    upy_expr *e = expr(UPY_E_CONST);
    e->u.constant = o;
    return e;
}

static upy_expr *cint(int64_t v) {
    return cobj(obj_int(v));
}
static upy_expr *cfloat(double d) {
    return cobj(obj_float(d));
}

static upy_expr *ccomplex(double re, double im) {
    upy_object *o = obj(UPY_COMPLEX);
    o->u.complex.real = re;
    o->u.complex.imag = im;
    return cobj(o);
}

static upy_expr *cstr(const char *s) {
    return cobj(obj_str(UPY_STR, s, strlen(s)));
}

static upy_expr *cbytes(const char *s) {
    return cobj(obj_str(UPY_BYTES, s, strlen(s)));
}

static upy_expr *ckind(upy_kind kind) {
    return cobj(obj(kind));
}

static upy_expr *name(const char *n) {
    upy_expr *e = expr(UPY_E_NAME);
    e->u.name = n;
    return e;
}

static upy_expr_list vlist(int n, va_list ap) {
    upy_expr_list l;
    int i;

    l.len = (uint32_t)n;
    l.items =
        n ? must(upy_arena_array(&arena, (size_t)n, sizeof *l.items)) : NULL;
    for (i = 0; i < n; i++)
        l.items[i] = va_arg(ap, upy_expr *);
    return l;
}

static upy_expr_list elist(int n, ...) {
    upy_expr_list l;
    va_list ap;

    va_start(ap, n);
    l = vlist(n, ap);
    va_end(ap);
    return l;
}

static upy_expr *seq(upy_expr_kind kind, int n, ...) {
    upy_expr *e = expr(kind);
    va_list ap;

    va_start(ap, n);
    e->u.elts = vlist(n, ap);
    va_end(ap);
    return e;
}

static upy_expr *bin(upy_binop op, upy_expr *l, upy_expr *r) {
    upy_expr *e = expr(UPY_E_BINOP);
    e->u.binop.op = op;
    e->u.binop.left = l;
    e->u.binop.right = r;
    return e;
}

static upy_expr *un(upy_unaryop op, upy_expr *x) {
    upy_expr *e = expr(UPY_E_UNARYOP);
    e->u.unary.op = op;
    e->u.unary.operand = x;
    return e;
}

static upy_expr *boolop(int is_and, int n, ...) {
    upy_expr *e = expr(UPY_E_BOOLOP);
    va_list ap;

    e->u.boolop.is_and = is_and;
    va_start(ap, n);
    e->u.boolop.values = vlist(n, ap);
    va_end(ap);
    return e;
}

/* cmp(left, n, op1, right1, op2, right2, ...) */
static upy_expr *cmp(upy_expr *left, int n, ...) {
    upy_expr *e = expr(UPY_E_COMPARE);
    va_list ap;
    int i;

    e->u.compare.left = left;
    e->u.compare.n = (uint32_t)n;
    e->u.compare.ops = must(upy_arena_array(&arena, (size_t)n, sizeof(int)));
    e->u.compare.comparators =
        must(upy_arena_array(&arena, (size_t)n, sizeof(upy_expr *)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        e->u.compare.ops[i] = (upy_cmpop)va_arg(ap, int);
        e->u.compare.comparators[i] = va_arg(ap, upy_expr *);
    }
    va_end(ap);
    return e;
}

static upy_expr *ifexp(upy_expr *test, upy_expr *body, upy_expr *orelse) {
    upy_expr *e = expr(UPY_E_IFEXP);
    e->u.ifexp.test = test;
    e->u.ifexp.body = body;
    e->u.ifexp.orelse = orelse;
    return e;
}

static upy_expr *attr(upy_expr *v, const char *a) {
    upy_expr *e = expr(UPY_E_ATTR);
    e->u.attr.value = v;
    e->u.attr.attr = a;
    return e;
}

static upy_expr *sub(upy_expr *v, upy_expr *i) {
    upy_expr *e = expr(UPY_E_SUBSCRIPT);
    e->u.subscript.value = v;
    e->u.subscript.index = i;
    return e;
}

static upy_expr *slice(upy_expr *lo, upy_expr *up, upy_expr *st) {
    upy_expr *e = expr(UPY_E_SLICE);
    e->u.slice.lower = lo;
    e->u.slice.upper = up;
    e->u.slice.step = st;
    return e;
}

static upy_expr *one(upy_expr_kind kind, upy_expr *x) {
    upy_expr *e = expr(kind);
    e->u.operand = x;
    return e;
}

static upy_expr *named(const char *t, upy_expr *v) {
    upy_expr *e = expr(UPY_E_NAMEDEXPR);
    e->u.named.target = name(t);
    e->u.named.value = v;
    return e;
}

/* call(func, nargs, args..., nkw, (name, value)...); name NULL: **value */
static upy_expr *call(upy_expr *f, int nargs, ...) {
    upy_expr *e = expr(UPY_E_CALL);
    va_list ap;
    int i, nkw;

    e->u.call.func = f;
    va_start(ap, nargs);
    e->u.call.args = vlist(nargs, ap);
    nkw = va_arg(ap, int);
    e->u.call.n_keywords = (uint32_t)nkw;
    e->u.call.keywords =
        nkw ? must(upy_arena_array(&arena, (size_t)nkw, sizeof(upy_keyword)))
            : NULL;
    for (i = 0; i < nkw; i++) {
        e->u.call.keywords[i].name = va_arg(ap, const char *);
        e->u.call.keywords[i].value = va_arg(ap, upy_expr *);
    }
    va_end(ap);
    return e;
}

/* dict(n, (key, value)...); key NULL: **value */
static upy_expr *dict(int n, ...) {
    upy_expr *e = expr(UPY_E_DICT);
    va_list ap;
    int i;

    e->u.dict.n = (uint32_t)n;
    e->u.dict.keys =
        must(upy_arena_array(&arena, (size_t)n + 1, sizeof(upy_expr *)));
    e->u.dict.values =
        must(upy_arena_array(&arena, (size_t)n + 1, sizeof(upy_expr *)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        e->u.dict.keys[i] = va_arg(ap, upy_expr *);
        e->u.dict.values[i] = va_arg(ap, upy_expr *);
    }
    va_end(ap);
    return e;
}

/* A comprehension of one or more generators: comp(kind, key, elt, n,
 * (target, iter, is_async, nifs, ifs...)...). */
static upy_expr *comp(upy_expr_kind kind, upy_expr *key, upy_expr *elt, int n,
                      ...) {
    upy_expr *e = expr(kind);
    va_list ap;
    int i;

    e->u.comp.key = key;
    e->u.comp.elt = elt;
    e->u.comp.n_generators = (uint32_t)n;
    e->u.comp.generators =
        must(upy_arena_array(&arena, (size_t)n, sizeof(upy_comprehension)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        upy_comprehension *g = &e->u.comp.generators[i];
        g->target = va_arg(ap, upy_expr *);
        g->iter = va_arg(ap, upy_expr *);
        g->is_async = va_arg(ap, int);
        g->ifs = vlist(va_arg(ap, int), ap);
    }
    va_end(ap);
    return e;
}

static upy_expr *fmt(upy_expr *v, int conversion, upy_expr *spec) {
    upy_expr *e = expr(UPY_E_FORMATTED);
    e->u.formatted.value = v;
    e->u.formatted.conversion = conversion;
    e->u.formatted.format_spec = spec;
    return e;
}

static upy_expr *fstr(int n, ...) {
    upy_expr *e = expr(UPY_E_JOINEDSTR);
    va_list ap;

    va_start(ap, n);
    e->u.joined = vlist(n, ap);
    va_end(ap);
    return e;
}

static upy_arg *arg(const char *n, upy_expr *annotation) {
    upy_arg *a = must(upy_arena_alloc(&arena, sizeof *a));
    a->name = n;
    a->annotation = annotation;
    return a;
}

/* Parameters from a compact spec: "a b / c * d e ** f" style words; a
 * word "*x" is the vararg, "*" alone the bare star, "**x" the kwarg,
 * "/" ends the positional-only ones.  Defaults, annotations: set after. */
static upy_arguments *params(const char *spec) {
    upy_arguments *a = must(upy_arena_alloc(&arena, sizeof *a));
    const char *names[32];
    int n = 0, i, slash = -1, star = -1;

    while (*spec && n < 32) {
        size_t len = strcspn(spec, " ");
        char *copy = must(upy_arena_alloc(&arena, len + 1));
        memcpy(copy, spec, len);
        if (len)
            names[n++] = copy;
        spec += len;
        spec += *spec == ' ';
    }
    a->posonly = must(upy_arena_array(&arena, 32, sizeof(upy_arg)));
    a->args = must(upy_arena_array(&arena, 32, sizeof(upy_arg)));
    a->kwonly = must(upy_arena_array(&arena, 32, sizeof(upy_arg)));
    a->kw_defaults = must(upy_arena_array(&arena, 32, sizeof(upy_expr *)));
    for (i = 0; i < n; i++)
        if (strcmp(names[i], "/") == 0)
            slash = i;
    for (i = 0; i < n; i++) {
        const char *w2 = names[i];
        if (strcmp(w2, "/") == 0)
            continue;
        if (strncmp(w2, "**", 2) == 0) {
            a->kwarg = arg(w2 + 2, NULL);
        } else if (w2[0] == '*') {
            star = i;
            if (w2[1])
                a->vararg = arg(w2 + 1, NULL);
        } else if (star >= 0) {
            a->kwonly[a->n_kwonly++].name = w2;
        } else if (i < slash) {
            a->posonly[a->n_posonly++].name = w2;
        } else {
            a->args[a->n_args++].name = w2;
        }
    }
    return a;
}

static upy_arguments *with_defaults(upy_arguments *a, int n, ...) {
    va_list ap;
    int i;

    a->n_defaults = (uint32_t)n;
    a->defaults =
        must(upy_arena_array(&arena, (size_t)n + 1, sizeof(upy_expr *)));
    va_start(ap, n);
    for (i = 0; i < n; i++)
        a->defaults[i] = va_arg(ap, upy_expr *);
    va_end(ap);
    return a;
}

static upy_expr *lambda(upy_arguments *a, upy_expr *body) {
    upy_expr *e = expr(UPY_E_LAMBDA);
    e->u.lambda.args = a;
    e->u.lambda.body = body;
    return e;
}

static upy_stmt *stmt(upy_stmt_kind kind) {
    return must(upy_stmt_new(&arena, kind));
}

static upy_stmt_list vslist(int n, va_list ap) {
    upy_stmt_list l;
    int i;

    l.len = (uint32_t)n;
    l.items =
        n ? must(upy_arena_array(&arena, (size_t)n, sizeof *l.items)) : NULL;
    for (i = 0; i < n; i++)
        l.items[i] = va_arg(ap, upy_stmt *);
    return l;
}

static upy_stmt_list body(int n, ...) {
    upy_stmt_list l;
    va_list ap;

    va_start(ap, n);
    l = vslist(n, ap);
    va_end(ap);
    return l;
}

static upy_stmt *sexpr(upy_expr *e) {
    upy_stmt *s = stmt(UPY_S_EXPR);
    s->u.expr = e;
    return s;
}

/* assign(value, n, targets...) */
static upy_stmt *assign(upy_expr *value, int n, ...) {
    upy_stmt *s = stmt(UPY_S_ASSIGN);
    va_list ap;

    s->u.assign.value = value;
    va_start(ap, n);
    s->u.assign.targets = vlist(n, ap);
    va_end(ap);
    return s;
}

static upy_stmt *augassign(upy_expr *t, upy_binop op, upy_expr *v) {
    upy_stmt *s = stmt(UPY_S_AUGASSIGN);
    s->u.augassign.target = t;
    s->u.augassign.op = op;
    s->u.augassign.value = v;
    return s;
}

static upy_stmt *annassign(upy_expr *t, upy_expr *ann, upy_expr *v,
                           int simple) {
    upy_stmt *s = stmt(UPY_S_ANNASSIGN);
    s->u.annassign.target = t;
    s->u.annassign.annotation = ann;
    s->u.annassign.value = v;
    s->u.annassign.simple = simple;
    return s;
}

static upy_stmt *value_stmt(upy_stmt_kind kind, upy_expr *v) {
    upy_stmt *s = stmt(kind);
    s->u.value = v;
    return s;
}

static upy_stmt *pass(void) {
    return stmt(UPY_S_PASS);
}

static upy_stmt *raise_(upy_expr *exc, upy_expr *cause) {
    upy_stmt *s = stmt(UPY_S_RAISE);
    s->u.raise.exc = exc;
    s->u.raise.cause = cause;
    return s;
}

static upy_stmt *names_stmt(upy_stmt_kind kind, int n, ...) {
    upy_stmt *s = stmt(kind);
    va_list ap;
    int i;

    s->u.names.n = (uint32_t)n;
    s->u.names.names =
        must(upy_arena_array(&arena, (size_t)n, sizeof(const char *)));
    va_start(ap, n);
    for (i = 0; i < n; i++)
        s->u.names.names[i] = va_arg(ap, const char *);
    va_end(ap);
    return s;
}

/* import_(kind, module, level, n, (name, asname)...) */
static upy_stmt *import_(upy_stmt_kind kind, const char *module, int level,
                         int n, ...) {
    upy_stmt *s = stmt(kind);
    va_list ap;
    int i;

    s->u.import.module = module;
    s->u.import.level = level;
    s->u.import.n = (uint32_t)n;
    s->u.import.names =
        must(upy_arena_array(&arena, (size_t)n, sizeof(upy_alias)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        s->u.import.names[i].name = va_arg(ap, const char *);
        s->u.import.names[i].asname = va_arg(ap, const char *);
    }
    va_end(ap);
    return s;
}

static upy_stmt *if_(upy_expr *test, upy_stmt_list b, upy_stmt_list orelse) {
    upy_stmt *s = stmt(UPY_S_IF);
    s->u.if_.test = test;
    s->u.if_.body = b;
    s->u.if_.orelse = orelse;
    return s;
}

static upy_stmt *while_(upy_expr *test, upy_stmt_list b, upy_stmt_list orelse) {
    upy_stmt *s = stmt(UPY_S_WHILE);
    s->u.while_.test = test;
    s->u.while_.body = b;
    s->u.while_.orelse = orelse;
    return s;
}

static upy_stmt *for_(upy_expr *t, upy_expr *iter, upy_stmt_list b,
                      upy_stmt_list orelse, int is_async) {
    upy_stmt *s = stmt(UPY_S_FOR);
    s->u.for_.target = t;
    s->u.for_.iter = iter;
    s->u.for_.body = b;
    s->u.for_.orelse = orelse;
    s->u.for_.is_async = is_async;
    return s;
}

/* with_(is_async, body, n, (context, vars)...) */
static upy_stmt *with_(int is_async, upy_stmt_list b, int n, ...) {
    upy_stmt *s = stmt(UPY_S_WITH);
    va_list ap;
    int i;

    s->u.with.is_async = is_async;
    s->u.with.body = b;
    s->u.with.n_items = (uint32_t)n;
    s->u.with.items =
        must(upy_arena_array(&arena, (size_t)n, sizeof(upy_withitem)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        s->u.with.items[i].context = va_arg(ap, upy_expr *);
        s->u.with.items[i].vars = va_arg(ap, upy_expr *);
    }
    va_end(ap);
    return s;
}

/* try_(body, orelse, final, is_star, n, (type, name, body)...) */
static upy_stmt *try_(upy_stmt_list b, upy_stmt_list orelse,
                      upy_stmt_list final, int is_star, int n, ...) {
    upy_stmt *s = stmt(UPY_S_TRY);
    va_list ap;
    int i;

    s->u.try_.body = b;
    s->u.try_.orelse = orelse;
    s->u.try_.finalbody = final;
    s->u.try_.is_star = is_star;
    s->u.try_.n_handlers = (uint32_t)n;
    s->u.try_.handlers =
        must(upy_arena_array(&arena, (size_t)n + 1, sizeof(upy_handler)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        s->u.try_.handlers[i].type = va_arg(ap, upy_expr *);
        s->u.try_.handlers[i].name = va_arg(ap, const char *);
        s->u.try_.handlers[i].body = va_arg(ap, upy_stmt_list);
    }
    va_end(ap);
    return s;
}

static upy_stmt *assert_(upy_expr *test, upy_expr *msg) {
    upy_stmt *s = stmt(UPY_S_ASSERT);
    s->u.assert_.test = test;
    s->u.assert_.msg = msg;
    return s;
}

static upy_stmt *def(const char *n, upy_arguments *a, upy_stmt_list b) {
    upy_stmt *s = stmt(UPY_S_FUNCTIONDEF);
    s->u.funcdef.name = n;
    s->u.funcdef.args = a;
    s->u.funcdef.body = b;
    return s;
}

static upy_stmt *classdef(const char *n, upy_expr_list bases, upy_stmt_list b) {
    upy_stmt *s = stmt(UPY_S_CLASSDEF);
    s->u.classdef.name = n;
    s->u.classdef.bases = bases;
    s->u.classdef.body = b;
    return s;
}

static upy_stmt *comment(const char *text) {
    upy_stmt *s = stmt(UPY_S_UNRECOVERED);
    s->u.unrecovered.text = text;
    return s;
}

static upy_pattern *pat(upy_pattern_kind kind) {
    return must(upy_pattern_new(&arena, kind));
}

static upy_pattern_list vplist(int n, va_list ap) {
    upy_pattern_list l;
    int i;

    l.len = (uint32_t)n;
    l.items =
        n ? must(upy_arena_array(&arena, (size_t)n, sizeof *l.items)) : NULL;
    for (i = 0; i < n; i++)
        l.items[i] = va_arg(ap, upy_pattern *);
    return l;
}

static upy_pattern *pvalue(upy_expr *v) {
    upy_pattern *p = pat(UPY_P_VALUE);
    p->u.value = v;
    return p;
}

static upy_pattern *psingleton(upy_kind kind) {
    upy_pattern *p = pat(UPY_P_SINGLETON);
    p->u.constant = obj(kind);
    return p;
}

static upy_pattern *plist(upy_pattern_kind kind, int n, ...) {
    upy_pattern *p = pat(kind);
    va_list ap;

    va_start(ap, n);
    p->u.seq = vplist(n, ap);
    va_end(ap);
    return p;
}

static upy_pattern *pstar(const char *n) {
    upy_pattern *p = pat(UPY_P_STAR);
    p->u.name = n;
    return p;
}

static upy_pattern *pas(upy_pattern *inner, const char *n) {
    upy_pattern *p = pat(UPY_P_AS);
    p->u.as.pattern = inner;
    p->u.as.name = n;
    return p;
}

/* pmapping(rest, n, (key, pattern)...) */
static upy_pattern *pmapping(const char *rest, int n, ...) {
    upy_pattern *p = pat(UPY_P_MAPPING);
    va_list ap;
    int i;

    p->u.mapping.rest = rest;
    p->u.mapping.keys.len = p->u.mapping.patterns.len = (uint32_t)n;
    p->u.mapping.keys.items =
        must(upy_arena_array(&arena, (size_t)n + 1, sizeof(upy_expr *)));
    p->u.mapping.patterns.items =
        must(upy_arena_array(&arena, (size_t)n + 1, sizeof(upy_pattern *)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        p->u.mapping.keys.items[i] = va_arg(ap, upy_expr *);
        p->u.mapping.patterns.items[i] = va_arg(ap, upy_pattern *);
    }
    va_end(ap);
    return p;
}

/* pclass(cls, npos, pos..., nkw, (attr, pattern)...) */
static upy_pattern *pclass(upy_expr *cls, int npos, ...) {
    upy_pattern *p = pat(UPY_P_CLASS);
    va_list ap;
    int i, nkw;

    p->u.cls.cls = cls;
    va_start(ap, npos);
    p->u.cls.patterns = vplist(npos, ap);
    nkw = va_arg(ap, int);
    p->u.cls.kwd_patterns.len = (uint32_t)nkw;
    p->u.cls.kwd_attrs =
        must(upy_arena_array(&arena, (size_t)nkw + 1, sizeof(const char *)));
    p->u.cls.kwd_patterns.items =
        must(upy_arena_array(&arena, (size_t)nkw + 1, sizeof(upy_pattern *)));
    for (i = 0; i < nkw; i++) {
        p->u.cls.kwd_attrs[i] = va_arg(ap, const char *);
        p->u.cls.kwd_patterns.items[i] = va_arg(ap, upy_pattern *);
    }
    va_end(ap);
    return p;
}

/* match_(subject, n, (pattern, guard, body)...) */
static upy_stmt *match_(upy_expr *subject, int n, ...) {
    upy_stmt *s = stmt(UPY_S_MATCH);
    va_list ap;
    int i;

    s->u.match.subject = subject;
    s->u.match.n_cases = (uint32_t)n;
    s->u.match.cases =
        must(upy_arena_array(&arena, (size_t)n, sizeof(upy_match_case)));
    va_start(ap, n);
    for (i = 0; i < n; i++) {
        s->u.match.cases[i].pattern = va_arg(ap, upy_pattern *);
        s->u.match.cases[i].guard = va_arg(ap, upy_expr *);
        s->u.match.cases[i].body = va_arg(ap, upy_stmt_list);
    }
    va_end(ap);
    return s;
}

/* One type parameter of a generic def, class or type alias. */
static upy_expr *tparam(upy_type_param_kind kind, const char *n,
                        upy_expr *bound, upy_expr *default_) {
    upy_expr *e = expr(UPY_E_TYPEPARAM);
    e->u.type_param.kind = kind;
    e->u.type_param.name = n;
    e->u.type_param.bound = bound;
    e->u.type_param.default_ = default_;
    return e;
}

/* type name[params] = value */
static upy_stmt *typealias(const char *n, upy_expr_list params,
                           upy_expr *value) {
    upy_stmt *s = stmt(UPY_S_TYPEALIAS);
    s->u.typealias.name = n;
    s->u.typealias.type_params = params;
    s->u.typealias.value = value;
    return s;
}

#define NONE_ ((upy_expr *)NULL)
#define EMPTY body(0)

/* ---- canonical dump of an expression tree ------------------------------- */

/* The same form tests/test_print.py makes from CPython's ast, after folding
 * constant arithmetic the way CPython's optimizer does. */
static void dump_expr(upy_strbuf *sb, const upy_expr *e);

static void dump_obj(upy_strbuf *sb, const upy_object *o) {
    static const upy_version v13 = {3, 13};
    size_t i;

    switch (o->kind) {
    case UPY_TUPLE:
    case UPY_LIST:
    case UPY_SET:
    case UPY_FROZENSET:
        if (o->u.seq.len == 0 && o->kind >= UPY_SET) {
            upy_sb_printf(sb, "Call(Name(%s);;)",
                          o->kind == UPY_SET ? "set" : "frozenset");
            return;
        }
        upy_sb_puts(sb, o->kind == UPY_TUPLE  ? "Tuple("
                        : o->kind == UPY_LIST ? "List("
                                              : "Set(");
        for (i = 0; i < o->u.seq.len; i++) {
            if (i)
                upy_sb_putc(sb, ',');
            dump_obj(sb, o->u.seq.items[i]);
        }
        upy_sb_putc(sb, ')');
        return;
    case UPY_STOPITER:
        upy_sb_puts(sb, "Name(StopIteration)");
        return;
    case UPY_CODE:
        upy_sb_puts(sb, "C(Ellipsis)");
        return;
    default:
        upy_sb_puts(sb, "C(");
        upy_repr(sb, o, v13);
        upy_sb_putc(sb, ')');
        return;
    }
}

static void dump_list(upy_strbuf *sb, const upy_expr_list *l) {
    uint32_t i;

    for (i = 0; i < l->len; i++) {
        if (i)
            upy_sb_putc(sb, ',');
        dump_expr(sb, l->items[i]);
    }
}

static void dump_opt(upy_strbuf *sb, const upy_expr *e) {
    if (e)
        dump_expr(sb, e);
    else
        upy_sb_putc(sb, '_');
}

static void dump_param(upy_strbuf *sb, const upy_arg *a, const upy_expr *d) {
    upy_sb_puts(sb, a->name);
    if (d) {
        upy_sb_putc(sb, '=');
        dump_expr(sb, d);
    }
}

static void dump_args(upy_strbuf *sb, const upy_arguments *a) {
    uint32_t total = a->n_posonly + a->n_args, i;
    int any = 0;

    for (i = 0; i < total; i++) {
        const upy_arg *p =
            i < a->n_posonly ? &a->posonly[i] : &a->args[i - a->n_posonly];
        if (any)
            upy_sb_putc(sb, ',');
        dump_param(sb, p,
                   i >= total - a->n_defaults
                       ? a->defaults[i - (total - a->n_defaults)]
                       : NULL);
        any = 1;
        if (i + 1 == a->n_posonly)
            upy_sb_puts(sb, ",/");
    }
    if (a->vararg || a->n_kwonly) {
        if (any)
            upy_sb_putc(sb, ',');
        upy_sb_putc(sb, '*');
        if (a->vararg)
            upy_sb_puts(sb, a->vararg->name);
        any = 1;
    }
    for (i = 0; i < a->n_kwonly; i++) {
        upy_sb_putc(sb, ',');
        dump_param(sb, &a->kwonly[i], a->kw_defaults[i]);
    }
    if (a->kwarg) {
        if (any)
            upy_sb_putc(sb, ',');
        upy_sb_puts(sb, "**");
        upy_sb_puts(sb, a->kwarg->name);
    }
}

static const char *const binops[] = {"+", "&",  "//", "<<", "@", "*", "%",
                                     "|", "**", ">>", "-",  "/", "^"};
static const char *const cmpops[] = {"<",  "<=", "==",    "!=", ">",
                                     ">=", "is", "isnot", "in", "notin"};
static const char *const unops[] = {"not", "-", "+", "~"};

static void dump_expr(upy_strbuf *sb, const upy_expr *e) {
    uint32_t i, j;

    switch (e->kind) {
    case UPY_E_CONST:
        dump_obj(sb, e->u.constant);
        break;
    case UPY_E_NAME:
        upy_sb_printf(sb, "Name(%s)", e->u.name);
        break;
    case UPY_E_ATTR:
        upy_sb_puts(sb, "Attr(");
        dump_expr(sb, e->u.attr.value);
        upy_sb_printf(sb, ",%s)", e->u.attr.attr);
        break;
    case UPY_E_SUBSCRIPT:
        upy_sb_puts(sb, "Sub(");
        dump_expr(sb, e->u.subscript.value);
        upy_sb_putc(sb, ',');
        dump_expr(sb, e->u.subscript.index);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_SLICE:
        upy_sb_puts(sb, "Slice(");
        dump_opt(sb, e->u.slice.lower);
        upy_sb_putc(sb, ',');
        dump_opt(sb, e->u.slice.upper);
        upy_sb_putc(sb, ',');
        dump_opt(sb, e->u.slice.step);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_CALL:
        upy_sb_puts(sb, "Call(");
        dump_expr(sb, e->u.call.func);
        upy_sb_putc(sb, ';');
        dump_list(sb, &e->u.call.args);
        upy_sb_putc(sb, ';');
        for (i = 0; i < e->u.call.n_keywords; i++) {
            if (i)
                upy_sb_putc(sb, ',');
            if (e->u.call.keywords[i].name)
                upy_sb_printf(sb, "%s=", e->u.call.keywords[i].name);
            else
                upy_sb_puts(sb, "**");
            dump_expr(sb, e->u.call.keywords[i].value);
        }
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_BINOP:
        upy_sb_printf(sb, "Bin(%s,", binops[e->u.binop.op]);
        dump_expr(sb, e->u.binop.left);
        upy_sb_putc(sb, ',');
        dump_expr(sb, e->u.binop.right);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_UNARYOP:
        upy_sb_printf(sb, "Un(%s,", unops[e->u.unary.op]);
        dump_expr(sb, e->u.unary.operand);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_BOOLOP:
        upy_sb_printf(sb, "Bool(%s,", e->u.boolop.is_and ? "and" : "or");
        dump_list(sb, &e->u.boolop.values);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_COMPARE:
        upy_sb_puts(sb, "Cmp(");
        dump_expr(sb, e->u.compare.left);
        for (i = 0; i < e->u.compare.n; i++) {
            upy_sb_printf(sb, ",%s,", cmpops[e->u.compare.ops[i]]);
            dump_expr(sb, e->u.compare.comparators[i]);
        }
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_IFEXP:
        upy_sb_puts(sb, "IfExp(");
        dump_expr(sb, e->u.ifexp.test);
        upy_sb_putc(sb, ',');
        dump_expr(sb, e->u.ifexp.body);
        upy_sb_putc(sb, ',');
        dump_expr(sb, e->u.ifexp.orelse);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_LAMBDA:
        upy_sb_puts(sb, "Lambda(");
        dump_args(sb, e->u.lambda.args);
        upy_sb_putc(sb, ';');
        dump_expr(sb, e->u.lambda.body);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_TUPLE:
    case UPY_E_LIST:
    case UPY_E_SET:
        upy_sb_puts(sb, e->kind == UPY_E_TUPLE  ? "Tuple("
                        : e->kind == UPY_E_LIST ? "List("
                                                : "Set(");
        dump_list(sb, &e->u.elts);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_DICT:
        upy_sb_puts(sb, "Dict(");
        for (i = 0; i < e->u.dict.n; i++) {
            if (i)
                upy_sb_putc(sb, ',');
            if (e->u.dict.keys[i]) {
                dump_expr(sb, e->u.dict.keys[i]);
                upy_sb_putc(sb, ':');
            } else {
                upy_sb_puts(sb, "**");
            }
            dump_expr(sb, e->u.dict.values[i]);
        }
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_LISTCOMP:
    case UPY_E_SETCOMP:
    case UPY_E_DICTCOMP:
    case UPY_E_GENEXP:
        upy_sb_puts(sb, e->kind == UPY_E_LISTCOMP  ? "ListComp("
                        : e->kind == UPY_E_SETCOMP ? "SetComp("
                        : e->kind == UPY_E_GENEXP  ? "GenExp("
                                                   : "DictComp(");
        if (e->kind == UPY_E_DICTCOMP) {
            dump_expr(sb, e->u.comp.key);
            upy_sb_putc(sb, ':');
        }
        dump_expr(sb, e->u.comp.elt);
        for (i = 0; i < e->u.comp.n_generators; i++) {
            const upy_comprehension *g = &e->u.comp.generators[i];
            upy_sb_puts(sb, g->is_async ? ";afor(" : ";for(");
            dump_expr(sb, g->target);
            upy_sb_putc(sb, ',');
            dump_expr(sb, g->iter);
            for (j = 0; j < g->ifs.len; j++) {
                upy_sb_putc(sb, ',');
                dump_expr(sb, g->ifs.items[j]);
            }
            upy_sb_putc(sb, ')');
        }
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_STARRED:
    case UPY_E_AWAIT:
    case UPY_E_YIELD:
    case UPY_E_YIELD_FROM:
        upy_sb_puts(sb, e->kind == UPY_E_STARRED ? "Star("
                        : e->kind == UPY_E_AWAIT ? "Await("
                        : e->kind == UPY_E_YIELD ? "Yield("
                                                 : "YieldFrom(");
        dump_opt(sb, e->u.operand);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_JOINEDSTR:
        upy_sb_puts(sb, "JStr(");
        dump_list(sb, &e->u.joined);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_FORMATTED:
        upy_sb_puts(sb, "Fmt(");
        dump_expr(sb, e->u.formatted.value);
        upy_sb_printf(sb, ",%d,", e->u.formatted.conversion);
        dump_opt(sb, e->u.formatted.format_spec);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_NAMEDEXPR:
        upy_sb_puts(sb, "Named(");
        dump_expr(sb, e->u.named.target);
        upy_sb_putc(sb, ',');
        dump_expr(sb, e->u.named.value);
        upy_sb_putc(sb, ')');
        break;
    case UPY_E_SOURCE:
        /* Text the printer copies; the cases build none. */
        upy_sb_printf(sb, "Source(%s)", e->u.name);
        break;
    case UPY_E_TYPEPARAM:
        /* Only in type_params lists, which the statement cases check as
         * text: no expression holds one. */
        upy_sb_printf(sb, "TypeParam(%s)", e->u.type_param.name);
        break;
    }
}

/* ---- checking ----------------------------------------------------------- */

static upy_version ver(int minor) {
    upy_version v;
    v.major = 3;
    v.minor = (uint8_t)minor;
    return v;
}

static void json_field(const char *key, const char *text, int last) {
    upy_strbuf sb;

    upy_sb_init(&sb, 0);
    upy_sb_json_escape(&sb, text, strlen(text));
    printf("\"%s\": \"%s\"%s", key, sb.data ? sb.data : "", last ? "" : ", ");
    upy_sb_release(&sb);
}

/* Reports one case: compares, or in list mode prints the JSON line.
 * min/max: the minor versions whose parser must accept the text (max 0:
 * the text is not valid Python and is not parsed). */
static void report(const char *case_name, const char *kind, int min, int max,
                   const char *got, const char *want, const char *tree,
                   const char *bits) {
    if (list_mode) {
        printf("{");
        json_field("name", case_name, 0);
        json_field("kind", kind, 0);
        printf("\"min\": %d, \"max\": %d, ", min, max);
        if (tree)
            json_field("tree", tree, 0);
        if (bits)
            json_field("bits", bits, 0);
        json_field("text", got, 1);
        printf("}\n");
        return;
    }
    if (strcmp(got, want) == 0) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s\n--- expected\n%s\n--- got\n%s\n---\n", case_name, want,
           got);
}

/* An expression printed for 3.`minor`, valid on minor..max. */
static void expect_expr_range(const char *case_name, int minor, int max,
                              const upy_expr *e, const char *want) {
    upy_strbuf sb, tree;

    upy_sb_init(&sb, 0);
    upy_sb_init(&tree, 0);
    upy_print_expr(&sb, e, ver(minor));
    dump_expr(&tree, e);
    report(case_name, "expr", minor, max, sb.data ? sb.data : "", want,
           tree.data, NULL);
    upy_sb_release(&sb);
    upy_sb_release(&tree);
}

static void expect_expr(const char *case_name, int minor, const upy_expr *e,
                        const char *want) {
    expect_expr_range(case_name, minor, 13, e, want);
}

/* An expression that parses, but not to the tree it comes from. */
static void expect_expr_untyped(const char *case_name, const upy_expr *e,
                                const char *want) {
    upy_strbuf sb;

    upy_sb_init(&sb, 0);
    upy_print_expr(&sb, e, ver(8));
    report(case_name, "expr", 8, 13, sb.data ? sb.data : "", want, NULL, NULL);
    upy_sb_release(&sb);
}

/* A module printed for 3.`minor`, valid on minor..max; want_issues is the
 * issue set upy_print_module_ex must return. */
static void expect_module_full(const char *case_name, int minor, int max,
                               upy_stmt_list b, const char *want,
                               unsigned want_issues) {
    upy_strbuf sb;
    unsigned issues;

    upy_sb_init(&sb, 0);
    issues = upy_print_module_ex(&sb, &b, ver(minor));
    if (!list_mode && issues != want_issues) {
        failed++;
        printf("FAIL %s: issues %u, expected %u\n", case_name, issues,
               want_issues);
    }
    report(case_name, "module", minor, max, sb.data ? sb.data : "", want, NULL,
           NULL);
    upy_sb_release(&sb);
}

static void expect_module(const char *case_name, int minor, upy_stmt_list b,
                          const char *want) {
    expect_module_full(case_name, minor, 13, b, want, 0);
}

static void expect_stmt(const char *case_name, int minor, upy_stmt *s,
                        const char *want) {
    expect_module(case_name, minor, body(1, s), want);
}

/* A constant whose folding CPython must reproduce bit for bit. */
static void expect_const(const char *case_name, upy_expr *e, const char *want) {
    const upy_object *o = e->u.constant;
    char bits[64];
    upy_strbuf sb;
    uint64_t re, im;

    if (o->kind == UPY_FLOAT) {
        memcpy(&re, &o->u.real, 8);
        snprintf(bits, sizeof bits, "%016llx", (unsigned long long)re);
    } else {
        memcpy(&re, &o->u.complex.real, 8);
        memcpy(&im, &o->u.complex.imag, 8);
        snprintf(bits, sizeof bits, "%016llx %016llx", (unsigned long long)re,
                 (unsigned long long)im);
    }
    upy_sb_init(&sb, 0);
    upy_print_expr(&sb, e, ver(8));
    report(case_name, "const", 8, 13, sb.data ? sb.data : "", want, NULL, bits);
    upy_sb_release(&sb);
}

/* ---- cases -------------------------------------------------------------- */

static void test_precedence(void) {
    upy_expr *a = name("a"), *b = name("b"), *c = name("c"), *x = name("x");

    expect_expr("pow of negative constant", 8, bin(UPY_BIN_POW, cint(-1), x),
                "(-1) ** x");
    expect_expr("pow left-nested", 8,
                bin(UPY_BIN_POW, bin(UPY_BIN_POW, a, b), c), "(a ** b) ** c");
    expect_expr("pow right-nested", 8,
                bin(UPY_BIN_POW, a, bin(UPY_BIN_POW, b, c)), "a ** b ** c");
    expect_expr("pow negative exponent", 8, bin(UPY_BIN_POW, x, cint(-1)),
                "x ** -1");
    expect_expr("neg of pow", 8, un(UPY_UOP_NEG, bin(UPY_BIN_POW, x, cint(2))),
                "-x ** 2");
    expect_expr("pow of neg", 8, bin(UPY_BIN_POW, un(UPY_UOP_NEG, x), cint(2)),
                "(-x) ** 2");
    expect_expr("pow of unary exponent", 8,
                bin(UPY_BIN_POW, a, un(UPY_UOP_INVERT, b)), "a ** ~b");
    expect_expr("double negation", 8, un(UPY_UOP_NEG, un(UPY_UOP_NEG, x)),
                "--x");
    expect_expr("sub right-nested", 8,
                bin(UPY_BIN_SUB, a, bin(UPY_BIN_SUB, b, c)), "a - (b - c)");
    expect_expr("sub left-nested", 8,
                bin(UPY_BIN_SUB, bin(UPY_BIN_SUB, a, b), c), "a - b - c");
    expect_expr("sum times", 8, bin(UPY_BIN_MUL, bin(UPY_BIN_ADD, a, b), c),
                "(a + b) * c");
    expect_expr("plus product", 8, bin(UPY_BIN_ADD, a, bin(UPY_BIN_MUL, b, c)),
                "a + b * c");
    expect_expr("term right-nested", 8,
                bin(UPY_BIN_MUL, a, bin(UPY_BIN_TRUEDIV, b, c)), "a * (b / c)");
    expect_expr("matmul floordiv mod", 8,
                bin(UPY_BIN_MOD,
                    bin(UPY_BIN_FLOORDIV, bin(UPY_BIN_MATMUL, a, b), c), x),
                "a @ b // c % x");
    expect_expr("bitwise ladder", 8,
                bin(UPY_BIN_OR, a,
                    bin(UPY_BIN_XOR, b,
                        bin(UPY_BIN_AND, c,
                            bin(UPY_BIN_LSHIFT, x,
                                bin(UPY_BIN_ADD, name("y"),
                                    bin(UPY_BIN_MUL, name("z"), name("w"))))))),
                "a | b ^ c & x << y + z * w");
    expect_expr("bitwise ladder inverted", 8,
                bin(UPY_BIN_MUL,
                    bin(UPY_BIN_ADD,
                        bin(UPY_BIN_RSHIFT,
                            bin(UPY_BIN_AND,
                                bin(UPY_BIN_XOR, bin(UPY_BIN_OR, a, b), c), x),
                            name("y")),
                        name("z")),
                    name("w")),
                "(((((a | b) ^ c) & x) >> y) + z) * w");
    expect_expr("comparison chain", 8, cmp(a, 2, UPY_CMP_LT, b, UPY_CMP_LE, c),
                "a < b <= c");
    expect_expr("comparison in comparison", 8,
                cmp(cmp(a, 1, UPY_CMP_LT, b), 1, UPY_CMP_LT, c), "(a < b) < c");
    expect_expr("comparison operators", 8,
                cmp(a, 6, UPY_CMP_IS, b, UPY_CMP_IS_NOT, c, UPY_CMP_IN, x,
                    UPY_CMP_NOT_IN, name("y"), UPY_CMP_NE, name("z"),
                    UPY_CMP_GE, name("w")),
                "a is b is not c in x not in y != z >= w");
    expect_expr("not of comparison", 8,
                un(UPY_UOP_NOT, cmp(a, 1, UPY_CMP_EQ, b)), "not a == b");
    expect_expr("comparison of not", 8,
                cmp(un(UPY_UOP_NOT, a), 1, UPY_CMP_EQ, b), "(not a) == b");
    expect_expr("not not", 8, un(UPY_UOP_NOT, un(UPY_UOP_NOT, a)), "not not a");
    expect_expr("neg of not", 8, un(UPY_UOP_NEG, un(UPY_UOP_NOT, a)),
                "-(not a)");
    expect_expr("and right-nested", 8, boolop(1, 2, a, boolop(1, 2, b, c)),
                "a and (b and c)");
    expect_expr("or of and", 8, boolop(0, 2, a, boolop(1, 2, b, c)),
                "a or b and c");
    expect_expr("and of or", 8, boolop(1, 2, boolop(0, 2, a, b), c),
                "(a or b) and c");
    expect_expr("not of and", 8, un(UPY_UOP_NOT, boolop(1, 2, a, b)),
                "not (a and b)");
    expect_expr("and of not", 8,
                boolop(1, 3, un(UPY_UOP_NOT, a), b, un(UPY_UOP_NOT, c)),
                "not a and b and not c");
    expect_expr("ifexp in body", 8, ifexp(name("d"), ifexp(b, a, c), x),
                "(a if b else c) if d else x");
    expect_expr("ifexp in orelse", 8, ifexp(b, a, ifexp(name("d"), c, x)),
                "a if b else c if d else x");
    expect_expr("ifexp in test", 8, ifexp(ifexp(c, b, name("d")), a, x),
                "a if (b if c else d) else x");
    expect_expr("lambda in ifexp body", 8, ifexp(a, lambda(params(""), x), b),
                "(lambda: x) if a else b");
    expect_expr("lambda in ifexp orelse", 8, ifexp(b, a, lambda(params(""), c)),
                "a if b else lambda: c");
    expect_expr("or in ifexp", 8,
                ifexp(boolop(0, 2, a, b), boolop(0, 2, c, x), b),
                "c or x if a or b else b");
    expect_expr("ifexp in operator", 8, bin(UPY_BIN_ADD, ifexp(b, a, c), x),
                "(a if b else c) + x");
    expect_expr("int attribute", 8, attr(cint(1), "real"), "(1).real");
    expect_expr("negative int attribute", 8, attr(cint(-1), "real"),
                "(-1).real");
    expect_expr("float attribute", 8, attr(cfloat(1.5), "real"), "1.5.real");
    expect_expr("str method", 8, call(attr(cstr(", "), "join"), 1, x, 0),
                "', '.join(x)");
    expect_expr("attribute of sum", 8, attr(bin(UPY_BIN_ADD, a, b), "c"),
                "(a + b).c");
    expect_expr("call attribute subscript", 8,
                sub(attr(call(name("f"), 1, x, 0), "y"), cint(0)), "f(x).y[0]");
    expect_expr("call of lambda", 8,
                call(lambda(params("x"), x), 1, cint(1), 0),
                "(lambda x: x)(1)");
    expect_expr("await", 8, one(UPY_E_AWAIT, call(name("f"), 0, 0)),
                "await f()");
    expect_expr("await pow", 8, bin(UPY_BIN_POW, one(UPY_E_AWAIT, x), cint(2)),
                "await x ** 2");
    expect_expr("await of sum", 8, one(UPY_E_AWAIT, bin(UPY_BIN_ADD, a, b)),
                "await (a + b)");
    expect_expr("neg await", 8, un(UPY_UOP_NEG, one(UPY_E_AWAIT, x)),
                "-await x");
    expect_expr("await neg", 8, one(UPY_E_AWAIT, un(UPY_UOP_NEG, x)),
                "await (-x)");
    expect_expr("await attribute", 8, attr(one(UPY_E_AWAIT, x), "y"),
                "(await x).y");
    expect_expr("walrus argument", 8,
                call(name("g"), 1, named("y", call(name("f"), 0, 0)), 0),
                "g((y := f()))");
    expect_expr("walrus of tuple", 8, named("y", seq(UPY_E_TUPLE, 2, a, b)),
                "(y := (a, b))");
    expect_expr("yield argument", 8, call(name("f"), 1, one(UPY_E_YIELD, x), 0),
                "f((yield x))");
    expect_expr("yield from argument", 8,
                call(name("f"), 1, one(UPY_E_YIELD_FROM, x), 0),
                "f((yield from x))");
    expect_expr("yield in list", 8,
                seq(UPY_E_LIST, 2, one(UPY_E_YIELD, NONE_), a), "[(yield), a]");
    expect_expr("lambda yield", 8, lambda(params(""), one(UPY_E_YIELD, NONE_)),
                "lambda: (yield)");
    expect_expr("starred of or", 8,
                call(name("f"), 1, one(UPY_E_STARRED, boolop(0, 2, a, b)), 0),
                "f(*(a or b))");
    expect_expr("yield attribute", 8, attr(one(UPY_E_YIELD, NONE_), "x"),
                "(yield).x");
    expect_expr("complex in operators", 8,
                bin(UPY_BIN_SUB, x,
                    bin(UPY_BIN_MUL, ccomplex(1, 2),
                        bin(UPY_BIN_MUL, a, ccomplex(-0.0, -2)))),
                "x - (1 + 2j) * (a * -2j)");
    expect_expr("complex left operand", 8, bin(UPY_BIN_ADD, ccomplex(1, -2), x),
                "1 - 2j + x");
    expect_expr("complex zero forms in operators", 8,
                bin(UPY_BIN_POW, ccomplex(-0.0, 0.0),
                    bin(UPY_BIN_MOD, ccomplex(0.0, -0.0), x)),
                "(-0.0 * 1j) ** (-0j * 1j % x)");
    expect_expr("starred of attribute", 8,
                seq(UPY_E_LIST, 2, one(UPY_E_STARRED, attr(a, "b")), c),
                "[*a.b, c]");
}

static void test_displays(void) {
    upy_expr *a = name("a"), *b = name("b"), *x = name("x"), *y = name("y");

    expect_expr("call", 8,
                call(name("f"), 3, a, one(UPY_E_STARRED, b),
                     one(UPY_E_STARRED, name("c")), 2, "k", cint(1), NULL,
                     name("kw")),
                "f(a, *b, *c, k=1, **kw)");
    expect_expr("empty call", 8, call(name("f"), 0, 0), "f()");
    expect_expr(
        "genexp argument", 8,
        call(name("f"), 1, comp(UPY_E_GENEXP, NULL, x, 1, x, y, 0, 0), 0),
        "f(x for x in y)");
    expect_expr("genexp and argument", 8,
                call(name("f"), 2, comp(UPY_E_GENEXP, NULL, x, 1, x, y, 0, 0),
                     cint(1), 0),
                "f((x for x in y), 1)");
    expect_expr("genexp and keyword", 8,
                call(name("f"), 1, comp(UPY_E_GENEXP, NULL, x, 1, x, y, 0, 0),
                     1, "k", cint(1)),
                "f((x for x in y), k=1)");
    expect_expr("genexp", 8, comp(UPY_E_GENEXP, NULL, x, 1, x, y, 0, 0),
                "(x for x in y)");
    expect_expr(
        "listcomp with ifs", 8,
        comp(UPY_E_LISTCOMP, NULL, x, 1, x, y, 0, 2, x, un(UPY_UOP_NOT, a)),
        "[x for x in y if x if not a]");
    expect_expr("dictcomp", 8,
                comp(UPY_E_DICTCOMP, name("k"), name("v"), 1,
                     seq(UPY_E_TUPLE, 2, name("k"), name("v")),
                     call(attr(name("d"), "items"), 0, 0), 0, 0),
                "{k: v for k, v in d.items()}");
    expect_expr("setcomp nested", 8,
                comp(UPY_E_SETCOMP, NULL, y, 2, x, name("z"), 0, 0, y, x, 0, 1,
                     cmp(y, 1, UPY_CMP_GT, cint(0))),
                "{y for x in z for y in x if y > 0}");
    expect_expr("async comprehension", 8,
                comp(UPY_E_LISTCOMP, NULL, x, 1, x, y, 1, 0),
                "[x async for x in y]");
    expect_expr("comprehension over ifexp", 8,
                comp(UPY_E_LISTCOMP, NULL, x, 1, x, ifexp(b, a, y), 0, 1,
                     ifexp(b, a, y)),
                "[x for x in (a if b else y) if (a if b else y)]");
    expect_expr(
        "comprehension one-tuple target", 8,
        comp(UPY_E_LISTCOMP, NULL, x, 1, seq(UPY_E_TUPLE, 1, x), y, 0, 0),
        "[x for (x,) in y]");
    expect_expr("comprehension tuple element", 8,
                comp(UPY_E_LISTCOMP, NULL, seq(UPY_E_TUPLE, 2, x, y), 1,
                     seq(UPY_E_TUPLE, 2, x, y), name("z"), 0, 0),
                "[(x, y) for x, y in z]");
    expect_expr("subscript tuple", 8, sub(x, seq(UPY_E_TUPLE, 2, a, b)),
                "x[a, b]");
    expect_expr("subscript slices", 8,
                sub(x, seq(UPY_E_TUPLE, 2, slice(cint(1), cint(2), NULL),
                           slice(NULL, NULL, cint(3)))),
                "x[1:2, ::3]");
    expect_expr("subscript full slice", 8, sub(x, slice(NULL, NULL, NULL)),
                "x[:]");
    expect_expr("subscript three-part slice", 8, sub(x, slice(a, b, y)),
                "x[a:b:y]");
    expect_expr(
        "subscript slice of expressions", 8,
        sub(x, slice(bin(UPY_BIN_ADD, a, cint(1)), un(UPY_UOP_NEG, b), NULL)),
        "x[a + 1:-b]");
    expect_expr("subscript slice of lambda", 8,
                sub(x, slice(lambda(params(""), a), NULL, NULL)),
                "x[lambda: a:]");
    expect_expr("subscript empty tuple", 8, sub(x, seq(UPY_E_TUPLE, 0)),
                "x[()]");
    expect_expr("subscript one-tuple", 8, sub(x, seq(UPY_E_TUPLE, 1, a)),
                "x[a,]");
    expect_expr("subscript one slice tuple", 8,
                sub(x, seq(UPY_E_TUPLE, 1, slice(cint(1), NULL, NULL))),
                "x[1:,]");
    expect_expr("subscript constant tuple", 8,
                sub(x, cobj(obj_seq(UPY_TUPLE, 2, obj_int(1), obj_int(2)))),
                "x[1, 2]");
    expect_expr("subscript starred 3.8", 8,
                sub(x, seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b)),
                "x[(*a, b)]");
    expect_expr("subscript starred 3.11", 11,
                sub(x, seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b)),
                "x[*a, b]");
    expect_expr("subscript walrus", 8, sub(x, named("y", cint(1))),
                "x[(y := 1)]");
    expect_expr("subscript yield", 8, sub(x, one(UPY_E_YIELD, NONE_)),
                "x[(yield)]");
    expect_expr("tuple argument", 8,
                call(name("f"), 1, seq(UPY_E_TUPLE, 2, a, b), 0), "f((a, b))");
    expect_expr("empty tuple", 8, seq(UPY_E_TUPLE, 0), "()");
    expect_expr("one-tuple", 8, seq(UPY_E_TUPLE, 1, a), "(a,)");
    expect_expr("starred tuple", 8,
                seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b), "(*a, b)");
    expect_expr("nested tuple", 8,
                seq(UPY_E_TUPLE, 2, seq(UPY_E_TUPLE, 2, a, b), x),
                "((a, b), x)");
    expect_expr("list", 8, seq(UPY_E_LIST, 3, a, one(UPY_E_STARRED, b), x),
                "[a, *b, x]");
    expect_expr("empty list", 8, seq(UPY_E_LIST, 0), "[]");
    expect_expr("set", 8, seq(UPY_E_SET, 2, a, one(UPY_E_STARRED, b)),
                "{a, *b}");
    /* No display makes an empty set; this one at least parses. */
    expect_expr_untyped("empty set", seq(UPY_E_SET, 0), "{*()}");
    expect_expr("dict", 8,
                dict(3, cstr("a"), cint(1), NONE_, b, x, ifexp(a, b, x)),
                "{'a': 1, **b, x: b if a else x}");
    expect_expr("dict unpack of or", 8, dict(1, NONE_, boolop(0, 2, a, b)),
                "{**(a or b)}");
    expect_expr("empty dict", 8, dict(0), "{}");
    expect_expr("lambda full", 8,
                lambda(with_defaults(params("x y *a k m **kw"), 1, cint(1)), x),
                "lambda x, y=1, *a, k, m, **kw: x");
    expect_expr(
        "lambda positional-only", 8,
        lambda(with_defaults(params("a b / c"), 2, cint(1), cint(2)), a),
        "lambda a, b=1, /, c=2: a");
    expect_expr("lambda bare star", 8, lambda(params("* k"), name("k")),
                "lambda *, k: k");
    expect_expr("lambda tuple body", 8,
                lambda(params(""), seq(UPY_E_TUPLE, 2, cint(1), cint(2))),
                "lambda: (1, 2)");
    expect_expr("lambda argument", 8,
                call(name("f"), 1, lambda(params("x"), x), 0),
                "f(lambda x: x)");
    expect_expr(
        "lambda in lambda", 8,
        lambda(params("x"), lambda(params("y"), bin(UPY_BIN_ADD, x, y))),
        "lambda x: lambda y: x + y");
    {
        upy_arguments *args = params("* k m");
        args->kw_defaults[1] = cint(3);
        expect_expr("lambda keyword-only default", 8, lambda(args, name("k")),
                    "lambda *, k, m=3: k");
    }
}

static void test_constants(void) {
    upy_object *big = obj(UPY_INT);
    volatile double inf = HUGE_VAL;
    double host_nan = inf - inf;
    uint16_t *digits = must(upy_arena_array(&arena, 1000, sizeof(uint16_t)));
    int i;

    expect_expr("None", 8, ckind(UPY_NONE), "None");
    expect_expr("True False", 8,
                seq(UPY_E_TUPLE, 2, ckind(UPY_TRUE), ckind(UPY_FALSE)),
                "(True, False)");
    expect_expr("Ellipsis", 8, ckind(UPY_ELLIPSIS), "...");
    expect_expr("StopIteration", 8, ckind(UPY_STOPITER), "StopIteration");
    expect_expr("code constant", 8, ckind(UPY_CODE), "...");
    expect_expr("negative int", 8, bin(UPY_BIN_SUB, name("x"), cint(-5)),
                "x - -5");
    expect_expr("float", 8, cfloat(1.5), "1.5");
    expect_expr("float exponent", 8, cfloat(1e16), "1e+16");
    expect_expr("negative zero", 8, cfloat(-0.0), "-0.0");
    expect_expr("negative zero power", 8,
                bin(UPY_BIN_POW, cfloat(-0.0), name("x")), "(-0.0) ** x");
    expect_expr("inf", 8, cfloat(HUGE_VAL), "1e309");
    expect_expr("negative inf", 8, cfloat(-HUGE_VAL), "-1e309");
    expect_expr("inf attribute", 8, attr(cfloat(HUGE_VAL), "real"),
                "1e309.real");
    expect_expr("str quotes", 8, cstr("it's"), "\"it's\"");
    expect_expr("str escapes", 8, cstr("a\nb\\'\""), "'a\\nb\\\\\\'\"'");
    expect_expr("bytes", 8, cobj(obj_str(UPY_BYTES, "a\x00'", 3)),
                "b\"a\\x00'\"");
    expect_expr("frozenset", 8,
                cmp(name("x"), 1, UPY_CMP_IN,
                    cobj(obj_seq(UPY_FROZENSET, 2, obj_int(1), obj_int(2)))),
                "x in {1, 2}");
    expect_expr("empty frozenset", 8, cobj(obj_seq(UPY_FROZENSET, 0)),
                "frozenset()");
    expect_expr(
        "constant tuples", 8,
        cobj(obj_seq(UPY_TUPLE, 3,
                     obj_seq(UPY_TUPLE, 2, obj_int(1), obj_int(-2)),
                     obj_seq(UPY_TUPLE, 1, obj_str(UPY_STR, "a", 1)),
                     obj_seq(UPY_FROZENSET, 1, obj_str(UPY_BYTES, "b", 1)))),
        "((1, -2), ('a',), {b'b'})");
    expect_expr("constant empty tuple", 8, cobj(obj_seq(UPY_TUPLE, 0)), "()");
    expect_expr("constant tuple argument", 8,
                call(name("f"), 1,
                     cobj(obj_seq(UPY_TUPLE, 2, obj_int(1), obj_int(2))), 0),
                "f((1, 2))");
    expect_expr(
        "constant tuple attribute", 8,
        attr(cobj(obj_seq(UPY_TUPLE, 2, obj_int(1), obj_int(2))), "count"),
        "(1, 2).count");
    expect_expr("complex times", 8, bin(UPY_BIN_MUL, ccomplex(1, 2), name("x")),
                "(1 + 2j) * x");
    expect_expr("pow complex", 8, bin(UPY_BIN_POW, name("x"), ccomplex(0, 2)),
                "x ** 2j");
    expect_expr("pow negative complex", 8,
                bin(UPY_BIN_POW, name("x"), ccomplex(-0.0, -2)), "x ** -2j");
    expect_expr("nan times", 8, bin(UPY_BIN_MUL, cfloat(host_nan), name("x")),
                "(1e309 - 1e309) * x");
    expect_expr("other nan times", 8,
                bin(UPY_BIN_MUL, cfloat(-host_nan), name("x")),
                "-(1e309 - 1e309) * x");

    /* A huge int prints in hexadecimal (decimal text over 4300 digits does
     * not compile): 1000 digits of 15 bits, the top one 1. */
    for (i = 0; i < 1000; i++)
        digits[i] = 0;
    digits[999] = 1;
    digits[0] = 0x7FFF;
    big->u.integer.is_big = 1;
    big->u.integer.ndigits = 1000;
    big->u.integer.digits = digits;
    {
        upy_strbuf sb;
        char *want = must(malloc(4000));
        size_t n;

        /* 2**14985 + 0x7fff: "0x2" then 3745 hex digits, "7fff" last. */
        strcpy(want, "0x2");
        n = strlen(want);
        for (i = 0; i < 3742; i++)
            want[n++] = '0';
        strcpy(want + n, "7fff");
        upy_sb_init(&sb, 0);
        upy_print_expr(&sb, cobj(big), ver(8));
        report("huge int", "expr", 8, 13, sb.data, want, NULL, NULL);
        upy_sb_release(&sb);
        free(want);
    }
}

/* Every form of float and complex constant: their bits must come back
 * from CPython's constant folding (tests/test_print.py checks). */
static void test_special_numbers(void) {
    static const double parts[] = {0.0, -0.0, 1.5, -2.0, HUGE_VAL, -HUGE_VAL};
    static const char *const want_cx[6][6] = {
        /* imag: 0.0, -0.0, 1.5, -2.0, inf, -inf;  real 0.0: */
        {"0j", "-0j * 1j", "1.5j", "0 - 2j", "1e309j", "0 - 1e309j"},
        /* real -0.0 */
        {"-0.0 * 1j", "-0j", "-(0 - 1.5j)", "-2j", "-(0 - 1e309j)", "-1e309j"},
        /* real 1.5 */
        {"1.5 + 0j", "-(-1.5 + 0j)", "1.5 + 1.5j", "1.5 - 2j", "1.5 + 1e309j",
         "1.5 - 1e309j"},
        /* real -2.0 */
        {"-2 + 0j", "-(2 + 0j)", "-2 + 1.5j", "-2 - 2j", "-2 + 1e309j",
         "-2 - 1e309j"},
        /* real inf */
        {"1e309 + 0j", "-(-1e309 + 0j)", "1e309 + 1.5j", "1e309 - 2j",
         "1e309 + 1e309j", "1e309 - 1e309j"},
        /* real -inf */
        {"-1e309 + 0j", "-(1e309 + 0j)", "-1e309 + 1.5j", "-1e309 - 2j",
         "-1e309 + 1e309j", "-1e309 - 1e309j"},
    };
    volatile double inf = HUGE_VAL;
    double host_nan = inf - inf;
    char case_name[64];
    int i, j;

    for (i = 0; i < 6; i++) {
        for (j = 0; j < 6; j++) {
            snprintf(case_name, sizeof case_name, "complex %d %d", i, j);
            expect_const(case_name, ccomplex(parts[i], parts[j]),
                         want_cx[i][j]);
        }
    }
    expect_const("complex nan real", ccomplex(host_nan, 1),
                 "(1e309 - 1e309) + 1j");
    expect_const("complex nan imag", ccomplex(1, host_nan),
                 "1 + (1e309j - 1e309j)");
    expect_const("float inf", cfloat(HUGE_VAL), "1e309");
    expect_const("float -inf", cfloat(-HUGE_VAL), "-1e309");
    expect_const("float -0.0", cfloat(-0.0), "-0.0");
    expect_const("float 0.1", cfloat(0.1), "0.1");
    expect_const("float nan", cfloat(host_nan), "1e309 - 1e309");
    expect_const("float other nan", cfloat(-host_nan), "-(1e309 - 1e309)");
}

static void test_fstrings(void) {
    upy_expr *x = name("x"), *d = name("d");

    expect_expr("fstring simple", 8, fstr(1, fmt(x, -1, NULL)), "f'{x}'");
    expect_expr(
        "fstring conversion and spec", 8,
        fstr(3, cstr("a"), fmt(x, 'r', fstr(1, cstr(">10"))), cstr("b")),
        "f'a{x!r:>10}b'");
    expect_expr(
        "fstring nested spec", 8,
        fstr(1, fmt(x, -1, fstr(2, cstr(">"), fmt(name("width"), -1, NULL)))),
        "f'{x:>{width}}'");
    expect_expr("fstring spec field conversion", 8,
                fstr(1, fmt(x, 's', fstr(1, fmt(name("y"), 'a', NULL)))),
                "f'{x!s:{y!a}}'");
    expect_expr("fstring braces", 8,
                fstr(3, cstr("{}"), fmt(x, -1, NULL), cstr("}")),
                "f'{{}}{x}}}'");
    expect_expr("fstring str key", 8, fstr(1, fmt(sub(d, cstr("k")), -1, NULL)),
                "f'{d[\"k\"]}'");
    expect_expr("fstring quote in text", 8,
                fstr(2, cstr("it's "), fmt(x, -1, NULL)), "f\"it's {x}\"");
    expect_expr("fstring quote in text and key", 8,
                fstr(2, cstr("it's "), fmt(sub(d, cstr("k")), -1, NULL)),
                "f\"it's {d['k']}\"");
    expect_expr("fstring both quotes in text", 8,
                fstr(2, cstr("a'b\"c\\"), fmt(x, -1, NULL)),
                "f'a\\'b\"c\\\\{x}'");
    expect_expr("fstring key with quote", 8,
                fstr(1, fmt(sub(d, cstr("it's")), -1, NULL)),
                "f\"{d['''it's''']}\"");
    expect_expr("fstring keys with both quotes", 8,
                fstr(2, fmt(sub(d, cstr("it's")), -1, NULL),
                     fmt(sub(d, cstr("\"")), -1, NULL)),
                "f'''{d[\"it's\"]}{d['\"']}'''");
    expect_expr("fstring dict", 8,
                fstr(1, fmt(dict(1, cint(1), cint(2)), -1, NULL)),
                "f'{ {1: 2}}'");
    expect_expr("fstring set spec", 8,
                fstr(1, fmt(seq(UPY_E_SET, 1, x), 'r', fstr(1, cstr(">3")))),
                "f'{ {x}!r:>3}'");
    expect_expr("fstring lambda", 8,
                fstr(1, fmt(lambda(params(""), cint(1)), -1, NULL)),
                "f'{(lambda: 1)}'");
    expect_expr(
        "fstring ifexp lambda", 8,
        fstr(1, fmt(ifexp(name("b"), name("a"), lambda(params(""), name("c"))),
                    -1, NULL)),
        "f'{(a if b else lambda: c)}'");
    expect_expr(
        "fstring lambda argument", 8,
        fstr(1, fmt(call(name("f"), 1, lambda(params("y"), name("y")), 0), -1,
                    NULL)),
        "f'{f(lambda y: y)}'");
    expect_expr("fstring walrus", 8,
                fstr(1, fmt(named("y", cint(1)), -1, NULL)), "f'{(y := 1)}'");
    expect_expr("fstring tuple", 8,
                fstr(1, fmt(seq(UPY_E_TUPLE, 2, x, d), -1, NULL)),
                "f'{(x, d)}'");
    expect_expr("fstring comparisons", 8,
                fstr(2, fmt(cmp(x, 1, UPY_CMP_LE, d), -1, NULL),
                     fmt(cmp(x, 1, UPY_CMP_NE, d), -1, NULL)),
                "f'{x <= d}{x != d}'");
    expect_expr(
        "fstring dictcomp", 8,
        fstr(1, fmt(comp(UPY_E_DICTCOMP, name("k"), name("v"), 1,
                         seq(UPY_E_TUPLE, 2, name("k"), name("v")), x, 0, 0),
                    -1, NULL)),
        "f'{ {k: v for k, v in x}}'");
    expect_expr("fstring set method", 8,
                fstr(1, fmt(call(attr(seq(UPY_E_SET, 1, x), "union"), 1, d, 0),
                            -1, NULL)),
                "f'{ {x}.union(d)}'");
    expect_expr("fstring await", 8, fstr(1, fmt(one(UPY_E_AWAIT, x), -1, NULL)),
                "f'{await x}'");
    expect_expr("fstring yield", 8, fstr(1, fmt(one(UPY_E_YIELD, x), -1, NULL)),
                "f'{(yield x)}'");
    expect_expr("fstring ascii", 8, fstr(1, fmt(x, 'a', NULL)), "f'{x!a}'");
    expect_expr("fstring empty", 8, fstr(0), "f''");
    expect_expr("fstring constant only", 8, fstr(1, cstr("abc")), "f'abc'");
    expect_expr("fstring escapes in text", 8,
                fstr(2, cstr("\t\n\x01\xc3\xa9"), fmt(x, -1, NULL)),
                "f'\\t\\n\\x01\xc3\xa9{x}'");
    expect_expr("fstring bytes in field", 8,
                fstr(1, fmt(cbytes("x"), -1, NULL)), "f'{b\"x\"}'");
    expect_expr("fstring str in field", 8, fstr(1, fmt(cstr("a"), -1, NULL)),
                "f'{\"a\"}'");
    expect_expr("fstring nested", 8,
                fstr(1, fmt(fstr(1, fmt(x, -1, NULL)), -1, NULL)),
                "f'{f\"{x}\"}'");
    expect_expr("fstring nested three", 8,
                fstr(1, fmt(fstr(1, fmt(fstr(1, fmt(x, -1, NULL)), -1, NULL)),
                            -1, NULL)),
                "f'{f\"\"\"{f\"{x}\"}\"\"\"}'");
    expect_expr(
        "fstring nested with key", 8,
        fstr(1, fmt(fstr(1, fmt(sub(d, cstr("k")), -1, NULL)), -1, NULL)),
        "f'{f\"\"\"{d[\"k\"]}\"\"\"}'");
    expect_expr("fstring in spec", 8,
                fstr(1, fmt(x, -1, fstr(1, fmt(cstr("a"), -1, NULL)))),
                "f'{x:{\"a\"}}'");
    expect_expr("fstring constant tuple in field", 8,
                fstr(1, fmt(cobj(obj_seq(UPY_TUPLE, 2, obj_str(UPY_STR, "a", 1),
                                         obj_str(UPY_STR, "b", 1))),
                            -1, NULL)),
                "f'{(\"a\", \"b\")}'");
    /* A newline in a field's string: fine from 3.12, impossible before. */
    expect_expr_range("fstring backslash in field 3.12", 12, 13,
                      fstr(1, fmt(sub(d, cstr("\n")), -1, NULL)),
                      "f'{d[\"\\n\"]}'");
    expect_module_full(
        "fstring backslash in field 3.8", 8, 0,
        body(1, sexpr(fstr(1, fmt(sub(d, cstr("\n")), -1, NULL)))),
        "f'{d[\"\\n\"]}'\n", UPY_PRINT_FSTRING_INEXACT);
    {
        /* Five levels: more than the four quote kinds. */
        upy_expr *e = fstr(
            1,
            fmt(fstr(1, fmt(fstr(1, fmt(fstr(1, fmt(fstr(1, fmt(x, -1, NULL)),
                                                    -1, NULL)),
                                        -1, NULL)),
                            -1, NULL)),
                -1, NULL));
        expect_expr_range("fstring five levels 3.12", 12, 13, e,
                          "f'{f'''{f'{f\"\"\"{f\"{x}\"}\"\"\"}'}'''}'");
        expect_module_full("fstring five levels 3.8", 8, 0, body(1, sexpr(e)),
                           "f'{f\"{f'{f'{f'{x}'}'}'}\"}'\n",
                           UPY_PRINT_FSTRING_INEXACT);
    }
}

static void test_statements(void) {
    upy_expr *a = name("a"), *b = name("b"), *c = name("c"), *x = name("x");

    expect_stmt("swap", 8,
                assign(seq(UPY_E_TUPLE, 2, b, a), 1, seq(UPY_E_TUPLE, 2, a, b)),
                "a, b = b, a\n");
    expect_stmt("chained assignment", 8, assign(cint(1), 2, a, b),
                "a = b = 1\n");
    expect_stmt("starred target", 8,
                assign(c, 1, seq(UPY_E_TUPLE, 2, a, one(UPY_E_STARRED, b))),
                "a, *b = c\n");
    expect_stmt("nested targets", 8,
                assign(x, 1,
                       seq(UPY_E_TUPLE, 2, seq(UPY_E_TUPLE, 2, a, b),
                           seq(UPY_E_LIST, 1, c))),
                "(a, b), [c] = x\n");
    expect_stmt("one-tuple value", 8, assign(seq(UPY_E_TUPLE, 1, a), 1, x),
                "x = (a,)\n");
    expect_stmt("one-tuple target", 8, assign(x, 1, seq(UPY_E_TUPLE, 1, a)),
                "(a,) = x\n");
    expect_stmt(
        "constant tuple value", 8,
        assign(cobj(obj_seq(UPY_TUPLE, 2, obj_int(1), obj_int(2))), 1, x),
        "x = 1, 2\n");
    expect_stmt("starred value", 8,
                assign(seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b), 1, x),
                "x = *a, b\n");
    expect_stmt("yield value", 8, assign(one(UPY_E_YIELD, a), 1, x),
                "x = yield a\n");
    expect_stmt("bare yield value", 8, assign(one(UPY_E_YIELD, NONE_), 1, x),
                "x = yield\n");
    expect_stmt("yield tuple value", 8,
                assign(one(UPY_E_YIELD, seq(UPY_E_TUPLE, 2, a, b)), 1, x),
                "x = yield a, b\n");
    expect_stmt(
        "attribute and subscript targets", 8,
        assign(cint(0), 1, seq(UPY_E_TUPLE, 2, attr(a, "b"), sub(c, cint(1)))),
        "a.b, c[1] = 0\n");
    expect_stmt("augmented", 8, augassign(x, UPY_BIN_ADD, cint(1)), "x += 1\n");
    expect_stmt("augmented pow", 8, augassign(x, UPY_BIN_POW, a), "x **= a\n");
    expect_stmt("augmented yield", 8,
                augassign(x, UPY_BIN_FLOORDIV, one(UPY_E_YIELD, NONE_)),
                "x //= yield\n");
    expect_stmt("augmented tuple", 8,
                augassign(x, UPY_BIN_OR, seq(UPY_E_TUPLE, 2, a, b)),
                "x |= a, b\n");
    expect_stmt("augmented starred 3.8", 8,
                augassign(x, UPY_BIN_ADD,
                          seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b)),
                "x += (*a, b)\n");
    expect_stmt("augmented starred 3.9", 9,
                augassign(x, UPY_BIN_ADD,
                          seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b)),
                "x += *a, b\n");
    expect_stmt("annotated", 8, annassign(x, name("int"), cint(1), 1),
                "x: int = 1\n");
    expect_stmt("annotated not simple", 8, annassign(x, name("int"), NULL, 0),
                "(x): int\n");
    expect_stmt("annotated attribute", 8,
                annassign(attr(a, "b"), name("int"), NULL, 0), "a.b: int\n");
    expect_stmt(
        "annotated subscript type", 8,
        annassign(x, sub(name("List"), name("int")), seq(UPY_E_LIST, 0), 1),
        "x: List[int] = []\n");
    {
        upy_stmt *s = stmt(UPY_S_DELETE);
        s->u.targets = elist(3, a, sub(b, cint(0)), attr(c, "d"));
        expect_stmt("del", 8, s, "del a, b[0], c.d\n");
        s = stmt(UPY_S_DELETE);
        s->u.targets = elist(1, seq(UPY_E_TUPLE, 2, a, b));
        expect_stmt("del tuple", 8, s, "del (a, b)\n");
    }
    expect_module(
        "return forms", 8,
        body(1, def("f", params(""),
                    body(5, value_stmt(UPY_S_RETURN, NONE_),
                         value_stmt(UPY_S_RETURN, x),
                         value_stmt(UPY_S_RETURN, seq(UPY_E_TUPLE, 2, a, b)),
                         value_stmt(UPY_S_RETURN, one(UPY_E_YIELD, NONE_)),
                         value_stmt(
                             UPY_S_RETURN,
                             seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b))))),
        "def f():\n    return\n    return x\n    return a, b\n"
        "    return (yield)\n    return *a, b\n");
    expect_module(
        "yield statements", 8,
        body(1, def("g", params(""),
                    body(5, sexpr(one(UPY_E_YIELD, NONE_)),
                         sexpr(one(UPY_E_YIELD, x)),
                         sexpr(one(UPY_E_YIELD, seq(UPY_E_TUPLE, 2, a, b))),
                         sexpr(one(UPY_E_YIELD_FROM, x)),
                         sexpr(one(UPY_E_AWAIT, x))))),
        "def g():\n    yield\n    yield x\n    yield a, b\n"
        "    yield from x\n    await x\n");
    expect_stmt("expression tuple", 8, sexpr(seq(UPY_E_TUPLE, 2, a, b)),
                "a, b\n");
    expect_stmt("expression walrus", 8, sexpr(named("y", x)), "(y := x)\n");
    expect_module("raise forms", 8,
                  body(4, raise_(NULL, NULL), raise_(name("E"), NULL),
                       raise_(call(name("E"), 1, cstr("m"), 0), name("e")),
                       raise_(name("E"), ckind(UPY_NONE))),
                  "raise\nraise E\nraise E('m') from e\nraise E from None\n");
    expect_module(
        "global nonlocal", 8,
        body(1, def("f", params(""),
                    body(2, names_stmt(UPY_S_GLOBAL, 2, "a", "b"),
                         def("g", params(""),
                             body(1, names_stmt(UPY_S_NONLOCAL, 1, "c")))))),
        "def f():\n    global a, b\n\n    def g():\n"
        "        nonlocal c\n");
    expect_module(
        "imports", 8,
        body(6, import_(UPY_S_IMPORT, NULL, 0, 1, "os", NULL),
             import_(UPY_S_IMPORT, NULL, 0, 2, "a.b", "c", "d", NULL),
             import_(UPY_S_IMPORT_FROM, "m", 2, 2, "x", "y", "z", NULL),
             import_(UPY_S_IMPORT_FROM, NULL, 1, 1, "x", NULL),
             import_(UPY_S_IMPORT_FROM, "m", 0, 1, "*", NULL),
             import_(UPY_S_IMPORT_FROM, "m.n", 1, 1, "x", NULL)),
        "import os\nimport a.b as c, d\nfrom ..m import x as y, z\n"
        "from . import x\nfrom m import *\nfrom .m.n import x\n");
    expect_stmt("assert", 8, assert_(x, cstr("msg")), "assert x, 'msg'\n");
    expect_stmt("assert bare", 8, assert_(cmp(x, 1, UPY_CMP_GT, cint(0)), NULL),
                "assert x > 0\n");
    expect_stmt("assert tuple", 8, assert_(seq(UPY_E_TUPLE, 2, a, b), NULL),
                "assert (a, b)\n");
}

static void test_compound(void) {
    upy_expr *a = name("a"), *b = name("b"), *c = name("c"), *x = name("x");
    upy_stmt *brk = stmt(UPY_S_BREAK), *cont = stmt(UPY_S_CONTINUE);

    expect_stmt("if elif else", 8,
                if_(a, body(1, pass()),
                    body(1, if_(b, body(1, sexpr(x)),
                                body(1, if_(c, body(1, pass()),
                                            body(1, sexpr(cint(1)))))))),
                "if a:\n    pass\nelif b:\n    x\nelif c:\n    pass\n"
                "else:\n    1\n");
    expect_stmt("else with if and more", 8,
                if_(a, body(1, pass()),
                    body(2, if_(b, body(1, pass()), EMPTY), sexpr(x))),
                "if a:\n    pass\nelse:\n    if b:\n        pass\n    x\n");
    expect_stmt("if walrus", 8,
                if_(named("m", call(name("f"), 0, 0)), body(1, pass()), EMPTY),
                "if (m := f()):\n    pass\n");
    expect_stmt("while else", 8,
                while_(ckind(UPY_TRUE), body(2, brk, cont), body(1, sexpr(x))),
                "while True:\n    break\n    continue\nelse:\n    x\n");
    expect_stmt("for tuple target", 8,
                for_(seq(UPY_E_TUPLE, 2, name("k"), name("v")),
                     call(attr(name("d"), "items"), 0, 0), body(1, pass()),
                     EMPTY, 0),
                "for k, v in d.items():\n    pass\n");
    expect_stmt(
        "for constant tuple", 8,
        for_(x, cobj(obj_seq(UPY_TUPLE, 3, obj_int(1), obj_int(2), obj_int(3))),
             body(1, pass()), body(1, pass()), 0),
        "for x in 1, 2, 3:\n    pass\nelse:\n    pass\n");
    expect_stmt("for starred 3.8", 8,
                for_(x, seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b),
                     body(1, pass()), EMPTY, 0),
                "for x in (*a, b):\n    pass\n");
    expect_stmt("for starred 3.9", 9,
                for_(x, seq(UPY_E_TUPLE, 2, one(UPY_E_STARRED, a), b),
                     body(1, pass()), EMPTY, 0),
                "for x in *a, b:\n    pass\n");
    {
        upy_stmt *f = def(
            "f", params(""),
            body(2, for_(x, a, body(1, pass()), EMPTY, 1),
                 with_(1, body(1, pass()), 1, a, seq(UPY_E_TUPLE, 2, b, c))));
        f->u.funcdef.is_async = 1;
        expect_module("async for and with", 8, body(1, f),
                      "async def f():\n    async for x in a:\n        pass\n"
                      "    async with a as (b, c):\n        pass\n");
    }
    expect_stmt("with items", 8, with_(0, body(1, pass()), 2, a, b, c, NONE_),
                "with a as b, c:\n    pass\n");
    expect_stmt("with call", 8,
                with_(0, body(1, pass()), 1,
                      call(name("open"), 1, name("p"), 0), name("f")),
                "with open(p) as f:\n    pass\n");
    expect_module_full(
        "with tuple 3.8", 8, 8,
        body(1, with_(0, body(1, pass()), 1, seq(UPY_E_TUPLE, 2, a, b), NONE_)),
        "with (a, b):\n    pass\n", 0);
    expect_stmt("with tuple 3.9", 9,
                with_(0, body(1, pass()), 1, seq(UPY_E_TUPLE, 2, a, b), NONE_),
                "with ((a, b)):\n    pass\n");
    expect_stmt("with tuple and more 3.9", 9,
                with_(0, body(1, pass()), 2, seq(UPY_E_TUPLE, 2, a, b), NONE_,
                      c, NONE_),
                "with (a, b), c:\n    pass\n");
    expect_stmt("for over yield", 8,
                for_(x, one(UPY_E_YIELD, NONE_), body(1, pass()), EMPTY, 0),
                "for x in (yield):\n    pass\n");
    expect_stmt("with yield", 8,
                with_(0, body(1, pass()), 1, one(UPY_E_YIELD, NONE_), NONE_),
                "with (yield):\n    pass\n");
    expect_stmt(
        "try full", 8,
        try_(body(1, sexpr(x)), body(1, sexpr(a)), body(1, sexpr(b)), 0, 3,
             seq(UPY_E_TUPLE, 2, name("A"), name("B")), "e",
             body(1, raise_(NULL, NULL)), name("C"), NULL, body(1, pass()),
             NONE_, NULL, EMPTY),
        "try:\n    x\nexcept (A, B) as e:\n    raise\nexcept C:\n    pass\n"
        "except:\n    pass\nelse:\n    a\nfinally:\n    b\n");
    expect_stmt("try finally", 8,
                try_(body(1, sexpr(x)), EMPTY, body(1, sexpr(a)), 0, 0),
                "try:\n    x\nfinally:\n    a\n");
    expect_stmt("try star", 11,
                try_(body(1, sexpr(x)), EMPTY, EMPTY, 1, 2, name("A"), "e",
                     body(1, pass()), seq(UPY_E_TUPLE, 2, name("B"), name("C")),
                     NULL, body(1, pass())),
                "try:\n    x\nexcept* A as e:\n    pass\n"
                "except* (B, C):\n    pass\n");
    expect_stmt("empty bodies", 8, if_(a, EMPTY, body(1, comment("lost"))),
                "if a:\n    pass\nelse:\n    # lost\n    pass\n");
    expect_module(
        "unrecovered", 8,
        body(3, sexpr(x), comment("line one\n\nline\rthree\x01\n"), sexpr(a)),
        "x\n# line one\n#\n# line\n# three?\na\n");
    expect_module("unrecovered only", 8, body(1, comment("only")), "# only\n");
    expect_module("empty module", 8, EMPTY, "");
}

static void test_definitions(void) {
    upy_expr *a = name("a"), *x = name("x");

    {
        upy_arguments *args = with_defaults(params("a b / c *args d e **kw"), 2,
                                            cint(1), cint(2));
        args->kw_defaults[1] = cint(3);
        expect_stmt("def signature", 8, def("f", args, body(1, pass())),
                    "def f(a, b=1, /, c=2, *args, d, e=3, **kw):\n    pass\n");
    }
    {
        upy_arguments *args = with_defaults(params("a * b"), 1, cint(1));
        upy_stmt *s = def("f", args, body(1, value_stmt(UPY_S_RETURN, a)));
        args->args[0].annotation = name("int");
        args->kwonly[0].annotation = name("str");
        s->u.funcdef.returns = name("bool");
        expect_stmt("def annotations", 8, s,
                    "def f(a: int = 1, *, b: str) -> bool:\n    return a\n");
    }
    {
        upy_arguments *args = params("*args **kw");
        args->vararg->annotation = name("int");
        args->kwarg->annotation =
            sub(name("Dict"), seq(UPY_E_TUPLE, 2, name("str"), x));
        expect_stmt("def star annotations", 8, def("f", args, body(1, pass())),
                    "def f(*args: int, **kw: Dict[str, x]):\n    pass\n");
    }
    {
        upy_arguments *args = params("*args");
        args->vararg->annotation = one(UPY_E_STARRED, name("Ts"));
        expect_stmt("def starred annotation", 11,
                    def("f", args, body(1, pass())),
                    "def f(*args: *Ts):\n    pass\n");
    }
    expect_stmt("def bare star", 8, def("f", params("* a"), body(1, pass())),
                "def f(*, a):\n    pass\n");
    expect_stmt(
        "def defaults beyond posonly", 8,
        def("f", with_defaults(params("a b / c"), 1, cint(0)), body(1, pass())),
        "def f(a, b, /, c=0):\n    pass\n");
    {
        upy_stmt *s = def("f", params(""), EMPTY);
        s->u.funcdef.decorators =
            elist(2, name("d1"), call(attr(name("d2"), "x"), 1, a, 0));
        s->u.funcdef.is_async = 1;
        expect_stmt("async def decorated", 8, s,
                    "@d1\n@d2.x(a)\nasync def f():\n    pass\n");
    }
    {
        upy_stmt *s = def("f", params(""), body(1, pass()));
        s->u.funcdef.decorators = elist(1, attr(sub(x, cint(0)), "y"));
        expect_stmt("decorator expression", 9, s,
                    "@x[0].y\ndef f():\n    pass\n");
    }
    {
        upy_stmt *s = def("f", params(""), body(1, pass()));
        s->u.funcdef.decorators = elist(1, lambda(params("f"), name("f")));
        expect_stmt("decorator lambda", 9, s,
                    "@lambda f: f\ndef f():\n    pass\n");
    }
    expect_stmt("def positional-only only", 8,
                def("f", params("a /"), body(1, pass())),
                "def f(a, /):\n    pass\n");
    expect_stmt("class bare", 8, classdef("A", elist(0), EMPTY),
                "class A:\n    pass\n");
    {
        upy_stmt *s = classdef("A", elist(1, name("B")), body(1, pass()));
        s->u.classdef.n_keywords = 1;
        s->u.classdef.keywords =
            must(upy_arena_alloc(&arena, sizeof(upy_keyword)));
        s->u.classdef.keywords[0].name = "metaclass";
        s->u.classdef.keywords[0].value = name("M");
        expect_stmt("class bases", 8, s,
                    "class A(B, metaclass=M):\n    pass\n");
    }
    {
        upy_stmt *s = classdef("A", elist(1, one(UPY_E_STARRED, name("bs"))),
                               body(1, pass()));
        s->u.classdef.n_keywords = 1;
        s->u.classdef.keywords =
            must(upy_arena_alloc(&arena, sizeof(upy_keyword)));
        s->u.classdef.keywords[0].value = name("kw");
        s->u.classdef.decorators = elist(1, name("dataclass"));
        expect_stmt("class star bases", 8, s,
                    "@dataclass\nclass A(*bs, **kw):\n    pass\n");
    }
    {
        upy_stmt *s = classdef("C", elist(0), EMPTY);
        s->u.classdef.keywords =
            must(upy_arena_alloc(&arena, sizeof(upy_keyword)));
        s->u.classdef.keywords[0].name = "k";
        s->u.classdef.keywords[0].value = cint(1);
        s->u.classdef.n_keywords = 1;
        expect_stmt("class keyword only", 8, s, "class C(k=1):\n    pass\n");
    }
    /* Docstrings: triple-quoted with their lines; 3.13 strips the
     * indentation of a docstring's lines, so the printer adds it back. */
    expect_module_full(
        "docstring lines", 8, 12,
        body(1, def("f", params(""),
                    body(1, sexpr(cstr("Line one.\n\n    More \"quoted\" "
                                       "text \\ here.\n    "))))),
        "def f():\n    \"\"\"Line one.\n\n    More \"quoted\" text \\\\ "
        "here.\n    \"\"\"\n",
        0);
    expect_module_full("docstring ends in a quote", 8, 13,
                       body(1, sexpr(cstr("Say \"hi\""))),
                       "\"\"\"Say \"hi\\\"\"\"\"\n", 0);
    expect_module_full(
        "docstring 3.13 indentation", 13, 13,
        body(1,
             classdef("C", elist(0),
                      body(1, sexpr(cstr("Line one.\n\nMore.\n  Deeper.\n"))))),
        "class C:\n    \"\"\"Line one.\n\n    More.\n      Deeper.\n    "
        "\"\"\"\n",
        0);
    expect_module_full(
        "docstring 3.13 not cleaned", 13, 13,
        body(1, def("f", params(""), body(1, sexpr(cstr("a\n  b"))))),
        "def f():\n    'a\\n  b'\n", 0);
    expect_module(
        "layout", 8,
        body(5, import_(UPY_S_IMPORT, NULL, 0, 1, "os", NULL),
             def("f", params(""),
                 body(3, sexpr(cstr("Doc.")),
                      def("g", params(""), body(1, pass())),
                      value_stmt(UPY_S_RETURN, name("g")))),
             classdef("A", elist(0),
                      body(3, sexpr(cstr("Doc.")), assign(cint(1), 1, x),
                           def("m", params("self"), body(1, pass())))),
             classdef("B", elist(0),
                      body(2, def("m", params("self"), body(1, pass())),
                           def("n", params("self"), body(1, pass())))),
             assign(call(name("f"), 0, 0), 1, x)),
        "import os\n\n\ndef f():\n    \"\"\"Doc.\"\"\"\n\n    def g():\n       "
        " pass\n"
        "\n    return g\n\n\nclass A:\n    \"\"\"Doc.\"\"\"\n    x = 1\n\n"
        "    def m(self):\n        pass\n\n\nclass B:\n"
        "    def m(self):\n        pass\n\n    def n(self):\n        pass\n"
        "\n\nx = f()\n");
}

static void test_match(void) {
    upy_expr *x = name("x");
    upy_stmt_list p = body(1, pass());

    expect_stmt(
        "match values", 10,
        match_(x, 6, pvalue(attr(name("Color"), "RED")), NONE_, p,
               plist(UPY_P_OR, 3, pvalue(cint(1)), pvalue(cint(-2)),
                     pvalue(cstr("s"))),
               NONE_, p, pvalue(ccomplex(1, 2)), NONE_, p,
               pvalue(ccomplex(-1, -2)), NONE_, p, psingleton(UPY_NONE), NONE_,
               p, pas(NULL, "name"), cmp(name("name"), 1, UPY_CMP_GT, cint(0)),
               p),
        "match x:\n    case Color.RED:\n        pass\n"
        "    case 1 | -2 | 's':\n        pass\n"
        "    case 1 + 2j:\n        pass\n    case -1 - 2j:\n        pass\n"
        "    case None:\n        pass\n"
        "    case name if name > 0:\n        pass\n");
    expect_stmt("type alias with every kind of type parameter", 12,
                typealias("Pairs",
                          elist(4, tparam(UPY_TP_TYPEVAR, "T", NONE_, NONE_),
                                tparam(UPY_TP_TYPEVAR, "N", name("int"), NONE_),
                                tparam(UPY_TP_TYPEVARTUPLE, "Ts", NONE_, NONE_),
                                tparam(UPY_TP_PARAMSPEC, "P", NONE_, NONE_)),
                          seq(UPY_E_LIST, 1, name("T"))),
                "type Pairs[T, N: int, *Ts, **P] = [T]\n");
    expect_stmt("type parameter defaults", 13,
                typealias("Box",
                          elist(1, tparam(UPY_TP_TYPEVAR, "T", name("int"),
                                          name("bool"))),
                          name("T")),
                "type Box[T: int = bool] = T\n");
    expect_stmt("match structures", 10,
                match_(seq(UPY_E_TUPLE, 2, x, name("y")), 5,
                       plist(UPY_P_SEQUENCE, 2, pas(NULL, "a"), pstar("rest")),
                       NONE_, p, plist(UPY_P_SEQUENCE, 0), NONE_, p,
                       pmapping("rest", 1, cstr("k"), pas(NULL, "v")), NONE_, p,
                       pclass(name("Point"), 0, 2, "x", pvalue(cint(0)), "y",
                              pas(NULL, "p")),
                       NONE_, p,
                       pclass(attr(name("m"), "P"), 2, pas(NULL, "a"),
                              plist(UPY_P_SEQUENCE, 1, pstar(NULL)), 1, "z",
                              pas(NULL, NULL)),
                       NONE_, p),
                "match x, y:\n    case [a, *rest]:\n        pass\n"
                "    case []:\n        pass\n"
                "    case {'k': v, **rest}:\n        pass\n"
                "    case Point(x=0, y=p):\n        pass\n"
                "    case m.P(a, [*_], z=_):\n        pass\n");
    expect_stmt(
        "match literals", 10,
        match_(x, 1,
               plist(UPY_P_SEQUENCE, 5, pvalue(ccomplex(-0.0, -1)),
                     pvalue(ccomplex(0.0, -1)), pvalue(cfloat(-1.5)),
                     pmapping(NULL, 2, cint(-1), pas(NULL, NULL),
                              ckind(UPY_NONE), pclass(name("P"), 0, 0)),
                     pstar(NULL)),
               NONE_, p),
        "match x:\n    case [-1j, 0 - 1j, -1.5, {-1: _, None: P()}, *_]:\n"
        "        pass\n");
    expect_stmt(
        "match nesting", 10,
        match_(x, 5,
               pas(plist(UPY_P_OR, 2, pvalue(cint(1)), pvalue(cint(2))), "n"),
               NONE_, p,
               plist(UPY_P_OR, 2, pas(pvalue(cint(1)), "n"),
                     pas(pvalue(cint(2)), "n")),
               NONE_, p,
               plist(UPY_P_OR, 2,
                     plist(UPY_P_OR, 2, pvalue(cint(1)), pvalue(cint(2))),
                     pvalue(cint(3))),
               NONE_, p, pas(pas(pvalue(cint(1)), "a"), "b"), NONE_, p,
               plist(UPY_P_SEQUENCE, 2,
                     plist(UPY_P_OR, 2, pvalue(cint(1)), pvalue(cint(2))),
                     pas(plist(UPY_P_SEQUENCE, 1, pas(NULL, NULL)), "q")),
               NONE_, p),
        "match x:\n    case 1 | 2 as n:\n        pass\n"
        "    case (1 as n) | (2 as n):\n        pass\n"
        "    case (1 | 2) | 3:\n        pass\n"
        "    case (1 as a) as b:\n        pass\n"
        "    case [1 | 2, [_] as q]:\n        pass\n");
}

/* Hostile sizes: a deep tree prints, a small limit fails the strbuf. */
static void test_limits(void) {
    upy_expr *e = name("x");
    upy_strbuf sb;
    int i;

    for (i = 0; i < 1000; i++)
        e = bin(UPY_BIN_ADD, name("y"), e);
    upy_sb_init(&sb, 0);
    upy_print_expr(&sb, e, ver(13));
    if (!list_mode) {
        if (sb.failed || strncmp(sb.data, "y + (y + (", 10) != 0) {
            failed++;
            printf("FAIL deep tree\n");
        } else {
            passed++;
        }
    }
    upy_sb_release(&sb);
    upy_sb_init(&sb, 100);
    upy_print_module(&sb, &(upy_stmt_list){NULL, 0}, ver(13));
    {
        upy_stmt_list b = body(1, sexpr(e));
        upy_print_module(&sb, &b, ver(13));
    }
    if (!list_mode) {
        if (!sb.failed) {
            failed++;
            printf("FAIL limit not reached\n");
        } else {
            passed++;
        }
    }
    upy_sb_release(&sb);
}

int main(int argc, char **argv) {
    list_mode = argc > 1 && strcmp(argv[1], "--list") == 0;
    upy_arena_init(&arena, 0);
    test_precedence();
    test_displays();
    test_constants();
    test_special_numbers();
    test_fstrings();
    test_statements();
    test_compound();
    test_definitions();
    test_match();
    test_limits();
    upy_arena_release(&arena);
    if (!list_mode)
        printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
