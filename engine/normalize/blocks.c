/*
 * blocks.c - the block stack of 3.8-3.10 turned into 3.11's handlers.
 *
 * Before 3.11 the compiler brackets protected code with SETUP_FINALLY,
 * SETUP_WITH or SETUP_ASYNC_WITH and POP_BLOCK, and the interpreter keeps
 * a stack of those blocks.  An exception unwinds to the handler of the top
 * block and pushes an EXCEPT_HANDLER block and six values: the previous
 * exception's traceback, value and type, then the new one's.  POP_EXCEPT
 * pops that block and restores the previous exception from its three
 * values.
 *
 * 3.11's compiler emits the same blocks as pseudo-instructions and turns
 * them into the exception table (compile.c label_exception_targets).  Its
 * handlers get one value, the exception, which PUSH_EXC_INFO pairs with
 * the previous one; the code of a handler is covered by a cleanup block
 * (COPY 3; POP_EXCEPT; RERAISE 1) that restores the previous exception,
 * which the EXCEPT_HANDLER block did before.
 *
 * This pass does for lowered 3.8-3.10 code what label_exception_targets
 * does, so that recovery reads one form for every version:
 *
 *   - it follows the block stack and the stack depth along the code, as
 *     the interpreter keeps them (compile.c guarantees one block stack
 *     per instruction);
 *   - each instruction takes the handler of its top block, with the depth
 *     3.11 gives it, and SETUP / POP_BLOCK leave no instruction;
 *   - the handler of a try or a with starts with PUSH_EXC_INFO and gets a
 *     cleanup block where 3.11 puts it: after the last code of the
 *     handler (for a with, after the RERAISE of an exception __exit__ did
 *     not swallow);
 *   - the three values of the exception become one.  Worked example,
 *     `except E as e:` (3.10 left, what this pass gives right):
 *
 *         DUP_TOP                            PUSH_EXC_INFO
 *         LOAD_GLOBAL E                      LOAD_GLOBAL E
 *         JUMP_IF_NOT_EXC_MATCH next         CHECK_EXC_MATCH
 *                                            POP_JUMP_IF_FALSE next
 *         POP_TOP          (the type)
 *         STORE_FAST e     (the value)       STORE_FAST e
 *         POP_TOP          (the traceback)
 *
 *     ROT_FOUR, which moves a returned value under three of them, is
 *     SWAP 2; the POP_TOP that drops the __exit__ of a with after its
 *     handler drops the offset 3.11 pushed under the exception too.
 *
 * Where the code does not follow the shapes the compiler writes, the pass
 * fails with UNPYC_E_UNSUPPORTED, and the function is marked unrecovered.
 */
#include <string.h>

#include "normalize/normalize.h"
#include "util/error.h"

/* The deepest block stack CPython 3.8-3.10 keep (code.h CO_MAXBLOCKS;
 * the compiler refuses deeper nesting): crafted code past it is refused,
 * so that walking a block stack costs a bounded time. */
enum { MAX_BLOCKS = 20 };

/* Deeper than any stack CPython sizes (co_stacksize), yet far from
 * overflowing an int32 by the largest effect of one instruction
 * (UPY_MAX_STACK_EFFECT). */
enum { MAX_DEPTH = 1 << 26 };

/* Instructions copies_exit may compare in one code object: real code
 * compares a few per handler. */
#define COPY_SEARCH_BUDGET (UINT64_C(1) << 24)

typedef enum block_kind {
    B_TRY,     /* SETUP_FINALLY of a try (except or finally) */
    B_CLEANUP, /* SETUP_FINALLY that deletes an `except ... as` name */
    B_WITH,    /* SETUP_WITH, SETUP_ASYNC_WITH */
    B_FRAME,   /* EXCEPT_HANDLER: a handler running */
    B_LASTI,   /* a with's handler left the offset 3.11 pushes (above) */
} block_kind;

typedef struct block block;
struct block {
    uint8_t kind;
    uint8_t setup;   /* B_FRAME: kind of the block whose handler it runs */
    int32_t handler; /* the handler's first instruction; B_FRAME: same */
    uint32_t nest;   /* blocks below it, itself included */
    int32_t level;   /* the version's stack depth below the block */
    /* The exception values of the frame below when the block was set
     * up (state.tri, state.ntri), which its own frame's end gives
     * back. */
    int32_t tri, ntri;
    int32_t nlevel; /* the same in 3.11's values */
    /* B_FRAME of a try or with: its last instruction, the RERAISE of a
     * with, and the instruction its cleanup block goes after (-1 until
     * known), whether a jump must go before that block (the handler
     * runs on into the code after it), and the block's first
     * instruction in the output. */
    int32_t last, reraise, place;
    uint8_t jump;
    uint32_t cleanup;
    block *up;
    block *next_placed; /* the next frame placed after the same one */
};

/* The state before an instruction; depth < 0 when no path reaches it. */
typedef struct state {
    int32_t depth;  /* the version's stack depth */
    int32_t ndepth; /* 3.11's */
    /* The values of the exception in the nearest frame still on the
     * stack (traceback, value, type from the bottom): how many, from
     * which depth. */
    int32_t tri, ntri;
    block *top;
} state;

/* What becomes of an instruction. */
typedef enum action {
    A_KEEP,
    A_DROP,
    A_EXC_MATCH, /* CHECK_EXC_MATCH; POP_JUMP_IF_FALSE */
    A_POP_TWO,   /* POP_TOP; POP_TOP */
    A_SWAP,      /* SWAP 2 */
    A_EMPTY,     /* N_EMPTY_BODY */
    A_ODD,       /* no shape the compiler writes */
} action;

