/*
 * spill.c - values the bytecode keeps on the stack across statements.
 *
 * CPython's compiler never leaves a value of its own on the stack when a
 * statement ends, except for what the constructs that own it (a for
 * loop's iterator, a with statement's exit, the exception of a handler)
 * keep there: the other files of this layer rely on that.  Code written
 * by other tools does not keep to it.  torch.compile's Dynamo, for one,
 * loads the compiled graph, stores and deletes temporaries while the
 * graph's arguments wait on the stack, and builds the lists it passes to
 * a resume function with COPY, SWAP, LIST_EXTEND and DELETE_SUBSCR.  No
 * source compiles to that bytecode.  Read as if it were CPython's, it
 * comes out with statements moved before the values they follow, and
 * with a copied list printed twice, as two lists.
 *
 * So where a statement is about to be emitted while plain values still
 * wait above the region's statement depth, those values are assigned, in
 * the order the code computed them, to temporaries named __stackN, and
 * the stack holds the names from then on.  A value the bytecode copied is
 * evaluated once: a copied expression (one COPY duplicated,
 * upy_expr.copied) that a waiting value contains is assigned first, and
 * its node is turned into the temporary's name in place, so that every
 * expression sharing the node reads the name.  A store store.c held back
 * as one pair of a multiple assignment is a statement of its own when
 * another statement comes first; the values that waited under it are
 * assigned before it, even when a later expression has taken them since.
 *
 * An argument that the function never stores, deletes or shares with an
 * inner function (Dynamo's graph arguments, mostly) names the same object
 * for the whole call: it waits under its own name, marked kept, and needs
 * no temporary.
 *
 * The source runs as the bytecode does; it does not compile to the same
 * bytecode, and the first temporary of a code object says so in a
 * comment.  CPython's own bytecode gets here only where the structurer
 * did not recognise what keeps a value (a finally body copied before a
 * return it did not read as one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recover/rec.h"

#define SPILL_PREFIX "__stack"

/* Nodes looked at per spill, for the copied expressions inside waiting
 * values: shared subtrees make the values a graph that a tree walk could
 * take exponential time over. */
#define SPILL_WALK_BUDGET 4096
#define SPILL_MAX_ARGS 64

int rec_is_spilled(const upy_expr *e) {
    const char *digits;
    if (!e || e->kind != UPY_E_NAME ||
        strncmp(e->u.name, SPILL_PREFIX, sizeof SPILL_PREFIX - 1) != 0)
        return 0;
    digits = e->u.name + sizeof SPILL_PREFIX - 1;
    return *digits && strspn(digits, "0123456789") == strlen(digits);
}

/* Names and constants read the same wherever they are printed. */
static int is_plain_leaf(const upy_expr *e) {
    return e->kind == UPY_E_NAME || e->kind == UPY_E_CONST;
}

void rec_note_copy(upy_expr *e) {
    if (e && !is_plain_leaf(e))
        e->copied = 1;
}

/* `target = value`, emitted where the code runs it (straight into out:
 * store.c's assignments go through rec_emit, which spills). */
static int emit_assign_to(rec *r, upy_expr *target, upy_expr *value,
                          upy_ptr_vec *out) {
    upy_stmt *s = upy_stmt_new(r->arena, UPY_S_ASSIGN);
    upy_expr **targets = upy_arena_array(r->arena, 1, sizeof *targets);
    if (!s || !targets)
        return rec_oom(r);
    rec_set_start(r, s, r->stmt_start);
    targets[0] = target;
    s->u.assign.targets.items = targets;
    s->u.assign.targets.len = 1;
    s->u.assign.value = value;
    if (upy_vec_push(r->arena, out, s))
        return rec_oom(r);
    return SUCCESS;
}

/* The first value kept across a statement in a code object brings a
 * comment saying so (the explorer looks for it: such source has the
 * bytecode's effects, never its instructions). */
