/*
 * coldblocks.c - unpush_cold_blocks: an except clause that ends a loop's
 * body, or that breaks out of a `while True:`, put back in line where
 * 3.12+ laid it out after all other code (the second shape: see
 * clause_moves).
 *
 * 3.12's flowgraph.c push_cold_blocks_to_end marks cold the blocks that
 * only an exception reaches (mark_cold: from the handlers, through jumps
 * and fall-through, never entering a block reached from the entry
 * without an exception, mark_warm) and moves each streak of cold blocks,
 * in order, after all other code; a cold block that fell into a warm one
 * gets a jump to it, and remove_redundant_jumps turns a jump to the block
 * now laid out right after it into a NOP, kept for its line.  Where a
 * try's body and else part never reach its join (they end in a break,
 * return, raise or continue), the join is cold too, and with it the code
 * after the try up to the next warm block: in a loop whose body the try
 * ends, the loop's jump back.  The break that ended the else part jumped
 * over the handler to the code after the loop, which now lies right after
 * it: the jump is a NOP, and the loop's only way back lies after all
 * other code.  Worked example (3.12; tests/constructs
 * cold_clause_ends_loop.py else_break):
 *
 *     while True:              L:  NOP
 *         try:                     g()                 (handler H)
 *             g()                  NOP, line of break  (was JUMP W)
 *         except OSError:      W:  h()
 *             h()                  ...; return 1
 *         else:                H:  PUSH_EXC_INFO; match OSError; h()
 *             break                POP_EXCEPT; JUMP_FORWARD J
 *     h()                          (the cleanups: RERAISE ...)
 *     return 1                 J:  JUMP L
 *
 * Read as it falls, the loop's body runs into h() and the code after the
 * loop, and the region that is the loop goes on past it (recover marks
 * it).  This pass lays it out as 3.11 does: the NOP becomes the jump to W
 * again and the streak [H, J] goes between that jump and W:
 *
 *     L: NOP; g(); JUMP W; H: ...; J: JUMP L; W: h(); ...
 *
 * A streak is moved back only where its place is sure (else the code stays
 * as it is): it starts at a handler H of warm code, has code of its own
 * only (no jump from outside it enters it, no handler of code outside it
 * is in it but H, nothing falls into H, no with's handler is in it) and
 * ends, at the first point past which none of its jumps goes, in a jump
 * back to a warm instruction L at or before the try body H protects (the
 * loop's header: the try is in the loop).  Its place is the end of the
 * try's else part: the straight code (no jump in or out) that follows the
 * last instruction H protects, under the handler the streak's jump back
 * is under (the try's own), up to the first instruction W that one NOP
 * came before (the break's; normalize.c lead_nops), which becomes the
 * jump to W.  W must be on a line after all of the streak's (but its
 * jump back's, on the loop's line): code the source wrote after the try,
 * not the with's exit a break runs on its way out of the loop.  A streak
 * with a copy in the cold code (a finally body's, the copy an exception
 * runs) stays, as the copy does.  The order of what runs does not
 * change: the jump before the streak and the jump it ends in leave it, H
 * is entered by its handler edges only, and each instruction keeps its
 * handler; jump targets and handlers are renumbered.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Instructions the pass may visit: each streak scans the code once.  Past
 * the budget the remaining streaks stay where they are. */
enum { COLD_BLOCKS_BUDGET = 1 << 26 };

#define NONE UINT32_MAX

/* What goes before a moved streak: the break's jump, made of the NOP
 * before `before`; the try body's jump over its clause; nothing (the
 * code before does not fall through). */
typedef enum cold_jump { BREAK_JUMP, BODY_JUMP, NO_JUMP } cold_jump;

/* Where a streak goes: [from, to] moves before instruction `before`,
 * after `jump`; a break's jump goes under the handler of the streak's
 * jump back to the loop's header, instruction `back`. */
typedef struct cold_move {
    uint32_t from, to, before;
    cold_jump jump;
    uint32_t back;
    /* With a break's jump: the try body's breaks, the jumps from
     * [breaks_from, before) to `before`, go to it (before = breaks_from:
     * none); so do the streak's where clauses_join is set (see
     * send_breaks_to_jump). */
    uint32_t breaks_from;
    uint8_t clauses_join;
} cold_move;

/* The instructions reached from the entry without an exception
 * (flowgraph.c mark_warm): 1 each, in an array of code->count. */
