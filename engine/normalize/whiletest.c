/*
 * whiletest.c - 3.8-3.9's while loop, tested on top only, as 3.10 lays it
 * out: the test copied to the bottom of the body.
 *
 * 3.8-3.9's compile.c compiler_while emits the test once, at the loop's
 * top, and ends the body with a JUMP_ABSOLUTE back to it; peephole.c
 * threads each jump to that end (an if's false jump, the jump over an
 * else part, a try's way out) to the top too.  3.10's compiler_while
 * copies the test to the bottom of the body (compiler_jump_if with the
 * condition inverted, jumping back to the body's first block), where
 * every way that runs off the body goes; only `continue` goes to the top.
 * 3.11+ do the same, and recovery reads that one shape.  Worked example
 * (3.8; 3.10 in brackets):
 *
 *     while a and b:          0 LOAD a; 1 POP_JUMP_IF_FALSE 13
 *                             2 LOAD b; 3 POP_JUMP_IF_FALSE 13
 *         if g():             4 g(); 6 POP_JUMP_IF_FALSE 0   [-> 11]
 *             h()             7 h(); 9 POP_TOP
 *                            10 JUMP 0   [11 LOAD a; POP_JUMP_IF_FALSE 13
 *                                         LOAD b; POP_JUMP_IF_TRUE 4]
 *     return                 13 ...
 *
 * Either way runs the same: the copy tests what the top tests and goes
 * where the top goes.  The pass puts the copy in place of the body's last
 * jump back (or after a body whose last statement leaves, when a threaded
 * jump still runs off its end) and points there the jumps that ran off
 * the body's end: the conditional ones to the top (no `continue` is
 * conditional) and the unconditional ones on the line of the code before
 * them (a `continue` has a line of its own).  `while True:` has no test
 * and stays as it is.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* The longest test the pass copies, in instructions: longer ones stay on
 * top only, which recovery reads too, but not where the body starts with
 * a try whose body breaks (it read an inner `while` for the test's last
 * term: holdout toml TomlDecoder.load_line, eight `!=` terms of
 * `pair[-1][0]` and `pair[-1].strip()`, 66 instructions, past the 64 this
 * once was).  Each loop's test is walked and copied once, so the bound
 * only keeps crafted tests from growing the code much.  And the most code
 * before a jump that shares_line walks back over, the unit of the other
 * walks' budgets. */
enum { MAX_TEST_LEN = 1024, MAX_WALK_BACK = 64 };

/* One loop to rotate: its test [head, body) that fails to `fails_to`;
 * the copy goes before instruction `end`, in place of the jump back at
 * end - 1 when `replaces`.  `chain`: the test ends in a chained
 * comparison's cleanup (see chain_tail). */
typedef struct while_loop {
    uint32_t head, body, end;
    int32_t fails_to;
    uint8_t replaces, chain;
} while_loop;

typedef struct whiletest {
    upy_ncode *code;
    int32_t *last_back; /* per instruction: the last jump back to it */
    int32_t *from_min;  /* per instruction: the first jump to it */
    int32_t *from_max;  /* and the last */
    uint8_t *reached;   /* per instruction: on a path from the first one */
    while_loop *loops;
    uint32_t nloops;
    /* Instructions of loop bodies the pass may still walk: each loop's
     * body is walked for the jumps that ran off its end, and real code
     * nests few loops, but crafted code of many loops around one long
     * body would cost quadratic time.  Past it, loops stay as they are. */
    uint64_t budget;
} whiletest;

static const upy_nin *ins(const whiletest *w, uint32_t i) {
    return &w->code->ins[i];
}

