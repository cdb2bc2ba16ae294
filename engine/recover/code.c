/*
 * code.c - recovering one code object, and the nested ones it makes.
 *
 * The driver: decode, normalize, build the graph, structure the whole code
 * as one region, then tidy what the compiler adds on its own (the implicit
 * `return None`, a class body's __module__ / __qualname__ stores, a
 * docstring kept as a constant) and add what the code implies (global and
 * nonlocal declarations).  Nested code objects are recovered recursively
 * when the instruction that makes them is met: MAKE_FUNCTION of a def, a
 * lambda, a class body or (before 3.12) a comprehension.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/instr.h"
#include "normalize/normalize.h"
#include "recover/rec.h"
#include "util/error.h"

static const upy_object none_object = {UPY_NONE, 0, {{0, 0, 0, 0, 0}}};
static const upy_object true_object = {UPY_TRUE, 0, {{0, 0, 0, 0, 0}}};
static const upy_object false_object = {UPY_FALSE, 0, {{0, 0, 0, 0, 0}}};

/* Whether an instruction loads constant `o`. */
static int const_loaded(const rec *r, const upy_object *o) {
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++)
        if (ins(r, i)->op == N_LOAD_CONST && ins(r, i)->obj == o)
            return 1;
    return 0;
}

/* Where an instruction first loads constant `o`, or UINT32_MAX. */
static uint32_t first_load(const rec *r, const upy_object *o) {
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++)
        if (ins(r, i)->op == N_LOAD_CONST && ins(r, i)->obj == o)
            return i;
    return UINT32_MAX;
}

/* The end (past the last instruction) of the code the try whose handler
 * holds instruction i protects, the handler starting at the
 * PUSH_EXC_INFO before i; 0 when none. */
static uint32_t protected_end(const rec *r, uint32_t i) {
    uint32_t h = i, k, end = 0;
    while (h > 0 && ins(r, h)->op != N_PUSH_EXC_INFO)
        h--;
    if (ins(r, h)->op != N_PUSH_EXC_INFO)
        return 0;
    for (k = 0; k < r->ncode.count; k++)
        if (ins(r, k)->handler == (int32_t)h)
            end = k + 1;
    return end;
}

/* Whether the constant 1 at consts[at], first loaded at instruction
 * `use` after the loop's start `from`, was numbered at the loop: the
 * compiler numbers constants as it first compiles them, so a constant
 * first loaded in between yet numbered after the 1 says the loop's test
 * came first.  An empty tuple says nothing: the optimizer numbers it
 * after all others where it folds the BUILD_TUPLE 0 of a call with no
 * positional arguments, `f(**kw)` (fold_tuple_on_constants).  Where
 * `use` is in a handler laid out last (rec_is_cold), only code before
 * the end of its try's body, or cold too, was compiled before it:
 * test_events's
 *
 *     while True:                 co_consts: ..., 0, ('host', 'port'),
 *         try: f(host=None, ...)             1, 5, '127.0.0.1'
 *         except OSError:
 *             n += 1; g(5, n); continue
 *         break
 *     connect(('127.0.0.1', port))
 *
 * loads '127.0.0.1' before the handler's 1.  0 also when out of memory
 * (r->failed says so). */
static int numbered_at_loop(rec *r, size_t at, uint32_t from, uint32_t use) {
    const upy_object *consts = r->code->consts;
    size_t k;
    int use_cold = rec_is_cold(r, use);
    uint32_t hot_before = use_cold ? protected_end(r, use) : use;
    if (use_cold < 0)
        return 0;
    for (k = at + 1; k < upy_seq_len(consts); k++) {
        const upy_object *o = upy_seq_item(consts, k);
        uint32_t f = first_load(r, o);
        if (f >= from && f < use &&
            !(o->kind == UPY_TUPLE && upy_seq_len(o) == 0) &&
            (f < hot_before || rec_is_cold(r, f) == 1))
            return 1;
    }
    return 0;
}

/* A constant a `while` loop may test that the compiler drops: True or
 * 1. */
static int loop_test(const upy_object *c) {
    return c->kind == UPY_TRUE || (c->kind == UPY_INT && !c->u.integer.is_big &&
                                   c->u.integer.value == 1);
}

/* The test of a `while True` loop whose body starts at instruction
 * `from`.  The compiler leaves a loop's constant test in co_consts when
 * the loop can end (3.10-3.12), loaded by nothing: such a constant 1 says
 * the source wrote `while 1`; so does a 1 the code loads later but that
 * is numbered before the constants of the loop's start. */
upy_expr *rec_true(rec *r, uint32_t from) {
    const upy_object *consts = r->code->consts, *one = NULL, *any_one = NULL;
    size_t k;
    int has_true = 0;
    /* Where the numbering leaves a slot for the loop's test (`while 1:`
     * then `while True:`, both kept by 3.10-3.11), that constant. */
    const upy_object *dropped = rec_dropped_const_at(r, from, loop_test, 0);
    if (dropped)
        return rec_dropped_test(r, dropped, from);
    /* A True the code loads, numbered elsewhere, was not the test (which
     * numbers it at the loop): a 1 numbered before was (3.13 `while 1:`
     * after `x = 1`). */
    for (k = 0; k < upy_seq_len(consts); k++)
        if (upy_seq_item(consts, k)->kind == UPY_TRUE &&
            const_loaded(r, upy_seq_item(consts, k))) {
            dropped = rec_dropped_const_at(r, from, loop_test, 1);
            if (dropped)
                return rec_dropped_test(r, dropped, from);
            break;
        }
    for (k = 0; k < upy_seq_len(consts); k++) {
        const upy_object *o = upy_seq_item(consts, k);
        uint32_t use;
        has_true |= o->kind == UPY_TRUE;
        if (o->kind == UPY_TRUE && !const_loaded(r, o))
            return rec_dropped_test(r, o, from);
        if (o->kind == UPY_INT && !o->u.integer.is_big &&
            o->u.integer.value == 1 && !any_one)
            any_one = o;
        if (o->kind != UPY_INT || o->u.integer.is_big ||
            o->u.integer.value != 1)
            continue;
        use = first_load(r, o);
        if (use == UINT32_MAX ||
            (use >= from && numbered_at_loop(r, k, from, use)))
            one = o;
    }
    /* 3.10 and 3.11 keep True in co_consts for every `while True` (one
     * whose loop never ends too): without it, the test was a 1 the body
     * loads as well. */
    if (!one && !has_true && r->ncode.layout->keeps_while_true_const)
        one = any_one;
    return rec_dropped_test(r, one ? one : &true_object, from);
}

int rec_is_async(const upy_code *co) {
    return (co->flags & (CO_COROUTINE | CO_ASYNC_GENERATOR)) != 0;
}

static const char *str_at(const upy_object *tuple, size_t i) {
    return rec_str(upy_seq_item(tuple, i));
}

/* --- unrecovered regions ------------------------------------------------ */

/* Fills r->decoded again, once (see rec.h); no instructions when that
 * fails. */
static void decode_again(rec *r) {
    unpyc_error local;
    if (!r->decoded.instrs && upy_decode_code(r->version, r->code, r->scratch,
                                              &r->decoded, &local) != UNPYC_OK)
        r->decoded.count = 0;
}

/* The first decoded instruction at or after offset (they are in offset
 * order): a search, since a code with many unrecovered regions asks once
 * for each. */
