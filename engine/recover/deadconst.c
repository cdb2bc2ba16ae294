/*
 * deadconst.c - constants only dead code numbered.
 *
 * The compiler numbers a constant in co_consts when it compiles the
 * expression that loads it; the optimizer then removes code it can tell
 * never runs (`if 0: ...`, the test of `if __debug__:`, code after a
 * raise), but not always the constants that code numbered: 3.10 and 3.11
 * only cut unused constants off the end of co_consts
 * (trim_unused_consts), 3.12+ remove every unused one but co_consts[0]
 * (remove_unused_consts in Python/flowgraph.c, which keeps that slot for
 * a docstring).  Such a constant must be numbered again, in the same
 * place: an `if c: pass` numbers c and nothing else, and the optimizer
 * drops its code again (the test is a constant, the body empty), whatever
 * c's truth.  It goes before the first statement whose code comes after
 * the loads of the constants numbered before c, and no later than the
 * first load of a constant numbered after c, nested statements included.
 * The same search (rec_dead_place) places the names only dead code
 * numbered in co_names (code.c place_dead_names).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recover/rec.h"

/* Whether the source can write o as a constant the compiler folds: a
 * literal, a signed number or a tuple of those (nan and inf print as
 * names, a frozenset or a code object as no literal). */
static int literal(const upy_object *o) {
    size_t k;
    switch (o->kind) {
    case UPY_NONE:
    case UPY_FALSE:
    case UPY_TRUE:
    case UPY_ELLIPSIS:
    case UPY_INT:
    case UPY_STR:
    case UPY_BYTES:
        return 1;
    case UPY_FLOAT:
        return isfinite(o->u.real);
    case UPY_COMPLEX:
        return isfinite(o->u.complex.real) && isfinite(o->u.complex.imag);
    case UPY_TUPLE:
        for (k = 0; k < upy_seq_len(o); k++)
            if (!literal(upy_seq_item(o, k)))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* Whether a and b are one constant to the compiler: the same type and
 * value (0, 0.0 and False differ, and so do 0.0 and -0.0). */
static int same_const(const upy_object *a, const upy_object *b) {
    size_t k;
    if (a == b)
        return 1;
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case UPY_INT:
        return a->u.integer.is_big == b->u.integer.is_big &&
               a->u.integer.negative == b->u.integer.negative &&
               a->u.integer.value == b->u.integer.value &&
               a->u.integer.ndigits == b->u.integer.ndigits &&
               (!a->u.integer.ndigits ||
                memcmp(a->u.integer.digits, b->u.integer.digits,
                       a->u.integer.ndigits * sizeof(uint16_t)) == 0);
    case UPY_FLOAT:
        return memcmp(&a->u.real, &b->u.real, sizeof(double)) == 0;
    case UPY_COMPLEX:
        return memcmp(&a->u.complex, &b->u.complex, sizeof a->u.complex) == 0;
    case UPY_STR:
    case UPY_BYTES:
        return a->u.bytes.len == b->u.bytes.len &&
               memcmp(a->u.bytes.data, b->u.bytes.data, a->u.bytes.len) == 0;
    case UPY_TUPLE:
    case UPY_FROZENSET:
        if (upy_seq_len(a) != upy_seq_len(b))
            return 0;
        for (k = 0; k < upy_seq_len(a); k++)
            if (!same_const(upy_seq_item(a, k), upy_seq_item(b, k)))
                return 0;
        return 1;
    default:
        return a->kind != UPY_CODE;
    }
}

/* A hash of constant o's value, equal for constants same_const says are
 * one. */
static uint32_t const_hash(const upy_object *o) {
    uint32_t h = 2166136261u ^ (uint32_t)o->kind, k;
    const unsigned char *p = NULL;
    size_t n = 0;
    switch (o->kind) {
    case UPY_INT:
        p = (const unsigned char *)&o->u.integer.value;
        n = sizeof o->u.integer.value;
        break;
    case UPY_FLOAT:
        p = (const unsigned char *)&o->u.real;
        n = sizeof o->u.real;
        break;
    case UPY_STR:
    case UPY_BYTES:
        p = (const unsigned char *)o->u.bytes.data;
        n = o->u.bytes.len;
        break;
    case UPY_TUPLE:
    case UPY_FROZENSET:
        for (k = 0; k < upy_seq_len(o); k++)
            h = (h ^ const_hash(upy_seq_item(o, k))) * 16777619u;
        return h;
    default:
        return h;
    }
    for (k = 0; k < n; k++)
        h = (h ^ p[k]) * 16777619u;
    return h;
}

/* co_consts by value: the slots of each hash bucket, chained. */
typedef struct const_table {
    const upy_object *consts;
    int32_t *head, *next;
    uint32_t mask;
} const_table;

/* Marks in folded the slots other than j that hold an item of tuple or
 * frozenset t, at any depth. */
static void mark_items(const const_table *t, const upy_object *c, uint32_t j,
                       uint8_t *folded) {
    size_t k;
    int32_t s;
    if (c->kind != UPY_TUPLE && c->kind != UPY_FROZENSET)
        return;
    for (k = 0; k < upy_seq_len(c); k++) {
        const upy_object *item = upy_seq_item(c, k);
        for (s = t->head[const_hash(item) & t->mask]; s >= 0; s = t->next[s])
            if ((uint32_t)s != j &&
                same_const(item, upy_seq_item(t->consts, (size_t)s)))
                folded[s] = 1;
        mark_items(t, item, j, folded);
    }
}

/* For each slot, whether it is an item of another constant: the optimizer
 * folds loads of constants into a tuple (defaults, `x in (1, 2)`, a
 * display) and leaves the items numbered, which the tuple in the output
 * numbers again in their place.  Found once per code object through a
 * table by value (a slot against every other was quadratic: 18,000
 * constants of straight code took 0.3 s).  NULL when out of memory. */
static uint8_t *folded_items(rec *r) {
    const_table t;
    uint32_t n = (uint32_t)upy_seq_len(r->code->consts), size = 2, k;
    uint8_t *folded = upy_arena_array(r->scratch, n + 1, 1);
    int has_items = 0;
    /* Only a tuple or frozenset has items: without one (most functions)
     * no slot is folded, and the table is not built. */
    for (k = 0; k < n && !has_items; k++)
        has_items = upy_seq_item(r->code->consts, k)->kind == UPY_TUPLE ||
                    upy_seq_item(r->code->consts, k)->kind == UPY_FROZENSET;
    if (!has_items)
        return folded;
    while (size < 2 * n)
        size *= 2;
    t.consts = r->code->consts;
    t.mask = size - 1;
    t.head = upy_arena_array(r->scratch, size, sizeof *t.head);
    t.next = upy_arena_array(r->scratch, n + 1, sizeof *t.next);
    if (!folded || !t.head || !t.next)
        return NULL;
    memset(t.head, 0xff, size * sizeof *t.head);
    for (k = 0; k < n; k++) {
        uint32_t h = const_hash(upy_seq_item(t.consts, k)) & t.mask;
        t.next[k] = t.head[h];
        t.head[h] = (int32_t)k;
    }
    for (k = 0; k < n; k++)
        mark_items(&t, upy_seq_item(t.consts, k), k, folded);
    return folded;
}

/* The neutral instruction holding the code at byte offset `offset`: the
 * last one starting at or before it. */
static uint32_t neutral_at(const rec *r, uint32_t offset) {
    uint32_t lo = 0, hi = r->ncode.count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ins(r, mid)->offset <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : 0;
}

int rec_note_const_loads(rec *r, const upy_decoded *dec) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->consts), k;
    uint32_t *first = upy_arena_array(r->scratch, n + 1, sizeof *first);
    if (!first)
        return ERROR;
    for (k = 0; k < n; k++)
        first[k] = UINT32_MAX;
    for (k = 0; k < dec->count; k++) {
        const upy_instr *in = &dec->instrs[k];
        if ((dec->table->ops[in->opcode].flags & UPY_OPF_CONST) &&
            in->arg >= 0 && (uint32_t)in->arg < n &&
            in->offset < first[in->arg])
            first[in->arg] = in->offset;
    }
    r->const_loads = first;
    return SUCCESS;
}