/* Whether jump back i to t comes from past the handler that protects t:
 * the jump back of a loop around a try (or with) whose body starts with
 * an inner loop, which 3.8-3.9 aim at the inner loop's header (the
 * SETUP_FINALLY they go to is no instruction here).  It is no jump back
 * of the inner loop, all of whose code lies in the body, before the
 * handler.  Worked example (3.8, jinja2
 * TemplateStream._buffered_generator):
 *
 *     while True:              7 LOAD c_size ... 10 POP_JUMP_IF_FALSE 26
 *         try:                   (under handler 27)
 *             while c_size < n: 11 ... 25 JUMP 7
 *                 ...          26 JUMP 43   (the try body's way out)
 *         except E: ...        27 handler ...
 *         ...                  56 JUMP 7
 *
 * Taking 56 as the inner loop's last jump back, the test's failing jump
 * to 26 fell inside the loop, which stayed tested on top only, read as
 * `while 1: if c_size < n: ...` that never leaves. */
static int from_past_handler(const whiletest *w, uint32_t i, int32_t t) {
    int32_t h = ins(w, (uint32_t)t)->handler;
    return h >= 0 && (int32_t)i >= h;
}

static void find_jumps(whiletest *w) {
    uint32_t i;
    for (i = 0; i < w->code->count; i++) {
        w->last_back[i] = w->from_min[i] = w->from_max[i] = -1;
    }
    for (i = 0; i < w->code->count; i++) {
        int32_t t = ins(w, i)->target;
        if (t < 0 || (uint32_t)t >= w->code->count)
            continue;
        if (t <= (int32_t)i && !from_past_handler(w, i, t) &&
            !upy_ncode_past_inner_while(w->code, i, (uint32_t)t))
            w->last_back[t] = (int32_t)i;
        if (w->from_min[t] < 0)
            w->from_min[t] = (int32_t)i;
        w->from_max[t] = (int32_t)i;
    }
}

/* Whether instruction k is the store of an assignment expression (`while
 * (x := f()):` copies the value, then stores it). */
static int is_walrus_store(const whiletest *w, uint32_t k, uint32_t head) {
    return ins(w, k)->op == N_STORE && k > head &&
           ins(w, k - 1)->op == N_COPY && ins(w, k - 1)->arg == 1;
}

/* Whether instruction k may stand in a test that starts at head: part of
 * an expression, or one of the test's jumps (forward: the and / or
 * network, a conditional expression's jump over its other value; or out
 * of the loop); and no jump from before the test lands on it.  (A
 * statement ends the test: `while x: x -= 1; if c: ... else: break`
 * jumps out of the loop after it too, threaded through the break.) */
static int may_be_in_test(const whiletest *w, uint32_t k, uint32_t head) {
    const upy_nin *in = ins(w, k);
    if (in->handler != ins(w, head)->handler ||
        (k > head && w->from_min[k] >= 0 && w->from_min[k] < (int32_t)head) ||
        (upy_nin_ends_statement(in) && !is_walrus_store(w, k, head)))
        return 0;
    if (in->op == N_POP_JUMP_IF || in->op == N_JUMP_IF_OR_POP ||
        in->op == N_JUMP)
        return in->target > (int32_t)k || in->target <= (int32_t)head;
    return !upy_nin_ends_block(in);
}

/* Whether the test's failing jump k is followed by the rest of a chained
 * comparison (compile.c compiler_jump_if: `a < b < c` fails to a cleanup
 * that pops the middle operand): a jump to the body over the cleanup, the
 * cleanup's POP_TOP, which only the test reaches, and its jump to where
 * the test fails.  Example (3.8): `while 0 <= i < n:` ... 5
 * POP_JUMP_IF_FALSE 10 ... 8 POP_JUMP_IF_FALSE A; 9 JUMP 12; 10 POP_TOP;
 * 11 JUMP A; 12 body. */
static int chain_tail(const whiletest *w, uint32_t head, uint32_t k) {
    const upy_nin *c = ins(w, k);
    if (k + 4 >= w->code->count)
        return 0;
    return c[1].op == N_JUMP && c[1].target == (int32_t)k + 4 &&
           c[2].op == N_POP_TOP && c[3].op == N_JUMP &&
           c[3].target == c->target && w->from_min[k + 1] < 0 &&
           w->from_min[k + 3] < 0 && w->from_min[k + 2] >= (int32_t)head &&
           w->from_max[k + 2] < (int32_t)k && c[1].handler == c->handler &&
           c[2].handler == c->handler;
}

