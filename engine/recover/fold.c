/*
 * fold.c - putting the values spill.c held in temporaries back into the
 * expressions that use them, where that cannot change what runs.
 *
 * spill.c assigns every value the bytecode keeps on the stack across a
 * statement to a __stackN temporary, in the order the code computed the
 * values: right, but it reads as the stack machine, not as the intent.
 * Dynamo's code, for one, comes out as
 *
 *     __stack2 = []
 *     __stack0 = __resume_at_102_2
 *     __stack1 = __stack6[-1]
 *     del __stack6[-1]
 *     return __stack0(*[__stack2, __stack6, *__stack1])
 *
 * This pass, run once a function's statements are recovered and only in
 * a function that has temporaries, moves the value of `__stackN = value`
 * into the one place that reads __stackN, and drops the assignment, when
 * the value evaluated there does the same as it did where it was:
 *
 * - The one read is in the same statement list, later, in a part of a
 *   statement that runs unconditionally and once, before anything whose
 *   evaluation is not walked here (an if's or a for's body, a boolean
 *   operator's second operand, a lambda, a comprehension: barriers).
 * - Everything evaluated between the assignment and the read, in
 *   Python's order of evaluation, commutes with the value:
 *     a store or del of a local the value reads does not;
 *     an effect (a call, an attribute or item read or store, an operator,
 *     an unpacking; anything that may run code) does not commute with a
 *     value that has effects or reads a global, a cell or a free
 *     variable;
 *     a read of a global, or of a local that may be unbound (neither a
 *     temporary nor an argument the code never rebinds), does not
 *     commute with a value that may raise: which error comes first
 *     would change;
 *     a list, set or dict display does not commute with another (the
 *     effect check numbers new containers in the order they are made);
 *     inside a try or with statement a value that may raise does not
 *     cross a store (a handler, or a with that swallows the exception,
 *     would see the store).
 *   A value "may raise" when it has effects or reads a global or a
 *   local that may be unbound.  Reads of temporaries and of arguments
 *   never rebound commute with everything but stores of them.
 *
 * Global reads are never moved across an effect: a call may rebind any
 * global, and this engine cannot know what the call does.  The one
 * exception is a global the caller vouches for (upy_recover_options'
 * stable_globals, unpyc_decompile_options in unpyc.h): bound before the
 * code runs and rebound by nothing while it runs, its read cannot raise
 * and gives the same value anywhere, so it commutes with everything
 * but a store of that global (a barrier).  The explorer vouches for the
 * names Dynamo installs under fresh names (__compiled_fn_*,
 * __resume_at_*), and tells the effect check (unpyc/effects.py) the same
 * names, so that it does not tag their reads with the effects before
 * them.  Then Dynamo's
 *
 *     __stack0 = __compiled_fn_1
 *     tmp_2 = record_pregraph_bytecode_enter()
 *     record_pregraph_bytecode_exit(tmp_2)
 *     graph_out_0 = __stack0(a, b)
 *
 * (torch 2.13 calls the two between loading the graph and calling it)
 * is `graph_out_0 = __compiled_fn_1(a, b)` after them; without the
 * claim __stack0 stays.  In the example above
 * `__stack1 = __stack6[-1]` cannot move past `del __stack6[-1]` (an
 * effect, and an item read must stay before it), and __stack0 cannot
 * move past either; `__stack2 = []` folds (it cannot raise, and no
 * other display is between it and its use):
 *
 *     __stack0 = __resume_at_102_2
 *     __stack1 = __stack6[-1]
 *     del __stack6[-1]
 *     return __stack0(*[[], __stack6, *__stack1])
 *
 * A slice swap Dynamo makes of a list it holds,
 *
 *     __stack9 = __stack8[1]
 *     __stack10 = __stack8[0]
 *     __stack8[0:] = [__stack9, __stack10]
 *
 * is `__stack8[0:] = [__stack8[1], __stack8[0]]`: temporaries are folded
 * from the last to the first, so __stack10 goes first (only the read of
 * the temporary __stack9 is between), then __stack9 (nothing between).
 *
 * A walrus `(tmp := value)` whose name nothing reads, and that one del
 * later in the same list unbinds (Dynamo's tmp_N around its calls), is
 * `value`, and the del goes: `tmp_2 = (tmp_1 := f)()` ... `del tmp_1`
 * is `tmp_2 = f()`.  The walrus must run unconditionally before the del
 * (else the del could raise where it ran unbound).
 */
