/*
 * try.c - try statements from the exception table (3.11+ layout).
 *
 * The body of a try is the blocks whose handler is the try's handler (or
 * nested in it).  The handler starts with PUSH_EXC_INFO and is one of:
 *
 *   except clauses:  [type; CHECK_EXC_MATCH; POP_JUMP_IF_FALSE next]
 *                    (STORE name | POP_TOP) body POP_EXCEPT [name cleanup]
 *                    JUMP after ... and RERAISE 0 when no clause matched;
 *                    a bare except starts with POP_TOP;
 *   finally:         the finally body, then RERAISE 0; the compiler also
 *                    copies the body onto the normal way out of the try
 *                    and before every return / break / continue in it.
 *
 * Clause bodies of named clauses are wrapped in a hidden try/finally that
 * deletes the name (its handler: LOAD_CONST None; STORE; DELETE; RERAISE),
 * and every handler has a cleanup block (COPY 3; POP_EXCEPT; RERAISE 1);
 * neither is reached by normal control flow, so the walker never enters
 * them.
 */
#include <string.h>

#include "recover/rec.h"

static const upy_nin *ins(const rec *r, uint32_t i) {
    return &r->ncode.ins[i];
}

static const upy_block *blk(const rec *r, int32_t b) {
    return &r->cfg.blocks[b];
}

/* Puts the handler's entry state on the symbolic stack: what was there at
 * the try (its unwind depth), the offset for lasti handlers, then what
 * PUSH_EXC_INFO leaves: the previous exception and the exception. */
static int enter_handler(rec *r, int32_t h, uint32_t try_depth) {
    const upy_block *hb = blk(r, h);
    uint32_t depth = hb->depth_in > 0 ? (uint32_t)hb->depth_in - 1 : 0;
    (void)try_depth;
    if (r->sp > depth)
        r->sp = depth;
    while (r->sp < depth)
        if (rec_push(r, SV_LASTI, NULL))
            return -1;
    if (rec_push(r, SV_PREV_EXC, NULL) || rec_push(r, SV_EXC, NULL))
        return -1;
    return 0;
}

static int is_clause_header(const rec *r, uint32_t i, uint32_t end) {
    for (; i < end; i++) {
        if (ins(r, i)->op == N_EXC_MATCH || ins(r, i)->op == N_EG_MATCH)
            return 1;
        if (ins(r, i)->op == N_POP_JUMP_IF || ins(r, i)->op == N_POP_TOP ||
            ins(r, i)->op == N_STORE)
            return 0;
    }
    return 0;
}

/* Walks one clause body that starts at instruction `start`; *exit gets
 * where it went when it ended normally. */
static int clause_body(rec *r, uint32_t start, int32_t end_block,
                       const char *name, uint32_t base, const region *rg,
                       upy_ptr_vec *body, int32_t *exit) {
    int32_t b = r->cfg.block_of[start], own = blk(r, b)->handler;
    region crg = *rg;
    /* The clause body's own handler: the one of the clause header (the
     * handler's cleanup) or, in a named clause, the name cleanup under it
     * -- not the handler of a try the body starts with. */
    if (start > 0 && ins(r, start - 1)->handler >= 0) {
        int32_t header = r->cfg.block_of[ins(r, start - 1)->handler];
        int32_t x = own;
        int steps = 0;
        if (!name) {
            own = header;
        } else {
            while (x != UPY_NO_BLOCK && blk(r, x)->handler != header &&
                   ++steps < 64)
                x = blk(r, x)->handler;
            if (x != UPY_NO_BLOCK && blk(r, x)->handler == header)
                own = x;
        }
    }
    crg.start = b;
    crg.end = end_block > b ? end_block : b + 1;
    crg.follow = UPY_NO_BLOCK;
    crg.handler = own;
    crg.alt_handler = rg->handler;
    crg.base = base;
    crg.except_name = name;
    r->resume_block = b;
    r->resume_at = start;
    r->exit_block = UPY_NO_BLOCK;
    if (rec_region(r, b, &crg, body))
        return -1;
    *exit = r->exit_block;
    return 0;
}

