/*
 * uncopy.c - joining the copies of small exit blocks back to the block.
 *
 * From 3.10 on the compiler replaces a jump to a small block that leaves
 * the code (at most MAX_COPY_SIZE = 4 instructions ending in a return or
 * a raise) by a copy of that block (Python/flowgraph.c
 * inline_small_exit_blocks in 3.12, inline_small_or_no_lineno_blocks in
 * 3.13; compile.c extend_block before).  The join of an if / else or of a
 * conditional expression and the return after it then ends each branch:
 * `(f(v) if v else b'').decode('utf8')` reads as two returns.  That is
 * equivalent code, but for its tables: co_consts and co_names fill in
 * compile order, so the copy's names and constants sit after those of the
 * code laid out between the copy and its block, where two returns written
 * so would take theirs first.  Where the tables say so, and nothing says
 * otherwise, the copy becomes the jump to the block again (the code that
 * runs is the same either way), and recovery reads the join.
 */
#include <stdlib.h>
#include <string.h>

#include "normalize/normalize.h"
#include "util/error.h"

/* flowgraph.c MAX_COPY_SIZE: a copy spans at most this many instructions
 * of the version's own (a neutral instruction keeps its source's offset). */
enum { MAX_COPY_SIZE = 4, NO_DEPTH = -1 };

/* A name of co_names by its object, for the search by halves. */
typedef struct name_slot {
    const upy_object *name;
    int32_t slot;
} name_slot;

typedef struct uncopy {
    upy_ncode *code;
    upy_arena *arena;
    uint32_t *entries; /* jumps and handlers leading to each instruction */
    int32_t *depth;    /* stack depth on entry, NO_DEPTH where unknown */
    uint8_t *plain;    /* reached without an exception */
    uint8_t *protects_plain; /* the handler of code reached so */
    uint8_t *dropped;        /* part of a copy joined back */
    uint8_t *joined_at; /* a block copies were joined back to starts here */
    int32_t *first;     /* first instruction using each table slot */
    name_slot *names;
    size_t nconsts, nnames;
    /* The exits reached without an exception, ascending: the blocks a copy
     * may be joined back to (join_copy asked every instruction after each
     * exit, quadratic in a body of many handlers that return). */
    uint32_t *plain_exits;
    uint32_t n_plain_exits;
    uint32_t last_plain; /* the last instruction reached so, or count */
    /* walk's instructions still to visit: each is put there once, when
     * first seen. */
    uint32_t *work;
    /* jumps_past's last scan: in [past_from, past_to) the first
     * instruction jumping past past_end is past_hit (UINT32_MAX: none);
     * past_to 0 when there is none to go on from (at first, after a
     * join). */
    uint32_t past_from, past_to, past_end, past_hit;
} uncopy;

static int by_name(const void *a, const void *b) {
    const upy_object *x = ((const name_slot *)a)->name;
    const upy_object *y = ((const name_slot *)b)->name;
    return x < y ? -1 : x > y;
}

/* The slot of co_consts (0 .. nconsts-1) or co_names (nconsts on) that
 * instruction i uses, or -1.  Fast, cell and free variables are named by
 * the symbol table, in the order of the source, not of the code. */
static int32_t table_slot(const uncopy *u, uint32_t i) {
    const upy_nin *in = &u->code->ins[i];
    name_slot key, *hit;
    if (in->op == N_LOAD_CONST)
        return in->arg >= 0 && (size_t)in->arg < u->nconsts ? in->arg : -1;
    if (!upy_nin_uses_names(in))
        return -1;
    key.name = in->obj;
    hit = u->nnames ? bsearch(&key, u->names, u->nnames, sizeof key, by_name)
                    : NULL;
    return hit ? (int32_t)u->nconsts + hit->slot : -1;
}

/* Fills u->first from the instructions not dropped. */
static void find_first_uses(uncopy *u) {
    uint32_t i;
    for (i = 0; i < u->nconsts + u->nnames; i++)
        u->first[i] = -1;
    for (i = 0; i < u->code->count; i++) {
        int32_t s = u->dropped[i] ? -1 : table_slot(u, i);
        if (s >= 0 && u->first[s] < 0)
            u->first[s] = (int32_t)i;
    }
}

