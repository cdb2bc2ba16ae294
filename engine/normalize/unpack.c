/*
 * unpack.c - 3.8's BUILD_*_UNPACK(_WITH_CALL), lowered as the container
 * build 3.9's compiler writes for the same source.
 *
 * 3.8 joins values the code before it pushed (`[*a, b, *c]`: BUILD_TUPLE
 * of b, then BUILD_LIST_UNPACK 3); 3.9 builds the container first and
 * extends it with each (BUILD_LIST 0, LIST_EXTEND a, LIST_APPEND b ...).
 * The operands are found by their stack effects among the neutral
 * instructions already emitted, and the container is put in before them
 * (norm_lower_unpack).  A lone `**` mapping of a call, passed as it is by
 * 3.8, is merged into a new dict as 3.9 does (norm_wrap_kwargs).
 */
#include <string.h>

#include "normalize/norm.h"
#include "util/error.h"
#include "util/names.h"

/* The neutral instruction the jump of neutral instruction k, emitted
 * before decoded instruction `cur` was lowered, goes to: nm->n for cur
 * itself (or code after it), -1 for no jump. */
static int32_t emitted_target(const norm *nm, uint32_t k, uint32_t cur) {
    int32_t t;
    if (nm->target_off[k] < 0)
        return -1;
    t = norm_index_of_offset(nm, nm->target_off[k]);
    if (t < 0)
        return -1;
    while ((uint32_t)t < cur && nm->first_of[t] == UNSET)
        t++;
    return (uint32_t)t >= cur ? (int32_t)nm->n : nm->first_of[t];
}

/* How many jumps go to neutral instruction t (decoded instruction cur's
 * code for nm->n): those to its decoded instruction, where t is the first
 * neutral instruction of it, and to the decoded ones right before that
 * made none (a jump past 255 code units lands on its target's
 * EXTENDED_ARG).  UINT32_MAX, which no count of jumps matches, after
 * more than a few of those. */
static uint32_t jumps_to_neutral(const norm *nm, uint32_t t, uint32_t cur) {
    uint32_t d = t == nm->n ? cur : (uint32_t)nm->src[t], n, steps = 0;
    if (t < nm->n && nm->first_of[d] != (int32_t)t)
        return 0;
    n = (uint32_t)nm->jumps_to[d];
    while (d > 0 && (nm->first_of[d - 1] == UNSET ||
                     (t < nm->n && nm->first_of[d - 1] == (int32_t)t))) {
        if (++steps > 64)
            return UINT32_MAX;
        n += (uint32_t)nm->jumps_to[--d];
    }
    return n;
}

/* Sets the depth of the way into the instruction at offset `rel` of the
 * range: 0 where it goes below the range's entry or disagrees with
 * another way in. */
static int meet_depth(int32_t *depth, uint32_t rel, int32_t d) {
    if (d < 0 || (depth[rel] != UNSET && depth[rel] != d))
        return 0;
    depth[rel] = d;
    return 1;
}

/* Whether the neutral instructions [s, e), entered at s with nothing on
 * the stack, leave exactly one value at e: each is reached from s (no
 * jump from before s goes into the range) or from nowhere, none takes
 * more than the range pushed, every jump goes on to (s, e], and the ways
 * to each instruction agree on the depth.  `cur` is the decoded instruction
 * being lowered, whose code starts at e. */