static int try_except(rec *r, int32_t b, int32_t h, const region *rg,
                      upy_stmt *s, int32_t *follow, upy_ptr_vec *out) {
    uint32_t clause = blk(r, h)->start + 1, base;
    upy_ptr_vec handlers = {0};
    int guard = 0;
    (void)b;
    (void)out;

    *follow = UPY_NO_BLOCK;
    while (guard++ < 256 && clause < r->ncode.count) {
        int32_t cb = r->cfg.block_of[clause], next_clause = UPY_NO_BLOCK;
        const upy_block *cbb = blk(r, cb);
        upy_handler *hd;
        upy_ptr_vec body = {0};
        int32_t exit;
        uint32_t body_start;

        if (ins(r, clause)->op == N_RERAISE) {
            r->done[cb] = 1;
            break;
        }
        hd = upy_arena_alloc(r->arena, sizeof *hd);
        if (!hd)
            return rec_oom(r);
        r->done[cb] = 1;
        base = r->sp - 1; /* the previous exception stays below */
        if (is_clause_header(r, clause, cbb->end)) {
            int stop = rec_run(r, clause, cbb->end, rg, out);
            sval match;
            if (stop < 0)
                return -1;
            if ((uint32_t)stop != cbb->end - 1 ||
                ins(r, (uint32_t)stop)->op != N_POP_JUMP_IF)
                return rec_fail_region(r, cb, rg, out);
            match = rec_pop(r);
            hd->type = match.expr;
            next_clause = cbb->jump;
            if (cbb->next == UPY_NO_BLOCK)
                return rec_fail_region(r, cb, rg, out);
            body_start = blk(r, cbb->next)->start;
            r->done[cbb->next] = 1;
            s->u.try_.is_star = ins(r, (uint32_t)stop - 1)->op == N_EG_MATCH;
        } else {
            body_start = clause;
        }
        /* The exception: bound to a name, or dropped. */
        if (ins(r, body_start)->op == N_STORE) {
            hd->name = rec_str(ins(r, body_start)->obj);
            rec_pop(r);
            body_start++;
        } else if (ins(r, body_start)->op == N_POP_TOP) {
            rec_pop(r);
            body_start++;
        }
        r->done[r->cfg.block_of[body_start]] = 0;
        /* A clause's code ends at the next clause, the last one at the
         * handler's cleanup block, which closes the handler's code. */
        if (clause_body(r, body_start,
                        next_clause != UPY_NO_BLOCK ? next_clause
                        : blk(r, h)->handler != UPY_NO_BLOCK &&
                                blk(r, h)->handler > h
                            ? blk(r, h)->handler
                            : rg->end,
                        hd->name, base, rg, &body, &exit))
            return -1;
        hd->body = upy_vec_stmts(&body);
        if (upy_vec_push(r->arena, &handlers, hd))
            return rec_oom(r);
        if (*follow == UPY_NO_BLOCK && exit != UPY_NO_BLOCK)
            *follow = exit;
        if (next_clause == UPY_NO_BLOCK)
            break;
        /* The next clause starts from the same handler state. */
        r->sp = base;
        if (rec_push(r, SV_EXC, NULL))
            return -1;
        clause = blk(r, next_clause)->start;
    }
    s->u.try_.handlers = upy_arena_array(
        r->arena, handlers.len ? handlers.len : 1, sizeof(upy_handler));
    if (!s->u.try_.handlers)
        return rec_oom(r);
    for (guard = 0; guard < (int)handlers.len; guard++)
        s->u.try_.handlers[guard] = *(upy_handler *)handlers.items[guard];
    s->u.try_.n_handlers = handlers.len;
    return 0;
}

/* --- 3.12+: the else part of a try whose handlers all leave ----------- */

/* With its handlers moved after all other code and each handler ending in
 * a return or raise, `try: A / except: B / else: C` + D and `try: A /
 * except: B` + C + D have the same control flow.  What tells them apart
 * is the order the compiler first met names and constants in, which is
 * the order of co_names and co_consts: body, else, handlers, then the
 * code after the try. */

static int32_t entry_index(const upy_object *tuple, const upy_object *o) {
    size_t k, n = upy_seq_len(tuple);
    for (k = 0; k < n; k++)
        if (upy_seq_item(tuple, k) == o)
            return (int32_t)k;
    return -1;
}

/* The co_names (table 0) or co_consts (table 1) entry instruction i
 * refers to, or -1.  None is left out: the compiler copies `return None`
 * everywhere. */
static int32_t entry_of(const rec *r, uint32_t i, int table) {
    const upy_nin *in = ins(r, i);
    if (!in->obj)
        return -1;
    if (table == 1)
        return in->op == N_LOAD_CONST && in->obj->kind != UPY_NONE
                   ? entry_index(r->code->consts, in->obj)
                   : -1;
    switch ((upy_nop)in->op) {
    case N_LOAD:
    case N_STORE:
    case N_DELETE:
        if (in->arg != UPY_SCOPE_GLOBAL && in->arg != UPY_SCOPE_NAME)
            return -1;
        break;
    case N_LOAD_ATTR:
    case N_LOAD_METHOD:
    case N_LOAD_SUPER_ATTR:
    case N_STORE_ATTR:
    case N_DELETE_ATTR:
    case N_IMPORT_NAME:
    case N_IMPORT_FROM:
        break;
    default:
        return -1;
    }
    return entry_index(r->code->names, in->obj);
}

