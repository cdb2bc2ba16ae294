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
 * (a jump to the run, or UINT32_MAX) goes where the run starts. */
typedef struct move {
    uint32_t after, from, to, dropped;
} move;

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
    if (code->ins[j].op == N_JUMP && code->ins[j].target > (int32_t)j + 1 &&
        is_detached_run(code, n, (uint32_t)code->ins[j].target, &m->to)) {
        m->from = (uint32_t)code->ins[j].target;
        m->dropped = j;
        return !upy_nin_falls_through(&code->ins[j - 1]) && n[j] == 1;
    }
    m->from = j;
    return is_detached_run(code, n, j, &m->to);
}

unpyc_status upy_normalize_layout(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err) {
    uint32_t *n, *new_index, i, k, moves = 0, at = 0;
    int32_t *move_after; /* instruction -> its move, or -1 */
    uint8_t *placed;
    move *list;
    upy_nin *out;

    if (!code->count)
        return UNPYC_OK;
    n = entries(code, arena);
    move_after = upy_arena_array(arena, code->count + 1, sizeof *move_after);
    placed = upy_arena_array(arena, code->count + 1, 1);
    list = upy_arena_array(arena, code->count + 1, sizeof *list);
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
            !async_exit_move(code, n, i, &m))
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
            for (k = m->from; k < m->to; k++) {
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
