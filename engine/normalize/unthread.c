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
 *
 * First, a chained comparison's cleanup jump that peephole.c had no room
 * to thread is threaded like the comparison's test (thread_chain_cleanup),
 * so that a long function's code reads as a short one's.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Instructions the clauses' ways out may visit (body_goes_over_handler,
 * upy_else_end_threaded_through): each walks back to its try's handler
 * or on through the loop's body, quadratic time for crafted code of many
 * clauses; past the budget the clauses' jumps stay as they are. */
enum { ELSE_EXIT_BUDGET = 1 << 24 };

/* What reached[] says of an instruction: a path from the first one gets
 * there, or it was unreachable and a jump that this pass undid goes
 * there again. */
enum { REACHED = 1 /* upy_ncode_mark_reached's mark */, TAKEN_AGAIN = 2 };

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

/* The POP_EXCEPT that jump j leaves an except clause after: right before
 * j, or before the cleanup of the name of `except E as name:` (compile.c
 * compiler_try_except: `name = None; del name` follows the POP_EXCEPT);
 * -1 when there is none, j leaves a try body. */
static int32_t clause_pop_except(const upy_ncode *code, uint32_t j) {
    if (code->ins[j - 1].op == N_POP_EXCEPT)
        return (int32_t)j - 1;
    if (j >= 5 && code->ins[j - 4].op == N_POP_EXCEPT &&
        upy_nin_clears_name(&code->ins[j - 3], 3))
        return (int32_t)j - 4;
    return -1;
}

/* Whether the cleanup block of a try (COPY 3; POP_EXCEPT; RERAISE,
 * blocks.c) starts at i. */
static int starts_cleanup(const upy_ncode *code, uint32_t i) {
    return i + 2 < code->count && code->ins[i].op == N_COPY &&
           code->ins[i + 1].op == N_POP_EXCEPT &&
           code->ins[i + 2].op == N_RERAISE;
}

/* Whether jump j, reached, is the way out of a try body (right before
 * the handler of the code before it, or before a handler where the code
 * before it does not fall through: `try: if c: return x` jumps there from
 * the if's test, the return under no handler) or of an except clause (after its
 * POP_EXCEPT, right before what follows the clause: the reraise of an
 * exception no clause matched, the next clause, the cleanup block, or,
 * after `except E as name:`, the name's cleanup).  A `continue` that ends
 * an if in a body or a clause is followed by the rest of it. */
static int ends_try_part(const upy_ncode *code, const uint8_t *reached,
                         uint32_t j) {
    const upy_nin *in = &code->ins[j], *before;
    int32_t p;
    if (in->op != N_JUMP || j < 2 || j + 1 >= code->count || !reached[j])
        return 0;
    before = &code->ins[j - 1];
    p = clause_pop_except(code, j);
    if (p < 0)
        return (before->handler == (int32_t)j + 1 ||
                (!upy_nin_falls_through(before) &&
                 code->ins[j + 1].op == N_PUSH_EXC_INFO)) &&
               in->handler != (int32_t)j + 1;
    if (p + 1 < (int32_t)j) /* compile.c lays the name's cleanup out here */
        return upy_nin_is_name_cleanup(&code->ins[j + 1], code->count - j - 1);
    return code->ins[j + 1].op == N_RERAISE || starts_cleanup(code, j + 1) ||
           code->ins[p - 1].handler == (int32_t)j + 1 ||
           starts_next_clause(code, j + 1);
}

/* The instruction after the cleanup block (COPY 3; POP_EXCEPT; RERAISE,
 * blocks.c) of the try that jump j leaves, where its else part and its
 * end were laid out; 0 when there is none.  The code of an except clause
 * before its POP_EXCEPT has that block for handler, or the name's cleanup
 * of `except E as name:`, right after j, which has it; a try body has its
 * handler's PUSH_EXC_INFO, which has it. */
static uint32_t after_cleanup(const upy_ncode *code, uint32_t j) {
    int32_t p = clause_pop_except(code, j), c;
    if (p < 0) {
        int32_t h = (int32_t)j + 1;
        c = code->ins[h].op == N_PUSH_EXC_INFO ? code->ins[h].handler : -1;
    } else if (starts_cleanup(code, j + 1)) {
        c = (int32_t)j + 1;
    } else {
        c = code->ins[p - 1].handler;
        if (c == (int32_t)j + 1 && p + 1 < (int32_t)j)
            c = code->ins[c].handler;
        /* (The code before the POP_EXCEPT can be an inner try's dead
         * reraise, under no handler: what follows j has the block.) */
        if (c < 0 || !starts_cleanup(code, (uint32_t)c))
            c = code->ins[j + 1].handler;
    }
    if (c < 0 || !starts_cleanup(code, (uint32_t)c))
        return 0;
    return (uint32_t)c + 3;
}

/* Jump d, unreachable until jump i goes to it again, runs under i's
 * handler: blocks.c gives unreachable code none, and a jump under none
 * leaves every try around it.  (3.9, networkx set_node_attributes: `try:
 * for n in values: try: ... / except KeyError: pass` in a try / except
 * AttributeError; the loop's own jump back, under no handler, read as a
 * way out of the outer try: `except KeyError: break / else: break`.) */
static void take_handler_of(upy_ncode *code, uint32_t i, uint32_t d) {
    code->ins[d].handler = code->ins[i].handler;
    code->ins[d].handler_depth = code->ins[i].handler_depth;
    code->ins[d].handler_lasti = code->ins[i].handler_lasti;
}