static uint8_t *mark_warm(const upy_ncode *code, upy_arena *arena) {
    uint8_t *warm = upy_arena_array(arena, code->count, 1);
    uint32_t *stack = upy_arena_array(arena, code->count, sizeof *stack);
    uint32_t sp = 0;
    if (!warm || !stack)
        return NULL;
    warm[0] = 1;
    stack[sp++] = 0;
    while (sp) {
        uint32_t i = stack[--sp];
        const upy_nin *in = &code->ins[i];
        uint32_t next[2] = {i + 1, (uint32_t)in->target}, k;
        for (k = 0; k < 2; k++) {
            if (k == 0 && !upy_nin_falls_through(in))
                continue;
            if ((k == 1 && in->target < 0) || next[k] >= code->count ||
                warm[next[k]])
                continue;
            warm[next[k]] = 1;
            stack[sp++] = next[k];
        }
    }
    return warm;
}

/* The first cold instruction, where all after it are cold (push_cold_
 * blocks_to_end's layout): the one after the last warm one, or NONE.
 * Code before it that no way reaches but from the cold code is warm
 * code's exit, a copy of the return laid there by
 * duplicate_exits_without_lineno, which runs after the move. */
static uint32_t cold_start(const upy_ncode *code, const uint8_t *warm) {
    uint32_t c = code->count;
    while (c > 0 && !warm[c - 1])
        c--;
    return c < code->count ? c : NONE;
}

/* The end of the streak that starts at instruction h: the first
 * instruction that does not fall through and past which no jump from h on
 * goes; NONE when the code ends first. */
static uint32_t streak_end(const upy_ncode *code, uint32_t h) {
    uint32_t k, furthest = h;
    for (k = h; k < code->count; k++) {
        int32_t t = code->ins[k].target;
        if (t > (int32_t)furthest)
            furthest = (uint32_t)t;
        if (!upy_nin_falls_through(&code->ins[k]) && furthest <= k)
            return k;
    }
    return NONE;
}

/* Whether the streak [h, e] holds code of its own only: the jumps in it
 * stay in it but its jumps back to the loop's header (at or before
 * `first`, the try body's first instruction) and its breaks (to w, where
 * it goes), no jump from outside enters it, no handler of code outside it
 * but warm code's (to h) is in it, nothing falls into h and no with's
 * handler is in it (which goes back to the code after the with's exit,
 * not to a loop). */
static int is_own_streak(const upy_ncode *code, uint32_t h, uint32_t e,
                         uint32_t cold, uint32_t first, uint32_t w) {
    uint32_t i;
    if (upy_nin_falls_through(&code->ins[h - 1]))
        return 0;
    for (i = 0; i < code->count; i++) {
        const upy_nin *in = &code->ins[i];
        int inside = i >= h && i <= e;
        int to_inside = in->target >= (int32_t)h && in->target <= (int32_t)e;
        int leaves_loop_body =
            in->target == (int32_t)w || (in->op == N_JUMP && in->target >= 0 &&
                                         in->target <= (int32_t)first);
        if (inside && (in->op == N_WITH_EXCEPT_START ||
                       (in->target >= 0 && !to_inside && !leaves_loop_body)))
            return 0;
        if (!inside && (to_inside || (in->handler > (int32_t)h &&
                                      in->handler <= (int32_t)e)))
            return 0;
        if (!inside && in->handler == (int32_t)h && i >= cold)
            return 0;
    }
    return 1;
}

/* The first and last warm instructions handler h protects: the try's
 * body, [*first, *last]; 0 when none. */
static int try_body(const upy_ncode *code, uint32_t h, uint32_t cold,
                    uint32_t *first, uint32_t *last) {
    uint32_t i;
    *first = *last = NONE;
    for (i = 0; i < cold; i++) {
        if (code->ins[i].handler != (int32_t)h)
            continue;
        if (*first == NONE)
            *first = i;
        *last = i;
    }
    return *first != NONE;
}

/* Where the streak of the try whose body ends at instruction x goes: the
 * end of the else part after it, straight code under `handler`, at the
 * instruction W a break's NOP came before; NONE when none.  (A jump the
 * else part ends in is no sure sign: `for` / `with` / `try` / `else:
 * break` leaves through the with's exit and a jump over END_FOR, which
 * normalizing drops, to the code after the loop, a jump to the next
 * instruction where the streak went before END_FOR.) */
static uint32_t else_part_end(const upy_ncode *code, const uint8_t *jumped,
                              uint32_t x, uint32_t cold, int32_t handler) {
    uint32_t k;
    if (!upy_nin_falls_through(&code->ins[x]))
        return NONE;
    for (k = x + 1; k < cold; k++) {
        const upy_nin *in = &code->ins[k];
        if (in->lead_nops)
            return in->lead_nops == 1 && !in->lead_nops_joined &&
                           in->lead_line >= 0
                       ? k
                       : NONE;
        if (in->handler != handler || jumped[k] || in->target >= 0 ||
            !upy_nin_falls_through(in))
            return NONE;
    }
    return NONE;
}