/* The end of the longest whole test that starts at loop header head,
 * whose last jump back is at last: its jumps stay in it, go on to the
 * body or fail to one place outside the loop (*fails_to), no jump from
 * outside lands inside it, and its last instruction fails.  0 when none.
 * (One walk, keeping the farthest jump inside and the last jump in.) */
static uint32_t test_end(const whiletest *w, uint32_t head, int32_t last,
                         int32_t *fails_to, uint8_t *chain) {
    uint32_t k, end = 0;
    int32_t out = -1, farthest = -1, last_in = -1;
    for (k = head; k < (uint32_t)last && k - head < MAX_TEST_LEN; k++) {
        const upy_nin *in = ins(w, k);
        int32_t t = in->target;
        if (!may_be_in_test(w, k, head))
            break;
        if (k > head && w->from_max[k] > last_in)
            last_in = w->from_max[k];
        if (t >= 0 && t > (int32_t)head && t <= last) {
            if (t > farthest)
                farthest = t;
            continue;
        }
        if (t < 0)
            continue;
        if (out >= 0 && t != out)
            break;
        out = t;
        if (in->op != N_POP_JUMP_IF || last_in > (int32_t)k)
            continue;
        if (farthest <= (int32_t)k + 1) {
            end = k + 1;
            *fails_to = t;
        } else if (farthest == (int32_t)k + 2 && !end &&
                   chain_tail(w, head, k)) {
            *fails_to = t;
            *chain = 1;
            return k + 4;
        }
    }
    return end;
}

/* Where the body of the loop ends: right after its last jump back when
 * that is followed by a jump the test's failing jump was threaded
 * through, else where the test fails to.  0 when neither fits.  The jump
 * after a loop that ends an if body or an outer loop's body has the line
 * of the loop's last statement; a `break` ending the body (`else:
 * break`, threaded alike) has its own. */
static uint32_t body_end(const whiletest *w, int32_t last, int32_t fails_to) {
    uint32_t after = (uint32_t)last + 1;
    const upy_nin *next = after < w->code->count ? ins(w, after) : NULL;
    if (next && next->op == N_JUMP && next->target == fails_to &&
        (int32_t)after != fails_to && next->line == ins(w, after - 1)->line &&
        next->lead_line < 0 && !next->lead_nops)
        return after;
    return fails_to > last ? (uint32_t)fails_to : 0;
}

/* Whether instruction k can be code a `continue` runs before its jump,
 * leaving the blocks around it (compile.c compiler_unwind_fblock): the
 * POP_EXCEPT of a handler, the clearing of `except E as name:`, a with's
 * __exit__(None, None, None) call. */
static int is_unwind_code(const upy_nin *in) {
    switch ((upy_nop)in->op) {
    case N_POP_EXCEPT:
    case N_STORE:
    case N_DELETE:
    case N_CALL:
    case N_POP_TOP:
        return 1;
    default:
        return upy_nin_loads_none(in);
    }
}

/* Whether jump j is the way out of a with or try body, blocks.c's
 * handler right after it: a `continue` there is followed by the body's
 * own way out, which compile.c emits after it all the same (dead code).
 * Its line, the body's last, is on no code before it where that line is
 * `pass` or a try's end, whose handler code is laid out before the with's
 * exit (campaign marked_region_from_LOAD_CONST: `while f: with 0: pass`;
 * real world trio FdStream.send_all: `while c: with v: try: ... / except
 * E as e: raise Y from e`). */
static int leaves_protected_body(const whiletest *w, uint32_t j) {
    return j + 1 < w->code->count && ins(w, j + 1)->op == N_PUSH_EXC_INFO;
}