static int pushes_one(norm *nm, uint32_t s, uint32_t e, uint32_t cur) {
    int32_t *depth = nm->operand_depth;
    uint32_t k;
    uint64_t jumps_in = 0, jumps_taken = 0;
    for (k = s; k <= e; k++)
        depth[k - s] = UNSET;
    depth[0] = 0;
    for (k = s; k < e; k++) {
        const upy_nin *in = &nm->out[k];
        int32_t d = depth[k - s], t = emitted_target(nm, k, cur);
        /* (Code no way reaches is left in place by 3.8-3.9: the else
         * value of `x if (1, 2) else y`, after the jump over it.) */
        if (d == UNSET && k > s && jumps_to_neutral(nm, k, cur) == 0 &&
            (depth[k - 1 - s] == UNSET ||
             !upy_nin_falls_through(&nm->out[k - 1])))
            continue;
        if (d == UNSET)
            return 0;
        if ((in->op == N_COPY || in->op == N_SWAP) && d < in->arg)
            return 0;
        if (k > s)
            jumps_in += jumps_to_neutral(nm, k, cur);
        if (nm->target_off[k] >= 0 &&
            (t <= (int32_t)s || t > (int32_t)e ||
             !meet_depth(depth, (uint32_t)t - s,
                         d + upy_nin_stack_effect(in, 1))))
            return 0;
        jumps_taken += nm->target_off[k] >= 0;
        if (upy_nin_falls_through(in) &&
            !meet_depth(depth, k + 1 - s, d + upy_nin_stack_effect(in, 0)))
            return 0;
    }
    return depth[e - s] == 1 &&
           jumps_taken == jumps_in + jumps_to_neutral(nm, e, cur);
}

/* The first neutral instruction of the expression whose code ends right
 * before neutral instruction e (decoded instruction cur's, or the next
 * operand's): the nearest start from which [start, e) pushes one value
 * (pushes_one).  In the code of an expression every part before its
 * end leaves something on the stack for what follows, or jumps past it
 * (an and / or, a conditional expression), so no later start does.  -1
 * when none is found within the budget. */
static int32_t operand_start(norm *nm, uint32_t e, uint32_t cur) {
    uint32_t s;
    /* (Room for the longest range it may try, [0, e], and some for the
     * operands of later instructions.) */
    if ((size_t)e + 1 > nm->operand_cap) {
        size_t cap = (size_t)e + 1 + e / 2;
        int32_t *depth =
            upy_arena_array_uncleared(nm->arena, cap, sizeof *depth);
        if (!depth)
            return -1;
        nm->operand_depth = depth;
        nm->operand_cap = cap;
    }
    for (s = e; s-- > 0;) {
        if (nm->operand_budget < e - s)
            return -1;
        nm->operand_budget -= e - s;
        if (pushes_one(nm, s, e, cur))
            return (int32_t)s;
    }
    return -1;
}

/* Puts neutral instruction op(arg) at neutral index p, before what was
 * there (code of decoded instruction cur or before it): jumps to that
 * code go to it first, and it takes the marks of a statement's start. */
static unpyc_status insert_before(norm *nm, uint32_t p, upy_nop op, int32_t arg,
                                  uint32_t cur) {
    uint32_t tail = nm->n - p, k;
    upy_nin *in;
    if (p == nm->n)
        return norm_put(nm, op, arg, NULL, cur);
    if (nm->n == nm->cap && norm_grow_out(nm))
        return norm_fail_memory(nm);
    memmove(&nm->out[p + 1], &nm->out[p], tail * sizeof *nm->out);
    memmove(&nm->src[p + 1], &nm->src[p], tail * sizeof *nm->src);
    memmove(&nm->handler_of[p + 1], &nm->handler_of[p],
            tail * sizeof *nm->handler_of);
    memmove(&nm->target_off[p + 1], &nm->target_off[p],
            tail * sizeof *nm->target_off);
    memmove(&nm->empty_handler[p + 1], &nm->empty_handler[p],
            tail * sizeof *nm->empty_handler);
    nm->n++;
    for (k = (uint32_t)nm->src[p]; k <= cur; k++) {
        if (nm->first_of[k] != UNSET && nm->first_of[k] > (int32_t)p)
            nm->first_of[k]++;
        if (nm->empty_body_of[k] != UNSET && nm->empty_body_of[k] >= (int32_t)p)
            nm->empty_body_of[k]++;
    }
    in = &nm->out[p];
    *in = nm->out[p + 1];
    in->op = (uint16_t)op;
    in->arg = arg;
    in->obj = NULL;
    in->flags = 0;
    in->target = UNSET;
    in->throw_offset = 0;
    nm->target_off[p] = -1;
    nm->empty_handler[p] = UNSET;
    nm->out[p + 1].lead_line = -1;
    nm->out[p + 1].lead_nops = 0;
    nm->out[p + 1].lead_nops_joined = 0;
    return UNPYC_OK;
}

