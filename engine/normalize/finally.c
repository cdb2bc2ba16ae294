/*
 * finally.c - 3.8's finally subroutine turned into the copies 3.9's
 * compiler makes.
 *
 * 3.8 compiles a finally body once, as a subroutine (compile.c
 * compiler_try_finally, compiler_unwind_fblock): the normal way out of
 * the try falls into it after BEGIN_FINALLY pushes NULL; each return,
 * break or continue through the try CALL_FINALLYs it, pushing the address
 * to come back to; an exception enters it as the handler; END_FINALLY
 * ends it (back to the address, on after NULL, or the exception raised
 * again).  The code that deletes the name of `except E as x:` is such a
 * body, and a with's exit is one too (WITH_CLEANUP_START;
 * WITH_CLEANUP_FINISH; END_FINALLY).  END_FINALLY also ends an except
 * chain none of whose clauses matched.
 *
 * 3.9's compiler (bpo-33387) has no subroutine: it copies the finally body
 * into each way out, where the call was, and gives the exception a copy
 * of its own that ends in RERAISE.  This pass does the same to 3.8's
 * code, so that blocks.c reads 3.9's form.  Worked example, `try: return
 * a() finally: b()` (3.8 left, what this pass gives right, = 3.9's):
 *
 *         SETUP_FINALLY h                SETUP_FINALLY h
 *         LOAD a; CALL 0                 LOAD a; CALL 0
 *         POP_BLOCK                      POP_BLOCK
 *         CALL_FINALLY h                 LOAD b; CALL 0; POP_TOP
 *         RETURN_VALUE                   RETURN_VALUE
 *     h:  LOAD b; CALL 0; POP_TOP    h:  LOAD b; CALL 0; POP_TOP
 *         END_FINALLY                    RERAISE
 *
 * A with's exit becomes 3.9's: __exit__(None, None, None) on the normal
 * way, WITH_EXCEPT_START and the test of what it returned on the
 * exception's.
 *
 * A finally body that a return, break or continue leaves (POP_FINALLY)
 * has a None under the try in 3.8, which the copies drop (mark_leaving).
 *
 * Bodies are taken innermost first (the handler laid out last first), so
 * that a body copied has no subroutine of its own left in it.  Each is
 * checked by a walk of the exception's way through it (find_end); any
 * shape the compiler does not write stays unsupported: the pass fails
 * with UNPYC_E_UNSUPPORTED and the function is marked.
 */
#include <stdlib.h>
#include <string.h>

#include "normalize/normalize.h"
#include "util/error.h"

typedef enum body_kind {
    K_EXCEPT,  /* an except chain: its END_FINALLY becomes RERAISE */
    K_FINALLY, /* a finally body */
    K_NAME,    /* the deletion of an `except ... as` name */
    K_WITH,    /* a with's exit */
    /* A finally body a return, break or continue leaves (see
     * mark_leaving): 3.8 keeps a None under the try for it. */
    K_LEAVING,
} body_kind;

/* A subroutine: its first instruction and the END_FINALLY ending it. */
typedef struct body {
    uint8_t kind;
    int32_t h, e;
    /* K_LEAVING, per instruction: dropped from the code (the None and the
     * POP_TOPs of it), a CALL_FINALLY with a return value on the stack
     * (where a way out of the body pops the value, not the None); and a
     * copy's output index per body instruction. */
    uint8_t *drop, *keeps;
    int32_t *map;
} body;

/* The work a code's rewrites may take, in instructions rewritten: each
 * body costs a pass over the code, and crafted code of many thousands of
 * tries would cost quadratic time. */
#define FINALLY_BUDGET ((uint64_t)1 << 26)

typedef struct fin {
    /* Each rewrite writes the code into one scratch arena of two and
     * releases the other, which held the code before (the tables of a
     * body live with its output): memory stays that of two copies. */
    upy_arena *parent, *arena;
    upy_arena scratch[2];
    int cur; /* the scratch arena holding the code, -1: parent */
    uint64_t budget;
    unpyc_error *err;
    upy_nin *ins;
    uint32_t n;
    /* The None a with's exit loads, and its co_consts index (-1 when the
     * code has none: 3.9 would add it). */
    const upy_object *none;
    int32_t none_arg;
    /* The walk of a handler (find_end): per instruction its stack depth
     * above the handler's level, -1 when not reached. */
    int32_t *depth;
    uint32_t *work;
    uint32_t cap;
} fin;

/* The output of one rewrite: per input instruction its first output
 * instruction; jump targets are input indexes until fix_targets, except
 * where `fixed` says they are output indexes already (inside a copy). */
typedef struct build {
    upy_nin *out;
    uint8_t *fixed;
    int32_t *new_of;
    uint32_t n, cap;
} build;

static const upy_object none_object = {.kind = UPY_NONE};