#include <stdlib.h>
#include <string.h>

#include "recover/rec.h"

#define SPILL_PREFIX "__stack"

/* Locals a moved value may read and still be summarized. */
#define FOLD_MAX_READS 16
/* Nodes walked per question, so that shared subtrees cannot make a walk
 * take exponential time; past it the answer is "not proven". */
#define FOLD_WALK_BUDGET 20000
/* Nodes counted for all temporaries of a function at once. */
#define FOLD_COUNT_BUDGET (1u << 22)
/* Occurrences counted once per function: one more than any fold needs. */
#define FOLD_MANY 3

typedef enum fold_event {
    EV_READ_LOCAL,  /* of a temporary or a stable argument: always bound */
    EV_READ_MAYBE,  /* of another local: may raise UnboundLocalError */
    EV_READ_GLOBAL, /* a global, cell or free variable */
    EV_READ_STABLE, /* a global the caller vouches is bound, never rebound */
    EV_STORE,       /* a store or del of a local */
    EV_EFFECT,
    EV_ALLOC,
    EV_BARRIER,
} fold_event;

/* What a value does when it is evaluated. */
typedef struct fold_value {
    const char *locals[FOLD_MAX_READS];
    uint32_t n_locals;
    uint8_t reads_global, reads_maybe, effect, allocs, stores, barrier;
} fold_value;

typedef struct fold_walk {
    rec *r;
    const char *use;      /* the name whose read ends the walk, or NULL */
    const char *walrus;   /* the name whose walrus ends it, or NULL */
    upy_expr **found;     /* where that read or walrus is */
    const fold_value *moved; /* checked at each event; NULL: summarize */
    fold_value sum;
    int protected_;       /* inside a try or with statement */
    int failed;
    uint32_t budget;
} fold_walk;

static int same_name(const char *a, const char *b) {
    return a && b && strcmp(a, b) == 0;
}

static int in_seq(const upy_object *seq, const char *name) {
    uint32_t k;
    for (k = 0; k < upy_seq_len(seq); k++)
        if (same_name(rec_str(upy_seq_item(seq, k)), name))
            return 1;
    return 0;
}

static int is_spill_name(const char *name) {
    upy_expr e;
    e.kind = UPY_E_NAME;
    e.u.name = name;
    return rec_is_spilled(&e);
}

/* A fast local: only this frame's own stores and dels change it. */
static int is_fast_local(const rec *r, const char *name) {
    const upy_code *co = r->code;
    if (is_spill_name(name))
        return 1;
    return (co->flags & CO_OPTIMIZED) && in_seq(co->varnames, name) &&
           !in_seq(co->cellvars, name) && !in_seq(co->freevars, name);
}

static void summarize(fold_value *v, fold_event ev, const char *name) {
    switch (ev) {
    case EV_READ_LOCAL:
        if (v->n_locals < FOLD_MAX_READS)
            v->locals[v->n_locals++] = name;
        else
            v->barrier = 1;
        break;
    case EV_READ_MAYBE:
        v->reads_maybe = 1;
        if (v->n_locals < FOLD_MAX_READS)
            v->locals[v->n_locals++] = name;
        else
            v->barrier = 1;
        break;
    case EV_READ_GLOBAL:
        v->reads_global = 1;
        break;
    case EV_READ_STABLE:
        break;
    case EV_STORE:
        v->stores = 1;
        break;
    case EV_EFFECT:
        v->effect = 1;
        break;
    case EV_ALLOC:
        v->allocs = 1;
        break;
    case EV_BARRIER:
        v->barrier = 1;
        break;
    }
}

static int reads_local(const fold_value *v, const char *name) {
    uint32_t k;
    for (k = 0; k < v->n_locals; k++)
        if (same_name(v->locals[k], name))
            return 1;
    return 0;
}

/* Whether the moved value, evaluated after the event instead of before
 * it, does the same (see the header). */