static uint32_t first_at_offset(const rec *r, uint32_t offset) {
    uint32_t lo = 0, hi = r->decoded.count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->decoded.instrs[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A comment block with the instructions [from, to) as the code's own
 * version disassembles them. */
void rec_unrecovered(rec *r, upy_ptr_vec *out, uint32_t from, uint32_t to,
                     const char *why) {
    upy_strbuf sb;
    uint32_t first = from < r->ncode.count ? ins(r, from)->offset : 0;
    uint32_t last =
        to > 0 && to - 1 < r->ncode.count ? ins(r, to - 1)->offset : first;
    uint32_t k;
    upy_stmt *s;

    r->unrecovered++;
    decode_again(r);
    upy_sb_init(&sb, 64 * 1024);
    upy_sb_printf(&sb, "unpyc: could not recover this %s (offsets %u-%u):", why,
                  (unsigned)first, (unsigned)last);
    for (k = first_at_offset(r, first);
         k < r->decoded.count && r->decoded.instrs[k].offset <= last &&
         !sb.failed;
         k++) {
        const upy_instr *in = &r->decoded.instrs[k];
        upy_sb_printf(&sb, "\n%6u %s", (unsigned)in->offset,
                      upy_op_names[in->op]);
        if (in->has_arg)
            upy_sb_printf(&sb, " %ld", (long)in->arg);
        if (in->argobj && in->argobj->kind == UPY_STR)
            upy_sb_printf(&sb, " (%s)", rec_str(in->argobj));
    }
    s = rec_stmt(r, UPY_S_UNRECOVERED);
    if (s && sb.data && !sb.failed) {
        char *text = upy_arena_alloc(r->arena, sb.len + 1);
        if (text) {
            memcpy(text, sb.data, sb.len + 1);
            s->u.unrecovered.text = text;
            s->u.unrecovered.lost = 1;
            r->lost_marks++;
            rec_emit(r, out, s);
        }
    }
    upy_sb_release(&sb);
}

int rec_fail_region(rec *r, int32_t b, const region *rg, upy_ptr_vec *out) {
    int32_t end = rg->end > b ? rg->end : b + 1;
    uint32_t to;
    int32_t k;
    if (end > (int32_t)r->cfg.count)
        end = (int32_t)r->cfg.count;
    to = blk(r, end - 1)->end;
    for (k = b; k < end; k++)
        r->done[k] = 1;
    rec_unrecovered(r, out, blk(r, b)->start, to, "region");
    return SUCCESS;
}

/* --- signatures --------------------------------------------------------- */

upy_arguments *rec_arguments(rec *r, const upy_code *co) {
    upy_arguments *a = upy_arena_alloc(r->arena, sizeof *a);
    uint32_t npos = (uint32_t)co->argcount, k, at;
    uint32_t nposonly = (uint32_t)co->posonlyargcount;
    uint32_t nkw = (uint32_t)co->kwonlyargcount;
    if (!a) {
        rec_oom(r);
        return NULL;
    }
    if (nposonly > npos)
        nposonly = npos;
    a->posonly = upy_arena_array(r->arena, nposonly + 1, sizeof(upy_arg));
    a->args = upy_arena_array(r->arena, npos - nposonly + 1, sizeof(upy_arg));
    a->kwonly = upy_arena_array(r->arena, nkw + 1, sizeof(upy_arg));
    a->kw_defaults = upy_arena_array(r->arena, nkw + 1, sizeof(upy_expr *));
    if (!a->posonly || !a->args || !a->kwonly || !a->kw_defaults) {
        rec_oom(r);
        return NULL;
    }
    for (k = 0; k < npos; k++) {
        const char *name = rec_source_name(r, str_at(co->varnames, k));
        if (k < nposonly)
            a->posonly[a->n_posonly++].name = name ? name : "_";
        else
            a->args[a->n_args++].name = name ? name : "_";
    }
    at = npos;
    for (k = 0; k < nkw; k++, at++) {
        const char *name = rec_source_name(r, str_at(co->varnames, at));
        a->kwonly[a->n_kwonly++].name = name ? name : "_";
    }
    if (co->flags & CO_VARARGS) {
        a->vararg = upy_arena_alloc(r->arena, sizeof(upy_arg));
        if (!a->vararg) {
            rec_oom(r);
            return NULL;
        }
        a->vararg->name = rec_source_name(r, str_at(co->varnames, at++));
        if (!a->vararg->name)
            a->vararg->name = "args";
    }
    if (co->flags & CO_VARKEYWORDS) {
        a->kwarg = upy_arena_alloc(r->arena, sizeof(upy_arg));
        if (!a->kwarg) {
            rec_oom(r);
            return NULL;
        }
        a->kwarg->name = rec_source_name(r, str_at(co->varnames, at));
        if (!a->kwarg->name)
            a->kwarg->name = "kwargs";
    }
    return a;
}

/* Items of a tuple value: a constant tuple or a tuple display. */
static upy_expr **tuple_items(rec *r, upy_expr *e, uint32_t *n) {
    uint32_t k;
    upy_expr **items;
    *n = 0;
    if (!e)
        return NULL;
    if (e->kind == UPY_E_TUPLE) {
        *n = e->u.elts.len;
        return e->u.elts.items;
    }
    if (e->kind != UPY_E_CONST || !e->u.constant ||
        e->u.constant->kind != UPY_TUPLE)
        return NULL;
    *n = (uint32_t)e->u.constant->u.seq.len;
    items = upy_arena_array(r->arena, *n ? *n : 1, sizeof(upy_expr *));
    if (!items) {
        rec_oom(r);
        *n = 0;
        return NULL;
    }
    for (k = 0; k < *n; k++)
        items[k] = rec_const(r, e->u.constant->u.seq.items[k]);
    return items;
}

static upy_arg *find_arg(upy_arguments *a, const char *name) {
    uint32_t k;
    for (k = 0; k < a->n_posonly; k++)
        if (strcmp(a->posonly[k].name, name) == 0)
            return &a->posonly[k];
    for (k = 0; k < a->n_args; k++)
        if (strcmp(a->args[k].name, name) == 0)
            return &a->args[k];
    for (k = 0; k < a->n_kwonly; k++)
        if (strcmp(a->kwonly[k].name, name) == 0)
            return &a->kwonly[k];
    if (a->vararg && strcmp(a->vararg->name, name) == 0)
        return a->vararg;
    if (a->kwarg && strcmp(a->kwarg->name, name) == 0)
        return a->kwarg;
    return NULL;
}

upy_expr *rec_annotation(rec *r, upy_expr *e) {
    upy_expr *text;
    if (!(r->code->flags & CO_FUTURE_ANNOTATIONS) || !e ||
        e->kind != UPY_E_CONST || !e->u.constant ||
        e->u.constant->kind != UPY_STR)
        return e;
    text = upy_expr_new(r->arena, UPY_E_SOURCE);
    if (!text) {
        rec_oom(r);
        return e;
    }
    text->u.name = rec_str(e->u.constant);
    return text;
}

/* Annotations: a dict display (3.8, 3.9) or a flat tuple of name, value
 * pairs (3.10+), of which a constant tuple when all are strings. */
static void each_annotation(rec *r, upy_expr *annotations, upy_arguments *a,
                            upy_expr **returns) {
    uint32_t k, n;
    upy_expr **items;
    if (!annotations)
        return;
    if (annotations->kind == UPY_E_DICT) {
        for (k = 0; k < annotations->u.dict.n; k++) {
            upy_expr *key = annotations->u.dict.keys[k];
            const char *name =
                key && key->kind == UPY_E_CONST
                    ? rec_source_name(r, rec_str(key->u.constant))
                    : NULL;
            upy_arg *arg;
            if (!name)
                continue;
            if (strcmp(name, "return") == 0) {
                if (returns)
                    *returns = rec_annotation(r, annotations->u.dict.values[k]);
            } else if (a && (arg = find_arg(a, name)) != NULL) {
                arg->annotation =
                    rec_annotation(r, annotations->u.dict.values[k]);
            }
        }
        return;
    }
    items = tuple_items(r, annotations, &n);
    for (k = 0; k + 1 < n; k += 2) {
        const char *name =
            items[k]->kind == UPY_E_CONST
                ? rec_source_name(r, rec_str(items[k]->u.constant))
                : NULL;
        upy_arg *arg;
        if (!name)
            continue;
        if (strcmp(name, "return") == 0) {
            if (returns)
                *returns = rec_annotation(r, items[k + 1]);
        } else if (a && (arg = find_arg(a, name)) != NULL) {
            arg->annotation = rec_annotation(r, items[k + 1]);
        }
    }
}

void rec_apply_defaults(rec *r, upy_arguments *a, const upy_code *co,
                        upy_expr *defaults, upy_expr *kwdefaults,
                        upy_expr *annotations) {
    uint32_t n, k;
    upy_expr **items = tuple_items(r, defaults, &n);
    (void)co;
    if (items && n <= a->n_posonly + a->n_args) {
        a->defaults = items;
        a->n_defaults = n;
    }
    if (kwdefaults && kwdefaults->kind == UPY_E_DICT) {
        for (k = 0; k < kwdefaults->u.dict.n; k++) {
            upy_expr *key = kwdefaults->u.dict.keys[k];
            const char *name =
                key && key->kind == UPY_E_CONST
                    ? rec_source_name(r, rec_str(key->u.constant))
                    : NULL;
            uint32_t j;
            for (j = 0; name && j < a->n_kwonly; j++)
                if (strcmp(a->kwonly[j].name, name) == 0)
                    a->kw_defaults[j] = kwdefaults->u.dict.values[k];
        }
    }
    each_annotation(r, annotations, a, NULL);
}

upy_expr *rec_return_annotation(rec *r, upy_expr *annotations) {
    upy_expr *returns = NULL;
    each_annotation(r, annotations, NULL, &returns);
    return returns;
}

const char *rec_source_name(const rec *r, const char *stored) {
    const char *private_name = r->class_name, *rest;
    size_t n, len;
    if (!stored || !private_name || stored[0] != '_')
        return stored;
    while (*private_name == '_')
        private_name++;
    n = strlen(private_name);
    if (n == 0 || strncmp(stored + 1, private_name, n) != 0)
        return stored;
    /* What the compiler would have mangled: two underscores in front, not
     * two at the end (that is a dunder), no dot (a dotted import). */
    rest = stored + 1 + n;
    len = strlen(rest);
    if (len < 3 || rest[0] != '_' || rest[1] != '_' ||
        (rest[len - 1] == '_' && rest[len - 2] == '_') || strchr(rest, '.'))
        return stored;
    return rest;
}

static int is_future_import(const upy_stmt *s) {
    return s->kind == UPY_S_IMPORT_FROM && s->u.import.level == 0 &&
           s->u.import.module && strcmp(s->u.import.module, "__future__") == 0;
}

/* Puts `if test: stmt` in body before statement `at`, test a false
 * constant: a statement the compiler drops again, kept for what its
 * presence alone decides (a code flag, a set-up). */
static int insert_dead(rec *r, upy_stmt_list *body, uint32_t at, upy_stmt *stmt,
                       upy_expr *test) {
    upy_ptr_vec out = {0}, dead = {0};
    upy_stmt *s = rec_stmt(r, UPY_S_IF);
    uint32_t i;
    if (!s)
        return ERROR;
    s->u.if_.test = test;
    if (!s->u.if_.test || upy_vec_push(r->arena, &dead, stmt))
        return rec_oom(r);
    s->u.if_.body = upy_vec_stmts(&dead);
    for (i = 0; i <= body->len; i++)
        if (upy_vec_push(r->arena, &out,
                         i == at  ? s
                         : i < at ? body->items[i]
                                  : body->items[i - 1]))
            return rec_oom(r);
    *body = upy_vec_stmts(&out);
    return SUCCESS;
}

/* A generator whose yields were all dead code (`return; yield`, `while
 * False: yield`): the compiler dropped them, but the generator flag comes
 * from the source's yield, so the output needs one, in an `if False:` the
 * compiler drops again.  3.8-3.11 keep that False in co_consts unless it
 * is the last constant (compile.c trim_unused_consts), so there it goes
 * last.  3.12+ drop it anywhere (flowgraph.c remove_unused_consts), and
 * there it goes first (after a docstring): at the end its `if False:` jump
 * would stand between the body and the implicit return, and flowgraph.c
 * inline_small_exit_blocks, which runs before that jump goes, would not
 * copy the return into the jumps out of a final try or with, as it did
 * for the source's `return; yield`. */
static uint32_t lead_len(const upy_stmt_list *body);

static int add_dead_yield(rec *r, upy_stmt_list *body) {
    upy_stmt *yield_stmt;
    uint32_t i;
    if (!(r->code->flags & (CO_GENERATOR | CO_ASYNC_GENERATOR)))
        return SUCCESS;
    for (i = 0; i < r->ncode.count; i++)
        if (ins(r, i)->op == N_YIELD || ins(r, i)->op == N_YIELD_FROM)
            return SUCCESS;
    yield_stmt = rec_stmt(r, UPY_S_EXPR);
    if (!yield_stmt)
        return ERROR;
    yield_stmt->u.expr = upy_expr_new(r->arena, UPY_E_YIELD);
    if (!yield_stmt->u.expr)
        return rec_oom(r);
    return insert_dead(r, body,
                       r->ncode.layout->keeps_unused_consts ? body->len
                                                            : lead_len(body),
                       yield_stmt, rec_const_false(r));
}

static int has_annotation(upy_stmt_list *list);
static int in_names(const upy_object *names, const char *name);
static int has_const_like(const upy_code *co, const upy_object *o);

static void annotation_in(upy_stmt_list *list, upy_list_role role,
                          const upy_stmt *holder, void *arg) {
    int *found = arg;
    (void)role;
    (void)holder;
    if (!*found)
        *found = has_annotation(list);
}

/* Whether an annotated assignment is among the statements, in the blocks
 * of statements in them too (where compile.c find_ann looks, match cases
 * aside: the version walk agrees for all statements that print one). */
static int has_annotation(upy_stmt_list *list) {
    int found = 0;
    uint32_t k;
    for (k = 0; k < list->len && !found; k++) {
        if (!list->items[k])
            continue;
        if (list->items[k]->kind == UPY_S_ANNASSIGN)
            return 1;
        upy_stmt_each_list(list->items[k], annotation_in, &found);
    }
    return found;
}

int rec_sets_up_annotations(const rec *r) {
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++)
        if (ins(r, i)->op == N_SETUP_ANNOTATIONS)
            return 1;
    return 0;
}

/* A module or class body sets up __annotations__ (SETUP_ANNOTATIONS)
 * when compile.c find_ann finds an annotated assignment in it, dead code
 * included, where the optimizer dropped the annotation itself.  Without
 * one in the output the recompiled body would have no __annotations__:
 * an annotation under `if False:` brings it back. */
static int add_dead_annotation(rec *r, upy_stmt_list *body) {
    upy_stmt *ann;
    upy_expr *test;
    if (!rec_sets_up_annotations(r) || has_annotation(body))
        return SUCCESS;
    ann = rec_stmt(r, UPY_S_ANNASSIGN);
    if (!ann)
        return ERROR;
    ann->u.annassign.target = rec_name(r, "_");
    /* Dead code still numbers its names and (before 3.12) its constants on
     * 3.10+.  A stored annotation names __annotations__ and its target's
     * name: where co_names has none, the source's was not stored (`(x):
     * T = v`), and the output's is `(_): []`, which numbers nothing, under
     * `if None:`, None being numbered at the end anyway (the return's).
     * Else `_: False` under `if False:`, constants both. */
    ann->u.annassign.simple = in_names(r->code->names, "__annotations__");
    if (ann->u.annassign.simple || !has_const_like(r->code, r->none_object)) {
        ann->u.annassign.annotation = rec_const_false(r);
        test = rec_const_false(r);
    } else {
        ann->u.annassign.annotation = upy_expr_new(r->arena, UPY_E_LIST);
        test = rec_const(r, r->none_object);
    }
    if (!ann->u.annassign.target || !ann->u.annassign.annotation || !test)
        return rec_oom(r);
    return insert_dead(r, body, body->len, ann, test);
}

/* Whether name is the variable of a comprehension 3.12+ inlined in the
 * code (which saves the name's outer value first): a store to it is the
 * comprehension's own, even where the code also reads a free variable of
 * that name (`[lambda: T for T in T.__name__]`). */
static int is_inlined_variable(const rec *r, const char *name) {
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (in->op == N_LOAD && in->arg == UPY_SCOPE_FAST_AND_CLEAR &&
            rec_str(in->obj) && strcmp(rec_str(in->obj), name) == 0)
            return 1;
    }
    return 0;
}

/* The statements that must stay first: the docstring (after anything, the
 * string would be an expression statement and no docstring) and the
 * __future__ imports. */
static uint32_t lead_len(const upy_stmt_list *body) {
    uint32_t lead = body->len && body->items[0]->kind == UPY_S_EXPR &&
                    body->items[0]->u.expr->kind == UPY_E_CONST &&
                    body->items[0]->u.expr->u.constant->kind == UPY_STR;
    while (lead < body->len && is_future_import(body->items[lead]))
        lead++;
    return lead;
}

/* Whether instruction `in` names a local, cell or free variable, which
 * co_varnames, co_cellvars or co_freevars number, not co_names. */
static int is_local_use(const upy_nin *in) {
    if (in->op == N_LOAD_CLOSURE)
        return 1;
    if (in->op != N_LOAD && in->op != N_STORE && in->op != N_DELETE)
        return 0;
    return in->arg == UPY_SCOPE_FAST || in->arg == UPY_SCOPE_DEREF ||
           in->arg == UPY_SCOPE_CLASSDEREF ||
           in->arg == UPY_SCOPE_FAST_AND_CLEAR;
}

/* How many different names the instructions can carry: their objects come
 * from these tables only (decode), so the name sets are sized by them, not
 * by the instructions (a long function of few names took two sets of
 * 16 KiB). */
static uint32_t names_bound(const rec *r) {
    const upy_code *co = r->code;
    size_t n = upy_seq_len(co->names) + upy_seq_len(co->consts) +
               upy_seq_len(co->varnames) + upy_seq_len(co->cellvars) +
               upy_seq_len(co->freevars) + upy_seq_len(co->localsplusnames);
    return n < r->ncode.count ? (uint32_t)n : r->ncode.count;
}

/* The slots of index_names' memory of the names it added lately, by the
 * address of their text. */
#define RECENT_NAMES 32

static uint32_t recent_slot(const char *name) {
    return (uint32_t)((uintptr_t)name >> 3) & (RECENT_NAMES - 1);
}

/* Adds name to set unless the same text (by address) went in lately: a
 * function's instructions name a few str objects again and again (self,
 * its locals), and comparing an address costs less than hashing the text,
 * which was a third of index_names. */
static void add_name(upy_name_set *set, const char **recent, const char *name) {
    uint32_t slot = recent_slot(name);
    if (recent[slot] == name)
        return;
    recent[slot] = name;
    upy_name_set_add(set, name);
}

/* Fills r's name sets (rec.h) from the code's instructions. */
static int index_names(rec *r) {
    uint32_t i, n = r->ncode.count, names = names_bound(r);
    const char *recent_variable[RECENT_NAMES] = {0};
    const char *recent_used[RECENT_NAMES] = {0};
    if (upy_name_set_init(&r->variable_names, r->scratch, names) ||
        upy_name_set_init(&r->used_names, r->scratch, names))
        return rec_oom(r);
    for (i = 0; i < n; i++) {
        const upy_nin *in = ins(r, i);
        const char *name = rec_str(in->obj);
        if (!name)
            continue;
        if (in->op == N_LOAD || in->op == N_STORE || in->op == N_DELETE ||
            in->op == N_LOAD_CLOSURE)
            add_name(&r->variable_names, recent_variable, name);
        if (in->op != N_LOAD_CONST && !is_local_use(in))
            add_name(&r->used_names, recent_used, name);
    }
    n = (uint32_t)upy_seq_len(r->code->names);
    r->name_used = upy_arena_array(r->scratch, n + 1, 1);
    if (!r->name_used)
        return rec_oom(r);
    r->used_names_end = 0;
    for (i = 0; i < n; i++) {
        const char *name = str_at(r->code->names, i);
        r->name_used[i] = (uint8_t)(recent_used[recent_slot(name)] == name ||
                                    upy_name_set_has(&r->used_names, name));
        if (r->name_used[i])
            r->used_names_end = i + 1;
    }
    return SUCCESS;
}