/* Stack depths on entry from instruction 0, following jumps and, with
 * handlers set, exception edges; marks what it reaches in `seen`. */
static void walk(uncopy *u, int handlers, uint8_t *seen) {
    const upy_ncode *c = u->code;
    uint32_t *work = u->work;
    uint32_t n = 0, i;
    u->depth[0] = 0;
    seen[0] = 1;
    work[n++] = 0;
    while (n) {
        const upy_nin *in = &c->ins[i = work[--n]];
        int32_t to[3] = {-1, in->target, handlers ? in->handler : -1}, k;
        int32_t d[3] = {u->depth[i] + upy_nin_stack_effect(in, 0),
                        u->depth[i] + upy_nin_stack_effect(in, 1),
                        (int32_t)in->handler_depth + 1 +
                            (in->handler_lasti ? 1 : 0)};
        if (upy_nin_falls_through(in) && i + 1 < c->count)
            to[0] = (int32_t)i + 1;
        for (k = 0; k < 3; k++) {
            if (to[k] < 0 || (uint32_t)to[k] >= c->count || seen[to[k]])
                continue;
            seen[to[k]] = 1;
            u->depth[to[k]] = d[k];
            work[n++] = (uint32_t)to[k];
        }
    }
}

/* Whether two instructions do the same, under the same handler, on the
 * same line (a copy keeps the lines of its block; the code it follows
 * has its own). */
static int same_nin(const upy_nin *a, const upy_nin *b) {
    return a->op == b->op && a->line == b->line && a->flags == b->flags &&
           a->arg == b->arg && a->obj == b->obj && a->target < 0 &&
           b->target < 0 && a->handler == b->handler &&
           a->handler_depth == b->handler_depth &&
           a->handler_lasti == b->handler_lasti;
}

/* How many instructions end both exits a < b alike, as a copy of one
 * block: nothing jumps into them past the first, they fit in the size
 * the compiler copies, and the stack is as deep where both start.  0 when
 * none do. */
static uint32_t copied_size(const uncopy *u, uint32_t a, uint32_t b) {
    const upy_nin *ins = u->code->ins;
    uint32_t k = 0, offsets = 0, best = 0;
    while (k <= a && k < b - a && !u->dropped[a - k] &&
           same_nin(&ins[a - k], &ins[b - k])) {
        if (k && (u->entries[a - k + 1] || u->entries[b - k + 1] ||
                  !upy_nin_falls_through(&ins[a - k]) ||
                  upy_nin_ends_block(&ins[a - k])))
            break;
        if (!k || ins[a - k].offset != ins[a - k + 1].offset)
            offsets++;
        if (offsets > MAX_COPY_SIZE)
            break;
        k++;
        if (u->depth[a - k + 1] != NO_DEPTH &&
            u->depth[a - k + 1] == u->depth[b - k + 1])
            best = k;
    }
    return best;
}

/* Compares slot x, first used in a copy, with the slots first used in
 * [from, to): *later when x comes after one of the same table, *earlier
 * when before. */
static void compare_first_uses(const uncopy *u, int32_t x, uint32_t from,
                               uint32_t to, int *later, int *earlier) {
    uint32_t j;
    for (j = from; j < to; j++) {
        int32_t y = u->dropped[j] ? -1 : table_slot(u, j);
        if (y < 0 || u->first[y] != (int32_t)j ||
            (x < (int32_t)u->nconsts) != (y < (int32_t)u->nconsts))
            continue;
        *later |= x > y;
        *earlier |= x < y;
    }
}

/* Where the handler code at h ends: at the next handler of code reached
 * without an exception (another try's, which may come later in the
 * source), or at code reached so. */
static uint32_t handler_code_end(const uncopy *u, uint32_t h) {
    uint32_t j = h + 1;
    while (j < u->code->count && !u->plain[j] && !u->protects_plain[j])
        j++;
    return j;
}