static unpyc_status odd(fin *f, uint32_t i, const char *what) {
    return upy_fail(f->err, UNPYC_E_UNSUPPORTED, (long long)f->ins[i].offset,
                    "%s at offset %u: a finally body the decompiler does not "
                    "read yet",
                    what, (unsigned)f->ins[i].offset);
}

static unpyc_status no_memory(fin *f) {
    return upy_fail(
        f->err, f->arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
        "no memory to copy the finally bodies of %u instructions",
        (unsigned)f->n);
}

static int is_subroutine_op(uint16_t op) {
    return op == N_BEGIN_FINALLY || op == N_CALL_FINALLY ||
           op == N_END_FINALLY || op == N_POP_FINALLY ||
           op == N_WITH_CLEANUP_START || op == N_WITH_CLEANUP_FINISH;
}

/* Where a jump to instruction t goes after 3.9's peephole optimizer: it
 * sends a jump to an unconditional jump on to that jump's target, once
 * (the jump it meets may come later in the code, not threaded yet).  A
 * jump to the end of a copy meets such a jump where the copy is followed
 * by one. */
static int32_t threaded(const fin *f, int32_t t) {
    return f->ins[t].op == N_JUMP ? f->ins[t].target : t;
}

/* Appends a copy of `from` as op (arg), no jump. */
static upy_nin *add(build *b, const upy_nin *from, uint16_t op, int32_t arg) {
    upy_nin *o = &b->out[b->n];
    *o = *from;
    o->op = op;
    o->arg = arg;
    o->obj = NULL;
    o->flags = 0;
    o->target = -1;
    o->lead_line = -1;
    o->lead_nops = 0;
    o->lead_nops_joined = 0;
    b->fixed[b->n++] = 0;
    return o;
}

static void keep(build *b, const upy_nin *from) {
    b->fixed[b->n] = 0;
    b->out[b->n++] = *from;
}

/* A jump from `from` to input instruction t (threaded), or, as 3.9's
 * peephole optimizer writes a jump to a return, the return itself. */
static void add_jump_to(const fin *f, build *b, const upy_nin *from,
                        int32_t t) {
    if (f->ins[t].op == N_RETURN) {
        add(b, from, N_RETURN, 0);
        return;
    }
    add(b, from, N_JUMP, 0)->target = threaded(f, t);
}

/* What a copy keeps of body instruction k: a way out of a K_LEAVING body
 * (POP_FINALLY p; [ROT_TWO;] POP_TOP) pops nothing in 3.9's normal
 * copies but the return value a CALL_FINALLY keeps under the body
 * (`keeps`: its ROT_TWO; POP_TOP stay). */
static int copy_keeps(const fin *f, const body *s, uint32_t k, int keeps) {
    const upy_nin *in = &f->ins[k];
    if (s->kind != K_LEAVING)
        return 1;
    if (in->op == N_POP_FINALLY)
        return 0;
    if (keeps || k < (uint32_t)s->h + 1)
        return 1;
    if (f->ins[k - 1].op == N_POP_FINALLY)
        return 0;
    return !(k >= (uint32_t)s->h + 2 && f->ins[k - 2].op == N_POP_FINALLY &&
             f->ins[k - 2].arg);
}

/* A copy of the body [h, e) of s whose end goes on to input instruction
 * `cont`.  The copy's jumps to its end go to cont, threaded (see
 * add_jump_to) where `thread` says cont is what follows the copy; where
 * the copy is followed by 3.9's jump to the code after the try, they go
 * where that jump goes before it is threaded. */
static void add_copy(const fin *f, build *b, const body *s, int32_t cont,
                     int thread, int keeps) {
    uint32_t k, n = b->n;
    for (k = (uint32_t)s->h; k < (uint32_t)s->e; k++) {
        s->map[k - (uint32_t)s->h] = (int32_t)n;
        n += (uint32_t)copy_keeps(f, s, k, keeps);
    }
    for (k = (uint32_t)s->h; k < (uint32_t)s->e; k++) {
        const upy_nin *in = &f->ins[k];
        upy_nin *o = &b->out[b->n];
        int32_t t = in->target;
        if (!copy_keeps(f, s, k, keeps))
            continue;
        keep(b, in);
        if (t >= s->h && t < s->e) {
            o->target = s->map[t - s->h];
            b->fixed[b->n - 1] = 1;
        } else if (t == s->e && !thread) {
            o->target = cont;
        } else if (t == s->e && in->op == N_JUMP &&
                   f->ins[cont].op == N_RETURN) {
            o->op = N_RETURN;
            o->target = -1;
        } else if (t == s->e) {
            o->target = threaded(f, cont);
        }
    }
}

/* The call of a with's __exit__ on the normal way out, as 3.9 writes it
 * and lowering gives it (with_exit_call in normalize.c): None three
 * times, the call, its await, and the POP_TOP of what it returned. */