/* Each instruction's entries of both tables (table_entries), in one walk
 * of the instructions. */
static int index_table_entries(rec *r) {
    uint32_t i, n = r->ncode.count;
    int32_t *names_at =
        upy_arena_array_uncleared(r->scratch, n + 1, sizeof *names_at);
    int32_t *consts_at =
        upy_arena_array_uncleared(r->scratch, n + 1, sizeof *consts_at);
    if (!names_at || !consts_at)
        return rec_oom(r);
    for (i = 0; i < n; i++) {
        /* (Most instructions carry no object: no entry of either.) */
        int has_obj = ins(r, i)->obj != NULL;
        names_at[i] = has_obj ? rec_table_entry(r, i, 0) : -1;
        consts_at[i] = has_obj ? rec_table_entry(r, i, 1) : -1;
    }
    r->table_entries[0] = names_at;
    r->table_entries[1] = consts_at;
    return SUCCESS;
}

/* Fills r's maps of co_names and co_consts (rec.h: entries), then each
 * instruction's entries (table_entries). */
static int index_tables(rec *r) {
    int table;
    size_t i;
    for (table = 0; table < 2; table++) {
        const upy_object *t = table ? r->code->consts : r->code->names;
        uint32_t k, n = (uint32_t)upy_seq_len(t);
        if (upy_index_map_init(&r->entries[table], r->scratch, n))
            return rec_oom(r);
        /* An object twice in the table (a marshal reference) is found at
         * its first index. */
        for (k = 0; k < n; k++)
            if (upy_seq_item(t, k))
                upy_index_map_put_first(&r->entries[table],
                                        upy_seq_item(t, k), (int32_t)k);
    }
    RETURN_IF_ERROR(index_table_entries(r));
    r->const_shown = upy_arena_array(
        r->arena, upy_seq_len(r->code->consts) + 1, sizeof(uint8_t));
    r->const_tested_at = upy_arena_array_uncleared(
        r->arena, upy_seq_len(r->code->consts) + 1, sizeof(uint32_t));
    if (!r->const_shown || !r->const_tested_at)
        return rec_oom(r);
    for (i = 0; i < upy_seq_len(r->code->consts); i++)
        r->const_tested_at[i] = UINT32_MAX;
    return SUCCESS;
}

int32_t rec_entry_index(const rec *r, int table, const upy_object *o) {
    return upy_index_map_get(&r->entries[table], o);
}

/* Whether instruction `in` loads, stores or deletes a fast local. */
static int is_fast_use(const upy_nin *in) {
    return (in->op == N_LOAD || in->op == N_STORE || in->op == N_DELETE) &&
           (in->arg == UPY_SCOPE_FAST || in->arg == UPY_SCOPE_FAST_AND_CLEAR);
}

/* Whether an instruction of the code names the variable: a load, store
 * or delete of any scope, or a reference to its cell for a closure. */
static int names_variable(const rec *r, const char *name) {
    return upy_name_set_has(&r->variable_names, name);
}

/* Whether a code object the code loads (to make a function of it) takes
 * the variable as a free variable, from the code's cell of that name.  A
 * code object among the constants that no instruction loads makes no
 * function in the source: Dynamo's code keeps the constants of the code
 * it replaced (a nested def of the original) without running them. */
static int captured(const rec *r, const char *name) {
    const upy_code *co = r->code;
    uint32_t i, k;
    for (i = 0; i < upy_seq_len(co->consts); i++) {
        const upy_object *c = upy_seq_item(co->consts, i);
        if (c->kind != UPY_CODE || !const_loaded(r, c))
            continue;
        for (k = 0; k < upy_seq_len(c->u.code->freevars); k++)
            if (strcmp(str_at(c->u.code->freevars, k), name) == 0)
                return 1;
    }
    return 0;
}

/* Whether the code's constants hold `o`'s kind (and value, for an int). */
static int has_const_like(const upy_code *co, const upy_object *o) {
    uint32_t i;
    for (i = 0; i < upy_seq_len(co->consts); i++) {
        const upy_object *c = upy_seq_item(co->consts, i);
        if (c->kind == o->kind &&
            (c->kind != UPY_INT ||
             (!c->u.integer.is_big && c->u.integer.value == 0)))
            return 1;
    }
    return 0;
}

static int push_name(rec *r, upy_ptr_vec *names, const char *name) {
    upy_expr *e = rec_name(r, rec_source_name(r, name));
    if (!e || upy_vec_push(r->arena, names, e))
        return rec_oom(r);
    return SUCCESS;
}

static int is_param(const upy_code *co, uint32_t nparams, const char *name) {
    uint32_t k;
    for (k = 0; k < nparams && k < upy_seq_len(co->varnames); k++)
        if (strcmp(str_at(co->varnames, k), name) == 0)
            return 1;
    return 0;
}

/* Whether o is a constant the source writes that tests false. */
int rec_false_literal(const upy_object *o) {
    switch (o->kind) {
    case UPY_NONE:
    case UPY_FALSE:
        return 1;
    case UPY_INT:
        return !o->u.integer.is_big && o->u.integer.value == 0;
    case UPY_FLOAT:
        return o->u.real == 0.0;
    case UPY_STR:
    case UPY_BYTES:
        return o->u.bytes.len == 0;
    case UPY_TUPLE:
        return upy_seq_len(o) == 0;
    default:
        return 0;
    }
}

/* The test of a dead `if` placed first.  A constant the code holds is
 * numbered where its first use compiles; the first one after the
 * docstring's slot (a module has none), if false, is the test of dead
 * code that came first.  Otherwise one the code does not hold, which the
 * compiler drops again. */
static const upy_object *dead_test(const upy_code *co, int is_module) {
    static const upy_object zero_object = {UPY_INT, 0, {{0, 0, 0, 0, 0}}};
    size_t slot = is_module ? 0 : 1;
    const upy_object *first = upy_seq_len(co->consts) > slot
                                  ? upy_seq_item(co->consts, slot)
                                  : NULL;
    if (first && rec_false_literal(first))
        return first;
    if (has_const_like(co, &false_object) && !has_const_like(co, &zero_object))
        return &zero_object;
    return &false_object;
}

static int place_dead_names(rec *r, upy_stmt_list *body, uint8_t *placed);
static uint32_t stmt_of(const upy_stmt_list *body, uint32_t lead, uint32_t i);
static int names_local(const rec *r, const char *name);
static int push_dead_comprehension(rec *r, upy_expr *name, upy_ptr_vec *dead);
static int push_dead_names(rec *r, const uint8_t *placed, upy_ptr_vec *names);
static int flush_dead_loads(rec *r, upy_ptr_vec *names, upy_ptr_vec *dead);
static uint32_t dead_code_at(const rec *r, const upy_stmt_list *body,
                             uint32_t lead, uint32_t from, int with_names);
static uint32_t dead_code_from(rec *r, const upy_stmt_list *body);

/* What dead code did to the scope.  The compiler drops code it can tell
 * never runs (`if 0: ...`), but not what that code made of the names: a
 * cell no nested code takes (`if 0: lambda: self`), and (3.10+, which
 * number locals as they compile, dead code included) a local no
 * instruction names, and names in co_names no instruction uses.  An `if
 * False:` the compiler drops again, with a lambda taking the cells, a
 * `del` of the locals and a load of the names, makes them so.  It goes
 * where the numbering puts it (dead_code_at), else first. */
static int add_dead_code(rec *r, upy_stmt_list *body) {
    const upy_code *co = r->code;
    upy_ptr_vec cells = {0}, locals = {0}, names = {0}, dead = {0}, out = {0};
    upy_stmt *s;
    int with_names;
    uint8_t *placed = upy_arena_array(r->arena, upy_seq_len(co->names) + 1,
                                      sizeof(uint8_t));
    uint32_t k, lead,
        nparams = (uint32_t)(co->argcount + co->kwonlyargcount) +
                  !!(co->flags & CO_VARARGS) + !!(co->flags & CO_VARKEYWORDS);
    if (!placed)
        return rec_oom(r);
    RETURN_IF_ERROR(place_dead_names(r, body, placed));
    for (k = nparams; k < upy_seq_len(co->varnames); k++)
        if (!names_local(r, str_at(co->varnames, k)) &&
            push_name(r, &locals, str_at(co->varnames, k)))
            return ERROR;
    for (k = 0; k < upy_seq_len(co->cellvars); k++) {
        const char *name = str_at(co->cellvars, k);
        if (!captured(r, name) && push_name(r, &cells, name))
            return ERROR;
        /* Bound by dead code only, unless a parameter. */
        if (!names_variable(r, name) && !is_param(co, nparams, name) &&
            push_name(r, &locals, name))
            return ERROR;
    }
    RETURN_IF_ERROR(push_dead_names(r, placed, &names));
    if (!cells.len && !locals.len && !names.len)
        return SUCCESS;
    /* Said in the output: a reader would take the block for a mistake. */
    s = rec_stmt(r, UPY_S_UNRECOVERED);
    if (!s)
        return ERROR;
    s->u.unrecovered.text = "unpyc: never runs; it keeps variables the code "
                            "has that no statement binds or captures";
    if (upy_vec_push(r->arena, &dead, s))
        return rec_oom(r);
    if (cells.len) {
        upy_stmt *use = rec_stmt(r, UPY_S_EXPR);
        upy_expr *lambda = upy_expr_new(r->arena, UPY_E_LAMBDA);
        if (!use || !lambda)
            return ERROR;
        lambda->u.lambda.args =
            upy_arena_alloc(r->arena, sizeof(upy_arguments));
        if (cells.len == 1) {
            lambda->u.lambda.body = cells.items[0];
        } else {
            lambda->u.lambda.body = upy_expr_new(r->arena, UPY_E_TUPLE);
            if (lambda->u.lambda.body)
                lambda->u.lambda.body->u.elts = upy_vec_exprs(&cells);
        }
        use->u.expr = lambda;
        if (!lambda->u.lambda.args || !lambda->u.lambda.body ||
            upy_vec_push(r->arena, &dead, use))
            return rec_oom(r);
    }
    if (locals.len && r->is_module) {
        for (k = 0; k < locals.len; k++)
            RETURN_IF_ERROR(push_dead_comprehension(r, locals.items[k], &dead));
    } else if (locals.len) {
        upy_stmt *del = rec_stmt(r, UPY_S_DELETE);
        if (!del)
            return ERROR;
        del->u.targets = upy_vec_exprs(&locals);
        if (upy_vec_push(r->arena, &dead, del))
            return rec_oom(r);
    }
    with_names = names.len > 0;
    RETURN_IF_ERROR(flush_dead_loads(r, &names, &dead));
    s = rec_stmt(r, UPY_S_IF);
    if (!s)
        return ERROR;
    s->u.if_.test = rec_const(r, dead_test(co, r->is_module));
    s->u.if_.body = upy_vec_stmts(&dead);
    if (!s->u.if_.test)
        return ERROR;
    k = dead_code_from(r, body);
    if (k == UINT32_MAX)
        return ERROR;
    lead = dead_code_at(r, body, lead_len(body), k, with_names);
    for (k = 0; k <= body->len; k++)
        if (upy_vec_push(r->arena, &out,
                         k == lead  ? s
                         : k < lead ? body->items[k]
                                    : body->items[k - 1]))
            return rec_oom(r);
    *body = upy_vec_stmts(&out);
    return SUCCESS;
}

int rec_always_leaves(const upy_stmt_list *body) {
    const upy_stmt *s = body->len ? body->items[body->len - 1] : NULL;
    uint32_t h;
    if (!s)
        return 0;
    switch (s->kind) {
    case UPY_S_RETURN:
    case UPY_S_RAISE:
        return 1;
    case UPY_S_IF:
        return rec_always_leaves(&s->u.if_.body) &&
               rec_always_leaves(&s->u.if_.orelse);
    case UPY_S_TRY:
        if (rec_always_leaves(&s->u.try_.finalbody))
            return 1;
        if (!rec_always_leaves(s->u.try_.orelse.len ? &s->u.try_.orelse
                                                    : &s->u.try_.body))
            return 0;
        for (h = 0; h < s->u.try_.n_handlers; h++)
            if (!rec_always_leaves(&s->u.try_.handlers[h].body))
                return 0;
        return 1;
    default:
        return 0;
    }
}

static int in_names(const upy_object *names, const char *name) {
    uint32_t k;
    for (k = 0; k < upy_seq_len(names); k++)
        if (strcmp(str_at(names, k), name) == 0)
            return 1;
    return 0;
}

/* Whether loading `name` bare numbers it in co_names: it must load a
 * global (a local would not be numbered; a module's are the variables of
 * comprehensions 3.12+ inline in it, a load of that name outside them the
 * module's), and a dotted import is no name. */
static int global_name(const rec *r, const char *name) {
    const upy_code *co = r->code;
    return !strchr(name, '.') && upy_is_identifier(name) &&
           (r->is_module || !in_names(co->varnames, name)) &&
           !in_names(co->cellvars, name) && !in_names(co->freevars, name);
}

/* Names that dead code in the middle numbered (`if 0: x.split()`): in
 * co_names before some used one, used by no instruction, and not placed
 * already. */
static int push_dead_names(rec *r, const uint8_t *placed, upy_ptr_vec *names) {
    uint32_t k, from = r->used_names_end;
    for (k = 0; k < from; k++) {
        const char *name = str_at(r->code->names, k);
        if (!placed[k] && !r->name_used[k] && global_name(r, name) &&
            push_name(r, names, name))
            return ERROR;
    }
    return SUCCESS;
}

/* Whether an instruction names the local variable: in a module (3.12+)
 * only the variable of a comprehension inlined there is one, loaded and
 * stored as a fast local, and the module's names of the same spelling are
 * others. */