/* Whether [from, to) holds a copy of the k instructions ending at b. */
static int holds_copy(const uncopy *u, uint32_t from, uint32_t to, uint32_t b,
                      uint32_t k) {
    const upy_nin *ins = u->code->ins;
    uint32_t j, m;
    for (j = from + k - 1; j < to; j++) {
        for (m = 0; m < k && same_nin(&ins[j - m], &ins[b - m]); m++)
            ;
        if (m == k)
            return 1;
    }
    return 0;
}

/* What the tables say of [c0, c1] and the block alike at o0 laid out
 * later: COPY where the slots it uses first come after those the code
 * compiled between them uses first, in the same table, and none before
 * them; WRITTEN where one comes before; UNTOLD where nothing between is
 * used first.  The code compiled between is laid out between, and, where
 * the copy ends a try body and the block is after the try, in the try's
 * handlers, laid out after all other code (push_cold_blocks_to_end). */
enum { WRITTEN = -1, UNTOLD = 0, COPY = 1 };
static int tables_say(const uncopy *u, uint32_t c0, uint32_t c1, uint32_t o0) {
    const upy_nin *ins = u->code->ins;
    int32_t h = c0 ? ins[c0 - 1].handler : -1;
    uint32_t i, h_end = 0, k = c1 + 1 - c0;
    int later = 0, earlier = 0;
    /* (A handler that goes on to the block holds a copy of its own:
     * recovery reads that try from the copies, try.c rest_after_try, and
     * its tables tell nothing more.) */
    if (h > (int32_t)o0 && ins[o0].handler != h &&
        upy_nin_falls_through(&ins[c0 - 1]))
        h_end = handler_code_end(u, (uint32_t)h);
    if (!h_end || holds_copy(u, (uint32_t)h, h_end, o0 + k - 1, k))
        h = -1;
    for (i = c0; i <= c1; i++) {
        int32_t x = table_slot(u, i);
        int after_between = 0;
        if (x < 0 || u->first[x] < (int32_t)c0)
            continue;
        compare_first_uses(u, x, c1 + 1, o0, &after_between, &earlier);
        later |= after_between;
        /* (Where x entered after code laid out between, the block that
         * entered it is the end of the try body itself, a return there
         * left unprotected (compile.c compiler_unwind_fblock pops the
         * handler first): what the handler enters later tells nothing.) */
        if (h >= 0 && !after_between)
            compare_first_uses(u, x, (uint32_t)h, h_end, &later, &earlier);
    }
    return earlier ? WRITTEN : later ? COPY : UNTOLD;
}

/* Whether code in [from, to) jumps past instruction `end`: then the block
 * ending at `end` is no join of all the code there (an else part laid
 * out after it, which never reaches it: the block is another copy, the
 * compiler dropped the block itself). */
static int jumps_past(uncopy *u, uint32_t from, uint32_t to, uint32_t end) {
    uint32_t i;
    /* The copies are tried from the first on, each against the exits
     * after it (mostly the same one, the last): where the last scan for
     * the same exit covered from on and found nothing before from, its
     * answer holds (an elif chain's branches each scanned the rest of the
     * chain).  Joins change what is dropped and where jumps go: the scan
     * starts again after one (join_copy). */
    if (from >= to)
        return 0;
    if (u->past_to == to && u->past_end == end && u->past_from <= from &&
        (u->past_hit == UINT32_MAX || u->past_hit >= from))
        return u->past_hit != UINT32_MAX;
    for (i = from; i < to; i++)
        if (!u->dropped[i] && u->code->ins[i].target > (int32_t)end)
            break;
    u->past_from = from;
    u->past_to = to;
    u->past_end = end;
    u->past_hit = i < to ? i : UINT32_MAX;
    return i < to;
}

/* Whether no code reached without an exception comes after i. */
static int ends_plain_code(const uncopy *u, uint32_t i) {
    return u->last_plain == u->code->count || i >= u->last_plain;
}