enum { SEEN_NOT = -3, SEEN_HANDLER = -2, SEEN_ELSEWHERE = -1 };

/* What one table says of the statements `rest` (instructions [rest[0]->
 * start, end), each statement to the start of the next): at least *lo
 * and at most *hi of them came before handler h.  0 when it contradicts
 * itself. */
static int else_bounds_by(rec *r, int32_t h, const upy_ptr_vec *rest,
                          uint32_t end, int table, uint32_t *lo, uint32_t *hi) {
    const upy_object *tuple = table ? r->code->consts : r->code->names;
    size_t n = upy_seq_len(tuple), k;
    int32_t *seen, handler_min = -1;
    uint32_t i, j, first = ((upy_stmt *)rest->items[0])->start;

    *lo = 0;
    *hi = rest->len;
    seen = upy_arena_array(r->arena, n + 1, sizeof *seen);
    if (!seen)
        return 0;
    for (k = 0; k < n; k++)
        seen[k] = SEEN_NOT;
    for (i = 0, j = 0; i < r->ncode.count; i++) {
        int32_t e = entry_of(r, i, table), where;
        if (e < 0)
            continue;
        if (upy_cfg_dominates(&r->cfg, h, r->cfg.block_of[i])) {
            where = SEEN_HANDLER;
        } else if (i >= first && i < end) {
            while (j + 1 < rest->len &&
                   i >= ((upy_stmt *)rest->items[j + 1])->start)
                j++;
            where = (int32_t)j;
        } else {
            where = SEEN_ELSEWHERE;
        }
        if (seen[e] == SEEN_NOT ||
            (seen[e] >= 0 && where >= 0 && where < seen[e]))
            seen[e] = where;
        else if (seen[e] != where && !(seen[e] >= 0 && where >= 0))
            seen[e] = SEEN_ELSEWHERE;
    }
    for (k = 0; k < n; k++)
        if (seen[k] == SEEN_HANDLER) {
            handler_min = (int32_t)k;
            break;
        }
    if (handler_min < 0)
        return 1;
    /* Each statement with an entry of its own says before or after. */
    for (j = 0; j < rest->len; j++) {
        for (k = 0; k < n && seen[k] != (int32_t)j; k++)
            ;
        if (k == n)
            continue;
        if ((int32_t)k < handler_min)
            *lo = j + 1;
        else if (*hi == rest->len)
            *hi = j;
    }
    return *lo <= *hi;
}

/* How many statements of `rest` are the else part (see above): as few as
 * the evidence of both tables allows. */
static uint32_t else_by_order(rec *r, int32_t h, const upy_ptr_vec *rest,
                              uint32_t end) {
    uint32_t j, lo_names, hi_names, lo_consts, hi_consts, lo, hi;
    if (!rest->len)
        return 0;
    for (j = 1; j < rest->len; j++)
        if (((upy_stmt *)rest->items[j])->start <
            ((upy_stmt *)rest->items[j - 1])->start)
            return 0;
    if (!else_bounds_by(r, h, rest, end, 0, &lo_names, &hi_names) ||
        !else_bounds_by(r, h, rest, end, 1, &lo_consts, &hi_consts))
        return 0;
    lo = lo_names > lo_consts ? lo_names : lo_consts;
    hi = hi_names < hi_consts ? hi_names : hi_consts;
    return lo <= hi ? lo : 0;
}

/* The finally body in the handler: [first, reraise) of instructions. */
static int finally_range(const rec *r, int32_t h, uint32_t *first,
                         uint32_t *reraise) {
    uint32_t i;
    *first = blk(r, h)->start + 1;
    for (i = *first; i < r->ncode.count; i++) {
        if (ins(r, i)->op == N_RERAISE && ins(r, i)->arg == 0) {
            *reraise = i;
            return 0;
        }
        if (ins(r, i)->op == N_PUSH_EXC_INFO)
            break;
    }
    return -1;
}

/* Marks the copies of the finally body [fstart, fstart + flen) before the
 * exits of the try body [b, end), and returns where the body ends.  A
 * `return value` at the end of the body unwinds past the protected
 * blocks: its copies of the finally body (and of enclosing with exits),
 * then the RETURN, falling through blocks of their own.  Those belong to
 * the body too; *unwind_from is the first of them (left alone when there
 * are none). */