typedef struct bs {
    const upy_ncode *code;
    upy_arena *arena;
    unpyc_error *err;
    uint32_t n;
    state *st;
    uint8_t *act;
    int32_t *reraise_arg;
    uint8_t *is_target;
    block **entry;   /* the frame a handler's first instruction starts */
    block **placed;  /* the frames whose cleanup goes after it, inner first */
    uint32_t *first; /* its first instruction in the output */
    uint32_t *work;
    uint32_t nwork;
    /* Where the code from each instruction on first stops falling
     * through, or falls into a jump target (see place_cleanup). */
    int32_t *run_end;
    uint64_t copy_budget; /* see copies_exit */
    /* What becomes of a try no path reaches (walk_dead_tries), and
     * whether the code has one. */
    uint8_t walk_dead;
    uint8_t met_dead;
    uint32_t *jumps_in; /* how many jumps go to each instruction, to drop */
} bs;

static const upy_nin *ins(const bs *b, uint32_t i) {
    return &b->code->ins[i];
}

static unpyc_status odd(bs *b, uint32_t i, const char *what) {
    return upy_fail(b->err, UNPYC_E_UNSUPPORTED, (long long)ins(b, i)->offset,
                    "%s at offset %u: a block stack the decompiler does not "
                    "read yet",
                    what, (unsigned)ins(b, i)->offset);
}

static unpyc_status no_memory(bs *b) {
    return upy_fail(
        b->err, b->arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
        "no memory for the block stack of %u instructions", (unsigned)b->n);
}

/* The nearest handler frame at or below top, NULL when none. */
static block *frame_of(block *top) {
    while (top && top->kind != B_FRAME)
        top = top->up;
    return top;
}

/* Whether the handler at h clears a name and reraises: the cleanup of
 * the body of `except E as x:`. */
static int is_name_cleanup(const bs *b, int32_t h) {
    return upy_nin_is_name_cleanup(ins(b, (uint32_t)h), b->n - (uint32_t)h);
}

/* A new block of kind `kind` on `up`, made at instruction `at`, in *out.
 * CPython refuses code whose blocks nest deeper than CO_MAXBLOCKS. */
static unpyc_status new_block(bs *b, uint32_t at, uint8_t kind, int32_t handler,
                              int32_t level, int32_t nlevel, block *up,
                              block **out) {
    block *k = upy_arena_alloc(b->arena, sizeof *k);
    if (!k)
        return no_memory(b);
    k->nest = up ? up->nest + 1 : 1;
    if (k->nest > MAX_BLOCKS)
        return odd(b, at, "blocks nested deeper than CPython allows");
    k->kind = kind;
    k->setup = kind;
    k->handler = handler;
    k->level = level;
    k->nlevel = nlevel;
    k->last = k->reraise = k->place = -1;
    k->jump = 0;
    k->cleanup = 0;
    k->next_placed = NULL;
    k->up = up;
    *out = k;
    return UNPYC_OK;
}

/* Hands state s to instruction i: the first path to reach it sets its
 * state; another must agree on the depth. */
static unpyc_status reach(bs *b, uint32_t from, int32_t i, state s) {
    if (i < 0 || (uint32_t)i >= b->n)
        return odd(b, from, "a way out of the code");
    /* (Depths below 0 or past any real code's would also say "not
     * reached" or overflow on the next step.) */
    if (s.depth < 0 || s.ndepth < 0 || s.depth > MAX_DEPTH ||
        s.ndepth > MAX_DEPTH)
        return odd(b, from, "a stack depth no code has");
    if (b->st[i].depth >= 0) {
        if (b->st[i].depth != s.depth || b->st[i].ndepth != s.ndepth)
            return odd(b, (uint32_t)i, "two stack depths");
        return UNPYC_OK;
    }
    b->st[i] = s;
    b->work[b->nwork++] = (uint32_t)i;
    return UNPYC_OK;
}

/* The state a handler starts with when the block k unwinds to it. */
static unpyc_status enter_handler(bs *b, uint32_t from, const block *k) {
    block *f = b->entry[k->handler];
    unpyc_status st;
    state s;
    if (!f) {
        st = new_block(b, from, B_FRAME, k->handler, k->level, k->nlevel, k->up,
                       &f);
        if (st != UNPYC_OK)
            return st;
        f->setup = k->kind;
        f->tri = k->tri;
        f->ntri = k->ntri;
        b->entry[k->handler] = f;
    }
    s.top = f;
    s.depth = k->level + 6;
    s.tri = k->level + 3;
    s.ntri = 3;
    /* 3.11 pushes the previous exception and the new one; a with's
     * handler has the raising offset under them (lasti). */
    s.ndepth = k->nlevel + 2 + (k->kind == B_WITH);
    return reach(b, from, k->handler, s);
}

/* Pushes the block of a SETUP at i. */
static unpyc_status setup(bs *b, uint32_t i, state *s) {
    const upy_nin *in = ins(b, i);
    uint8_t kind = in->op == N_SETUP_WITH           ? B_WITH
                   : is_name_cleanup(b, in->target) ? B_CLEANUP
                                                    : B_TRY;
    /* (A with's block is below the value __enter__ returned.) */
    int32_t below = kind == B_WITH ? 1 : 0;
    block *k;
    unpyc_status st = new_block(b, i, kind, in->target, s->depth - below,
                                s->ndepth - below, s->top, &k);
    if (st != UNPYC_OK)
        return st;
    k->tri = s->tri;
    k->ntri = s->ntri;
    s->top = k;
    if (i + 1 < b->n && ins(b, i + 1)->op == N_POP_BLOCK && kind == B_TRY)
        b->act[i] = A_EMPTY;
    return enter_handler(b, i, k);
}