/* (neutral_at never gives a smaller instruction for a larger offset --
 * where two searches first part, the larger offset goes right -- so the
 * neutral instruction of the first load's offset is the first of those
 * of all the loads, as rec_first_const_loads says.) */
void rec_index_const_loads(rec *r) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->consts), k;
    for (k = 0; k < n; k++)
        if (r->const_loads[k] != UINT32_MAX)
            r->const_loads[k] = neutral_at(r, r->const_loads[k]);
}

uint32_t *rec_first_const_loads(rec *r) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->consts);
    uint32_t *first = upy_arena_array(r->arena, n + 1, sizeof *first);
    if (!first) {
        rec_oom(r);
        return NULL;
    }
    memcpy(first, r->const_loads, n * sizeof *first);
    return first;
}

/* Where dead code goes among statements: the list, the index and the
 * instruction its code would start at. */
typedef struct dead_place {
    const upy_ncode *code;
    uint32_t lo, hi; /* after instruction lo (UINT32_MAX: anywhere), by hi */
    upy_stmt_list *list;
    uint32_t at, start;
    int found;
} dead_place;

static void find_in(upy_stmt_list *list, uint32_t from, dead_place *p);

static void find_visit(upy_stmt_list *list, upy_list_role role,
                       const upy_stmt *holder, void *arg) {
    (void)role;
    (void)holder;
    if (!((dead_place *)arg)->found)
        find_in(list, 0, arg);
}