static int commutes(const fold_walk *w, fold_event ev, const char *name) {
    const fold_value *v = w->moved;
    int may_raise = v->effect || v->reads_global || v->reads_maybe;
    switch (ev) {
    case EV_READ_LOCAL:
    case EV_READ_STABLE:
        return 1;
    case EV_READ_MAYBE:
    case EV_READ_GLOBAL:
        return !may_raise;
    case EV_STORE:
        return !reads_local(v, name) && !(w->protected_ && may_raise);
    case EV_EFFECT:
        return !may_raise;
    case EV_ALLOC:
        return !v->allocs;
    case EV_BARRIER:
        break;
    }
    return 0;
}

/* Takes one event; 1 when the walk stops (a barrier, or a failure). */
static int event(fold_walk *w, fold_event ev, const char *name) {
    if (!w->moved)
        summarize(&w->sum, ev, name);
    else if (!commutes(w, ev, name))
        w->failed = 1;
    return w->failed || ev == EV_BARRIER;
}

static int walk_expr(fold_walk *w, upy_expr **slot);

static int walk_list(fold_walk *w, upy_expr_list list) {
    uint32_t k;
    for (k = 0; k < list.len; k++)
        if (walk_expr(w, &list.items[k]))
            return 1;
    return 0;
}

/* Walks slot if set; its event after (EV_BARRIER... or -1 for none). */
static int walk_then(fold_walk *w, upy_expr **slot, int ev) {
    if (slot && *slot && walk_expr(w, slot))
        return 1;
    return ev >= 0 ? event(w, (fold_event)ev, NULL) : 0;
}

/* A global of a function that the caller vouches for (see the header);
 * elsewhere the name may be a class body's or module's own variable. */
static int is_stable_global(const rec *r, const char *name) {
    const upy_recover_options *o = r->options;
    size_t k;
    if (!(r->code->flags & CO_OPTIMIZED))
        return 0;
    for (k = 0; k < o->n_stable_globals; k++)
        if (same_name(o->stable_globals[k], name))
            return 1;
    return 0;
}

static int walk_name(fold_walk *w, upy_expr **slot) {
    const char *name = (*slot)->u.name;
    int stable;
    if (w->use && same_name(name, w->use)) {
        w->found = slot;
        return 1;
    }
    if ((*slot)->cell)
        return event(w, EV_BARRIER, NULL);
    if (!is_fast_local(w->r, name))
        return event(w, is_stable_global(w->r, name) ? EV_READ_STABLE
                                                     : EV_READ_GLOBAL,
                     name);
    stable = is_spill_name(name) ? 1 : rec_is_stable_arg(w->r, *slot);
    if (stable < 0)
        return event(w, EV_BARRIER, NULL);
    return event(w, stable ? EV_READ_LOCAL : EV_READ_MAYBE, name);
}

static int walk_call(fold_walk *w, upy_expr *e) {
    uint32_t k;
    if (walk_expr(w, &e->u.call.func) || walk_list(w, e->u.call.args))
        return 1;
    for (k = 0; k < e->u.call.n_keywords; k++)
        if (walk_then(w, &e->u.call.keywords[k].value,
                      e->u.call.keywords[k].name ? -1 : EV_EFFECT))
            return 1;
    return event(w, EV_EFFECT, NULL);
}

static int walk_dict(fold_walk *w, upy_expr *e) {
    uint32_t k;
    for (k = 0; k < e->u.dict.n; k++)
        if (walk_then(w, &e->u.dict.keys[k], -1) ||
            walk_then(w, &e->u.dict.values[k], EV_EFFECT))
            return 1;
    return event(w, EV_ALLOC, NULL);
}

static int walk_sequence(fold_walk *w, upy_expr *e) {
    if (walk_list(w, e->u.elts))
        return 1;
    if (e->kind == UPY_E_SET && event(w, EV_EFFECT, NULL))
        return 1;
    return e->kind == UPY_E_TUPLE ? 0 : event(w, EV_ALLOC, NULL);
}

/* Operands evaluated in order, then one effect. */
static int walk_operation(fold_walk *w, upy_expr **a, upy_expr **b,
                          upy_expr **c) {
    return walk_then(w, a, -1) || walk_then(w, b, -1) ||
           walk_then(w, c, EV_EFFECT);
}