/* Pops the block of a POP_BLOCK at i. */
static unpyc_status pop_block(bs *b, uint32_t i, state *s) {
    if (!s->top || s->top->kind == B_FRAME || s->top->kind == B_LASTI)
        return odd(b, i, "POP_BLOCK");
    s->top = s->top->up;
    b->act[i] = A_DROP;
    return UNPYC_OK;
}

/* POP_EXCEPT at i: the handler frame on top ends, with the traceback,
 * value and type popped already; the version pops the three values of the
 * previous exception, 3.11 the one.  A with's handler leaves the offset
 * 3.11 pushed, which the POP_TOP of the __exit__ drops (drop_exit). */
static unpyc_status pop_except(bs *b, uint32_t i, state *s) {
    block *f = s->top;
    /* (A value returned from the handler may sit under the three.) */
    if (!f || f->kind != B_FRAME || f->setup == B_CLEANUP ||
        s->depth < f->level + 3 || s->depth > f->level + 4)
        return odd(b, i, "POP_EXCEPT");
    s->top = f->up;
    s->tri = f->tri;
    s->ntri = f->ntri;
    if (f->setup != B_WITH)
        return UNPYC_OK;
    return new_block(b, i, B_LASTI, -1, f->level, f->nlevel, f->up, &s->top);
}

/* What becomes of a stack instruction in handler frame f, and the
 * exception values it leaves (s->tri, s->ntri). */
static action in_frame(const bs *b, uint32_t i, state *s, const block *f) {
    const upy_nin *in = ins(b, i);
    int32_t member = s->depth - 1 - s->tri; /* on top: 0 tb, 1 value, 2 type */
    int on_top = s->ntri > 0 && member == s->ntri - 1;
    switch (in->op) {
    case N_POP_TOP:
    case N_STORE:
        if (!on_top)
            return A_KEEP;
        s->ntri--;
        if (member == 1)
            return A_KEEP;
        return in->op == N_POP_TOP ? A_DROP : A_ODD;
    case N_COPY:
        /* The DUP_TOP of the type before an exception match. */
        return in->arg == 1 && on_top && member == 2 ? A_DROP : A_KEEP;
    case N_JUMP_IF_NOT_EXC_MATCH:
        return A_EXC_MATCH;
    case N_ROT_FOUR:
        /* A value moved under the exception's three values or the
         * previous one's (compile.c compiler_unwind_fblock). */
        if (s->ntri == 3 && s->depth - 4 == s->tri) {
            s->tri++;
            return A_SWAP;
        }
        return s->ntri == 0 && s->depth - 4 == f->level ? A_SWAP : A_KEEP;
    default:
        return A_KEEP;
    }
}

/* The effect on 3.11's depth of what instruction i becomes. */
static int32_t new_effect(const bs *b, uint32_t i, int taken) {
    switch (b->act[i]) {
    case A_DROP:
    case A_EMPTY:
    case A_SWAP:
        return 0;
    case A_EXC_MATCH:
        return -1;
    case A_POP_TWO:
        return -2;
    default:
        return upy_nin_stack_effect(ins(b, i), taken);
    }
}

/* What instruction i becomes in handler frame f, with the state s
 * before it (see in_frame); the RERAISE of a handler takes 3.11's oparg. */
static unpyc_status frame_step(bs *b, uint32_t i, state *s, block *f) {
    const upy_nin *in = ins(b, i);
    b->act[i] = (uint8_t)in_frame(b, i, s, f);
    if (b->act[i] == A_ODD || (in->op == N_ROT_FOUR && b->act[i] != A_SWAP))
        return odd(b, i, "a use of an exception's values");
    if (in->op != N_RERAISE)
        return UNPYC_OK;
    b->reraise_arg[i] = f->setup == B_TRY ? 0 : f->setup == B_WITH ? 2 : 1;
    if (f->setup == B_WITH && f->reraise < 0)
        f->reraise = (int32_t)i;
    return UNPYC_OK;
}

/* Decides what instruction i becomes, from the state s before it, which
 * it changes to the state after it. */
static unpyc_status decide(bs *b, uint32_t i, state *s) {
    const upy_nin *in = ins(b, i);
    block *f = frame_of(s->top);
    unpyc_status st;

    if (f && f->setup != B_CLEANUP && (int32_t)i > f->last)
        f->last = (int32_t)i;
    switch (in->op) {
    case N_SETUP_FINALLY:
    case N_SETUP_WITH:
        b->act[i] = A_DROP;
        return setup(b, i, s);
    case N_POP_BLOCK:
        return pop_block(b, i, s);
    case N_POP_EXCEPT:
        st = pop_except(b, i, s);
        s->depth -= 2; /* (the version pops three values, 3.11 one) */
        return st;
    default:
        break;
    }
    if (s->top && s->top->kind == B_LASTI) {
        /* The POP_TOP of the __exit__ after a with's handler. */
        if (in->op != N_POP_TOP || s->depth != s->top->level)
            return odd(b, i, "the end of a with's handler");
        b->act[i] = A_POP_TWO;
        s->top = s->top->up;
        return UNPYC_OK;
    }
    if (f)
        return frame_step(b, i, s, f);
    if (in->op == N_RERAISE || in->op == N_JUMP_IF_NOT_EXC_MATCH ||
        in->op == N_ROT_FOUR)
        return odd(b, i, "an exception's values outside a handler");
    return UNPYC_OK;
}

/* Decides what instruction i becomes, and gives the state after it to
 * the instructions it goes on to. */