static int32_t skip_finally_copies(rec *r, int32_t b, int32_t end,
                                   const region *rg, uint32_t fstart,
                                   uint32_t flen, int32_t *unwind_from) {
    int32_t ret = end, x;
    while (ret < rg->end && ret < (int32_t)r->cfg.count &&
           !blk(r, ret)->is_handler && blk(r, ret)->next == ret + 1 &&
           ins(r, blk(r, ret)->end - 1)->op != N_RETURN)
        ret++;
    if (ret >= rg->end || ret >= (int32_t)r->cfg.count ||
        ins(r, blk(r, ret)->end - 1)->op != N_RETURN)
        ret = end;
    rec_skip_finally(r, b, ret, fstart, flen);
    if (ret == end)
        return end;
    for (x = end; x <= ret; x++)
        if (!rec_is_unwinding(r, x))
            return end;
    *unwind_from = end;
    return ret + 1;
}

/* The length of the exit block the compiler may copy at instruction i: up
 * to and with its first instruction that does not fall through (a few at
 * most), else 0. */
static uint32_t exit_copy_length(const rec *r, uint32_t i) {
    uint32_t k;
    for (k = 0; k < 4 && i + k < r->ncode.count; k++)
        if (!upy_nin_falls_through(ins(r, i + k)))
            return k + 1;
    return 0;
}

/* Whether [at, at + n) is the copy of the finally body [first, first + n)
 * on the normal way out of the try.  A branch of the finally body that
 * ends the body early jumps to a RERAISE 0 of its own in the handler (the
 * compiler copies that small exit block); in the copy it jumps to a copy
 * of what follows the finally (a small exit block too, as the implicit
 * `return None`).  Those copies are marked done. */
static int is_normal_finally_copy(rec *r, uint32_t at, uint32_t first,
                                  uint32_t n) {
    uint32_t k, tail;
    if (rec_same_code(r, at, first, n))
        return 1;
    if (at + n > r->ncode.count || first + n > r->ncode.count)
        return 0;
    tail = exit_copy_length(r, at + n);
    for (k = 0; k < n; k++) {
        const upy_nin *x = ins(r, at + k), *y = ins(r, first + k);
        int32_t t;
        if (rec_same_code(r, at + k, first + k, 1))
            continue;
        if (x->op != y->op || x->arg != y->arg || x->target < 0 ||
            y->target < 0 || !tail)
            return 0;
        t = y->target;
        if ((t >= (int32_t)first && t < (int32_t)(first + n)) ||
            ins(r, (uint32_t)t)->op != N_RERAISE || ins(r, (uint32_t)t)->arg)
            return 0;
        t = x->target;
        if ((t >= (int32_t)at && t <= (int32_t)(at + n)) ||
            !rec_same_code(r, (uint32_t)t, at + n, tail))
            return 0;
    }
    for (k = 0; k < n; k++)
        if (ins(r, at + k)->target >= 0 &&
            !rec_same_code(r, at + k, first + k, 1)) {
            uint32_t t = (uint32_t)ins(r, at + k)->target;
            rec_skip_range(r, t, tail);
            r->done[r->cfg.block_of[t]] = 1;
        }
    return 1;
}