/* Whether the unconditional jump j has the line of code before it, not
 * one of its own: a `continue` starts a line (after any code that
 * unwinds the blocks it leaves); the jump over an else part, or out of a
 * try (laid out after its handlers' code, which has none of their lines
 * but their last), keeps the line of the statement before it.  (`x =
 * None` before a jump reads as unwinding: the jump stays a `continue`,
 * which runs and compiles the same.) */
static int shares_line(const whiletest *w, uint32_t j) {
    const upy_nin *in = ins(w, j);
    uint32_t k = j;
    if (in->lead_line >= 0 || in->lead_nops)
        return 0;
    if (leaves_protected_body(w, j))
        return 1;
    while (k-- > 0 && j - k <= MAX_WALK_BACK) {
        const upy_nin *before = ins(w, k);
        if (before->line < 0 && !upy_nin_falls_through(before))
            continue;
        if (before->line != in->line || before->lead_line >= 0)
            return 0;
        if (!upy_nin_falls_through(before) || !is_unwind_code(before))
            return 1;
    }
    return 0;
}

/* Whether the next jump to the header of loop lp after jump j is a
 * `continue` that code runs into (not an `if c: continue`): the end of
 * the if whose branch j ends, which peephole.c threaded j through (3.10
 * threads it too).  Worked example (3.8, cyclopts _merge_wordbreaks):
 *
 *     if i + 1 < n:            POP_JUMP_IF_FALSE else
 *         i += 2               ...; JUMP head   (was JUMP to the continue)
 *     else:              else: i += 1
 *         i += 1
 *     continue                 JUMP head
 *
 * The jumps to the header on the way there that code after them jumps
 * around (the ends of the else part's own branches, threaded alike) are
 * not that end (rich cells.py split_graphemes: `if a: x / else: y; if b:
 * z / else: w` then `continue`, ending an outer if's body).
 * Past the most steps it walks it answers yes: j stays as it is. */
static int threaded_through_continue(const whiletest *w, const while_loop *lp,
                                     uint32_t j) {
    uint32_t k;
    int32_t far = -1;
    for (k = j + 1; k < lp->end && k - j <= 4 * MAX_WALK_BACK; k++) {
        const upy_nin *in = ins(w, k);
        if (in->target > far && in->target < (int32_t)lp->end)
            far = in->target;
        if (in->target != (int32_t)lp->head || far > (int32_t)k ||
            (lp->replaces && k == lp->end - 1))
            continue;
        return in->op == N_JUMP && !shares_line(w, k) &&
               upy_nin_falls_through(ins(w, k - 1)) &&
               ins(w, k - 1)->op != N_POP_JUMP_IF;
    }
    return k < lp->end;
}

/* Whether jump j sits in a loop inside the body of loop lp: a FOR_ITER's
 * body, or the range a jump back into lp's body closes.  A jump there to
 * lp's header is no `continue` of lp (that would be the inner loop's) but
 * the inner loop's `break`, threaded through lp's jump back right after
 * the inner loop (3.8, networkx gml tokenize: `for ...: if g: ...;
 * break` ending a while body).  Past the most steps it walks it answers
 * yes: the jump then goes to the copy, which runs as the header does. */
static int in_inner_loop(const whiletest *w, const while_loop *lp, uint32_t j) {
    uint32_t k, steps = 0;
    for (k = lp->body; k < j; k++, steps++)
        if (steps > 64 * MAX_WALK_BACK ||
            (ins(w, k)->op == N_FOR_ITER && ins(w, k)->target > (int32_t)j))
            return 1;
    for (k = j; k < lp->end; k++, steps++)
        if (steps > 64 * MAX_WALK_BACK ||
            (ins(w, k)->target > (int32_t)lp->body &&
             ins(w, k)->target <= (int32_t)j))
            return 1;
    return 0;
}

/* Whether instruction k (past the first) is reached: jumped to, or run
 * into. */