static unpyc_status step(bs *b, uint32_t i) {
    const upy_nin *in = ins(b, i);
    state s = b->st[i], t;
    unpyc_status st = decide(b, i, &s);

    if (st != UNPYC_OK)
        return st;
    if (in->target >= 0 && in->op != N_SETUP_FINALLY &&
        in->op != N_SETUP_WITH) {
        t = s;
        t.depth += upy_nin_stack_effect(in, 1);
        t.ndepth += new_effect(b, i, 1);
        if ((st = reach(b, i, in->target, t)) != UNPYC_OK)
            return st;
    }
    if (!upy_nin_falls_through(in))
        return UNPYC_OK;
    t = s;
    t.depth += upy_nin_stack_effect(in, 0);
    t.ndepth += new_effect(b, i, 0);
    return reach(b, i, (int32_t)i + 1, t);
}

/* Follows every path from the instructions reach() queued. */
static unpyc_status walk_queued(bs *b) {
    unpyc_status st;
    while (b->nwork)
        if ((st = step(b, b->work[--b->nwork])) != UNPYC_OK)
            return st;
    return UNPYC_OK;
}

/* Whether instruction i matches an exception against an except clause's
 * type, which only the block stack of a handler says how to read. */
static int matches_exception(const bs *b, uint32_t i) {
    uint16_t op = ins(b, i)->op;
    return op == N_JUMP_IF_NOT_EXC_MATCH || op == N_ROT_FOUR;
}

/* Whether instruction i uses the values of an exception: an except
 * clause's match, or a with's __exit__ call (WITH_EXCEPT_START, as
 * finally.c gives 3.8's WITH_CLEANUP_START back). */
static int uses_exception(const bs *b, uint32_t i) {
    return matches_exception(b, i) || ins(b, i)->op == N_WITH_EXCEPT_START;
}

/* Whether the run of dead code [p, *end) that starts at p (*end set) is
 * code the source wrote after a return, raise, break or continue that
 * holds a try or with whose handler uses the exception's values (a dead
 * with: campaign seed 4343 programs 218 and 241, `continue` / `with a:
 * pass`, marked before): its first line comes after every line of the
 * code before it, top_line.  (Other dead code that holds one, such as
 * what 3.9's peephole.c leaves of the copy of a finally body on the way
 * out of a try body that returns, repeats lines.) */
static int is_dead_try(const bs *b, uint32_t p, int32_t top_line,
                       uint32_t *end) {
    uint32_t q;
    int uses = 0;
    for (q = p; q < b->n && b->st[q].depth < 0; q++)
        uses |= uses_exception(b, q);
    *end = q;
    return uses && ins(b, p)->line > top_line;
}

/* The greater of top_line and the line of instruction i. */
static int32_t top_line_with(const bs *b, uint32_t i, int32_t top_line) {
    return ins(b, i)->line > top_line ? ins(b, i)->line : top_line;
}

/* 3.8 and 3.9 keep a try statement after a return or raise: the
 * peephole optimizer removes dead code only to the end of its basic block
 * (peephole.c, RETURN_VALUE), and a handler starts a new one.  No path
 * reaches such a try (is_dead_try), yet its handler needs the block
 * stack: the walk gives it the one of the code before, as if that fell
 * through into it, which is the block stack and depth compile.c had when
 * it wrote the try:
 *
 *     raise                 RAISE_VARARGS 0
 *     try: pass             SETUP_FINALLY h     (dead from here)
 *     except E: pass        ...  h: DUP_TOP; LOAD_NAME E; ...
 *
 * After a return or break that left blocks (`with`, `try`) the code
 * before has fewer than the compiler had; where the walk fails so,
 * upy_normalize_blocks drops the dead try instead (drop_dead). */
static unpyc_status walk_dead_tries(bs *b) {
    uint32_t i, end;
    int32_t top_line = -1;
    unpyc_status st;
    state s;
    for (i = 0; i < b->n; i++) {
        if (b->st[i].depth >= 0) {
            top_line = top_line_with(b, i, top_line);
            continue;
        }
        /* (A run of dead code starts at i, past instruction 0.) */
        if (is_dead_try(b, i, top_line, &end)) {
            b->met_dead = 1;
            if (!b->walk_dead)
                return UNPYC_OK;
            s = b->st[i - 1];
            s.depth += upy_nin_stack_effect(ins(b, i - 1), 0);
            s.ndepth += new_effect(b, i - 1, 0);
            if ((st = reach(b, i - 1, (int32_t)i, s)) != UNPYC_OK ||
                (st = walk_queued(b)) != UNPYC_OK)
                return st;
        }
        for (; i < end; i++)
            top_line = top_line_with(b, i, top_line);
        i--;
    }
    return UNPYC_OK;
}

/* Follows every path from the first instruction, then into the dead
 * tries 3.8 and 3.9 keep. */
static unpyc_status walk(bs *b) {
    state s0 = {0, 0, -1, 0, NULL};
    unpyc_status st;
    if ((st = reach(b, 0, 0, s0)) != UNPYC_OK ||
        (st = walk_queued(b)) != UNPYC_OK)
        return st;
    return walk_dead_tries(b);
}

/* Whether the code after the POP_EXCEPT at i is the way out of its
 * clause, which compile.c compiler_unwind_fblock_stack writes after it for
 * a return, break or continue (the blocks around popped, a kept return
 * value moved over what they leave, a return of a constant, a jump), or the
 * clearing of an `except ... as` name; else it is the code after the
 * try.  3.10's optimize_cfg drops a clause's jump to that code where it comes
 * next, as it does after a bare `except:` ending a try whose body never ends
 * normally:
 *
 *     try: raise g()         RAISE_VARARGS 1
 *     except: y = 1          POP_TOP x3; LOAD_CONST 1; STORE_FAST y
 *     return exc_info()      POP_EXCEPT; LOAD_GLOBAL exc_info ...
 *
 * That code runs with the exception handled: it is not in the clause. */