/* A slice, a comparison (chained ones stop: they may stop early), a
 * walrus (the one looked for, or a store). */
static int walk_parts(fold_walk *w, upy_expr **slot) {
    upy_expr *e = *slot;
    const char *target;
    if (e->kind == UPY_E_SLICE)
        return walk_then(w, &e->u.slice.lower, -1) ||
               walk_then(w, &e->u.slice.upper, -1) ||
               walk_then(w, &e->u.slice.step, -1);
    if (e->kind == UPY_E_COMPARE)
        return e->u.compare.n != 1
                   ? event(w, EV_BARRIER, NULL)
                   : walk_operation(w, &e->u.compare.left, NULL,
                                    &e->u.compare.comparators[0]);
    target = e->u.named.target->u.name;
    if (same_name(target, w->walrus)) {
        w->found = slot;
        return 1;
    }
    return walk_then(w, &e->u.named.value, -1) ||
           event(w, is_fast_local(w->r, target) ? EV_STORE : EV_BARRIER,
                 target);
}

/* The events of evaluating *slot, in Python's order; 1 when the walk
 * stops (the use found, or a failure). */
static int walk_expr(fold_walk *w, upy_expr **slot) {
    upy_expr *e = *slot;
    if (!w->budget || !e)
        return !e ? 0 : event(w, EV_BARRIER, NULL);
    w->budget--;
    switch (e->kind) {
    case UPY_E_CONST:
        return 0;
    case UPY_E_NAME:
        return walk_name(w, slot);
    case UPY_E_ATTR:
        return walk_operation(w, NULL, NULL, &e->u.attr.value);
    case UPY_E_SUBSCRIPT:
        return walk_operation(w, &e->u.subscript.value, NULL,
                              &e->u.subscript.index);
    case UPY_E_SLICE:
    case UPY_E_COMPARE:
    case UPY_E_NAMEDEXPR:
        return walk_parts(w, slot);
    case UPY_E_CALL:
        return walk_call(w, e);
    case UPY_E_BINOP:
        return walk_operation(w, &e->u.binop.left, NULL, &e->u.binop.right);
    case UPY_E_UNARYOP:
        return walk_operation(w, NULL, NULL, &e->u.unary.operand);
    case UPY_E_STARRED: /* unpacking iterates */
        return walk_operation(w, NULL, NULL, &e->u.operand);
    case UPY_E_TUPLE:
    case UPY_E_LIST:
    case UPY_E_SET:
        return walk_sequence(w, e);
    case UPY_E_DICT:
        return walk_dict(w, e);
    default:
        return event(w, EV_BARRIER, NULL);
    }
}

/* The events of storing into (or, del_, deleting) the target in slot. */
static int walk_target(fold_walk *w, upy_expr **slot, int del_) {
    upy_expr *e = *slot;
    uint32_t k;
    switch (e->kind) {
    case UPY_E_NAME:
        if (same_name(e->u.name, w->use) || !is_fast_local(w->r, e->u.name))
            return event(w, EV_BARRIER, NULL);
        /* A del of an unbound local raises. */
        return event(w, EV_STORE, e->u.name) ||
               (del_ && event(w, EV_EFFECT, NULL));
    case UPY_E_ATTR:
        return walk_operation(w, NULL, NULL, &e->u.attr.value);
    case UPY_E_SUBSCRIPT:
        return walk_operation(w, &e->u.subscript.value, NULL,
                              &e->u.subscript.index);
    case UPY_E_TUPLE:
    case UPY_E_LIST:
        if (!del_ && event(w, EV_EFFECT, NULL)) /* the unpacking */
            return 1;
        for (k = 0; k < e->u.elts.len; k++)
            if (walk_target(w, &e->u.elts.items[k], del_))
                return 1;
        return 0;
    default:
        return event(w, EV_BARRIER, NULL);
    }
}

static int walk_targets(fold_walk *w, upy_expr_list targets, int del_) {
    uint32_t k;
    for (k = 0; k < targets.len; k++)
        if (walk_target(w, &targets.items[k], del_))
            return 1;
    return 0;
}

