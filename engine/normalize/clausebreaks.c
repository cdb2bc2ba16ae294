/*
 * clausebreaks.c - the break out of a loop that ends an except clause,
 * given back its jump to the loop's exit where 3.13 copied the clause's
 * end into it.
 *
 * A break jumps to the loop's exit.  Where the loop ends an except
 * clause, that exit is the clause's end: POP_EXCEPT (the cleanup of the
 * clause's name), a jump to the code after the try, with no line of its
 * own.  3.13's flowgraph.c inline_small_or_no_lineno_blocks copies such a
 * block into each jump to it, so the break becomes POP_EXCEPT; JUMP to
 * the code after the try, which 3.12+ lay out before the handler
 * (push_cold_blocks_to_end): a jump back out of the loop, in the middle of
 * its body.  Where the loop never leaves but through a break (`while
 * True:`), the original block, unreached, is dropped.  Read as it is, the
 * break's jump back was taken for going round the loop.  Worked example
 * (3.13, passlib test_ext_django _do_test_available_scheme;
 * tests/constructs/open_lies_audit42.py first_nonempty_sample):
 *
 *     try:                     0  secret = samples[scheme]
 *         secret = samples[s]  4  log.append(secret); return secret
 *     except KeyError:        11  PUSH_EXC_INFO ... match KeyError
 *         while True:         16  secret = get(); POP_JUMP_IF false -> 24
 *             secret = get()  22  POP_EXCEPT; JUMP 4      (the break)
 *             if secret:      24  JUMP 16                 (the loop's)
 *                 break
 *     log.append(secret)
 *     return secret
 *
 * 3.12 writes the break as a jump to that block, laid out after the
 * loop's last jump back (where the loop's exit is), and this pass gives
 * that back: the copy becomes a jump to the block where the loop's exit
 * (a for loop's FOR_ITER target, else the code right after its last jump
 * back) starts with the same code, else to the copy itself, moved there
 * where nothing in the loop goes there (a `while True:`).  A copy is the
 * POP_EXCEPT, the name's cleanup and the jump that end a run of code in
 * the innermost loop around it, the jump going out of the loop, where the
 * loop is code of the clause that POP_EXCEPT ends (its header protected
 * by that clause's cleanup, past the try and with bodies around it): from
 * inside a loop no statement but the loop's break leaves the clause by a
 * jump.  Either way the same instructions run, under the same handlers.
 */
#include "normalize/normalize.h"

#include "util/error.h"

/* Instructions the pass may visit: each copy looks for its loop through
 * the code after it.  Past the budget the copies stay as they are. */
enum { CLAUSE_BREAKS_BUDGET = 1 << 26 };

#define NONE UINT32_MAX

/* The jump of the clause end that starts at instruction p (POP_EXCEPT,
 * the cleanup of the clause's name, the jump), or NONE. */
static uint32_t clause_end_jump(const upy_ncode *code, uint32_t p) {
    uint32_t j = p + 1;
    if (code->ins[p].op != N_POP_EXCEPT || j >= code->count)
        return NONE;
    if (upy_nin_clears_name(&code->ins[j], code->count - j))
        j += 3;
    return j < code->count && code->ins[j].op == N_JUMP ? j : NONE;
}

/* Whether the run at x is the same code as the clause end [p, j]: the
 * same instructions, under the same handlers, the jump to the same
 * place. */
static int same_clause_end(const upy_ncode *code, uint32_t x, uint32_t p,
                           uint32_t j) {
    uint32_t k;
    if (x + (j - p) >= code->count)
        return 0;
    for (k = 0; k <= j - p; k++) {
        const upy_nin *a = &code->ins[x + k], *b = &code->ins[p + k];
        if (a->op != b->op || a->arg != b->arg || a->obj != b->obj ||
            a->target != b->target || a->handler != b->handler)
            return 0;
    }
    return 1;
}

/* The cleanup of the except clause whose code handler h protects (COPY 3;
 * POP_EXCEPT; RERAISE, past the cleanup of the clause's name), or -1 when
 * h is no such code's. */
static int32_t clause_cleanup(const upy_ncode *code, int32_t h) {
    if (h >= 0 && upy_nin_is_name_cleanup(&code->ins[h], code->count - h))
        h = code->ins[h].handler;
    if (h < 0 || (uint32_t)h + 2 >= code->count || code->ins[h].op != N_COPY ||
        code->ins[h + 1].op != N_POP_EXCEPT || code->ins[h + 2].op != N_RERAISE)
        return -1;
    return h;
}

/* The cleanup of the innermost except clause around the code handler h
 * protects: h's own, or, past the try bodies and with bodies around that
 * code (whose handlers start with PUSH_EXC_INFO), the clause's around
 * them; -1 when there is none. */
static int32_t enclosing_clause(const upy_ncode *code, int32_t h) {
    int32_t c = clause_cleanup(code, h);
    uint32_t steps;
    for (steps = 0; c < 0 && h >= 0 && steps < code->count; steps++) {
        if (code->ins[h].op != N_PUSH_EXC_INFO)
            return -1;
        /* (The handler's own code is protected by its cleanup, which is
         * protected by what protects the try.) */
        h = code->ins[h].handler;
        h = h >= 0 ? code->ins[h].handler : -1;
        c = clause_cleanup(code, h);
    }
    return c;
}

/* The innermost loop around the copy [p, j]: the header (*header) is the
 * latest instruction before p that a jump after j goes back to; *back is
 * the last such jump.  0 when there is none, when the loop is no code of
 * the except clause whose POP_EXCEPT is p's (the clause around the
 * header, whose cleanup is protected as p is) or when the copy's jump
 * stays in the loop. */