/* Joins the copy ending at exit e back to the last exit alike after it
 * reached without an exception, where the tables say so.  Returns 1 when
 * it did. */
static int join_copy(uncopy *u, uint32_t e) {
    upy_nin *ins = u->code->ins;
    uint32_t b, k, x, j;
    int say;
    /* (The exits after e, from the last: joins so far changed code up to
     * the exits before e only.) */
    for (j = u->n_plain_exits; j-- > 0 && (b = u->plain_exits[j]) > e;) {
        if (ins[b].op != ins[e].op || u->dropped[b] ||
            !(k = copied_size(u, e, b)))
            continue;
        /* A return of None alone ending the code may be the implicit one,
         * copied by duplicate_exits_without_lineno into each way to the
         * end: its None tells nothing of the source's shape (recovery
         * reads its copies, try.c handler_falls_off_end). */
        if (k == 2 && upy_nin_loads_none(&ins[e - 1]) && ends_plain_code(u, b))
            return 0;
        /* A copy right after an except clause's POP_EXCEPT is the code
         * after the try, which recovery reads from it (try.c
         * copy_in_clause: only a constant's return reads as the clause's
         * own too).  Joined, the clause's jump to a return after the try's
         * else part lost the else part (3.10 `if c: m = f()` / `else:
         * raise` in the clause, `else: m.x = 1`, `return m.R`). */
        if (e + 1 > k && ins[e - k].op == N_POP_EXCEPT &&
            !(k == 2 && ins[e - 1].op == N_LOAD_CONST))
            return 0;
        /* (Where nothing between tells, the tables read the same either
         * way: a copy of a block another copy before it was is one too,
         * the rest of the branches of one if.) */
        say = tables_say(u, e + 1 - k, e, b + 1 - k);
        if (jumps_past(u, e + 1 - k, b + 1 - k, b) || say == WRITTEN ||
            (say == UNTOLD && !u->joined_at[b + 1 - k]))
            return 0;
        u->joined_at[b + 1 - k] = 1;
        u->past_to = 0;
        for (x = e + 2 - k; x <= e; x++)
            u->dropped[x] = 1;
        x = e + 1 - k;
        ins[x].op = N_JUMP;
        ins[x].flags = 0;
        ins[x].arg = 0;
        ins[x].obj = NULL;
        ins[x].target = (int32_t)(b + 1 - k);
        ins[x].line = -1;
        /* The jump the copy replaced ended the code before it, on its
         * line: the line of a `pass` right before it, whose NOP it made
         * redundant (flowgraph.c propagate_line_numbers,
         * remove_redundant_nops), or of a `break` after an if statement,
         * whose NOP the if's test jumps to (read on the line before, the
         * jump was the if's body's: `if c: f()` / `break` read as `if
         * not c: break` / `f()`, and with c the loop went round again).  It
         * keeps the copy's handler, the block's: a jump out of a try body under
         * the try's handler is 3.13's copy of the way out to an else part
         * (try.c body_jumps_on_under). */
        if (ins[x].lead_nops == 1 && ins[x].lead_line >= 0) {
            ins[x].line = ins[x].lead_line;
            ins[x].lead_nops = 0;
            ins[x].lead_line = -1;
        }
        if (ins[x].line < 0 && x && upy_nin_falls_through(&ins[x - 1]))
            ins[x].line = ins[x - 1].line;
        u->entries[b + 1 - k]++;
        return 1;
    }
    return 0;
}

/* Fills plain_exits and last_plain from plain. */
static unpyc_status find_plain_exits(uncopy *u) {
    const upy_ncode *c = u->code;
    uint32_t i, n = 0;
    u->last_plain = c->count;
    for (i = 0; i < c->count; i++) {
        if (!u->plain[i])
            continue;
        u->last_plain = i;
        n += c->ins[i].op == N_RETURN || c->ins[i].op == N_RAISE;
    }
    u->plain_exits = upy_arena_array(u->arena, n + 1, sizeof(uint32_t));
    if (!u->plain_exits)
        return UNPYC_E_NOMEM;
    for (i = 0; i < c->count; i++)
        if (u->plain[i] &&
            (c->ins[i].op == N_RETURN || c->ins[i].op == N_RAISE))
            u->plain_exits[u->n_plain_exits++] = i;
    return UNPYC_OK;
}

