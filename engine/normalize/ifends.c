/*
 * ifends.c - undoing 3.8-3.9's threading of the jumps to the end of a
 * statement that ends a loop body, where the jump there stays reached.
 *
 * compile.c ends the body of an if that has an else part with a jump to
 * the end of the statement, sends the test of an if without one there,
 * and ends a try body or an except clause with a jump to the end of its
 * try.  Where the statement ends a loop body, its end is the loop's jump
 * back (or the jump over the else part of an if that ends the loop body,
 * itself a jump to the loop's end), and peephole.c (PyCode_Optimize,
 * "Replace jumps to unconditional jumps") points those jumps at the loop's
 * header, or at the jump that the jump there goes to.  The last branch
 * falls into the jump at the end, so it stays: unthread.c, which undoes
 * the threading through jumps left unreachable, does not see it.  Read as
 * it is, a branch that jumps to the header reads as one that ends in
 * `continue`, which compiles to a jump of its own.  Worked example (3.9,
 * stdlib distutils/ccompiler.py gen_lib_options, shortened):
 *
 *     for lib in libs:      2  FOR_ITER 24
 *         if d:             5  POP_JUMP_IF_FALSE 19
 *             if f:         8  POP_JUMP_IF_FALSE 13
 *                 a(f)     12  JUMP 2    was JUMP 18
 *             else:
 *                 w(lib)   17  POP_TOP
 *                          18  JUMP 2    was JUMP 23 (the outer if's end)
 *         else:
 *             o(lib)       22  POP_TOP
 *                          23  JUMP 2    (end of the loop body)
 *
 * Each such jump goes to the jump that ends its statement again, as
 * compile.c made it: the first jump after it that all code between (the
 * else part, the if body, the other clauses and their handlers) jumps
 * around, when it leads where the jump does, with the line of the code
 * before it (a `continue` of the source has a line of its own).
 *
 * The test of an if followed by a `continue` or `break` statement (its
 * own line) is threaded through that jump the same way, the jump staying
 * reached from the if's body: the test goes to it again
 * (jump_after_if).
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Instructions the pass may visit: each jump's statement is walked to
 * its end, which crafted code of many branches in one long loop body
 * would make quadratic.  Past the budget the jumps are left as they are. */
enum { IFENDS_BUDGET = 1 << 24 };

/* What the pass reads of the code as it came: see find_entries_and_loops,
 * upy_ncode_mark_reached. */
typedef struct ends_tables {
    const uint8_t *entered, *reached;
    const int32_t *last_back;
    uint64_t budget;
} ends_tables;

/* Marks in entered[] the instructions a test (POP_JUMP_IF) goes to and
 * the handlers' first ones, and in last_back[h] the last jump back to
 * each instruction h, -1 if none. */
static void find_entries_and_loops(const upy_ncode *code, uint8_t *entered,
                                   int32_t *last_back) {
    uint32_t j;
    for (j = 0; j < code->count; j++)
        last_back[j] = -1;
    for (j = 0; j < code->count; j++) {
        const upy_nin *in = &code->ins[j];
        if (in->handler >= 0 && (uint32_t)in->handler < code->count)
            entered[in->handler] = 1;
        if (in->target < 0 || (uint32_t)in->target >= code->count)
            continue;
        if (in->op == N_POP_JUMP_IF)
            entered[in->target] = 1;
        if (in->op == N_JUMP && in->target < (int32_t)j &&
            !upy_ncode_past_inner_while(code, j, (uint32_t)in->target))
            last_back[in->target] = (int32_t)j;
    }
}

/* Whether an instruction of the block stack's unwinding, which a
 * `continue` inside a try or a with makes before its jump (compile.c
 * compiler_unwind_fblock: POP_EXCEPT, the name's cleanup, the __exit__
 * call), can be op. */
static int unwinds(uint16_t op) {
    return op == N_POP_EXCEPT || op == N_LOAD_CONST || op == N_STORE ||
           op == N_DELETE || op == N_POP_TOP || op == N_CALL || op == N_COPY;
}

/* Whether jump j has the line of the code before it, past the unwinding
 * of the blocks it leaves: compile.c's jump at the end of a branch has
 * the line of the branch's last statement, a `continue` (and the
 * unwinding it makes) a line of its own. */
static int line_of_code_before(const upy_ncode *code, uint32_t j) {
    uint32_t k = j - 1;
    while (k > 0 && unwinds(code->ins[k].op) &&
           code->ins[k].line == code->ins[j].line)
        k--;
    return code->ins[k].line == code->ins[j].line;
}