/* Where the try body [first, last] breaks out of the loop that the
 * streak goes round: the first instruction W after it that a break's NOP
 * came before (lead_line: the NOP on a line of its own, under the try's
 * handler or not), reached from the body (a jump to W, or the body
 * falling into it) past code under `handler` that does not fall through
 * (the body's returns); NONE when none.  3.11 lays the break out as the
 * NOP and a jump over the handler to W, which a jump from the body to the
 * break reaches; 3.12 drops the jump to the next block, the NOP, and sends
 * those jumps to W.  Worked example (3.12; tests/constructs
 * break_ends_try_in_loop.py retry_handler_breaks_under_if):
 *
 *     while True:              L:  r = next(it)          (handler H)
 *         try:                     if r != 't': goto W
 *             r = next(it)         raise TimeoutError()
 *             if r == 't':     W:  log.append(r)  (lead_line: the break)
 *                 raise ...        return log
 *             break            H:  ...; if len(log) > limit: goto W
 *         except TimeoutError:     log.append('retry'); JUMP L
 *             if ...:
 *                 break
 *             log.append('retry')
 *     log.append(r)
 *     return log
 */
static uint32_t body_break_exit(const upy_ncode *code, uint32_t first,
                                uint32_t last, uint32_t cold, int32_t handler) {
    uint32_t w = last + 1, k;
    while (w < cold && code->ins[w].lead_line < 0) {
        if (code->ins[w].handler != handler ||
            upy_nin_falls_through(&code->ins[w]))
            return NONE;
        w++;
    }
    if (w >= cold || code->ins[w].handler != handler)
        return NONE;
    if (w == last + 1 && upy_nin_falls_through(&code->ins[last]))
        return w;
    for (k = first; k < w; k++)
        if (code->ins[k].target == (int32_t)w)
            return w;
    return NONE;
}

/* Whether instruction w is on a line after every line of the streak [h,
 * e) (its jump back has the loop's line): code the source wrote after
 * the try, not code a break runs on its way out.  (`with c:` / `for ...:`
 * / `try: ...` / `else: break`: the NOP of the break comes before the
 * with's exit, on the with's line, which the break runs before it leaves
 * the loop; the streak goes after that.) */
static int follows_in_source(const upy_ncode *code, uint32_t h, uint32_t e,
                             uint32_t w) {
    uint32_t k;
    for (k = h; k < e; k++)
        if (code->ins[k].line >= code->ins[w].line)
            return 0;
    return 1;
}

/* Whether the cold code holds another copy of the streak [h, e) (the
 * same instructions on the same lines, from another handler on): the
 * streak is in a finally body, which the compiler copies for each way out
 * of its try, and the copy that an exception runs keeps its clause laid
 * out cold; moved in one copy only, the two no longer read alike (asyncio
 * Condition.wait 3.13: `finally:` / `while True:` / `try: await
 * self.acquire(); break` / `except CancelledError as e: err = e`). */
static int has_copy(const upy_ncode *code, uint32_t h, uint32_t e,
                    uint32_t cold, uint64_t *budget) {
    uint32_t c, k;
    for (c = cold; c + (e - h) < code->count; c++) {
        if (c == h || code->ins[c].op != N_PUSH_EXC_INFO)
            continue;
        for (k = 0; k < e - h; k++)
            if (code->ins[c + k].op != code->ins[h + k].op ||
                code->ins[c + k].line != code->ins[h + k].line)
                break;
        /* (Out of budget: unsure, no move.) */
        if (k == e - h || *budget < k)
            return 1;
        *budget -= k;
    }
    return 0;
}

/* The streak [h, e]'s jump back to the loop's header (at or before
 * `first`): its last instruction, or where that raises or returns (the
 * handler ends in `continue` or `raise`), its first jump back; NONE when
 * none.  Worked example (3.12; tests/constructs
 * break_ends_try_in_loop.py for_return_then_break_in_if): in `while True:
 * try: ...; break` / `except KeyError: if p is None: continue` / `raise`
 * no clause falls through: the streak ends in the RERAISE of its
 * cleanup, its `continue` is the jump back. */
static uint32_t streak_jump_back(const upy_ncode *code, uint32_t h, uint32_t e,
                                 uint32_t first) {
    uint32_t k;
    for (k = code->ins[e].op == N_JUMP ? e : h; k <= e; k++)
        if (code->ins[k].op == N_JUMP && code->ins[k].target >= 0 &&
            (uint32_t)code->ins[k].target <= first)
            return k;
    return NONE;
}