static int leaves_clause(const bs *b, uint32_t i) {
    const upy_nin *c = ins(b, i + 1);
    uint32_t n = b->n - i - 1;
    switch (n ? c->op : N_RETURN) {
    case N_POP_BLOCK:
    case N_POP_TOP:
    case N_POP_EXCEPT:
    case N_SWAP:     /* a kept return value, over a for loop's iterator */
    case N_ROT_FOUR: /* the same, over an outer clause's exception */
    case N_JUMP:
    case N_RETURN:
        return 1;
    case N_LOAD_CONST:
        return upy_nin_clears_name(c, n) || (n > 1 && c[1].op == N_RETURN);
    default:
        return 0;
    }
}

/* Whether the n instructions from a do what those from c do, on the same
 * lines but for the first: a copy keeps the lines of its block, and its
 * first instruction takes the line of the jump it replaces. */
static int same_run(const bs *b, uint32_t a, uint32_t c, uint32_t n) {
    const upy_nin *x, *y;
    uint32_t k;
    for (k = 0; k < n; k++) {
        x = ins(b, a + k);
        y = ins(b, c + k);
        if (x->op != y->op || x->arg != y->arg || x->obj != y->obj ||
            (k && x->line != y->line) || x->target >= 0 || y->target >= 0)
            return 0;
    }
    return 1;
}

/* Whether the exit block after the POP_EXCEPT at i, which the clause runs
 * on into, is one of 3.10's copies of the block after the try (compile.c
 * extend_block copies a small block that returns or raises into the jumps
 * to it): `try: f() / except: pass` then `raise E(x)` ends the try body
 * and the clause alike, and recovery joins the two back into the code
 * after the try.  A copy is at most MAX_COPY_SIZE = 4 instructions (twice
 * that bounds the neutral ones); past b->copy_budget instructions compared
 * (crafted code of many handlers) any small block is taken for one. */
static int copies_exit(bs *b, uint32_t i) {
    int32_t e = b->run_end[i + 1];
    uint32_t n = (uint32_t)(e - (int32_t)i), j;
    if (e < 0 || upy_nin_falls_through(ins(b, (uint32_t)e)) || n > 8)
        return 0;
    for (j = n - 1; j < b->n; j++) {
        if (b->copy_budget < n)
            return 1;
        b->copy_budget -= n;
        if (j != (uint32_t)e && same_run(b, j + 1 - n, i + 1, n))
            return 1;
    }
    return 0;
}

/* Where the cleanup block of frame f goes: after the RERAISE of a with's
 * handler (compile.c compiler_with_except_finish); after the last code of
 * any other handler, on to the end of its block, where a jump to the code
 * after the try is added if the handler runs on into it
 * (compiler_try_except ends its handlers with that jump), or right after
 * the POP_EXCEPT that ends it where the code after the try follows
 * (leaves_clause), not a copy of it (copies_exit). */
static unpyc_status place_cleanup(bs *b, block *f) {
    int32_t k = f->setup == B_WITH ? f->reraise : f->last;
    block **at;
    if (k >= 0 && f->setup != B_WITH &&
        ins(b, (uint32_t)k)->op == N_POP_EXCEPT &&
        !leaves_clause(b, (uint32_t)k) && !copies_exit(b, (uint32_t)k)) {
        f->jump = 1;
    } else if (k >= 0 && f->setup != B_WITH) {
        k = b->run_end[k];
        f->jump = k >= 0 && upy_nin_falls_through(ins(b, (uint32_t)k));
    }
    if (k < 0)
        return odd(b, (uint32_t)f->handler, "a handler's end");
    f->place = k;
    /* Inner frames first: those whose handler starts later. */
    for (at = &b->placed[k]; *at && (*at)->handler > f->handler;
         at = &(*at)->next_placed)
        ;
    f->next_placed = *at;
    *at = f;
    return UNPYC_OK;
}

/* Fills run_end, from the last instruction back: one pass, where a scan
 * from each handler's end would be quadratic in crafted code. */
static void find_run_ends(bs *b) {
    uint32_t i = b->n;
    while (i-- > 0) {
        int falls = upy_nin_falls_through(ins(b, i));
        if (falls && i + 1 < b->n && !b->is_target[i + 1])
            b->run_end[i] = b->run_end[i + 1];
        else
            b->run_end[i] = falls && i + 1 == b->n ? -1 : (int32_t)i;
    }
}

static unpyc_status place_cleanups(bs *b) {
    uint32_t i;
    unpyc_status st;
    for (i = 0; i < b->n; i++)
        b->is_target[i] |= b->entry[i] != NULL;
    find_run_ends(b);
    for (i = 0; i < b->n; i++)
        if (b->entry[i] && b->entry[i]->setup != B_CLEANUP &&
            (st = place_cleanup(b, b->entry[i])) != UNPYC_OK)
            return st;
    return UNPYC_OK;
}

/* Whether 3.11 starts the handler at i with PUSH_EXC_INFO. */
static int pushes_exc_info(const bs *b, uint32_t i) {
    return b->entry[i] && b->entry[i]->setup != B_CLEANUP;
}

/* Output instructions of instruction i itself. */
static uint32_t own_count(const bs *b, uint32_t i) {
    static const uint8_t count[] = {
        [A_KEEP] = 1,    [A_DROP] = 0, [A_EXC_MATCH] = 2,
        [A_POP_TWO] = 2, [A_SWAP] = 1, [A_EMPTY] = 1,
    };
    return count[b->act[i]];
}