static int note_kept(rec *r, upy_ptr_vec *out) {
    upy_stmt *note;
    if (r->kept_noted)
        return SUCCESS;
    note = upy_stmt_new(r->arena, UPY_S_UNRECOVERED);
    if (!note)
        return rec_oom(r);
    note->u.unrecovered.text =
        "unpyc: this bytecode keeps values on the stack across "
        "statements;\nthe __stack names hold them, in the order it "
        "computes them,\nan argument it never rebinds keeps its own "
        "name\n(the same effects, not the same bytecode)";
    if (upy_vec_push(r->arena, out, note))
        return rec_oom(r);
    r->kept_noted = 1;
    return SUCCESS;
}

static int spill_node(rec *r, upy_expr *e, upy_ptr_vec *out) {
    upy_expr *value = upy_expr_new(r->arena, UPY_E_CONST);
    upy_expr *target = upy_expr_new(r->arena, UPY_E_NAME);
    char *name = upy_arena_alloc(r->arena, sizeof SPILL_PREFIX + 12);
    if (!value || !target || !name)
        return rec_oom(r);
    RETURN_IF_ERROR(note_kept(r, out));
    snprintf(name, sizeof SPILL_PREFIX + 12, SPILL_PREFIX "%u", r->spills++);
    *value = *e;
    target->u.name = name;
    RETURN_IF_ERROR(emit_assign_to(r, target, value, out));
    /* Every expression holding the node now reads the temporary (the
     * variable, not a cell, where the value was a cell). */
    e->kind = UPY_E_NAME;
    e->u.name = name;
    e->cell = 0;
    return SUCCESS;
}

/* The subexpressions of e that are evaluated with it (a lambda's body and
 * a comprehension's inner clauses run later, in a scope of their own). */
static uint32_t children(const upy_expr *e, upy_expr **kids, uint32_t cap) {
    uint32_t n = 0, k;
#define KID(x)                                                                 \
    do {                                                                       \
        if ((x) && n < cap)                                                    \
            kids[n++] = (x);                                                   \
    } while (0)
#define KIDS(list)                                                             \
    for (k = 0; k < (list).len; k++)                                           \
    KID((list).items[k])
    switch (e->kind) {
    case UPY_E_ATTR:
        KID(e->u.attr.value);
        break;
    case UPY_E_SUBSCRIPT:
        KID(e->u.subscript.value);
        KID(e->u.subscript.index);
        break;
    case UPY_E_SLICE:
        KID(e->u.slice.lower);
        KID(e->u.slice.upper);
        KID(e->u.slice.step);
        break;
    case UPY_E_CALL:
        KID(e->u.call.func);
        KIDS(e->u.call.args);
        for (k = 0; k < e->u.call.n_keywords; k++)
            KID(e->u.call.keywords[k].value);
        break;
    case UPY_E_BINOP:
        KID(e->u.binop.left);
        KID(e->u.binop.right);
        break;
    case UPY_E_UNARYOP:
        KID(e->u.unary.operand);
        break;
    case UPY_E_BOOLOP:
        KIDS(e->u.boolop.values);
        break;
    case UPY_E_COMPARE:
        KID(e->u.compare.left);
        for (k = 0; k < e->u.compare.n; k++)
            KID(e->u.compare.comparators[k]);
        break;
    case UPY_E_IFEXP:
        KID(e->u.ifexp.test);
        KID(e->u.ifexp.body);
        KID(e->u.ifexp.orelse);
        break;
    case UPY_E_TUPLE:
    case UPY_E_LIST:
    case UPY_E_SET:
        KIDS(e->u.elts);
        break;
    case UPY_E_DICT:
        for (k = 0; k < e->u.dict.n; k++) {
            KID(e->u.dict.keys[k]);
            KID(e->u.dict.values[k]);
        }
        break;
    case UPY_E_LISTCOMP:
    case UPY_E_SETCOMP:
    case UPY_E_DICTCOMP:
    case UPY_E_GENEXP:
        if (e->u.comp.n_generators)
            KID(e->u.comp.generators[0].iter);
        break;
    case UPY_E_STARRED:
    case UPY_E_AWAIT:
    case UPY_E_YIELD:
    case UPY_E_YIELD_FROM:
        KID(e->u.operand);
        break;
    case UPY_E_JOINEDSTR:
        KIDS(e->u.joined);
        break;
    case UPY_E_FORMATTED:
        KID(e->u.formatted.value);
        KID(e->u.formatted.format_spec);
        break;
    case UPY_E_NAMEDEXPR:
        KID(e->u.named.value);
        break;
    default:
        break;
    }
#undef KIDS
#undef KID
    return n;
}

