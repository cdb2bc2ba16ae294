/*
 * unthread.c - undoing 3.8-3.9's jump threading where it left the jump
 * it threaded through unreachable.
 *
 * peephole.c (PyCode_Optimize, "Replace jumps to unconditional jumps")
 * points a jump to an unconditional jump at that jump's target.  At the
 * end of a loop body the jump a try body or an except clause takes to
 * the end of its try is the loop's jump back: threaded, it goes to the
 * loop's header, and where nothing else reached the end of the try, the
 * jumps there stay behind, unreachable (peephole.c drops dead code after
 * a return only).  The clause then reads as one that ends in `continue`,
 * and the try body as one with an `else: continue`.  Worked example
 * (3.9, after blocks.c; lost_mark in tests/test_constructs.py):
 *
 *     while True:              0  st = g(path)        (handler 5)
 *         try:                 4  JUMP 22  was JUMP 20
 *             st = g(path)     5  PUSH_EXC_INFO ... path = h(path)
 *         except OSError:     14  POP_EXCEPT
 *             path = h(path)  15  JUMP 0   was JUMP 21
 *         else:               17  COPY 3; POP_EXCEPT; RERAISE 1
 *             break           20  JUMP 22  (else: break, unreachable)
 *     ...                     21  JUMP 0   (end of the body, unreachable)
 *                             22  ...
 *
 * The jump after a try body or after a clause's POP_EXCEPT goes back to
 * the unreachable jump with the same target among those right after the
 * try's cleanup block, where its else part and its end were: the one it
 * was threaded through.  A `break` or `continue` that ends a body or a
 * clause jumps there itself, and the compiler's own jump to the end of
 * the try, unreachable, follows it: those jumps are left alone.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* What reached[] says of an instruction: a path from the first one gets
 * there, or it was unreachable and a jump that this pass undid goes
 * there again. */
enum { REACHED = 1, TAKEN_AGAIN = 2 };

/* Marks the instructions a path from the first one reaches (by falling
 * through, jumping, or raising to a handler); work holds those still to
 * follow. */
static void find_reached(const upy_ncode *code, uint8_t *reached,
                         uint32_t *work) {
    uint32_t n = 0;
    reached[0] = REACHED;
    work[n++] = 0;
    while (n) {
        uint32_t i = work[--n], k;
        const upy_nin *in = &code->ins[i];
        int32_t next[3] = {upy_nin_falls_through(in) ? (int32_t)i + 1 : -1,
                           in->target, in->handler};
        for (k = 0; k < 3; k++)
            if (next[k] >= 0 && (uint32_t)next[k] < code->count &&
                !reached[next[k]]) {
                reached[next[k]] = REACHED;
                work[n++] = (uint32_t)next[k];
            }
    }
}

/* Whether instruction i starts the next except clause after one that
 * ends at i - 1: a failed match jumps there. */
static int starts_next_clause(const upy_ncode *code, uint32_t i) {
    uint32_t k;
    for (k = 1; k < code->count; k++)
        if (code->ins[k].op == N_POP_JUMP_IF &&
            code->ins[k].target == (int32_t)i &&
            code->ins[k - 1].op == N_EXC_MATCH)
            return 1;
    return 0;
}

/* Whether jump j, reached, is the way out of a try body (right before
 * the handler of the code before it) or of an except clause (after its
 * POP_EXCEPT, right before what follows the clause: the reraise of an
 * exception no clause matched, the next clause, or the cleanup block).
 * A `continue` that ends an if in a body or a clause is followed by the
 * rest of it. */
static int ends_try_part(const upy_ncode *code, const uint8_t *reached,
                         uint32_t j) {
    const upy_nin *in = &code->ins[j], *before;
    if (in->op != N_JUMP || j < 2 || j + 1 >= code->count || !reached[j])
        return 0;
    before = &code->ins[j - 1];
    if (before->op != N_POP_EXCEPT)
        return before->handler == (int32_t)j + 1 &&
               in->handler != (int32_t)j + 1;
    return code->ins[j + 1].op == N_RERAISE ||
           code->ins[j - 2].handler == (int32_t)j + 1 ||
           starts_next_clause(code, j + 1);
}

/* The instruction after the cleanup block (COPY 3; POP_EXCEPT; RERAISE,
 * blocks.c) of the try that jump j leaves, where its else part and its
 * end were laid out; 0 when there is none.  The code of an except clause
 * before its POP_EXCEPT has that block for handler; a try body has its
 * handler's PUSH_EXC_INFO, which has it. */