static void add_exit_call(const fin *f, build *b, const upy_nin *from,
                          const upy_nin *await) {
    upy_nin *o;
    int k;
    for (k = 0; k < 3; k++) {
        o = add(b, from, N_LOAD_CONST, f->none_arg);
        o->obj = f->none;
        /* The call stands where BEGIN_FINALLY stood: the line of the
         * POP_BLOCK of a return's try before it (popped_block_line). */
        if (k == 0)
            o->lead_line = from->lead_line;
    }
    add(b, from, N_CALL, 2);
    if (await)
        keep(b, await);
    add(b, from, N_POP_TOP, 0);
}

/* The await of a with's exit after instruction i, NULL when none (a
 * plain with). */
static const upy_nin *exit_await(const fin *f, uint32_t i) {
    return i + 1 < f->n && f->ins[i + 1].op == N_AWAIT ? &f->ins[i + 1] : NULL;
}

/* The normal way out of body s at instruction i: the BEGIN_FINALLY that
 * falls into it or a CALL_FINALLY of it. */
static int is_way_in(const fin *f, const body *s, uint32_t i) {
    const upy_nin *in = &f->ins[i];
    if (s->kind == K_EXCEPT)
        return 0;
    if (in->op == N_BEGIN_FINALLY)
        return (int32_t)i == s->h - 1;
    return in->op == N_CALL_FINALLY && in->target == s->h && s->kind != K_WITH;
}

/* The instruction the normal way goes on to after body s: after its
 * END_FINALLY (K_LEAVING: and the POP_TOP of the None). */
static int32_t way_on(const body *s) {
    return s->e + 1 + (s->kind == K_LEAVING);
}

/* The normal way into body s at instruction i, as 3.9 writes it: a copy
 * of the body where the call was, going on after the call, or, after the
 * try's end (BEGIN_FINALLY), a copy going on to the code after the body.
 * The name of `except E as x:` is deleted after the POP_EXCEPT that ends
 * the handler in 3.9, before it in 3.8 (compiler_try_except): the
 * POP_EXCEPT and the jump after the body move along. */
static void add_way_out(const fin *f, build *b, const body *s, uint32_t i) {
    const upy_nin *in = &f->ins[i];
    int32_t after = way_on(s);
    uint32_t base = b->n, k;
    if (in->op == N_CALL_FINALLY) {
        add_copy(f, b, s,
                 (int32_t)i + 1 + (s->kind == K_LEAVING && !s->keeps[i]), 1,
                 s->kind == K_LEAVING && s->keeps[i]);
        if (b->n > base)
            b->out[base].lead_line = in->lead_line;
    } else if (s->kind == K_WITH) {
        add_exit_call(f, b, in, exit_await(f, (uint32_t)s->h));
        add_jump_to(f, b, in, after);
    } else {
        if (s->kind == K_NAME)
            keep(b, &f->ins[after++]);
        add_copy(f, b, s, after, 0, 0);
        /* (The jump is on the line of the body's last instruction; 3.9's
         * peephole optimizer drops it after a return.) */
        if (b->n == base || b->out[b->n - 1].op != N_RETURN)
            add_jump_to(f, b, b->n > base ? &b->out[b->n - 1] : in, after);
    }
    /* The deletion of a name has no line of its own: each copy is on the
     * line of the statement it is written for (3.9
     * compiler_unwind_fblock). */
    for (k = base; s->kind == K_NAME && k < b->n; k++)
        b->out[k].line = in->line;
}

/* The exception's way through a with's exit (3.9 compiler_with,
 * compiler_with_except_finish): WITH_EXCEPT_START [await]; POP_JUMP_IF_TRUE
 * to the end; RERAISE; the end pops the exception's three values, the
 * frame and the __exit__. */
static void add_with_handler(const fin *f, build *b, const body *s,
                             uint32_t i) {
    const upy_nin *in = &f->ins[i];
    upy_nin *o;
    int k;
    if ((int32_t)i == s->h) {
        add(b, in, N_WITH_EXCEPT_START, 0);
    } else if (in->op == N_WITH_CLEANUP_FINISH) {
        o = add(b, in, N_POP_JUMP_IF, UPY_JUMP_TRUE);
        o->target = s->e;
        add(b, in, N_RERAISE, 0);
    } else if ((int32_t)i == s->e) {
        for (k = 0; k < 3; k++)
            add(b, in, N_POP_TOP, 0);
        add(b, in, N_POP_EXCEPT, 0);
        add(b, in, N_POP_TOP, 0);
    } else {
        keep(b, in);
    }
}

/* A way out of a K_LEAVING body in the exception's copy (POP_FINALLY p,
 * the ROT_TWO; POP_TOP of the None after it dropped), as 3.9 writes it
 * (compiler_unwind_fblock, FINALLY_END): the exception's three values
 * and the frame popped, under the return value where p says one is on
 * top. */