/* Assigns the copied expressions inside e, innermost first. */
static int spill_shared_in(rec *r, upy_expr *e, uint32_t *budget,
                           upy_ptr_vec *out) {
    upy_expr *kids[64];
    uint32_t n, k;
    if (!e || is_plain_leaf(e) || !*budget || rec_too_deep(r))
        return SUCCESS;
    --*budget;
    n = children(e, kids, sizeof kids / sizeof *kids);
    r->nesting++;
    for (k = 0; k < n; k++)
        if (spill_shared_in(r, kids[k], budget, out)) {
            r->nesting--;
            return ERROR;
        }
    r->nesting--;
    return e->copied ? spill_node(r, e, out) : 0;
}

/* The stores a value waits for when a copy of it was stored (COPY;
 * STORE): the value is a walrus if it is used before it is stored again. */
static pending *open_chain(const sval *v) {
    return v->pend && v->pend->kind == P_CHAIN && !v->pend->complete
               ? v->pend
               : NULL;
}

/* Whether a slot waits for a statement to come: a plain value, or one a
 * copy of which was stored, not a marker or a target some construct is
 * collecting. */
static int is_waiting_value(const sval *v) {
    return v->kind == SV_VALUE && (!v->pend || v->pend->kind == P_CHAIN) &&
           v->expr && (v->expr->kind != UPY_E_CONST || open_chain(v)) &&
           !rec_kept_across(v);
}

/* A value whose copy was stored, waiting under a statement: the store
 * ran when the value was computed, before the statement, so the value is
 * that walrus from now on (its node, wherever it is held). */
static int close_chain(rec *r, pending *chain) {
    if (chain && !chain->complete && !rec_chain_as_walrus(r, chain))
        return rec_oom(r);
    return SUCCESS;
}

int rec_kept_across(const sval *v) {
    return v->kind == SV_VALUE && (v->kept || rec_is_spilled(v->expr));
}

/* Names compared as read: a corrupt code object may hold no str. */
static int same_name(const char *a, const char *b) {
    return a && b && strcmp(a, b) == 0;
}

static int is_arg_named(const upy_code *co, uint32_t nargs, uint32_t k,
                        const char *name) {
    return k < nargs && same_name(rec_str(upy_seq_item(co->varnames, k)), name);
}

/* Fills r->stable_args: an argument is stable when no instruction stores
 * or deletes it (a 3.12 inlined comprehension saving it clears it) and it
 * is no cell (an inner function could rebind it). */
static int find_stable_args(rec *r, uint32_t nargs) {
    const upy_code *co = r->code;
    uint32_t k, i, c;
    r->stable_args = upy_arena_array(r->scratch, nargs + 1, 1);
    if (!r->stable_args)
        return rec_oom(r);
    for (k = 0; k < nargs; k++) {
        const char *name = rec_str(upy_seq_item(co->varnames, k));
        r->stable_args[k] = 1;
        for (c = 0; c < upy_seq_len(co->cellvars); c++)
            if (same_name(rec_str(upy_seq_item(co->cellvars, c)), name))
                r->stable_args[k] = 0;
    }
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (in->op != N_STORE && in->op != N_DELETE &&
            !(in->op == N_LOAD && in->arg == UPY_SCOPE_FAST_AND_CLEAR))
            continue;
        for (k = 0; k < nargs; k++)
            if (r->stable_args[k] &&
                is_arg_named(co, nargs, k, rec_str(in->obj)))
                r->stable_args[k] = 0;
    }
    return SUCCESS;
}

