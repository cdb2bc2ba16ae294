/*
 * eval.c - running one neutral instruction on the symbolic stack.
 *
 * Each instruction that computes a value builds its expression from the
 * slots it pops; instructions that end a statement hand the popped slots to
 * store.c (stores) or emit the statement here (expression statements,
 * raise, delete, imports).  Control flow is not handled here: the
 * structurer (structure.c) owns jumps, returns and loops.
 */
#include <stdlib.h>
#include <string.h>

#include "recover/rec.h"

static upy_expr *new_expr(rec *r, upy_expr_kind kind) {
    upy_expr *e = upy_expr_new(r->arena, kind);
    if (!e)
        rec_oom(r);
    return e;
}

/* Pops n slots into a fresh array, bottom first. */
static sval *pop_n(rec *r, uint32_t n) {
    sval *items = upy_arena_array(r->scratch, n ? n : 1, sizeof(sval));
    uint32_t k;
    if (!items) {
        rec_oom(r);
        return NULL;
    }
    for (k = n; k-- > 0;)
        items[k] = rec_pop(r);
    return items;
}

static upy_expr_list expr_list(rec *r, const sval *items, uint32_t n) {
    upy_expr_list list = {NULL, 0};
    uint32_t k;
    list.items = upy_arena_array(r->arena, n ? n : 1, sizeof(upy_expr *));
    if (!list.items) {
        rec_oom(r);
        return list;
    }
    for (k = 0; k < n; k++)
        list.items[k] = rec_value(r, items[k]);
    list.len = n;
    return list;
}

static int push_value(rec *r, upy_expr *e) {
    if (!e)
        return ERROR;
    return rec_push(r, SV_VALUE, e);
}

/* Items of a constant tuple as constant expressions. */
static upy_expr_list const_items(rec *r, const upy_object *tuple) {
    upy_expr_list list = {NULL, 0};
    uint32_t k, n = (uint32_t)upy_seq_len(tuple);
    list.items = upy_arena_array(r->arena, n ? n : 1, sizeof(upy_expr *));
    if (!list.items) {
        rec_oom(r);
        return list;
    }
    for (k = 0; k < n; k++)
        list.items[k] = rec_const(r, upy_seq_item(tuple, k));
    list.len = n;
    return list;
}

/* One argument spread whole: f(*e). */
static upy_expr_list spread(rec *r, upy_expr *e) {
    upy_expr_list list = {NULL, 0};
    list.items = upy_arena_array(r->arena, 1, sizeof(upy_expr *));
    if (!list.items) {
        rec_oom(r);
        return list;
    }
    list.items[0] = new_expr(r, UPY_E_STARRED);
    if (list.items[0])
        list.items[0]->u.operand = e;
    list.len = 1;
    return list;
}

/* A list display or tuple display as a list of elements (for the
 * *args of a call and for LIST_TO_TUPLE). */
static upy_expr_list display_items(rec *r, upy_expr *e) {
    if (e && (e->kind == UPY_E_LIST || e->kind == UPY_E_TUPLE))
        return e->u.elts;
    if (e && e->kind == UPY_E_CONST && e->u.constant &&
        e->u.constant->kind == UPY_TUPLE)
        return const_items(r, e->u.constant);
    return spread(r, e);
}

static int append_elt(rec *r, upy_expr_list *list, upy_expr *e) {
    upy_expr **items =
        upy_arena_array(r->arena, list->len + 1, sizeof(upy_expr *));
    if (!items)
        return rec_oom(r);
    if (list->len)
        memcpy(items, list->items, list->len * sizeof *items);
    items[list->len++] = e;
    list->items = items;
    return SUCCESS;
}

/* (One copy for all of more: item by item, a folded display of n
 * constants took n copies of the list, quadratic in time and memory --
 * a list literal of 10,000 ints ran out of a module's memory.) */
static int append_list(rec *r, upy_expr_list *list, upy_expr_list more) {
    upy_expr **items;
    if (!more.len)
        return SUCCESS;
    items = upy_arena_array_uncleared(r->arena, (size_t)list->len + more.len,
                                      sizeof(upy_expr *));
    if (!items)
        return rec_oom(r);
    if (list->len)
        memcpy(items, list->items, list->len * sizeof *items);
    memcpy(items + list->len, more.items, more.len * sizeof *items);
    list->items = items;
    list->len += more.len;
    return SUCCESS;
}

/* The items of a folded set display. The compiler folds only displays of
 * three or more constants, but the frozenset keeps one of each equal item
 * ({1, 1.0, True} folds to frozenset({1})), so fewer items are repeated
 * up to three: a shorter display would be built item by item. */
static upy_expr_list folded_set_items(rec *r, const upy_object *set) {
    upy_expr_list list = const_items(r, set);
    while (list.len && list.len < 3)
        if (append_elt(r, &list, rec_const(r, upy_seq_item(set, 0))))
            break;
    return list;
}

/* LIST_EXTEND / SET_UPDATE of a display: a constant tuple or frozenset
 * spreads its items (the compiler folds long literal displays that way),
 * anything else is a starred element. */
static int extend_display(rec *r, upy_expr *display, upy_expr *iterable) {
    if (iterable->kind == UPY_E_CONST && iterable->u.constant &&
        (iterable->u.constant->kind == UPY_TUPLE ||
         iterable->u.constant->kind == UPY_FROZENSET) &&
        display->u.elts.len == 0)
        return append_list(r, &display->u.elts,
                           iterable->u.constant->kind == UPY_FROZENSET
                               ? folded_set_items(r, iterable->u.constant)
                               : const_items(r, iterable->u.constant));
    {
        upy_expr *star = new_expr(r, UPY_E_STARRED);
        if (!star)
            return ERROR;
        star->u.operand = iterable;
        return append_elt(r, &display->u.elts, star);
    }
}

static upy_expr *make_tuple(rec *r, upy_expr_list elts) {
    upy_expr *t = new_expr(r, UPY_E_TUPLE);
    if (t)
        t->u.elts = elts;
    return t;
}

/* The callable of a call from its one or two slots. */
static sval callable_of(rec *r, const sval *slots, uint32_t nslots) {
    if (nslots == 1)
        return slots[0];
    if (slots[0].kind == SV_NULL)
        return slots[1];
    if (slots[1].kind == SV_NULL || slots[1].kind == SV_SELF)
        return slots[0];
    (void)r;
    return slots[0];
}

/* Whether the entries of a dict display can be keyword arguments: each a
 * `**` entry (no key) or a string constant that is an identifier, none
 * twice.  Else only the source's `**{...}` gives its code: `f(*a, **{k:
 * v})`, `f(**{'a.b': v})` (3.8-3.10 pass keywords after *args in a dict
 * display too, so both spellings give the same code where the keys allow
 * either). */
static int keys_are_names(const upy_expr *dict) {
    uint32_t k, j, n = dict->u.dict.n;
    for (k = 0; k < n; k++) {
        const upy_expr *key = dict->u.dict.keys[k];
        const char *name =
            key && key->kind == UPY_E_CONST ? rec_str(key->u.constant) : NULL;
        if (!key)
            continue;
        if (!name || strlen(name) != key->u.constant->u.bytes.len ||
            !upy_is_identifier(name))
            return 0;
        for (j = 0; j < k; j++)
            if (dict->u.dict.keys[j] &&
                strcmp(rec_str(dict->u.dict.keys[j]->u.constant), name) == 0)
                return 0;
    }
    return 1;
}