/* The events of s, up to its first part that may run other than once
 * (a barrier); 1 when the walk stops. */
static int walk_stmt(fold_walk *w, upy_stmt *s) {
    switch (s->kind) {
    case UPY_S_EXPR:
        return walk_expr(w, &s->u.expr);
    case UPY_S_ASSIGN:
        return walk_expr(w, &s->u.assign.value) ||
               walk_targets(w, s->u.assign.targets, 0);
    case UPY_S_DELETE:
        return walk_targets(w, s->u.targets, 1);
    case UPY_S_PASS:
        return 0;
    case UPY_S_RETURN:
        return walk_then(w, &s->u.value, EV_BARRIER);
    case UPY_S_IF:
        return walk_then(w, &s->u.if_.test, EV_BARRIER);
    case UPY_S_FOR:
        return walk_then(w, &s->u.for_.iter, EV_BARRIER);
    case UPY_S_RAISE:
        return walk_then(w, &s->u.raise.exc, -1) ||
               walk_then(w, &s->u.raise.cause, EV_BARRIER);
    default:
        return event(w, EV_BARRIER, NULL);
    }
}

/* ---- how often a name occurs, anywhere in the function ---- */

/* Counts one name (n), or every temporary at once (spill_uses). */
typedef struct name_count {
    const char *name;
    uint32_t n; /* FOLD_MANY at most */
    uint8_t *spill_uses; /* per temporary's number, FOLD_MANY at most */
    unsigned n_spills;
    uint32_t budget;
    uint32_t depth; /* expressions being counted, one inside the other */
} name_count;

/* Expressions nested deeper are counted as FOLD_MANY uses: the printer
 * prints none deeper (UPY_PRINT_MAX_DEPTH), and crafted code (a chain of
 * DUP_TOPs and operators) nests them deep enough to overflow the stack of
 * a walk by recursion. */
#define FOLD_MAX_DEPTH 3000

static void count_expr(name_count *c, const upy_expr *e);

static void count_list(name_count *c, upy_expr_list list) {
    uint32_t k;
    for (k = 0; k < list.len; k++)
        count_expr(c, list.items[k]);
}

static void count_arguments(name_count *c, const upy_arguments *a) {
    uint32_t k;
    if (!a)
        return;
    for (k = 0; k < a->n_defaults; k++)
        count_expr(c, a->defaults[k]);
    for (k = 0; k < a->n_kwonly; k++)
        count_expr(c, a->kw_defaults[k]);
    /* Annotations: a def's are evaluated where it is made. */
    for (k = 0; k < a->n_posonly; k++)
        count_expr(c, a->posonly[k].annotation);
    for (k = 0; k < a->n_args; k++)
        count_expr(c, a->args[k].annotation);
    for (k = 0; k < a->n_kwonly; k++)
        count_expr(c, a->kwonly[k].annotation);
    if (a->vararg)
        count_expr(c, a->vararg->annotation);
    if (a->kwarg)
        count_expr(c, a->kwarg->annotation);
}

static void count_comprehension(name_count *c, const upy_expr *e) {
    uint32_t k;
    count_expr(c, e->u.comp.key);
    count_expr(c, e->u.comp.elt);
    for (k = 0; k < e->u.comp.n_generators; k++) {
        count_expr(c, e->u.comp.generators[k].target);
        count_expr(c, e->u.comp.generators[k].iter);
        count_list(c, e->u.comp.generators[k].ifs);
    }
}

/* Counts a name read, stored or deleted; where the count cannot be sure
 * (a node kind with text of its own, the budget spent), it is many. */
static void count_one(name_count *c, const char *name) {
    unsigned long k;
    if (same_name(name, c->name) && c->n < FOLD_MANY)
        c->n++;
    if (!c->spill_uses || !name || !is_spill_name(name))
        return;
    k = strtoul(name + sizeof SPILL_PREFIX - 1, NULL, 10);
    if (k < c->n_spills && c->spill_uses[k] < FOLD_MANY)
        c->spill_uses[k]++;
}

static void count_call(name_count *c, const upy_expr *e) {
    uint32_t k;
    count_expr(c, e->u.call.func);
    count_list(c, e->u.call.args);
    for (k = 0; k < e->u.call.n_keywords; k++)
        count_expr(c, e->u.call.keywords[k].value);
}