/* Where the else part and the end of the try that jump j leaves were
 * laid out: after its cleanup block (after_cleanup), and after a bare
 * `except:` clause past the reraise of an exception that no clause
 * matched, which compile.c's compiler_try_except still puts there
 * unreachable (3.8 END_FINALLY), and, for j the way out of the try body,
 * past the clause's own way out (POP_EXCEPT; JUMP), unreachable where the
 * clause ends in a raise (in a `continue`, j is that `continue`):
 * `for t in xs: try: x() / except: print(t); raise` (stdlib 3.9
 * ctypes test_pep3118 test_native_types) has, after blocks.c,
 *
 *     7  JUMP 2    was JUMP 21      15  COPY 3; POP_EXCEPT; RERAISE 1
 *    14  RAISE                      18  POP_EXCEPT; 19 JUMP 2 (dead)
 *                                   20  RERAISE (dead); 21 JUMP 2 (dead)
 *
 * 0 when there is no cleanup block. */
static uint32_t after_clauses(const upy_ncode *code, const uint8_t *reached,
                              uint32_t j) {
    uint32_t d = after_cleanup(code, j);
    if (d && d + 2 < code->count && clause_pop_except(code, j) < 0 &&
        code->ins[d].op == N_POP_EXCEPT && code->ins[d + 1].op == N_JUMP &&
        !reached[d] && !reached[d + 1])
        d += 2;
    if (d && d < code->count && code->ins[d].op == N_RERAISE && !reached[d])
        d++;
    return d;
}

/* Whether a path reaches the instruction before the handler of the try
 * that jump j leaves: the body's way out.  A finally body that ends in
 * `continue` has the handler of a bare `except: pass` (3.9: POP_TOP x3;
 * POP_EXCEPT; JUMP_ABSOLUTE; RERAISE), but the body runs a copy of it,
 * which ends in that `continue`: the body's own jump over the handler
 * after it is unreachable.  Worked example (stdlib 3.9 test_grammar
 * test_continue_in_finally): `while c:` / `try: break` / `finally:
 * continue`. */
static int body_goes_over_handler(const upy_ncode *code, const uint8_t *reached,
                                  uint32_t j, uint64_t *budget) {
    int32_t c = code->ins[j - 2].handler;
    uint32_t k = j - 1;
    if (code->ins[j - 1].op != N_POP_EXCEPT)
        return 1;
    while (k-- > 1 && *budget > 0) {
        --*budget;
        if (code->ins[k].op == N_PUSH_EXC_INFO && code->ins[k].handler == c)
            return reached[k - 1] == REACHED;
    }
    return 0;
}

/* After a bare `except:` clause the try's end is the jump right after
 * the unreachable reraise (after_clauses), or -1.  (That of a finally
 * body that ends in `continue` has code after the try, unreachable,
 * before the jump: body_goes_over_handler.) */
static int32_t end_after_bare_except(const upy_ncode *code,
                                     const uint8_t *reached, uint32_t j,
                                     uint64_t *budget) {
    uint32_t d = after_clauses(code, reached, j);
    if (d == after_cleanup(code, j) || d >= code->count ||
        reached[d] == REACHED || code->ins[d].op != N_JUMP ||
        code->ins[d].target != code->ins[j].target ||
        !body_goes_over_handler(code, reached, j, budget))
        return -1;
    return (int32_t)d;
}

/* The jump j was threaded through: one of the unreachable jumps right
 * after its try's cleanup block with j's target, or -1.  The first one
 * may be reached: where peephole.c could not thread the clauses' jumps
 * to it (a JUMP_FORWARD whose new target needs an EXTENDED_ARG it has
 * no room for) they still go there, and the try body's JUMP_ABSOLUTE,
 * threaded past it, read as leaving the loop by itself (stdlib 3.8 / 3.9
 * tarfile TarFile.next: `while True: try: ... / except ...` x5 +
 * `break`; the break was printed in the first clause only, and after a
 * try body that succeeded the loop ran on). */
static int32_t threaded_through(const upy_ncode *code, const uint8_t *reached,
                                uint32_t j) {
    uint32_t d = after_cleanup(code, j);
    if (d > j && d < code->count && reached[d] == REACHED &&
        code->ins[d].op == N_JUMP && code->ins[d].target == code->ins[j].target)
        return (int32_t)d;
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
    uint32_t k = i, start = upy_ncode_statement_start(code, i);
    uint32_t end = upy_ncode_statement_end(code, i + 1);
    int split = 0;
    while (k-- > start) {
        if (other_test_there(code, i, k, split))
            return 1;
        split |= splits_condition(code, i, k);
    }
    split = 0;
    for (k = i + 1; k < end; k++) {
        if (other_test_there(code, i, k, split))
            return 1;
        split |= splits_condition(code, i, k);
    }
    return 0;
}

/* Whether k is the test of a while loop whose header comes after i
 * (3.8-3.9 compiler_while tests at the top): it leaves for the code after
 * the loop's jump back there.  `if tp:` / `while tp:` lays out the two
 * tests as `if tp and tp:` does, but for that jump. */
static int tests_inner_loop(const upy_ncode *code, uint32_t i, uint32_t k) {
    int32_t t = code->ins[k].target;
    const upy_nin *back;
    if (code->ins[k].op != N_POP_JUMP_IF || t <= (int32_t)k + 1 ||
        (uint32_t)t > code->count)
        return 0;
    back = &code->ins[t - 1];
    return back->op == N_JUMP && back->target > (int32_t)i &&
           back->target <= (int32_t)k;
}

/* Whether k, a test after i, is that of an if or a while statement in
 * the body of the if that tests at i, whose else part is the jump d: it
 * jumps forward past `end`, the first statement end after i, short of d
 * or to the if's end right after d.  The tests of i's condition jump over
 * its operands only, to its other tests, to its body (which ends no
 * statement before it starts) or to its else part (d, or where d goes
 * while they are threaded). */