/* Numbers the output: each instruction's first, each cleanup block's. */
static uint32_t number_output(bs *b) {
    uint32_t i, n = 0;
    block *f;
    for (i = 0; i < b->n; i++) {
        b->first[i] = n;
        n += (uint32_t)pushes_exc_info(b, i) + own_count(b, i);
        for (f = b->placed[i]; f; f = f->next_placed) {
            n += f->jump;
            f->cleanup = n;
            n += 3;
        }
    }
    return n;
}

/* Sets the handler of out from the block stack top, as 3.11's exception
 * table gives it (compile.c label_exception_targets: the handler of the
 * innermost block; a cleanup block for the code of a handler; the code
 * that deletes an `except ... as` name is under the try's own). */
static void cover(const bs *b, const block *k, upy_nin *out) {
    out->handler = -1;
    out->handler_depth = 0;
    out->handler_lasti = 0;
    for (; k; k = k->up) {
        if (k->kind == B_LASTI || (k->kind == B_FRAME && k->setup == B_CLEANUP))
            continue;
        if (k->kind == B_FRAME) {
            out->handler = (int32_t)k->cleanup;
            out->handler_depth =
                (uint16_t)(k->nlevel + (k->setup == B_WITH) + 1);
        } else {
            out->handler = (int32_t)b->first[k->handler];
            out->handler_depth = (uint16_t)k->nlevel;
        }
        out->handler_lasti = k->kind != B_TRY;
        return;
    }
}

static upy_nin *put(upy_nin *out, uint32_t *n, const upy_nin *from, uint16_t op,
                    int32_t arg) {
    upy_nin *in = &out[(*n)++];
    *in = *from;
    in->op = op;
    in->arg = arg;
    in->obj = NULL;
    in->target = -1;
    in->flags = 0;
    return in;
}

/* The cleanup block of frame f after instruction `last` (and the jump on
 * to the code after the handler). */
static void put_cleanup(const bs *b, const block *f, const upy_nin *last,
                        upy_nin *out, uint32_t *n) {
    upy_nin at = *last, *in;
    at.offset++;
    at.line = -1;
    at.lead_line = -1;
    at.lead_nops = 0;
    at.lead_nops_joined = 0;
    if (f->jump) {
        in = put(out, n, &at, N_JUMP, 0);
        in->target = (int32_t)b->first[f->place + 1];
        in->handler = last->handler;
        in->handler_depth = last->handler_depth;
        in->handler_lasti = last->handler_lasti;
    }
    cover(b, f->up, &at);
    put(out, n, &at, N_COPY, 3);
    put(out, n, &at, N_POP_EXCEPT, 0);
    put(out, n, &at, N_RERAISE, 1);
}

/* Instruction i as it comes out. */
static void put_own(const bs *b, uint32_t i, upy_nin *out, uint32_t *n) {
    const upy_nin *in = ins(b, i);
    const state *s = &b->st[i];
    upy_nin *o;
    if (pushes_exc_info(b, i)) {
        o = put(out, n, in, N_PUSH_EXC_INFO, 0);
        o->offset--;
        if (b->entry[i]->setup != B_WITH)
            o->line = -1;
        o->lead_nops = 0;
        cover(b, s->top, o);
    }
    switch (b->act[i]) {
    case A_DROP:
        return;
    case A_EMPTY:
        o = put(out, n, in, N_EMPTY_BODY, 0);
        cover(b, b->st[i + 1].top, o);
        return;
    case A_EXC_MATCH:
        cover(b, s->top, put(out, n, in, N_EXC_MATCH, 0));
        o = put(out, n, in, N_POP_JUMP_IF, UPY_JUMP_FALSE);
        break;
    case A_POP_TWO:
        cover(b, s->top->up, put(out, n, in, N_POP_TOP, 0));
        cover(b, s->top->up, put(out, n, in, N_POP_TOP, 0));
        return;
    case A_SWAP:
        o = put(out, n, in, N_SWAP, 2);
        break;
    default:
        o = &out[(*n)++];
        *o = *in;
        if (in->op == N_RERAISE)
            o->arg = b->reraise_arg[i];
        break;
    }
    if (in->target >= 0)
        o->target = (int32_t)b->first[in->target];
    /* (POP_EXCEPT is past the end of its handler's block; dead code has
     * none, see dead_code_with.) */
    cover(b,
          in->op == N_POP_EXCEPT && s->top && s->depth >= 0 ? s->top->up
                                                            : s->top,
          o);
}

static unpyc_status rebuild(bs *b, upy_ncode *code) {
    uint32_t n = number_output(b), i, k = 0;
    upy_nin *out = upy_arena_array_uncleared(b->arena, n ? n : 1, sizeof *out);
    block *f;
    if (!out)
        return no_memory(b);
    for (i = 0; i < b->n; i++) {
        put_own(b, i, out, &k);
        for (f = b->placed[i]; f; f = f->next_placed)
            put_cleanup(b, f, &out[k - 1], out, &k);
    }
    code->ins = out;
    code->count = k;
    return UNPYC_OK;
}

static int has_blocks(const upy_ncode *code) {
    uint32_t i;
    for (i = 0; i < code->count; i++)
        if (code->ins[i].op == N_SETUP_FINALLY ||
            code->ins[i].op == N_SETUP_WITH)
            return 1;
    return 0;
}