/* The move the streak at handler h (a PUSH_EXC_INFO of the cold code)
 * asks for, if any (see the head comment). */
static int streak_move(const upy_ncode *code, const uint8_t *jumped, uint32_t h,
                       uint32_t cold, uint64_t *budget, cold_move *m) {
    uint32_t e = streak_end(code, h), first, last, back, x;
    if (e == NONE || !try_body(code, h, cold, &first, &last) ||
        (back = streak_jump_back(code, h, e, first)) == NONE)
        return 0;
    x = else_part_end(code, jumped, last, cold, code->ins[back].handler);
    m->breaks_from = x;
    if (x == NONE) {
        x = body_break_exit(code, first, last, cold, code->ins[back].handler);
        m->breaks_from = first;
    }
    m->clauses_join =
        x != NONE && m->breaks_from == first && code->ins[x].lead_nops_joined;
    if (x == NONE || !is_own_streak(code, h, e, cold, first, x) ||
        has_copy(code, h, e, cold, budget) || !follows_in_source(code, h, e, x))
        return 0;
    m->from = h;
    m->to = e;
    m->before = x;
    m->back = back;
    m->jump = BREAK_JUMP;
    return 1;
}

/* The last instruction of the except clause at handler h: the end of its
 * cleanup (COPY 3; POP_EXCEPT; RERAISE 1), the handler of h, which the
 * compiler lays last in the clause; NONE when h has none after it. */
static uint32_t clause_end(const upy_ncode *code, uint32_t h) {
    int32_t cleanup = code->ins[h].handler;
    uint32_t k;
    if (cleanup <= (int32_t)h)
        return NONE;
    for (k = (uint32_t)cleanup; k < code->count; k++)
        if (!upy_nin_falls_through(&code->ins[k]))
            return k;
    return NONE;
}

/* The end of the clauses from h on that go back together: the clause at
 * h and each clause after it whose try's body lies in those before it
 * (`try: try: A / except E: ... / except F: ...`: the outer try's body is
 * the inner try and its clause, all cold but A; the compiler laid the
 * outer clause right after the inner one); NONE when h has none. */
static uint32_t clauses_end(const upy_ncode *code, uint32_t h) {
    uint32_t c = clause_end(code, h), i;
    while (c != NONE && c + 1 < code->count &&
           code->ins[c + 1].op == N_PUSH_EXC_INFO) {
        int32_t outer = (int32_t)c + 1, body = 0;
        for (i = 0; i < code->count; i++)
            if (code->ins[i].handler == outer) {
                if (i < h || i > c)
                    return c;
                body = 1;
            }
        if (!body)
            return c;
        c = clause_end(code, c + 1);
    }
    return c;
}

/* Whether the clause [h, c] holds code of its own only: nothing falls
 * into h, no jump from outside enters it, no handler of code outside it
 * is in it but warm code's (to h), and it is no with's handler. */
static int is_own_clause(const upy_ncode *code, uint32_t h, uint32_t c,
                         uint32_t cold) {
    uint32_t i;
    if (upy_nin_falls_through(&code->ins[h - 1]))
        return 0;
    for (i = 0; i < code->count; i++) {
        const upy_nin *in = &code->ins[i];
        if (i >= h && i <= c) {
            if (in->op == N_WITH_EXCEPT_START)
                return 0;
            continue;
        }
        if ((in->target >= (int32_t)h && in->target <= (int32_t)c) ||
            (in->handler > (int32_t)h && in->handler <= (int32_t)c) ||
            (in->handler == (int32_t)h && i >= cold))
            return 0;
    }
    return 1;
}

/* Where the clause [h, c] leaves to: the one cold instruction outside
 * it that its jumps go to (a break's exit that only the clause reaches),
 * else the first warm one (the code after the try, a continue's loop
 * header); NONE when none or two cold ones. */
static uint32_t clause_way_out(const upy_ncode *code, uint32_t h, uint32_t c,
                               uint32_t cold) {
    uint32_t k, warm = NONE, out = NONE;
    for (k = h; k <= c; k++) {
        int32_t t = code->ins[k].target;
        if (t < 0 || (t >= (int32_t)h && t <= (int32_t)c))
            continue;
        if ((uint32_t)t < cold) {
            warm = warm == NONE ? (uint32_t)t : warm;
            continue;
        }
        if (out != NONE && out != (uint32_t)t)
            return NONE;
        out = (uint32_t)t;
    }
    return out != NONE ? out : warm;
}