/* Whether e reads an argument that names one object for the whole call:
 * reading it later reads the same object. */
int rec_is_stable_arg(rec *r, const upy_expr *e) {
    const upy_code *co = r->code;
    uint32_t nargs, k;
    if (e->kind != UPY_E_NAME || !(co->flags & CO_OPTIMIZED))
        return 0;
    /* Up to SPILL_MAX_ARGS arguments are looked at (each costs a pass
     * over the code); any after them are held in temporaries. */
    nargs = (uint32_t)co->argcount + (uint32_t)co->kwonlyargcount +
            !!(co->flags & CO_VARARGS) + !!(co->flags & CO_VARKEYWORDS);
    if (co->argcount < 0 || co->kwonlyargcount < 0)
        return 0;
    if (nargs > upy_seq_len(co->varnames))
        nargs = (uint32_t)upy_seq_len(co->varnames);
    if (nargs > SPILL_MAX_ARGS)
        nargs = SPILL_MAX_ARGS;
    if (!r->stable_args)
        RETURN_IF_ERROR(find_stable_args(r, nargs));
    for (k = 0; k < nargs; k++)
        if (r->stable_args[k] && is_arg_named(co, nargs, k, e->u.name))
            return 1;
    return 0;
}

int rec_hold_store(rec *r) {
    uint32_t k;
    for (k = r->base; k < r->sp; k++) {
        held_value h;
        /* Values older than the last held-back store waited under it
         * already: noted once. */
        if (!is_waiting_value(&r->stack[k]) ||
            (r->held.len && r->stack[k].id <= r->held_newest))
            continue;
        if (r->held.len == r->held_cap) {
            held_value *grown =
                upy_arena_grow(r->arena, r->held.items, r->held.len,
                               &r->held_cap, sizeof *grown, 8);
            if (!grown)
                return rec_oom(r);
            r->held.items = grown;
        }
        h.expr = r->stack[k].expr;
        h.chain = open_chain(&r->stack[k]);
        h.id = r->stack[k].id;
        r->held.items[r->held.len++] = h;
        if (h.id > r->held_newest)
            r->held_newest = h.id;
    }
    return SUCCESS;
}

/* What runs, in the order the code computed it: a value to assign to a
 * temporary, or a held-back store. */
typedef struct spill_step {
    uint32_t id;
    upy_expr *value;          /* or NULL */
    const multi_store *store; /* or NULL */
} spill_step;

static int by_id(const void *a, const void *b) {
    uint32_t x = ((const spill_step *)a)->id, y = ((const spill_step *)b)->id;
    return x < y ? -1 : x > y;
}

/* A def or import statement under way (its function or module made,
 * its name not yet bound) when another statement comes: the source would
 * run the def's defaults or the import after that statement, so the code
 * is not recovered. */
static void note_statement_under_way(rec *r, uint32_t top, upy_ptr_vec *out) {
    uint32_t k;
    for (k = r->base; k < top; k++) {
        const sval *v = &r->stack[k];
        if ((v->kind != SV_FUNCTION && v->kind != SV_IMPORT) || !v->pend ||
            !v->pend->stmt || v->pend->complete || v->pend->crossed)
            continue;
        v->pend->crossed = 1;
        rec_unrecovered(r, out, r->stmt_start, r->stmt_start + 1,
                        v->kind == SV_FUNCTION
                            ? "statement under a function waiting for its name"
                            : "statement inside an import");
    }
}

/* Adds the step of a value waiting under the statement, or keeps it under
 * its own name (a stable argument).  Its stores made as it was copied
 * (a walrus) run with it. */
static int add_value_step(rec *r, upy_expr *value, pending *chain,
                          uint32_t id, uint8_t *kept, spill_step *steps,
                          uint32_t *n, upy_ptr_vec *out) {
    int stable;
    RETURN_IF_ERROR(close_chain(r, chain));
    stable = rec_is_stable_arg(r, value);
    RETURN_IF_ERROR(stable);
    if (stable) {
        if (kept)
            *kept = 1;
        return note_kept(r, out);
    }
    steps[*n].id = id;
    steps[*n].value = value;
    steps[(*n)++].store = NULL;
    return SUCCESS;
}

