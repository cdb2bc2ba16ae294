/*
 * asserts.c - 3.8's assert statements as 3.9's.
 *
 * 3.8's compile.c compiler_assert raises the exception it loads as a
 * global (LOAD_GLOBAL AssertionError); 3.9 (bpo-34880) loads it with
 * LOAD_ASSERTION_ERROR, which recovery reads as an assert.  The global
 * load of the failing end of an assert is the same code as
 * `if not test: raise AssertionError(msg)` written on one line, so the
 * assert is what it reads as wherever the load has the line of the test's
 * jump over it (a raise on a line of its own has one of its own) and the
 * raise is all the failing end does.  Worked example (3.8):
 *
 *     assert x is not None, x     0  LOAD x; LOAD_CONST None
 *                                 2  COMPARE is not
 *                                 3  POP_JUMP_IF true -> 8
 *                                 4  LOAD AssertionError (global)
 *                                 5  LOAD x; 6 CALL 1; 7 RAISE 1
 *                                 8  ...
 *
 * The test's jump goes right past the raise, or where the jump after the
 * raise goes (peephole.c threads a jump to a jump: an assert that ends a
 * loop body jumps back to the loop's header itself).  `while not x:
 * raise AssertionError` on one line jumps past the loop's jump back
 * instead, and stays as it is.  So does a threaded assert whose jump
 * after the raise other jumps go to, the end of an if / else ending a
 * loop body (`if c: assert a` / `else: assert b`: b's test goes to the
 * header, a's to the end of the if, which peephole.c threads later):
 * recovery reads the if / else's join only from the global's raise.
 * And so does `if a is not b: raise AssertionError`, which raises when
 * its test holds: as an assert it would be `assert not (a is not b)`,
 * which ast_opt.c fold_unaryop makes `assert a is b`, other code.
 */
#include "normalize/normalize.h"

#include <string.h>

#include "util/error.h"

/* How many jumps to jumps peephole.c's threading follows here, at most
 * (a bound against crafted cycles; real code nests a few). */
#define THREAD_STEPS 16

/* Where a jump to instruction i ends up after threading: the first
 * instruction on from it that is no unconditional jump. */
static uint32_t threaded_target(const upy_ncode *code, uint32_t i) {
    int steps = 0;
    while (i < code->count && code->ins[i].op == N_JUMP &&
           code->ins[i].target >= 0 && steps++ < THREAD_STEPS)
        i = (uint32_t)code->ins[i].target;
    return i;
}

static int is_assertion_global(const upy_nin *in) {
    return in->op == N_LOAD && in->arg == UPY_SCOPE_GLOBAL && in->obj &&
           in->obj->kind == UPY_STR &&
           strcmp((const char *)in->obj->u.bytes.data, "AssertionError") == 0;
}

/* The RAISE 1 of the failing end that starts with the load at i:
 * `raise AssertionError` or `raise AssertionError(msg)` with straight
 * code for msg; 0 when it is not one. */
static uint32_t raise_of(const upy_ncode *code, uint32_t i) {
    uint32_t k;
    for (k = i + 1; k < code->count; k++) {
        const upy_nin *in = &code->ins[k];
        if (in->op == N_RAISE)
            break;
        if (upy_nin_ends_block(in) || in->handler != code->ins[i].handler)
            return 0;
    }
    if (k >= code->count || code->ins[k].arg != 1)
        return 0;
    if (k == i + 1 || (code->ins[k - 1].op == N_CALL &&
                       code->ins[k - 1].arg == 1 && k >= i + 3))
        return k;
    return 0;
}

/* Whether the test that ends with jump j, taken when false, is one
 * comparison that ast_opt.c would fold the negation of (fold_unaryop:
 * `not a in b` is `a not in b`; is, is not, not in alike). */
static int folds_negated(const upy_ncode *code, uint32_t j) {
    const upy_nin *cmp = j ? &code->ins[j - 1] : NULL;
    return code->ins[j].arg == UPY_JUMP_FALSE && cmp && cmp->op == N_COMPARE &&
           (cmp->arg == UPY_CMP_IS || cmp->arg == UPY_CMP_IS_NOT ||
            cmp->arg == UPY_CMP_IN || cmp->arg == UPY_CMP_NOT_IN);
}

/* Whether the global load at i is the failing end of an assert;
 * jumped_to marks the targets of jumps. */
static int fails_assert(const upy_ncode *code, const uint8_t *jumped_to,
                        uint32_t i) {
    const upy_nin *test = i ? &code->ins[i - 1] : NULL;
    uint32_t raise;
    if (!test || test->op != N_POP_JUMP_IF || test->target < 0 ||
        test->line != code->ins[i].line || !is_assertion_global(&code->ins[i]))
        return 0;
    raise = raise_of(code, i);
    if (!raise || folds_negated(code, i - 1))
        return 0;
    if ((uint32_t)test->target == raise + 1)
        return 1;
    return !jumped_to[raise + 1] &&
           threaded_target(code, raise + 1) ==
               threaded_target(code, (uint32_t)test->target);
}

unpyc_status upy_normalize_assert_global(upy_ncode *code, upy_arena *arena,
                                         unpyc_error *err) {
    uint8_t *jumped_to = upy_arena_array(arena, code->count + 1, 1);
    uint32_t i;
    if (!jumped_to)
        return upy_fail(err, UNPYC_E_NOMEM, -1, "out of memory");
    for (i = 0; i < code->count; i++)
        if (code->ins[i].target >= 0 &&
            (uint32_t)code->ins[i].target < code->count)
            jumped_to[code->ins[i].target] = 1;
    for (i = 1; i < code->count; i++)
        if (fails_assert(code, jumped_to, i)) {
            code->ins[i].op = N_LOAD_ASSERTION_ERROR;
            code->ins[i].arg = 0;
        }
    return UNPYC_OK;
}