/* The last jump back of the loop that holds the try body [first, last]:
 * the last warm jump past `last` to an instruction at or before `first`
 * (the loop's header); NONE when none. */
static uint32_t loop_end(const upy_ncode *code, uint32_t first, uint32_t last,
                         uint32_t cold) {
    uint32_t k, end = NONE;
    for (k = last + 1; k < cold; k++) {
        const upy_nin *in = &code->ins[k];
        if (in->op == N_JUMP && in->target >= 0 && in->target <= (int32_t)first)
            end = k;
    }
    return end;
}

/* Where compiler_while / compiler_for laid the exit a break of the loop
 * that ends at `end` (its last jump back) goes to: right after the loop,
 * or, where the loop leaves other than by the break (its test, FOR_ITER),
 * after the else part it leaves to, right after the loop too, straight
 * code that does not fall into the exit (`for x in xs: try: ... / except
 * E: break / else: raise L`); NONE when unsure. */
static uint32_t break_exit_place(const upy_ncode *code, const uint8_t *jumped,
                                 uint32_t end, uint32_t cold) {
    uint32_t k, header = (uint32_t)code->ins[end].target;
    int leaves = 0;
    for (k = header; k <= end; k++) {
        int32_t t = code->ins[k].target;
        if (t > (int32_t)end + 1)
            return NONE;
        leaves |= t == (int32_t)end + 1;
    }
    if (!leaves)
        return end + 1;
    for (k = end + 1; k < cold; k++) {
        const upy_nin *in = &code->ins[k];
        if (k > end + 1 && jumped[k])
            return NONE;
        if (!upy_nin_falls_through(in))
            return k + 1;
        if (in->target >= 0)
            return NONE;
    }
    return NONE;
}

/* Whether the loop's exit [j, e], laid out cold, is entered by jumps from
 * the clause [h, c] only, and none of its jumps goes back into the loop
 * (header, end]. */
static int is_loop_exit(const upy_ncode *code, uint32_t h, uint32_t c,
                        uint32_t j, uint32_t e, uint32_t end) {
    int32_t header = code->ins[end].target;
    uint32_t i;
    for (i = 0; i < code->count; i++) {
        int32_t t = code->ins[i].target;
        int inside = i >= j && i <= e;
        if (!inside && t >= (int32_t)j && t <= (int32_t)e && (i < h || i > c))
            return 0;
        if (inside && t > header && t <= (int32_t)end)
            return 0;
    }
    return 1;
}

static uint32_t clause_moves(const upy_ncode *code, const uint8_t *jumped,
                             uint32_t h, uint32_t cold, int alone,
                             uint64_t *budget, cold_move *m);

/* Whether [from, to) holds only clauses that go back alone, their way
 * out into warm code (os.walk 3.12: the clause of the try after the one
 * whose clause breaks, `except OSError: is_dir = False`, laid out between
 * that clause and the loop's exit). */
static int clauses_between(const upy_ncode *code, const uint8_t *jumped,
                           uint32_t from, uint32_t to, uint32_t cold,
                           uint64_t *budget) {
    uint32_t k = from;
    cold_move m[2];
    while (k < to) {
        if (code->ins[k].op != N_PUSH_EXC_INFO ||
            clause_moves(code, jumped, k, cold, 1, budget, m) != 1)
            return 0;
        k = m[0].to + 1;
    }
    return k == to;
}

/* The moves the except clause at handler h (a PUSH_EXC_INFO of the cold
 * code) asks for, into m (0, 1 or 2 of them).  The clause goes back to
 * where compile.c compiler_try_except laid it, right after the try's
 * body, which falls into the code after it (the else part or the code
 * after the try) over a jump that remove_redundant_jumps dropped once
 * push_cold_blocks_to_end had moved the clause away.  Where the clause
 * leaves by a break to code that only it reaches (the loop is a `while
 * True:`), that code went cold with it: it goes back after the loop's
 * last jump back, where compiler_while laid the loop's exit.  Worked
 * example (3.12; tests/constructs cold_clause_breaks_loop.py
 * break_in_with_in_loop):
 *
 *     while s:                 L:  s.pop(); BEFORE_WITH
 *         s.pop()              T:  x = next(it)      (handler H)
 *         with it:                 d.append(x); JUMP T
 *             while True:          RETURN_CONST None
 *                 try:             ...
 *                     x = next(it) H:  PUSH_EXC_INFO; match StopIteration
 *                 except StopIteration:  POP_EXCEPT; JUMP B
 *                     break            (cleanups)
 *                 d.append(x)      B:  the with's exit; d.append(1)
 *         d.append(1)                  s?; JUMP L ...
 *
 * becomes x = next(it); JUMP D; H ...; D: d.append(x); JUMP T; B ...,
 * as 3.11 lays it out.  Moved alone, the clause would leave the exit
 * where the loop's reading takes it for code after the outer loop. */