static uint32_t after_cleanup(const upy_ncode *code, uint32_t j) {
    int32_t c = code->ins[j - 2].handler;
    if (code->ins[j - 1].op != N_POP_EXCEPT) {
        int32_t h = code->ins[j - 1].handler;
        c = code->ins[h].op == N_PUSH_EXC_INFO ? code->ins[h].handler : -1;
    }
    if (c < 0 || (uint32_t)c + 3 >= code->count || code->ins[c].op != N_COPY ||
        code->ins[c + 1].op != N_POP_EXCEPT || code->ins[c + 2].op != N_RERAISE)
        return 0;
    return (uint32_t)c + 3;
}

/* The jump j was threaded through: one of the unreachable jumps right
 * after its try's cleanup block with j's target, or -1. */
static int32_t threaded_through(const upy_ncode *code, const uint8_t *reached,
                                uint32_t j) {
    uint32_t d = after_cleanup(code, j);
    for (; d > j && d < code->count && reached[d] != REACHED &&
           code->ins[d].op == N_JUMP;
         d++)
        if (code->ins[d].target == code->ins[j].target)
            return (int32_t)d;
    return -1;
}

/* Whether instruction k, between two tests, splits them into two
 * conditions: a statement ends there (or a jump goes on elsewhere, or
 * another handler holds it), where those of one condition, `if a and b:`,
 * compute its operands only. */
static int splits_condition(const upy_ncode *code, uint32_t i, uint32_t k) {
    return upy_nin_ends_statement(&code->ins[k]) || code->ins[k].op == N_JUMP ||
           code->ins[k].handler != code->ins[i].handler;
}

/* Whether conditional jump k, another test of the statement that tests at
 * i, goes where i goes, and is no operand of i's condition (split says
 * whether a jump lies between), so stays. */
static int other_test_there(const upy_ncode *code, uint32_t i, uint32_t k,
                            int split) {
    return code->ins[k].op == N_POP_JUMP_IF &&
           code->ins[k].target == code->ins[i].target && split;
}

/* Whether another test of the statement that tests at i goes where i goes
 * and stays: `assert (a == 3 if c else 6)` ending a loop body, whose two
 * tests peephole.c threaded to the loop's header; moving one alone splits
 * the assert (real world networkx test_relabel). */
static int other_test_goes_there(const upy_ncode *code, uint32_t i) {
    uint32_t k = i;
    int split = 0;
    while (k-- > 0 && !upy_nin_ends_statement(&code->ins[k])) {
        if (other_test_there(code, i, k, split))
            return 1;
        split |= splits_condition(code, i, k);
    }
    split = 0;
    for (k = i + 1; k < code->count && !upy_nin_ends_statement(&code->ins[k]);
         k++) {
        if (other_test_there(code, i, k, split))
            return 1;
        split |= splits_condition(code, i, k);
    }
    return 0;
}

/* Whether d can be where the test at i went as the last test of its
 * condition: a later test of the condition (`if a or (b and c):`, i is
 * b) goes there too (undone first), or there is none and d was not taken
 * by another test already.  (`if a or b:` with i at a: b goes elsewhere,
 * a goes to the body.) */
static int ends_condition_at(const upy_ncode *code, const uint8_t *reached,
                             uint32_t i, uint32_t d) {
    uint32_t k;
    int chained = 0;
    for (k = i + 1; k < d; k++) {
        if (code->ins[k].op == N_POP_JUMP_IF) {
            if (code->ins[k].target == (int32_t)d)
                return 1;
            chained = 1;
        }
        if (splits_condition(code, i, k))
            break;
    }
    return !chained && reached[d] != TAKEN_AGAIN;
}

/* Whether jump d runs under the handler of i.  blocks.c gives
 * unreachable code none: there d was laid out in i's blocks. */
static int same_handler(const upy_ncode *code, const uint8_t *reached,
                        uint32_t i, uint32_t d) {
    return code->ins[d].handler == code->ins[i].handler ||
           (!reached[d] && code->ins[d].handler < 0);
}

