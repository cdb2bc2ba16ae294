/*
 * layout.c - moving back in line code the compiler placed out of line.
 *
 * The recover layer structures a construct as a range of blocks, which
 * holds as long as the code of a construct is laid out inside it.  One
 * 3.12+ layout breaks that: an async comprehension inlined into a loop
 * keeps its END_ASYNC_FOR handler, and behind it (often after one more
 * jump) the code that goes on after the async for, out of line: after the
 * exit of the enclosing loop.  This pass moves that run of code right
 * after the async for's last back jump, where the exit of a for loop is
 * laid out otherwise.
 *
 * A run is moved only when nothing else can tell: it is entered only from
 * the loop (or the one jump to it, which goes), nothing falls into it and
 * it ends in an instruction that does not fall through; the back jump it
 * follows does not fall through either.  Jump targets and handlers are
 * renumbered.
 *
 * The else part of an async for (3.12+) is out of line the same way: see
 * async_else_move.
 */
#include "normalize/normalize.h"

#include <string.h>

#include "util/error.h"

/* How many jumps and handlers lead to each instruction. */
static uint32_t *entries(const upy_ncode *code, upy_arena *arena) {
    uint32_t *n = upy_arena_array(arena, code->count + 1, sizeof *n);
    uint32_t i;
    if (!n)
        return NULL;
    for (i = 0; i < code->count; i++) {
        const upy_nin *in = &code->ins[i];
        if (in->target >= 0 && (uint32_t)in->target < code->count)
            n[in->target]++;
        if (in->handler >= 0 && (uint32_t)in->handler < code->count)
            n[in->handler]++;
    }
    return n;
}

/* A straight run [t, *end) entered only at t, once, and not by falling
 * in, that ends without falling through. */
static int is_detached_run(const upy_ncode *code, const uint32_t *n, uint32_t t,
                           uint32_t *end) {
    uint32_t e;
    if (t == 0 || t >= code->count || n[t] != 1 ||
        upy_nin_falls_through(&code->ins[t - 1]))
        return 0;
    for (e = t; e < code->count; e++) {
        if (e > t && n[e])
            return 0;
        if (!upy_nin_falls_through(&code->ins[e])) {
            *end = e + 1;
            return 1;
        }
    }
    return 0;
}

/* One move: the run [from, to) goes after instruction `after`; `dropped`
 * (a jump to the run, or UINT32_MAX) goes where the run starts; `lead`
 * (an instruction of the run, or UINT32_MAX) goes first. */
typedef struct move {
    uint32_t after, from, to, dropped, lead;
} move;

/* Whether the straight code that ends at instruction t - 1 (a break's
 * POP_TOP, the loop's jump back) lies in the loop headed by instruction
 * f: no jump nor handler outside [f, t) enters it.  Code after the loop
 * that only falls into T (an else branch of an if around the loop) does
 * not. */
static int ends_loop_code(const upy_ncode *code, const uint32_t *n, uint32_t f,
                          uint32_t t) {
    uint32_t s = t - 1, i;
    while (s > f + 1 && !n[s] && code->ins[s - 1].target < 0 &&
           upy_nin_falls_through(&code->ins[s - 1]))
        s--;
    for (i = 0; i < code->count; i++)
        if ((i < f || i >= t) && (code->ins[i].target == (int32_t)s ||
                                  code->ins[i].handler == (int32_t)s))
            return 0;
    return 1;
}

/* Whether no jump outside the instructions [j, e] but the one from
 * instruction f enters them.  (Handlers may: the handler of a with
 * statement around the loop, laid out cold with the loop's exit.) */
static int entered_only_at_start(const upy_ncode *code, uint32_t f, uint32_t j,
                                 uint32_t e) {
    uint32_t i;
    for (i = 0; i < code->count; i++) {
        int32_t t = code->ins[i].target;
        if ((i < j || i > e) && i != f && t >= (int32_t)j && t <= (int32_t)e)
            return 0;
    }
    return 1;
}

/* The else part of the async for headed by instruction f, laid out cold
 * (3.12+ flowgraph.c push_cold_blocks_to_end: only its END_ASYNC_FOR
 * handler leads there) after all other code, with a jump added back to
 * the code after the loop, which now follows the loop's body:
 *
 *     async for i in a:          FOR_ITER(async) -> E
 *         if i: break            ...; POP_JUMP_IF -> header; POP_TOP
 *     else:                  T:  after()
 *         other()                ...
 *     after()                E:  other(); JUMP T
 *
 * The else part goes back before T, as a for loop lays it out; when the
 * code before T (a break's POP_TOP) falls into T, the jump goes first and
 * jumps over it (with no else part, it is all there is to move, and the
 * loop's exit is T).  The run is the else part up to its first jump back
 * to T with no jump in the run past it; no jump but the loop's enters it
 * and nothing falls into it.  (No source jumps from an else part into its
 * loop, so T is code after the loop.)  What falls into T must be code of
 * the loop: in `if c: <async for> else: x()`, x() falls into T, and the
 * loop's exit moved to T would take x() into the if's then part. */