static uint32_t clause_moves(const upy_ncode *code, const uint8_t *jumped,
                             uint32_t h, uint32_t cold, int alone,
                             uint64_t *budget, cold_move *m) {
    uint32_t c, first, last, j, e, end, place;
    /* (Each look costs a few scans of the code; out of budget, no move.) */
    if (*budget < 8 * (uint64_t)code->count)
        return 0;
    *budget -= 8 * (uint64_t)code->count;
    c = clauses_end(code, h);
    if (c == NONE || !try_body(code, h, cold, &first, &last) ||
        last + 1 >= cold || !upy_nin_falls_through(&code->ins[last]) ||
        !is_own_clause(code, h, c, cold))
        return 0;
    m[0] =
        (cold_move){.from = h, .to = c, .before = last + 1, .jump = BODY_JUMP};
    j = clause_way_out(code, h, c, cold);
    if (j == NONE || j < cold)
        return j != NONE && alone;
    e = streak_end(code, j);
    end = loop_end(code, first, last, cold);
    if (!clauses_between(code, jumped, c + 1, j, cold, budget) || e == NONE ||
        end == NONE || upy_nin_falls_through(&code->ins[end]) ||
        !is_loop_exit(code, h, c, j, e, end) ||
        (place = break_exit_place(code, jumped, end, cold)) == NONE)
        return 0;
    /* (Where nothing lies between the loop and its clause, the exit
     * follows the clause as it follows the loop in 3.11's layout: recover
     * reads that as it is.) */
    if (place == h)
        return 0;
    m[1] = (cold_move){.from = j, .to = e, .before = place, .jump = NO_JUMP};
    return 2;
}

/* Whether each instruction is a jump's target: 1 each. */
static uint8_t *mark_jumped(const upy_ncode *code, upy_arena *arena) {
    uint8_t *jumped = upy_arena_array(arena, code->count, 1);
    uint32_t i;
    if (!jumped)
        return NULL;
    for (i = 0; i < code->count; i++)
        if (code->ins[i].target >= 0 &&
            (uint32_t)code->ins[i].target < code->count)
            jumped[code->ins[i].target] = 1;
    return jumped;
}

/* Whether the moves m[0, n) are free to make: their places are warm
 * code, and their places and instructions are no other move's. */
static int moves_free(const cold_move *m, uint32_t n,
                      const int32_t *move_before, const uint8_t *moved,
                      uint32_t cold) {
    uint32_t k, i;
    for (k = 0; k < n; k++) {
        if (m[k].before >= cold || move_before[m[k].before] >= 0 ||
            (k && m[k].before == m[0].before))
            return 0;
        for (i = m[k].from; i <= m[k].to; i++)
            if (moved[i])
                return 0;
    }
    return 1;
}

/* The moves the cold code asks for, into moves (at most one per
 * instruction), *count of them; at most one streak goes before an
 * instruction (move_before: its move, or -1); moved: 1 for each
 * instruction a move takes. */
static uint32_t find_moves(const upy_ncode *code, const uint8_t *jumped,
                           uint32_t cold, cold_move *moves,
                           int32_t *move_before, uint8_t *moved) {
    uint64_t budget = COLD_BLOCKS_BUDGET;
    uint32_t h, count = 0, exit_from = 0;
    for (h = cold; h < code->count && budget >= code->count; h++) {
        cold_move m[2];
        uint32_t n, k, i;
        if (code->ins[h].op != N_PUSH_EXC_INFO || moved[h])
            continue;
        budget -= code->count;
        /* (Clauses between a clause that breaks and the exit it moves go
         * back alone, as clauses_between found.) */
        if (streak_move(code, jumped, h, cold, &budget, &m[0]))
            n = 1;
        else
            n = clause_moves(code, jumped, h, cold, h < exit_from, &budget, m);
        if (!n || !moves_free(m, n, move_before, moved, cold))
            continue;
        for (k = 0; k < n; k++) {
            move_before[m[k].before] = (int32_t)count;
            moves[count++] = m[k];
            for (i = m[k].from; i <= m[k].to; i++)
                moved[i] = 1;
        }
        if (n == 2)
            exit_from = m[1].from;
        h = m[0].to;
    }
    return count;
}