/* 3.8's BUILD_*_UNPACK n, and how 3.9+'s compile.c builds the same
 * display or call arguments instead.  3.8 pushes each run of plain items
 * as one tuple (a dict for keywords and dict items) and each starred
 * value, then joins the n of them; 3.9+ build the container with the
 * plain items before the first starred one, then add each item or
 * extend by each starred value (starunpack_helper, compiler_dict,
 * compiler_call_helper):
 *
 *   [a, *b, c]  3.8: a BUILD_TUPLE 1; b; c BUILD_TUPLE 1; BUILD_LIST_UNPACK 3
 *               (sets: BUILD_SET 1, BUILD_SET_UNPACK)
 *               3.9: a BUILD_LIST 1; b LIST_EXTEND 1; c LIST_APPEND 1
 *   f(**a, x=1) 3.8: a; 'x' 1 BUILD_MAP 1; BUILD_MAP_UNPACK_WITH_CALL 2
 *               3.9: BUILD_MAP 0; a DICT_MERGE 1; 'x' 1 BUILD_MAP 1;
 *                    DICT_MERGE 1
 *
 * 3.8's peephole.c folds a plain run of constants into one tuple constant,
 * and leaves the items it was built of in co_consts: a constant tuple
 * whose items all are there is such a run (folded_run), one that a
 * starred `*(1, 2)` made, folded from the source before the compiler
 * numbered anything, has them not.  The plain runs of a dict stay dicts
 * (`add` unused); a call's first one is its keywords only where its keys
 * can be (keyword_run), else it is a `**{...}` display. */
typedef struct unpack_rule {
    uint16_t op;
    /* upy_nop: what 3.8 builds a plain run with, and 3.9 the container,
     * each item and each starred value. */
    uint8_t run, build, add, extend;
    uint8_t to_tuple, dict, keywords;
} unpack_rule;

static const unpack_rule unpack_rules[] = {
    {UPY_OP_BUILD_LIST_UNPACK, N_BUILD_TUPLE, N_BUILD_LIST, N_LIST_APPEND,
     N_LIST_EXTEND, 0, 0, 0},
    {UPY_OP_BUILD_TUPLE_UNPACK, N_BUILD_TUPLE, N_BUILD_LIST, N_LIST_APPEND,
     N_LIST_EXTEND, 1, 0, 0},
    {UPY_OP_BUILD_TUPLE_UNPACK_WITH_CALL, N_BUILD_TUPLE, N_BUILD_LIST,
     N_LIST_APPEND, N_LIST_EXTEND, 1, 0, 0},
    {UPY_OP_BUILD_SET_UNPACK, N_BUILD_SET, N_BUILD_SET, N_SET_ADD, N_SET_UPDATE,
     0, 0, 0},
    {UPY_OP_BUILD_MAP_UNPACK, N_BUILD_MAP, N_BUILD_MAP, 0, N_DICT_UPDATE, 0, 1,
     0},
    {UPY_OP_BUILD_MAP_UNPACK_WITH_CALL, N_BUILD_MAP, N_BUILD_MAP, 0,
     N_DICT_MERGE, 0, 1, 1},
};

static const unpack_rule *unpack_rule_of(uint16_t op) {
    size_t k;
    for (k = 0; k < sizeof unpack_rules / sizeof unpack_rules[0]; k++)
        if (unpack_rules[k].op == op)
            return &unpack_rules[k];
    return NULL;
}