static int is_reached(const whiletest *w, uint32_t k) {
    return w->from_min[k] >= 0 || upy_nin_falls_through(ins(w, k - 1));
}

/* Whether the test at j goes to the header through a written `continue`
 * that only the test reached: the first jump to the header after it that
 * nothing reaches, with a line of its own.  3.10 threads that test to the
 * header too.  Worked example (3.9, stdlib telnetlib Telnet.expect):
 *
 *     if not ready:              POP_JUMP_IF ready -> fill
 *         if timeout < 0:        POP_JUMP_IF_FALSE top  (was -> C)
 *             break              JUMP out; JUMP fill (dead)
 *         else:
 *             continue        C  JUMP top  (dead)
 *     self.fill()          fill  ...
 *
 * Sent to the copy, or left at the header, the test read as running on
 * into self.fill() (the `continue` lost: a LIE seen in this work, never
 * committed); it goes to the `continue` again, as 3.10's does.  That
 * jump's index, -1 when there is none (or past the most steps it walks). */
static int32_t test_through_dead_continue(const whiletest *w,
                                          const while_loop *lp, uint32_t j) {
    uint32_t k;
    for (k = j + 1; k < lp->end && k - j <= 4 * MAX_WALK_BACK; k++) {
        const upy_nin *in = ins(w, k);
        if (in->op == N_JUMP && in->target == (int32_t)lp->head &&
            !is_reached(w, k))
            return shares_line(w, k) ? -1 : (int32_t)k;
    }
    return -1;
}

/* Whether jump j, in the body of loop lp, to its header, ran off the
 * body's end before peephole.c threaded it (see the header). */
static int ran_off_end(const whiletest *w, const while_loop *lp, uint32_t j) {
    const upy_nin *in = ins(w, j);
    if (in->target != (int32_t)lp->head || j < lp->body || j >= lp->end ||
        (lp->replaces && j == lp->end - 1))
        return 0;
    if (in->op == N_JUMP && in_inner_loop(w, lp, j))
        return 1;
    /* (A jump over an else part that is a lone `break` stays a
     * `continue`: unthread.c may have aimed another branch's own break at
     * that one, which would read as the join of the if.  Example (3.8,
     * pyparsing reduce_operators): `if a: break` / `if b: g()` / `else:
     * break` ending a while body.  A break that only the if's test
     * reaches is that else part alone, and the jump goes to the copy as
     * in 3.10: stdlib pydoc locate, `while n < len(parts): m = f(n)` /
     * `if m: module, n = m, n + 1` / `else: break`.) */
    if (in->op == N_JUMP && j + 1 < lp->end && ins(w, j + 1)->op == N_JUMP &&
        ins(w, j + 1)->target != (int32_t)lp->head &&
        !(w->from_min[j + 1] >= 0 && w->from_min[j + 1] == w->from_max[j + 1]))
        return 0;
    /* (A test threaded through the `continue` its statement runs into
     * keeps its jump too: boltons remap, `if trace: print(..)` +
     * `continue` read as `if trace: print(..); continue`, a LIE seen in
     * this work, never committed.) */
    if (in->op == N_POP_JUMP_IF)
        return test_through_dead_continue(w, lp, j) < 0 &&
               !threaded_through_continue(w, lp, j);
    return in->op == N_JUMP && shares_line(w, j) &&
           !threaded_through_continue(w, lp, j);
}

/* How many ways reach the copy of loop lp's test: the jumps that ran off
 * the body's end, and the jump back it replaces, where a path from the
 * code's start reaches them.  3.10's compile.c remove_unreachable drops a
 * copy that none reaches.  (A dead jump back under no handler, after an
 * `else: break` in a try body, is not replaced: the copy it alone went to
 * would be dead code, read as a loop with no way round (constructs
 * try_loop_else_break.py else_break).  Nor is a copy made for the jump
 * that 3.8-3.9 leave after a clause's bare `raise`, which runs into it
 * through the dead POP_EXCEPT only: read with the copy, the raise became
 * a `break` and a `raise` after the loop (constructs
 * open_lies_audit36b.py, peewee cockroachdb run_transaction).) */
