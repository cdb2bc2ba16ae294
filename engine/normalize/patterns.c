/*
 * patterns.c - 3.10's match statement code, lowered as 3.11 writes it.
 *
 * 3.10's MATCH_CLASS and MATCH_KEYS push a bool that a jump tests, and its
 * captures are moved under what the pattern keeps with ROT_N (spelled
 * ROT_TWO / ROT_THREE / ROT_FOUR up to 4); 3.11 tests the result against
 * None and moves captures with SWAPs.  normalize.c's lower_one() asks
 * these for the instructions of pattern code (the rules table's
 * match_pushes_bool and rotates_captures say which versions).
 */
#include "normalize/norm.h"

/* Whether the code has pattern code: a match statement's MATCH_* or the
 * ROT_N only its captures use (asked where rules.rotates_captures). */
int norm_has_pattern_code(const norm *nm) {
    uint32_t i;
    for (i = 0; i < nm->dec->count; i++)
        switch (at(nm, i)->op) {
        case UPY_OP_MATCH_CLASS:
        case UPY_OP_MATCH_KEYS:
        case UPY_OP_MATCH_MAPPING:
        case UPY_OP_MATCH_SEQUENCE:
        case UPY_OP_ROT_N:
            return 1;
        default:
            break;
        }
    return 0;
}

/* Whether the ROT_FOUR at decoded instruction i moves a returned value
 * under an exception's three values (compile.c compiler_unwind_fblock:
 * HANDLER_CLEANUP's ROT_FOUR; POP_EXCEPT, FINALLY_END's ROT_FOUR;
 * POP_TOP; POP_TOP; POP_TOP; ROT_FOUR; POP_EXCEPT): blocks.c reads it. */
static int unwinds_handler(const norm *nm, uint32_t i) {
    uint32_t k;
    if (op_is(nm, i + 1, UPY_OP_POP_EXCEPT))
        return 1;
    for (k = i + 1; k <= i + 3; k++)
        if (!op_is(nm, k, UPY_OP_POP_TOP))
            return 0;
    return op_is(nm, i + 4, UPY_OP_ROT_FOUR) &&
           op_is(nm, i + 5, UPY_OP_POP_EXCEPT);
}

/* Whether the ROT_THREE or ROT_FOUR at decoded instruction i is a
 * capture's rotation in 3.10's pattern code (rules.rotates_captures).  It
 * is none where it is the version's other use of it: a chained
 * comparison's DUP_TOP; ROT_THREE; COMPARE_OP, an augmented subscript's
 * ROT_THREE; STORE_SUBSCR, a swap's ROT_THREE; ROT_TWO, a return's
 * unwinding of a handler. */
int norm_is_capture_rotation(const norm *nm, uint32_t i) {
    if (!nm->has_patterns)
        return 0;
    if (op_is(nm, i, UPY_OP_ROT_FOUR))
        return !unwinds_handler(nm, i);
    return !op_is(nm, i + 1, UPY_OP_COMPARE_OP) &&
           !op_is(nm, i + 1, UPY_OP_STORE_SUBSCR) &&
           !op_is(nm, i + 1, UPY_OP_ROT_TWO);
}

/* A capture's rotation under the n - 1 items above it (ROT_N n, or its
 * spelling ROT_THREE / ROT_FOUR) at decoded instruction i, as 3.11's
 * compile.c pattern_helper_rotate writes it: SWAP n, SWAP n - 1, ...,
 * SWAP 2. */
unpyc_status norm_put_capture_rotation(norm *nm, int32_t n, uint32_t i) {
    /* (A rotation deeper than the code's stack is no compiler's: crafted
     * code of many would make n SWAPs of each.) */
    if (n > nm->dec->code->stacksize)
        return norm_unsupported(nm, i);
    for (; n > 1; n--)
        if (!norm_emit(nm, N_SWAP, n, NULL, i))
            return norm_fail_memory(nm);
    return UNPYC_OK;
}

/* MATCH_CLASS or MATCH_KEYS at decoded instruction i.  3.10 tests the bool
 * they push above the result with the POP_JUMP_IF_FALSE after them
 * (rules.match_pushes_bool): lowered to the test of the result 3.11 writes,
 * COPY 1; POP_JUMP_IF_NONE, to the same place. */
unpyc_status norm_put_match_test(norm *nm, upy_nop op, uint32_t i) {
    unpyc_status st =
        norm_put(nm, op, op == N_MATCH_CLASS ? at(nm, i)->arg : 0, NULL, i);
    if (st != UNPYC_OK || !nm->rules->match_pushes_bool)
        return st;
    if (!op_is(nm, i + 1, UPY_OP_POP_JUMP_IF_FALSE) || nm->is_target[i + 1])
        return norm_unsupported(nm, i);
    nm->skip[i + 1] = 1;
    if ((st = norm_put(nm, N_COPY, 1, NULL, i + 1)) != UNPYC_OK)
        return st;
    return norm_emit_jump(nm, N_POP_JUMP_IF, UPY_JUMP_NONE, i + 1, 0);
}