static int names_local(const rec *r, const char *name) {
    uint32_t i;
    if (!r->is_module)
        return names_variable(r, name);
    for (i = 0; i < r->ncode.count; i++)
        if (is_fast_use(ins(r, i)) && rec_str(ins(r, i)->obj) &&
            strcmp(rec_str(ins(r, i)->obj), name) == 0)
            return 1;
    return 0;
}

/* `[name for name in ()]`: the way dead code in a module numbered a local
 * (3.12+ inline a comprehension in its scope, its variable a fast local
 * the module's co_varnames holds). */
static int push_dead_comprehension(rec *r, upy_expr *name, upy_ptr_vec *dead) {
    upy_stmt *s = rec_stmt(r, UPY_S_EXPR);
    upy_expr *comp = upy_expr_new(r->arena, UPY_E_LISTCOMP),
             *empty = upy_expr_new(r->arena, UPY_E_TUPLE);
    upy_comprehension *gen = upy_arena_alloc(r->arena, sizeof *gen);
    if (!s || !comp || !empty || !gen)
        return rec_oom(r);
    gen->target = name;
    gen->iter = empty;
    comp->u.comp.elt = rec_name(r, name->u.name);
    if (!comp->u.comp.elt)
        return ERROR;
    comp->u.comp.generators = gen;
    comp->u.comp.n_generators = 1;
    s->u.expr = comp;
    return upy_vec_push(r->arena, dead, s) ? rec_oom(r) : 0;
}

/* For each co_names entry, the first neutral instruction numbering it, or
 * UINT32_MAX.  A copy of code recovered once (marked skipped) counts only
 * where no statement's own code numbers the entry: the statements hold
 * the original, and where the dead code goes among them is asked of
 * their code.  The normal copy of a finally body comes first, yet its
 * statements hold the copy in the handler:
 *     try: (try: pass / finally: raise E) / except E: g() / else: f()
 * numbers E, f, g; E's first load is in the normal copy (which raises,
 * so the compiler drops the else part), before the `raise E` statement,
 * and the dead f goes after that statement, not before it. */
uint32_t *rec_first_name_uses(rec *r) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->names), i;
    uint32_t *first = upy_arena_array(r->arena, n + 1, sizeof *first);
    uint32_t *copied = upy_arena_array(r->scratch, n + 1, sizeof *copied);
    if (!first || !copied) {
        rec_oom(r);
        return NULL;
    }
    for (i = 0; i < n; i++)
        first[i] = copied[i] = UINT32_MAX;
    for (i = 0; i < r->ncode.count; i++) {
        int32_t e = r->table_entries[0] ? r->table_entries[0][i]
                                        : rec_table_entry(r, i, 0);
        uint32_t *at = r->skip && r->skip[i] ? copied : first;
        if (e >= 0 && (uint32_t)e < n && i < at[e])
            at[e] = i;
    }
    for (i = 0; i < n; i++)
        if (first[i] == UINT32_MAX)
            first[i] = copied[i];
    return first;
}

/* The test of a dead `if` in the middle of the code, one that numbers no
 * constant anew, and the instruction it must come after (UINT32_MAX: none).
 * 3.10-3.11 number the test and keep it: a function's None in slot 0 (its
 * docstring's, numbered first), else the false constant loaded first.
 * 3.12+ drop it again unless it took a module's slot 0 (the test of the
 * dead code placed first, dead_test); 3.8-3.9 number none.  NULL when
 * there is no such test. */
static const upy_object *middle_test(const rec *r, const uint32_t *first,
                                     uint32_t *after) {
    const upy_object *consts = r->code->consts, *test = NULL;
    uint32_t n = (uint32_t)upy_seq_len(consts), k;
    *after = UINT32_MAX;
    if (!r->ncode.layout->keeps_unused_consts) {
        if (r->is_module && n)
            *after = first[0];
        return dead_test(r->code, r->is_module);
    }
    if (!r->is_module && n && upy_seq_item(consts, 0)->kind == UPY_NONE)
        return upy_seq_item(consts, 0);
    for (k = 0; k < n; k++)
        if (rec_false_literal(upy_seq_item(consts, k)) && first[k] < *after) {
            test = upy_seq_item(consts, k);
            *after = first[k];
        }
    return test;
}

/* `if test:` whose body loads names, said in the output, starting at
 * instruction `start`. */
static upy_stmt *dead_loads_if(rec *r, const upy_object *test,
                               upy_ptr_vec *names, uint32_t start) {
    upy_stmt *s = rec_stmt(r, UPY_S_IF),
             *note = rec_stmt(r, UPY_S_UNRECOVERED);
    upy_ptr_vec dead = {0};
    uint32_t k;
    if (!s || !note)
        return NULL;
    note->u.unrecovered.text = "unpyc: never runs; it numbers names of code "
                               "the compiler dropped (they are in co_names)";
    s->u.if_.test = rec_const(r, test);
    if (!s->u.if_.test || upy_vec_push(r->arena, &dead, note) ||
        flush_dead_loads(r, names, &dead)) {
        rec_oom(r);
        return NULL;
    }
    s->u.if_.body = upy_vec_stmts(&dead);
    rec_set_start(r, s, start);
    for (k = 0; k < s->u.if_.body.len; k++)
        rec_set_start(r, s->u.if_.body.items[k], start);
    return s;
}

/* Whether the names numbered next to the run [from, to) of the first n
 * entries are the last before it and the first after it in the code, as
 * the bounds take the code's order for the compiler's: 3.12+ move
 * handlers to the end, so a name numbered in a handler may come after
 * names numbered later. */
static int edges_in_order(const uint32_t *first, uint32_t n, uint32_t from,
                          uint32_t to, uint32_t lo, uint32_t hi) {
    uint32_t k = from;
    while (k > 0 && first[k - 1] == UINT32_MAX)
        k--;
    if (k > 0 && first[k - 1] != lo)
        return 0;
    for (k = to; k < n && first[k] == UINT32_MAX; k++)
        ;
    return k == n || first[k] == hi;
}

/* Whether place `at` of the list is its end, after a return or raise:
 * code there never runs, and the compiler drops it. */
static int after_leaving(const upy_stmt_list *list, uint32_t at) {
    const upy_stmt *last = at && at == list->len ? list->items[at - 1] : NULL;
    return last && (last->kind == UPY_S_RAISE || last->kind == UPY_S_RETURN);
}

/* Places the run [from, to) of co_names, names no instruction uses (or,
 * `used`, ones numbered before names an instruction uses earlier: see
 * place_early_names), where the numbering of the names around it puts it
 * (rec_dead_place), after instruction `after`.  1 when placed. */
static int place_dead_run(rec *r, upy_stmt_list *body, const uint32_t *first,
                          uint32_t from, uint32_t to, const upy_object *test,
                          uint32_t after, int used) {
    uint32_t n = r->used_names_end, lo, hi, at, start, k;
    upy_stmt_list *list;
    upy_ptr_vec names = {0};
    upy_stmt *s;
    for (k = from; k < to; k++)
        if (!global_name(r, str_at(r->code->names, k)))
            return 0;
    rec_dead_bounds(first, n, from, to, &lo, &hi);
    if (!edges_in_order(first, n, from, to, lo, hi))
        return 0;
    if (after != UINT32_MAX && (lo == UINT32_MAX || after > lo))
        lo = after;
    if (!rec_dead_place(r, body, lead_len(body), lo, hi, &list, &at, &start) ||
        (used && !after_leaving(list, at)))
        return 0;
    for (k = from; k < to; k++)
        RETURN_IF_ERROR(push_name(r, &names, str_at(r->code->names, k)));
    s = dead_loads_if(r, test, &names, start);
    return !s || rec_insert_stmt(r, list, at, s) ? ERROR : 1;
}

/* Names that dead code numbered before the code that uses them, which
 * comes later: an entry of co_names that an instruction uses, but only
 * after one of a name numbered after it.  When the numbering of the names
 * around it puts it right after a return or raise, it goes there, in an
 * `if` the compiler drops.  Worked example (3.12+):
 *     try: raise E / except T: pass / except E: self.fail() /
 *     else: self.fail()
 * numbers E, fail, T: the else part (compiled before the handlers) is
 * dead after the raise, and `fail` is first loaded in the last handler.
 * From the last entry (each goes before those after it at one place). */
static int place_early_names(rec *r, upy_stmt_list *body, const uint32_t *first,
                             const upy_object *test, uint32_t after) {
    /* first_after: the earliest first use of the entries after k (kept as
     * k goes down, not a scan of them per entry: co_names of thousands). */
    uint32_t n = r->used_names_end, k = n, first_after = UINT32_MAX;
    while (k-- > 0) {
        int late = first_after < first[k];
        if (first[k] < first_after)
            first_after = first[k];
        if (!r->name_used[k])
            continue;
        if (late &&
            place_dead_run(r, body, first, k, k + 1, test, after, 1) < 0)
            return ERROR;
    }
    return SUCCESS;
}

/* Names that dead code in the middle numbered (`else: self.fail()` after
 * a try body that always raises): each run of them in co_names goes in an
 * `if` the compiler drops, nested where the numbering puts it, from the
 * last run (each goes before those after it at one place).  placed[k]:
 * whether entry k went. */
static int place_dead_names(rec *r, upy_stmt_list *body, uint8_t *placed) {
    uint32_t *first = rec_first_name_uses(r), *consts = rec_first_const_loads(r);
    uint32_t to = r->used_names_end, from, after, k;
    const upy_object *test;
    if (!first || !consts)
        return ERROR;
    test = middle_test(r, consts, &after);
    while (test && to > 0) {
        int went;
        if (r->name_used[to - 1]) {
            to--;
            continue;
        }
        from = to;
        while (from > 0 && !r->name_used[from - 1])
            from--;
        went = place_dead_run(r, body, first, from, to, test, after, 0);
        if (went < 0)
            return ERROR;
        for (k = from; went && k < to; k++)
            placed[k] = 1;
        to = from;
    }
    return test ? place_early_names(r, body, first, test, after) : 0;
}

/* The statement of the body from `lead` on whose code holds instruction
 * i (the docstring made up after has no place in the code). */
static uint32_t stmt_of(const upy_stmt_list *body, uint32_t lead, uint32_t i) {
    uint32_t k = lead;
    while (k + 1 < body->len && body->items[k + 1]->start <= i)
        k++;
    return k;
}

/* The entry of co_varnames (table 0) or co_names (1) that instruction i
 * numbers, or -1. */
static int32_t numbered_entry(const rec *r, uint32_t i, int table) {
    const upy_nin *in = ins(r, i);
    const upy_object *t = table ? r->code->names : r->code->varnames;
    uint32_t k;
    if (table)
        return rec_table_entry(r, i, 0);
    if (in->op != N_LOAD && in->op != N_STORE && in->op != N_DELETE &&
        in->op != N_LOAD_CLOSURE)
        return -1;
    if (r->is_module && !is_fast_use(in))
        return -1;
    for (k = 0; k < upy_seq_len(t); k++)
        if (rec_str(in->obj) && strcmp(rec_str(in->obj), str_at(t, k)) == 0)
            return (int32_t)k;
    return -1;
}

/* Narrows [*lo, *hi], the places for dead code among the statements of
 * the body from `lead` on, by the order of a table (see numbered_entry) from
 * entry `first` on: entries no instruction numbers are the dead code's, and the
 * entries before them must be numbered by statements before it, those
 * after them by statements after.  0 when no place agrees. */
static int dead_code_span(const rec *r, const upy_stmt_list *body,
                          uint32_t lead, int table, uint32_t first,
                          uint32_t *lo, uint32_t *hi) {
    const upy_object *t = table ? r->code->names : r->code->varnames;
    uint32_t n = table ? r->used_names_end : (uint32_t)upy_seq_len(t), i, e,
             *at = upy_arena_array(r->arena, n + 1, sizeof(uint32_t));
    int32_t dmin = -1, dmax = -1;
    if (!at)
        return 0;
    for (e = 0; e < n; e++)
        at[e] = UINT32_MAX;
    for (i = 0; i < r->ncode.count; i++) {
        int32_t k = numbered_entry(r, i, table);
        if (k >= 0 && (uint32_t)k < n && stmt_of(body, lead, i) < at[k])
            at[k] = stmt_of(body, lead, i);
    }
    for (e = first; e < n; e++)
        if (table ? !r->name_used[e] : !names_local(r, str_at(t, e))) {
            dmin = dmin < 0 ? (int32_t)e : dmin;
            dmax = (int32_t)e;
        }
    for (e = first; dmin >= 0 && e < n; e++) {
        if ((int32_t)e >= dmin && (int32_t)e <= dmax)
            continue;
        if (at[e] == UINT32_MAX)
            return 0;
        if ((int32_t)e < dmin && at[e] + 1 > *lo)
            *lo = at[e] + 1;
        if ((int32_t)e > dmax && at[e] < *hi)
            *hi = at[e];
    }
    for (e = dmin + 1; dmin >= 0 && (int32_t)e < dmax; e++)
        if (at[e] != UINT32_MAX)
            return 0;
    return 1;
}

/* The first statement of the body dead code at the top level may go
 * before (UINT32_MAX when out of memory): in a module on 3.12+, which drop
 * the dead test's constant unless it took co_consts[0], after the one
 * numbering co_consts[0] where the test is another constant. */
static uint32_t dead_code_from(rec *r, const upy_stmt_list *body) {
    const upy_object *consts = r->code->consts;
    uint32_t lead = lead_len(body), *first, at;
    if (!r->is_module || r->ncode.layout->keeps_unused_consts ||
        !upy_seq_len(consts) ||
        dead_test(r->code, 1) == upy_seq_item(consts, 0))
        return lead;
    first = rec_first_const_loads(r);
    if (!first)
        return UINT32_MAX;
    if (first[0] == UINT32_MAX)
        return lead;
    at = stmt_of(body, lead, first[0]) + 1;
    return at > lead ? at : lead;
}