static int loop_around(const upy_ncode *code, uint32_t p, uint32_t j,
                       uint32_t *header, uint32_t *back, uint64_t *budget) {
    int32_t t = code->ins[j].target, c;
    uint32_t i;
    *header = *back = NONE;
    if (*budget < code->count)
        return 0;
    *budget -= code->count;
    for (i = j + 1; i < code->count; i++) {
        const upy_nin *in = &code->ins[i];
        if (in->op != N_JUMP || in->target < 0 || in->target >= (int32_t)p)
            continue;
        if (*header == NONE || (uint32_t)in->target >= *header) {
            *header = (uint32_t)in->target;
            *back = i;
        }
    }
    if (*header == NONE)
        return 0;
    c = enclosing_clause(code, code->ins[*header].handler);
    return c >= 0 && code->ins[c].handler == code->ins[p].handler &&
           (t < (int32_t)*header || t > (int32_t)*back);
}

/* Whether a jump or a handler leads into the copy [p, j] past its start
 * (then it stays, as it is). */
static int entered_inside(const upy_ncode *code, uint32_t p, uint32_t j) {
    uint32_t i;
    for (i = 0; i < code->count; i++) {
        int32_t t = code->ins[i].target, h = code->ins[i].handler;
        if ((t > (int32_t)p && t <= (int32_t)j) ||
            (h > (int32_t)p && h <= (int32_t)j))
            return 1;
    }
    return 0;
}

/* Whether any jump in the loop [header, back] goes to instruction x. */
static int loop_jumps_to(const upy_ncode *code, uint32_t header, uint32_t back,
                         uint32_t x) {
    uint32_t i;
    for (i = header; i <= back; i++)
        if (code->ins[i].target == (int32_t)x)
            return 1;
    return 0;
}

/* The code with the copy [p, j] made a jump: to x, or, where after is an
 * instruction (not NONE), to the copy moved after it.  Jumps to p go to
 * the new jump. */
static unpyc_status relay_break(upy_ncode *code, upy_arena *arena, uint32_t p,
                                uint32_t j, uint32_t x, uint32_t after,
                                unpyc_error *err) {
    uint32_t count = after == NONE ? code->count - (j - p) : code->count + 1;
    uint32_t at = 0;
    uint32_t i, k, jump_at = 0, moved_at = 0;
    uint32_t *new_index =
        upy_arena_array(arena, code->count, sizeof *new_index);
    upy_nin *out = upy_arena_array(arena, count, sizeof *out);
    if (!new_index || !out)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (i = 0; i < code->count; i++) {
        if (i == p) {
            jump_at = new_index[p] = at;
            out[at] = code->ins[p];
            out[at].op = N_JUMP;
            out[at].arg = 0;
            out[at].flags = 0;
            out[at].target = (int32_t)x;
            /* (A jump raises nothing: it takes the handler of the code
             * falling into it, as the break's jump in the clause did.) */
            out[at].handler = code->ins[p - 1].handler;
            out[at].handler_depth = code->ins[p - 1].handler_depth;
            out[at++].handler_lasti = code->ins[p - 1].handler_lasti;
            i = j;
            continue;
        }
        new_index[i] = at;
        out[at++] = code->ins[i];
        if (i != after)
            continue;
        moved_at = at;
        for (k = p; k <= j; k++) {
            if (k > p)
                new_index[k] = at;
            out[at++] = code->ins[k];
        }
        /* (The lines of statements that left no code before the break
         * stay with its jump.) */
        out[moved_at].lead_nops = 0;
        out[moved_at].lead_nops_joined = 0;
        out[moved_at].lead_line = -1;
    }
    for (i = 0; i < at; i++) {
        if (out[i].target >= 0)
            out[i].target = (int32_t)new_index[out[i].target];
        if (out[i].handler >= 0)
            out[i].handler = (int32_t)new_index[out[i].handler];
    }
    if (after != NONE)
        out[jump_at].target = (int32_t)moved_at;
    code->ins = out;
    code->count = at;
    return UNPYC_OK;
}

/* Gives the copy [p, j] of a clause end its jump back, if it is one. */
static unpyc_status relay_copy(upy_ncode *code, upy_arena *arena, uint32_t p,
                               uint32_t j, uint64_t *budget, unpyc_error *err) {
    uint32_t header, back, x;
    if (!upy_nin_falls_through(&code->ins[p - 1]) ||
        !loop_around(code, p, j, &header, &back, budget))
        return UNPYC_OK;
    x = code->ins[header].op == N_FOR_ITER ? (uint32_t)code->ins[header].target
                                           : back + 1;
    if (x <= back || entered_inside(code, p, j))
        return UNPYC_OK;
    if (same_clause_end(code, x, p, j))
        return relay_break(code, arena, p, j, x, NONE, err);
    if (code->ins[header].op == N_FOR_ITER ||
        upy_nin_falls_through(&code->ins[back]) ||
        loop_jumps_to(code, header, back, x))
        return UNPYC_OK;
    return relay_break(code, arena, p, j, 0, back, err);
}

unpyc_status upy_normalize_clause_breaks(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err) {
    uint64_t budget = CLAUSE_BREAKS_BUDGET;
    uint32_t p, j;
    unpyc_status st;
    for (p = 1; p < code->count; p++) {
        if ((j = clause_end_jump(code, p)) == NONE)
            continue;
        if ((st = relay_copy(code, arena, p, j, &budget, err)) != UNPYC_OK)
            return st;
    }
    return UNPYC_OK;
}