static int async_else_move(const upy_ncode *code, const uint32_t *n, uint32_t f,
                           move *m) {
    uint32_t j = (uint32_t)code->ins[f].target, e, furthest = j;
    int32_t t = -1;
    if (j >= code->count || upy_nin_falls_through(&code->ins[j - 1]))
        return 0;
    for (e = j; e < code->count; e++) {
        const upy_nin *in = &code->ins[e];
        t = in->target;
        if (in->op == N_JUMP && t > (int32_t)f + 1 && t < (int32_t)j &&
            furthest <= e)
            break;
        if (t > (int32_t)furthest)
            furthest = (uint32_t)t;
    }
    if (e >= code->count || !entered_only_at_start(code, f, j, e) ||
        !ends_loop_code(code, n, f, (uint32_t)t))
        return 0;
    m->after = (uint32_t)t - 1;
    m->from = j;
    m->to = e + 1;
    m->dropped = UINT32_MAX;
    m->lead = upy_nin_falls_through(&code->ins[t - 1]) ? e : UINT32_MAX;
    /* (An empty else part that nothing falls past is laid out in line; a
     * jump that goes first is entered from the loop only, if at all: what
     * enters it enters the run.) */
    if (m->lead != UINT32_MAX && n[e] != (e == j))
        return 0;
    return e > j || m->lead != UINT32_MAX;
}

/* The move the async for headed by instruction f asks for, if any. */
static int async_exit_move(const upy_ncode *code, const uint32_t *n, uint32_t f,
                           move *m) {
    uint32_t j = (uint32_t)code->ins[f].target, last = UINT32_MAX, i;
    for (i = f + 1; i < j && i < code->count; i++)
        if (code->ins[i].op == N_JUMP && code->ins[i].target == (int32_t)f)
            last = i;
    if (last == UINT32_MAX || last + 1 >= j)
        return 0;
    m->after = last;
    m->dropped = UINT32_MAX;
    m->lead = UINT32_MAX;
    if (code->ins[j].op == N_JUMP && code->ins[j].target > (int32_t)j + 1 &&
        is_detached_run(code, n, (uint32_t)code->ins[j].target, &m->to)) {
        m->from = (uint32_t)code->ins[j].target;
        m->dropped = j;
        return !upy_nin_falls_through(&code->ins[j - 1]) && n[j] == 1;
    }
    m->from = j;
    return is_detached_run(code, n, j, &m->to);
}

/* How many async for loops code has: the most moves it can ask for. */
static uint32_t count_async_fors(const upy_ncode *code) {
    uint32_t i, found = 0;
    for (i = 0; i < code->count; i++)
        found +=
            code->ins[i].op == N_FOR_ITER && (code->ins[i].flags & N_ASYNC);
    return found;
}

unpyc_status upy_normalize_layout(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err) {
    uint32_t *n, *new_index, i, k, moves = 0, at = 0, asyncs;
    int32_t *move_after; /* instruction -> its move, or -1 */
    uint8_t *placed;
    move *list;
    upy_nin *out;

    /* (Most code has no async for: its tables, 29 bytes an instruction,
     * were a part of a code object's peak memory for nothing.) */
    if (!code->count || !(asyncs = count_async_fors(code)))
        return UNPYC_OK;
    n = entries(code, arena);
    move_after = upy_arena_array(arena, code->count + 1, sizeof *move_after);
    placed = upy_arena_array(arena, code->count + 1, 1);
    list = upy_arena_array(arena, asyncs, sizeof *list);
    if (!n || !move_after || !placed || !list)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (i = 0; i < code->count; i++)
        move_after[i] = -1;
    for (i = 0; i < code->count; i++) {
        const upy_nin *fi = &code->ins[i];
        move m;
        uint32_t x;
        if (fi->op != N_FOR_ITER || !(fi->flags & N_ASYNC) || fi->target < 0 ||
            (uint32_t)fi->target >= code->count ||
            (!async_else_move(code, n, i, &m) &&
             !async_exit_move(code, n, i, &m)))
            continue;
        /* Moves may not overlap nor move what another one moves after. */
        for (x = m.from; x < m.to; x++)
            if (placed[x] || move_after[x] >= 0)
                break;
        if (x < m.to || placed[m.after] || move_after[m.after] >= 0 ||
            (m.dropped != UINT32_MAX && placed[m.dropped]))
            continue;
        for (x = m.from; x < m.to; x++)
            placed[x] = 1;
        if (m.dropped != UINT32_MAX)
            placed[m.dropped] = 1;
        move_after[m.after] = (int32_t)moves;
        list[moves++] = m;
    }
    if (!moves)
        return UNPYC_OK;

    /* The new order, and where each old instruction went (a dropped jump
     * goes where its run now starts). */
    out = upy_arena_array(arena, code->count, sizeof *out);
    new_index = upy_arena_array(arena, code->count + 1, sizeof *new_index);
    if (!out || !new_index)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (i = 0; i < code->count; i++) {
        if (placed[i])
            continue;
        new_index[i] = at;
        out[at++] = code->ins[i];
        if (move_after[i] >= 0) {
            const move *m = &list[move_after[i]];
            if (m->dropped != UINT32_MAX)
                new_index[m->dropped] = at;
            if (m->lead != UINT32_MAX) {
                /* (The loop's exit is past it, where the run starts.  A
                 * jump raises nothing: it takes the handler of the code
                 * falling into it, whose protected range, as an async
                 * with's around the loop, goes on over it.) */
                const upy_nin *from = &code->ins[m->after];
                new_index[m->lead] = at + 1;
                out[at] = code->ins[m->lead];
                out[at].handler = from->handler;
                out[at].handler_depth = from->handler_depth;
                out[at++].handler_lasti = from->handler_lasti;
            }
            for (k = m->from; k < m->to; k++) {
                if (k == m->lead)
                    continue;
                new_index[k] = at;
                out[at++] = code->ins[k];
            }
        }
    }
    for (i = 0; i < at; i++) {
        if (out[i].target >= 0)
            out[i].target = (int32_t)new_index[out[i].target];
        if (out[i].handler >= 0)
            out[i].handler = (int32_t)new_index[out[i].handler];
    }
    code->ins = out;
    code->count = at;
    return UNPYC_OK;
}