static void add_frame_exit(build *b, const upy_nin *in) {
    int k;
    if (in->arg)
        add(b, in, N_ROT_FOUR, 0);
    for (k = 0; k < 3; k++)
        add(b, in, N_POP_TOP, 0);
    if (in->arg)
        add(b, in, N_ROT_FOUR, 0);
    add(b, in, N_POP_EXCEPT, 0);
}

/* What input instruction i of body s becomes. */
static void add_one(const fin *f, build *b, const body *s, uint32_t i) {
    const upy_nin *in = &f->ins[i];
    if (s->kind == K_LEAVING && s->drop[i])
        return;
    if (s->kind == K_LEAVING && in->op == N_POP_FINALLY)
        add_frame_exit(b, in);
    else if (is_way_in(f, s, i))
        add_way_out(f, b, s, i);
    else if (s->kind == K_WITH && (int32_t)i >= s->h && (int32_t)i <= s->e)
        add_with_handler(f, b, s, i);
    else if ((int32_t)i == s->e)
        add(b, in, N_RERAISE, 0);
    else if (s->kind == K_NAME && (int32_t)i > s->e && (int32_t)i <= s->e + 2)
        return; /* (moved to the normal way, add_way_out) */
    else
        keep(b, in);
}

/* Output instructions the rewrite of body s makes at most. */
static uint32_t out_size(const fin *f, const body *s) {
    uint32_t i, n = f->n + 8;
    for (i = 0; i < f->n; i++)
        if (is_way_in(f, s, i))
            n += (uint32_t)(s->e - s->h) + 8;
    /* (A way out of the exception's copy grows by up to four.) */
    return n + (s->kind == K_LEAVING ? 2 * (uint32_t)(s->e - s->h) : 0);
}

/* Input targets to output indexes. */
static void fix_targets(build *b) {
    uint32_t k;
    for (k = 0; k < b->n; k++)
        if (!b->fixed[k] && b->out[k].target >= 0)
            b->out[k].target = b->new_of[b->out[k].target];
}

/* The with exit of a way out of a with's body (return, break, continue:
 * compile.c compiler_unwind_fblock) at instruction i, when one starts
 * there: BEGIN_FINALLY; WITH_CLEANUP_START [await];
 * WITH_CLEANUP_FINISH; POP_FINALLY 0, no jump into it.  Returns the index
 * of its last instruction, or -1. */
static int32_t early_with_exit(const fin *f, uint32_t i) {
    uint32_t k = i + 2 + (exit_await(f, i + 1) != NULL), j;
    if (f->ins[i].op != N_BEGIN_FINALLY || i + 1 >= f->n ||
        f->ins[i + 1].op != N_WITH_CLEANUP_START || k + 1 >= f->n ||
        f->ins[k].op != N_WITH_CLEANUP_FINISH ||
        f->ins[k + 1].op != N_POP_FINALLY || f->ins[k + 1].arg != 0)
        return -1;
    for (j = 0; j < f->n; j++)
        if (f->ins[j].target > (int32_t)i && f->ins[j].target <= (int32_t)k + 1)
            return -1;
    return (int32_t)k + 1;
}

/* Before a return from an `except E as x:` clause 3.8 moves the value
 * under the exception's values before it pops the clause's block
 * (ROT_FOUR; POP_BLOCK), 3.9 after (compiler_unwind_fblock,
 * HANDLER_CLEANUP): 3.9's order puts the ROT_FOUR under the handler's
 * frame, not under the block's handler. */
static int is_rot_before_pop_block(const fin *f, uint32_t i) {
    uint32_t j;
    if (f->ins[i].op != N_ROT_FOUR || i + 1 >= f->n ||
        f->ins[i + 1].op != N_POP_BLOCK)
        return 0;
    for (j = 0; j < f->n; j++)
        if (f->ins[j].target == (int32_t)i + 1)
            return 0;
    return 1;
}

/* Input instruction i in the first rewrite, which undoes the shapes that
 * need no body: early with exits (3.9: the exit call) and ROT_FOUR;
 * POP_BLOCK.  Returns the last input instruction it took. */
static uint32_t add_local(const fin *f, build *b, uint32_t i) {
    const upy_nin *in = &f->ins[i];
    int32_t end = early_with_exit(f, i), k;
    if (end >= 0) {
        add_exit_call(f, b, in, exit_await(f, i + 1));
        for (k = (int32_t)i + 1; k <= end; k++)
            b->new_of[k] = b->new_of[i];
        return (uint32_t)end;
    }
    if (is_rot_before_pop_block(f, i)) {
        keep(b, &f->ins[i + 1]);
        b->new_of[i + 1] = b->new_of[i];
        keep(b, in);
        return i + 1;
    }
    keep(b, in);
    return i;
}

/* Rewrites the code for body s (s = NULL: only the with exits of early
 * ways out, see add_local); pending handlers are renumbered. */
