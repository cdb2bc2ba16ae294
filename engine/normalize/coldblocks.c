/*
 * coldblocks.c - unpush_cold_blocks: an except clause that ends a loop's
 * body, put back in line where 3.12+ laid it out after all other code.
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

/* Where a streak goes: [from, to] moves before instruction `before`,
 * after a new jump to it (the break's), under the handler of its jump
 * back to the loop's header, instruction `back`. */
typedef struct cold_move {
    uint32_t from, to, before, back;
    /* The try body's breaks, the jumps from [breaks_from, before) to
     * `before`, go to the new jump (before = breaks_from: none); so do
     * the streak's where clauses_join is set (see send_breaks_to_jump). */
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

/* The first cold instruction, where all after it are cold and all before
 * it warm (push_cold_blocks_to_end's layout), or NONE. */
static uint32_t cold_start(const upy_ncode *code, const uint8_t *warm) {
    uint32_t c = 0, i;
    while (c < code->count && warm[c])
        c++;
    for (i = c; i < code->count; i++)
        if (warm[i])
            return NONE;
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
    return 1;
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

/* The moves the cold code asks for, into moves (at most one per
 * instruction), *count of them; at most one streak goes before an
 * instruction (move_before: its move, or -1). */
static uint32_t find_moves(const upy_ncode *code, const uint8_t *jumped,
                           uint32_t cold, cold_move *moves,
                           int32_t *move_before) {
    uint64_t budget = COLD_BLOCKS_BUDGET;
    uint32_t h, count = 0;
    for (h = cold; h < code->count && budget >= code->count; h++) {
        cold_move m;
        if (code->ins[h].op != N_PUSH_EXC_INFO)
            continue;
        budget -= code->count;
        if (!streak_move(code, jumped, h, cold, &budget, &m) ||
            move_before[m.before] >= 0)
            continue;
        move_before[m.before] = (int32_t)count;
        moves[count++] = m;
        h = m.to;
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

/* Lays out code again with each move made (the break's jump, then the
 * streak, before W, whose NOP the jump is); new_index maps each old
 * instruction to its place. */
static uint32_t lay_out(const upy_ncode *code, const cold_move *moves,
                        const int32_t *move_before, const uint8_t *moved,
                        upy_nin *out, uint32_t *new_index) {
    uint32_t i, k, at = 0;
    for (i = 0; i < code->count; i++) {
        if (moved[i])
            continue;
        if (move_before[i] >= 0) {
            const cold_move *m = &moves[move_before[i]];
            out[at++] = break_jump(&code->ins[i], i, &code->ins[m->back]);
            for (k = m->from; k <= m->to; k++) {
                new_index[k] = at;
                out[at++] = code->ins[k];
            }
        }
        new_index[i] = at;
        out[at] = code->ins[i];
        if (move_before[i] >= 0) {
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
    uint32_t cold, count, i, k, n, *new_index;
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
    count = find_moves(code, jumped, cold, moves, move_before);
    if (!count)
        return UNPYC_OK;
    for (i = 0; i < count; i++)
        for (k = moves[i].from; k <= moves[i].to; k++)
            moved[k] = 1;
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