/* Keyword arguments from a **kwargs dict display built for
 * CALL_FUNCTION_EX. */
static void keywords_from_dict(rec *r, upy_expr *call, upy_expr *dict) {
    uint32_t k, n;
    if (!dict || dict->kind != UPY_E_DICT || !keys_are_names(dict)) {
        call->u.call.keywords =
            upy_arena_array(r->arena, 1, sizeof(upy_keyword));
        if (!call->u.call.keywords) {
            rec_oom(r);
            return;
        }
        call->u.call.keywords[0].name = NULL;
        call->u.call.keywords[0].value = dict;
        call->u.call.n_keywords = 1;
        return;
    }
    n = dict->u.dict.n;
    call->u.call.keywords =
        upy_arena_array(r->arena, n ? n : 1, sizeof(upy_keyword));
    if (!call->u.call.keywords) {
        rec_oom(r);
        return;
    }
    for (k = 0; k < n; k++) {
        upy_expr *key = dict->u.dict.keys[k];
        call->u.call.keywords[k].value = dict->u.dict.values[k];
        call->u.call.keywords[k].name =
            key && key->kind == UPY_E_CONST ? rec_str(key->u.constant) : NULL;
    }
    call->u.call.n_keywords = n;
}

static int eval_call(rec *r, const upy_nin *in) {
    uint32_t nkw = in->obj ? (uint32_t)upy_seq_len(in->obj) : 0;
    uint32_t nargs = (uint32_t)in->arg, nslots = in->flags & N_ONE_SLOT ? 1 : 2;
    uint32_t npos, k;
    sval *args, *slots, fn;
    upy_expr *call;

    if (nkw > nargs)
        nkw = nargs;
    args = pop_n(r, nargs);
    slots = pop_n(r, nslots);
    if (!args || !slots)
        return ERROR;
    npos = nargs - nkw;
    fn = callable_of(r, slots, nslots);
    if (nslots == 2 && slots[1].kind == SV_SELF && slots[0].kind == SV_VALUE)
        fn = slots[0];

    if (fn.kind == SV_BUILD_CLASS)
        return rec_class_call(r, args, npos, in->obj, nkw);
    if (nslots == 2 && slots[0].kind == SV_FUNCTION && slots[0].pend &&
        slots[0].pend->kind == P_GENERIC && slots[1].kind == SV_VALUE) {
        /* 3.11+ passes the first argument in the self slot. */
        sval *all = upy_arena_array(r->scratch, nargs + 1, sizeof(sval));
        if (!all)
            return rec_oom(r);
        all[0] = slots[1];
        if (nargs)
            memcpy(all + 1, args, nargs * sizeof *args);
        return rec_generic_call(r, slots[0], all, nargs + 1);
    }
    if (fn.kind == SV_FUNCTION && fn.pend && fn.pend->kind == P_GENERIC)
        return rec_generic_call(r, fn, args, nargs);
    if (nslots == 2 && npos == 0 && nkw == 0 && slots[0].kind == SV_VALUE &&
        slots[1].kind == SV_FUNCTION && slots[1].pend && slots[1].pend->stmt) {
        /* 3.11+ applies a decorator with the function in the self slot. */
        args = &slots[1];
        npos = 1;
        fn = slots[0];
    }
    if (fn.kind == SV_VALUE && npos == 1 && nkw == 0 &&
        args[0].kind == SV_FUNCTION && args[0].pend && args[0].pend->stmt) {
        /* A decorator: the def or class it wraps keeps waiting for its
         * name; decorators apply innermost first. */
        upy_stmt *s = args[0].pend->stmt;
        upy_expr_list *decos = s->kind == UPY_S_CLASSDEF
                                   ? &s->u.classdef.decorators
                                   : &s->u.funcdef.decorators;
        upy_expr **items =
            upy_arena_array(r->arena, decos->len + 1, sizeof(upy_expr *));
        if (!items)
            return rec_oom(r);
        /* (rec_value: a decorator a COPY's twin stored is a walrus,
         * `@(d := f)`.) */
        items[0] = rec_value(r, fn);
        if (decos->len)
            memcpy(items + 1, decos->items, decos->len * sizeof *items);
        decos->items = items;
        decos->len++;
        return rec_push_sval(r, args[0]);
    }
    if (nslots == 2 && npos == 0 && nkw == 0 && slots[0].kind == SV_FUNCTION &&
        slots[0].pend && slots[0].pend->value && !slots[0].pend->stmt)
        /* A comprehension's function called on the iterator of its
         * outermost iterable, which 3.11+ passes in the self slot. */
        return push_value(
            r, rec_comprehension(r, slots[0].pend->value->u.constant->u.code,
                                 rec_value(r, slots[1])));
    if (fn.kind == SV_FUNCTION && fn.pend && fn.pend->value && !fn.pend->stmt &&
        npos == 1 && nkw == 0)
        /* The same before 3.11, with the iterator as the argument. */
        return push_value(
            r, rec_comprehension(r, fn.pend->value->u.constant->u.code,
                                 rec_value(r, args[0])));

    call = new_expr(r, UPY_E_CALL);
    if (!call)
        return ERROR;
    if (fn.kind == SV_ASSERTION) {
        /* assert's AssertionError(msg): CALL 0 with msg in the self
         * slot. */
        call->u.call.func = r->assertion_name;
        if (nslots == 2 && slots[1].kind == SV_VALUE && npos == 0)
            call->u.call.args = expr_list(r, &slots[1], 1);
        else
            call->u.call.args = expr_list(r, args, npos);
        return push_value(r, call);
    }
    call->u.call.func = rec_value(r, fn);
    call->u.call.args = expr_list(r, args, npos);
    if (nkw) {
        call->u.call.keywords =
            upy_arena_array(r->arena, nkw, sizeof(upy_keyword));
        if (!call->u.call.keywords)
            return rec_oom(r);
        for (k = 0; k < nkw; k++) {
            call->u.call.keywords[k].name = rec_str(upy_seq_item(in->obj, k));
            call->u.call.keywords[k].value = rec_value(r, args[npos + k]);
        }
        call->u.call.n_keywords = nkw;
    }
    return push_value(r, call);
}

/* f(1, 2, **k) and f(*(1, 2), **k) both load a constant tuple; they
 * differ in where it sits in co_consts.  The compiler's late pass folds
 * the argument tuple of the first after all code is generated, appending
 * it past every constant (or finding it numbered already: `f(**k, x=())`
 * and `f()` with many keywords), while the literal of the second was
 * folded from the source and numbered where it stands, before every
 * constant the keyword part numbers anew.  So those all numbered after
 * the tuple show a literal.  The tuple's load is the first in the
 * statement; constants loaded before it say nothing, nor do tuples, which
 * the late pass may have folded too (a lambda's defaults). */