static unpyc_status rewrite(fin *f, const body *s, int32_t *pending,
                            uint32_t npending) {
    build b;
    uint32_t i;
    if (f->budget < f->n)
        return upy_fail(f->err, UNPYC_E_TOO_LARGE, -1,
                        "finally bodies in %u instructions past the work "
                        "the decompiler gives them",
                        (unsigned)f->n);
    f->budget -= f->n;
    b.cap = s ? out_size(f, s) : f->n + f->n / 2 + 8;
    b.n = 0;
    b.out = upy_arena_array_uncleared(f->arena, b.cap, sizeof *b.out);
    b.fixed = upy_arena_array(f->arena, b.cap, sizeof *b.fixed);
    b.new_of = upy_arena_array(f->arena, f->n + 1, sizeof *b.new_of);
    if (!b.out || !b.fixed || !b.new_of)
        return no_memory(f);
    for (i = 0; i < f->n; i++) {
        b.new_of[i] = (int32_t)b.n;
        if (s)
            add_one(f, &b, s, i);
        else
            i = add_local(f, &b, i);
    }
    b.new_of[f->n] = (int32_t)b.n;
    fix_targets(&b);
    for (i = 0; i < npending; i++)
        pending[i] = b.new_of[pending[i]];
    f->ins = b.out;
    f->n = b.n;
    if (f->cur >= 0)
        upy_arena_release(&f->scratch[f->cur]);
    f->cur = f->arena == &f->scratch[0] ? 0 : 1;
    return UNPYC_OK;
}

/* Starts the scratch arena the next rewrite writes into. */
static void next_arena(fin *f) {
    int next = f->cur == 0 ? 1 : 0;
    upy_arena_init_scratch(&f->scratch[next], f->parent);
    f->arena = &f->scratch[next];
}

/* Releases the scratch arenas (the code's, and the next's while it is
 * started). */
static void release_arenas(fin *f) {
    int k;
    for (k = 0; k < 2; k++)
        if (f->arena == &f->scratch[k] || f->cur == k)
            upy_arena_release(&f->scratch[k]);
}

/* Hands depth d to instruction i in the walk of find_end. */
static unpyc_status reach(fin *f, uint32_t *nwork, uint32_t from, int32_t i,
                          int32_t d) {
    if (i < 0 || (uint32_t)i >= f->n || d < 0)
        return odd(f, from, "a way out of the code");
    if (f->depth[i] >= 0)
        return f->depth[i] == d ? UNPYC_OK
                                : odd(f, (uint32_t)i, "two stack depths");
    f->depth[i] = d;
    f->work[(*nwork)++] = (uint32_t)i;
    return UNPYC_OK;
}

/* The successors of instruction i at depth d in the walk of find_end:
 * the handler of a block set up in the body, a return address as if the
 * call of an outer body came back, POP_EXCEPT of the handler's own frame
 * as the end of the walk (an except clause leaves the handler there). */
static unpyc_status step(fin *f, const body *s, uint32_t *nwork, uint32_t i,
                         int32_t d) {
    const upy_nin *in = &f->ins[i];
    unpyc_status st;
    switch (in->op) {
    case N_END_FINALLY:
        return UNPYC_OK;
    case N_POP_FINALLY:
        /* A way out of the body, its six values (and a return value) on
         * the stack: leaving_shape reads what follows. */
        if (s->kind == K_LEAVING && d == 6 + (in->arg != 0))
            return UNPYC_OK;
        return odd(f, i, "a way out of a finally body");
    case N_BEGIN_FINALLY:
    case N_WITH_CLEANUP_START:
    case N_WITH_CLEANUP_FINISH:
        return odd(f, i, "a way out of a finally body");
    case N_CALL_FINALLY:
        return reach(f, nwork, i, (int32_t)i + 1, d);
    case N_POP_EXCEPT:
        if (d == 3 || d == 4)
            return UNPYC_OK;
        return reach(f, nwork, i, (int32_t)i + 1, d - 3);
    case N_SETUP_FINALLY:
    case N_SETUP_WITH:
        st = reach(f, nwork, i, in->target, d - (in->op == N_SETUP_WITH) + 6);
        return st != UNPYC_OK ? st : reach(f, nwork, i, (int32_t)i + 1, d);
    default:
        break;
    }
    if (in->target >= 0 &&
        (st = reach(f, nwork, i, in->target,
                    d + upy_nin_stack_effect(in, 1))) != UNPYC_OK)
        return st;
    if (!upy_nin_falls_through(in))
        return UNPYC_OK;
    return reach(f, nwork, i, (int32_t)i + 1, d + upy_nin_stack_effect(in, 0));
}