static int after_lo(const dead_place *p, const upy_stmt *s) {
    return p->lo == UINT32_MAX || s->start > p->lo;
}

static void find_break(upy_stmt_list *list, upy_list_role role,
                       const upy_stmt *holder, void *arg);

/* Whether a statement of the list breaks out of the loop around it (a
 * loop in it takes the breaks of its own body). */
static int breaks_out(upy_stmt_list *list) {
    int found = 0;
    uint32_t k;
    for (k = 0; k < list->len && !found; k++) {
        found = list->items[k]->kind == UPY_S_BREAK;
        upy_stmt_each_list(list->items[k], find_break, &found);
    }
    return found;
}

static void find_break(upy_stmt_list *list, upy_list_role role,
                       const upy_stmt *holder, void *arg) {
    (void)holder;
    if (role != UPY_LIST_LOOP_BODY && !*(int *)arg)
        *(int *)arg = breaks_out(list);
}

/* The last instruction of a `while True:` that no break leaves (it never
 * goes on, and the compiler drops the code after it): the jump back to
 * its start, the last jump from its code to [start, its body's start];
 * else UINT32_MAX. */
static uint32_t endless_loop_end(const upy_ncode *code, upy_stmt *s) {
    const upy_expr *test = s->u.while_.test;
    uint32_t i, end = UINT32_MAX, head;
    if (s->kind != UPY_S_WHILE || !s->u.while_.body.len ||
        s->u.while_.orelse.len || test->kind != UPY_E_CONST ||
        !test->u.constant || rec_false_literal(test->u.constant) ||
        breaks_out(&s->u.while_.body))
        return UINT32_MAX;
    head = s->u.while_.body.items[0]->start;
    for (i = s->start; i < code->count; i++)
        if (code->ins[i].op == N_JUMP && code->ins[i].target >= 0 &&
            (uint32_t)code->ins[i].target >= s->start &&
            (uint32_t)code->ins[i].target <= head)
            end = i;
    return end;
}

/* The last instruction of s when it always leaves: a raise or a return,
 * whose code ends at the first N_RAISE or N_RETURN from its start (an
 * expression holds neither; a finally body a return inlines may, which
 * ends it early and only makes the place below rarer), or an endless
 * loop; else UINT32_MAX. */
static uint32_t leaving_end(const upy_ncode *code, upy_stmt *s) {
    uint32_t i;
    if (s->kind == UPY_S_WHILE)
        return endless_loop_end(code, s);
    if (s->kind != UPY_S_RAISE && s->kind != UPY_S_RETURN)
        return UINT32_MAX;
    for (i = s->start; i < code->count; i++)
        if (code->ins[i].op == (s->kind == UPY_S_RAISE ? N_RAISE : N_RETURN))
            return i;
    return UINT32_MAX;
}

/* After the last statement of the list, when it always leaves (code after
 * it never runs) and its code holds lo and ends before hi: the compiler
 * numbered what dead code there named right after that statement (an
 * `else:` after a try body that raises, the code after a return). */
static void place_after_leaving(upy_stmt_list *list, dead_place *p) {
    uint32_t end = leaving_end(p->code, list->items[list->len - 1]);
    if (end == UINT32_MAX || (p->lo != UINT32_MAX && end < p->lo) ||
        (p->hi != UINT32_MAX && end >= p->hi))
        return;
    p->list = list;
    p->at = list->len;
    p->start = end + 1;
    p->found = 1;
}

/* The first statement of the list from `from` on that starts after lo;
 * it must start by hi, else the place is inside the statement before it
 * (or inside the last one, when none starts after lo, or right after it
 * when it always leaves). */
static void find_in(upy_stmt_list *list, uint32_t from, dead_place *p) {
    uint32_t k = from;
    while (k < list->len && !after_lo(p, list->items[k]))
        k++;
    if (k < list->len && list->items[k]->start <= p->hi) {
        p->list = list;
        p->at = k;
        p->start = list->items[k]->start;
        p->found = 1;
        return;
    }
    if (k > from)
        upy_stmt_each_list(list->items[k - 1], find_visit, p);
    if (k > from && k == list->len && !p->found)
        place_after_leaving(list, p);
}

/* `if c: pass`, starting at instruction `start`, said in the output (a
 * reader would take it for a mistake): the comment prints with the pass
 * an empty body needs. */
