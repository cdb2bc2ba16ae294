/*
 * match.c - the match statement.
 *
 * CPython compiles `match subject:` as the subject on the stack and, per
 * case: a copy of it (COPY 1; none for the last case that has code, since
 * a trailing `case _` has none of its own), the pattern's code, the stores
 * of the names it captured, the guard, POP_TOP of the subject, the body and
 * a jump to the end.  A pattern's code consumes its subject.  Each of its
 * tests jumps, when it fails, into a chain of POP_TOPs that drops what the
 * pattern still had on the stack and ends where the next case starts.
 * Captured values wait on the stack, under what the pattern still uses,
 * and are stored once the whole pattern matched.
 *
 * Pattern code is not structured like other code.  It is run here on a
 * stack of its own whose slots know which part of the pattern (a node) they
 * hold the subject of, so that SWAPs, stores the optimizer moved and the
 * order of captures do not matter: each instruction adds to the node of the
 * slot it works on (MATCH_SEQUENCE makes it a sequence, COMPARE == a value
 * pattern, STORE gives it a name ...).  Every failure jump is checked:
 * after the POP_TOPs that the stack depth at the jump calls for, it must
 * land where the other failures of the same case land.
 *
 * Two shapes need a look ahead.  A COPY 1 of a subject starts either an
 * as-pattern (`P as name`: P works on the copy, the name takes the
 * original) or an or-pattern (each alternative works on a copy of its own
 * and fails to the next alternative's COPY 1): the or reading is tried
 * first and holds only when the first alternative's failures land on
 * another alternative.  And whether a case's COPY 1 is its copy of the
 * subject, or the start of the last case's pattern, is settled by reading
 * the remaining cases both ways.  One budget of simulated instructions per
 * code object (rec.match_steps) bounds that search over all the places a
 * match could start, so hostile code full of COPY 1 stays linear.
 *
 * Guards and bodies are ordinary code: structure.c structures them as
 * regions.  A body ends where its case's failure chain starts.
 */
#include <string.h>

#include "recover/rec.h"

typedef enum mnode_kind {
    MN_ANY, /* no test on it: a capture or the wildcard */
    MN_VALUE,
    MN_SINGLETON,
    MN_SEQUENCE,
    MN_MAPPING,
    MN_CLASS,
    MN_OR,
} mnode_kind;

/* One pattern, as its code reveals it. */
typedef struct mnode mnode;
struct mnode {
    uint8_t kind;     /* mnode_kind */
    uint8_t has_len;  /* MN_SEQUENCE: a length test was seen */
    uint8_t len_min;  /* ... and it was len >= n, not len == n */
    uint8_t unpacked; /* MN_SEQUENCE: kids come from UNPACK_*, not
                         subscripts */
    int64_t len;
    const char *name; /* the name it binds */
    upy_expr *value;  /* MN_VALUE, MN_SINGLETON: the value; MN_CLASS: the
                         class */
    const upy_object *kwnames; /* MN_CLASS: keyword attribute names */
    int32_t npos;              /* MN_CLASS: positional sub-patterns */
    upy_expr_list keys;        /* MN_MAPPING */
    const char *rest;          /* MN_MAPPING: **rest */
    mnode **kids; /* elements of a sequence (NULL: `_`), values of a
                     mapping, attributes of a class, alternatives */
    uint32_t nkids;
    int32_t star;        /* MN_SEQUENCE: index of the starred element */
    int32_t front;       /* subscripted sequence: elements taken from the
                            front */
    mnode *inner;        /* `inner as name`: what a COPY 1 of it matched */
    mnode *copy_of;      /* a COPY 1 of copy_of's subject */
    mnode *twin;         /* or-patterns: the capture at the same place of
                            the next alternative's stack */
    uint8_t popped_bare; /* popped without a name after an as-copy */
};

typedef enum mslot_kind {
    MS_SUBJECT, /* the case's own copy of the match subject */
    MS_NODE,    /* the subject of a pattern node */
    MS_VALUE,   /* a constant or dotted name the code loaded */
    MS_KEYS,    /* BUILD_TUPLE of mapping keys */
    MS_TEST,    /* a test's result */
    MS_LEN,     /* len() of a node's subject */
    MS_LEN_MINUS,
    MS_ATTRS,  /* MATCH_CLASS result */
    MS_VALUES, /* MATCH_KEYS result */
    MS_EMPTY_DICT,
    MS_REST, /* the dict of a mapping's **rest */
    MS_OTHER,
} mslot_kind;

typedef enum mtest {
    T_SEQUENCE,
    T_MAPPING,
    T_LEN,
    T_VALUE,
    T_SINGLETON,
    T_NOT_NONE,
} mtest;

typedef struct mslot {
    uint8_t kind;
    uint8_t test; /* MS_TEST */
    uint8_t cmp;  /* MS_TEST of T_LEN: UPY_CMP_EQ / GE */
    mnode *node;
    upy_expr *expr;        /* MS_VALUE; MS_TEST of a value */
    const upy_object *obj; /* MS_VALUE of a constant */
    upy_expr_list keys;    /* MS_KEYS */
    int64_t k;             /* MS_LEN_MINUS; MS_TEST of T_LEN */
} mslot;

typedef struct mstate {
    mslot *slots;
    uint32_t sp, cap;
    uint32_t pos;
    int ended_by_jump; /* an or alternative ended with its success jump */
} mstate;

/* Where a pattern's failures go and when it is done. */
typedef struct mctx {
    uint32_t fail_depth; /* the depth the failure chain drops to */
    int64_t fail_at;     /* where failures land, -1 until one is seen */
    int64_t chain;       /* the lowest failure target: where the chain
                            starts */
    uint32_t stop_depth; /* a case's pattern is done at this depth */
    int alt;             /* an or alternative: done at its success jump,
                            or at the first instruction that touches the
                            or's subject (at depth `lowest`) */
    uint32_t lowest;
    /* An or alternative after the first: where the first one's success
     * jump went, -1 when it had none.  The last alternative runs on into
     * that continuation when the compiler left out its jump to the next
     * instruction (3.13: `case [x] | x:`, the capture's COPY 1 just before
     * the STORE the first alternative jumps to). */
    int64_t join;
} mctx;

typedef struct mcase {
    mnode *root;
    upy_pattern *pattern;
    int copied;
    uint32_t start; /* its first instruction */
    uint32_t after; /* the first after its pattern and stores */
    int64_t fail_at;
    int64_t chain;
    int64_t guard_end; /* copied case with a guard: the POP_TOP of the
                          subject where the body starts, else -1 */
    int dead_guard;    /* copied case whose pattern, once it matched, goes on
                          where its failures do: a guard the compiler found
                          false (`case 0 if False:`), dropped with the body */
} mcase;

typedef struct mparse {
    rec *r;
    /* Instructions the pattern code ran, and the ranges of copies of an
     * or-pattern's continuation to pass over; both are truncated when a
     * reading is abandoned. */
    uint32_t *log;
    uint32_t nlog, log_cap;
    uint32_t *copies; /* start, length pairs */
    uint32_t ncopies, copies_cap;
    mcase *cases;
    uint32_t ncases, cases_cap;
} mparse;