/* Sets s->e for the body at s->h: the END_FINALLY the exception's way
 * through it ends in (the handler's six values still there), which is
 * the first one left after it, as inner bodies were rewritten first.
 * The exception's way never leaves [h, e] but through POP_EXCEPT; none
 * reaches e where the body always returns or raises. */
static unpyc_status find_end(fin *f, body *s) {
    uint32_t nwork = 0, i, last = (uint32_t)s->h;
    unpyc_status st;
    s->e = -1;
    if (f->cap < f->n) {
        f->cap = f->n * 2;
        f->depth =
            upy_arena_array_uncleared(f->parent, f->cap, sizeof *f->depth);
        f->work = upy_arena_array_uncleared(f->parent, f->cap, sizeof *f->work);
        if (!f->depth || !f->work)
            return no_memory(f);
    }
    for (i = (uint32_t)s->h; i < f->n && s->e < 0; i++)
        if (f->ins[i].op == N_END_FINALLY)
            s->e = (int32_t)i;
    if (s->e < 0)
        return odd(f, (uint32_t)s->h, "a handler with no END_FINALLY");
    for (i = 0; i < f->n; i++)
        f->depth[i] = -1;
    if ((st = reach(f, &nwork, (uint32_t)s->h, s->h, 6)) != UNPYC_OK)
        return st;
    while (nwork) {
        i = f->work[--nwork];
        if (i > last)
            last = i;
        if (i < (uint32_t)s->h)
            return odd(f, i, "code before its handler");
        if (f->ins[i].op == N_END_FINALLY && f->depth[i] != 6)
            return odd(f, i, "END_FINALLY");
        if ((st = step(f, s, &nwork, i, f->depth[i])) != UNPYC_OK)
            return st;
    }
    return last > (uint32_t)s->e ? odd(f, last, "code after END_FINALLY")
                                 : UNPYC_OK;
}

/* Whether the handler at h starts an except chain: DUP_TOP of the type
 * before a match, or the POP_TOP of a bare `except:` (no statement
 * starts so). */
static int is_except_chain(const fin *f, int32_t h) {
    const upy_nin *in = &f->ins[h];
    return (in->op == N_COPY && in->arg == 1) || in->op == N_POP_TOP;
}

/* Whether the handler at h, set up at s, deletes the name of `except E
 * as x:` (compile.c compiler_try_except): POP_TOP; STORE x; POP_TOP;
 * SETUP_FINALLY h ... h: LOAD_CONST None; STORE x; DELETE x; END_FINALLY,
 * then POP_EXCEPT and the jump to the code after the try.  (The same
 * body written as a finally has no STORE x of the exception before.) */
static int is_name_deletion(const fin *f, int32_t setup, int32_t h) {
    const upy_nin *c = &f->ins[h], *st = &f->ins[setup - 2];
    if (setup < 3 || (uint32_t)h + 5 >= f->n ||
        !upy_nin_clears_name(c, f->n - (uint32_t)h) ||
        c[3].op != N_END_FINALLY || c[4].op != N_POP_EXCEPT ||
        c[5].op != N_JUMP)
        return 0;
    return st->op == N_STORE && st->arg == c[1].arg && st->obj == c[1].obj &&
           f->ins[setup - 1].op == N_POP_TOP &&
           f->ins[setup - 3].op == N_POP_TOP;
}

/* The kind of the body at the handler of the SETUP at i. */
static body_kind kind_of(const fin *f, uint32_t i) {
    int32_t h = f->ins[i].target;
    if (f->ins[i].op == N_SETUP_WITH)
        return K_WITH;
    if (is_except_chain(f, h))
        return K_EXCEPT;
    if (is_name_deletion(f, (int32_t)i, h))
        return K_NAME;
    /* (No statement leaves a None alone on the stack.) */
    return i > 0 && upy_nin_loads_none(&f->ins[i - 1]) ? K_LEAVING : K_FINALLY;
}

/* Sets s->e for a with's exit at s->h: WITH_CLEANUP_START [await];
 * WITH_CLEANUP_FINISH; END_FINALLY. */
static unpyc_status find_with_end(fin *f, body *s) {
    int32_t k = s->h + 1 + (exit_await(f, (uint32_t)s->h) != NULL);
    if (f->ins[s->h].op != N_WITH_CLEANUP_START || (uint32_t)k + 1 >= f->n ||
        f->ins[k].op != N_WITH_CLEANUP_FINISH ||
        f->ins[k + 1].op != N_END_FINALLY)
        return odd(f, (uint32_t)s->h, "a with's exit");
    s->e = k + 1;
    return UNPYC_OK;
}

/* Whether a jump from outside body s goes into it past its start (a
 * subroutine has one way in), or to what add_way_out moves. */
static int jumped_into(const fin *f, const body *s) {
    int32_t end = s->e + (s->kind == K_NAME ? 2 : 0);
    uint32_t i;
    for (i = 0; i < f->n; i++) {
        int32_t t = f->ins[i].target;
        if (((int32_t)i < s->h || (int32_t)i > s->e) && t > s->h && t <= end)
            return 1;
    }
    return 0;
}