/* Where dead code goes among the statements of the body: where the order
 * the compiler numbered locals and names in puts it (3.10+ number those
 * of dead code too), else first, after `lead`.  At the end only after a
 * body that always leaves: its line would change the layout of the
 * function's exit. */
static uint32_t dead_code_at(const rec *r, const upy_stmt_list *body,
                             uint32_t lead, uint32_t from, int with_names) {
    const upy_code *co = r->code;
    uint32_t k,
        lo = from, hi = body->len,
        nparams = (uint32_t)(co->argcount + co->kwonlyargcount) +
                  !!(co->flags & CO_VARARGS) + !!(co->flags & CO_VARKEYWORDS);
    for (k = lead + 1; k < body->len; k++)
        if (body->items[k]->start < body->items[k - 1]->start)
            return lead;
    if (!dead_code_span(r, body, lead, 0, nparams, &lo, &hi) ||
        (with_names && !dead_code_span(r, body, lead, 1, 0, &lo, &hi)) ||
        lo > hi || (lo == body->len && !rec_always_leaves(body)))
        return lead;
    return lo;
}

/* The test of a dead `if` placed last: a false constant the code holds
 * already, where there is one (3.11 keeps the test's constant in
 * co_consts, numbered where the if compiles). */
static const upy_object *dead_test_last(const upy_code *co, int is_module) {
    static const upy_object zero_object = {UPY_INT, 0, {{0, 0, 0, 0, 0}}};
    if (has_const_like(co, &zero_object))
        return &zero_object;
    if (has_const_like(co, &false_object))
        return &false_object;
    return dead_test(co, is_module);
}

/* Adds the loads of names as one expression statement to dead, and
 * empties names. */
static int flush_dead_loads(rec *r, upy_ptr_vec *names, upy_ptr_vec *dead) {
    upy_stmt *s;
    if (!names->len)
        return SUCCESS;
    s = rec_stmt(r, UPY_S_EXPR);
    if (!s)
        return ERROR;
    if (names->len == 1) {
        s->u.expr = names->items[0];
    } else {
        s->u.expr = upy_expr_new(r->arena, UPY_E_TUPLE);
        if (s->u.expr)
            s->u.expr->u.elts = upy_vec_exprs(names);
    }
    if (!s->u.expr || upy_vec_push(r->arena, dead, s))
        return rec_oom(r);
    *names = (upy_ptr_vec){0};
    return SUCCESS;
}

/* `import name`: the way dead code numbers a local's name in co_names. */
static int push_dead_import(rec *r, const char *name, upy_ptr_vec *dead) {
    upy_stmt *s = rec_stmt(r, UPY_S_IMPORT);
    upy_alias *alias = upy_arena_alloc(r->arena, sizeof *alias);
    if (!s || !alias)
        return rec_oom(r);
    alias->name = rec_source_name(r, name);
    alias->asname = NULL;
    s->u.import.names = alias;
    s->u.import.n = 1;
    return upy_vec_push(r->arena, dead, s) ? rec_oom(r) : 0;
}

/* Where dead code after the statements goes when they can fall off their
 * end: the end of the last handler of a final try whose body always leaves
 * (its handlers are the ways to the end, and its else part, had the source
 * one, is dead).  An `if` the compiler drops after the try would stand
 * between those ways and the implicit return, which flowgraph.c
 * inline_small_exit_blocks copies into them where nothing does; at the
 * end of the last handler it runs after the names the handlers number, as
 * the dead code after the try (or, of an except*, in its else part,
 * compile.c compiler_try_star_except) did.  NULL when there is no such
 * try: the end of the statements. */
static upy_stmt_list *last_handler_end(upy_stmt_list *body) {
    upy_stmt *s = body->len ? body->items[body->len - 1] : NULL;
    if (!s || s->kind != UPY_S_TRY || !s->u.try_.n_handlers ||
        s->u.try_.orelse.len || s->u.try_.finalbody.len ||
        !rec_always_leaves(&s->u.try_.body))
        return NULL;
    return &s->u.try_.handlers[s->u.try_.n_handlers - 1].body;
}

/* `if False:` (or what the code's constants allow, dead_test_last)
 * around the statements dead, which the compiler drops. */
static upy_stmt *dead_if(rec *r, const upy_code *co, upy_ptr_vec *dead) {
    upy_stmt *s = rec_stmt(r, UPY_S_IF);
    if (!s)
        return NULL;
    s->u.if_.test = rec_const(r, dead_test_last(co, r->is_module));
    s->u.if_.body = upy_vec_stmts(dead);
    return s->u.if_.test ? s : NULL;
}

/* Names only dead code at the end used (`return x` after a return on
 * every way, `if 0: ...`): the compiler drops the code, not the names it
 * numbered, which come last in co_names.  Loading them there, where
 * nothing runs, numbers them again; after code that can fall off its
 * end, in an `if` the compiler drops (as the source's was), at the end
 * of the statements or where last_handler_end says. */
static int add_dead_names(rec *r, upy_stmt_list *body) {
    const upy_code *co = r->code;
    upy_ptr_vec loads = {0}, dead = {0}, out = {0};
    upy_stmt *s;
    upy_stmt_list *into;
    uint32_t n = (uint32_t)upy_seq_len(co->names), from = r->used_names_end, k;
    if (from == n)
        return SUCCESS;
    for (k = from; k < n; k++) {
        const char *name = str_at(co->names, k);
        upy_expr *e;
        /* A bare name must load a global (a local's is numbered by an
         * import), and a dotted import is no name. */
        if (strchr(name, '.') || !upy_is_identifier(name) ||
            in_names(co->cellvars, name) || in_names(co->freevars, name))
            return SUCCESS;
        if (!r->is_module && in_names(co->varnames, name)) {
            if (flush_dead_loads(r, &loads, &dead) ||
                push_dead_import(r, name, &dead))
                return ERROR;
            continue;
        }
        e = rec_name(r, rec_source_name(r, name));
        if (!e || upy_vec_push(r->arena, &loads, e))
            return rec_oom(r);
    }
    RETURN_IF_ERROR(flush_dead_loads(r, &loads, &dead));
    into = rec_always_leaves(body) ? NULL : last_handler_end(body);
    if (!into)
        into = body;
    for (k = 0; k < into->len; k++)
        if (upy_vec_push(r->arena, &out, into->items[k]))
            return rec_oom(r);
    if (rec_always_leaves(body)) {
        for (k = 0; k < dead.len; k++)
            if (upy_vec_push(r->arena, &out, dead.items[k]))
                return rec_oom(r);
    } else {
        s = dead_if(r, co, &dead);
        if (!s || upy_vec_push(r->arena, &out, s))
            return rec_oom(r);
    }
    *into = upy_vec_stmts(&out);
    return SUCCESS;
}

/* 3.13 keeps co_consts[0] whether code loads it or not
 * (remove_unused_consts in Python/flowgraph.c: it may be a docstring).  A
 * module's first constant that no instruction loads is a str the
 * optimizer dropped the load of after numbering it: an f-string statement
 * (`f''`, LOAD_CONST; POP_TOP, a pair it removes).  One, first, numbers
 * it again. */
static int add_first_const(rec *r, upy_stmt_list *body) {
    const upy_object *first =
        upy_seq_len(r->code->consts) ? upy_seq_item(r->code->consts, 0) : NULL;
    upy_ptr_vec out = {0};
    upy_stmt *s;
    upy_expr *text;
    uint32_t i;
    /* (Nothing goes before a docstring or a future import.) */
    if (!r->ncode.layout->keeps_first_const || !first ||
        first->kind != UPY_STR || lead_len(body))
        return SUCCESS;
    for (i = 0; i < r->ncode.count; i++)
        if (ins(r, i)->op == N_LOAD_CONST && ins(r, i)->arg == 0)
            return SUCCESS;
    s = rec_stmt(r, UPY_S_EXPR);
    if (!s)
        return ERROR;
    s->u.expr = upy_expr_new(r->arena, UPY_E_JOINEDSTR);
    text = rec_const(r, first);
    if (!s->u.expr || !text || upy_vec_push(r->arena, &out, s))
        return rec_oom(r);
    if (rec_str(first) && rec_str(first)[0]) {
        upy_ptr_vec parts = {0};
        if (upy_vec_push(r->arena, &parts, text))
            return rec_oom(r);
        s->u.expr->u.joined = upy_vec_exprs(&parts);
    }
    for (i = 0; i < body->len; i++)
        if (upy_vec_push(r->arena, &out, body->items[i]))
            return rec_oom(r);
    *body = upy_vec_stmts(&out);
    return SUCCESS;
}

/* Whether an instruction of the code binds cell `name` (a store or del
 * of the cell: assignment, import, def, for, except as all compile to one). */
static int binds_cell(const rec *r, const char *name) {
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        const char *stored = rec_str(in->obj);
        if ((in->op == N_STORE || in->op == N_DELETE) &&
            in->arg == UPY_SCOPE_DEREF && stored && strcmp(stored, name) == 0)
            return 1;
    }
    return 0;
}

/* The instructions using one fast local: stores and dels, 3.12+'s saves
 * of it around an inlined comprehension (LOAD_FAST_AND_CLEAR), and other
 * loads. */
typedef struct fast_uses {
    uint32_t binds, saves, reads;
} fast_uses;

static void tally_fast_use(const upy_nin *in, fast_uses *u) {
    if (in->op != N_LOAD)
        u->binds++;
    else if (in->arg == UPY_SCOPE_FAST_AND_CLEAR)
        u->saves++;
    else
        u->reads++;
}

/* The uses of fast local `name` in the code of r. */
static fast_uses count_fast_uses(const rec *r, const char *name) {
    fast_uses u = {0, 0, 0};
    uint32_t i;
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        if (is_fast_use(in) && rec_str(in->obj) &&
            strcmp(rec_str(in->obj), name) == 0)
            tally_fast_use(in, &u);
    }
    return u;
}

/* The uses of each of co_varnames, by index, in one pass over the code
 * (count_fast_uses per name read the code once per local: quadratic in
 * straight code of many locals).  An instruction names the co_varnames
 * entry itself, found by address, else one spelled alike.  NULL when out
 * of memory. */
static fast_uses *count_local_uses(rec *r) {
    const upy_object *names = r->code->varnames;
    uint32_t n = (uint32_t)upy_seq_len(names), i, k;
    fast_uses *uses = upy_arena_array(r->scratch, n + 1, sizeof *uses);
    upy_index_map at;
    if (!uses || upy_index_map_init(&at, r->scratch, n))
        return NULL;
    for (k = 0; k < n; k++)
        upy_index_map_put_first(&at, upy_seq_item(names, k), (int32_t)k);
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        int32_t slot;
        if (!is_fast_use(in) || !rec_str(in->obj))
            continue;
        slot = upy_index_map_get(&at, in->obj);
        for (k = 0; slot < 0 && k < n; k++)
            if (strcmp(str_at(names, k), rec_str(in->obj)) == 0)
                slot = (int32_t)k;
        if (slot >= 0)
            tally_fast_use(in, &uses[slot]);
    }
    return uses;
}

/* Whether the code reads local `name`, used as u says, where no statement
 * of the output would bind it, so that the read would be a global's: no
 * store or del of it at all (`x: int` makes x local, with no code; so
 * does the compiler's dropped `if False: x = 0`), or, 3.12+, only those
 * of the comprehensions inlined in the code (each saves it, stores its
 * target and puts it back on both ways out: three stores), read after
 * them as maybe unbound (LOAD_FAST_CHECK; test_listcomps'
 * test_unbound_local_after_comprehension).  The LOAD_FAST_CHECK is read
 * from the decoded form, decoded again (once) where the counts leave
 * that question open. */
static int reads_unbound_local(rec *r, const char *name, fast_uses u) {
    uint32_t i;
    if (!u.reads || !u.binds)
        return u.reads != 0;
    if (!u.saves || u.binds > 3 * u.saves)
        return 0;
    decode_again(r);
    for (i = 0; i < r->decoded.count; i++) {
        const upy_instr *in = &r->decoded.instrs[i];
        if (in->op == UPY_OP_LOAD_FAST_CHECK && rec_str(in->argobj) &&
            strcmp(rec_str(in->argobj), name) == 0)
            return 1;
    }
    return 0;
}

/* `name: 'object'` at body[at]. */
static int insert_bare_annotation(rec *r, upy_stmt_list *body, uint32_t at,
                                  const char *name) {
    static const upy_object annotation = {
        UPY_STR, 0, {.bytes = {(const uint8_t *)"object", 6}}};
    upy_stmt *s = rec_stmt(r, UPY_S_ANNASSIGN);
    if (!s)
        return ERROR;
    s->u.annassign.target = rec_name(r, rec_source_name(r, name));
    s->u.annassign.annotation = rec_const(r, &annotation);
    s->u.annassign.simple = 1;
    if (!s->u.annassign.target || !s->u.annassign.annotation)
        return rec_oom(r);
    return rec_insert_stmt(r, body, at, s);
}

/* `name: 'object'` for each cell of a function that no instruction binds
 * but an instruction names (a nested function's `nonlocal name` binds it,
 * or dead code did).  The source bound it by an annotation alone, which a
 * function's body does not compile: without a binding of its own the cell
 * would not be the function's (symtable.c: "no binding for nonlocal").  A
 * string annotation is never evaluated and names nothing.  Cells no
 * instruction names are add_dead_code's.  The same for each local read
 * where nothing binds it (reads_unbound_local): without a binding the
 * read would be a global's. */