/* The break's jump to instruction w, made of the NOP w's lead_nops
 * counts: the NOP's line, the handler of the else part it ends, which the
 * streak's jump back `back` is under (w may lie past the end of a try
 * around the loop), a target renumbered after. */
static upy_nin break_jump(const upy_nin *w, uint32_t to, const upy_nin *back) {
    upy_nin jump = *w;
    jump.op = N_JUMP;
    jump.arg = 0;
    jump.flags = 0;
    jump.obj = NULL;
    jump.target = (int32_t)to;
    jump.line = w->lead_line;
    jump.lead_nops = 0;
    jump.lead_nops_joined = 0;
    jump.lead_line = -1;
    jump.throw_offset = 0;
    jump.handler = back->handler;
    jump.handler_depth = back->handler_depth;
    jump.handler_lasti = back->handler_lasti;
    return jump;
}

/* The try body's jump over its clauses, moved back before instruction
 * `to`: on the line of the body's last instruction `last` (as 3.11 lays
 * it out), under the handler of the last clause's cleanup `cleanup`, the
 * try's surroundings' (where the clauses of two nested tries go back
 * together, the outer try's: its body ends with the inner one's), a
 * target renumbered after. */
static upy_nin body_jump(const upy_nin *last, uint32_t to,
                         const upy_nin *cleanup) {
    upy_nin jump = break_jump(last, to, cleanup);
    jump.line = last->line;
    return jump;
}

/* Whether the last instruction `in` of the loop's exit that move m
 * lays out again is a jump to the code it now falls into, which
 * remove_redundant_jumps would drop there (its index becomes that
 * code's): the jump to the return after a `while` loop, a copy of the
 * return that duplicate_exits_without_lineno left in place. */
static int is_redundant_exit(const cold_move *m, const upy_nin *in) {
    return m->jump == NO_JUMP && in->op == N_JUMP &&
           in->target == (int32_t)m->before && !in->lead_nops;
}

/* Lays out code again with each move made (the new jump, then the
 * streak, before `before`); new_index maps each old instruction to its
 * place. */
static uint32_t lay_out(const upy_ncode *code, const cold_move *moves,
                        const int32_t *move_before, const uint8_t *moved,
                        upy_nin *out, uint32_t *new_index) {
    uint32_t i, k, at = 0;
    for (i = 0; i < code->count; i++) {
        if (moved[i])
            continue;
        if (move_before[i] >= 0) {
            const cold_move *m = &moves[move_before[i]];
            if (m->jump == BODY_JUMP)
                out[at++] = body_jump(&code->ins[i - 1], i, &code->ins[m->to]);
            else if (m->jump == BREAK_JUMP)
                out[at++] = break_jump(&code->ins[i], i, &code->ins[m->back]);
            for (k = m->from; k <= m->to; k++) {
                new_index[k] = at;
                if (k == m->to && is_redundant_exit(m, &code->ins[k]))
                    break;
                out[at++] = code->ins[k];
            }
        }
        new_index[i] = at;
        out[at] = code->ins[i];
        if (move_before[i] >= 0 && moves[move_before[i]].jump == BREAK_JUMP) {
            out[at].lead_nops = 0;
            out[at].lead_nops_joined = 0;
            out[at].lead_line = -1;
        }
        at++;
    }
    return at;
}

/* Sends the try body's breaks of each move (body_break_exit) to the jump
 * laid out before its streak, once the code is renumbered: out[] holds
 * the new code, new_index the place of each old instruction.  Where the
 * break's NOP was a jump target (lead_nops_joined: the NOP after the try,
 * `try: x` / `except E: ...` / `break`), the clauses' jumps to W went to
 * the break too: they fall through to it (tarfile TarFile.next 3.12:
 * else each clause is printed ending in a `break` of its own). */
static void send_breaks_to_jump(const upy_ncode *code, const cold_move *moves,
                                uint32_t count, const uint32_t *new_index,
                                upy_nin *out) {
    uint32_t m, i;
    for (m = 0; m < count; m++) {
        const cold_move *mv = &moves[m];
        uint32_t end = mv->clauses_join ? mv->to + 1 : mv->before;
        if (mv->jump != BREAK_JUMP)
            continue;
        for (i = mv->breaks_from; i < end; i++)
            if ((i < mv->before || i >= mv->from) &&
                code->ins[i].target == (int32_t)mv->before)
                out[new_index[i]].target = (int32_t)new_index[mv->from] - 1;
    }
}