/* Whether the operand [s, e) of decoded instruction cur is a run of
 * plain items: a tuple (a set) built of its items, a dict of its keys and
 * values, by its last instruction, the one way to its end.  (One branch
 * of `*(a or (b, c))` ends in such a tuple too, and the jump of the `or`
 * goes past it.) */
static int is_plain_run(const norm *nm, const unpack_rule *rule, uint32_t s,
                        uint32_t e, uint32_t cur) {
    const upy_nin *last = &nm->out[e - 1];
    if (e - s < 2 || jumps_to_neutral(nm, e, cur) != 0)
        return 0;
    if (rule->dict)
        return (last->op == N_BUILD_MAP && last->arg > 0) ||
               last->op == N_BUILD_CONST_KEY_MAP;
    return last->op == rule->run && last->arg > 0;
}

/* Whether constant `key` can be a keyword's name, and is none of the
 * `n` names of `seen` (NULL: none). */
static int is_new_keyword(const upy_object *key, const upy_object *seen,
                          size_t n) {
    const char *name =
        key && key->kind == UPY_STR ? (const char *)key->u.bytes.data : NULL;
    size_t k;
    if (!name || strlen(name) != key->u.bytes.len || !upy_is_identifier(name))
        return 0;
    for (k = 0; k < n; k++)
        if (strcmp((const char *)upy_seq_item(seen, k)->u.bytes.data, name) ==
            0)
            return 0;
    return 1;
}

/* Whether the dict [s, e) a call's first plain run built holds keyword
 * arguments: compile.c compiler_subkwargs writes one as 'k' v BUILD_MAP 1
 * and more as their values, then the tuple of their names and
 * BUILD_CONST_KEY_MAP.  The same code from a `**{...}` display whose
 * keys could not be names stays that display (recovery names each key). */
static int keyword_run(norm *nm, uint32_t s, uint32_t e, uint32_t cur) {
    const upy_nin *last = &nm->out[e - 1], *keys = &nm->out[e - 2];
    size_t k, n;
    if (last->op == N_BUILD_MAP)
        return last->arg == 1 && nm->out[s].op == N_LOAD_CONST &&
               operand_start(nm, e - 1, cur) == (int32_t)s + 1 &&
               is_new_keyword(nm->out[s].obj, NULL, 0);
    if (keys->op != N_LOAD_CONST || !keys->obj || keys->obj->kind != UPY_TUPLE)
        return 0;
    n = upy_seq_len(keys->obj);
    for (k = 0; k < n; k++)
        if (!is_new_keyword(upy_seq_item(keys->obj, k), keys->obj, k))
            return 0;
    return 1;
}

/* A run of k plain items [s, e - 1) after the first operand: each item
 * is added on its own, its BUILD_TUPLE k (BUILD_SET k) gone (the last
 * item's add takes its place). */
static unpyc_status add_each_item(norm *nm, const unpack_rule *rule, uint32_t s,
                                  uint32_t e, uint32_t cur) {
    uint32_t k = (uint32_t)nm->out[e - 1].arg, end = e - 1;
    unpyc_status st;
    nm->out[e - 1].op = rule->add;
    nm->out[e - 1].arg = 1;
    while (k-- > 1) {
        int32_t start = operand_start(nm, end, cur);
        if (start <= (int32_t)s)
            return norm_unsupported(nm, cur);
        if ((st = insert_before(nm, (uint32_t)start, rule->add, 1, cur)))
            return st;
        end = (uint32_t)start;
    }
    return operand_start(nm, end, cur) == (int32_t)s
               ? UNPYC_OK
               : norm_unsupported(nm, cur);
}

/* Whether `kind` is that of None, True, False or Ellipsis, of which
 * marshal writes no references: each read is an object of its own. */