int rec_try(rec *r, int32_t b, int32_t h, const region *rg, int32_t *next,
            upy_ptr_vec *out) {
    const upy_block *hb = blk(r, h);
    uint32_t try_depth = r->sp, first = 0, reraise = 0, depth_after;
    int is_finally, copy_ok = 0;
    int32_t end = rec_protected_end(r, b, rg), exit, follow = UPY_NO_BLOCK;
    int32_t unwind_from = 0;
    upy_ptr_vec body = {0}, orelse = {0}, finalbody = {0}, after = {0};
    region body_rg;
    uint32_t k;
    upy_stmt *s = rec_stmt(r, UPY_S_TRY);

    if (!s)
        return -1;
    if (hb->end - hb->start < 2 || ins(r, hb->start)->op != N_PUSH_EXC_INFO)
        return rec_fail_region(r, b, rg, out);
    is_finally = ins(r, hb->start + 1)->op != N_POP_TOP &&
                 !is_clause_header(r, hb->start + 1, hb->end) &&
                 finally_range(r, h, &first, &reraise) == 0;
    if (is_finally)
        end = skip_finally_copies(r, b, end, rg, first, reraise - first,
                                  &unwind_from);

    /* The body. */
    body_rg = *rg;
    body_rg.start = b;
    body_rg.end = end;
    body_rg.follow = UPY_NO_BLOCK;
    body_rg.handler = h;
    body_rg.alt_handler = REC_NO_ALT;
    body_rg.unwind_from = unwind_from;
    r->exit_block = UPY_NO_BLOCK;
    if (rec_region(r, b, &body_rg, &body))
        return -1;
    exit = r->exit_block;
    depth_after = try_depth;

    /* The handler. */
    r->done[h] = 1;
    if (enter_handler(r, h, try_depth))
        return -1;
    if (is_finally) {
        region frg = *rg;
        int32_t fb = r->cfg.block_of[first];
        frg.start = h;
        frg.end = r->cfg.block_of[reraise] + 1;
        frg.follow = UPY_NO_BLOCK;
        frg.handler = blk(r, fb)->handler;
        frg.alt_handler = REC_NO_ALT;
        frg.base = r->sp;
        r->resume_block = fb;
        r->resume_at = first;
        r->done[fb] = 0;
        if (rec_region(r, fb, &frg, &finalbody))
            return -1;
        /* The copy on the normal way out of the body. */
        if (exit != UPY_NO_BLOCK) {
            uint32_t at = blk(r, exit)->start, n = reraise - first;
            copy_ok = is_normal_finally_copy(r, at, first, n);
            if (copy_ok) {
                rec_skip_range(r, at, n);
                follow = r->cfg.block_of[at + n < r->ncode.count ? at + n : at];
                if (at + n < r->ncode.count &&
                    blk(r, follow)->start != at + n) {
                    r->resume_block = follow;
                    r->resume_at = at + n;
                }
            } else {
                follow = exit;
            }
        }
        s->u.try_.finalbody = upy_vec_stmts(&finalbody);
    } else {
        if (try_except(r, b, h, rg, s, &follow, out))
            return -1;
        /* The else part: from where the body left to where the handlers
         * go on. */
        if (exit != UPY_NO_BLOCK && follow != UPY_NO_BLOCK && exit != follow &&
            exit < follow && exit >= rg->start &&
            (follow <= rg->end || (!r->ncode.cold_handlers && exit < h))) {
            /* (Where the handlers go on past the region, as to the copy
             * of an enclosing finally body, the else part ends at the
             * handler that follows it.) */
            region erg = *rg;
            erg.start = exit;
            erg.end = follow <= rg->end ? follow : h;
            erg.follow = follow;
            r->sp = depth_after;
            if (rec_region(r, exit, &erg, &orelse))
                return -1;
        } else if (follow == UPY_NO_BLOCK && exit != UPY_NO_BLOCK &&
                   !r->ncode.cold_handlers && exit < h && exit >= rg->start) {
            /* No handler goes on after the try, but the body does, and
             * before the handlers: that is an else part (code after the
             * try would follow the handlers). */
            region erg = *rg;
            erg.start = exit;
            erg.end = h;
            erg.follow = UPY_NO_BLOCK;
            r->sp = depth_after;
            if (rec_region(r, exit, &erg, &orelse))
                return -1;
            follow = r->exit_block;
        } else if (follow == UPY_NO_BLOCK && exit != UPY_NO_BLOCK &&
                   r->ncode.cold_handlers && exit >= rg->start &&
                   exit < rg->end) {
            /* The rest of the region, of which a first part may be the
             * else part (see else_by_order). */
            region rest_rg = *rg;
            uint32_t end, k, n_else;
            int32_t b2;
            rest_rg.start = exit;
            r->sp = depth_after;
            r->exit_block = UPY_NO_BLOCK;
            if (rec_region(r, exit, &rest_rg, &after))
                return -1;
            follow = r->exit_block;
            for (b2 = exit; b2 < rg->end && !blk(r, b2)->is_handler; b2++)
                ;
            end =
                b2 < (int32_t)r->cfg.count ? blk(r, b2)->start : r->ncode.count;
            n_else = else_by_order(r, h, &after, end);
            for (k = 0; k < n_else; k++)
                if (upy_vec_push(r->arena, &orelse, after.items[k]))
                    return rec_oom(r);
            if (n_else) { /* (items is NULL when the rest is empty) */
                after.items += n_else;
                after.len -= n_else;
            }
        } else if (follow == UPY_NO_BLOCK) {
            follow = exit;
        }
        s->u.try_.orelse = upy_vec_stmts(&orelse);
    }
    r->sp = depth_after;
    r->base = rg->base;
    s->u.try_.body = upy_vec_stmts(&body);
    *next = follow;
    if (rec_emit(r, out, s))
        return -1;
    for (k = 0; k < after.len; k++)
        if (rec_emit(r, out, after.items[k]))
            return -1;
    return 0;
}