static unpyc_status setup(uncopy *u) {
    const upy_ncode *c = u->code;
    uint8_t *seen = upy_arena_array(u->arena, c->count, 1);
    size_t i;
    u->nconsts = upy_seq_len(c->code->consts);
    u->nnames = upy_seq_len(c->code->names);
    u->entries = upy_arena_array(u->arena, c->count, sizeof *u->entries);
    u->depth = upy_arena_array(u->arena, c->count, sizeof *u->depth);
    u->plain = upy_arena_array(u->arena, c->count, 1);
    u->protects_plain = upy_arena_array(u->arena, c->count, 1);
    u->dropped = upy_arena_array(u->arena, c->count, 1);
    u->joined_at = upy_arena_array(u->arena, c->count, 1);
    u->first =
        upy_arena_array(u->arena, u->nconsts + u->nnames + 1, sizeof *u->first);
    u->names = upy_arena_array(u->arena, u->nnames + 1, sizeof *u->names);
    u->work =
        upy_arena_array_uncleared(u->arena, c->count + 1, sizeof *u->work);
    if (!u->work || !seen || !u->entries || !u->depth || !u->plain ||
        !u->dropped || !u->joined_at || !u->first || !u->names ||
        !u->protects_plain)
        return UNPYC_E_NOMEM;
    for (i = 0; i < c->count; i++) {
        u->depth[i] = NO_DEPTH;
        if (c->ins[i].target >= 0 && (uint32_t)c->ins[i].target < c->count)
            u->entries[c->ins[i].target]++;
        if (c->ins[i].handler >= 0 && (uint32_t)c->ins[i].handler < c->count)
            u->entries[c->ins[i].handler]++;
    }
    for (i = 0; i < u->nnames; i++) {
        u->names[i].name = upy_seq_item(c->code->names, i);
        u->names[i].slot = (int32_t)i;
    }
    qsort(u->names, u->nnames, sizeof *u->names, by_name);
    walk(u, 0, u->plain);
    if (find_plain_exits(u) != UNPYC_OK)
        return UNPYC_E_NOMEM;
    for (i = 0; i < c->count; i++)
        if (u->plain[i] && c->ins[i].handler >= 0 &&
            (uint32_t)c->ins[i].handler < c->count)
            u->protects_plain[c->ins[i].handler] = 1;
    walk(u, 1, seen);
    return UNPYC_OK;
}

/* Whether the code has two returns or raises: a copy is joined back to
 * an exit after it (join_copy), so with fewer there is nothing to join
 * (`def g(a, b): return a + b`), and no table need be built. */
static int has_two_exits(const upy_ncode *code) {
    uint32_t i, exits = 0;
    for (i = 0; i < code->count && exits < 2; i++)
        exits += code->ins[i].op == N_RETURN || code->ins[i].op == N_RAISE;
    return exits == 2;
}

unpyc_status upy_normalize_uncopy(upy_ncode *code, upy_arena *arena,
                                  unpyc_error *err) {
    uncopy u;
    uint32_t e;
    int joined = 0;
    if (!code->count || !code->layout->copies_exits || !has_two_exits(code))
        return UNPYC_OK;
    memset(&u, 0, sizeof u);
    u.code = code;
    u.arena = arena;
    if (setup(&u) != UNPYC_OK)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    find_first_uses(&u);
    for (e = 0; e < code->count; e++) {
        if ((code->ins[e].op != N_RETURN && code->ins[e].op != N_RAISE) ||
            u.dropped[e] || !join_copy(&u, e))
            continue;
        joined = 1;
        find_first_uses(&u);
    }
    if (joined && upy_ncode_drop(code, u.dropped, arena) != UNPYC_OK)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    return UNPYC_OK;
}