static int add_unbound_cells(rec *r, upy_stmt_list *body) {
    const upy_code *co = r->code;
    uint32_t k, at = lead_len(body),
                nparams = (uint32_t)(co->argcount + co->kwonlyargcount) +
                          !!(co->flags & CO_VARARGS) +
                          !!(co->flags & CO_VARKEYWORDS);
    for (k = 0; k < upy_seq_len(co->cellvars); k++) {
        const char *name = str_at(co->cellvars, k);
        if (!names_variable(r, name) || is_param(co, nparams, name) ||
            binds_cell(r, name))
            continue;
        RETURN_IF_ERROR(insert_bare_annotation(r, body, at++, name));
    }
    /* (A code object whose locals are all parameters has none to ask
     * about: the uses are not counted.) */
    if (upy_seq_len(co->varnames) <= nparams)
        return SUCCESS;
    fast_uses *uses = count_local_uses(r);
    if (!uses)
        return rec_oom(r);
    for (k = nparams; k < upy_seq_len(co->varnames); k++) {
        const char *name = str_at(co->varnames, k);
        if (!reads_unbound_local(r, name, uses[k]))
            continue;
        RETURN_IF_ERROR(insert_bare_annotation(r, body, at++, name));
    }
    return SUCCESS;
}

/* Adds name to the names of `to` once. */
static int push_once(rec *r, upy_ptr_vec *to, const char *name) {
    uint32_t k;
    for (k = 0; k < to->len; k++)
        if (strcmp((const char *)to->items[k], name) == 0)
            return SUCCESS;
    return upy_vec_push(r->arena, to, (void *)name) ? rec_oom(r) : 0;
}

/* Whether a function around r (not a class body: its names are not seen
 * by the code nested in it) binds `name`: a bare read of it in r would
 * read that function's variable, so r's global read of it needs `global`
 * (as test__interpreters' `def script(): global w`, w a local of the
 * test). */
static int enclosing_function_binds(const rec *r, const char *name) {
    const rec *p;
    fast_uses u;
    for (p = r->parent; p && !p->is_module; p = p->parent) {
        if (p->is_class_body)
            continue;
        if (in_names(p->code->cellvars, name))
            return 1;
        /* (Counted only for a name the function has among its locals: a
         * walk of its code per global load of the nested code.) */
        if (!in_names(p->code->varnames, name))
            continue;
        /* (Not the variable of a comprehension 3.12+ inline there, which
         * the code nested in it does not see: three stores of it each.) */
        u = count_fast_uses(p, name);
        if (!u.saves || u.binds > 3 * u.saves)
            return 1;
    }
    return 0;
}

/* The declarations an assignment expression in a comprehension that code
 * `co` makes (and in those nested in it) implies, where the comprehension
 * is code of its own (3.8-3.11, and 3.12+ generator expressions): its
 * target binds in the function around it, which declared it global (a
 * STORE_GLOBAL in the comprehension) or nonlocal (a store of a cell the
 * function only passes on, one of its free variables).  Without the
 * declaration, the target would be a local of the function.  A global
 * read in the comprehension of a name a function around binds was
 * declared global too (enclosing_function_binds). */
static int comprehension_declarations(rec *r, const upy_code *co, int depth,
                                      upy_ptr_vec *globals,
                                      upy_ptr_vec *nonlocals) {
    uint32_t i, k;
    for (i = 0; i < upy_seq_len(co->consts) && depth < 8; i++) {
        const upy_object *c = upy_seq_item(co->consts, i);
        upy_decoded dec;
        upy_ncode nc;
        unpyc_error local;
        if (c->kind != UPY_CODE || !rec_is_comprehension_code(c->u.code) ||
            (depth == 0 && !const_loaded(r, c)))
            continue;
        if (upy_decode_code(r->version, c->u.code, r->scratch, &dec, &local) ||
            upy_normalize(&dec, r->version, r->scratch, &nc, &local))
            continue;
        for (k = 0; k < nc.count; k++) {
            const upy_nin *in = &nc.ins[k];
            const char *name = rec_str(in->obj);
            if (!name)
                continue;
            if (in->op == N_LOAD && in->arg == UPY_SCOPE_GLOBAL &&
                enclosing_function_binds(r, name) &&
                push_once(r, globals, rec_source_name(r, name)))
                return ERROR;
            if (in->op != N_STORE)
                continue;
            if (in->arg == UPY_SCOPE_GLOBAL &&
                push_once(r, globals, rec_source_name(r, name)))
                return ERROR;
            if (in->arg == UPY_SCOPE_DEREF &&
                in_names(r->code->freevars, name) &&
                push_once(r, nonlocals, rec_source_name(r, name)))
                return ERROR;
        }
        RETURN_IF_ERROR(comprehension_declarations(r, c->u.code, depth + 1,
                                                   globals, nonlocals));
    }
    return SUCCESS;
}

/* global / nonlocal declarations the code implies.  In a function, a free
 * variable no instruction names was declared nonlocal and never used (or
 * used in dead code only): it stays free, and the declaration keeps it so.
 * (A method's __class__ is free by reading it, never by declaring it; a
 * store or del of it is a local's but for `nonlocal __class__`.) */
static int add_declarations(rec *r, upy_stmt_list *body, int function) {
    const upy_code *co = r->code;
    upy_ptr_vec globals = {0}, nonlocals = {0};
    uint32_t i, k, at;
    for (i = 0; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        const char *name = rec_str(in->obj);
        upy_ptr_vec *to = NULL;
        /* A module's own loads are LOAD_NAME but for a name it declares
         * global (a class body's inlined comprehensions load globals). */
        if ((in->op == N_STORE || in->op == N_DELETE ||
             (in->op == N_LOAD &&
              (r->is_module || (in->arg == UPY_SCOPE_GLOBAL && name &&
                                enclosing_function_binds(r, name))))) &&
            name) {
            /* In a module too: a `global` in any function makes the
             * module's own stores of that name STORE_GLOBAL, and a function
             * that only reads the name does not show its declaration. */
            if (in->arg == UPY_SCOPE_GLOBAL)
                to = &globals;
            else if (in->arg == UPY_SCOPE_DEREF)
                for (k = 0; k < upy_seq_len(co->freevars); k++)
                    if (strcmp(str_at(co->freevars, k), name) == 0 &&
                        !is_inlined_variable(r, name))
                        to = &nonlocals;
        }
        if (!to)
            continue;
        name = rec_source_name(r, name);
        for (k = 0; k < to->len; k++)
            if (strcmp((const char *)to->items[k], name) == 0)
                break;
        if (k == to->len && upy_vec_push(r->arena, to, (void *)name))
            return rec_oom(r);
    }
    if (function && comprehension_declarations(r, co, 0, &globals, &nonlocals))
        return ERROR;
    for (k = 0; function && k < upy_seq_len(co->freevars); k++) {
        const char *name = str_at(co->freevars, k);
        if (strcmp(name, "__class__") != 0 && !names_variable(r, name) &&
            upy_vec_push(r->arena, &nonlocals,
                         (void *)rec_source_name(r, name)))
            return rec_oom(r);
    }
    at = lead_len(body);
    for (k = 0; k < 2; k++) {
        upy_ptr_vec *names = k ? &nonlocals : &globals;
        upy_stmt *s;
        if (!names->len)
            continue;
        s = rec_stmt(r, k ? UPY_S_NONLOCAL : UPY_S_GLOBAL);
        if (!s)
            return ERROR;
        s->u.names.names = (const char **)names->items;
        s->u.names.n = names->len;
        RETURN_IF_ERROR(rec_insert_stmt(r, body, at++, s));
    }
    return SUCCESS;
}

/* Whether instruction `in` has an effect no output may leave out. */
static int has_effect(const upy_nin *in) {
    switch ((upy_nop)in->op) {
    case N_STORE:
    case N_DELETE:
    case N_STORE_ATTR:
    case N_DELETE_ATTR:
    case N_STORE_SUBSCR:
    case N_DELETE_SUBSCR:
    case N_STORE_SLICE:
    case N_CALL:
    case N_CALL_EX:
    case N_RAISE:
    case N_YIELD:
    case N_IMPORT_NAME:
        return 1;
    default:
        return 0;
    }
}

/* Whether block bb is code the compiler adds that no source statement is
 * in, so that the construct it belongs to stands for it:
 *   - a cleanup handler around a construct, which only resets local names
 *     and re-raises (the end of `except E as name`: name = None; del name;
 *     a 3.12+ inlined comprehension putting back the locals it saved);
 *   - a copy of a class body's end, which the compiler puts in each branch
 *     that reaches it: it only returns, after storing what every class
 *     body stores by itself (3.13's __static_attributes__, __classcell__
 *     where a method uses super()); one copy the structure took stands for
 *     the others. */
static int is_compiler_code(const rec *r, const upy_block *bb) {
    uint32_t i;
    if (ins(r, bb->end - 1)->op == N_RERAISE) {
        for (i = bb->start; i + 1 < bb->end; i++) {
            const upy_nin *in = ins(r, i);
            if (in->op != N_STORE && in->op != N_DELETE && in->op != N_SWAP &&
                in->op != N_POP_TOP && !upy_nin_loads_none(in))
                return 0;
        }
        return 1;
    }
    if (!r->is_class_body || ins(r, bb->end - 1)->op != N_RETURN)
        return 0;
    for (i = bb->start; i + 1 < bb->end; i++) {
        const upy_nin *in = ins(r, i);
        const char *name = in->obj && in->obj->kind == UPY_STR
                               ? rec_str(in->obj)
                               : NULL;
        if (in->op == N_STORE &&
            !(name && (strcmp(name, "__classcell__") == 0 ||
                       strcmp(name, "__static_attributes__") == 0)))
            return 0;
        if (in->op != N_STORE && has_effect(in))
            return 0;
    }
    return 1;
}

/* Whether the return of value ending block bb, which recovery never ran,
 * is in the output all the same.  The compiler copies a small exit into
 * each branch that reaches it (flowgraph.c inline_small_exit_blocks and
 * duplicate_exits_without_lineno; 3.8-3.9's peephole jump threading), and
 * recovery runs one copy: the return counts as printed when a return it
 * ran ends another block with the same instructions.  Two kinds are taken
 * on trust: a block that is only the return, whose value the blocks before
 * it computed (the join of `return a if c else b`), and `return None`,
 * which the printer leaves out wherever it ends a body, so no copy of it
 * is run.  Worked example (s3transfer Task.__call__, 3.11-3.13):
 *     try:
 *         if not done(): return run(kw)
 *     except Exception: log()
 *     finally:
 *         if final: announce()
 * came out with `pass` for the return: the finally body's copy split by
 * its `if` hid the return after it, the call ran as a lone value, and only
 * the return was left out. */
/* Whether the `return None` ending block bb follows a POP_TOP recovery
 * never ran: the pop of a for loop's iterator, so the return leaves the
 * loop (a `return` or a `break` to the function's end) and is no implicit
 * `return None` ending the function.  Worked example (3.12-3.13):
 *     for x in a:
 *         try: x()
 *         except KeyError as e:
 *             if e: break
 *             continue
 *         finally: d()
 * the break is POP_EXCEPT; del e; d(); POP_TOP; RETURN_CONST None (the
 * jump to the loop's exit threaded into its return); recovery printed
 * `if e: pass` and ran none of it. */
static int pops_unrun_iterator(const rec *r, const upy_block *bb) {
    uint32_t pop = bb->end - 3;
    int32_t b = (int32_t)(bb - blk(r, 0));
    if (bb->end - bb->start < 3 || ins(r, pop)->op != N_POP_TOP ||
        r->evaluated[pop] || r->skip[pop])
        return 0;
    /* The block is in the body of a for loop: a header ending in FOR_ITER
     * dominates it.  (A with's way on when __exit__ swallows the
     * exception, POP_EXCEPT; POP_TOP; POP_TOP; RETURN_CONST None, has the
     * same unrun POP_TOP, of the exit, outside any loop.) */
    while ((b = blk(r, b)->idom) != UPY_NO_BLOCK)
        if (blk(r, b)->is_loop_header &&
            ins(r, blk(r, b)->end - 1)->op == N_FOR_ITER)
            return 1;
    return 0;
}

/* The blocks ending in a return that recovery ran, which return_printed
 * compares a block with: found once, at its first question (each unrun
 * return went through every block of the code: quadratic where the
 * returns are many, as the copies of the return after a loop in the
 * clauses of a body of tries past the stack budget). */
typedef struct run_returns {
    uint32_t *blocks, count;
    int found;
} run_returns;

static void find_run_returns(const rec *r, run_returns *rr) {
    uint32_t b;
    rr->found = 1;
    rr->count = 0;
    rr->blocks = upy_arena_array_uncleared(r->scratch, r->cfg.count + 1,
                                           sizeof *rr->blocks);
    for (b = 0; rr->blocks && b < r->cfg.count; b++) {
        const upy_block *o = blk(r, b);
        if (o->end > o->start && r->evaluated[o->end - 1] &&
            ins(r, o->end - 1)->op == N_RETURN)
            rr->blocks[rr->count++] = b;
    }
}

static int return_printed(const rec *r, const upy_block *bb, run_returns *rr) {
    uint32_t k, n = bb->end - bb->start;
    const upy_nin *value = ins(r, bb->end - 2);
    if (n == 1 || (((ins(r, bb->end - 1)->obj &&
                     ins(r, bb->end - 1)->obj->kind == UPY_NONE) ||
                    upy_nin_loads_none(value)) &&
                   !pops_unrun_iterator(r, bb)))
        return 1;
    if (!rr->found)
        find_run_returns(r, rr);
    /* (bb ends in its return: only a block ending in one has the same
     * code at its end.  Out of memory, the return counts as lost and is
     * marked.) */
    for (k = 0; k < rr->count; k++) {
        const upy_block *o = blk(r, rr->blocks[k]);
        if (o != bb && o->end - o->start >= n &&
            rec_same_code(r, bb->start, o->end - n, n))
            return 1;
    }
    return 0;
}

/* The last check against a silently wrong output: a reachable block with
 * an effect that recovery never ran (a branch the structure lost), or a
 * return it left out, is appended as an unrecovered region. */