static void count_operation(name_count *c, const upy_expr *e) {
    if (e->kind == UPY_E_ATTR) {
        count_expr(c, e->u.attr.value);
    } else if (e->kind == UPY_E_SUBSCRIPT) {
        count_expr(c, e->u.subscript.value);
        count_expr(c, e->u.subscript.index);
    } else if (e->kind == UPY_E_SLICE) {
        count_expr(c, e->u.slice.lower);
        count_expr(c, e->u.slice.upper);
        count_expr(c, e->u.slice.step);
    } else if (e->kind == UPY_E_CALL) {
        count_call(c, e);
    } else if (e->kind == UPY_E_BINOP) {
        count_expr(c, e->u.binop.left);
        count_expr(c, e->u.binop.right);
    } else {
        count_expr(c, e->u.unary.operand);
    }
}

static void count_parts(name_count *c, const upy_expr *e) {
    uint32_t k;
    switch (e->kind) {
    case UPY_E_COMPARE:
        count_expr(c, e->u.compare.left);
        for (k = 0; k < e->u.compare.n; k++)
            count_expr(c, e->u.compare.comparators[k]);
        break;
    case UPY_E_DICT:
        for (k = 0; k < e->u.dict.n; k++) {
            count_expr(c, e->u.dict.keys[k]);
            count_expr(c, e->u.dict.values[k]);
        }
        break;
    case UPY_E_IFEXP:
        count_expr(c, e->u.ifexp.test);
        count_expr(c, e->u.ifexp.body);
        count_expr(c, e->u.ifexp.orelse);
        break;
    case UPY_E_LAMBDA:
        count_arguments(c, e->u.lambda.args);
        count_expr(c, e->u.lambda.body);
        break;
    case UPY_E_FORMATTED:
        count_expr(c, e->u.formatted.value);
        count_expr(c, e->u.formatted.format_spec);
        break;
    case UPY_E_STARRED:
    case UPY_E_AWAIT:
    case UPY_E_YIELD:
    case UPY_E_YIELD_FROM:
        count_expr(c, e->u.operand);
        break;
    case UPY_E_JOINEDSTR:
        count_list(c, e->u.joined);
        break;
    case UPY_E_NAMEDEXPR:
        count_expr(c, e->u.named.target);
        count_expr(c, e->u.named.value);
        break;
    default:
        c->n = FOLD_MANY; /* text, or a type parameter: not looked into */
        break;
    }
}

static void count_kind(name_count *c, const upy_expr *e);

static void count_expr(name_count *c, const upy_expr *e) {
    if (!e || c->n >= FOLD_MANY)
        return;
    if (!c->budget || c->depth >= FOLD_MAX_DEPTH) {
        c->n = FOLD_MANY;
        return;
    }
    c->budget--;
    c->depth++;
    count_kind(c, e);
    c->depth--;
}

static void count_kind(name_count *c, const upy_expr *e) {
    switch (e->kind) {
    case UPY_E_CONST:
        break;
    case UPY_E_NAME:
        count_one(c, e->u.name);
        break;
    case UPY_E_ATTR:
    case UPY_E_SUBSCRIPT:
    case UPY_E_SLICE:
    case UPY_E_CALL:
    case UPY_E_BINOP:
    case UPY_E_UNARYOP:
        count_operation(c, e);
        break;
    case UPY_E_BOOLOP:
        count_list(c, e->u.boolop.values);
        break;
    case UPY_E_TUPLE:
    case UPY_E_LIST:
    case UPY_E_SET:
        count_list(c, e->u.elts);
        break;
    case UPY_E_LISTCOMP:
    case UPY_E_SETCOMP:
    case UPY_E_DICTCOMP:
    case UPY_E_GENEXP:
        count_comprehension(c, e);
        break;
    default:
        count_parts(c, e);
        break;
    }
}

static void count_stmts(name_count *c, const upy_stmt_list *list);

static void count_in_list(upy_stmt_list *list, upy_list_role role,
                          const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    count_stmts((name_count *)arg, list);
}