static uint32_t ways_to_copy(const whiletest *w, const while_loop *lp) {
    uint32_t j, ways = 0;
    for (j = lp->body; j < lp->end; j++)
        ways += (uint32_t)(ran_off_end(w, lp, j) && w->reached[j]);
    if (lp->replaces && w->reached[lp->end - 1])
        ways++;
    return ways;
}

/* Whether the body of loop lp ends in an `else: break` that nothing
 * reaches (before the jump back it replaces, if any): peephole.c threaded
 * the if's test through it, which unthread.c did not undo.  The loop
 * stays as it is, read as a body whose if ends in `continue`, and a
 * `break`, which compile the same.  (A break that code runs into is no
 * such break: `while q: w = q.pop()` / `if not w.done(): w.set(); break`,
 * stdlib asyncio/queues.py _wakeup_next, gets the copy as in 3.10.) */
static int ends_in_dead_break(const whiletest *w, const while_loop *lp) {
    uint32_t b = lp->end - 1 - lp->replaces;
    return b >= lp->body && ins(w, b)->op == N_JUMP &&
           ins(w, b)->target == lp->fails_to && !is_reached(w, b);
}

/* Whether the body of loop lp ends in a written `continue`, the jump back
 * it replaces then reached by nothing: 3.10 copies no test there either
 * (the jumps threaded through that `continue` stay `continue`s). */
static int ends_in_continue(const whiletest *w, const while_loop *lp) {
    uint32_t b = lp->end - 2;
    return lp->replaces && b >= lp->body && w->from_min[b + 1] < 0 &&
           ins(w, b)->op == N_JUMP && ins(w, b)->target == (int32_t)lp->head;
}

/* Whether the body of loop lp jumps to the top of a loop around it: a
 * `break` of lp that peephole.c threaded through the outer loop's jump
 * back, right after lp.  3.10 keeps that jump back (compile.c: the break
 * goes to the end of the while / else statement); read with the copy, lp's
 * break was lost.  Such loops stay as they are (stdlib graphlib
 * TopologicalSorter._find_cycle, test_generators flat_conjoin: `while
 * True: ... / while stack: try: node = f(); break / except E: ...` + `else:
 * break` read as `if stack: while True: try ...`, an endless loop: a LIE
 * seen in this work, never committed). */
static int jumps_to_outer_top(const whiletest *w, const while_loop *lp) {
    uint32_t j;
    for (j = lp->body; j < lp->end; j++)
        if (ins(w, j)->target >= 0 && ins(w, j)->target < (int32_t)lp->head)
            return 1;
    return 0;
}

/* Fills *lp for the while loop headed by head, 0 when there is none to
 * rotate. */
static int find_loop(whiletest *w, uint32_t head, while_loop *lp) {
    int32_t last = w->last_back[head], fails_to = -1;
    const upy_nin *back;
    if (last < 0)
        return 0;
    lp->head = head;
    lp->chain = 0;
    lp->body = test_end(w, head, last, &fails_to, &lp->chain);
    if (!lp->body || lp->body > (uint32_t)last)
        return 0;
    lp->fails_to = fails_to;
    lp->end = body_end(w, last, fails_to);
    if (lp->end <= lp->body || w->budget < lp->end - lp->body)
        return 0;
    w->budget -= lp->end - lp->body;
    back = ins(w, lp->end - 1);
    lp->replaces = back->op == N_JUMP && back->target == (int32_t)head &&
                   back->handler == ins(w, head)->handler;
    if (!lp->replaces && upy_nin_falls_through(back))
        return 0;
    return !ends_in_dead_break(w, lp) && !ends_in_continue(w, lp) &&
           !jumps_to_outer_top(w, lp) && ways_to_copy(w, lp) > 0;
}