static void check_placed(rec *r, upy_ptr_vec *out) {
    uint32_t b, i;
    run_returns rr = {NULL, 0, 0};
    for (b = 0; b < r->cfg.count; b++) {
        const upy_block *bb = blk(r, b);
        if (bb->rpo == UINT32_MAX || r->done[b] || is_compiler_code(r, bb))
            continue;
        for (i = bb->start; i < bb->end; i++)
            if (!r->evaluated[i] && !r->skip[i] &&
                (has_effect(ins(r, i)) || r->must_place[i] ||
                 (ins(r, i)->op == N_RETURN && !return_printed(r, bb, &rr))))
                break;
        if (i < bb->end)
            rec_unrecovered(r, out, bb->start, bb->end,
                            "block, which no statement above holds");
    }
}

/* Where a statement stands, for the statements valid only somewhere. */
enum { IN_FUNCTION = 1, IN_LOOP = 2 };

static void check_valid_list(rec *r, upy_stmt_list *body, unsigned where);

/* The statement lists in one, checked with where they stand. */
typedef struct valid_check {
    rec *r;
    unsigned where;
} valid_check;

static void check_valid_in(upy_stmt_list *list, upy_list_role role,
                           const upy_stmt *holder, void *arg) {
    const valid_check *c = arg;
    (void)holder;
    check_valid_list(
        c->r, list, role == UPY_LIST_LOOP_BODY ? c->where | IN_LOOP : c->where);
}

/* A return outside a function or a break / continue outside a loop would
 * make the whole output invalid; it only comes from structure recovered
 * wrong, so it becomes an unrecovered comment instead. */
static void check_valid(rec *r, upy_stmt *s, unsigned where) {
    const char *why = NULL;
    valid_check c;
    switch (s->kind) {
    case UPY_S_RETURN:
        if (!(where & IN_FUNCTION))
            why = "unpyc: the code leaves the module or class body here "
                  "(a `return` outside a function)";
        break;
    case UPY_S_BREAK:
    case UPY_S_CONTINUE:
        if (!(where & IN_LOOP))
            why = s->kind == UPY_S_BREAK
                      ? "unpyc: the code jumps out here (a `break` outside "
                        "a loop)"
                      : "unpyc: the code jumps back here (a `continue` "
                        "outside a loop)";
        break;
    default:
        c.r = r;
        c.where = where;
        upy_stmt_each_list(s, check_valid_in, &c);
        break;
    }
    if (why) {
        s->kind = UPY_S_UNRECOVERED;
        s->u.unrecovered.text = why;
        s->u.unrecovered.lost = 1;
        r->lost_marks++;
        r->unrecovered++;
    }
}

static void check_valid_list(rec *r, upy_stmt_list *body, unsigned where) {
    uint32_t k;
    for (k = 0; k < body->len; k++)
        if (body->items[k])
            check_valid(r, body->items[k], where);
}

/* How many statements of lists marking lost code one holds. */
static void count_lost_in(upy_stmt_list *list, upy_list_role role,
                          const upy_stmt *holder, void *arg) {
    uint32_t k, *n = arg;
    (void)role;
    (void)holder;
    for (k = 0; k < list->len; k++) {
        upy_stmt *s = list->items[k];
        if (!s)
            continue;
        if (s->kind == UPY_S_UNRECOVERED && s->u.unrecovered.lost)
            (*n)++;
        upy_stmt_each_list(s, count_lost_in, n);
    }
}

/* The last check that lost code never goes unseen: a region marked
 * unrecovered in one reading of the structure that another reading then
 * replaced leaves the code's unrecovered count up (the command exits 9)
 * but no mark in the text, over statements that may be a guess.  Worked
 * example (3.12): `while True: try: g() / except OSError: h() / else:
 * break` followed by `try: x = c[p] / except KeyError: x = 1`, where the
 * break falls into the second try, printed the second try inside the
 * first one's else part, with no mark.  Such a body gets one at its top
 * (after the statements that must stay first). */
static int mark_lost_marks(rec *r, upy_stmt_list *body) {
    uint32_t shown = 0, k;
    upy_stmt *note;
    upy_ptr_vec marked = {0};
    count_lost_in(body, UPY_LIST_BRANCH, NULL, &shown);
    if (shown >= r->lost_marks)
        return SUCCESS;
    note = rec_stmt(r, UPY_S_UNRECOVERED);
    if (!note)
        return rec_oom(r);
    note->u.unrecovered.text =
        "unpyc: could not recover a region of this code, and the mark that "
        "showed it\nwas lost: the statements below may not run as the "
        "original does";
    note->u.unrecovered.lost = 1;
    for (k = 0; k <= body->len; k++) {
        if (k == lead_len(body) && upy_vec_push(r->arena, &marked, note))
            return rec_oom(r);
        if (k < body->len && upy_vec_push(r->arena, &marked, body->items[k]))
            return rec_oom(r);
    }
    *body = upy_vec_stmts(&marked);
    return SUCCESS;
}

/* --- one code object ---------------------------------------------------- */

typedef enum code_kind {
    CODE_MODULE,
    CODE_FUNCTION,
    CODE_CLASS,
    CODE_LAMBDA,
    CODE_COMPREHENSION,
    /* 3.12+: the scope of a generic def, class or type alias's type
     * parameters, and a lazily evaluated value (a type parameter's bound,
     * constraints or default, a type alias's value).  The latter looks
     * like any function; only the code that makes it tells. */
    CODE_GENERIC,
    CODE_LAZY,
} code_kind;

static code_kind kind_of(const upy_code *co) {
    const char *name = rec_str(co->name);
    if (!(co->flags & CO_OPTIMIZED))
        return name && strcmp(name, "<module>") == 0 ? CODE_MODULE : CODE_CLASS;
    if (name && strcmp(name, "<lambda>") == 0)
        return CODE_LAMBDA;
    if (rec_is_generic_scope(co))
        return CODE_GENERIC;
    if (name && name[0] == '<')
        return CODE_COMPREHENSION;
    return CODE_FUNCTION;
}

/* A body of one unrecovered statement saying why (the failure's message):
 * 0, or -1 when out of memory.  Counted in options->input_marks too when
 * the text may depend on the input's form rather than on the code: a
 * corrupt input (decode quotes offsets in the marshal data) or the memory
 * limit (set by the input's length). */
static int unrecovered_body(upy_arena *arena, const unpyc_error *failure,
                            const upy_recover_options *options,
                            upy_stmt_list *body, unsigned *unrecovered) {
    const char *why = failure->message;
    size_t size = strlen(why) + sizeof "unpyc: ";
    upy_stmt *s = upy_stmt_new(arena, UPY_S_UNRECOVERED);
    char *text = upy_arena_alloc(arena, size);
    body->items = upy_arena_alloc(arena, sizeof(upy_stmt *));
    if (!s || !text || !body->items)
        return ERROR;
    snprintf(text, size, "unpyc: %s", why);
    s->u.unrecovered.text = text;
    body->items[0] = s;
    body->len = 1;
    (*unrecovered)++;
    if (options->input_marks && (failure->status == UNPYC_E_CORRUPT ||
                                 failure->status == UNPYC_E_TOO_LARGE))
        (*options->input_marks)++;
    return SUCCESS;
}

/* Recovers the statements of co, of the given kind.  A type parameter
 * scope is called with args[0, nargs), the values of its parameters (the
 * def's defaults).  A failure of the code object itself (memory aside)
 * gives one unrecovered statement, so the caller always gets a body. */
/* Decodes and normalizes r's code into r->ncode, the decoded form in an
 * arena of its own released here (see rec.h). */
/* r's code decoded and normalized into r->ncode.  The decoded form is
 * given back before the neutral instructions are copied out of
 * normalize's working arena (upy_normalize_in / _keep): the three were a
 * code object's peak, the biggest function's that of most modules. */
static unpyc_status normalized(rec *r, unpyc_error *local) {
    upy_arena decoded, work;
    upy_decoded dec;
    unpyc_status st;
    upy_arena_init_scratch(&decoded, r->scratch);
    upy_arena_init_scratch(&work, r->scratch);
    st = upy_decode_code(r->version, r->code, &decoded, &dec, local);
    if (st == UNPYC_OK && rec_note_const_loads(r, &dec))
        st = upy_fail(
            local, r->scratch->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
            -1, "out of memory");
    if (st == UNPYC_OK)
        st = upy_normalize_in(&dec, r->version, &work, &r->ncode, local);
    upy_arena_release(&decoded);
    if (st == UNPYC_OK)
        st = upy_normalize_keep(&r->ncode, r->scratch, local);
    if (st == UNPYC_OK)
        rec_index_const_loads(r);
    else
        memset(&r->ncode, 0, sizeof r->ncode);
    upy_arena_release(&work);
    return st;
}

static int recover_in(const rec *parent, const upy_code *co, code_kind kind,
                      const sval *args, uint32_t nargs, upy_version version,
                      const upy_recover_options *options, upy_arena *arena,
                      upy_arena *scratch, int depth, upy_stmt_list *body,
                      unsigned *unrecovered, unpyc_error *err) {
    rec r;
    upy_ptr_vec out = {0};
    region rg;
    rec_resume moved_exit = {UPY_NO_BLOCK, 0};
    unpyc_status st;
    unpyc_error local;
    uint32_t k;

    memset(&r, 0, sizeof r);
    r.arena = arena;
    r.scratch = scratch;
    r.err = err;
    r.options = options;
    r.version = version;
    r.code = co;
    r.depth = depth;
    r.parent = parent;
    /* (The stack stands lower in nested code: they share the budget.) */
    r.stack_base = parent ? parent->stack_base : (uintptr_t)&r;
    r.none_object = &none_object;
    r.is_module = kind == CODE_MODULE;
    r.is_class_body = kind == CODE_CLASS;
    r.is_comprehension = kind == CODE_COMPREHENSION;
    r.is_generic = kind == CODE_GENERIC;
    r.is_lazy = kind == CODE_LAZY;
    for (k = 0; k < nargs && k < (uint32_t)co->argcount && k < REC_MAX_HIDDEN;
         k++) {
        r.hidden[k].name = str_at(co->varnames, k);
        r.hidden[k].value = rec_value(&r, args[k]);
        r.n_hidden++;
    }
    r.resume_block = UPY_NO_BLOCK;
    /* Names are mangled with the innermost class's name, in its body and
     * in every function, lambda and comprehension nested in it. */
    r.class_name = kind == CODE_CLASS ? rec_str(co->name)
                   : parent           ? parent->class_name
                                      : NULL;
    body->items = NULL;
    body->len = 0;

    local.status = UNPYC_OK;
    local.offset = -1;
    local.message[0] = '\0';
    if (depth > options->max_depth) {
        st = upy_fail(&local, UNPYC_E_TOO_LARGE, -1, "nested too deep");
    } else {
        st = normalized(&r, &local);
        if (st == UNPYC_OK)
            st = upy_cfg_build(&r.ncode, scratch, &r.cfg, &local);
        if (st == UNPYC_OK && index_tables(&r))
            return ERROR;
    }
    if (st == UNPYC_E_NOMEM) {
        upy_fail(err, st, local.offset, "%s", local.message);
        return ERROR;
    }
    if (st != UNPYC_OK)
        return unrecovered_body(arena, &local, options, body, unrecovered);
    r.done = upy_arena_array(scratch, r.cfg.count + 1, 1);
    r.skip = upy_arena_array(scratch, r.ncode.count + 1, 1);
    r.evaluated = upy_arena_array(scratch, r.ncode.count + 1, 1);
    r.must_place = upy_arena_array(scratch, r.ncode.count + 1, 1);
    r.normal_reach = rec_normal_reach(&r);
    r.assertion_name = rec_name(&r, "AssertionError");
    r.match_steps = 64 * (uint64_t)r.ncode.count + 4096;
    for (k = 0; k < r.ncode.count && !r.has_pop_jump_if; k++)
        r.has_pop_jump_if = r.ncode.ins[k].op == N_POP_JUMP_IF;
    if (!r.done || !r.skip || !r.evaluated || !r.must_place ||
        !r.assertion_name || !r.normal_reach)
        return rec_oom(&r);
    memset(&rg, 0, sizeof rg);
    rg.start = 0;
    rg.end = (int32_t)r.cfg.count;
    rg.follow = UPY_NO_BLOCK;
    rg.brk = rg.brk_threaded = rg.cont = rg.loop = UPY_NO_BLOCK;
    rg.handler = UPY_NO_BLOCK;
    rg.alt_handler = REC_NO_ALT;
    rg.moved_exit = &moved_exit;
    if (r.cfg.count && rec_region(&r, 0, &rg, &out, NULL))
        return ERROR;
    if (r.failed)
        return ERROR;
    check_placed(&r, &out);
    *body = upy_vec_stmts(&out);
    RETURN_IF_ERROR(rec_place_passes(&r, body));
    rec_breaks_to_tail(&r, body);
    RETURN_IF_ERROR(rec_fold_spills(&r, body));
    if (kind == CODE_CLASS) {
        /* The compiler copies the end of a class body (3.13's
         * __static_attributes__ store, the return) into the branches
         * before it: folded first, the copies go with the original. */
        rec_class_cell_returns(body);
        rec_fold_tail_returns(&r, body);
        rec_tidy_class_body(body);
        rec_drop_final_return(&r, body);
    } else if (kind != CODE_LAMBDA && kind != CODE_GENERIC &&
               kind != CODE_LAZY) {
        rec_unwound_returns(&r, body);
        rec_fold_tail_returns(&r, body);
        rec_strip_tail_copies(&r, body);
        rec_else_before_clause_jumps(&r, body);
        rec_else_before_dead_code(&r, body);
        rec_drop_final_return(&r, body);
    }
    RETURN_IF_ERROR(rec_place_final_passes(&r, body));
    if (kind == CODE_MODULE)
        rec_docstring_from_doc(body, 0);
    if (kind == CODE_FUNCTION && upy_seq_len(co->consts) &&
        upy_seq_item(co->consts, 0)->kind == UPY_STR) {
        upy_stmt *doc = rec_stmt(&r, UPY_S_EXPR);
        upy_ptr_vec with_doc = {0};
        uint32_t k;
        if (!doc)
            return ERROR;
        doc->u.expr = rec_const(&r, upy_seq_item(co->consts, 0));
        if (upy_vec_push(arena, &with_doc, doc))
            return rec_oom(&r);
        for (k = 0; k < body->len; k++)
            if (upy_vec_push(arena, &with_doc, body->items[k]))
                return rec_oom(&r);
        *body = upy_vec_stmts(&with_doc);
    }
    rec_elif_chains(body, r.ncode.layout->keeps_jump_after_exit);
    check_valid_list(
        &r, body, kind == CODE_MODULE || kind == CODE_CLASS ? 0 : IN_FUNCTION);
    RETURN_IF_ERROR(mark_lost_marks(&r, body));
    RETURN_IF_ERROR(index_names(&r));
    if (kind == CODE_FUNCTION &&
        (add_dead_yield(&r, body) || add_dead_code(&r, body) ||
         add_dead_names(&r, body) || add_unbound_cells(&r, body)))
        return ERROR;
    /* Names only dead code of a module or class body used stay in its
     * co_names as in a function's; a module has no locals or cells. */
    if (kind == CODE_MODULE && (add_dead_code(&r, body) || add_dead_names(&r, body) ||
                                add_first_const(&r, body)))
        return ERROR;
    if (kind == CODE_CLASS && add_dead_names(&r, body))
        return ERROR;
    if ((kind == CODE_FUNCTION || kind == CODE_MODULE || kind == CODE_CLASS) &&
        rec_add_dead_consts(&r, body, lead_len(body), kind == CODE_FUNCTION))
        return ERROR;
    if ((kind == CODE_MODULE || kind == CODE_CLASS) &&
        add_dead_annotation(&r, body))
        return ERROR;
    /* A type parameter scope or lazy value binds no name of the source:
     * its cells are the parameters, or a comprehension's variable. */
    if (kind != CODE_GENERIC && kind != CODE_LAZY &&
        add_declarations(&r, body, kind == CODE_FUNCTION))
        return ERROR;
    *unrecovered += r.unrecovered;
    return SUCCESS;
}