/* Whether jump j starts a way out of a branch that peephole.c may have
 * threaded: an if's test, or a jump with the line of the code before it
 * (no `continue` of the source) right before the code that a test
 * (`else:`, the next clause) or a handler (of the try body, clause or
 * with body that the jump leaves) goes to, or before the name's cleanup of
 * `except E as name:` (see unthread.c). */
static int leaves_branch(const upy_ncode *code, const uint8_t *entered,
                         uint32_t j) {
    const upy_nin *in = &code->ins[j];
    if (in->op == N_POP_JUMP_IF)
        return j < 1 || code->ins[j - 1].op != N_EXC_MATCH;
    if (in->op != N_JUMP || j < 2 || j + 1 >= code->count ||
        code->ins[j - 1].op == N_POP_JUMP_IF || !line_of_code_before(code, j))
        return 0;
    return entered[j + 1] ||
           upy_nin_is_name_cleanup(&code->ins[j + 1], code->count - j - 1);
}

/* Whether the condition that tests at j holds a conditional expression:
 * a jump between the statement's start and its end, where its tests go
 * to the expression's parts (stdlib dataclasses _hash_add: `[f for f in
 * fs if (f.compare if f.hash is None else f.hash)]`).  The jumps the
 * statement starts with, after a statement that no test enters, end the
 * branch before it (the if body before an `elif`): an expression's jump
 * follows the value of its first part, or a chained comparison's cleanup
 * (POP_TOP), which its test enters. */
static int holds_ifexp(const upy_ncode *code, const uint8_t *entered,
                       uint32_t j) {
    uint32_t k = upy_ncode_statement_start(code, j);
    uint32_t end = upy_ncode_statement_end(code, j + 1);
    while (k < j && code->ins[k].op == N_JUMP && (k == 0 || !entered[k - 1]))
        k++;
    for (; k < end; k++)
        if (code->ins[k].op == N_JUMP || code->ins[k].op == N_JUMP_IF_OR_POP)
            return 1;
    return 0;
}

/* The next test of the condition that tests at j (`if a and b:`, j at
 * a): a test before the next statement ends; -1 when j is the last. */
static int32_t next_test(const upy_ncode *code, uint32_t j) {
    uint32_t k, end = upy_ncode_statement_end(code, j + 1);
    for (k = j + 1; k < end; k++)
        if (code->ins[k].op == N_POP_JUMP_IF)
            return (int32_t)k;
    return -1;
}

/* Whether x, a jump target or handler of code between j and the
 * candidate end, goes past that end within the loop (ending at its last
 * jump back `last`), to another handler than j's: then the statement goes
 * on past the candidate.  (A jump out of the loop is a `break`, one back
 * to its header a `continue`; the jumps of inner branches, undone first,
 * go to their statements' ends.) */
static int goes_on_past(const upy_ncode *code, uint32_t j, int32_t x,
                        uint32_t last) {
    return x > (int32_t)j && x <= (int32_t)last && x != code->ins[j].handler;
}

/* Whether jump k, which nothing reaches, is the jump over an else part
 * that 3.8-3.9 keep after an if body ending in raise, break or continue
 * (peephole.c drops unreachable code after a RETURN_VALUE only;
 * upy_layout.keeps_jump_after_exit). */
static int dead_jump_over_else(const upy_ncode *code, const uint8_t *reached,
                               uint32_t k) {
    return !reached[k] && k > 0 && code->ins[k].op == N_JUMP &&
           !upy_nin_falls_through(&code->ins[k - 1]) &&
           code->ins[k - 1].op != N_RETURN;
}

/* Whether jump k, the first after j that all code between jumps around,
 * is a `continue` of the source (a line of its own) to the header h that
 * ends the if body after j, the if's else part after it (no test goes to
 * it: it is no `else: continue`): 3.8-3.9 keep the jump over that else
 * part, unreachable (dead_jump_over_else), so the `continue` is no end of
 * the loop body, and the statement j leaves ends at it.  Worked example
 * (3.8, holdout toml decoder._unescape, in `while i < len(v):`):
 *
 *     if escaped:            22  POP_JUMP_IF_FALSE 116
 *         if v[i] == 'n':    38  POP_JUMP_IF_FALSE 78
 *             v = ...        76  JUMP 8    was JUMP 112
 *         elif v[i] == 'u':  88  POP_JUMP_IF_FALSE 100
 *             i += 1         98  JUMP 8    was JUMP 112
 *         else:
 *             raise ...     110  RAISE
 *         continue          112  JUMP 8    (unreachable)
 *     elif v[i] == '\\':   114  JUMP 132  (over the elif, unreachable)
 *         escaped = True    116  ...
 *     i += 1                132  ...
 *
 * Read as it is, the inner if's branches go round the loop from where
 * they end, and the output ran `i += 1` after them.  The jump j ends a
 * branch that an else part follows; a test that goes to h is left alone:
 * `if c: f()` / `continue` and `if c: f(); continue` in an if body that
 * ends the loop body compile alike (lib2to3 fix_isinstance). */