/* The new code: per old instruction its new index (where a copy replaces
 * it, the copy's), per loop where its copy starts, and which loop's copy
 * each jump that ran off a body's end goes to. */
typedef struct placing {
    uint32_t *new_index;
    uint32_t *copy_at;
    int32_t *to_copy;  /* per old instruction: a loop, or -1 */
    int32_t *inserted; /* per old instruction: the first loop whose copy
                          goes before it (not replacing), or -1 */
    int32_t *next_insert;
    int32_t *replaced; /* per old instruction: the loop whose copy replaces
                          it, or -1 */
} placing;

/* The length of the copy: a chained comparison's leaves out the cleanup's
 * jump, running into where the test fails (the copy goes right before
 * it). */
static uint32_t test_len(const while_loop *lp) {
    return lp->body - lp->head - lp->chain;
}

/* Plans each copy's place and points the jumps that ran off a body's end
 * at it; returns the new count. */
static uint32_t place_copies(const whiletest *w, placing *pl) {
    uint32_t i, p, at = 0;
    for (i = 0; i < w->code->count; i++)
        pl->to_copy[i] = pl->inserted[i] = pl->replaced[i] = -1;
    for (p = 0; p < w->nloops; p++) {
        const while_loop *lp = &w->loops[p];
        for (i = lp->body; i < lp->end; i++) {
            int32_t c = ins(w, i)->op == N_POP_JUMP_IF &&
                                ins(w, i)->target == (int32_t)lp->head
                            ? test_through_dead_continue(w, lp, i)
                            : -1;
            if (ran_off_end(w, lp, i))
                pl->to_copy[i] = (int32_t)p;
            else if (c >= 0)
                w->code->ins[i].target = c;
        }
        if (lp->replaces) {
            pl->replaced[lp->end - 1] = (int32_t)p;
        } else {
            /* (Inner loops, found later, go first.) */
            pl->next_insert[p] = pl->inserted[lp->end];
            pl->inserted[lp->end] = (int32_t)p;
        }
    }
    for (i = 0; i < w->code->count; i++) {
        int32_t q;
        for (q = pl->inserted[i]; q >= 0; q = pl->next_insert[q]) {
            pl->copy_at[q] = at;
            at += test_len(&w->loops[q]);
        }
        pl->new_index[i] = at;
        if (pl->replaced[i] >= 0) {
            pl->copy_at[pl->replaced[i]] = at;
            at += test_len(&w->loops[pl->replaced[i]]);
        } else {
            at++;
        }
    }
    pl->new_index[w->code->count] = at;
    return at;
}

/* The new target of old instruction k's jump. */
static int32_t new_target(const whiletest *w, const placing *pl, uint32_t k) {
    int32_t t = ins(w, k)->target;
    if (pl->to_copy[k] >= 0)
        return (int32_t)pl->copy_at[pl->to_copy[k]];
    return t < 0 ? t : (int32_t)pl->new_index[t];
}

/* Writes the copy of loop p's test at out[copy_at[p]]: the same
 * instructions on the lines of the top, the failing jump inverted back to
 * the body (compiler_jump_if(c, test, body, 1)), at the offset of `slot`.
 * A chained comparison's jump over its cleanup goes where the test fails,
 * and the cleanup runs into it (compile.c compiler_jump_if with cond
 * 1). */