static int tests_inner_statement(const upy_ncode *code, uint32_t k,
                                 uint32_t end, uint32_t d) {
    int32_t t = code->ins[k].target;
    return code->ins[k].op == N_POP_JUMP_IF && t > (int32_t)end &&
           t <= (int32_t)d + 1 && t != (int32_t)d && t != code->ins[d].target;
}

/* Whether d can be where the test at i went as the last test of its
 * condition: a later test of the condition (`if a or (b and c):`, i is
 * b) goes there too (undone first), or there is none and d was not taken
 * by another test already.  (`if a or b:` with i at a: b goes elsewhere,
 * a goes to the body.)  A later test that jumps on the value i jumps on
 * and goes elsewhere belongs to an inner if (`if w == 0:` / `if level ==
 * 0: g(i)` / `break` + `continue`, while_else_in_if): the last test of a
 * condition goes where i goes when i jumps to its else part.  The walk
 * stops at the test of an inner statement (tests_inner_statement), which
 * may jump on the other value: `if d:` / `if f and b:` / `if not b: x()`
 * / `else: y()` + `else: break` ending a while body (3.8 / 3.9 invoke's
 * vendored yaml Scanner.scan_block_scalar; while_else_break_after_nested_if
 * in tests/constructs) read as `if d` chained to `if not b`, so that the
 * while loop's own test took the dead break for its else part, and the
 * loop ran on where the source breaks. */