static upy_stmt *numbering_if(rec *r, const upy_object *c, uint32_t start) {
    upy_stmt *s = rec_stmt(r, UPY_S_IF),
             *note = rec_stmt(r, UPY_S_UNRECOVERED);
    upy_ptr_vec body = {0};
    if (!s || !note)
        return NULL;
    rec_set_start(r, s, start);
    rec_set_start(r, note, start);
    note->u.unrecovered.text = "unpyc: numbers a constant of code the "
                               "compiler dropped (it is in co_consts)";
    s->u.if_.test = rec_const(r, c);
    if (!s->u.if_.test || upy_vec_push(r->arena, &body, note)) {
        rec_oom(r);
        return NULL;
    }
    s->u.if_.body = upy_vec_stmts(&body);
    return s;
}

int rec_insert_stmt(rec *r, upy_stmt_list *list, uint32_t at, upy_stmt *s) {
    upy_stmt **items =
        upy_arena_array(r->arena, list->len + 1, sizeof(upy_stmt *));
    uint32_t k;
    if (!items)
        return rec_oom(r);
    for (k = 0; k <= list->len; k++)
        items[k] = k < at ? list->items[k] : k == at ? s : list->items[k - 1];
    list->items = items;
    list->len++;
    return SUCCESS;
}

void rec_dead_bounds(const uint32_t *first, uint32_t n, uint32_t from,
                     uint32_t to, uint32_t *lo, uint32_t *hi) {
    uint32_t j;
    *lo = UINT32_MAX;
    *hi = UINT32_MAX;
    for (j = 0; j < from; j++)
        if (first[j] != UINT32_MAX && (*lo == UINT32_MAX || first[j] > *lo))
            *lo = first[j];
    for (j = to; j < n; j++)
        if (first[j] < *hi)
            *hi = first[j];
}

int rec_dead_place(const rec *r, upy_stmt_list *body, uint32_t lead,
                   uint32_t lo, uint32_t hi, upy_stmt_list **list,
                   uint32_t *at, uint32_t *start) {
    dead_place p = {&r->ncode, lo, hi, NULL, 0, 0, 0};
    /* A body of dead code only (a module of `while 0: pass`): its start. */
    if (!body->len) {
        p.list = body;
        p.found = 1;
    }
    find_in(body, lead, &p);
    *list = p.list;
    *at = p.at;
    *start = p.start;
    return p.found;
}

/* Numbers unused constant k again where the statements allow (none
 * found: left as it is). */
static int renumber(rec *r, upy_stmt_list *body, uint32_t lead,
                    const uint32_t *first, uint32_t n, uint32_t k) {
    upy_stmt_list *list;
    uint32_t at, start, lo, hi;
    upy_stmt *s;
    rec_dead_bounds(first, n, k, k + 1, &lo, &hi);
    if (!rec_dead_place(r, body, lead, lo, hi, &list, &at, &start))
        return SUCCESS;
    s = numbering_if(r, upy_seq_item(r->code->consts, k), start);
    return s ? rec_insert_stmt(r, list, at, s) : ERROR;
}

/* Whether slot k is a code object only dead code numbered (no instruction
 * loads it): 3.10-3.11 keep it before a constant the code uses, 3.12+ in
 * slot 0 only (a function's holds its docstring). */
static int dead_code_const(const rec *r, const uint32_t *first, uint32_t k,
                           int doc_slot) {
    const upy_object *c = upy_seq_item(r->code->consts, k);
    return c->kind == UPY_CODE && first[k] == UINT32_MAX &&
           (k == 0 ? !doc_slot : r->ncode.layout->keeps_unused_consts);
}

/* Whether slot k is a constant only dead code numbered that an `if c:
 * pass` numbers again.  None is left alone: the optimizer turns `x is
 * None` into a jump that tests for None (3.11+), and the output's `is
 * None` numbers it in its place. */
static int dead_literal(const rec *r, const uint32_t *first,
                        const uint8_t *folded, uint32_t k, int doc_slot) {
    const upy_object *c = upy_seq_item(r->code->consts, k);
    if (first[k] != UINT32_MAX || (k == 0 && doc_slot) ||
        (k > 0 && !r->ncode.layout->keeps_unused_consts))
        return 0;
    if ((r->const_shown && r->const_shown[k]) || c->kind == UPY_NONE)
        return 0;
    /* (3.8-3.10 number a function's qualified name after its code: the
     * code's statement numbers it again.) */
    if (k > 0 && c->kind == UPY_STR && dead_code_const(r, first, k - 1, doc_slot))
        return 0;
    return literal(c) && !folded[k];
}