static int alloc_tables(bs *b) {
    uint32_t n = b->n, i;
    b->st = upy_arena_array_uncleared(b->arena, n, sizeof *b->st);
    b->act = upy_arena_array(b->arena, n, sizeof *b->act);
    b->reraise_arg = upy_arena_array(b->arena, n, sizeof *b->reraise_arg);
    b->is_target = upy_arena_array(b->arena, n + 1, sizeof *b->is_target);
    b->entry = upy_arena_array(b->arena, n, sizeof *b->entry);
    b->placed = upy_arena_array(b->arena, n, sizeof *b->placed);
    b->first = upy_arena_array(b->arena, n + 1, sizeof *b->first);
    /* (Each instruction enters the work list once.) */
    b->work = upy_arena_array_uncleared(b->arena, n, sizeof *b->work);
    b->run_end = upy_arena_array_uncleared(b->arena, n, sizeof *b->run_end);
    if (!b->st || !b->act || !b->reraise_arg || !b->is_target || !b->entry ||
        !b->placed || !b->first || !b->work || !b->run_end)
        return -1;
    for (i = 0; i < n; i++) {
        b->st[i].depth = -1;
        b->st[i].top = NULL;
        if (ins(b, i)->target >= 0 && (uint32_t)ins(b, i)->target < n)
            b->is_target[ins(b, i)->target] = 1;
    }
    return 0;
}

/* Whether reached instruction p leaves a handler: the RERAISE ending an
 * except chain, or the jump after its POP_EXCEPT [POP_TOP of a loop's
 * iterator] (a break or continue from the clause). */
static int leaves_handler(const bs *b, uint32_t p) {
    const upy_nin *in = ins(b, p);
    if (in->op == N_RERAISE)
        return 1;
    if (in->op != N_JUMP || p == 0)
        return 0;
    if (ins(b, p - 1)->op == N_POP_TOP && p >= 2)
        p--;
    return ins(b, p - 1)->op == N_POP_EXCEPT;
}

/* The block the dead normal exit of a with takes, after instruction p
 * (POP_BLOCK; the exit call; a jump): that around the with, when the
 * with's body never falls off its end (p returns or raises).  3.10's
 * compiler drops the exit; left without a handler it would split the
 * block around the with (a try whose finally body follows it).  A
 * POP_BLOCK followed by a jump is no with's exit but a try's end in the
 * with (compile.c compiler_try_except: POP_BLOCK; JUMP_FORWARD), dead
 * after a body that left by a break: `with a, b:` / `while True:` /
 * `try: g(); break` / `except E: h()` + `h()`.  Given the outer with's
 * block, its jump split the inner with's body, and the code after the
 * loop was marked (stdlib test_io _test_nonblock_pipe_write, 3.8/3.9). */
static block *dead_with_exit_block(const bs *b, uint32_t p) {
    block *k = b->st[p].top;
    if (upy_nin_falls_through(ins(b, p)) || !k || k->kind != B_WITH ||
        (p + 2 < b->n && ins(b, p + 2)->op == N_JUMP))
        return NULL;
    for (k = k->up; k && (k->kind == B_FRAME || k->kind == B_LASTI);)
        k = k->up;
    return k;
}

/* Whether the code at i is the end of an except clause: [POP_BLOCK;]
 * POP_EXCEPT. */
static int pops_except_next(const bs *b, uint32_t i) {
    if (i < b->n && ins(b, i)->op == N_POP_BLOCK)
        i++;
    return i < b->n && ins(b, i)->op == N_POP_EXCEPT;
}

/* The frame the dead end of an except clause nested in another clause
 * takes, after instruction p (a raise or return ending the clause's
 * body): the clause's own, whose cleanup block covers the code around it.
 * Worked example, 3.9:
 *
 *     except W:
 *         try: return i()
 *         except A:
 *             raise B           LOAD_GLOBAL B; RAISE_VARARGS 1
 *                               POP_EXCEPT; JUMP_FORWARD end   (dead)
 *                               RERAISE                  (A not matched)
 *
 * Left without a handler, the dead code would split the outer clause's
 * body, and its POP_EXCEPT pop an exception no handler pushed ("a value
 * missing from the stack"); in a with's body (a try in it) it would split
 * the with, whose exit then belongs to no statement; in a try body it
 * would split the body, whose code after it then reads as code after the
 * try (`try:` / `if c:` / `try: return f()` / `except E: raise` / `else:
 * x()` + `except ImportError: pass`: the else part and the outer try were
 * not recovered; networkx convert.to_networkx_graph).  NULL where p is not
 * in such a clause. */
static block *dead_clause_end_frame(const bs *b, uint32_t p) {
    block *k = b->st[p].top, *below;
    int under_try = 0;
    if (upy_nin_falls_through(ins(b, p)))
        return NULL;
    while (k && k->kind == B_CLEANUP)
        k = k->up;
    if (!k || k->kind != B_FRAME)
        return NULL;
    /* (In a try body, only the clause's end itself, [POP_BLOCK;]
     * POP_EXCEPT: other dead code of the clause, as a loop's written
     * `else: break` that peephole.c threaded the test past, reads as it
     * did with no handler.) */
    for (below = k->up;
         below && (below->kind == B_TRY || below->kind == B_CLEANUP);
         below = below->up)
        under_try |= below->kind == B_TRY;
    if (below && (below->kind == B_FRAME || below->kind == B_WITH))
        return k;
    return under_try && pops_except_next(b, p + 1) ? k : NULL;
}