static void count_defs(name_count *c, const upy_stmt *s) {
    uint32_t k;
    if (s->kind == UPY_S_FUNCTIONDEF) {
        count_one(c, s->u.funcdef.name);
        count_list(c, s->u.funcdef.decorators);
        count_arguments(c, s->u.funcdef.args);
        count_expr(c, s->u.funcdef.returns);
    } else if (s->kind == UPY_S_CLASSDEF) {
        count_one(c, s->u.classdef.name);
        count_list(c, s->u.classdef.decorators);
        count_list(c, s->u.classdef.bases);
        for (k = 0; k < s->u.classdef.n_keywords; k++)
            count_expr(c, s->u.classdef.keywords[k].value);
    } else if (s->kind == UPY_S_GLOBAL || s->kind == UPY_S_NONLOCAL) {
        for (k = 0; k < s->u.names.n; k++)
            count_one(c, s->u.names.names[k]);
    } else if (s->kind == UPY_S_IMPORT || s->kind == UPY_S_IMPORT_FROM) {
        for (k = 0; k < s->u.import.n; k++)
            count_one(c, s->u.import.names[k].asname
                             ? s->u.import.names[k].asname
                             : s->u.import.names[k].name);
    } else if (s->kind != UPY_S_PASS && s->kind != UPY_S_BREAK &&
               s->kind != UPY_S_CONTINUE && s->kind != UPY_S_UNRECOVERED) {
        c->n = FOLD_MANY; /* match, type alias: not looked into */
    }
}

static void count_compound(name_count *c, const upy_stmt *s) {
    uint32_t k;
    if (s->kind == UPY_S_IF)
        count_expr(c, s->u.if_.test);
    else if (s->kind == UPY_S_WHILE)
        count_expr(c, s->u.while_.test);
    else if (s->kind == UPY_S_FOR) {
        count_expr(c, s->u.for_.target);
        count_expr(c, s->u.for_.iter);
    } else if (s->kind == UPY_S_WITH) {
        for (k = 0; k < s->u.with.n_items; k++) {
            count_expr(c, s->u.with.items[k].context);
            count_expr(c, s->u.with.items[k].vars);
        }
    } else if (s->kind == UPY_S_TRY) {
        for (k = 0; k < s->u.try_.n_handlers; k++) {
            count_expr(c, s->u.try_.handlers[k].type);
            count_one(c, s->u.try_.handlers[k].name);
        }
    } else {
        count_defs(c, s);
    }
    upy_stmt_each_list((upy_stmt *)s, count_in_list, c);
}

static void count_stmt(name_count *c, const upy_stmt *s) {
    switch (s->kind) {
    case UPY_S_EXPR:
        count_expr(c, s->u.expr);
        break;
    case UPY_S_RETURN:
        count_expr(c, s->u.value);
        break;
    case UPY_S_ASSIGN:
        count_list(c, s->u.assign.targets);
        count_expr(c, s->u.assign.value);
        break;
    case UPY_S_AUGASSIGN:
        count_expr(c, s->u.augassign.target);
        count_expr(c, s->u.augassign.value);
        break;
    case UPY_S_ANNASSIGN:
        count_expr(c, s->u.annassign.target);
        count_expr(c, s->u.annassign.annotation);
        count_expr(c, s->u.annassign.value);
        break;
    case UPY_S_DELETE:
        count_list(c, s->u.targets);
        break;
    case UPY_S_RAISE:
        count_expr(c, s->u.raise.exc);
        count_expr(c, s->u.raise.cause);
        break;
    case UPY_S_ASSERT:
        count_expr(c, s->u.assert_.test);
        count_expr(c, s->u.assert_.msg);
        break;
    default:
        count_compound(c, s);
        break;
    }
}

static void count_stmts(name_count *c, const upy_stmt_list *list) {
    uint32_t k;
    for (k = 0; k < list->len && c->n < FOLD_MANY; k++)
        count_stmt(c, list->items[k]);
}

/* How often name occurs in the function's body: 0 .. FOLD_MANY. */
static uint32_t occurrences(const upy_stmt_list *body, const char *name) {
    name_count c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.budget = FOLD_WALK_BUDGET;
    count_stmts(&c, body);
    return c.n;
}