static int continue_before_else(const upy_ncode *code, const ends_tables *tb,
                                uint32_t k, uint32_t h) {
    return k + 1 < code->count && !tb->entered[k] &&
           upy_ncode_jump_end(code, (int32_t)k) == (int32_t)h &&
           !line_of_code_before(code, k) &&
           dead_jump_over_else(code, tb->reached, k + 1);
}

/* Whether jump k, the first after j that all code between jumps around,
 * is a `continue` of the source (a line of its own) that ends the else
 * part or the if body after j, the statement's end right after it: a
 * jump to the header h with its line, which nothing reaches (its
 * statement's way out, past the `continue`).  Worked example (3.9,
 * `for x in b:` / `if c: f()` / `else: continue`):
 *
 *     if c:         5  POP_JUMP_IF_FALSE 10
 *         f()       9  JUMP 2    was JUMP 11
 *     else:
 *         continue 10  JUMP 2
 *                  11  JUMP 2    (end of the body, unreachable)
 */
static int continue_ends_part(const upy_ncode *code, const uint8_t *reached,
                              uint32_t k, uint32_t h) {
    const upy_nin *end = &code->ins[k + 1];
    return k + 1 < code->count &&
           upy_ncode_jump_end(code, (int32_t)k) == (int32_t)h &&
           !line_of_code_before(code, k) && !reached[k + 1] &&
           end->op == N_JUMP && end->target == (int32_t)h &&
           end->line == code->ins[k].line;
}

/* Whether jump k, the first after j that all code between jumps around,
 * is a `continue` of the source (a line of its own) to the header h that
 * follows the statement j leaves, with reached code that is no jump right
 * after it: compile.c's jump to an end past the `continue` would go to
 * that code, which peephole.c leaves as it is, so j went to the
 * `continue`.  Worked example (3.8, sympy function.count_ops, in `while
 * args:`):
 *
 *     elif a.is_Add:
 *         if a.n == 1:    22  POP_JUMP_IF_FALSE 29
 *             f(2)        28  JUMP 0    was JUMP 37
 *         elif a.neg:     31  POP_JUMP_IF_FALSE 0   was 37
 *             f(3)        36  POP_TOP
 *         continue        37  JUMP 0
 *     if a.is_Pow:        38  ...
 */
static int continue_after_statement(const upy_ncode *code,
                                    const uint8_t *reached, uint32_t k,
                                    uint32_t h) {
    return k + 1 < code->count &&
           upy_ncode_jump_end(code, (int32_t)k) == (int32_t)h &&
           !line_of_code_before(code, k) && reached[k] && reached[k + 1] &&
           code->ins[k + 1].op != N_JUMP;
}

/* The jump that ends the statement whose branch jump j leaves for the
 * loop header h, in the loop body that ends at `last`: the first jump
 * between that all else between jumps around, if it leads to h with the
 * line of the code before it.  -1 when there is none: the jump over an
 * else part (j is the if's test, which goes to the else part: one that
 * starts with a `continue` is threaded through it), a `continue` or
 * `break` of the source (but a `continue` that ends the part before the
 * loop's last jump back, continue_ends_part, one that reached code
 * follows, continue_after_statement, and one before an else part,
 * continue_before_else); or
 * when that jump has another handler (the way out of a try body: j ends an
 * if in it, and goes there already) or is unreachable: unthread.c undoes
 * the threading through those where it can tell the shape, and blocks.c
 * gives them no handler (the end of a loop body in a with body, after an
 * else part that raises, runs under the with).  The loop's last jump back
 * ends the body unreachable where every branch before leaves (stdlib 3.9
 * base64.a85decode: `elif x in ignorechars: continue` / `else: raise`), and
 * under no handler ends the statement still. */