static int const_tuple_spread(rec *r, const upy_expr *e, const upy_nin *call) {
    uint32_t end = (uint32_t)(call - r->ncode.ins), i, at = end;
    int32_t idx = -1;
    int any = 0;
    if (!e->u.constant || e->u.constant->kind != UPY_TUPLE)
        return 0;
    for (i = r->stmt_start; i < end && at == end; i++)
        if (ins(r, i)->op == N_LOAD_CONST && ins(r, i)->obj == e->u.constant) {
            at = i;
            idx = ins(r, i)->arg;
        }
    for (i = at + 1; i < end; i++) {
        const upy_nin *in = ins(r, i);
        if (in->op != N_LOAD_CONST || !in->obj || in->obj->kind == UPY_TUPLE ||
            in->obj->kind == UPY_FROZENSET ||
            (r->const_loads && r->const_loads[in->arg] < at))
            continue;
        if (in->arg <= idx)
            return 0;
        any = 1;
    }
    return any;
}

/* The positional arguments of CALL_FUNCTION_EX. The compiler passes
 * f(a, *b) as a tuple built from a list with starred parts, f(a, **k) as
 * a plain tuple, and f(*x) as x itself; so a list display is always a
 * spread literal, f(*[a]), and so is a tuple without starred parts when
 * no keywords follow, as f(a) would have been a plain call. */
static upy_expr_list ex_args(rec *r, upy_expr *e, int kwargs,
                             const upy_nin *call) {
    uint32_t k;
    if (!e || e->kind == UPY_E_LIST)
        return spread(r, e);
    if (e->kind == UPY_E_CONST && kwargs && const_tuple_spread(r, e, call))
        return spread(r, e);
    if (e->kind == UPY_E_TUPLE && !kwargs) {
        for (k = 0; k < e->u.elts.len; k++)
            if (e->u.elts.items[k] && e->u.elts.items[k]->kind == UPY_E_STARRED)
                return e->u.elts;
        return spread(r, e);
    }
    if (e->kind == UPY_E_CONST && !kwargs)
        return spread(r, e);
    return display_items(r, e);
}

/* class C(bases, **kw) or C(*bases): __build_class__ called through
 * CALL_FUNCTION_EX with the tuple SV_CLASS_ARGS holds and the keywords of
 * `call` (made from the ** dict, if any) as the class's. */
static int class_call_ex(rec *r, sval args, upy_expr *call) {
    const upy_expr *rest = args.expr;
    uint32_t n = rest ? rest->u.elts.len : 0, k;
    sval *all = upy_arena_array(r->scratch, n + 1, sizeof(sval));
    upy_stmt *s;
    if (!all)
        return rec_oom(r);
    all[0].kind = SV_FUNCTION;
    all[0].pend = args.pend;
    for (k = 0; k < n; k++) {
        all[k + 1].kind = SV_VALUE;
        all[k + 1].expr = rest->u.elts.items[k];
    }
    RETURN_IF_ERROR(rec_class_call(r, all, n + 1, NULL, 0));
    s = r->stack[r->sp - 1].pend->stmt;
    s->u.classdef.keywords = call->u.call.keywords;
    s->u.classdef.n_keywords = call->u.call.n_keywords;
    return SUCCESS;
}

/* Whether the n items of a tuple being built are a class body's function,
 * its name and bases, with __build_class__ (and maybe its NULL) under
 * them: the arguments of a class statement with ** keywords. */
static int is_class_args(rec *r, const sval *items, int32_t n) {
    const sval *below = rec_peek(r, 1), *under = rec_peek(r, 2);
    return n >= 2 && items[0].kind == SV_FUNCTION && items[0].pend &&
           items[0].pend->kind == P_DEF && !items[0].pend->stmt &&
           items[0].pend->value &&
           ((below && below->kind == SV_BUILD_CLASS) ||
            (below && below->kind == SV_NULL && under &&
             under->kind == SV_BUILD_CLASS));
}

static int eval_call_ex(rec *r, const upy_nin *in) {
    sval kwargs, args, fn, slots[2];
    uint32_t nslots = in->flags & N_ONE_SLOT ? 1 : 2, k;
    upy_expr *call = new_expr(r, UPY_E_CALL);

    if (!call)
        return ERROR;
    memset(&kwargs, 0, sizeof kwargs);
    if (in->flags & N_CALL_KWARGS)
        kwargs = rec_pop(r);
    args = rec_pop(r);
    for (k = nslots; k-- > 0;)
        slots[k] = rec_pop(r);
    fn = callable_of(r, slots, nslots);
    if (fn.kind == SV_BUILD_CLASS && args.kind == SV_CLASS_ARGS) {
        if (in->flags & N_CALL_KWARGS)
            keywords_from_dict(r, call, rec_value(r, kwargs));
        return r->failed ? ERROR : class_call_ex(r, args, call);
    }
    call->u.call.func = rec_value(r, fn);
    call->u.call.args =
        ex_args(r, rec_value(r, args), (in->flags & N_CALL_KWARGS) != 0, in);
    if (in->flags & N_CALL_KWARGS)
        keywords_from_dict(r, call, rec_value(r, kwargs));
    return push_value(r, call);
}

/* Whether two marshalled values are alike: same kind, and for bytes,
 * strings and tuples of them the same content.  Other values (numbers,
 * nested code) count as alike: twin_lambda may err only towards a line
 * break too many. */
static int alike(const upy_object *a, const upy_object *b) {
    size_t k;
    if (!a || !b || a->kind != b->kind)
        return a == b;
    if (a->kind == UPY_STR || a->kind == UPY_BYTES)
        return a->u.bytes.len == b->u.bytes.len &&
               memcmp(a->u.bytes.data, b->u.bytes.data, a->u.bytes.len) == 0;
    if (upy_seq_len(a) != upy_seq_len(b))
        return 0;
    for (k = 0; k < upy_seq_len(a); k++)
        if (!alike(upy_seq_item(a, k), upy_seq_item(b, k)))
            return 0;
    return 1;
}

static int alike_code(const upy_code *a, const upy_code *b) {
    return a->argcount == b->argcount &&
           a->posonlyargcount == b->posonlyargcount &&
           a->kwonlyargcount == b->kwonlyargcount && a->flags == b->flags &&
           alike(a->code, b->code) && alike(a->consts, b->consts) &&
           alike(a->names, b->names) && alike(a->varnames, b->varnames) &&
           alike(a->freevars, b->freevars);
}

/* A hash that objects alike() share. */
static uint64_t alike_hash(const upy_object *o) {
    uint64_t h;
    size_t k;
    if (!o)
        return 1;
    h = ((uint64_t)o->kind + 1) * 0x9E3779B97F4A7C15u;
    if (o->kind == UPY_STR || o->kind == UPY_BYTES) {
        for (k = 0; k < o->u.bytes.len; k++)
            h = (h ^ o->u.bytes.data[k]) * 0x100000001B3u;
        return h;
    }
    for (k = 0; k < upy_seq_len(o); k++)
        h = (h ^ alike_hash(upy_seq_item(o, k))) * 0x100000001B3u;
    return h ^ upy_seq_len(o);
}

/* A hash that code objects alike (as twin_lambda compares them) share. */
static uint64_t alike_code_hash(const upy_code *c) {
    uint64_t h = alike_hash(c->name);
    h = h * 31 + (uint64_t)c->argcount * 7 + (uint64_t)c->posonlyargcount * 3 +
        (uint64_t)c->kwonlyargcount;
    h = h * 31 + (uint64_t)c->flags;
    h = h * 31 + alike_hash(c->code);
    h = h * 31 + alike_hash(c->consts);
    h = h * 31 + alike_hash(c->names);
    h = h * 31 + alike_hash(c->varnames);
    return h * 31 + alike_hash(c->freevars);
}