static int ends_condition_at(const upy_ncode *code, const uint8_t *reached,
                             uint32_t i, uint32_t d) {
    uint32_t k, end = upy_ncode_statement_end(code, i + 1);
    int chained = 0;
    for (k = i + 1; k < d; k++) {
        if (tests_inner_loop(code, i, k) ||
            tests_inner_statement(code, k, end, d))
            break;
        if (code->ins[k].op == N_POP_JUMP_IF) {
            if (code->ins[k].target == (int32_t)d)
                return 1;
            chained |= code->ins[k].arg != code->ins[i].arg;
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

/* Whether the code right after the dead jump d is the jump the body
 * before d ends in, with its target: the loop's jump back that ends a
 * loop body, where an if / else ending it joins, so a test in the body
 * that goes there goes past the else part d.  Worked example (3.8,
 * stdlib idlelib pyparse Parser.find_good_parse_start):
 *
 *     while 1:                  0  m = g(code, i)
 *         m = g(code, i)       12  POP_JUMP_IF_FALSE 44  was 40
 *         if m:                   ...
 *             if not f(s):     32  POP_JUMP_IF_TRUE 42
 *                 pos = s      38  JUMP_ABSOLUTE 0
 *         else:
 *             break            40  JUMP_ABSOLUTE 44  (unreachable)
 *                              42  JUMP_ABSOLUTE 0
 *     return pos               44
 *
 * Left threaded, the test left the loop where the body ends, and the
 * break was lost: the loop never ended. */
static int joins_past_else(const upy_ncode *code, uint32_t d) {
    return d + 1 < code->count && code->ins[d - 1].op == N_JUMP &&
           code->ins[d + 1].op == N_JUMP &&
           code->ins[d + 1].target == code->ins[d - 1].target;
}

/* Whether the body of the if that tests at i ends in a jump over the
 * dead jump d to the code right after it, the end of the statement, and
 * no test in the body goes where d goes (d is no inner if's else part,
 * whose test peephole.c threaded through it): then a test in the body
 * that goes right after d, an inner if that ends the body, goes to the
 * end of the statement, threaded through the body's jump.  Worked
 * example (3.8, real world docutils transforms/peps Headers.apply;
 * else_continue_after_elif_try_then_if in
 * tests/constructs/open_lies_audit37b.py):
 *
 *     for x in xs:              2  FOR_ITER 48
 *         if x == 1: ...
 *         elif x == 2:         16  POP_JUMP_IF_FALSE 2   was 42
 *             try: ...             ...
 *             if log(x):       36  POP_JUMP_IF_FALSE 43  was 41
 *                 log(x)       41  JUMP 43
 *         else:
 *             continue         42  JUMP 2    (unreachable)
 *         log("after")         43  ...
 *
 * Left threaded, the test went on to the loop's jump back after
 * `log("after")` (ifends.c), and the `else: continue` was lost.  The
 * dead `else: break` of an inner if that ends a while loop's body is no
 * else part of the loop's test: the inner if's tests go where it goes
 * (real world networkx smallworld lattice_reference, read as `while 1:
 * if n < m: ... / else: break` without that check). */
static int jumps_past_else(const upy_ncode *code, uint32_t i, uint32_t d) {
    int32_t out = upy_ncode_jump_end(code, (int32_t)d);
    uint32_t k;
    if (code->ins[d - 1].op != N_JUMP ||
        code->ins[d - 1].target != (int32_t)d + 1)
        return 0;
    for (k = i + 1; k < d; k++)
        if (code->ins[k].op == N_POP_JUMP_IF &&
            upy_ncode_jump_end(code, code->ins[k].target) == out)
            return 0;
    return 1;
}

/* Whether the code from i + 1 to jump d - 1 can be the body of the if
 * that tests at i, d its else part: it ends in a jump, a return or a
 * raise (not the reraise of a handler's cleanup), and no test in it goes
 * to the code right after d.  A dead jump inside the body fails that:
 * the jump to the end of an inner if's branch that ends in a try /
 * finally, say, after which the next `elif` test starts (stdlib pkgutil
 * ImpLoader.get_code), goes where the outer test goes too.
 *
 * Nor can it where i's test goes inside it: the if ends there, no
 * jump was threaded, and d is the dead jump back of a loop that starts
 * at that join (peephole.c leaves it after the try body's `break`).
 * Worked example (3.8 after blocks.c; real world pymysql
 * Connection.connect, connect_retrying in
 * tests/constructs/open_lies_audit42.py):
 *
 *     if flag:                 3  POP_JUMP_IF_FALSE 6
 *         n = 1                4  n = 1
 *     while True:
 *         try:                 6  got = attempt()    (handler 11)
 *             got = attempt()
 *             break            9  JUMP 25
 *         except OSError:     10  JUMP 6   (end of the body, unreachable)
 *             continue        11  PUSH_EXC_INFO ...; JUMP 6
 *     return got, n           25  ...
 *
 * Sent to 10, the test went round the loop when false: the loop was
 * printed inside the if, and never ran when the test failed. */
static int ends_if_body(const upy_ncode *code, uint32_t i, uint32_t d) {
    uint16_t last = code->ins[d - 1].op;
    int32_t t = code->ins[i].target;
    uint32_t k;
    int past;
    if (last != N_JUMP && last != N_RETURN && last != N_RAISE)
        return 0;
    if (t > (int32_t)i && t < (int32_t)d)
        return 0;
    if (joins_past_else(code, d))
        return 1;
    past = jumps_past_else(code, i, d);
    for (k = i + 1; k < d; k++)
        if (((code->ins[k].op == N_POP_JUMP_IF && !past) ||
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

/* Whether the test at k, before the last test i2 of a condition, belongs
 * to it: it goes to the body (threaded, to where the body's jump goes),
 * where i2 goes, or to another test's operands (`(a and b) or c`); the
 * test of an if around it goes past the body, that of a while loop around
 * it (upy_ncode_may_test_while) where the body's `break` goes. */
static int in_condition(const upy_ncode *code, uint32_t k, uint32_t i2,
                        uint64_t *budget) {
    int32_t t = code->ins[k].target;
    if (t == code->ins[i2 + 1].target)
        return !upy_ncode_may_test_while(code, k, budget);
    return t <= (int32_t)i2 || t == code->ins[i2].target;
}

/* The tests before the last one, i2, of `if a or b:` go to the body when
 * true; where the body starts with a jump (`break`), peephole.c threaded
 * them through it too, and it is reached only from i2 on.  Undoing i2
 * alone leaves the body that the tests share split: those tests go to
 * that jump again.  The condition starts after a statement, or at a
 * loop's header (loop_head[], a jump back goes there), or after the test
 * of an if or a while loop around it (in_condition). */
static void unthread_or_tests(upy_ncode *code, const uint8_t *loop_head,
                              uint32_t i2, uint64_t *budget) {
    uint32_t i = i2;
    const upy_nin *body = &code->ins[i2 + 1];
    if (i2 + 1 >= code->count || body->op != N_JUMP)
        return;
    while (i-- > 0 && !loop_head[i + 1]) {
        if (code->ins[i].op == N_POP_JUMP_IF &&
            !in_condition(code, i, i2, budget))
            break;
        if (code->ins[i].op == N_POP_JUMP_IF &&
            code->ins[i].target == body->target)
            code->ins[i].target = (int32_t)i2 + 1;
        if (splits_condition(code, i2, i))
            break;
    }
}

/* Inner ifs come after outer ones, and the last test of a condition
 * after the others: they are undone first. */
static void unthread_ifs(upy_ncode *code, uint8_t *reached,
                         const uint8_t *loop_head, uint64_t *budget) {
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
        take_handler_of(code, (uint32_t)i, (uint32_t)d);
        unthread_or_tests(code, loop_head, i, budget);
    }
}

/* Each `if a or b:` whose body is a jump that stays reached (the if does
 * not end the loop body, unthread_ifs): its tests before the last go to
 * that jump again.  Worked example (3.9, stdlib rlcompleter
 * Completer.attr_matches, shortened):
 *
 *     while True:              0  ...
 *         if matches or        4  POP_JUMP_IF_TRUE 18   was 7
 *                not noprefix: 6  POP_JUMP_IF_TRUE 8
 *             break            7  JUMP 18
 *         if noprefix == '_':  8  ...
 *
 * Read as it is, the first test leaves the loop on its own: `if not
 * matches: if not noprefix: break ... continue` / `break`.  Where the
 * last test leads where the body does (`if a and b: continue` ending a
 * loop body, both threaded to the header), the tests stay: each reading
 * runs the same, and ifends.c sends them to the statement's end. */
static void unthread_jump_bodies(upy_ncode *code, const uint8_t *reached,
                                 const uint8_t *loop_head, uint64_t *budget) {
    uint32_t i2;
    for (i2 = 0; i2 + 1 < code->count; i2++) {
        const upy_nin *in = &code->ins[i2], *body = &code->ins[i2 + 1];
        if (in->op == N_POP_JUMP_IF && body->op == N_JUMP && reached[i2] &&
            reached[i2 + 1] && in->target > (int32_t)i2 + 1 &&
            upy_ncode_jump_end(code, in->target) !=
                upy_ncode_jump_end(code, body->target))
            unthread_or_tests(code, loop_head, i2, budget);
    }
}

/* Whether jump j is a written `break` or `continue` ending a body, the
 * compiler's own jump after it unreachable (the jump over an else part):
 * it went where it goes itself, through no other jump. */
static int written_loop_jump(const upy_ncode *code, const uint8_t *reached,
                             uint32_t j) {
    return code->ins[j].op == N_JUMP && j + 1 < code->count &&
           !reached[j + 1] && code->ins[j + 1].op == N_JUMP;
}

/* The loop whose last jump back is b, from its head h: each jump in it
 * from `from` on that leaves it for where its way out w (the jump right after
 * b) leads, a `break` that peephole.c threaded through that jump (to the outer
 * loop's header, say), goes to that jump again, the way out of the loop. Worked
 * example (3.9; inner_break_to_outer_header in
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
 * jump after it is unreachable.  A while loop's test, threaded the same
 * way (`for s in xs: if c: (while t: ...) / else: ...`, its exit sent to
 * the end of the else part), goes back too: read as it is, the while
 * printed as an if (real world rich Segment.split_lines).  A while loop
 * with an else part is left at w, past the else part (while_else_exit),
 * rather than at b + 1.  Where w is a dead `break` in the body
 * (w_in_body, see unthread_breaks), a written break of an inner if's
 * body, which jumps to the loop's exit itself, stays: sent to w, the
 * break read as going to the outer if's else part, and was lost (3.8 /
 * 3.9 markdown FootnoteBlockProcessor.detectTabbed: `while b: if t: ...
 * if f: ...; break / else: ... / else: break`). */
static void unthread_loop_breaks(upy_ncode *code, uint8_t *reached, uint32_t h,
                                 uint32_t from, uint32_t b, uint32_t w,
                                 int w_in_body) {
    int32_t end = upy_ncode_jump_end(code, (int32_t)w);
    uint32_t j;
    for (j = from; j < b; j++) {
        upy_nin *in = &code->ins[j];
        if ((in->op != N_JUMP && in->op != N_POP_JUMP_IF) || !reached[j] ||
            (w_in_body && written_loop_jump(code, reached, j)) ||
            (in->target >= (int32_t)h && in->target <= (int32_t)w) ||
            upy_ncode_jump_end(code, in->target) != end ||
            !same_handler(code, reached, j, w))
            continue;
        in->target = (int32_t)w;
        if (!reached[w]) {
            reached[w] = TAKEN_AGAIN;
            take_handler_of(code, j, w);
        }
    }
}

/* Where the while loop with head h and last jump back e that 3.8-3.9
 * compiler_while tests at the top goes when its test fails: the test's
 * target, right after the loop's last jump back (which may be dead); -1
 * when it has no test (`while True:`). */
static int32_t while_test_target(const upy_ncode *code, uint32_t h,
                                 uint32_t e) {
    uint32_t k, end = upy_ncode_statement_end(code, h);
    for (k = h; k < e && k < end; k++) {
        int32_t t = code->ins[k].target;
        if (code->ins[k].op == N_POP_JUMP_IF && t > (int32_t)e &&
            (uint32_t)t < code->count && code->ins[t - 1].op == N_JUMP &&
            code->ins[t - 1].target == (int32_t)h)
            return t;
    }
    return -1;
}

/* Where the loop with head h and last jump back e goes when done: a for
 * loop to its FOR_ITER's target, a while loop where its test goes
 * (while_test_target); -1 for `while True:`. */
static int32_t loop_exit(const upy_ncode *code, uint32_t h, uint32_t e) {
    int32_t t = code->ins[h].target;
    if (code->ins[h].op != N_FOR_ITER)
        return while_test_target(code, h, e);
    return t > (int32_t)e && (uint32_t)t < code->count ? t : -1;
}

/* The jump that ends the else part of a loop starting at t, where no
 * break goes (all threaded through it): the first jump after t that the
 * else part goes on to, past its inner statements (the furthest that a
 * jump, a loop's exit or a handler before it reaches), no return or raise
 * before it; -1 if none.  (`else: h()` / `continue`: the break went to
 * the `continue`.)  Each instruction walked costs one of *budget. */
static int32_t jump_ending_else(const upy_ncode *code, uint32_t t,
                                uint64_t *budget) {
    int32_t far = (int32_t)t;
    uint32_t x;
    for (x = t; x < code->count; x++) {
        const upy_nin *in = &code->ins[x];
        int loops = in->target >= (int32_t)t && in->target <= (int32_t)x;
        if (!*budget)
            return -1;
        --*budget;
        if (far <= (int32_t)x && in->op == N_JUMP && !loops)
            return (int32_t)x;
        if (far <= (int32_t)x && in->op != N_JUMP && !upy_nin_falls_through(in))
            return -1;
        if (in->target > far)
            far = in->target;
        if (in->handler > far)
            far = in->handler;
    }
    return -1;
}

/* The jump ending the else part of a loop that starts at t, where the
 * loop's jumps to x were threaded through it: a jump before x that ends
 * where x does, which the else part runs into (the jumps in it go no
 * further, but for those that end where x does: the outer loop's
 * breaks); -1 if none.  The code right after the loop was then a jump
 * too, the outer loop's `break` (stdlib textwrap
 * TextWrapper._wrap_chunks, 3.8 / 3.9):
 *
 *     while chunks:               0  ...; POP_JUMP_IF_FALSE 74
 *         ...
 *         while cur_line:        28  ...; POP_JUMP_IF_FALSE 60
 *             if cur_line[-1]:   38  POP_JUMP_IF_FALSE 52
 *                 lines.append(p)
 *                 break          50  JUMP_ABSOLUTE 74  was 70
 *             del cur_line[-1]   58  JUMP_ABSOLUTE 28
 *         else:
 *             lines.append(q)    60  ...
 *         break                  70  JUMP_ABSOLUTE 74
 *     return lines               74
 *
 * Sent to 74, the inner break read as the outer loop's: the outer
 * `break` moved into the else part, and after the inner break the outer
 * loop ran on.  Each instruction walked costs one of *budget. */
static int32_t else_end_threaded_to(const upy_ncode *code, uint32_t t,
                                    int32_t x, uint64_t *budget) {
    int32_t end = upy_ncode_jump_end(code, x), far = (int32_t)t;
    uint32_t k;
    for (k = t; k < (uint32_t)x; k++) {
        const upy_nin *in = &code->ins[k];
        int leaves =
            in->op == N_JUMP && upy_ncode_jump_end(code, (int32_t)k) == end;
        if (!*budget)
            return -1;
        --*budget;
        if (leaves && far <= (int32_t)k)
            return (int32_t)k;
        if (far <= (int32_t)k && !upy_nin_falls_through(in))
            return -1;
        if (!leaves && in->target > far)
            far = in->target;
    }
    return -1;
}

/* Where the breaks of that while loop (or for loop, loop_exit) go when
 * it has an else part: the test (FOR_ITER) goes to the else part at t,
 * laid out before the code after the loop, and a break (unthreaded) goes past
 * it, to the first instruction after t that a jump in the loop goes to, or the
 * jump ending the else part; -1 where t starts with a jump (no else part:
 * unthread_breaks).  Worked example (3.9, stdlib idlelib pyparse
 * Parser._study1; while_else_in_if in tests/constructs/loop_exit_jumps.py):
 *
 *     while i < n:             2  i < n; POP_JUMP_IF_FALSE 67
 *         if ch == 'q':       13  POP_JUMP_IF_FALSE 58
 *             while i < n:    14  i < n; POP_JUMP_IF_FALSE 54
 *                 if w == 0:  33  POP_JUMP_IF_FALSE 14
 *                     if level == 0:
 *                             37  POP_JUMP_IF_FALSE 57  was 42
 *                         g(i)
 *                     break   42  JUMP 2   was JUMP 57
 *                 ...         53  JUMP 14  (dead)
 *             else:
 *                 h()         54  h()
 *             continue        57  JUMP 2
 *
 * The break, threaded through the `continue` after the loop, comes out
 * as a `continue` of the outer loop, and that `continue` moves into the
 * else part: the break is lost.  It goes to 57 again, where 37 goes.  A
 * for loop's break that peephole.c threaded through the end of its else
 * part to the outer loop's header goes back there the same way (stdlib
 * stat.filemode: `for table in t:` / `for bit, char in table:` / `if m:
 * perm.append(char); break` / `else: perm.append("-")`): read as it is,
 * the else part ends in `continue`. */
static int32_t while_else_exit(const upy_ncode *code, const uint8_t *reached,
                               uint32_t h, int32_t t, uint64_t *budget) {
    int32_t x = -1, y;
    uint32_t j;
    if (t < 0 || code->ins[t].op == N_JUMP)
        return -1;
    for (j = h; j + 1 < (uint32_t)t; j++)
        if (reached[j] && code->ins[j].target > t &&
            (x < 0 || code->ins[j].target < x))
            x = code->ins[j].target;
    if (x < 0)
        return jump_ending_else(code, (uint32_t)t, budget);
    y = else_end_threaded_to(code, (uint32_t)t, x, budget);
    return y >= 0 ? y : x;
}

/* The tests of ifs in the body [h, b) of a while loop with an else part,
 * left at w: where a break follows an if's body, the test goes to it
 * again (peephole.c threaded it through the break; in while_else_exit's
 * example 37 goes to 42 again, `if level == 0: g(i)` / `break`).  The
 * break is the first jump to w after the test, where the jumps between
 * go forward no further, or to w (the tests of an inner if whose body
 * ends there too); one walk back from b finds it for each test. */
static void unthread_tests_to_break(upy_ncode *code, const uint8_t *reached,
                                    uint32_t h, uint32_t b, uint32_t w) {
    int32_t brk = -1;
    int clean = 0;
    uint32_t k;
    for (k = b; k-- > h + 1;) {
        upy_nin *in = &code->ins[k];
        if (in->op == N_JUMP && in->target == (int32_t)w) {
            brk = (int32_t)k;
            clean = 1;
            continue;
        }
        if (in->op == N_POP_JUMP_IF && in->target == (int32_t)w && brk >= 0 &&
            clean && reached[k] && code->ins[brk].handler == in->handler) {
            in->target = brk;
            continue;
        }
        if (in->target >= 0 && in->target != (int32_t)w &&
            (in->target <= (int32_t)k || in->target > brk))
            clean = 0;
    }
}

/* The jump right after the else part of the loop whose test (FOR_ITER)
 * goes to t, where compile.c sends the loop's breaks: the else part ends
 * in a jump z (`continue`, or `break`, of an outer loop), and z + 1 is
 * an unreachable jump that goes elsewhere (the outer loop's `break` or
 * jump back), which peephole.c threaded the breaks through; -1 if none.
 * Where the loop has no else part, t is the code after it, and its
 * breaks went to t, not where z + 1 goes. */
static int32_t jump_after_else(const upy_ncode *code, const uint8_t *reached,
                               int32_t t, uint64_t *budget) {
    int32_t z;
    if (t < 0)
        return -1;
    z = code->ins[t].op == N_JUMP ? t
                                  : jump_ending_else(code, (uint32_t)t, budget);
    if (z < 0 || (uint32_t)z + 1 >= code->count ||
        code->ins[z + 1].op != N_JUMP || reached[z + 1] == REACHED ||
        upy_ncode_jump_end(code, z + 1) == upy_ncode_jump_end(code, z))
        return -1;
    return z + 1;
}

/* The loop with head h and last jump back e (reached or not: after a
 * `break` that ends the body it is dead): each break that peephole.c
 * threaded through the jump after its else part (jump_after_else) goes
 * to that jump again.  Worked example (3.8, holdout 11 xmlschema
 * XsdGroup.iter_decode; break_after_for_else_continue in
 * tests/constructs/loop_else_continue_then_break.py; offsets):
 *
 *     while items:             4  POP_JUMP_IF_FALSE 66
 *         x = items.pop()
 *         if x is None:       22  POP_JUMP_IF_FALSE 52
 *             for e in extra: 28  FOR_ITER 48
 *                 out.append(e)
 *                 break       42  POP_TOP; 44 JUMP 66   was JUMP 50
 *             else:           46  JUMP 28   (dead)
 *                 continue    48  JUMP 4
 *             break           50  JUMP 66   (dead)
 *         out.append(x)       52  ...
 *         break
 *     return out              66
 *
 * Read as it is, the break left both loops from inside the for loop: the
 * outer `break` was lost, and after the inner break `out.append(x)` ran.
 * A while loop's breaks (`while i < n: ... / else: continue` + `break`)
 * and those of a longer else part (`else: log(); continue`) read alike. */
static void unthread_breaks_past_else(upy_ncode *code, uint8_t *reached,
                                      uint32_t h, int32_t e, uint64_t *budget) {
    int32_t t = e < 0 ? -1 : loop_exit(code, h, (uint32_t)e), w;
    w = jump_after_else(code, reached, t, budget);
    if (w >= 0)
        unthread_loop_breaks(code, reached, h, h + 1, (uint32_t)t, (uint32_t)w,
                             0);
}

/* Each loop: the last jump back to its head, where a jump follows.  When
 * a dead jump back to the head comes later (last_dead), that jump is in
 * the body, a dead `break` that peephole.c threaded the test before it
 * through, and the loop's own test stays where it goes: a body ending in
 * `if d: x = 3` / `else: break` (3.9):
 *
 *     4  LOAD scan_pos ...; POP_JUMP_IF_FALSE 70   <- the loop's test
 *        ...
 *    58  POP_JUMP_IF_FALSE 70; x = 3; 64 JUMP_ABSOLUTE 4
 *    66  JUMP_ABSOLUTE 70                          <- the dead break
 *    68  JUMP_ABSOLUTE 4                           <- the body's dead end
 *    70  ...
 *
 * Drawn to the break too, the test made it the loop's exit, and the
 * `else: break` printed as nothing: the loop ran on where the source left
 * it (real world werkzeug http.parse_options_header, 3.8 / 3.9). */
static unpyc_status unthread_breaks(upy_ncode *code, uint8_t *reached,
                                    upy_arena *arena, uint64_t *budget,
                                    unpyc_error *err) {
    int32_t *last_back = upy_arena_array(arena, code->count, sizeof *last_back);
    int32_t *last_dead = upy_arena_array(arena, code->count, sizeof *last_dead);
    uint32_t b;
    if (!last_back || !last_dead)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (b = 0; b < code->count; b++)
        last_back[b] = last_dead[b] = -1;
    for (b = 0; b < code->count; b++)
        if (code->ins[b].op == N_JUMP && code->ins[b].target >= 0 &&
            code->ins[b].target < (int32_t)b)
            (reached[b] ? last_back : last_dead)[code->ins[b].target] =
                (int32_t)b;
    for (b = 0; b < code->count; b++) {
        int32_t e = last_back[b], t, x;
        if (e < 0)
            continue;
        t = loop_exit(code, b, (uint32_t)e);
        x = while_else_exit(code, reached, b, t, budget);
        if (x >= 0) {
            unthread_loop_breaks(code, reached, b, b + 1, (uint32_t)t - 1,
                                 (uint32_t)x, 0);
            unthread_tests_to_break(code, reached, b, (uint32_t)t - 1,
                                    (uint32_t)x);
        } else if ((uint32_t)e + 1 < code->count &&
                   code->ins[e + 1].op == N_JUMP)
            unthread_loop_breaks(
                code, reached, b,
                last_dead[b] > e ? upy_ncode_statement_end(code, b) : b + 1,
                (uint32_t)e, (uint32_t)e + 1, last_dead[b] > e);
    }
    for (b = 0; b < code->count; b++)
        unthread_breaks_past_else(
            code, reached, b,
            last_back[b] > last_dead[b] ? last_back[b] : last_dead[b], budget);
    return UNPYC_OK;
}

/* Where the while loop with head h, whose body's jump back is e (the last
 * jump to h, reached or not: after an `else: break` ending the body it is
 * dead), had its test fail to, when peephole.c threaded the test through
 * the jump there to an outer loop's header: that jump, which the test
 * alone reached, with a line of its own (a written `else: continue`; the
 * outer loop's jump back after a while loop that ends its body has the
 * line of the loop's last statement, and whiletest.c reads it so).  -1
 * when there is none.  compile.c compiler_while puts the code the test
 * fails to, the else part or what follows the loop, right after e. */
static int32_t while_else_continue(const upy_ncode *code,
                                   const uint8_t *reached, uint32_t h,
                                   uint32_t e) {
    const upy_nin *a = e + 1 < code->count ? &code->ins[e + 1] : NULL;
    if (!a || a->op != N_JUMP || reached[e + 1] || a->target < 0 ||
        a->target >= (int32_t)h || a->line == code->ins[e].line)
        return -1;
    return (int32_t)e + 1;
}

/* The tests of each while loop that goes to an outer loop's header
 * through its else part's `continue` (while_else_continue) go to that
 * `continue` again.  Worked example (3.8, websocket-client
 * _http._open_socket; retry_while_not_err in
 * tests/constructs/while_else_continue_retry.py, shortened):
 *
 *     for host in hosts:          4  FOR_ITER 43
 *         err = None
 *         while not err:          8  LOAD err; 9 POP_JUMP_IF_TRUE 4
 *             try:                                  was -> 39
 *                 connect(host)  14  JUMP 37   (the try body's way out)
 *             except OSError as error:
 *                 err = error
 *                 continue       26  JUMP 8
 *             else:
 *                 break          37  JUMP 40;  38 JUMP 8 (dead)
 *         else:
 *             continue           39  JUMP 4    (dead)
 *         break                  40  POP_TOP; JUMP 47
 *
 * Read as it is, the test failing left no loop: `while True: if not
 * err: ...`, which never ends once err is set. */
static void unthread_while_tests(upy_ncode *code, uint8_t *reached,
                                 const int32_t *last_jump_to) {
    uint32_t h, k;
    for (h = 0; h < code->count; h++) {
        int32_t e = last_jump_to[h], a, end;
        if (e < 0 ||
            (a = while_else_continue(code, reached, h, (uint32_t)e)) < 0)
            continue;
        end = upy_ncode_jump_end(code, a);
        for (k = h; k < (uint32_t)e && !upy_nin_ends_statement(&code->ins[k]);
             k++) {
            upy_nin *in = &code->ins[k];
            if (in->op != N_POP_JUMP_IF ||
                upy_ncode_jump_end(code, in->target) != end)
                continue;
            in->target = a;
            if (reached[a] != REACHED) {
                reached[a] = TAKEN_AGAIN;
                take_handler_of(code, k, (uint32_t)a);
            }
        }
    }
}

/* Points the jump at j, the end of a chained comparison's cleanup in a
 * condition, where peephole.c pointed the comparison's last test, which
 * compile.c (compiler_jump_if) sent to the same place: the jump that
 * place holds, where the cleanup's jump still goes.  peephole.c threads
 * both alike, but leaves a jump whose new argument needs more room than
 * the old one (copy_op_arg): the cleanup's JUMP_FORWARD, of a small
 * argument, to a loop header past offset 255 in a long function.  Read
 * as it is, the condition fails two ways, one of them a `continue`;
 * threaded, it reads as in a short function, and the passes below undo
 * the threading where it left the jump threaded through unreachable (the
 * end of a loop body after a `break`, pytz tzfile.build_tzinfo).  Worked
 * example (3.8, networkx triadic_census, in `for w in ns:` at
 * offset 484):
 *
 *     if a or (b < w < c     251  POP_JUMP_IF_FALSE 256
 *                            254  POP_JUMP_IF_FALSE 242   was 264
 *                            255  JUMP 258
 *                            256  POP_TOP
 *                            257  JUMP 264    (the one left)
 *              and e):       259  POP_JUMP_IF_FALSE 242   was 264
 *         g(w)               ...
 *                            264  JUMP 242
 */
static void thread_chain_cleanup(upy_ncode *code, uint32_t j) {
    const upy_nin *test;
    int32_t t = code->ins[j].target;
    if (code->ins[j].op != N_JUMP || j < 3 || t < 0 ||
        code->ins[j - 1].op != N_POP_TOP || code->ins[j - 2].op != N_JUMP ||
        code->ins[j - 2].target != (int32_t)j + 1)
        return;
    test = &code->ins[j - 3];
    if (test->op == N_POP_JUMP_IF && test->target != t &&
        test->handler == code->ins[j].handler &&
        upy_ncode_jump_end(code, t) == test->target)
        code->ins[j].target = test->target;
}

unpyc_status upy_normalize_unthread(upy_ncode *code, upy_arena *arena,
                                    unpyc_error *err) {
    uint8_t *reached = upy_arena_array(arena, code->count + 1, 1);
    uint8_t *loop_head = upy_arena_array(arena, code->count + 1, 1);
    uint32_t *work = upy_arena_array(arena, code->count + 1, sizeof *work);
    int32_t *last_jump_to =
        upy_arena_array(arena, code->count + 1, sizeof *last_jump_to);
    unpyc_status st;
    uint64_t budget = ELSE_EXIT_BUDGET;
    uint32_t j;
    if (!reached || !loop_head || !work || !last_jump_to)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if (!code->count)
        return UNPYC_OK;
    for (j = 0; j < code->count; j++)
        thread_chain_cleanup(code, j);
    upy_ncode_mark_reached(code, reached, work);
    for (j = 0; j < code->count; j++)
        last_jump_to[j] = -1;
    for (j = 0; j < code->count; j++)
        if (code->ins[j].target >= 0 && code->ins[j].target <= (int32_t)j) {
            loop_head[code->ins[j].target] = 1;
            if (code->ins[j].op == N_JUMP)
                last_jump_to[code->ins[j].target] = (int32_t)j;
        }
    unthread_while_tests(code, reached, last_jump_to);
    for (j = 0; j < code->count; j++) {
        int32_t d;
        if (!ends_try_part(code, reached, j))
            continue;
        d = threaded_through(code, reached, j);
        if (d < 0)
            d = end_after_bare_except(code, reached, j, &budget);
        if (d < 0 && body_goes_over_handler(code, reached, j, &budget))
            d = upy_else_end_threaded_through(
                code, reached, j, after_clauses(code, reached, j), &budget);
        if (d >= 0) {
            code->ins[j].target = d;
            if (reached[d] != REACHED) {
                reached[d] = TAKEN_AGAIN;
                take_handler_of(code, j, (uint32_t)d);
            }
        }
    }
    /* An if's test threaded through a loop's jump back gives that loop
     * its last jump back again, and a break unthreaded can end the body of
     * an if around the loop again (inner_while_or_break in
     * tests/constructs/loop_if_threaded.py): ifs, loops, then ifs. */
    unthread_ifs(code, reached, loop_head, &budget);
    st = unthread_breaks(code, reached, arena, &budget, err);
    if (st == UNPYC_OK) {
        unthread_ifs(code, reached, loop_head, &budget);
        unthread_jump_bodies(code, reached, loop_head, &budget);
    }
    return st;
}