/* A place right after a statement that always leaves (a raise, a
 * return), whose code ends after lo and before hi: there code that never
 * runs compiles, numbering its constants, and is dropped. */
static int after_leaving(upy_stmt_list *list, dead_place *p);

static void after_leaving_in(upy_stmt_list *list, upy_list_role role,
                             const upy_stmt *holder, void *arg) {
    dead_place *p = arg;
    (void)role;
    (void)holder;
    if (!p->found)
        after_leaving(list, p);
}

static int after_leaving(upy_stmt_list *list, dead_place *p) {
    uint32_t k, end;
    for (k = 0; k < list->len && !p->found; k++) {
        end = leaving_end(p->code, list->items[k]);
        if (end != UINT32_MAX && (p->lo == UINT32_MAX || end > p->lo) &&
            (p->hi == UINT32_MAX || end < p->hi)) {
            p->list = list;
            p->at = k + 1;
            p->start = end + 1;
            p->found = 1;
        } else {
            upy_stmt_each_list(list->items[k], after_leaving_in, p);
        }
    }
    return p->found;
}

/* The iterable of a comprehension in dead code starting at instruction
 * `start`, one that numbers nothing anew: a name numbered before (by the
 * code there, or by dead code only), else on 3.12+ an empty tuple (an
 * unused constant not in slot 0 is removed); NULL when there is none. */
static upy_expr *dead_iterable(rec *r, uint32_t start) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->names), k;
    uint32_t *first = rec_first_name_uses(r);
    static const upy_object empty = {UPY_TUPLE, 0, {{0, 0, 0, 0, 0}}};
    if (!first)
        return NULL;
    for (k = 0; k < n; k++)
        if (first[k] == UINT32_MAX || first[k] < start)
            return rec_name(
                r, rec_source_name(r, rec_str(upy_seq_item(r->code->names, k))));
    return r->ncode.layout->keeps_unused_consts ? NULL : rec_const(r, &empty);
}

/* The def, class or type alias whose type parameter scope is co (3.12+),
 * starting at instruction `start`: `raise e` then `class C[T]: pass`
 * keeps the scope "<generic parameters of C>" in the module's co_consts[0]
 * (remove_unused_consts keeps that slot), and it is the class statement
 * that numbers it again, not a comprehension.  NULL for a generic def
 * with defaults: its scope takes them as arguments, computed outside by
 * code the compiler dropped. */
static upy_stmt *generic_statement(rec *r, const upy_code *co, uint32_t start) {
    upy_stmt *s = co->argcount ? NULL : rec_generic_body(r, co, NULL, 0);
    if (s)
        rec_set_start(r, s, start);
    return s;
}

/* A statement that compiles code object co and what the code around it
 * numbered with it (a def's or class's name): the lambda, comprehension,
 * def or class it is the code of; NULL when there is none. */
static upy_stmt *code_statement(rec *r, const upy_code *co, uint32_t start) {
    const char *name = rec_str(co->name);
    upy_stmt *s;
    upy_expr *e;
    int ok = 1;
    if (!name)
        return NULL;
    if (rec_is_generic_scope(co))
        return generic_statement(r, co, start);
    if (!(co->flags & CO_OPTIMIZED)) {
        s = rec_stmt(r, UPY_S_CLASSDEF);
        if (!s)
            return NULL;
        s->u.classdef.name = rec_source_name(r, name);
        s->u.classdef.origin = co;
        s->u.classdef.body = rec_def_body(r, co, &ok);
        rec_set_start(r, s, start);
        return ok ? s : NULL;
    }
    if (strcmp(name, "<lambda>") == 0) {
        e = upy_expr_new(r->arena, UPY_E_LAMBDA);
        if (!e)
            return NULL;
        e->u.lambda.args = rec_arguments(r, co);
        e->u.lambda.body = rec_lambda_body(r, co);
    } else if (name[0] == '<') {
        upy_expr *iter = dead_iterable(r, start);
        e = iter ? rec_comprehension(r, co, iter) : NULL;
    } else {
        s = rec_stmt(r, UPY_S_FUNCTIONDEF);
        if (!s)
            return NULL;
        s->u.funcdef.name = rec_source_name(r, name);
        s->u.funcdef.args = rec_arguments(r, co);
        s->u.funcdef.is_async = rec_is_async(co);
        s->u.funcdef.origin = co;
        s->u.funcdef.body = rec_def_body(r, co, &ok);
        rec_set_start(r, s, start);
        return s->u.funcdef.args && ok ? s : NULL;
    }
    s = e ? rec_stmt(r, UPY_S_EXPR) : NULL;
    if (!s)
        return NULL;
    s->u.expr = e;
    rec_set_start(r, s, start);
    return s;
}