/* recover_in with the decoded code object in a scratch arena of its own,
 * released once its statements are built: they hold nothing of it. */
static int recover_body(const rec *parent, const upy_code *co, code_kind kind,
                        const sval *args, uint32_t nargs, upy_version version,
                        const upy_recover_options *options, upy_arena *arena,
                        int depth, upy_stmt_list *body, unsigned *unrecovered,
                        unpyc_error *err) {
    upy_arena scratch;
    upy_arena_mark mark;
    unpyc_error local;
    int failed;
    local.status = UNPYC_OK;
    local.offset = -1;
    local.message[0] = '\0';
    upy_arena_mark_now(arena, &mark);
    upy_arena_init_scratch(&scratch, arena);
    failed = recover_in(parent, co, kind, args, nargs, version, options, arena,
                        &scratch, depth, body, unrecovered, &local);
    upy_arena_release(&scratch);
    if (failed && local.status == UNPYC_E_TOO_LARGE) {
        /* Over the memory limit: this code object alone is lost, and what
         * it took is given back for the code after it. */
        upy_arena_rollback(arena, &mark);
        return unrecovered_body(arena, &local, options, body, unrecovered);
    }
    if (failed && err && err->status == UNPYC_OK)
        *err = local;
    return failed;
}

/* The statements of nested code co, built in arena. */
static upy_stmt_list nested_body_in(rec *r, upy_arena *arena,
                                    const upy_code *co, code_kind kind,
                                    const sval *args, uint32_t nargs, int *ok) {
    upy_stmt_list body = {NULL, 0};
    unsigned unrecovered = 0;
    if (recover_body(r, co, kind, args, nargs, r->version, r->options, arena,
                     r->depth + 1, &body, &unrecovered, r->err)) {
        r->failed = 1;
        *ok = 0;
    }
    r->unrecovered += unrecovered;
    return body;
}

static upy_stmt_list nested_body(rec *r, const upy_code *co, code_kind kind,
                                 const sval *args, uint32_t nargs, int *ok) {
    return nested_body_in(r, r->arena, co, kind, args, nargs, ok);
}

upy_stmt_list rec_nested_body(rec *r, const upy_code *co, int *ok) {
    return nested_body(r, co, kind_of(co), NULL, 0, ok);
}

/* A def's or class's body is read by nothing but the printer (the
 * enclosing code's passes stop at def and class statements), so with
 * options->print_body it is built in an arena of its own, printed at once
 * into r->arena and released: the module's arena holds the text of the
 * bodies recovered so far, and the trees of the code objects open at once
 * (a method in a class in the module), instead of every tree until the
 * end.  Lambda, comprehension, generic and lazy bodies stay trees: the
 * enclosing code takes expressions out of them. */
upy_stmt_list rec_def_body(rec *r, const upy_code *co, int *ok) {
    upy_arena tree;
    upy_stmt_list body, printed = {NULL, 0};
    upy_stmt **items;
    if (!r->options->print_body)
        return rec_nested_body(r, co, ok);
    upy_arena_init_scratch(&tree, r->arena);
    body = nested_body_in(r, &tree, co, kind_of(co), NULL, 0, ok);
    if (*ok) {
        items = upy_arena_alloc(r->arena, sizeof *items);
        if (items)
            items[0] = r->options->print_body(&body, r->version,
                                              r->options->print_text, r->arena);
        if (items && items[0]) {
            printed.items = items;
            printed.len = 1;
        } else {
            rec_oom(r);
            *ok = 0;
        }
    }
    upy_arena_release(&tree);
    return printed;
}

upy_expr *rec_lazy_value(rec *r, const upy_code *co) {
    int ok = 1;
    upy_stmt_list body = nested_body(r, co, CODE_LAZY, NULL, 0, &ok);
    if (body.len == 1 && body.items[0]->kind == UPY_S_RETURN)
        return body.items[0]->u.value ? body.items[0]->u.value
                                      : rec_const(r, &none_object);
    return rec_placeholder(r);
}

upy_stmt *rec_generic_body(rec *r, const upy_code *co, const sval *args,
                           uint32_t nargs) {
    int ok = 1;
    upy_stmt_list body = nested_body(r, co, CODE_GENERIC, args, nargs, &ok);
    if (body.len != 1)
        return NULL;
    switch (body.items[0]->kind) {
    case UPY_S_FUNCTIONDEF:
        return body.items[0]->u.funcdef.type_params.len ? body.items[0] : NULL;
    case UPY_S_CLASSDEF:
        return body.items[0]->u.classdef.type_params.len ? body.items[0] : NULL;
    case UPY_S_TYPEALIAS:
        return body.items[0]->u.typealias.type_params.len ? body.items[0]
                                                          : NULL;
    default:
        return NULL;
    }
}

/* The one value statements [0, n) return, as an expression, or NULL.
 * Since 3.12 the compiler copies the return into each branch of a
 * conditional expression returned (`return a if c else b` is `if c:
 * return a` + `return b`): a lambda's body comes out as that if. */
static upy_expr *returned_value(rec *r, upy_stmt *const *items, uint32_t n) {
    const upy_stmt *s;
    upy_expr *e;
    if (n == 0 || rec_too_deep(r))
        return NULL;
    s = items[0];
    if (s->kind == UPY_S_RETURN && n == 1)
        return s->u.value ? s->u.value : rec_const(r, &none_object);
    if (s->kind != UPY_S_IF || (s->u.if_.orelse.len && n != 1))
        return NULL;
    e = upy_expr_new(r->arena, UPY_E_IFEXP);
    if (!e) {
        rec_oom(r);
        return NULL;
    }
    r->nesting++;
    e->u.ifexp.test = s->u.if_.test;
    e->u.ifexp.body = returned_value(r, s->u.if_.body.items, s->u.if_.body.len);
    e->u.ifexp.orelse =
        s->u.if_.orelse.len
            ? returned_value(r, s->u.if_.orelse.items, s->u.if_.orelse.len)
            : returned_value(r, items + 1, n - 1);
    r->nesting--;
    return e->u.ifexp.body && e->u.ifexp.orelse ? e : NULL;
}

upy_expr *rec_lambda_body(rec *r, const upy_code *co) {
    int ok = 1;
    upy_stmt_list body = rec_nested_body(r, co, &ok);
    upy_expr *e = returned_value(r, body.items, body.len);
    return e ? e : rec_placeholder(r);
}

/* __build_class__(body function, name, *bases, **keywords): a class
 * statement waiting for its name. */
int rec_class_call(rec *r, sval *args, uint32_t npos, const upy_object *kwnames,
                   uint32_t nkw) {
    upy_stmt *s = rec_stmt(r, UPY_S_CLASSDEF);
    const upy_code *body_code = NULL;
    uint32_t k;
    int ok = 1;

    if (!s)
        return ERROR;
    if (npos >= 1 && args[0].kind == SV_FUNCTION && args[0].pend &&
        args[0].pend->value && args[0].pend->value->u.constant &&
        args[0].pend->value->u.constant->kind == UPY_CODE)
        body_code = args[0].pend->value->u.constant->u.code;
    s->u.classdef.name =
        npos >= 2 && args[1].expr && args[1].expr->kind == UPY_E_CONST
            ? rec_str(args[1].expr->u.constant)
            : NULL;
    if (!s->u.classdef.name)
        s->u.classdef.name = body_code ? rec_str(body_code->name) : "_";
    if (npos > 2) {
        s->u.classdef.bases.items =
            upy_arena_array(r->arena, npos - 2, sizeof(upy_expr *));
        if (!s->u.classdef.bases.items)
            return rec_oom(r);
        for (k = 2; k < npos; k++)
            s->u.classdef.bases.items[s->u.classdef.bases.len++] =
                rec_value(r, args[k]);
    }
    if (nkw) {
        s->u.classdef.keywords =
            upy_arena_array(r->arena, nkw, sizeof(upy_keyword));
        if (!s->u.classdef.keywords)
            return rec_oom(r);
        for (k = 0; k < nkw; k++) {
            s->u.classdef.keywords[k].name = str_at(kwnames, k);
            s->u.classdef.keywords[k].value = rec_value(r, args[npos + k]);
        }
        s->u.classdef.n_keywords = nkw;
    }
    if (body_code)
        s->u.classdef.body = rec_def_body(r, body_code, &ok);
    s->u.classdef.origin = body_code;
    RETURN_IF_ERROR(rec_push_function(r, P_DEF, s, NULL));
    return ok ? SUCCESS : ERROR;
}

/* A lambda's code alone: the lambda expression, as a statement (what a
 * lambda compiles from; `def <lambda>` is no Python), when its body is one
 * returned value; else NULL and the def, which code made by tools (such as
 * Dynamo's transformed code of a lambda) needs.  r->failed tells an error. */
static upy_stmt *lambda_statement(rec *r, const upy_code *co,
                                  const upy_stmt_list *body) {
    upy_expr *value = returned_value(r, body->items, body->len);
    upy_expr *lambda;
    upy_stmt *s;
    if (!value)
        return NULL;
    lambda = upy_expr_new(r->arena, UPY_E_LAMBDA);
    s = rec_stmt(r, UPY_S_EXPR);
    if (!lambda || !s) {
        rec_oom(r);
        return NULL;
    }
    lambda->u.lambda.args = rec_arguments(r, co);
    lambda->u.lambda.body = value;
    s->u.expr = lambda;
    return lambda->u.lambda.args ? s : NULL;
}

/* The class or def statement of a code object alone, holding body; NULL
 * when memory runs out. */
static upy_stmt *definition(rec *r, const upy_code *co, code_kind kind,
                            const upy_stmt_list *body) {
    upy_stmt *s = rec_stmt(r, kind == CODE_CLASS ? UPY_S_CLASSDEF
                                                 : UPY_S_FUNCTIONDEF);
    if (!s)
        return NULL;
    if (kind == CODE_CLASS) {
        s->u.classdef.name = rec_str(co->name);
        s->u.classdef.body = *body;
        return s;
    }
    s->u.funcdef.name = rec_str(co->name);
    s->u.funcdef.args = rec_arguments(r, co);
    s->u.funcdef.body = *body;
    s->u.funcdef.is_async = rec_is_async(co);
    return s->u.funcdef.args ? s : NULL;
}

unpyc_status upy_recover(const upy_code *co, upy_version version,
                         const upy_recover_options *options, upy_arena *arena,
                         upy_stmt_list *out, unsigned *unrecovered,
                         unpyc_error *err) {
    upy_stmt_list body;
    code_kind kind = kind_of(co);
    upy_stmt *s;
    rec r;

    *unrecovered = 0;
    if (recover_body(NULL, co, kind, NULL, 0, version, options, arena, 0, &body,
                     unrecovered, err))
        return err && err->status != UNPYC_OK
                   ? err->status
                   : upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if (kind == CODE_MODULE) {
        *out = body;
        return UNPYC_OK;
    }
    /* A code object alone: the statement that defines it. */
    memset(&r, 0, sizeof r);
    r.arena = arena;
    r.scratch = arena; /* no indexes here */
    r.err = err;
    r.code = co;
    r.stack_base = (uintptr_t)&r;
    s = kind == CODE_LAMBDA ? lambda_statement(&r, co, &body) : NULL;
    if (!s && !r.failed)
        s = definition(&r, co, kind, &body);
    if (!s)
        return r.failed && err ? err->status
                               : upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    out->items = upy_arena_alloc(arena, sizeof(upy_stmt *));
    if (!out->items)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    out->items[0] = s;
    out->len = 1;
    return UNPYC_OK;
}