static int is_singleton_kind(int kind) {
    return kind == UPY_NONE || kind == UPY_TRUE || kind == UPY_FALSE ||
           kind == UPY_ELLIPSIS;
}

/* The index in co_consts of `item` (the very object: the peephole
 * optimizer builds a folded tuple of the objects it loaded, and marshal
 * writes the second of each as a reference to the first), or -1. */
static int32_t const_index(norm *nm, const upy_object *item) {
    const upy_object *consts = nm->dec->code->consts;
    size_t k, n = consts ? upy_seq_len(consts) : 0;
    if (nm->operand_budget < n)
        return -1;
    nm->operand_budget -= n;
    for (k = 0; k < n; k++) {
        const upy_object *c = upy_seq_item(consts, k);
        if (c == item ||
            (is_singleton_kind(item->kind) && c->kind == item->kind))
            return (int32_t)k;
    }
    return -1;
}

/* Whether the operand [s, e) is a plain run of constants folded into one
 * tuple (see unpack_rule). */
static int folded_run(norm *nm, uint32_t s, uint32_t e) {
    const upy_object *t = nm->out[s].obj;
    size_t k, n;
    if (e != s + 1 || nm->out[s].op != N_LOAD_CONST || !t ||
        t->kind != UPY_TUPLE || (n = upy_seq_len(t)) == 0)
        return 0;
    for (k = 0; k < n; k++)
        if (const_index(nm, upy_seq_item(t, k)) < 0)
            return 0;
    return 1;
}

/* A plain run of constants folded into the tuple operand j loads, at
 * neutral index s: each item loaded again, then the container built of
 * them (the first operand) or each added. */
static unpyc_status unfold_run(norm *nm, const unpack_rule *rule, uint32_t j,
                               uint32_t s, uint32_t cur) {
    const upy_object *t = nm->out[s].obj;
    uint32_t n = (uint32_t)upy_seq_len(t), k, p = s + 1;
    unpyc_status st;
    for (k = 0; k < n; k++) {
        const upy_object *item = upy_seq_item(t, k);
        upy_nin *load;
        if (k > 0 && (st = insert_before(nm, p++, N_LOAD_CONST, 0, cur)))
            return st;
        load = &nm->out[p - 1];
        load->op = N_LOAD_CONST;
        load->obj = item;
        load->arg = const_index(nm, item);
        if (j > 0 && (st = insert_before(nm, p++, rule->add, 1, cur)))
            return st;
    }
    return j == 0 ? insert_before(nm, p, rule->build, (int32_t)n, cur)
                  : UNPYC_OK;
}

/* What operand j, the neutral instructions [s, e), is: a plain run
 * (OPERAND_RUN, OPERAND_FOLDED for one folded into a constant) or a
 * starred value.  The compiler puts all plain items in a row in one run:
 * a tuple right after a run is a starred display, `f(a, *(b,), *c)`.  A
 * dict's run is a call's keywords only where its keys can be. */
enum { OPERAND_STARRED, OPERAND_RUN, OPERAND_FOLDED };

static int operand_kind(norm *nm, const unpack_rule *rule, uint32_t j,
                        int after_run, uint32_t s, uint32_t e, uint32_t cur) {
    if (rule->dict)
        return is_plain_run(nm, rule, s, e, cur) &&
                       (j > 0 || !rule->keywords || keyword_run(nm, s, e, cur))
                   ? OPERAND_RUN
                   : OPERAND_STARRED;
    if (after_run)
        return OPERAND_STARRED;
    if (rule->run == N_BUILD_TUPLE && folded_run(nm, s, e))
        return OPERAND_FOLDED;
    return is_plain_run(nm, rule, s, e, cur) ? OPERAND_RUN : OPERAND_STARRED;
}

/* Operand j of a BUILD_*_UNPACK, the neutral instructions [s, e), of
 * operand_kind `kind`. */