/* Numbers unused code object k again: the code that made it, after a
 * statement that always leaves where the numbering allows (none found:
 * left as it is). */
static int renumber_code(rec *r, upy_stmt_list *body, const uint32_t *first,
                         uint32_t n, uint32_t k) {
    dead_place p = {&r->ncode, 0, 0, NULL, 0, 0, 0};
    upy_stmt *s;
    rec_dead_bounds(first, n, k, k + 1, &p.lo, &p.hi);
    if (!after_leaving(body, &p))
        return SUCCESS;
    s = code_statement(r, upy_seq_item(r->code->consts, k)->u.code, p.start);
    if (r->failed)
        return ERROR;
    return s ? rec_insert_stmt(r, p.list, p.at, s) : SUCCESS;
}

/* Whether slot j holds a tuple or frozenset the optimizer folded that is
 * not unpacked where it is first loaded (see late_folded; first[] of
 * rec_first_const_loads).  One unpacked right away is the value of `a, b =
 * 1, 2`, a tuple the AST optimizer folded, which the compiler numbers
 * where it compiles it, not the optimizer after all the others. */
static int folded_tuple(const rec *r, const uint32_t *first, uint32_t j) {
    const upy_object *c = upy_seq_item(r->code->consts, j);
    uint32_t load = first[j];
    int unpacked = load != UINT32_MAX && load + 1 < r->ncode.count &&
                   ins(r, load + 1)->op == N_UNPACK_SEQUENCE;
    return (c->kind == UPY_TUPLE || c->kind == UPY_FROZENSET) && !unpacked;
}

/* Whether slot j holds a tuple the optimizer folded, numbered after all
 * the code's constants (only such tuples follow it) and loaded where its
 * items were: a def's defaults, `lambda x=False: x`.  (Not so when one of
 * those is unpacked: `optimize, opt = (1, 1) if __debug__ else (0, '')`
 * numbers True, then (1, 1), and 3.12+ drop the (0, ''); the True, loaded
 * later by other code, is numbered before the tuple again.) */
static int late_folded(const rec *r, const uint32_t *first, uint32_t j) {
    for (; j < upy_seq_len(r->code->consts); j++)
        if (!folded_tuple(r, first, j))
            return 0;
    return 1;
}

/* The first instruction before `before` that tests for None (3.11+ turn
 * `x is None` into a jump that does, its None numbered all the same), or
 * `before`. */
static uint32_t first_none_test(const rec *r, uint32_t before) {
    uint32_t i;
    for (i = 0; i < before && i < r->ncode.count; i++)
        if (ins(r, i)->op == N_POP_JUMP_IF &&
            (ins(r, i)->arg == UPY_JUMP_NONE ||
             ins(r, i)->arg == UPY_JUMP_NOT_NONE))
            return i;
    return before;
}

/* Whether slot k is a constant the code loads only after a constant
 * numbered later, which dead code after a statement that always leaves
 * numbered first: the else of a try whose body raises, compiled before
 * the handlers and dropped,
 *
 *     try:                       co_consts: None, 'b', 'a'
 *         raise KeyError()
 *     except E:
 *         f('a')
 *     except:
 *         f('b')
 *     else:
 *         f('b')
 *
 * An `if c: pass` right after that statement numbers it there again.
 * `later` is the first load of the constants numbered after k but the
 * late folded tuples (late_folded), kept by the caller as it goes from
 * the last slot to the first. */
static int misordered_literal(const rec *r, const uint32_t *first,
                              const uint8_t *folded, uint32_t later, uint32_t k,
                              int doc_slot) {
    const upy_object *c = upy_seq_item(r->code->consts, k);
    uint32_t use = first[k];
    if (first[k] == UINT32_MAX || (k == 0 && doc_slot) || !literal(c) ||
        folded[k])
        return 0;
    if (c->kind == UPY_NONE)
        use = first_none_test(r, use);
    return later < use;
}

/* Whether constant k is first loaded after a code object numbered after
 * it, all its loads and the code object's in code laid out where the
 * compiler compiled it (not a handler laid out last, rec_is_cold): the
 * code object is numbered where
 * it is loaded, so dead code numbered k before it.  inspect_fodder2's
 * `if False: class C: ...` / `else: class C: ...` numbers the dead
 * class's code and 'C', then the live class's code (3.12+ drop the
 * dead code object): `if 'C': pass` before the live class numbers 'C'
 * there again.  0 also when out of memory (r->failed says so). */