/* The values waiting now, the held-back stores, and the values that
 * waited under those (a later expression may have taken them since: the
 * temporary replaces them there too). */
static int collect_steps(rec *r, uint32_t top, spill_step *steps, uint32_t *n,
                         upy_ptr_vec *out) {
    uint32_t k;
    for (k = r->base; k < top; k++) {
        sval *v = &r->stack[k];
        if (is_waiting_value(v) &&
            add_value_step(r, v->expr, open_chain(v), v->id, &v->kept, steps,
                           n, out))
            return ERROR;
    }
    for (k = 0; k < r->multi.len; k++) {
        steps[*n].id = r->multi_items[k].id;
        steps[*n].value = NULL;
        steps[(*n)++].store = &r->multi_items[k];
    }
    for (k = 0; k < r->held.len; k++) {
        held_value *h = &r->held.items[k];
        RETURN_IF_ERROR(
            add_value_step(r, h->expr, h->chain, h->id, NULL, steps, n, out));
    }
    return SUCCESS;
}

/* Whether evaluating e may read or bind name: a name or walrus target in
 * it; a lambda or comprehension in it, whose code is not walked; or more
 * than the budget of nodes or children to look at. */
static int may_touch(const upy_expr *e, const char *name, uint32_t *budget) {
    upy_expr *kids[64];
    uint32_t n, k;
    if (!e)
        return 0;
    if (!*budget)
        return 1;
    (*budget)--;
    switch (e->kind) {
    case UPY_E_NAME:
        return same_name(e->u.name, name);
    case UPY_E_NAMEDEXPR:
        if (may_touch(e->u.named.target, name, budget))
            return 1;
        break;
    case UPY_E_LAMBDA:
    case UPY_E_LISTCOMP:
    case UPY_E_SETCOMP:
    case UPY_E_DICTCOMP:
    case UPY_E_GENEXP:
        return 1;
    default:
        break;
    }
    n = children(e, kids, 64);
    if (n == 64)
        return 1;
    for (k = 0; k < n; k++)
        if (may_touch(kids[k], name, budget))
            return 1;
    return 0;
}

/* Whether a jump or an exception handler lands on instruction at. */
static int lands_at(const rec *r, uint32_t at) {
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++)
        if (ins(r, i)->target == (int32_t)at ||
            ins(r, i)->handler == (int32_t)at)
            return 1;
    return 0;
}

/* Whether instruction at deletes name, a local of the function (not a
 * cell or free variable) that a store binds on the way straight to it
 * (nothing lands in between): a del that cannot fail. */
static int bound_local_at(const rec *r, uint32_t at, const char *name) {
    const upy_code *co = r->code;
    uint32_t k, i = at;
    int local = at < r->ncode.count && ins(r, at)->op == N_DELETE &&
                ins(r, at)->arg == UPY_SCOPE_FAST &&
                same_name(rec_str(ins(r, at)->obj), name);
    int in_varnames = 0;
    for (k = 0; k < upy_seq_len(co->varnames); k++)
        in_varnames |= same_name(rec_str(upy_seq_item(co->varnames, k)), name);
    local &= in_varnames;
    for (k = 0; k < upy_seq_len(co->cellvars); k++)
        local &= !same_name(rec_str(upy_seq_item(co->cellvars, k)), name);
    for (k = 0; k < upy_seq_len(co->freevars); k++)
        local &= !same_name(rec_str(upy_seq_item(co->freevars, k)), name);
    while (local && i-- > 0 && i + 1 < r->ncode.count && !lands_at(r, i + 1)) {
        const upy_nin *in = ins(r, i);
        if ((in->op == N_STORE || in->op == N_DELETE) &&
            in->arg == UPY_SCOPE_FAST && same_name(rec_str(in->obj), name))
            return in->op == N_STORE;
    }
    return 0;
}