/* Whether the code from i + 1 to jump d - 1 can be the body of the if
 * that tests at i, d its else part: it ends in a jump, a return or a
 * raise (not the reraise of a handler's cleanup), and no test in it goes
 * to the code right after d.  A dead jump inside the body fails that:
 * the jump to the end of an inner if's branch that ends in a try /
 * finally, say, after which the next `elif` test starts (stdlib pkgutil
 * ImpLoader.get_code), goes where the outer test goes too. */
static int ends_if_body(const upy_ncode *code, uint32_t i, uint32_t d) {
    uint16_t last = code->ins[d - 1].op;
    uint32_t k;
    if (last != N_JUMP && last != N_RETURN && last != N_RAISE)
        return 0;
    for (k = i + 1; k < d; k++)
        if ((code->ins[k].op == N_POP_JUMP_IF ||
             code->ins[k].op == N_JUMP_IF_OR_POP ||
             code->ins[k].op == N_FOR_ITER) &&
            code->ins[k].target == (int32_t)d + 1)
            return 0;
    return 1;
}

/* The jump that the conditional jump i was threaded through: the first
 * unreachable instruction after i, where the if's body stops
 * (ends_if_body); a jump with i's target and i's handler, or -1.  Worked
 * example (3.9; peephole.c "Replace jumps to unconditional jumps";
 * loop_else_break in tests/constructs/loop_if_threaded.py):
 *
 *     while True:              0  h = g(p)
 *         h = g(p)             4  POP_JUMP_IF_FALSE 9   was 7
 *         if h:                5  p.append(h)
 *             p.append(h)      6  JUMP 0
 *         else:                7  JUMP 9   (else: break, unreachable)
 *             break            8  JUMP 0   (end of the body, unreachable)
 *     return p                 9  return p
 *
 * Read as it is, the test leaves the loop where the body ends, and the
 * `break` is lost.  Instructions between i and the jump found are
 * reached, so the if's body is what lies between: an `if not c: break`
 * that ends a loop's body, where the test was threaded through the loop's
 * jump back, reads the same way.  The tests of `if a and b:` all went
 * there: the jump that the last one (undone first) goes to again is taken
 * for the others. */
static int32_t if_threaded_through(const upy_ncode *code,
                                   const uint8_t *reached, uint32_t i) {
    const upy_nin *in = &code->ins[i];
    uint32_t d = i + 1;
    while (d < code->count && reached[d] == REACHED)
        d++;
    if (d >= code->count || code->ins[d].op != N_JUMP ||
        code->ins[d].target != in->target ||
        !same_handler(code, reached, i, d) || !ends_if_body(code, i, d) ||
        !ends_condition_at(code, reached, i, d) ||
        other_test_goes_there(code, i))
        return -1;
    return (int32_t)d;
}

/* The tests before the last one, i2, of `if a or b:` go to the body when
 * true; where the body starts with a jump (`break`), peephole.c threaded
 * them through it too, and it is reached only from i2 on.  Undoing i2
 * alone leaves the body that the tests share split: those tests go to
 * that jump again. */
static void unthread_or_tests(upy_ncode *code, uint32_t i2) {
    uint32_t i = i2;
    const upy_nin *body = &code->ins[i2 + 1];
    if (i2 + 1 >= code->count || body->op != N_JUMP)
        return;
    while (i-- > 0) {
        if (code->ins[i].op == N_POP_JUMP_IF &&
            code->ins[i].target == body->target)
            code->ins[i].target = (int32_t)i2 + 1;
        if (splits_condition(code, i2, i))
            break;
    }
}

/* Inner ifs come after outer ones, and the last test of a condition
 * after the others: they are undone first. */
static void unthread_ifs(upy_ncode *code, uint8_t *reached) {
    uint32_t i = code->count;
    while (i--) {
        int32_t d;
        if (code->ins[i].op != N_POP_JUMP_IF || !reached[i])
            continue;
        d = if_threaded_through(code, reached, i);
        if (d < 0)
            continue;
        code->ins[i].target = d;
        reached[d] = TAKEN_AGAIN;
        code->ins[d].handler = code->ins[i].handler;
        code->ins[d].handler_depth = code->ins[i].handler_depth;
        code->ins[d].handler_lasti = code->ins[i].handler_lasti;
        unthread_or_tests(code, i);
    }
}

/* Where jump t leads at last, through a few jumps. */
static int32_t jump_end(const upy_ncode *code, int32_t t) {
    uint32_t n = 0;
    while (t >= 0 && (uint32_t)t < code->count && code->ins[t].op == N_JUMP &&
           n++ < 8)
        t = code->ins[t].target;
    return t;
}