static mnode *new_node(mparse *mp) {
    mnode *n = upy_arena_alloc(mp->r->arena, sizeof *n);
    if (!n) {
        rec_oom(mp->r);
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->star = -1;
    return n;
}

static int log_ins(mparse *mp, uint32_t i) {
    if (mp->nlog == mp->log_cap) {
        uint32_t *grown = upy_arena_grow(mp->r->arena, mp->log, mp->nlog,
                                         &mp->log_cap, sizeof *grown, 64);
        if (!grown)
            return rec_oom(mp->r), 0;
        mp->log = grown;
    }
    mp->log[mp->nlog++] = i;
    return 1;
}

static int add_copy(mparse *mp, uint32_t start, uint32_t len) {
    if (mp->ncopies + 2 > mp->copies_cap) {
        uint32_t *grown = upy_arena_grow(mp->r->arena, mp->copies, mp->ncopies,
                                         &mp->copies_cap, sizeof *grown, 16);
        if (!grown)
            return rec_oom(mp->r), 0;
        mp->copies = grown;
    }
    mp->copies[mp->ncopies++] = start;
    mp->copies[mp->ncopies++] = len;
    return 1;
}

/* --- the pattern stack ---------------------------------------------------- */

static int push(mparse *mp, mstate *st, mslot s) {
    if (st->sp == st->cap) {
        mslot *grown = upy_arena_grow(mp->r->arena, st->slots, st->sp, &st->cap,
                                      sizeof *grown, 16);
        if (!grown)
            return rec_oom(mp->r), 0;
        st->slots = grown;
    }
    st->slots[st->sp++] = s;
    return 1;
}

static mslot slot(mslot_kind kind, mnode *node) {
    mslot s;
    memset(&s, 0, sizeof s);
    s.kind = (uint8_t)kind;
    s.node = node;
    return s;
}

static mslot *top(mstate *st, uint32_t depth) {
    return depth >= 1 && depth <= st->sp ? &st->slots[st->sp - depth] : NULL;
}

static int clone(mparse *mp, const mstate *from, mstate *to) {
    *to = *from;
    to->cap = from->sp + 8;
    to->slots = upy_arena_array(mp->r->arena, to->cap, sizeof *to->slots);
    if (!to->slots)
        return rec_oom(mp->r), 0;
    if (from->sp)
        memcpy(to->slots, from->slots, from->sp * sizeof *to->slots);
    return 1;
}

/* The sequence whose elements a COPY 1 of n reaches (subscripts and len()
 * of a subscripted sequence work on copies of it). */
static mnode *seq_of(mnode *n) {
    while (n->kind == MN_ANY && n->copy_of)
        n = n->copy_of;
    return n->kind == MN_SEQUENCE ? n : NULL;
}

/* Gives node n its kind; a node tested two ways is no pattern code. */
static int make(mnode *n, mnode_kind kind) {
    /* The original of an as-pattern's copy is only named. */
    if (n->inner || (n->kind != MN_ANY && n->kind != kind))
        return 0;
    n->kind = (uint8_t)kind;
    return 1;
}

static void bind(mnode *n, const char *name) {
    for (; n; n = n->twin)
        n->name = name;
}

static int is_int(const upy_object *o) {
    return o && o->kind == UPY_INT && !o->u.integer.is_big;
}

/* Where control goes from instruction i, through unconditional jumps. */
static uint32_t through(mparse *mp, uint32_t i) {
    int steps = 0;
    while (i < mp->r->ncode.count && ins(mp->r, i)->op == N_JUMP &&
           ins(mp->r, i)->target >= 0 && steps++ < 16) {
        log_ins(mp, i);
        i = (uint32_t)ins(mp->r, i)->target;
    }
    return i;
}

/* Whether failures landing at p land on a copy of the exit block where
 * the others land (cx->fail_at: `return out` after the match).  3.10 and
 * 3.12+ put a copy of a small exit block with a line in place of a jump
 * to it (compile.c duplicate_exits_without_lineno / inline_small_exit_blocks;
 * flowgraph.c inline_small_or_no_lineno_blocks), here the jump an inner
 * or-pattern's failure makes after popping its subject: `case [(A | B)]:`.
 * The copy, which only that failure reaches, is passed over as an
 * or-pattern's copied continuation is. */
static int lands_on_exit_copy(mparse *mp, const mctx *cx, uint32_t p) {
    const rec *r = mp->r;
    const upy_block *exit, *copy;
    uint32_t len;
    if (cx->fail_at < 0 || p >= r->ncode.count)
        return 0;
    exit = &r->cfg.blocks[r->cfg.block_of[cx->fail_at]];
    copy = &r->cfg.blocks[r->cfg.block_of[p]];
    len = exit->end - (uint32_t)cx->fail_at;
    if (len == 0 || copy->end != p + len ||
        (copy->start == p && copy->npreds > 1) ||
        upy_nin_falls_through(ins(r, exit->end - 1)) ||
        ins(r, exit->end - 1)->op == N_JUMP ||
        !rec_same_code(r, (uint32_t)cx->fail_at, p, len))
        return 0;
    return add_copy(mp, p, len);
}

/* A failure jump to `target` with the stack `depth` deep (after the jump
 * popped its test): it must drop to the context's depth with POP_TOPs and
 * land where the others do (or on a copy of the exit block there). */
static int fail_to(mparse *mp, mctx *cx, uint32_t target, uint32_t depth) {
    uint32_t pops, p = target;
    if (depth < cx->fail_depth)
        return 0;
    if (cx->chain < 0 || target < cx->chain)
        cx->chain = target;
    for (pops = depth - cx->fail_depth; pops > 0; pops--) {
        p = through(mp, p);
        if (p >= mp->r->ncode.count || ins(mp->r, p)->op != N_POP_TOP)
            return 0;
        log_ins(mp, p);
        p++;
    }
    p = through(mp, p);
    if (cx->fail_at < 0)
        cx->fail_at = p;
    return cx->fail_at == (int64_t)p || lands_on_exit_copy(mp, cx, p);
}

/* --- running pattern code ------------------------------------------------ */

static int run(mparse *mp, mstate *st, mctx *cx);

/* The test in slot t holds: record what it says about its node. */
static int apply_test(const mslot *t) {
    mnode *n = t->node;
    switch ((mtest)t->test) {
    case T_SEQUENCE:
        return make(n, MN_SEQUENCE);
    case T_MAPPING:
        return make(n, MN_MAPPING);
    case T_LEN:
        if (n->kind == MN_SEQUENCE && !n->has_len) {
            n->has_len = 1;
            n->len_min = t->cmp == UPY_CMP_GE;
            n->len = t->k;
        }
        return n->kind == MN_SEQUENCE || n->kind == MN_MAPPING;
    case T_VALUE:
        if (!make(n, MN_VALUE))
            return 0;
        n->value = t->expr;
        return 1;
    case T_SINGLETON:
        if (!make(n, MN_SINGLETON))
            return 0;
        n->value = t->expr;
        return 1;
    case T_NOT_NONE:
        return 1;
    }
    return 0;
}

/* A conditional jump in pattern code: one way is the failure. */
static int conditional(mparse *mp, mstate *st, mctx *cx, const upy_nin *in) {
    mslot s = st->slots[--st->sp];
    int fail_if_taken;
    uint32_t fail, go_on;
    switch ((upy_jump_cond)in->arg) {
    case UPY_JUMP_FALSE:
    case UPY_JUMP_TRUE:
        if (s.kind != MS_TEST || !apply_test(&s))
            return 0;
        fail_if_taken = in->arg == UPY_JUMP_FALSE;
        break;
    case UPY_JUMP_NOT_NONE:
    case UPY_JUMP_NONE:
        if (s.kind == MS_NODE && in->arg == UPY_JUMP_NOT_NONE) {
            /* `case None`. */
            if (!make(s.node, MN_SINGLETON))
                return 0;
            s.node->value = rec_const(mp->r, mp->r->none_object);
            fail_if_taken = 1;
        } else if (s.kind == MS_ATTRS || s.kind == MS_VALUES) {
            fail_if_taken = in->arg == UPY_JUMP_NONE;
        } else {
            return 0;
        }
        break;
    default:
        return 0;
    }
    fail = fail_if_taken ? (uint32_t)in->target : st->pos + 1;
    go_on = fail_if_taken ? st->pos + 1 : (uint32_t)in->target;
    if (!fail_to(mp, cx, fail, st->sp))
        return 0;
    st->pos = go_on;
    return 1;
}

/* Whether instruction `in` reaches below the or-pattern subject's slot
 * (which is at depth `lowest`). */
static int touches_below(const upy_nin *in, const mstate *st, uint32_t lowest) {
    uint32_t above = st->sp - lowest; /* slots above the or's subject */
    if (in->op == N_SWAP || in->op == N_COPY)
        return (uint32_t)in->arg > above;
    return above == 0;
}

/* Pattern `P1 | P2 | ...` on the subject in the top slot, at st->pos (the
 * first alternative's COPY 1).  1 when that is what the code is. */
static int or_pattern(mparse *mp, mstate *st, mctx *cx) {
    uint32_t d = st->sp, pos = st->pos, nlog = mp->nlog, ncopies = mp->ncopies;
    uint32_t nalts = 0, k;
    mnode *or_node = top(st, 1)->node;
    mnode *alts[64];
    mstate ends[64];
    uint32_t end_pos[64];
    int64_t outer_fail = -1;
    mctx entry_cx = *cx;

    for (;;) {
        mstate a;
        mctx acx;
        mnode *alt;
        if (nalts == 64 || pos >= mp->r->ncode.count ||
            ins(mp->r, pos)->op != N_COPY || ins(mp->r, pos)->arg != 1)
            goto not_or;
        alt = new_node(mp);
        if (!alt || !clone(mp, st, &a) || !push(mp, &a, slot(MS_NODE, alt)))
            goto not_or;
        log_ins(mp, pos);
        a.pos = pos + 1;
        a.ended_by_jump = 0;
        memset(&acx, 0, sizeof acx);
        acx.fail_depth = d;
        acx.fail_at = -1;
        acx.chain = -1;
        acx.alt = 1;
        acx.lowest = d;
        acx.join = nalts && ends[0].ended_by_jump ? (int64_t)end_pos[0] : -1;
        if (!run(mp, &a, &acx))
            goto not_or;
        alts[nalts] = alt;
        ends[nalts] = a;
        end_pos[nalts] = a.ended_by_jump ? through(mp, a.pos) : a.pos;
        if (a.ended_by_jump)
            log_ins(mp, a.pos);
        nalts++;
        if (acx.fail_at < 0)
            break; /* an irrefutable alternative: the last */
        if (ins(mp->r, (uint32_t)acx.fail_at)->op == N_COPY &&
            ins(mp->r, (uint32_t)acx.fail_at)->arg == 1 &&
            acx.fail_at > (int64_t)pos) {
            pos = (uint32_t)acx.fail_at;
            continue;
        }
        /* The last alternative fails to POP_TOP of the or's subject and on
         * to where the or itself fails. */
        if (ins(mp->r, (uint32_t)acx.fail_at)->op != N_POP_TOP)
            goto not_or;
        outer_fail = acx.fail_at;
        break;
    }
    if (nalts < 2)
        goto not_or;
    if (outer_fail >= 0) {
        /* That POP_TOP is the or's own: where the case's failure chain
         * starts is not moved by it. */
        int64_t chain = cx->chain;
        log_ins(mp, (uint32_t)outer_fail);
        if (!fail_to(mp, cx, (uint32_t)outer_fail + 1, d - 1))
            goto not_or;
        cx->chain = chain;
    }
    /* Every alternative leaves the same number of captures above the
     * subject, in the first one's order: each capture is the twin of the
     * one at its place in the next alternative. */
    for (k = 1; k < nalts; k++) {
        uint32_t j;
        if (ends[k].sp != ends[0].sp)
            goto not_or;
        for (j = d; j < ends[0].sp; j++) {
            mnode *prev = ends[k - 1].slots[j].node,
                  *next = ends[k].slots[j].node;
            if (ends[k].slots[j].kind != MS_NODE ||
                ends[k - 1].slots[j].kind != MS_NODE || !prev || !next)
                goto not_or;
            while (prev->twin)
                prev = prev->twin;
            prev->twin = next;
        }
        /* Alternatives whose continuation the compiler copied in place of
         * the jump to it (a small exit block): the first copy is the one
         * structured, the others are passed over. */
        if (end_pos[k] != end_pos[0]) {
            uint32_t len, b = mp->r->cfg.block_of[end_pos[0]];
            len = blk(mp->r, b)->end - end_pos[0];
            if (!rec_same_code(mp->r, end_pos[0], end_pos[k], len) ||
                !add_copy(mp, end_pos[k], len))
                goto not_or;
        }
    }
    if (!make(or_node, MN_OR))
        goto not_or;
    or_node->kids = upy_arena_array(mp->r->arena, nalts, sizeof(mnode *));
    if (!or_node->kids)
        return rec_oom(mp->r), 0;
    memcpy(or_node->kids, alts, nalts * sizeof(mnode *));
    or_node->nkids = nalts;
    /* Go on after the alternatives, where the first one's continuation
     * starts, with its stack. */
    st->slots = ends[0].slots;
    st->sp = ends[0].sp;
    st->cap = ends[0].cap;
    st->pos = end_pos[0];
    return 1;
not_or:
    /* Nothing of this reading stays: st is untouched until it holds. */
    *cx = entry_cx;
    mp->nlog = nlog;
    mp->ncopies = ncopies;
    return 0;
}

/* COPY 1 of a subject: a subscripted sequence taking an element, an
 * or-pattern, or an as-pattern. */
static int copy_subject(mparse *mp, mstate *st, mctx *cx) {
    const rec *r = mp->r;
    mnode *n = top(st, 1)->node, *copy;
    uint32_t next = st->pos + 1;
    int takes_element =
        next + 1 < r->ncode.count &&
        (ins(r, next)->op == N_GET_LEN ||
         (ins(r, next)->op == N_LOAD_CONST && is_int(ins(r, next)->obj) &&
          ins(r, next + 1)->op == N_SUBSCR));
    if (!takes_element && or_pattern(mp, st, cx))
        return 1;
    copy = new_node(mp);
    if (!copy)
        return 0;
    copy->copy_of = n;
    if (!takes_element) {
        if (n->inner || n->kind != MN_ANY)
            return 0;
        n->inner = copy;
    }
    log_ins(mp, st->pos);
    st->pos++;
    return push(mp, st, slot(MS_NODE, copy));
}

/* The kids of node n from an unpacking of its subject (or of its class
 * attributes / mapping values) into `count` slots, the first on top. */
static int unpack_kids(mparse *mp, mstate *st, mnode *n, uint32_t count) {
    uint32_t k;
    if (n->kids || count > 1u << 16)
        return 0;
    n->kids = upy_arena_array(mp->r->arena, count + 1, sizeof(mnode *));
    if (!n->kids)
        return rec_oom(mp->r), 0;
    n->nkids = count;
    for (k = 0; k < count; k++)
        if (!(n->kids[k] = new_node(mp)))
            return 0;
    for (k = count; k > 0; k--)
        if (!push(mp, st, slot(MS_NODE, n->kids[k - 1])))
            return 0;
    return 1;
}

/* An element of subscripted sequence n: index i from the front, or
 * len - back from the back (back > 0). */
static mnode *element(mparse *mp, mnode *n, int64_t i, int64_t back) {
    int64_t size, at;
    if (!n->has_len || !n->len_min || n->unpacked)
        return NULL;
    size = n->len + 1;
    if (size < 2 || size > 1 << 16)
        return NULL;
    if (!n->kids) {
        n->kids = upy_arena_array(mp->r->arena, (size_t)size, sizeof(mnode *));
        if (!n->kids)
            return rec_oom(mp->r), NULL;
        memset(n->kids, 0, (size_t)size * sizeof(mnode *));
        n->nkids = (uint32_t)size;
    }
    at = back ? size - back : i;
    if (at < 0 || at >= size || n->kids[at])
        return NULL;
    if (!back && at + 1 > n->front)
        n->front = (int32_t)(at + 1);
    n->kids[at] = new_node(mp);
    return n->kids[at];
}

/* Class node n's attributes (its MATCH_CLASS's positional count and
 * keyword names) or mapping node n's values (its keys) as kids, all `_`
 * (NULL) until taken.  3.10 takes each sub-pattern's subject from the
 * tuple MATCH_CLASS / MATCH_KEYS made by subscript, leaving the wildcards
 * out, and pops the tuple after them (compile.c compiler_pattern_class,
 * compiler_pattern_mapping: DUP_TOP; LOAD_CONST i; BINARY_SUBSCR); 3.11+
 * unpack it (unpack_kids). */
static int tuple_kids(mparse *mp, mnode *n) {
    size_t size;
    if (n->kids)
        return 1;
    if (n->kind == MN_CLASS)
        size = (size_t)n->npos + upy_seq_len(n->kwnames);
    else if (n->kind == MN_MAPPING)
        size = n->keys.len;
    else
        return 0;
    if (n->npos < 0 || size > 1u << 16)
        return 0;
    n->kids = upy_arena_array(mp->r->arena, size + 1, sizeof(mnode *));
    if (!n->kids)
        return rec_oom(mp->r), 0;
    n->nkids = (uint32_t)size;
    return 1;
}

/* The kid of class or mapping node n that 3.10 takes by subscript
 * `index` of its tuple (tuple_kids), or NULL. */
static mnode *tuple_element(mparse *mp, mnode *n, const mslot *index) {
    int64_t i;
    if (index->kind != MS_VALUE || !is_int(index->obj) || !tuple_kids(mp, n))
        return NULL;
    i = index->obj->u.integer.value;
    if (i < 0 || i >= (int64_t)n->nkids || n->kids[i])
        return NULL;
    return n->kids[i] = new_node(mp);
}

/* One instruction of pattern code; 0 when it is none. */
static int step(mparse *mp, mstate *st, mctx *cx) {
    rec *r = mp->r;
    const upy_nin *in = ins(r, st->pos);
    mslot *a = top(st, 1), *b = top(st, 2), *c = top(st, 3), s;
    uint32_t k;

    if (in->op == N_COPY && in->arg == 1 && a && a->kind == MS_NODE)
        return copy_subject(mp, st, cx);
    if (in->op == N_POP_JUMP_IF && a) {
        log_ins(mp, st->pos);
        return conditional(mp, st, cx, in);
    }
    log_ins(mp, st->pos);
    st->pos++;
    switch ((upy_nop)in->op) {
    case N_COPY:
        if (!(a = top(st, (uint32_t)in->arg)))
            return 0;
        s = *a;
        return push(mp, st, s);
    case N_SWAP:
        if (!a || !(b = top(st, (uint32_t)in->arg)))
            return 0;
        s = *a;
        *a = *b;
        *b = s;
        return 1;
    case N_POP_TOP:
        if (!a)
            return 0;
        if (a->kind == MS_NODE && a->node->inner && !a->node->name)
            a->node->popped_bare = 1;
        /* (3.10: the tuple popped after the kids it gave.) */
        if ((a->kind == MS_ATTRS || a->kind == MS_VALUES) &&
            !tuple_kids(mp, a->node))
            return 0;
        st->sp--;
        return 1;
    case N_STORE:
        if (!a)
            return 0;
        if (a->kind == MS_NODE && !a->node->name)
            bind(a->node, rec_str(in->obj));
        else if (a->kind == MS_REST && !a->node->rest)
            a->node->rest = rec_str(in->obj);
        else
            return 0;
        st->sp--;
        return 1;
    case N_LOAD_CONST:
        s = slot(MS_VALUE, NULL);
        s.obj = in->obj;
        s.expr = rec_const(r, in->obj);
        return s.expr && push(mp, st, s);
    case N_LOAD:
        s = slot(MS_VALUE, NULL);
        s.expr = rec_name(r, rec_str(in->obj));
        return s.expr && push(mp, st, s);
    case N_LOAD_ATTR: {
        upy_expr *e;
        if (!a || a->kind != MS_VALUE || a->obj)
            return 0;
        e = upy_expr_new(r->arena, UPY_E_ATTR);
        if (!e)
            return rec_oom(r), 0;
        e->u.attr.value = a->expr;
        e->u.attr.attr = rec_str(in->obj);
        a->expr = e;
        return 1;
    }
    case N_BUILD_TUPLE: {
        upy_expr **keys;
        if ((uint32_t)in->arg > st->sp)
            return 0;
        keys = upy_arena_array(r->arena, (size_t)in->arg + 1, sizeof *keys);
        if (!keys)
            return rec_oom(r), 0;
        for (k = 0; k < (uint32_t)in->arg; k++) {
            mslot *v = &st->slots[st->sp - (uint32_t)in->arg + k];
            if (v->kind != MS_VALUE)
                return 0;
            keys[k] = v->expr;
        }
        st->sp -= (uint32_t)in->arg;
        s = slot(MS_KEYS, NULL);
        s.keys.items = keys;
        s.keys.len = (uint32_t)in->arg;
        return push(mp, st, s);
    }
    case N_MATCH_SEQUENCE:
    case N_MATCH_MAPPING:
        if (!a || a->kind != MS_NODE)
            return 0;
        s = slot(MS_TEST, a->node);
        s.test = in->op == N_MATCH_SEQUENCE ? T_SEQUENCE : T_MAPPING;
        return push(mp, st, s);
    case N_GET_LEN:
        if (!a || a->kind != MS_NODE)
            return 0;
        s = slot(MS_LEN, a->node);
        return push(mp, st, s);
    case N_COMPARE:
        if (!a || !b || a->kind != MS_VALUE)
            return 0;
        s = slot(MS_TEST, b->node);
        if (b->kind == MS_LEN && is_int(a->obj) &&
            (in->arg == UPY_CMP_EQ || in->arg == UPY_CMP_GE)) {
            s.node = seq_of(b->node) ? seq_of(b->node) : b->node;
            s.test = T_LEN;
            s.cmp = (uint8_t)in->arg;
            s.k = a->obj->u.integer.value;
        } else if (b->kind == MS_NODE && in->arg == UPY_CMP_EQ) {
            s.test = T_VALUE;
            s.expr = a->expr;
        } else if (b->kind == MS_NODE && in->arg == UPY_CMP_IS && a->obj &&
                   (a->obj->kind == UPY_NONE || a->obj->kind == UPY_TRUE ||
                    a->obj->kind == UPY_FALSE)) {
            s.test = T_SINGLETON;
            s.expr = a->expr;
        } else if ((b->kind == MS_ATTRS || b->kind == MS_VALUES) &&
                   in->arg == UPY_CMP_IS_NOT && a->obj &&
                   a->obj->kind == UPY_NONE) {
            s.test = T_NOT_NONE;
        } else {
            return 0;
        }
        st->sp -= 2;
        return push(mp, st, s);
    case N_BINARY:
        if (!a || !b || b->kind != MS_LEN || a->kind != MS_VALUE ||
            !is_int(a->obj) || in->arg != UPY_BIN_SUB ||
            (in->flags & N_INPLACE))
            return 0;
        s = slot(MS_LEN_MINUS, b->node);
        s.k = a->obj->u.integer.value;
        st->sp -= 2;
        return push(mp, st, s);
    case N_SUBSCR: {
        mnode *n, *e;
        if (a && b && (b->kind == MS_ATTRS || b->kind == MS_VALUES)) {
            if (!(e = tuple_element(mp, b->node, a)))
                return 0;
            st->sp -= 2;
            return push(mp, st, slot(MS_NODE, e));
        }
        if (!a || !b || b->kind != MS_NODE || !(n = seq_of(b->node)))
            return 0;
        if (a->kind == MS_VALUE && is_int(a->obj) &&
            a->obj->u.integer.value >= 0)
            e = element(mp, n, a->obj->u.integer.value, 0);
        else if (a->kind == MS_LEN_MINUS && seq_of(a->node) == n && a->k > 0)
            e = element(mp, n, 0, a->k);
        else
            return 0;
        if (!e)
            return 0;
        st->sp -= 2;
        return push(mp, st, slot(MS_NODE, e));
    }
    case N_UNPACK_SEQUENCE:
        if (!a)
            return 0;
        st->sp--;
        switch ((mslot_kind)a->kind) {
        case MS_NODE:
            if (a->node->kind != MN_SEQUENCE)
                return 0;
            a->node->unpacked = 1;
            return unpack_kids(mp, st, a->node, (uint32_t)in->arg);
        case MS_ATTRS:
        case MS_VALUES:
            return unpack_kids(mp, st, a->node, (uint32_t)in->arg);
        case MS_VALUE:
        case MS_KEYS:
            /* The keys, deleted one by one from a **rest dict. */
            for (k = 0; k < (uint32_t)in->arg; k++)
                if (!push(mp, st, slot(MS_OTHER, NULL)))
                    return 0;
            return 1;
        default:
            return 0;
        }
    case N_UNPACK_EX: {
        uint32_t before = (uint32_t)in->arg & 0xff,
                 after = (uint32_t)in->arg >> 8;
        mnode *n = a && a->kind == MS_NODE ? a->node : NULL;
        if (!n || n->kind != MN_SEQUENCE)
            return 0;
        st->sp--;
        n->unpacked = 1;
        n->star = (int32_t)before;
        return unpack_kids(mp, st, n, before + 1 + after);
    }
    case N_MATCH_CLASS:
        if (!a || !b || !c || c->kind != MS_NODE || b->kind != MS_VALUE ||
            a->kind != MS_VALUE || !a->obj || a->obj->kind != UPY_TUPLE ||
            !make(c->node, MN_CLASS))
            return 0;
        c->node->value = b->expr;
        c->node->kwnames = a->obj;
        c->node->npos = in->arg;
        s = slot(MS_ATTRS, c->node);
        st->sp -= 3;
        return push(mp, st, s);
    case N_MATCH_KEYS: {
        mnode *n = b && b->kind == MS_NODE ? b->node : NULL;
        if (!n || !a || n->kind != MN_MAPPING || n->keys.items)
            return 0;
        if (a->kind == MS_KEYS) {
            n->keys = a->keys;
        } else if (a->kind == MS_VALUE && a->obj && a->obj->kind == UPY_TUPLE) {
            size_t len = upy_seq_len(a->obj);
            upy_expr **keys = upy_arena_array(r->arena, len + 1, sizeof *keys);
            if (!keys)
                return rec_oom(r), 0;
            for (k = 0; k < len; k++)
                if (!(keys[k] = rec_const(r, upy_seq_item(a->obj, k))))
                    return 0;
            n->keys.items = keys;
            n->keys.len = (uint32_t)len;
        } else {
            return 0;
        }
        return push(mp, st, slot(MS_VALUES, n));
    }
    case N_BUILD_MAP:
        if (in->arg != 0)
            return 0;
        return push(mp, st, slot(MS_EMPTY_DICT, NULL));
    case N_DICT_UPDATE: {
        mslot *dict;
        if (!a || a->kind != MS_NODE || a->node->kind != MN_MAPPING)
            return 0;
        dict = top(st, (uint32_t)in->arg + 1);
        if (!dict || dict->kind != MS_EMPTY_DICT)
            return 0;
        *dict = slot(MS_REST, a->node);
        st->sp--;
        return 1;
    }
    case N_COPY_DICT_WITHOUT_KEYS:
        /* 3.10's **rest: (subject, keys -> subject, rest); 3.11+ build it
         * with BUILD_MAP, DICT_UPDATE and DELETE_SUBSCR. */
        if (!a || !b || b->kind != MS_NODE || b->node->kind != MN_MAPPING ||
            b->node->rest ||
            !(a->kind == MS_KEYS ||
              (a->kind == MS_VALUE && a->obj && a->obj->kind == UPY_TUPLE)))
            return 0;
        *a = slot(MS_REST, b->node);
        return 1;
    case N_DELETE_SUBSCR:
        if (!a || !b || b->kind != MS_REST)
            return 0;
        st->sp -= 2;
        return 1;
    default:
        return 0;
    }
}

static int run(mparse *mp, mstate *st, mctx *cx) {
    for (;;) {
        const upy_nin *in;
        if (!cx->alt && st->sp == cx->stop_depth)
            return 1;
        if (!mp->r->match_steps || st->pos >= mp->r->ncode.count ||
            mp->r->failed)
            return 0;
        mp->r->match_steps--;
        in = ins(mp->r, st->pos);
        if (cx->alt) {
            if (in->op == N_JUMP) {
                st->ended_by_jump = 1;
                return 1;
            }
            /* (An alternative stores nothing: its captures wait on the
             * stack for the stores after the whole pattern.  A STORE is
             * where the case's pattern went on after the alternative:
             * `case True:` whose body, copied, is the next case's.) */
            if (touches_below(in, st, cx->lowest) || in->op == N_STORE ||
                (int64_t)st->pos == cx->join)
                return 1;
        }
        if (!step(mp, st, cx))
            return 0;
    }
}

/* --- reading the cases ---------------------------------------------------- */

/* Fills r->guard_end_ahead, once per code object: rec_match_starts asks
 * guard_extent at every statement start, whose scan ran on to the next
 * return or jump back (over straight code, the rest of it: quadratic),
 * where most code has no guard's end at all.  ahead[i]: whether the scan
 * from instruction i finds a guard's end (a conditional jump followed by
 * a POP_TOP) before it stops (at a return, raise, reraise or jump back).
 * Left NULL when out of memory: guard_extent then scans as before. */
static void index_guard_ends(rec *r) {
    uint32_t n = r->ncode.count, i = n;
    uint8_t *ahead = upy_arena_array_uncleared(r->scratch, n + 1, 1);
    if (!ahead)
        return;
    ahead[n] = 0;
    while (i-- > 0) {
        const upy_nin *in = ins(r, i);
        if (in->op == N_POP_JUMP_IF && i + 1 < n &&
            ins(r, i + 1)->op == N_POP_TOP)
            ahead[i] = 1;
        else if (in->op == N_RETURN || in->op == N_RAISE ||
                 in->op == N_RERAISE ||
                 (in->op == N_JUMP && in->target < (int32_t)i))
            ahead[i] = 0;
        else
            ahead[i] = ahead[i + 1];
    }
    r->guard_end_ahead = ahead;
}

/* Where the guard starting at instruction i ends (the POP_TOP of the
 * subject that the body starts with, after the guard's last test) and
 * where it fails to, guessed from its jumps; structuring it checks the
 * guess.  0 when no guard shape is found. */
static int guard_extent(const rec *r, uint32_t i, int64_t *body,
                        int64_t *fail) {
    uint32_t limit = r->ncode.count;
    int64_t far = -1, depth = 0;
    if (r->guard_end_ahead && i < limit && !r->guard_end_ahead[i])
        return 0;
    for (; i < limit; i++) {
        const upy_nin *in = ins(r, i);
        /* A guard keeps the subject on the stack. */
        depth += upy_nin_stack_effect(in, 0);
        if (depth < 0)
            return 0;
        if (in->op == N_POP_JUMP_IF || in->op == N_JUMP_IF_OR_POP) {
            if (in->target > far)
                far = in->target;
            if (in->op == N_POP_JUMP_IF && i + 1 < limit && depth == 0 &&
                ins(r, i + 1)->op == N_POP_TOP && far > (int64_t)i + 1) {
                *body = i + 1;
                *fail = far;
                return 1;
            }
        } else if (in->op == N_RETURN || in->op == N_RAISE ||
                   in->op == N_RERAISE || in->op == N_JUMP) {
            if (in->op != N_JUMP || in->target < (int32_t)i)
                return 0;
        }
    }
    return 0;
}

static upy_pattern *build(rec *r, mnode *n, int *ok);

/* The pattern the nodes make, or NULL when it is none the compiler could
 * have written. */
static upy_pattern *checked_pattern(rec *r, mnode *root) {
    int ok = 1;
    upy_pattern *p = build(r, root, &ok);
    return ok ? p : NULL;
}

static int read_cases(mparse *mp, uint32_t pos, int copied);

/* Whether instructions [from, to) only work on what they push, never on
 * the subject under them: a guard is an expression of its own.  (The
 * code after a value's first instruction, `cls.__dict__.get(k)` after
 * `cls`, may look like a guard by its stack effects alone.)  What an
 * instruction takes is at least one item for all but pushes and jumps,
 * and at least what its effect removes. */
static int leaves_subject(const rec *r, uint32_t from, uint32_t to) {
    int64_t depth = 0;
    uint32_t i;
    for (i = from; i < to; i++) {
        const upy_nin *in = ins(r, i);
        int effect = upy_nin_stack_effect(in, 0);
        int64_t takes = effect < 0 ? -effect : 1;
        switch ((upy_nop)in->op) {
        case N_LOAD:
            takes = in->arg == UPY_SCOPE_FAST_AND_CLEAR;
            break;
        case N_LOAD_CONST:
        case N_PUSH_NULL:
        case N_LOAD_CLOSURE:
        case N_LOAD_ASSERTION_ERROR:
        case N_JUMP:
        case N_PASS:
        case N_EMPTY_BODY:
        case N_LOOP_HEAD:
            takes = 0;
            break;
        case N_COPY:
        case N_SWAP:
            takes = in->arg;
            break;
        case N_BUILD_TUPLE:
        case N_BUILD_LIST:
        case N_BUILD_SET:
        case N_BUILD_MAP:
        case N_BUILD_STRING:
            takes = 1 - effect;
            break;
        default:
            break;
        }
        if (depth < takes)
            return 0;
        depth += effect;
    }
    return 1;
}

/* The zeroed entry after the cases read so far, not yet counted; NULL out
 * of memory. */
static mcase *next_case(mparse *mp) {
    mcase *mc;
    if (mp->ncases == mp->cases_cap) {
        mcase *grown = upy_arena_grow(mp->r->arena, mp->cases, mp->ncases,
                                      &mp->cases_cap, sizeof *grown, 8);
        if (!grown)
            return rec_oom(mp->r), NULL;
        mp->cases = grown;
    }
    mc = &mp->cases[mp->ncases];
    memset(mc, 0, sizeof *mc);
    return mc;
}

/* Reads `case _ if guard:` at instruction pos, before other cases, and the
 * cases after it.  The case's COPY 1 of the subject and the wildcard's
 * POP_TOP of that copy are gone (flowgraph.c optimize_basic_block, 3.12+,
 * drops COPY 1; POP_TOP): the guard starts at once, on the subject, and
 * its body with the POP_TOP of the subject.  Tried after the other
 * readings of the same code. */
static int read_wildcard_guard(mparse *mp, uint32_t pos) {
    rec *r = mp->r;
    mcase *mc;
    int64_t body, fail;
    const upy_nin *g;
    uint32_t ncases = mp->ncases;
    if (pos >= r->ncode.count)
        return 0;
    g = ins(r, pos);
    if (g->op == N_STORE || g->op == N_SWAP || g->op == N_JUMP ||
        g->op == N_COPY || g->op == N_POP_TOP ||
        !guard_extent(r, pos, &body, &fail) || fail <= (int64_t)pos ||
        !leaves_subject(r, pos, (uint32_t)body))
        return 0;
    mc = next_case(mp);
    if (!mc)
        return 0;
    mc->root = new_node(mp);
    if (!mc->root)
        return 0;
    mc->pattern = checked_pattern(r, mc->root);
    if (!mc->pattern)
        return 0;
    mc->copied = 1;
    mc->start = mc->after = pos;
    mc->fail_at = fail;
    mc->chain = -1;
    mc->guard_end = body;
    mp->ncases++;
    if (read_cases(mp, (uint32_t)fail, 1) || read_cases(mp, (uint32_t)fail, 0))
        return 1;
    mp->ncases = ncases;
    return 0;
}

/* Reads the case at instruction pos, copied or not, and the cases after
 * it.  1 when the whole match reads that way. */
static int read_cases(mparse *mp, uint32_t pos, int copied) {
    rec *r = mp->r;
    mcase *mc;
    mstate st;
    mctx cx;
    uint32_t nlog = mp->nlog, ncopies = mp->ncopies, ncases = mp->ncases;

    if (pos >= r->ncode.count)
        return 0;
    mc = next_case(mp);
    if (!mc)
        return 0;
    memset(&st, 0, sizeof st);
    memset(&cx, 0, sizeof cx);
    mc->root = new_node(mp);
    if (!mc->root)
        return 0;
    mc->copied = copied;
    mc->start = pos;
    mc->guard_end = -1;
    st.pos = pos;
    if (copied) {
        if (ins(r, pos)->op != N_COPY || ins(r, pos)->arg != 1 ||
            !push(mp, &st, slot(MS_SUBJECT, NULL)))
            return 0;
        log_ins(mp, pos);
        st.pos++;
    }
    if (!push(mp, &st, slot(MS_NODE, mc->root)))
        return 0;
    cx.fail_depth = cx.stop_depth = copied ? 1 : 0;
    cx.fail_at = -1;
    cx.chain = -1;
    if (!run(mp, &st, &cx))
        goto undo;
    /* A trailing `case _` has no code (a bare POP_TOP is no case). */
    if (!copied && mc->root->kind == MN_ANY && !mc->root->inner &&
        !mc->root->name)
        goto undo;
    mc->pattern = checked_pattern(r, mc->root);
    if (!mc->pattern)
        goto undo;
    mc->after = st.pos;
    mc->fail_at = cx.fail_at;
    mc->chain = cx.chain;
    mp->ncases++;
    if (!copied)
        return 1;
    /* A copied case goes on with its guard or POP_TOP of the subject. */
    if (st.pos >= r->ncode.count)
        goto undo;
    if (ins(r, st.pos)->op == N_POP_TOP) {
        log_ins(mp, st.pos);
    } else if (mc->fail_at >= 0 && through(mp, st.pos) == mc->fail_at) {
        /* (flowgraph.c folds the constant guard's jump into an
         * unconditional one to the next case, and drops the body it made
         * unreachable.) */
        mc->dead_guard = 1;
    } else {
        int64_t body, fail;
        const upy_nin *g = ins(r, st.pos);
        if (g->op == N_STORE || g->op == N_SWAP || g->op == N_JUMP ||
            g->op == N_COPY || !guard_extent(r, st.pos, &body, &fail))
            goto undo;
        if (mc->fail_at >= 0 && mc->fail_at != fail)
            goto undo;
        mc->fail_at = fail;
        mc->guard_end = body;
    }
    if (mc->fail_at < 0 || mc->fail_at <= (int64_t)mc->start)
        goto undo;
    if (read_cases(mp, (uint32_t)mc->fail_at, 1) ||
        read_cases(mp, (uint32_t)mc->fail_at, 0) ||
        read_wildcard_guard(mp, (uint32_t)mc->fail_at))
        return 1;
undo:
    mp->nlog = nlog;
    mp->ncopies = ncopies;
    mp->ncases = ncases;
    return 0;
}

/* Whether instruction i can start a match statement's first case: the
 * case's copy of the subject, a sequence or mapping test, or the class of a
 * class pattern (cls, attribute names, MATCH_CLASS). */
static int may_start_match(const rec *r, uint32_t i) {
    const upy_nin *in = ins(r, i);
    uint32_t k = i + 1;
    if (in->op == N_COPY)
        return in->arg == 1;
    if (in->op == N_MATCH_SEQUENCE || in->op == N_MATCH_MAPPING)
        return 1;
    if (in->op != N_LOAD)
        return 0;
    while (k < r->ncode.count && ins(r, k)->op == N_LOAD_ATTR)
        k++;
    return k + 1 < r->ncode.count && ins(r, k)->op == N_LOAD_CONST &&
           ins(r, k + 1)->op == N_MATCH_CLASS;
}

/* Reads the pattern code of a match statement whose subject is on the
 * stack and whose first case starts at instruction i.  1 when it reads
 * (and some case can fail: a match that cannot is plain code, but for an
 * or-pattern's). */
static int read_match(mparse *mp, rec *r, uint32_t i) {
    uint32_t k;
    memset(mp, 0, sizeof *mp);
    mp->r = r;
    if (!(ins(r, i)->op == N_COPY && read_cases(mp, i, 1)) &&
        !(may_start_match(r, i) && read_cases(mp, i, 0)) &&
        !read_wildcard_guard(mp, i))
        return 0;
    /* (An or-pattern cannot fail when its last alternative cannot, but
     * its other alternatives' tests are no plain code.) */
    for (k = 0; k < mp->ncases; k++)
        if (mp->cases[k].fail_at >= 0 || mp->cases[k].guard_end >= 0 ||
            mp->cases[k].root->kind == MN_OR)
            return 1;
    return 0;
}

int rec_match_starts(rec *r, uint32_t i) {
    mparse mp;
    /* (Every case that can fail, guard or or-pattern fails by a
     * conditional jump: fail_to, guard_extent.) */
    if (!r->has_pop_jump_if)
        return 0;
    if (!r->guard_end_ahead)
        index_guard_ends(r);
    return read_match(&mp, r, i);
}

/* --- building the patterns ------------------------------------------------ */

static upy_pattern *new_pattern(rec *r, upy_pattern_kind kind) {
    upy_pattern *p = upy_pattern_new(r->arena, kind);
    if (!p)
        rec_oom(r);
    return p;
}

static int build_list(rec *r, mnode **kids, uint32_t from, uint32_t to,
                      upy_pattern_list *list, int *ok) {
    uint32_t k;
    list->len = to - from;
    list->items =
        upy_arena_array(r->arena, list->len + 1, sizeof(upy_pattern *));
    if (!list->items)
        return rec_oom(r), 0;
    for (k = from; k < to; k++)
        if (!(list->items[k - from] = build(r, kids[k], ok)))
            return 0;
    return 1;
}

static upy_pattern *build_sequence(rec *r, mnode *n, int *ok) {
    upy_pattern *p = new_pattern(r, UPY_P_SEQUENCE);
    uint32_t k, size;
    if (!p)
        return NULL;
    if (n->unpacked) {
        if (!build_list(r, n->kids, 0, n->nkids, &p->u.seq, ok))
            return NULL;
        if (n->star >= 0 && (uint32_t)n->star < n->nkids) {
            mnode *s = n->kids[n->star];
            upy_pattern *star = new_pattern(r, UPY_P_STAR);
            if (!star)
                return NULL;
            if (s->kind != MN_ANY || s->inner)
                *ok = 0;
            star->u.name = s->name;
            p->u.seq.items[n->star] = star;
        }
        return p;
    }
    /* Elements taken by subscript, with `*_` between the front and the
     * back ones; or no element taken at all (only wildcards). */
    size = !n->has_len  ? 1
           : n->len_min ? (uint32_t)n->len + 1
                        : (uint32_t)n->len;
    if (!n->has_len || n->len < 0 || n->len > 1 << 16)
        size = n->has_len ? 0 : 1;
    p->u.seq.len = size;
    p->u.seq.items = upy_arena_array(r->arena, size + 1, sizeof(upy_pattern *));
    if (!p->u.seq.items)
        return rec_oom(r), NULL;
    for (k = 0; k < size; k++) {
        int is_star = (!n->has_len || n->len_min) &&
                      k == (n->kids ? (uint32_t)n->front : size - 1);
        if (is_star) {
            if (n->kids && n->kids[k])
                *ok = 0;
            p->u.seq.items[k] = new_pattern(r, UPY_P_STAR);
        } else {
            p->u.seq.items[k] =
                build(r, n->kids && k < n->nkids ? n->kids[k] : NULL, ok);
        }
        if (!p->u.seq.items[k])
            return NULL;
    }
    return p;
}

static upy_pattern *build_own(rec *r, mnode *n, int *ok) {
    upy_pattern *p;
    uint32_t k, nkw;
    switch ((mnode_kind)n->kind) {
    case MN_VALUE:
        if ((p = new_pattern(r, UPY_P_VALUE)))
            p->u.value = n->value;
        return p;
    case MN_SINGLETON:
        if ((p = new_pattern(r, UPY_P_SINGLETON)))
            p->u.constant = n->value->u.constant;
        return p;
    case MN_SEQUENCE:
        return build_sequence(r, n, ok);
    case MN_MAPPING:
        if (!(p = new_pattern(r, UPY_P_MAPPING)))
            return NULL;
        p->u.mapping.keys = n->keys;
        if (n->nkids != n->keys.len)
            *ok = 0;
        if (!build_list(r, n->kids, 0, n->nkids, &p->u.mapping.patterns, ok))
            return NULL;
        p->u.mapping.rest = n->rest;
        return p;
    case MN_CLASS:
        if (!(p = new_pattern(r, UPY_P_CLASS)))
            return NULL;
        nkw = (uint32_t)upy_seq_len(n->kwnames);
        if (n->npos < 0 || n->nkids != (uint32_t)n->npos + nkw) {
            *ok = 0;
            return p;
        }
        p->u.cls.cls = n->value;
        if (!build_list(r, n->kids, 0, (uint32_t)n->npos, &p->u.cls.patterns,
                        ok) ||
            !build_list(r, n->kids, (uint32_t)n->npos, n->nkids,
                        &p->u.cls.kwd_patterns, ok))
            return NULL;
        p->u.cls.kwd_attrs = upy_arena_array(r->arena, nkw + 1, sizeof(char *));
        if (!p->u.cls.kwd_attrs)
            return rec_oom(r), NULL;
        for (k = 0; k < nkw; k++)
            p->u.cls.kwd_attrs[k] = rec_str(upy_seq_item(n->kwnames, k));
        return p;
    case MN_OR:
        if (!(p = new_pattern(r, UPY_P_OR)))
            return NULL;
        if (!build_list(r, n->kids, 0, n->nkids, &p->u.seq, ok))
            return NULL;
        return p;
    case MN_ANY:
        break;
    }
    return NULL;
}

static upy_pattern *build(rec *r, mnode *n, int *ok) {
    upy_pattern *inner = NULL, *p;
    if (!n)
        return new_pattern(r, UPY_P_AS); /* `_` */
    if (n->kind != MN_ANY) {
        if (n->inner)
            *ok = 0;
        inner = build_own(r, n, ok);
        if (!inner)
            return NULL;
    } else if (n->inner) {
        /* An as-pattern: its copy was matched, the original named (a copy
         * popped unnamed would be no code the compiler writes). */
        if (!n->name || n->popped_bare)
            *ok = 0;
        inner = build(r, n->inner, ok);
        if (!inner)
            return NULL;
    }
    if (inner && !n->name)
        return inner;
    p = new_pattern(r, UPY_P_AS);
    if (p) {
        p->u.as.pattern = inner;
        p->u.as.name = n->name;
    }
    return p;
}

/* --- structuring ------------------------------------------------------------
 */

static int32_t block_at(const rec *r, int64_t i) {
    if (i < 0 || i >= (int64_t)r->ncode.count)
        return (int32_t)r->cfg.count;
    return r->cfg.block_of[i];
}

/* Structuring goes on at instruction `at` when it is inside block b. */
static void resume_in(rec *r, int32_t b, int64_t at) {
    if (b < (int32_t)r->cfg.count && at > (int64_t)blk(r, b)->start &&
        at < (int64_t)blk(r, b)->end) {
        r->resume_block = b;
        r->resume_at = (uint32_t)at;
    }
}

/* Marks what the pattern code ran: evaluated, and whole blocks done. */
static void mark_pattern(rec *r, const mparse *mp, uint8_t *in_pattern) {
    uint32_t k, b;
    for (k = 0; k < mp->nlog; k++) {
        in_pattern[mp->log[k]] = 1;
        r->evaluated[mp->log[k]] = 1;
    }
    for (k = 0; k + 1 < mp->ncopies; k += 2) {
        rec_skip_range(r, mp->copies[k], mp->copies[k + 1]);
        for (b = mp->copies[k];
             b < mp->copies[k] + mp->copies[k + 1] && b < r->ncode.count; b++)
            in_pattern[b] = 1;
    }
    for (b = 0; b < r->cfg.count; b++) {
        const upy_block *bb = blk(r, b);
        uint32_t i;
        for (i = bb->start; i < bb->end && in_pattern[i]; i++)
            ;
        if (i == bb->end && bb->end > bb->start)
            r->done[b] = 1;
    }
}

/* The end of the match: where the bodies' closing jumps go (at or after
 * where the last case fails to); the last case's failure target when no
 * body jumps.  A last case that cannot fail (`case z:`) fails nowhere: the
 * closing jumps are then those of the bodies before its pattern, to past
 * where its body starts (taking the code after the match into that body
 * would skip it after every other case). */
static int32_t match_end(const rec *r, const mparse *mp,
                         const uint8_t *in_pattern, const region *rg,
                         int32_t last_fail) {
    const mcase *last = &mp->cases[mp->ncases - 1];
    uint32_t i,
        from = mp->cases[0].start,
        to = last_fail < (int32_t)r->cfg.count ? blk(r, last_fail)->start
                                               : r->ncode.count;
    int32_t end = UPY_NO_BLOCK, least = last_fail;
    if (last->fail_at < 0) {
        to = last->start;
        least = block_at(r, last->after);
    }
    for (i = from; i < to; i++) {
        const upy_nin *in = ins(r, i);
        int32_t t;
        if (in->op != N_JUMP || in_pattern[i] || r->skip[i] || in->target < 0)
            continue;
        t = r->cfg.block_of[in->target];
        if (t < least || t == rg->brk || t == rg->cont)
            continue;
        if (end == UPY_NO_BLOCK || t < end)
            end = t;
    }
    return end == UPY_NO_BLOCK ? last_fail : end;
}

/* The smaller of `current` and block b when b comes after `after`. */
static int32_t first_after(int32_t after, int32_t b, int32_t current) {
    return b > after && b < current ? b : current;
}

/* Whether the code of the last case, from instruction i on, opens with a
 * test that fails to `fail` (where a trailing `case _` starts,
 * or the code after the match) before any statement ends.  The guard's
 * jump lands past the case's failure chain (which starts at `chain`),
 * maybe on a jump that goes to `fail`: an if around the body would go to
 * the body's end. */
static int opens_with_failing_test(const rec *r, uint32_t i, int64_t fail,
                                   int64_t chain) {
    int64_t depth = 0;
    for (; i < r->ncode.count; i++) {
        const upy_nin *in = ins(r, i);
        depth += upy_nin_stack_effect(in, 0);
        if (depth < 0)
            return 0;
        if (in->op == N_POP_JUMP_IF && depth == 0)
            return in->target == fail ||
                   (chain >= 0 && in->target > chain &&
                    rec_jumped_to(r, (uint32_t)in->target) == fail);
        if (depth == 0 || upy_nin_ends_block(in))
            return 0;
    }
    return 0;
}

/* Whether a guard whose test fails to block b goes where its case's
 * pattern fails to, `fail`: there or, last case in a loop, through the jump
 * to the loop's header after the failure chain (opens_with_failing_test). */
static int fails_to(const rec *r, int32_t b, int64_t fail) {
    return b == block_at(r, fail) ||
           (b < (int32_t)r->cfg.count &&
            rec_jumped_to(r, blk(r, b)->start) == fail);
}

/* Whether the last case, not copied, starts with a guard.  A guard fails
 * where the pattern fails, past the failure chain's POP_TOPs; an if around
 * the body fails to the body's end, a jump on.  Where no `case _` follows,
 * 3.12+ thread that jump to where the pattern fails too (flowgraph.c
 * jump threading), so only the lines tell them apart: the guard is on the
 * case's line, the if on one of its own.  (In 3.11 the guard of `for x in
 * xs: match x: case A() if g: ...` fails to the jump back after the
 * chain, the if of `case A(): if g: ...` to the body's own jump back.) */
static int last_case_has_guard(const rec *r, const mcase *mc, int has_default) {
    uint32_t i = mc->after;
    if (!opens_with_failing_test(r, i, mc->fail_at, mc->chain))
        return 0;
    return has_default || (i > 0 && ins(r, i)->line >= 0 &&
                           ins(r, i)->line <= ins(r, i - 1)->line);
}

int rec_match(rec *r, int32_t b, uint32_t i, const region *rg, int32_t *next,
              upy_ptr_vec *out) {
    mparse parsed, *mp = &parsed;
    uint8_t *in_pattern;
    upy_stmt *s;
    upy_match_case *cases;
    int32_t end, last_fail, default_start;
    int64_t last_at;
    uint32_t k, ncases;
    int ok = 1;
    sval subject;

    if (!read_match(mp, r, i))
        return rec_fail_region(r, b, rg, out);
    in_pattern = upy_arena_array(r->arena, r->ncode.count + 1, 1);
    if (!in_pattern)
        return rec_oom(r);
    mark_pattern(r, mp, in_pattern);
    subject = rec_pop(r);
    r->base = rg->base;
    ncases = mp->ncases;
    last_fail = block_at(r, mp->cases[ncases - 1].fail_at);
    end = match_end(r, mp, in_pattern, rg, last_fail);
    default_start = last_fail < end ? last_fail : UPY_NO_BLOCK;
    if (end > rg->end)
        end = rg->end;
    cases = upy_arena_array(r->arena, ncases + 1, sizeof *cases);
    s = rec_stmt(r, UPY_S_MATCH);
    if (!cases || !s)
        return rec_oom(r);
    rec_set_start(r, s, r->stmt_start);
    for (k = 0; k < ncases; k++) {
        const mcase *mc = &mp->cases[k];
        upy_match_case *c = &cases[k];
        upy_ptr_vec body = {0};
        uint32_t body_at = mc->after;
        int32_t bs, body_end;
        int64_t guard_at;
        region body_rg;

        c->pattern = mc->pattern;
        if (mc->dead_guard) {
            c->guard = rec_const_false(r);
            if (!c->guard)
                return ERROR;
            continue;
        }
        guard_at = mc->guard_end;
        if (guard_at < 0 && !mc->copied &&
            last_case_has_guard(r, mc, default_start != UPY_NO_BLOCK))
            guard_at = mc->after;
        if (guard_at >= 0) {
            /* The guard: a condition that fails to the next case. */
            int32_t gb = r->cfg.block_of[mc->after];
            upy_ptr_vec tmp = {0};
            rec_cond cond;
            int stop;
            r->stmt_start = mc->after;
            stop = rec_run(r, mc->after, blk(r, gb)->end, rg, &tmp);
            if (stop < 0)
                return ERROR;
            if ((uint32_t)stop != blk(r, gb)->end - 1 ||
                ins(r, (uint32_t)stop)->op != N_POP_JUMP_IF || tmp.len) {
                ok = 0;
                break;
            }
            r->done[gb] = 1;
            cond.start = mc->after;
            if (rec_condition(r, gb, rg, &cond, &tmp))
                return ERROR;
            if (tmp.len || !fails_to(r, cond.on_false, mc->fail_at) ||
                cond.on_true >= (int32_t)r->cfg.count ||
                (mc->guard_end >= 0 &&
                 (cond.on_true != block_at(r, mc->guard_end) ||
                  blk(r, cond.on_true)->start != (uint32_t)mc->guard_end))) {
                ok = 0;
                break;
            }
            c->guard = cond.test;
            body_at = blk(r, cond.on_true)->start;
        }
        if (mc->copied) {
            /* POP_TOP of the subject. */
            r->evaluated[body_at] = 1;
            body_at++;
        }
        bs = block_at(r, body_at);
        /* The body ends at the first block after it that belongs to
         * something else: its failure chain, the next case, where the
         * last case fails to, or the end (the compiler may lay a body out
         * after the code that follows its pattern's failure). */
        body_end = rg->end;
        body_end = first_after(bs, block_at(r, mc->chain), body_end);
        if (k + 1 < ncases)
            body_end =
                first_after(bs, block_at(r, mp->cases[k + 1].start), body_end);
        body_end = first_after(bs, last_fail, body_end);
        body_end = first_after(bs, end, body_end);
        if (bs >= (int32_t)r->cfg.count) {
            ok = 0;
            break;
        }
        if (bs < body_end) {
            body_rg = rec_sub_region(rg, bs, body_end, end);
            r->resume_block = bs;
            r->resume_at = body_at;
            r->done[bs] = 0;
            if (rec_region(r, bs, &body_rg, &body, NULL))
                return ERROR;
            r->resume_block = UPY_NO_BLOCK;
        }
        c->body = upy_vec_stmts(&body);
    }
    if (!ok) {
        /* The code read as patterns, but its bodies or guards did not
         * structure as cases: shown unrecovered from the subject on. */
        rec_unrecovered(r, out, i,
                        end < (int32_t)r->cfg.count ? blk(r, end)->start
                                                    : r->ncode.count,
                        "match statement");
        *next = end;
        return SUCCESS;
    }
    /* Where the last case fails to (the trailing `case _` or the code
     * after the match) may share a block with the end of its failure
     * chain. */
    last_at = mp->cases[ncases - 1].fail_at;
    if (default_start != UPY_NO_BLOCK && default_start < end) {
        upy_ptr_vec body = {0};
        region default_rg = rec_sub_region(rg, default_start, end, end);
        upy_match_case *c = &cases[ncases];
        resume_in(r, default_start, last_at);
        if (rec_region(r, default_start, &default_rg, &body, NULL))
            return ERROR;
        c->pattern = new_pattern(r, UPY_P_AS);
        if (!c->pattern)
            return ERROR;
        c->body = upy_vec_stmts(&body);
        ncases++;
    }
    s->u.match.subject = rec_value(r, subject);
    s->u.match.cases = cases;
    s->u.match.n_cases = ncases;
    *next = end;
    if (end == last_fail)
        resume_in(r, end, last_at);
    return rec_emit(r, out, s);
}