/* Marks what the rewrite of K_LEAVING body s drops at a CALL_FINALLY c of
 * it (compile.c compiler_unwind_fblock, FINALLY_TRY2): the None is
 * popped after the call (POP_BLOCK; CALL_FINALLY; POP_TOP) or, where a
 * return value is on top, before it (POP_BLOCK; ROT_TWO; POP_TOP;
 * CALL_FINALLY), and the value stays under the body. */
static int mark_leaving_call(const fin *f, body *s, uint32_t c) {
    const upy_nin *in = f->ins;
    if (c >= 1 && c + 1 < f->n && in[c - 1].op == N_POP_BLOCK &&
        in[c + 1].op == N_POP_TOP) {
        s->drop[c + 1] = 1;
        return 0;
    }
    if (c < 3 || in[c - 1].op != N_POP_TOP || in[c - 2].op != N_SWAP ||
        in[c - 2].arg != 2 || in[c - 3].op != N_POP_BLOCK)
        return -1;
    s->drop[c - 1] = s->drop[c - 2] = 1;
    s->keeps[c] = 1;
    return 0;
}

/* Marks what the rewrite of K_LEAVING body s drops: 3.8 pushes None before
 * the try (SETUP_FINALLY at `setup`) and pops it after the body's
 * END_FINALLY, at each CALL_FINALLY of it (mark_leaving_call) and after
 * each way out of the body (POP_FINALLY p; [ROT_TWO;] POP_TOP, compile.c
 * compiler_unwind_fblock FINALLY_END), where find_end found the frame's
 * six values; 3.9 has no None. */
static unpyc_status mark_leaving(fin *f, body *s, uint32_t setup) {
    uint32_t i, e = (uint32_t)s->e;
    if (e + 1 >= f->n || f->ins[e + 1].op != N_POP_TOP)
        return odd(f, e, "a finally body's end");
    s->drop[setup - 1] = s->drop[e + 1] = 1;
    for (i = (uint32_t)s->h; i < e; i++) {
        const upy_nin *in = &f->ins[i];
        uint32_t tail = i + 1 + (in->arg != 0);
        if (in->op != N_POP_FINALLY)
            continue;
        if (f->depth[i] != 6 + (in->arg != 0) || tail >= e ||
            f->ins[tail].op != N_POP_TOP ||
            (in->arg && (f->ins[i + 1].op != N_SWAP || f->ins[i + 1].arg != 2)))
            return odd(f, i, "a way out of a finally body");
        s->drop[i + 1] = s->drop[tail] = 1;
    }
    for (i = 0; i < f->n; i++)
        if (f->ins[i].op == N_CALL_FINALLY && f->ins[i].target == s->h &&
            mark_leaving_call(f, s, i))
            return odd(f, i, "a way into a finally body");
    for (i = 0; i < f->n; i++)
        if (f->ins[i].target >= 0 && s->drop[f->ins[i].target] &&
            f->ins[i].target != (int32_t)setup - 1)
            return odd(f, i, "a jump to a None's POP_TOP");
    return UNPYC_OK;
}

/* The SETUP_FINALLY of the handler at h. */
static int32_t setup_of(const fin *f, int32_t h) {
    uint32_t i;
    for (i = 0; i < f->n; i++)
        if (f->ins[i].op == N_SETUP_FINALLY && f->ins[i].target == h)
            return (int32_t)i;
    return -1;
}

/* The tables of body s (see body). */
static unpyc_status body_tables(fin *f, body *s) {
    int32_t setup;
    s->map =
        upy_arena_array(f->arena, (size_t)(s->e - s->h) + 1, sizeof *s->map);
    if (!s->map)
        return no_memory(f);
    if (s->kind != K_LEAVING)
        return UNPYC_OK;
    s->drop = upy_arena_array(f->arena, f->n, sizeof *s->drop);
    s->keeps = upy_arena_array(f->arena, f->n, sizeof *s->keeps);
    if (!s->drop || !s->keeps)
        return no_memory(f);
    setup = setup_of(f, s->h);
    if (setup < 1)
        return odd(f, (uint32_t)s->h, "a finally body's try");
    return mark_leaving(f, s, (uint32_t)setup);
}