/* The loop whose last jump back is b, from its head h: each jump in it
 * that leaves it for where the jump right after it leads, a `break`
 * that peephole.c threaded through that jump (to the outer loop's
 * header, say), goes to that jump again, the way out of the loop.
 * Worked example (3.9; inner_break_to_outer_header in
 * tests/constructs/loop_exit_jumps.py, shortened):
 *
 *     for c in classes:        2  FOR_ITER 30
 *         if c.b:                 ...
 *             for p in c.b:   10  FOR_ITER 25
 *                 if a and p:     ...
 *                     break   22  POP_TOP; 23 JUMP 29  was JUMP 25
 *                             24  JUMP 10
 *                             25  JUMP 2    (end of the if's body)
 *         elif c not in roots:    ...
 *             roots.append(c) 29  JUMP 2
 *
 * Read as it is, the break leaves for the elif's end: it came out as
 * `pass`.  Where the loop is left by breaks only (`while True:`), the
 * jump after it is unreachable. */
static void unthread_loop_breaks(upy_ncode *code, uint8_t *reached, uint32_t h,
                                 uint32_t b) {
    upy_nin *way_out = &code->ins[b + 1];
    int32_t end = jump_end(code, (int32_t)b + 1);
    uint32_t j;
    for (j = h + 1; j < b; j++) {
        upy_nin *in = &code->ins[j];
        if (in->op != N_JUMP || !reached[j] ||
            (in->target >= (int32_t)h && in->target <= (int32_t)b + 1) ||
            jump_end(code, in->target) != end ||
            !same_handler(code, reached, j, b + 1))
            continue;
        in->target = (int32_t)b + 1;
        if (!reached[b + 1]) {
            reached[b + 1] = TAKEN_AGAIN;
            way_out->handler = in->handler;
            way_out->handler_depth = in->handler_depth;
            way_out->handler_lasti = in->handler_lasti;
        }
    }
}

/* Each loop: the last jump back to its head, where a jump follows. */
static unpyc_status unthread_breaks(upy_ncode *code, uint8_t *reached,
                                    upy_arena *arena, unpyc_error *err) {
    int32_t *last_back = upy_arena_array(arena, code->count, sizeof *last_back);
    uint32_t b;
    if (!last_back)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (b = 0; b < code->count; b++)
        last_back[b] = -1;
    for (b = 0; b < code->count; b++)
        if (code->ins[b].op == N_JUMP && reached[b] &&
            code->ins[b].target >= 0 && code->ins[b].target < (int32_t)b)
            last_back[code->ins[b].target] = (int32_t)b;
    for (b = 0; b < code->count; b++) {
        int32_t e = last_back[b];
        if (e >= 0 && (uint32_t)e + 1 < code->count &&
            code->ins[e + 1].op == N_JUMP)
            unthread_loop_breaks(code, reached, b, (uint32_t)e);
    }
    return UNPYC_OK;
}

unpyc_status upy_normalize_unthread(upy_ncode *code, upy_arena *arena,
                                    unpyc_error *err) {
    uint8_t *reached = upy_arena_array(arena, code->count + 1, 1);
    uint32_t *work = upy_arena_array(arena, code->count + 1, sizeof *work);
    uint32_t j;
    if (!reached || !work)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if (!code->count)
        return UNPYC_OK;
    find_reached(code, reached, work);
    for (j = 0; j < code->count; j++) {
        int32_t d;
        if (!ends_try_part(code, reached, j))
            continue;
        d = threaded_through(code, reached, j);
        if (d >= 0) {
            code->ins[j].target = d;
            /* (blocks.c gave the unreachable jump no handler: it runs
             * under j's, the try around, as in `try: for k in t: try: f(k)
             * / except E: g() / finally: h()`, whose ways out of the inner
             * try, read as leaving the outer one, were breaks.) */
            if (reached[d] != TAKEN_AGAIN) {
                code->ins[d].handler = code->ins[j].handler;
                code->ins[d].handler_depth = code->ins[j].handler_depth;
                code->ins[d].handler_lasti = code->ins[j].handler_lasti;
            }
            reached[d] = TAKEN_AGAIN;
        }
    }
    unthread_ifs(code, reached);
    return unthread_breaks(code, reached, arena, err);
}