static int32_t statement_end(const upy_ncode *code, ends_tables *tb, uint32_t j,
                             uint32_t h, uint32_t last) {
    const uint8_t *reached = tb->reached;
    int32_t far = -1;
    uint32_t k;
    for (k = j + 1; k <= last; k++) {
        const upy_nin *in = &code->ins[k];
        if (!tb->budget)
            return -1;
        --tb->budget;
        if (in->op == N_JUMP && far <= (int32_t)k &&
            continue_ends_part(code, reached, k, h) && k + 1 == last)
            return (int32_t)k + 1;
        if (in->op == N_JUMP && far <= (int32_t)k &&
            code->ins[j].op == N_JUMP && continue_before_else(code, tb, k, h) &&
            in->handler == code->ins[j].handler)
            return (int32_t)k;
        if (in->op == N_JUMP && far <= (int32_t)k &&
            continue_after_statement(code, reached, k, h) &&
            in->handler == code->ins[j].handler)
            return (int32_t)k;
        if (in->op == N_JUMP && far <= (int32_t)k)
            return upy_ncode_jump_end(code, (int32_t)k) == (int32_t)h &&
                           in->line == code->ins[k - 1].line &&
                           in->handler == code->ins[j].handler &&
                           (reached[k] || k == last)
                       ? (int32_t)k
                       : -1;
        if (in->target >= 0 && goes_on_past(code, j, in->target, last) &&
            in->target > far)
            far = in->target;
        if (in->handler >= 0 && goes_on_past(code, j, in->handler, last) &&
            in->handler > far)
            far = in->handler;
    }
    return -1;
}

/* The other tests of the condition whose last test, at j, goes to d
 * again: those threaded to h went there with it (`if a and b:`; where
 * a test of `if a or b:` goes to a body that starts with `continue`, it
 * is threaded to h too, and then goes to d: it runs the same).  A test
 * of the condition goes to one of its operands, its body (j + 1) or
 * where j goes; one before that goes elsewhere past j ends the
 * condition: the tests before it are those of an if around (stdlib
 * zipfile PyZipFile.writepy: `elif ext == ".py":` / `if f and not
 * f(path):` / `if self.debug: print(...)` / `continue` / ...). */
static void unthread_condition(upy_ncode *code, uint32_t j, int32_t h,
                               int32_t d) {
    uint32_t k = j, start = upy_ncode_statement_start(code, j);
    while (k-- > start) {
        int32_t t = code->ins[k].target;
        if (code->ins[k].op != N_POP_JUMP_IF)
            continue;
        if (upy_ncode_jump_end(code, t) == h)
            code->ins[k].target = d;
        else if (t > (int32_t)j + 1 && t != d)
            return;
    }
}

/* Whether jump j lies after an inner for loop of the loop at h (its else
 * part) whose body jumps to h: a `break` that peephole.c threaded through
 * the end of the for / else statement, which stays as it is; then j's
 * jump stays too (real world networkx ismags: `while q: for ...: break
 * / else: ... if c: x`). */
static int after_threaded_break(const upy_ncode *code, uint32_t j, int32_t h,
                                uint64_t *budget) {
    uint32_t k, i;
    for (k = (uint32_t)h + 1; k < j; k++) {
        int32_t exit = code->ins[k].target;
        if (code->ins[k].op != N_FOR_ITER || exit <= (int32_t)k ||
            exit > (int32_t)j)
            continue;
        if (*budget < (uint32_t)exit - k)
            return 1;
        *budget -= (uint32_t)exit - k;
        for (i = k + 1; i < (uint32_t)exit; i++)
            if (code->ins[i].op == N_JUMP && code->ins[i].target == h)
                return 1;
    }
    return 0;
}

/* Points jump j back at the jump that ends its statement, where
 * peephole.c threaded it; a test, the last of its condition, with the
 * others (unthread_condition). */
static void unthread_end(upy_ncode *code, ends_tables *tb, uint32_t j) {
    int32_t t = code->ins[j].target, h, d;
    if (t < 0 || (uint32_t)t >= code->count ||
        (!tb->reached[j] && !dead_jump_over_else(code, tb->reached, j)) ||
        !leaves_branch(code, tb->entered, j))
        return;
    if (code->ins[j].op == N_POP_JUMP_IF &&
        (next_test(code, j) >= 0 || holds_ifexp(code, tb->entered, j)))
        return;
    h = upy_ncode_jump_end(code, t);
    if (h < 0 || h >= (int32_t)j || tb->last_back[h] <= (int32_t)j ||
        after_threaded_break(code, j, h, &tb->budget))
        return;
    d = statement_end(code, tb, j, (uint32_t)h, (uint32_t)tb->last_back[h]);
    if (d < 0 || (t >= (int32_t)j && t <= d + 1))
        return;
    code->ins[j].target = d;
    if (code->ins[j].op == N_POP_JUMP_IF)
        unthread_condition(code, j, h, d);
}