/* Finds and rewrites the body at the handler pending[last]. */
static unpyc_status take_body(fin *f, int32_t *pending, uint32_t last,
                              uint8_t kind) {
    body s;
    unpyc_status st;
    s.kind = kind;
    s.h = pending[last];
    s.drop = s.keeps = NULL;
    next_arena(f);
    st = kind == K_WITH ? find_with_end(f, &s) : find_end(f, &s);
    if (st == UNPYC_OK)
        st = body_tables(f, &s);
    if (st != UNPYC_OK)
        return st;
    /* (The way on after the body is code, but where the body returns.) */
    if (s.h > 0 && f->ins[s.h - 1].op == N_BEGIN_FINALLY &&
        (uint32_t)way_on(&s) + (s.kind == K_NAME) >= f->n &&
        (s.e == s.h || f->ins[s.e - 1].op != N_RETURN))
        return odd(f, (uint32_t)s.e, "a finally body's end");
    if (jumped_into(f, &s))
        return odd(f, (uint32_t)s.h, "a jump into a finally body");
    return rewrite(f, &s, pending, last);
}

typedef struct handler {
    int32_t h;
    uint8_t kind;
} handler;

static int by_start(const void *a, const void *b) {
    const handler *x = a, *y = b;
    return (x->h > y->h) - (x->h < y->h);
}

/* The handlers of the SETUPs in order, with their kinds (pending and
 * kind, *count of them). */
static unpyc_status list_handlers(fin *f, int32_t **pending, uint8_t **kind,
                                  uint32_t *count) {
    handler *all = upy_arena_array(f->parent, f->n + 1, sizeof *all);
    uint32_t i, n = 0;
    if (!all)
        return no_memory(f);
    for (i = 0; i < f->n; i++) {
        int32_t t = f->ins[i].target;
        if (f->ins[i].op != N_SETUP_FINALLY && f->ins[i].op != N_SETUP_WITH)
            continue;
        if (t < 0 || (uint32_t)t + 1 >= f->n)
            return odd(f, i, "a handler past the end");
        all[n].h = t;
        all[n++].kind = (uint8_t)kind_of(f, i);
    }
    qsort(all, n, sizeof *all, by_start);
    *pending = upy_arena_array(f->parent, n + 1, sizeof **pending);
    *kind = upy_arena_array(f->parent, n + 1, sizeof **kind);
    if (!*pending || !*kind)
        return no_memory(f);
    for (i = 0; i < n; i++) {
        if (i > 0 && all[i].h == all[i - 1].h)
            return odd(f, (uint32_t)all[i].h, "a handler of two blocks");
        (*pending)[i] = all[i].h;
        (*kind)[i] = all[i].kind;
    }
    *count = n;
    return UNPYC_OK;
}

static int has_subroutines(const upy_ncode *code) {
    uint32_t i;
    for (i = 0; i < code->count; i++)
        if (is_subroutine_op(code->ins[i].op))
            return 1;
    return 0;
}

/* The None of co_consts, which a with's exit call loads in 3.9. */
static void find_none(fin *f, const upy_code *code) {
    size_t k, n = code && code->consts ? upy_seq_len(code->consts) : 0;
    f->none = &none_object;
    f->none_arg = -1;
    for (k = 0; k < n; k++) {
        const upy_object *c = upy_seq_item(code->consts, k);
        if (c && c->kind == UPY_NONE) {
            f->none = c;
            f->none_arg = (int32_t)k;
            return;
        }
    }
}

/* The rewrites of code in f, innermost body first. */
static unpyc_status take_bodies(fin *f) {
    /* (Set by list_handlers; gcc -O2 cannot tell that its error returns
     * leave them unread.) */
    int32_t *pending = NULL;
    uint8_t *kind = NULL;
    uint32_t count = 0, i;
    unpyc_status st;
    next_arena(f);
    if ((st = rewrite(f, NULL, NULL, 0)) != UNPYC_OK ||
        (st = list_handlers(f, &pending, &kind, &count)) != UNPYC_OK)
        return st;
    /* Inner bodies first: those laid out last. */
    for (i = count; i-- > 0;)
        if ((st = take_body(f, pending, i, kind[i])) != UNPYC_OK)
            return st;
    for (i = 0; i < f->n; i++)
        if (is_subroutine_op(f->ins[i].op))
            return odd(f, i, "an instruction of a finally body left over");
    return UNPYC_OK;
}

unpyc_status upy_normalize_finally(upy_ncode *code, upy_arena *arena,
                                   unpyc_error *err) {
    fin f;
    unpyc_status st;
    upy_nin *kept;
    if (!has_subroutines(code))
        return UNPYC_OK;
    memset(&f, 0, sizeof f);
    f.parent = f.arena = arena;
    f.cur = -1;
    f.budget = FINALLY_BUDGET;
    f.err = err;
    f.ins = code->ins;
    f.n = code->count;
    find_none(&f, code->code);
    st = take_bodies(&f);
    if (st == UNPYC_OK) {
        kept = upy_arena_array_uncleared(arena, f.n ? f.n : 1, sizeof *kept);
        if (!kept) {
            f.arena = arena;
            st = no_memory(&f);
        } else {
            memcpy(kept, f.ins, f.n * sizeof *kept);
            code->ins = kept;
            code->count = f.n;
        }
    }
    release_arenas(&f);
    return st;
}