int rec_del_passes_waiting(rec *r, const upy_stmt *s, upy_ptr_vec *out) {
    uint32_t t, k, waiting = 0, budget = SPILL_WALK_BUDGET;
    if (s->kind != UPY_S_DELETE || r->multi.len || r->held.len)
        return 0;
    for (k = r->base; k < r->sp; k++) {
        const sval *v = &r->stack[k];
        waiting += !rec_kept_across(v);
        if (!rec_kept_across(v) &&
            (!is_waiting_value(v) || open_chain(v) || v->expr->copied))
            return 0;
    }
    for (t = 0; t < s->u.targets.len; t++) {
        const upy_expr *target = s->u.targets.items[t];
        if (target->kind != UPY_E_NAME ||
            !bound_local_at(r, r->eval_at, target->u.name))
            return 0;
        for (k = r->base; k < r->sp; k++)
            if (!rec_kept_across(&r->stack[k]) &&
                may_touch(r->stack[k].expr, target->u.name, &budget))
                return 0;
    }
    /* The source no longer runs in the bytecode's order: said as for a
     * temporary. */
    if (waiting)
        RETURN_IF_ERROR(note_kept(r, out));
    return 1;
}

int rec_spill(rec *r, uint32_t top, upy_ptr_vec *out) {
    uint32_t k, n = 0, budget = SPILL_WALK_BUDGET;
    spill_step *steps;
    if (top > r->sp)
        top = r->sp;
    note_statement_under_way(r, top, out);
    for (k = r->base; k < top; k++)
        n += is_waiting_value(&r->stack[k]);
    if (n == 0 && r->multi.len == 0)
        return SUCCESS;
    steps = upy_arena_array(r->arena, n + r->multi.len + r->held.len + 1,
                            sizeof *steps);
    if (!steps)
        return rec_oom(r);
    n = 0;
    RETURN_IF_ERROR(collect_steps(r, top, steps, &n, out));
    qsort(steps, n, sizeof *steps, by_id);
    for (k = 0; k < n; k++) {
        upy_expr *e = steps[k].value;
        if (steps[k].store) {
            /* A held-back store runs where its value was computed. */
            RETURN_IF_ERROR(emit_assign_to(r, steps[k].store->target,
                                           steps[k].store->value, out));
            continue;
        }
        if (rec_is_spilled(e) || e->kind == UPY_E_CONST)
            continue;
        RETURN_IF_ERROR(spill_shared_in(r, e, &budget, out));
        if (!rec_is_spilled(e) && spill_node(r, e, out))
            return ERROR;
    }
    r->multi.len = 0;
    r->held.len = 0;
    return SUCCESS;
}

int rec_spilled_below(const rec *r, uint32_t from, uint32_t to) {
    uint32_t k;
    for (k = from; k < to && k < r->sp; k++)
        if (rec_kept_across(&r->stack[k]))
            return 1;
    return 0;
}

int rec_mutate_copy(rec *r, sval *target, const char *method, upy_expr *arg,
                    upy_ptr_vec *out) {
    upy_expr *call = upy_expr_new(r->arena, UPY_E_CALL);
    upy_expr *func = upy_expr_new(r->arena, UPY_E_ATTR);
    upy_expr **args = upy_arena_array(r->arena, 1, sizeof *args);
    upy_stmt *s;
    if (!call || !func || !args)
        return rec_oom(r);
    /* The values under the mutation, and the copied object itself. */
    RETURN_IF_ERROR(rec_spill(r, r->sp, out));
    if (!rec_is_spilled(target->expr) && !is_plain_leaf(target->expr) &&
        spill_node(r, target->expr, out))
        return ERROR;
    func->u.attr.value = target->expr;
    func->u.attr.attr = method;
    args[0] = arg;
    call->u.call.func = func;
    call->u.call.args.items = args;
    call->u.call.args.len = 1;
    s = rec_stmt(r, UPY_S_EXPR);
    if (!s)
        return ERROR;
    s->u.expr = call;
    return rec_emit(r, out, s);
}