typedef struct hashed_slot {
    uint64_t hash;
    uint32_t slot;
} hashed_slot;

static int by_hash(const void *a, const void *b) {
    const hashed_slot *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static int alike_lambda(const upy_object *a, const upy_object *b) {
    return alike(a->u.code->name, b->u.code->name) &&
           alike_code(a->u.code, b->u.code);
}

/* Marks each slot of the run [0, n) of equal hashes whose code object is
 * alike another one of the run.  (alike is an equivalence: each is
 * compared with the first of each class found so far.) */
static void mark_twins_in_run(rec *r, const hashed_slot *run, uint32_t n,
                              uint32_t *firsts) {
    const upy_object *consts = r->code->consts;
    uint32_t k, j, classes = 0;
    for (k = 0; k < n; k++) {
        const upy_object *c = upy_seq_item(consts, run[k].slot);
        for (j = 0; j < classes; j++)
            if (alike_lambda(upy_seq_item(consts, firsts[j]), c))
                break;
        if (j == classes)
            firsts[classes++] = run[k].slot;
        else
            r->lambda_twins[run[k].slot] = r->lambda_twins[firsts[j]] = 1;
    }
}

/* Fills r->lambda_twins and r->second_load: every lambda made asks, and
 * each asking scanned the code and the constants (closures made in a
 * loop of statements were quadratic).  Each code constant is found at its
 * first slot (an object twice in co_consts is one). */
static int index_lambdas(rec *r) {
    const upy_object *consts = r->code->consts;
    uint32_t k, n = (uint32_t)upy_seq_len(consts), m = 0, run;
    hashed_slot *slots = upy_arena_array(r->scratch, n + 1, sizeof *slots);
    uint32_t *firsts = upy_arena_array(r->scratch, n + 1, sizeof *firsts);
    uint32_t *loads = upy_arena_array(r->scratch, n + 1, sizeof *loads);
    r->lambda_twins = upy_arena_array(r->scratch, n + 1, 1);
    r->second_load = upy_arena_array(r->scratch, n + 1, sizeof *r->second_load);
    if (!slots || !firsts || !loads || !r->lambda_twins || !r->second_load)
        return rec_oom(r);
    for (k = 0; k < n; k++) {
        const upy_object *c = upy_seq_item(consts, k);
        r->second_load[k] = UINT32_MAX;
        if (c && c->kind == UPY_CODE && rec_entry_index(r, 1, c) == (int32_t)k) {
            slots[m].hash = alike_code_hash(c->u.code);
            slots[m++].slot = k;
        }
    }
    qsort(slots, m, sizeof *slots, by_hash);
    for (k = 0; k < m; k += run) {
        for (run = 1; k + run < m && slots[k + run].hash == slots[k].hash; run++)
            ;
        mark_twins_in_run(r, slots + k, run, firsts);
    }
    for (k = 0; k < r->ncode.count; k++) {
        const upy_nin *in = ins(r, k);
        int32_t slot = in->op == N_LOAD_CONST && in->obj &&
                               in->obj->kind == UPY_CODE
                           ? rec_entry_index(r, 1, in->obj)
                           : -1;
        if (slot >= 0 && ++loads[slot] == 2)
            r->second_load[slot] = k;
    }
    return SUCCESS;
}

/* Whether another constant of the code is a lambda equal to `co` but for
 * its position.  Where the compiler merges those on one line
 * (merges_lambdas_on_a_line), the original had them on lines of their
 * own: so does the output, or they come back as one constant.  Only the
 * first function made of the constant starts a line: the others were on
 * its line, the one constant they are.  -1 when out of memory. */
static int twin_lambda(rec *r, const upy_nin *make, const upy_object *co_obj) {
    int32_t slot;
    if (!r->ncode.layout->merges_lambdas_on_a_line)
        return 0;
    if (!r->lambda_twins)
        RETURN_IF_ERROR(index_lambdas(r));
    /* (A code object is made of a constant, which LOAD_CONST loads.) */
    slot = rec_entry_index(r, 1, co_obj);
    if (slot < 0 || r->second_load[slot] < (uint32_t)(make - r->ncode.ins))
        return 0;
    return r->lambda_twins[slot];
}

/* MAKE_FUNCTION: a lambda becomes an expression, a comprehension's
 * function waits for its call, a def or class body waits for its name. */
static int eval_make_function(rec *r, const upy_nin *in) {
    sval code = rec_pop(r), closure, annotations, kwdefaults, defaults;
    const upy_object *co_obj = code.expr && code.expr->kind == UPY_E_CONST
                                   ? code.expr->u.constant
                                   : NULL;
    const upy_code *co;
    const char *name;
    upy_stmt *def;
    upy_arguments *args;
    int ok = 1, own_line;

    memset(&closure, 0, sizeof closure);
    annotations = kwdefaults = defaults = closure;
    if (in->arg & 8)
        closure = rec_pop(r);
    if (in->arg & 4)
        annotations = rec_pop(r);
    if (in->arg & 2)
        kwdefaults = rec_pop(r);
    if (in->arg & 1)
        defaults = rec_pop(r);
    if (!co_obj || co_obj->kind != UPY_CODE)
        return push_value(r, rec_placeholder(r));
    co = co_obj->u.code;
    name = rec_str(co->name);
    if (rec_is_lazy_value(r, (uint32_t)(in - r->ncode.ins)))
        return push_value(r, rec_lazy_value(r, co));
    if (rec_is_generic_scope(co)) {
        /* Called at once, with the def's defaults. */
        return rec_push_function(r, P_GENERIC, NULL, code.expr);
    }

    if (!(co->flags & CO_OPTIMIZED)) {
        /* A class body: __build_class__ will be called with it. */
        return rec_push_function(r, P_DEF, NULL, code.expr);
    }
    args = rec_arguments(r, co);
    if (!args)
        return ERROR;
    rec_apply_defaults(r, args, co, defaults.expr, kwdefaults.expr,
                       annotations.expr);
    if (name && strcmp(name, "<lambda>") == 0) {
        upy_expr *lambda = new_expr(r, UPY_E_LAMBDA);
        if (!lambda)
            return ERROR;
        lambda->u.lambda.args = args;
        lambda->u.lambda.body = rec_lambda_body(r, co);
        own_line = twin_lambda(r, in, co_obj);
        if (own_line < 0)
            return ERROR;
        lambda->own_line = (uint8_t)own_line;
        return push_value(r, lambda);
    }
    if (name && name[0] == '<')
        /* <listcomp>, <genexpr>...: called at once on an iterator. */
        return rec_push_function(r, P_DEF, NULL, code.expr);
    def = rec_stmt(r, UPY_S_FUNCTIONDEF);
    if (!def)
        return ERROR;
    def->u.funcdef.name = name ? name : "_";
    def->u.funcdef.args = args;
    def->u.funcdef.returns = rec_return_annotation(r, annotations.expr);
    def->u.funcdef.is_async = rec_is_async(co);
    def->u.funcdef.origin = co;
    def->u.funcdef.body = rec_def_body(r, co, &ok);
    return rec_push_function(r, P_DEF, def, NULL);
}

static upy_expr *binop(rec *r, upy_binop op, upy_expr *left, upy_expr *right) {
    upy_expr *e = new_expr(r, UPY_E_BINOP);
    if (e) {
        e->u.binop.op = op;
        e->u.binop.left = left;
        e->u.binop.right = right;
    }
    return e;
}

static upy_expr *compare(rec *r, upy_cmpop op, upy_expr *left,
                         upy_expr *right) {
    upy_expr *e = new_expr(r, UPY_E_COMPARE);
    if (!e)
        return NULL;
    e->u.compare.left = left;
    e->u.compare.ops = upy_arena_alloc(r->arena, sizeof(upy_cmpop));
    e->u.compare.comparators = upy_arena_alloc(r->arena, sizeof(upy_expr *));
    if (!e->u.compare.ops || !e->u.compare.comparators) {
        rec_oom(r);
        return NULL;
    }
    e->u.compare.ops[0] = op;
    e->u.compare.comparators[0] = right;
    e->u.compare.n = 1;
    return e;
}

/* A slice bound: the compiler pushes None for an omitted one. */
static upy_expr *bound(upy_expr *e) {
    return rec_is_const_none(e) ? NULL : e;
}

static upy_expr *slice(rec *r, upy_expr *lower, upy_expr *upper,
                       upy_expr *step) {
    upy_expr *e = new_expr(r, UPY_E_SLICE);
    if (e) {
        e->u.slice.lower = bound(lower);
        e->u.slice.upper = bound(upper);
        e->u.slice.step = step;
    }
    return e;
}

static upy_expr *subscript(rec *r, upy_expr *value, upy_expr *index) {
    upy_expr *e = new_expr(r, UPY_E_SUBSCRIPT);
    if (e) {
        e->u.subscript.value = value;
        e->u.subscript.index = index;
    }
    return e;
}

static upy_expr *attribute(rec *r, upy_expr *value, const char *name) {
    upy_expr *e = new_expr(r, UPY_E_ATTR);
    if (e) {
        e->u.attr.value = value;
        e->u.attr.attr = rec_source_name(r, name);
    }
    return e;
}

/* An f-string part: a formatted value, or a constant string as is. */
static int add_fstring_part(rec *r, upy_expr *joined, upy_expr *part) {
    if (part->kind == UPY_E_JOINEDSTR)
        return append_list(r, &joined->u.joined, part->u.joined);
    return append_elt(r, &joined->u.joined, part);
}

static upy_expr *as_fstring(rec *r, upy_expr *e) {
    upy_expr *joined;
    if (e->kind == UPY_E_JOINEDSTR)
        return e;
    joined = new_expr(r, UPY_E_JOINEDSTR);
    if (joined && add_fstring_part(r, joined, e))
        return NULL;
    return joined;
}

static int eval_format(rec *r, const upy_nin *in) {
    upy_expr *spec = NULL, *value, *f;
    int conversion = in->arg;
    if (in->flags & N_FORMAT_SPEC)
        spec = rec_value(r, rec_pop(r));
    value = rec_value(r, rec_pop(r));
    /* 3.13 converted the value in an instruction of its own. */
    if (value->kind == UPY_E_FORMATTED &&
        value->u.formatted.format_spec == NULL && conversion < 0) {
        f = value;
    } else {
        f = new_expr(r, UPY_E_FORMATTED);
        if (!f)
            return ERROR;
        f->u.formatted.value = value;
        f->u.formatted.conversion = conversion;
    }
    if (spec)
        f->u.formatted.format_spec = as_fstring(r, spec);
    return push_value(r, f);
}

static int eval_build_string(rec *r, const upy_nin *in) {
    sval *parts = pop_n(r, (uint32_t)in->arg);
    upy_expr *joined = new_expr(r, UPY_E_JOINEDSTR);
    int32_t k;
    if (!parts || !joined)
        return ERROR;
    for (k = 0; k < in->arg; k++)
        if (add_fstring_part(r, joined, rec_value(r, parts[k])))
            return ERROR;
    return push_value(r, joined);
}

static int eval_import_name(rec *r, const upy_nin *in) {
    sval fromlist = rec_pop(r), level = rec_pop(r);
    upy_stmt *s;
    pending *p = upy_arena_alloc(r->arena, sizeof *p);
    const upy_object *fl = fromlist.expr && fromlist.expr->kind == UPY_E_CONST
                               ? fromlist.expr->u.constant
                               : NULL;
    int lvl = level.expr && level.expr->kind == UPY_E_CONST &&
                      level.expr->u.constant &&
                      level.expr->u.constant->kind == UPY_INT
                  ? (int)level.expr->u.constant->u.integer.value
                  : 0;
    if (!p)
        return rec_oom(r);
    s = rec_stmt(r, fl && fl->kind == UPY_TUPLE ? UPY_S_IMPORT_FROM
                                                : UPY_S_IMPORT);
    if (!s)
        return ERROR;
    s->u.import.module = rec_source_name(r, rec_str(in->obj));
    if (s->u.import.module && !s->u.import.module[0])
        s->u.import.module = NULL;
    s->u.import.level = lvl;
    p->kind = P_IMPORT;
    p->stmt = s;
    RETURN_IF_ERROR(rec_push(r, SV_IMPORT, NULL));
    r->stack[r->sp - 1].pend = p;
    return SUCCESS;
}

/* A dict display with room for n items (n set by the caller). */
static upy_expr *new_dict(rec *r, uint32_t n) {
    upy_expr *e = new_expr(r, UPY_E_DICT);
    if (!e)
        return NULL;
    e->u.dict.keys = upy_arena_array(r->arena, n ? n : 1, sizeof(upy_expr *));
    e->u.dict.values = upy_arena_array(r->arena, n ? n : 1, sizeof(upy_expr *));
    if (!e->u.dict.keys || !e->u.dict.values) {
        rec_oom(r);
        return NULL;
    }
    return e;
}

/* The AssertionError of an assert statement, called with its message or
 * not. */
/* Whether e is an async comprehension (before 3.12) whose call the
 * compiler awaits: that await is no `await` of the source. */
static int awaits_own_call(const upy_expr *e) {
    return e &&
           (e->kind == UPY_E_LISTCOMP || e->kind == UPY_E_SETCOMP ||
            e->kind == UPY_E_DICTCOMP) &&
           e->u.comp.awaits_call;
}

static int is_assertion_error(const rec *r, sval v) {
    return v.kind == SV_ASSERTION ||
           (v.kind == SV_VALUE && v.expr && v.expr->kind == UPY_E_CALL &&
            v.expr->u.call.func == r->assertion_name);
}

/* Raising it: the failing end of `assert test, msg`.  The compiler writes
 * LOAD_ASSERTION_ERROR for nothing else, so with no test in front (a
 * constant false one is dropped) the source was `assert False, msg`
 * (or another false constant, which stays numbered);
 * rec_assert puts the test in when there is one. */
static int eval_assert(rec *r, sval exc, upy_ptr_vec *out) {
    upy_stmt *s = rec_stmt(r, UPY_S_ASSERT);
    if (!s)
        return ERROR;
    /* (The dropped test was loaded where the statement starts, before
     * the constants of its message: `assert 0, [s for s in x]`.) */
    s->u.assert_.test = rec_failing_assert_test(r, s->start);
    if (!s->u.assert_.test)
        return ERROR;
    if (exc.kind == SV_VALUE && exc.expr->u.call.args.len == 1)
        s->u.assert_.msg = exc.expr->u.call.args.items[0];
    return rec_emit(r, out, s);
}

/* IMPORT_FROM pushes the attribute; its store names the alias. */
static int eval_import_from(rec *r, const upy_nin *in) {
    sval *module = rec_peek(r, 1);
    upy_expr *e;
    if (!module || module->kind != SV_IMPORT)
        return push_value(
            r, attribute(r, module ? rec_value(r, *module) : rec_placeholder(r),
                         rec_str(in->obj)));
    e = new_expr(r, UPY_E_NAME);
    if (!e)
        return ERROR;
    e->u.name = rec_source_name(r, rec_str(in->obj));
    RETURN_IF_ERROR(rec_push(r, SV_IMPORT, e));
    r->stack[r->sp - 1].pend = module->pend;
    return SUCCESS;
}

/* Whether a value computed after v (not a constant) waits on the stack
 * above the statement base: v comes from under it. */
static int under_later_value(const rec *r, const sval *v) {
    uint32_t k;
    for (k = r->base; k < r->sp; k++) {
        const sval *w = &r->stack[k];
        if (w->kind == SV_VALUE && w->id > v->id && w->expr &&
            w->expr->kind != UPY_E_CONST)
            return 1;
    }
    return 0;
}

/* A value computed and dropped as a statement.  A str constant is an
 * f-string without fields: the compiler drops a str constant statement
 * (compile.c compiler_visit_stmt_expr) or makes it the docstring, and
 * only an f-string's JoinedStr comes out as LOAD_CONST; POP_TOP.  Printed
 * as the plain string, it would become a docstring (first in its body)
 * or no code at all.  NULL on error. */
static upy_expr *dropped_str(rec *r, upy_expr *e) {
    const char *text;
    if (!e || e->kind != UPY_E_CONST || !e->u.constant ||
        e->u.constant->kind != UPY_STR)
        return e;
    text = rec_str(e->u.constant);
    return text && text[0] ? as_fstring(r, e) : new_expr(r, UPY_E_JOINEDSTR);
}

/* The statement of a value computed and dropped.  The compiler drops a
 * constant expression statement (compile.c compiler_visit_stmt_expr), so
 * a constant loaded and popped that is no str (dropped_str) is the
 * annotation of a target that is no simple name, `(x): 0`, which module
 * and class bodies evaluate and drop (compiler_annassign,
 * check_annotation): `(_): 0` again, where the code sets up
 * __annotations__.  NULL on error. */
static upy_stmt *dropped_value(rec *r, upy_expr *e) {
    upy_stmt *s;
    if (e && e->kind == UPY_E_CONST && e->u.constant &&
        e->u.constant->kind != UPY_STR && rec_sets_up_annotations(r)) {
        s = rec_stmt(r, UPY_S_ANNASSIGN);
        if (!s || !(s->u.annassign.target = rec_name(r, "_")))
            return NULL;
        s->u.annassign.annotation = e;
        return s;
    }
    s = rec_stmt(r, UPY_S_EXPR);
    if (s && !(s->u.expr = dropped_str(r, e)))
        return NULL;
    return s;
}

static int pop_top(rec *r, uint32_t i, upy_ptr_vec *out) {
    sval v = rec_pop(r);
    upy_stmt *s;
    const upy_nin *next = i + 1 < r->ncode.count ? ins(r, i + 1) : NULL;
    switch ((sv_kind)v.kind) {
    case SV_BIND:
        /* A target of an unpacking popped: 3.13 writes `a, a = v` (two
         * stores of one name in a row) as POP_TOP; STORE_FAST a, and
         * `a, a, a = v` as POP_TOP; POP_TOP; STORE_FAST a.  (Any other
         * binding popped has no target: `with m:`.) */
        while (next && next->op == N_POP_TOP &&
               next + 1 < r->ncode.ins + r->ncode.count)
            next++;
        if (!v.pend || v.pend->kind != P_UNPACK)
            return SUCCESS;
        return rec_store(
            r,
            rec_name(r, next && next->op == N_STORE ? rec_str(next->obj) : "_"),
            v, 0, out);
    case SV_IMPORT:
        /* The end of `from m import a, b` (or of `import a.b as c`).  In
         * `import a.b.c as d` the module goes from under its attribute b
         * (SWAP 2; POP_TOP) before c is imported from that: the statement
         * is still under way. */
        if (v.pend && v.pend->stmt && !v.expr && !v.pend->complete &&
            !(r->sp && r->stack[r->sp - 1].pend == v.pend)) {
            v.pend->complete = 1;
            return rec_emit(r, out, v.pend->stmt);
        }
        return SUCCESS;
    case SV_VALUE:
        if (v.pend && v.pend->kind == P_CHAIN)
            return rec_finish_chain(r, v, out);
        if (rec_kept_across(&v))
            return SUCCESS;
        if (under_later_value(r, &v)) {
            /* Dropped from under a value computed after it (SWAP; POP_TOP,
             * as no source does): both wait in temporaries, in the order
             * the code computed them, and the dropped one is no statement
             * (rec_emit leaves out a temporary's name). */
            if (rec_push_sval(r, v) || rec_spill(r, r->sp, out))
                return ERROR;
            v = rec_pop(r);
        }
        s = dropped_value(r, v.expr);
        return s ? rec_emit(r, out, s) : ERROR;
    default:
        return SUCCESS;
    }
}

/* The target the store at instruction i binds, value v.  A name stored
 * twice in a row by an unpacking, on two lines (`(_,\n _) = v`), is
 * written on a line of its own where one line would drop the first store
 * (upy_layout.drops_repeated_store). */
static upy_expr *unpack_target(rec *r, uint32_t i, sval v) {
    const upy_nin *in = ins(r, i), *prev = i ? in - 1 : NULL;
    upy_expr *e = rec_name(r, rec_str(in->obj));
    if (e && prev && r->ncode.layout->drops_repeated_store &&
        v.kind == SV_BIND && v.pend && v.pend->kind == P_UNPACK &&
        prev->op == N_STORE && prev->obj == in->obj && prev->arg == in->arg &&
        prev->line >= 0 && in->line > prev->line)
        e->own_line = 1;
    return e;
}

int rec_eval(rec *r, uint32_t i, upy_ptr_vec *out) {
    const upy_nin *in = ins(r, i);
    sval a, b, c, d;
    upy_expr *e;
    upy_stmt *s;

    if (r->failed)
        return ERROR;
    r->evaluated[i] = 1;
    r->eval_at = i;
    switch ((upy_nop)in->op) {
    case N_POP_TOP:
        return pop_top(r, i, out);
    case N_COPY: {
        sval *v = rec_peek(r, (uint32_t)in->arg);
        if (!v)
            return push_value(r, rec_placeholder(r));
        a = *v;
        a.id = r->next_id++;
        if (a.kind == SV_VALUE && !a.pend)
            rec_note_copy(a.expr);
        return rec_push_sval(r, a);
    }
    case N_SWAP: {
        sval *top = rec_peek(r, 1), *other = rec_peek(r, (uint32_t)in->arg);
        if (top && other) {
            a = *top;
            *top = *other;
            *other = a;
        }
        return SUCCESS;
    }
    case N_PUSH_NULL:
        return rec_push(r, SV_NULL, NULL);
    case N_EMPTY_BODY:
    case N_LOOP_HEAD:
        return SUCCESS;
    case N_PASS:
        s = rec_stmt(r, UPY_S_PASS);
        return s ? rec_emit(r, out, s) : ERROR;
    case N_LOAD:
        if (in->arg == UPY_SCOPE_FAST_AND_CLEAR) {
            return rec_push(r, SV_SAVED, rec_name(r, rec_str(in->obj)));
        }
        switch (rec_generic_load(r, rec_str(in->obj))) {
        case 0:
            return push_value(r, rec_name(r, rec_str(in->obj)));
        case 1:
            return SUCCESS;
        default:
            return ERROR;
        }
    case N_LOAD_CONST:
        return push_value(r, rec_const(r, in->obj));
    case N_LOAD_CLOSURE:
        e = rec_name(r, rec_str(in->obj));
        if (e)
            e->cell = 1;
        return push_value(r, e);
    case N_STORE:
        a = rec_pop(r);
        if (rec_generic_store(r, rec_str(in->obj), a))
            return SUCCESS;
        return rec_store(r, unpack_target(r, i, a), a,
                         in->arg == UPY_SCOPE_FAST, out);
    case N_DELETE:
        s = rec_stmt(r, UPY_S_DELETE);
        if (!s || append_elt(r, &s->u.targets, rec_name(r, rec_str(in->obj))))
            return ERROR;
        return rec_emit(r, out, s);
    case N_LOAD_ATTR:
        a = rec_pop(r);
        return push_value(r, attribute(r, rec_value(r, a), rec_str(in->obj)));
    case N_LOAD_METHOD:
        a = rec_pop(r);
        RETURN_IF_ERROR(
            push_value(r, attribute(r, rec_value(r, a), rec_str(in->obj))));
        return rec_push(r, SV_SELF, NULL);
    case N_LOAD_SUPER_ATTR: {
        upy_expr *call = new_expr(r, UPY_E_CALL);
        c = rec_pop(r); /* self */
        b = rec_pop(r); /* class */
        a = rec_pop(r); /* super */
        if (!call)
            return ERROR;
        call->u.call.func = rec_value(r, a);
        if (in->arg & 2) {
            sval two[2];
            two[0] = b;
            two[1] = c;
            call->u.call.args = expr_list(r, two, 2);
        }
        RETURN_IF_ERROR(push_value(r, attribute(r, call, rec_str(in->obj))));
        return in->arg & 1 ? rec_push(r, SV_SELF, NULL) : 0;
    }
    case N_STORE_ATTR:
        a = rec_pop(r); /* owner */
        b = rec_pop(r); /* value */
        return rec_store(r, attribute(r, rec_value(r, a), rec_str(in->obj)), b,
                         0, out);
    case N_DELETE_ATTR:
        a = rec_pop(r);
        s = rec_stmt(r, UPY_S_DELETE);
        if (!s || append_elt(r, &s->u.targets,
                             attribute(r, rec_value(r, a), rec_str(in->obj))))
            return ERROR;
        return rec_emit(r, out, s);
    case N_SUBSCR:
        b = rec_pop(r);
        a = rec_pop(r);
        return push_value(r, subscript(r, rec_value(r, a), rec_value(r, b)));
    case N_STORE_SUBSCR:
        c = rec_pop(r); /* key */
        b = rec_pop(r); /* container */
        a = rec_pop(r); /* value */
        return rec_store(r, subscript(r, rec_value(r, b), rec_value(r, c)), a,
                         0, out);
    case N_DELETE_SUBSCR:
        b = rec_pop(r);
        a = rec_pop(r);
        s = rec_stmt(r, UPY_S_DELETE);
        if (!s || append_elt(r, &s->u.targets,
                             subscript(r, rec_value(r, a), rec_value(r, b))))
            return ERROR;
        return rec_emit(r, out, s);
    case N_SLICE:
        c = rec_pop(r);
        b = rec_pop(r);
        a = rec_pop(r);
        return push_value(
            r, subscript(r, rec_value(r, a),
                         slice(r, rec_value(r, b), rec_value(r, c), NULL)));
    case N_STORE_SLICE:
        d = rec_pop(r);
        c = rec_pop(r);
        b = rec_pop(r);
        a = rec_pop(r);
        return rec_store(
            r,
            subscript(r, rec_value(r, b),
                      slice(r, rec_value(r, c), rec_value(r, d), NULL)),
            a, 0, out);
    case N_BUILD_SLICE:
        c.expr = NULL;
        if (in->arg == 3)
            c = rec_pop(r);
        b = rec_pop(r);
        a = rec_pop(r);
        return push_value(r, slice(r, rec_value(r, a), rec_value(r, b),
                                   in->arg == 3 ? rec_value(r, c) : NULL));
    case N_BINARY:
        b = rec_pop(r);
        a = rec_pop(r);
        e = binop(r, (upy_binop)in->arg, rec_value(r, a), rec_value(r, b));
        RETURN_IF_ERROR(push_value(r, e));
        r->stack[r->sp - 1].inplace = (in->flags & N_INPLACE) != 0;
        return SUCCESS;
    case N_UNARY:
        a = rec_pop(r);
        e = new_expr(r, UPY_E_UNARYOP);
        if (!e)
            return ERROR;
        e->u.unary.op = (upy_unaryop)in->arg;
        e->u.unary.operand = rec_value(r, a);
        return push_value(r, e);
    case N_COMPARE:
        b = rec_pop(r);
        a = rec_pop(r);
        return push_value(r, compare(r, (upy_cmpop)in->arg, rec_value(r, a),
                                     rec_value(r, b)));
    case N_BUILD_TUPLE:
    case N_BUILD_LIST:
    case N_BUILD_SET: {
        sval *items = pop_n(r, (uint32_t)in->arg);
        e = new_expr(r, in->op == N_BUILD_TUPLE  ? UPY_E_TUPLE
                        : in->op == N_BUILD_LIST ? UPY_E_LIST
                                                 : UPY_E_SET);
        if (!items || !e)
            return ERROR;
        /* (3.12+ build the arguments of `class C(*bases)` as a list,
         * extended by the starred parts, then made a tuple.) */
        if (in->op != N_BUILD_SET && is_class_args(r, items, in->arg)) {
            e->u.elts = expr_list(r, items + 1, (uint32_t)in->arg - 1);
            return rec_push_sval(r, (sval){.kind = SV_CLASS_ARGS,
                                           .expr = e,
                                           .pend = items[0].pend});
        }
        e->u.elts = expr_list(r, items, (uint32_t)in->arg);
        return push_value(r, e);
    }
    case N_LIST_TO_TUPLE:
        a = rec_pop(r);
        if (a.kind == SV_CLASS_ARGS)
            return rec_push_sval(
                r, (sval){.kind = SV_CLASS_ARGS,
                          .expr = make_tuple(r, display_items(r, a.expr)),
                          .pend = a.pend});
        return push_value(r, make_tuple(r, display_items(r, rec_value(r, a))));
    case N_LIST_EXTEND:
    case N_SET_UPDATE: {
        sval *target;
        a = rec_pop(r);
        target = rec_peek(r, (uint32_t)in->arg);
        if (!target || !target->expr)
            return SUCCESS;
        if (target->expr->copied || (target->expr->kind != UPY_E_LIST &&
                                     target->expr->kind != UPY_E_SET))
            return rec_mutate_copy(
                r, target, in->op == N_LIST_EXTEND ? "extend" : "update",
                rec_value(r, a), out);
        return extend_display(r, target->expr, rec_value(r, a));
    }
    case N_LIST_APPEND:
    case N_SET_ADD:
    case N_MAP_ADD:
        return rec_comprehension_add(r, in, out);
    case N_BUILD_MAP: {
        uint32_t n = (uint32_t)in->arg, k;
        sval *items = pop_n(r, 2 * n);
        e = new_dict(r, n);
        if (!items || !e)
            return ERROR;
        for (k = 0; k < n; k++) {
            e->u.dict.keys[k] = rec_value(r, items[2 * k]);
            e->u.dict.values[k] = rec_value(r, items[2 * k + 1]);
        }
        e->u.dict.n = n;
        return push_value(r, e);
    }
    case N_BUILD_CONST_KEY_MAP: {
        uint32_t n = (uint32_t)in->arg, k;
        sval keys = rec_pop(r), *values = pop_n(r, n);
        const upy_object *kt = keys.expr && keys.expr->kind == UPY_E_CONST
                                   ? keys.expr->u.constant
                                   : NULL;
        e = new_dict(r, n);
        if (!values || !e)
            return ERROR;
        for (k = 0; k < n; k++) {
            e->u.dict.keys[k] =
                kt ? rec_const(r, upy_seq_item(kt, k)) : rec_placeholder(r);
            e->u.dict.values[k] = rec_value(r, values[k]);
        }
        e->u.dict.n = n;
        return push_value(r, e);
    }
    case N_DICT_UPDATE:
    case N_DICT_MERGE: {
        sval *target;
        upy_expr **keys, **values;
        uint32_t n;
        a = rec_pop(r);
        target = rec_peek(r, (uint32_t)in->arg);
        if (!target || !target->expr)
            return SUCCESS;
        if (target->expr->copied || target->expr->kind != UPY_E_DICT)
            return rec_mutate_copy(r, target, "update", rec_value(r, a), out);
        e = target->expr;
        n = e->u.dict.n;
        keys = upy_arena_array(r->arena, n + 1, sizeof(upy_expr *));
        values = upy_arena_array(r->arena, n + 1, sizeof(upy_expr *));
        if (!keys || !values)
            return rec_oom(r);
        if (n) {
            memcpy(keys, e->u.dict.keys, n * sizeof *keys);
            memcpy(values, e->u.dict.values, n * sizeof *values);
        }
        keys[n] = NULL;
        values[n] = rec_value(r, a);
        e->u.dict.keys = keys;
        e->u.dict.values = values;
        e->u.dict.n = n + 1;
        return SUCCESS;
    }
    case N_UNPACK_SEQUENCE:
    case N_UNPACK_EX:
        a = rec_pop(r);
        if (rec_is_starred_value(r, i)) {
            e = new_expr(r, UPY_E_STARRED);
            if (!e)
                return ERROR;
            e->u.operand = rec_value(r, a);
            return push_value(r, e);
        }
        return rec_unpack(r, in, a, out);
    case N_FORMAT:
        return eval_format(r, in);
    case N_CONVERT:
        a = rec_pop(r);
        e = new_expr(r, UPY_E_FORMATTED);
        if (!e)
            return ERROR;
        e->u.formatted.value = rec_value(r, a);
        e->u.formatted.conversion = in->arg;
        return push_value(r, e);
    case N_BUILD_STRING:
        return eval_build_string(r, in);
    case N_CALL:
        return eval_call(r, in);
    case N_CALL_EX:
        return eval_call_ex(r, in);
    case N_MAKE_FUNCTION:
        return eval_make_function(r, in);
    case N_LOAD_BUILD_CLASS:
        return rec_push(r, SV_BUILD_CLASS, NULL);
    case N_LOAD_ASSERTION_ERROR:
        return rec_push(r, SV_ASSERTION, NULL);
    case N_INTRINSIC:
        return rec_type_param_intrinsic(r, in);
    case N_PUSH_EXC_INFO:
        a = rec_pop(r);
        RETURN_IF_ERROR(rec_push(r, SV_PREV_EXC, NULL));
        return rec_push_sval(r, a);
    case N_POP_EXCEPT:
        rec_pop(r);
        return SUCCESS;
    case N_EXC_MATCH:
    case N_EG_MATCH:
        /* The match result stands for the type it tested. */
        a = rec_pop(r);
        return push_value(r, rec_value(r, a));
    case N_YIELD:
        a = rec_pop(r);
        e = new_expr(r, UPY_E_YIELD);
        if (!e)
            return ERROR;
        e->u.operand = rec_is_const_none(a.expr) ? NULL : rec_value(r, a);
        return push_value(r, e);
    case N_AWAIT:
    case N_YIELD_FROM:
        a = rec_pop(r);
        if (in->op == N_AWAIT && awaits_own_call(a.expr)) {
            a.expr->u.comp.awaits_call = 0;
            return rec_push_sval(r, a);
        }
        e = new_expr(r, in->op == N_AWAIT ? UPY_E_AWAIT : UPY_E_YIELD_FROM);
        if (!e)
            return ERROR;
        e->u.operand = rec_value(r, a);
        return push_value(r, e);
    case N_GET_ITER:
    case N_GET_AITER:
        /* The iterable stays what it was for the source: `for x in a`.
         * (A value a COPY's twin stored is a walrus, `for x in (a :=
         * b)`: read as one here, where the iterable uses it, or the
         * store is lost.) */
        a = rec_pop(r);
        if (a.pend && a.pend->kind == P_CHAIN && !a.pend->complete) {
            a.expr = rec_value(r, a);
            a.pend = NULL;
        }
        a.kind = SV_ITER;
        return rec_push_sval(r, a);
    case N_RAISE:
        if (in->arg == 1 && r->sp && is_assertion_error(r, r->stack[r->sp - 1]))
            return eval_assert(r, rec_pop(r), out);
        s = rec_stmt(r, UPY_S_RAISE);
        if (!s)
            return ERROR;
        if (in->arg == 2)
            s->u.raise.cause = rec_value(r, rec_pop(r));
        if (in->arg >= 1)
            s->u.raise.exc = rec_value(r, rec_pop(r));
        return rec_emit(r, out, s);
    case N_IMPORT_NAME:
        return eval_import_name(r, in);
    case N_IMPORT_FROM:
        return eval_import_from(r, in);
    case N_IMPORT_STAR: {
        upy_alias *star = upy_arena_alloc(r->arena, sizeof *star);
        a = rec_pop(r);
        if (!star)
            return rec_oom(r);
        star->name = "*";
        if (a.kind != SV_IMPORT || !a.pend || !a.pend->stmt)
            return SUCCESS;
        a.pend->stmt->kind = UPY_S_IMPORT_FROM;
        a.pend->stmt->u.import.names = star;
        a.pend->stmt->u.import.n = 1;
        a.pend->complete = 1;
        return rec_emit(r, out, a.pend->stmt);
    }
    case N_SETUP_ANNOTATIONS:
        return SUCCESS;
    case N_PRINT_EXPR:
        a = rec_pop(r);
        s = rec_stmt(r, UPY_S_EXPR);
        if (!s)
            return ERROR;
        s->u.expr = rec_value(r, a);
        return rec_emit(r, out, s);
    case N_LOAD_LOCALS:
        return push_value(r, rec_name(r, "locals()"));
    default:
        /* Control flow and exception machinery belong to the structurer;
         * reaching one here means it did not recognise the construct. */
        return NOT_THIS;
    }
}