/* ---- the pass ---- */

typedef struct fold_pass {
    rec *r;
    upy_stmt_list *body;
    name_count uses; /* of every temporary, counted once */
    int protected_;  /* try or with statements around the list */
} fold_pass;

static void drop(upy_stmt_list *list, uint32_t k) {
    memmove(list->items + k, list->items + k + 1,
            (list->len - k - 1) * sizeof *list->items);
    list->len--;
}

static void start_walk(fold_walk *w, const fold_pass *p) {
    memset(w, 0, sizeof *w);
    w->r = p->r;
    w->protected_ = p->protected_;
    w->budget = FOLD_WALK_BUDGET;
}

/* The temporary `__stackN = value` at list[at], assigned once and read
 * once: folded into that read where the header's rules allow. */
static void fold_temporary(fold_pass *p, upy_stmt_list *list, uint32_t at) {
    upy_stmt *def = list->items[at];
    const char *name;
    fold_walk w;
    uint32_t k;
    if (def->kind != UPY_S_ASSIGN || def->u.assign.targets.len != 1 ||
        !rec_is_spilled(def->u.assign.targets.items[0]))
        return;
    name = def->u.assign.targets.items[0]->u.name;
    k = (uint32_t)strtoul(name + sizeof SPILL_PREFIX - 1, NULL, 10);
    if (k >= p->uses.n_spills || p->uses.spill_uses[k] != 2)
        return;
    start_walk(&w, p);
    if (walk_expr(&w, &def->u.assign.value) || w.sum.stores)
        return;
    w.moved = &w.sum;
    w.use = name;
    for (k = at + 1; k < list->len && !w.found; k++)
        if (walk_stmt(&w, list->items[k]) && !w.found)
            return;
    if (!w.found)
        return;
    *w.found = def->u.assign.value;
    drop(list, at);
}

/* `del name` at list[at], name a local bound only by a walrus that runs
 * unconditionally in an earlier statement of the list: both go. */
static void fold_walrus(fold_pass *p, upy_stmt_list *list, uint32_t at) {
    upy_stmt *del = list->items[at];
    const char *name;
    fold_walk w;
    uint32_t k;
    if (del->kind != UPY_S_DELETE || del->u.targets.len != 1 ||
        del->u.targets.items[0]->kind != UPY_E_NAME)
        return;
    name = del->u.targets.items[0]->u.name;
    if (!is_fast_local(p->r, name) || occurrences(p->body, name) != 2)
        return;
    for (k = at; k-- > 0;) {
        start_walk(&w, p);
        w.walrus = name;
        walk_stmt(&w, list->items[k]);
        if (w.found) {
            *w.found = (*w.found)->u.named.value;
            drop(list, at);
            return;
        }
    }
}

static void fold_list(fold_pass *p, upy_stmt_list *list);

static void fold_in_list(upy_stmt_list *list, upy_list_role role,
                         const upy_stmt *holder, void *arg) {
    fold_pass *p = arg;
    int guarded = holder->kind == UPY_S_TRY || holder->kind == UPY_S_WITH;
    (void)role;
    p->protected_ += guarded;
    fold_list(p, list);
    p->protected_ -= guarded;
}

static void fold_list(fold_pass *p, upy_stmt_list *list) {
    uint32_t k;
    for (k = 0; k < list->len; k++)
        upy_stmt_each_list(list->items[k], fold_in_list, p);
    for (k = list->len; k-- > 0;)
        fold_walrus(p, list, k);
    for (k = list->len; k-- > 0;)
        fold_temporary(p, list, k);
}

int rec_fold_spills(rec *r, upy_stmt_list *body) {
    fold_pass p;
    if (!r->spills)
        return SUCCESS;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.body = body;
    p.uses.n_spills = r->spills;
    p.uses.spill_uses = upy_arena_array(r->arena, r->spills, 1);
    p.uses.budget = FOLD_COUNT_BUDGET;
    if (!p.uses.spill_uses)
        return rec_oom(r);
    count_stmts(&p.uses, body);
    /* A count that could not be sure (see count_one) folds nothing. */
    if (p.uses.n < FOLD_MANY)
        fold_list(&p, body);
    return SUCCESS;
}