/* Whether instruction j is a cold jump that ends a try body and that
 * the jump i from cold code that the try protected reaches (j is under
 * none of i's handlers: the try's block was popped), entered by jumps
 * only, to warm code.  The jump that ends a try body has no line of its
 * own: it takes the line of the jump that reaches it
 * (propagate_line_numbers), where a `break` or `continue` written after
 * the try, popped the same way, has its own (pyparsing
 * _NestedExpr.parseImpl 3.12: `if stack: ...` / `else: return ...` /
 * `continue` at the end of a try body in a loop, all cold). */
static int is_cold_try_end(const upy_ncode *code, uint32_t cold, uint32_t i,
                           uint32_t j) {
    const upy_nin *end = &code->ins[j];
    return j >= cold && j > i && end->op == N_JUMP && end->target >= 0 &&
           end->target < (int32_t)cold &&
           end->handler != code->ins[i].handler &&
           end->line == code->ins[i].line &&
           !upy_nin_falls_through(&code->ins[j - 1]);
}

/* 3.12's flowgraph.c optimize_basic_block threads a jump to a jump
 * (jump_thread) while the end of a try body is still POP_BLOCK and its
 * jump over the handlers (convert_pseudo_ops makes the POP_BLOCK a NOP
 * later), so a break out of a loop that ends a try body, from an except
 * clause of a try in that loop, jumps to that jump; both are cold, and
 * push_cold_blocks_to_end lays the jump out after the clause, far from
 * the loop's exit.  3.13 threads it.  This pass threads it as 3.13 does;
 * the jump it went to, entered by no other, is left unreached.  Worked
 * example (3.12; tests/constructs exit_ends_handler_in_loop.py
 * break_in_handler_then_code):
 *
 *     try:                         L:  ends.append(...)   (handler H, H2)
 *         while True:                  JUMP L
 *             try:                 W:  n = len(ends); return n
 *                 ends.append(...) H:  match ValueError: POP_EXCEPT
 *             except ValueError:       JUMP J                 (H2)
 *                 break                ...
 *     except ValueError:           J:  JUMP W                 (none)
 *         pass                     H2: ...
 *     n = len(ends)
 *
 * Read as it lies, the clause's break goes to the end of the outer try,
 * not out of the loop: printed `pass` and the loop never ends. */
static void thread_cold_try_ends(upy_ncode *code, uint32_t cold) {
    uint32_t i;
    for (i = cold; i < code->count; i++) {
        upy_nin *in = &code->ins[i];
        if (in->op == N_JUMP && in->target >= 0 &&
            (uint32_t)in->target < code->count &&
            is_cold_try_end(code, cold, i, (uint32_t)in->target))
            in->target = code->ins[in->target].target;
    }
}

unpyc_status upy_normalize_cold_try_ends(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err) {
    uint8_t *warm;
    uint32_t cold;
    if (code->count < 2)
        return UNPYC_OK;
    warm = mark_warm(code, arena);
    if (!warm)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if ((cold = cold_start(code, warm)) != NONE && cold > 0)
        thread_cold_try_ends(code, cold);
    return UNPYC_OK;
}

unpyc_status upy_normalize_cold_blocks(upy_ncode *code, upy_arena *arena,
                                       unpyc_error *err) {
    uint8_t *warm, *jumped, *moved;
    int32_t *move_before;
    uint32_t cold, count, i, n, *new_index;
    cold_move *moves;
    upy_nin *out;

    if (code->count < 2)
        return UNPYC_OK;
    warm = mark_warm(code, arena);
    if (!warm)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    if ((cold = cold_start(code, warm)) == NONE || cold == 0)
        return UNPYC_OK;
    jumped = mark_jumped(code, arena);
    move_before = upy_arena_array(arena, code->count, sizeof *move_before);
    moves = upy_arena_array(arena, code->count - cold, sizeof *moves);
    moved = upy_arena_array(arena, code->count, 1);
    if (!jumped || !move_before || !moves || !moved)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (i = 0; i < code->count; i++)
        move_before[i] = -1;
    count = find_moves(code, jumped, cold, moves, move_before, moved);
    if (!count)
        return UNPYC_OK;
    out = upy_arena_array(arena, code->count + count, sizeof *out);
    new_index = upy_arena_array(arena, code->count, sizeof *new_index);
    if (!out || !new_index)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    n = lay_out(code, moves, move_before, moved, out, new_index);
    for (i = 0; i < n; i++) {
        if (out[i].target >= 0)
            out[i].target = (int32_t)new_index[out[i].target];
        if (out[i].handler >= 0)
            out[i].handler = (int32_t)new_index[out[i].handler];
    }
    send_breaks_to_jump(code, moves, count, new_index, out);
    code->ins = out;
    code->count = n;
    return UNPYC_OK;
}