static int after_hot_code_object(rec *r, const uint32_t *first, uint32_t n,
                                 uint32_t k) {
    const upy_object *c = upy_seq_item(r->code->consts, k);
    uint32_t j;
    if (first[k] == UINT32_MAX)
        return 0;
    /* (A load in cold code may be its first in the order the compiler
     * compiled: an `except ImportError: x = None` before the defs.) */
    for (j = 0; j < r->ncode.count; j++)
        if (ins(r, j)->op == N_LOAD_CONST && ins(r, j)->obj == c &&
            rec_is_cold(r, j) != 0)
            return 0;
    for (j = k + 1; j < n; j++)
        if (first[j] < first[k] &&
            upy_seq_item(r->code->consts, j)->kind == UPY_CODE &&
            rec_is_cold(r, first[j]) == 0)
            return 1;
    return 0;
}

/* Looks for the place of a try's dropped else: right after its body,
 * which ends in a statement that always leaves, the body holding lo and
 * ending before hi (place_after_leaving). */
static void after_try_body(upy_stmt_list *list, upy_list_role role,
                           const upy_stmt *holder, void *arg) {
    dead_place *p = arg;
    uint32_t k;
    if (p->found)
        return;
    if (role == UPY_LIST_TRY_BODY && holder->u.try_.n_handlers && list->len)
        place_after_leaving(list, p);
    for (k = 0; k < list->len && !p->found; k++)
        upy_stmt_each_list(list->items[k], after_try_body, p);
}

/* Numbers misordered constant k again in the else of a try whose body
 * always leaves, where the numbering allows (none found: left as it is;
 * other code the compiler drops, a match's patterns or 3.12's cold
 * blocks load constants out of their order too).  True may be the test
 * of code for `__debug__` (the AST optimizer makes it a constant), which
 * numbers it and runs the one branch: `o = '-m' if __debug__ else '-Om'`
 * numbers True before '-m' (and 3.12+ drop the '-Om'); an `if True:
 * pass` where the numbering puts it does the same.  (`if not __debug__:
 * return` numbers False and None so too, but those are loaded out of
 * order for other reasons: a handler's `return False` laid out last.) */
static int renumber_misordered(rec *r, upy_stmt_list *body, uint32_t lead,
                               uint32_t *first, uint32_t n, uint32_t k) {
    dead_place p = {&r->ncode, 0, 0, NULL, 0, 0, 0};
    const upy_object *c = upy_seq_item(r->code->consts, k);
    upy_stmt *s;
    uint32_t numbered = n;
    rec_dead_bounds(first, n, k, k + 1, &p.lo, &p.hi);
    after_try_body(body, UPY_LIST_BRANCH, NULL, &p);
    if (!p.found && c->kind != UPY_TRUE &&
        after_hot_code_object(r, first, n, k)) {
        /* (Tuples the optimizer folded after all others, which
         * misordered_literal passes over, bound nothing either.) */
        while (numbered > k + 1 && late_folded(r, first, numbered - 1))
            numbered--;
        rec_dead_bounds(first, numbered, k, k + 1, &p.lo, &p.hi);
    }
    if (!p.found &&
        (c->kind == UPY_TRUE || after_hot_code_object(r, first, n, k)))
        /* (Only among the statements of the body itself, where such
         * code stands: 3.12+ lay handlers out last and copy exits, so a
         * constant a handler loads first seems out of order, its place
         * found inside a branch.) */
        p.found = rec_dead_place(r, body, lead, p.lo, p.hi, &p.list, &p.at,
                                 &p.start) &&
                  p.list == body;
    if (!p.found)
        return SUCCESS;
    s = numbering_if(r, c, p.start);
    if (!s)
        return ERROR;
    first[k] = p.start;
    return rec_insert_stmt(r, p.list, p.at, s);
}

int rec_add_dead_consts(rec *r, upy_stmt_list *body, uint32_t lead,
                        int doc_slot) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->consts), k;
    uint32_t *first = n ? rec_first_const_loads(r) : NULL;
    uint8_t *folded = n ? folded_items(r) : NULL;
    uint32_t later = UINT32_MAX;
    int tail_folded = 1;
    if (n && !first)
        return ERROR;
    /* A function's slot 0 (its docstring, else None) is numbered before
     * its code, wherever the code loads it. */
    if (n && doc_slot)
        first[0] = UINT32_MAX;
    /* A dropped test the output writes numbers its constant there. */
    for (k = 0; k < n && r->const_tested_at; k++)
        if (r->const_tested_at[k] < first[k])
            first[k] = r->const_tested_at[k];
    if (n && !folded)
        return rec_oom(r);
    /* Those loaded out of order first: where they go (first[k] then)
     * bounds the places of the others. */
    for (k = n; k-- > 0;) {
        if (misordered_literal(r, first, folded, later, k, doc_slot))
            RETURN_IF_ERROR(renumber_misordered(r, body, lead, first, n, k));
        tail_folded = tail_folded && folded_tuple(r, first, k);
        if (!tail_folded && first[k] < later)
            later = first[k];
    }
    /* From the last, each going before those after it at one place. */
    for (k = n; k-- > 0;) {
        if (dead_literal(r, first, folded, k, doc_slot))
            RETURN_IF_ERROR(renumber(r, body, lead, first, n, k));
        if (dead_code_const(r, first, k, doc_slot))
            RETURN_IF_ERROR(renumber_code(r, body, first, n, k));
    }
    return SUCCESS;
}