/* The `continue` or `break` right after the if whose last test, at j,
 * peephole.c threaded through it: the first jump after j that the code
 * between (the if's body, which falls into it) does not reach past, a
 * statement of its own (no line_of_code_before) that goes where j goes,
 * back to the header or on past itself (a jump back past j's own target
 * goes back to a loop after the if); -1 if none.  A for loop in the code
 * between reaches past its jumps even where its exit is where j goes: a
 * `break` that ends its body, its jump back unreachable, lies in it.
 * So does a while loop whose header lies between and whose last jump
 * back (last_back, unreachable ones too) comes after the jump: a `break`
 * ending an elif branch of its body, the branches after it leaving too
 * (holdout pyflakes checker.ExportBinding.__init__; while_last_in_elif in
 * tests/constructs/loops_3839_breaks.py).  Taken for the jump after the
 * if that holds the loop, its test went there, and the loop's only
 * reached jump back read as a jump out of it: the loop ran once.
 * A jump to the instruction right after it is neither: the jump over an
 * empty else part (upy_layout.keeps_jump_to_next) after an if body that
 * ends in a `pass`, whose line the jump has (`if c: f()` / `pass` /
 * `else: pass`).  Read as it is, the test leaves on its own: `if not c:
 * continue` / body / `continue`.  Worked example (3.9, stdlib lib2to3
 * pgen2/driver.py Driver.parse_tokens, shortened):
 *
 *     for quintuple in proxy:         8  FOR_ITER 60
 *         if type in (COMMENT, NL):     ...
 *             if value.endswith('\n'): 30  POP_JUMP_IF_FALSE 8   was 38
 *                 lineno += 1           ...
 *                 column = 0        37  STORE column
 *             continue              38  JUMP 8
 */
static int32_t jump_after_if(const upy_ncode *code, const ends_tables *tb,
                             uint32_t j, uint64_t *budget) {
    const uint8_t *reached = tb->reached;
    int32_t t = code->ins[j].target, far = (int32_t)j, loop_end = -1;
    uint32_t k;
    for (k = j + 1; k < code->count; k++) {
        const upy_nin *in = &code->ins[k];
        if (!*budget)
            return -1;
        --*budget;
        if (tb->last_back[k] > loop_end)
            loop_end = tb->last_back[k];
        if (in->op == N_JUMP && far <= (int32_t)k)
            return k > j + 1 && in->target == t && loop_end < (int32_t)k &&
                           (t < (int32_t)j || (int32_t)k + 1 < t) &&
                           reached[k] &&
                           upy_nin_falls_through(&code->ins[k - 1]) &&
                           in->handler == code->ins[j].handler &&
                           !line_of_code_before(code, k)
                       ? (int32_t)k
                       : -1;
        if (in->target > far && (in->target != t || in->op == N_FOR_ITER))
            far = in->target;
        if (in->handler > far && in->handler != code->ins[j].handler)
            far = in->handler;
    }
    return -1;
}

/* Points the test at j, the last of its condition, back at the
 * `continue` or `break` after its if (jump_after_if), with the other
 * tests of the condition that went there. */
static void unthread_to_jump_after(upy_ncode *code, ends_tables *tb,
                                   uint32_t j) {
    int32_t t = code->ins[j].target, d;
    if (code->ins[j].op != N_POP_JUMP_IF || t < 0 || t == (int32_t)j + 1 ||
        (uint32_t)t >= code->count || !tb->reached[j] ||
        (j > 0 && code->ins[j - 1].op == N_EXC_MATCH) ||
        next_test(code, j) >= 0 || holds_ifexp(code, tb->entered, j) ||
        upy_ncode_may_test_while(code, j, &tb->budget))
        return;
    d = jump_after_if(code, tb, j, &tb->budget);
    if (d < 0)
        return;
    code->ins[j].target = d;
    unthread_condition(code, j, upy_ncode_jump_end(code, t), d);
}

unpyc_status upy_normalize_unthread_ends(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err) {
    uint32_t n = code->count + 1, j;
    int32_t *last_back = upy_arena_array(arena, n, sizeof *last_back);
    uint8_t *entered = upy_arena_array(arena, n, 1);
    uint8_t *reached = upy_arena_array(arena, n, 1);
    uint32_t *work = upy_arena_array(arena, n, sizeof *work);
    ends_tables tb = {entered, reached, last_back, IFENDS_BUDGET};
    if (!last_back || !entered || !reached || !work)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if (!code->count)
        return UNPYC_OK;
    find_entries_and_loops(code, entered, last_back);
    upy_ncode_mark_reached(code, reached, work);
    /* Inner statements first: their jumps then go to their ends, inside
     * the outer statement's parts. */
    for (j = code->count; j-- > 0;) {
        unthread_to_jump_after(code, &tb, j);
        unthread_end(code, &tb, j);
    }
    return UNPYC_OK;
}