static unpyc_status lower_unpack_operand(norm *nm, const unpack_rule *rule,
                                         uint32_t j, int kind, uint32_t s,
                                         uint32_t e, uint32_t cur) {
    unpyc_status st;
    if (kind == OPERAND_FOLDED)
        return unfold_run(nm, rule, j, s, cur);
    if (kind == OPERAND_RUN) {
        if (j == 0 && !rule->dict)
            nm->out[e - 1].op = rule->build;
        if (j == 0)
            return UNPYC_OK;
        if (!rule->dict)
            return add_each_item(nm, rule, s, e, cur);
        return insert_before(nm, e, rule->extend, 1, cur);
    }
    if ((st = insert_before(nm, e, rule->extend, 1, cur)))
        return st;
    return j == 0 ? insert_before(nm, s, rule->build, 0, cur) : UNPYC_OK;
}

/* The keyword mapping of the CALL_FUNCTION_EX at decoded instruction i,
 * the last value before it, as 3.9+ build it: where it is no run of
 * keyword arguments (keyword_run) and no merge of several (lower_unpack
 * ends those in DICT_MERGE), it is merged into a new dict, BUILD_MAP 0
 * before it and DICT_MERGE 1 after.  `f(**{**a, **b})` so stays one
 * `**` of a display, whose merge lets a key repeat, where `f(**a, **b)`
 * refuses it. */
unpyc_status norm_wrap_kwargs(norm *nm, uint32_t i) {
    const unpack_rule *rule = unpack_rule_of(UPY_OP_BUILD_MAP_UNPACK_WITH_CALL);
    uint32_t e = nm->n;
    int32_t s = operand_start(nm, e, i);
    unpyc_status st;
    if (s < 0)
        return norm_unsupported(nm, i);
    if ((nm->out[e - 1].op == N_DICT_MERGE &&
         jumps_to_neutral(nm, e, i) == 0) ||
        (is_plain_run(nm, rule, (uint32_t)s, e, i) &&
         keyword_run(nm, (uint32_t)s, e, i)))
        return UNPYC_OK;
    if ((st = insert_before(nm, e, N_DICT_MERGE, 1, i)))
        return st;
    return insert_before(nm, (uint32_t)s, N_BUILD_MAP, 0, i);
}

/* Decoded instruction i, a BUILD_*_UNPACK (see unpack_rule): where its
 * operands start, found from the last back; what each is, from the first
 * on; then each lowered from the last back, so that what each puts in
 * leaves the places of those before it as they were. */
unpyc_status norm_lower_unpack(norm *nm, uint32_t i) {
    const unpack_rule *rule = unpack_rule_of(at(nm, i)->op);
    uint32_t n = (uint32_t)at(nm, i)->arg, j;
    int32_t *start;
    uint8_t *kind;
    unpyc_status st;
    if (n == 0 || n > nm->n)
        return norm_unsupported(nm, i);
    start = upy_arena_array(nm->arena, n + 1, sizeof *start);
    kind = upy_arena_array(nm->arena, n, 1);
    if (!start || !kind)
        return norm_fail_memory(nm);
    start[n] = (int32_t)nm->n;
    for (j = n; j-- > 0;)
        if ((start[j] = operand_start(nm, (uint32_t)start[j + 1], i)) < 0)
            return norm_unsupported(nm, i);
    for (j = 0; j < n; j++)
        kind[j] = (uint8_t)operand_kind(
            nm, rule, j, j > 0 && kind[j - 1] != OPERAND_STARRED,
            (uint32_t)start[j], (uint32_t)start[j + 1], i);
    for (j = n; j-- > 0;)
        if ((st = lower_unpack_operand(nm, rule, j, kind[j], (uint32_t)start[j],
                                       (uint32_t)start[j + 1], i)))
            return st;
    return rule->to_tuple ? norm_put(nm, N_LIST_TO_TUPLE, 0, NULL, i)
                          : UNPYC_OK;
}