/* The with dead code at i is covered by, or NULL.  3.8 and 3.9 keep the
 * dead end of an except clause whose body left it, and the dead jump
 * after an except chain (compile.c compiler_try_except), inside the
 * blocks around the try; 3.10's compiler drops them (mark_reachable), so
 * that 3.11's handlers run on over the place.  Worked example, 3.9:
 *
 *     with cm:                  (SETUP_WITH w)
 *         for x in xs:
 *             try: f(x)
 *             except E:
 *                 break          POP_EXCEPT; JUMP_ABSOLUTE exit
 *                                POP_EXCEPT; JUMP_ABSOLUTE loop  (dead)
 *                                RERAISE
 *                                JUMP_ABSOLUTE loop              (dead)
 *
 * Left without a handler, the dead jumps would split the with's body, so
 * they take the with's.  Other dead code keeps none: in a try body, given
 * the try's handler, it reads as statements of the body (a `continue`
 * after a `while 1:`, a loop hoisted out of the try around it). */
static block *dead_code_with(const bs *b, uint32_t i) {
    uint32_t p = i;
    block *k;
    while (p > 0 && b->st[p - 1].depth < 0)
        p--;
    if (p > 0 && ins(b, p)->op == N_POP_BLOCK &&
        (k = dead_with_exit_block(b, p - 1)))
        return k;
    if (p > 0 && !leaves_handler(b, p - 1))
        return dead_clause_end_frame(b, p - 1);
    if (p == 0)
        return NULL;
    for (k = b->st[p - 1].top; k && (k->kind == B_FRAME || k->kind == B_LASTI);)
        k = k->up;
    return k && k->kind == B_WITH ? k : NULL;
}

/* Counts the jumps to each instruction in b->jumps_in. */
static unpyc_status count_jumps_in(bs *b) {
    uint32_t k;
    int32_t to;
    b->jumps_in = upy_arena_array(b->arena, b->n, sizeof *b->jumps_in);
    if (!b->jumps_in)
        return no_memory(b);
    for (k = 0; k < b->n; k++)
        if ((to = ins(b, k)->target) >= 0 && (uint32_t)to < b->n)
            b->jumps_in[to]++;
    return UNPYC_OK;
}

/* Drops the dead try [p, end) (is_dead_try), as 3.10's compile.c
 * remove_unreachable drops dead code.  Where other code jumps into it,
 * it is refused. */
static unpyc_status drop_dead_try(bs *b, uint32_t p, uint32_t end) {
    uint32_t k, jumps_from_outside = 0;
    int32_t to;
    for (k = p; k < end; k++) {
        to = ins(b, k)->target;
        jumps_from_outside += b->jumps_in[k];
        jumps_from_outside -= to >= (int32_t)p && to < (int32_t)end;
    }
    if (jumps_from_outside)
        return odd(b, p, "unreachable exception code");
    for (k = p; k < end; k++)
        b->act[k] = A_DROP;
    return UNPYC_OK;
}

/* Dead code keeps no block instruction; a dead try the walk did not
 * follow goes (walk_dead_tries). */
static unpyc_status drop_dead(bs *b) {
    uint32_t i, end = 0;
    int32_t top_line = -1;
    unpyc_status st;
    if (!b->walk_dead && (st = count_jumps_in(b)) != UNPYC_OK)
        return st;
    for (i = 0; i < b->n; i++) {
        uint16_t op = ins(b, i)->op;
        if (b->st[i].depth < 0 && b->st[i - 1].depth >= 0 && !b->walk_dead &&
            is_dead_try(b, i, top_line, &end)) {
            if ((st = drop_dead_try(b, i, end)) != UNPYC_OK)
                return st;
            for (; i < end; i++)
                top_line = top_line_with(b, i, top_line);
            i--;
            continue;
        }
        top_line = top_line_with(b, i, top_line);
        if (b->st[i].depth >= 0)
            continue;
        b->st[i].top = dead_code_with(b, i);
        /* A dead with's handler outside a dead statement is what 3.9's
         * peephole.c leaves of a finally body copied on a return's way out
         * (its lines repeat; neo4j _pool connection_creator): recovery reads
         * it as code that never runs.  A dead match it cannot. */
        if (matches_exception(b, i))
            return odd(b, i, "unreachable exception code");
        if (op == N_SETUP_FINALLY || op == N_SETUP_WITH || op == N_POP_BLOCK)
            b->act[i] = A_DROP;
    }
    return UNPYC_OK;
}

/* One pass over code (see the top of the file); walk_dead says whether it
 * walks a dead try or drops it, *met_dead whether it met one. */
static unpyc_status normalize_blocks(upy_ncode *code, upy_arena *arena,
                                     unpyc_error *err, int walk_dead,
                                     int *met_dead) {
    bs b;
    unpyc_status st;
    memset(&b, 0, sizeof b);
    b.code = code;
    b.arena = arena;
    b.err = err;
    b.n = code->count;
    b.copy_budget = COPY_SEARCH_BUDGET;
    b.walk_dead = (uint8_t)walk_dead;
    if (alloc_tables(&b))
        return no_memory(&b);
    st = walk(&b);
    *met_dead = b.met_dead;
    if (st != UNPYC_OK || (st = drop_dead(&b)) != UNPYC_OK)
        return st;
    if ((st = place_cleanups(&b)) != UNPYC_OK)
        return st;
    return rebuild(&b, code);
}

/* A pass that fails leaves code as it was: where the walk into a dead try
 * failed, the pass runs again and drops that try. */
unpyc_status upy_normalize_blocks(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err) {
    unpyc_error walk_err = {UNPYC_OK, -1, ""};
    unpyc_status st;
    int met_dead = 0;
    if (!has_blocks(code))
        return UNPYC_OK;
    st = normalize_blocks(code, arena, &walk_err, 1, &met_dead);
    if (st == UNPYC_E_UNSUPPORTED && met_dead)
        return normalize_blocks(code, arena, err, 0, &met_dead);
    if (st != UNPYC_OK)
        return upy_fail(err, st, walk_err.offset, "%s", walk_err.message);
    return UNPYC_OK;
}