/* How a constant may have been numbered by the dropped test of a
 * statement starting at `at`, in the order they are tried. */
typedef enum dropped_use {
    DROPPED_UNUSED,       /* no instruction loads it */
    DROPPED_LOADED_LATER, /* first loaded from `at` on */
    DROPPED_LOADED_BEFORE /* loaded before `at`: numbered already */
} dropped_use;

/* Whether constant k, used as `use` says, goes in the slot left at `at`
 * (see rec_dropped_const_at) among the n constants of first from `lead`
 * on.  One first loaded later is numbered at `at` or at that load, in
 * the same slot unless a constant numbered later is loaded in between:
 * then only at `at`; one loaded before numbers nothing anew. */
static int dropped_at(const rec *r, const uint32_t *first, uint32_t n,
                      uint32_t lead, uint32_t k, uint32_t at, dropped_use use) {
    uint32_t j;
    switch (use) {
    case DROPPED_UNUSED:
        /* (Shown already as the test of a statement at `at` too: two
         * loops sharing their header, `while True:` / `try:` / `while
         * True:`, test one True.) */
        if (first[k] != UINT32_MAX ||
            (r->const_shown && r->const_shown[k] &&
             !(r->const_tested_at && r->const_tested_at[k] == at)))
            return 0;
        break;
    case DROPPED_LOADED_LATER:
        if (first[k] == UINT32_MAX || first[k] < at)
            return 0;
        break;
    case DROPPED_LOADED_BEFORE:
        return first[k] < at;
    }
    for (j = lead; j < n; j++) {
        uint32_t use = first[j];
        /* (None is numbered where a jump tests for it too.) */
        if (upy_seq_item(r->code->consts, j)->kind == UPY_NONE)
            use = first_none_test(r, use);
        if (j < k && use != UINT32_MAX && use >= at)
            return 0;
        if (j > k && use < at)
            return 0;
    }
    return 1;
}

const upy_object *rec_dropped_const_at(const rec *r, uint32_t at,
                                       int (*fits)(const upy_object *),
                                       int numbered_before) {
    uint32_t n = (uint32_t)upy_seq_len(r->code->consts), k;
    /* A function's slot 0 (its docstring, else None) is numbered before
     * its code, wherever the code loads it. */
    uint32_t lead = (r->code->flags & CO_OPTIMIZED) && !r->is_comprehension;
    const uint32_t *first = r->const_loads;
    int use;
    if (!first || n <= lead)
        return NULL;
    for (use = DROPPED_UNUSED; use <= DROPPED_LOADED_LATER; use++)
        for (k = lead; k < n; k++)
            if (fits(upy_seq_item(r->code->consts, k)) &&
                dropped_at(r, first, n, lead, k, at, (dropped_use)use))
                return upy_seq_item(r->code->consts, k);
    /* (An unused one the bounds do not take, 3.11's `assert False` laid
     * out before an elif's code, is still the likelier test.) */
    for (k = lead; k < n; k++)
        if (fits(upy_seq_item(r->code->consts, k)) &&
            (first[k] == UINT32_MAX || !numbered_before))
            return NULL;
    for (k = lead; k < n; k++)
        if (fits(upy_seq_item(r->code->consts, k)) &&
            dropped_at(r, first, n, lead, k, at, DROPPED_LOADED_BEFORE))
            return upy_seq_item(r->code->consts, k);
    return NULL;
}

/* A false constant an `assert` may test (None is the return's too, and
 * prints as the False it reads). */
static int failing_test(const upy_object *c) {
    return c->kind != UPY_NONE && rec_false_literal(c);
}

upy_expr *rec_dropped_test(rec *r, const upy_object *c, uint32_t at) {
    int32_t k = r->const_tested_at ? rec_entry_index(r, 1, c) : -1;
    if (k >= 0 && at < r->const_tested_at[k])
        r->const_tested_at[k] = at;
    return rec_const(r, c);
}

upy_expr *rec_failing_assert_test(rec *r, uint32_t at) {
    const upy_object *c = rec_dropped_const_at(r, at, failing_test, 1);
    return c ? rec_dropped_test(r, c, at) : rec_const_false(r);
}