static void write_copy(const whiletest *w, const placing *pl, uint32_t p,
                       uint32_t slot, upy_nin *out) {
    const while_loop *lp = &w->loops[p];
    uint32_t k, base = pl->copy_at[p], fails = lp->body - 1 - 3 * lp->chain;
    for (k = lp->head; k < lp->head + test_len(lp); k++) {
        upy_nin *c = &out[base + k - lp->head];
        int32_t t = ins(w, k)->target;
        *c = *ins(w, k);
        c->offset = ins(w, slot)->offset;
        c->lead_line = -1;
        c->lead_nops = 0;
        c->lead_nops_joined = 0;
        c->handler =
            c->handler < 0 ? c->handler : (int32_t)pl->new_index[c->handler];
        if (k == fails) {
            c->arg = c->arg == UPY_JUMP_TRUE ? UPY_JUMP_FALSE : UPY_JUMP_TRUE;
            c->target = (int32_t)pl->new_index[lp->body];
        } else if (k == fails + 1) {
            c->target = (int32_t)pl->new_index[lp->fails_to];
        } else if (t > (int32_t)lp->head && t < (int32_t)lp->body &&
                   pl->to_copy[k] < 0) {
            c->target = (int32_t)(base + (uint32_t)t - lp->head);
        } else {
            c->target = new_target(w, pl, k);
        }
    }
}

static void write_code(const whiletest *w, const placing *pl, upy_nin *out) {
    uint32_t i;
    int32_t q;
    for (i = 0; i < w->code->count; i++) {
        for (q = pl->inserted[i]; q >= 0; q = pl->next_insert[q])
            write_copy(w, pl, (uint32_t)q, i - 1, out);
        if (pl->replaced[i] >= 0) {
            write_copy(w, pl, (uint32_t)pl->replaced[i], i, out);
            continue;
        }
        out[pl->new_index[i]] = *ins(w, i);
        out[pl->new_index[i]].target = new_target(w, pl, i);
        if (ins(w, i)->handler >= 0)
            out[pl->new_index[i]].handler =
                (int32_t)pl->new_index[ins(w, i)->handler];
    }
}

static unpyc_status alloc_placing(upy_arena *arena, uint32_t n, uint32_t nloops,
                                  placing *pl) {
    pl->new_index = upy_arena_array(arena, n + 1, sizeof *pl->new_index);
    pl->to_copy = upy_arena_array(arena, n + 1, sizeof *pl->to_copy);
    pl->inserted = upy_arena_array(arena, n + 1, sizeof *pl->inserted);
    pl->replaced = upy_arena_array(arena, n + 1, sizeof *pl->replaced);
    pl->copy_at = upy_arena_array(arena, nloops, sizeof *pl->copy_at);
    pl->next_insert = upy_arena_array(arena, nloops, sizeof *pl->next_insert);
    return pl->new_index && pl->to_copy && pl->inserted && pl->replaced &&
                   pl->copy_at && pl->next_insert
               ? UNPYC_OK
               : UNPYC_E_NOMEM;
}

unpyc_status upy_normalize_while_tests(upy_ncode *code, upy_arena *arena,
                                       unpyc_error *err) {
    uint32_t n = code->count, i, count;
    whiletest w = {code, NULL, NULL, NULL, NULL, NULL, 0, (uint64_t)1 << 26};
    placing pl;
    upy_nin *out;
    uint32_t *work;

    if (!n)
        return UNPYC_OK;
    w.last_back = upy_arena_array(arena, n, sizeof *w.last_back);
    w.from_min = upy_arena_array(arena, n, sizeof *w.from_min);
    w.from_max = upy_arena_array(arena, n, sizeof *w.from_max);
    w.loops = upy_arena_array(arena, n, sizeof *w.loops);
    w.reached = upy_arena_array(arena, n, 1);
    work = upy_arena_array_uncleared(arena, n, sizeof *work);
    if (!w.last_back || !w.from_min || !w.from_max || !w.loops || !w.reached ||
        !work)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    upy_ncode_mark_reached(code, w.reached, work);
    find_jumps(&w);
    for (i = 0; i < n; i++)
        if (find_loop(&w, i, &w.loops[w.nloops]))
            w.nloops++;
    if (!w.nloops)
        return UNPYC_OK;
    if (alloc_placing(arena, n, w.nloops, &pl) != UNPYC_OK)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    count = place_copies(&w, &pl);
    out = upy_arena_array(arena, count, sizeof *out);
    if (!out)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    write_code(&w, &pl, out);
    code->ins = out;
    code->count = count;
    return UNPYC_OK;
}
