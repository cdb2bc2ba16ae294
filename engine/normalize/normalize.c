/*
 * normalize.c - lowering each version's instructions to neutral ones; see
 * nins.h for the target form.
 *
 * One walk over the decoded instructions.  Most instructions map one to
 * one through the switch in lower_one(); the few idioms that span several
 * instructions are recognised first and emitted as one neutral op:
 *
 *   - the await / yield-from loop (GET_AWAITABLE, LOAD_CONST None, SEND,
 *     YIELD_VALUE, RESUME, JUMP_BACKWARD_NO_INTERRUPT, END_SEND), and the
 *     CLEANUP_THROW blocks that only serve it;
 *   - the header of an async for (GET_ANEXT and its await, with the
 *     END_ASYNC_FOR handler as the loop exit);
 *   - 3.12+'s COPY 1; [TO_BOOL;] POP_JUMP_IF_X; POP_TOP, which is what
 *     JUMP_IF_X_OR_POP became;
 *   - the 3.12+ generator wrapper handler (CALL_INTRINSIC_1
 *     STOPITERATION_ERROR; RERAISE), which no source statement makes;
 *   - 3.8-3.10's DUP_TOP; ROT_THREE of a chained comparison and ROT_THREE;
 *     ROT_TWO of a swap, as the SWAP and COPY 3.11 writes (put_rotation).
 *
 * 3.10's copies of exits that leave a block are joined back first
 * (exitjoin.c); 3.10's pattern code (patterns.c) and 3.8's
 * BUILD_*_UNPACK (unpack.c) have files of their own, sharing the state in
 * norm.h.
 *
 * Jump targets and handlers are resolved at the end, through a map from
 * each decoded instruction to the first neutral instruction at or after it.
 * What differs between versions in the meaning of an oparg lives in the
 * rules table.
 */
#include "normalize/norm.h"

#include <string.h>

#include "util/error.h"

/* Fields left out are 0. */
static const norm_rules rules_table[] = {
    {.minor = 8,
     .call_slots = 1,
     .function_qualname = 1,
     .passes_lone_kwargs = 1,
     .no_exit_copies = 1,
     .threads_try_exits = 1,
     .threads_loop_breaks = 1,
     .threads_statement_ends = 1,
     .asserts_load_global = 1,
     .loads_return_const_last = 1,
     .tests_while_on_top = 1,
     .keeps_unreached_code = 1,
     .layout = {.while_test_on_top = 1,
                .keeps_jump_after_exit = 1,
                .keeps_unreachable_ends = 1,
                .keeps_jump_to_next = 1,
                .merges_lambdas_on_a_line = 1,
                .else_after_handlers = 1}},
    {.minor = 9,
     .call_slots = 1,
     .function_qualname = 1,
     .no_exit_copies = 1,
     .threads_try_exits = 1,
     .threads_loop_breaks = 1,
     .threads_statement_ends = 1,
     .loads_return_const_last = 1,
     .tests_while_on_top = 1,
     .keeps_unreached_code = 1,
     .layout = {.while_test_on_top = 1,
                .keeps_jump_after_exit = 1,
                .keeps_unreachable_ends = 1,
                .keeps_jump_to_next = 1,
                .merges_lambdas_on_a_line = 1,
                .else_after_handlers = 1}},
    {.minor = 10,
     .call_slots = 1,
     .function_qualname = 1,
     .copies_pop_block_exits = 1,
     .copies_statement_exits = 1,
     .copies_named_clause_exits = 1,
     .match_pushes_bool = 1,
     .rotates_captures = 1,
     .removes_redundant_jumps = 1,
     .layout = {.copies_exits = 1,
                .keeps_while_true_const = 1,
                .keeps_unused_consts = 1,
                .merges_lambdas_on_a_line = 1,
                .threads_jumps_of_one_line = 1,
                .keeps_else_continue_apart = 1,
                .else_after_handlers = 1}},
    {.minor = 11,
     .global_null = 1,
     .call_slots = 2,
     .copies_named_clause_exits = 1,
     .removes_redundant_jumps = 1,
     .layout = {.copies_exits = 1,
                .written_exits_keep_jumps = 1,
                .keeps_while_true_const = 1,
                .keeps_unused_consts = 1,
                .threads_jumps_of_one_line = 1}},
    {.minor = 12,
     .global_null = 1,
     .attr_method_bit = 1,
     .compare_shift = 4,
     .call_slots = 2,
     .no_backward_cond = 1,
     .fuses_const_return = 1,
     .pushes_cold_blocks_to_end = 1,
     .keeps_jumps_to_try_ends = 1,
     .removes_redundant_jumps = 1,
     .layout = {.cold_handlers = 1,
                .copies_exits = 1,
                .threads_loop_jumps = 1,
                .copy_limit_counts_code = 1,
                .merges_lambdas_on_a_line = 1}},
    {.minor = 13,
     .global_null = 1,
     .null_after = 1,
     .attr_method_bit = 1,
     .compare_shift = 5,
     .call_slots = 2,
     .no_backward_cond = 1,
     .fuses_const_return = 1,
     .copies_clause_ends_into_breaks = 1,
     .pushes_cold_blocks_to_end = 1,
     .copies_try_ends_into_with_exits = 1,
     .removes_redundant_jumps = 1,
     .layout = {.cold_handlers = 1,
                .copies_exits = 1,
                .copies_jump_blocks = 1,
                .copy_limit_counts_code = 1,
                .keeps_first_const = 1,
                .drops_repeated_store = 1}},
};

/* cmp_op of 3.8 (index 6 on: in, not in, is, is not, exception match) and
 * of 3.9+ (0-5 only) map to upy_cmpop the same way. */
static const int8_t cmp_op_map[] = {
    UPY_CMP_LT, UPY_CMP_LE, UPY_CMP_EQ,     UPY_CMP_NE, UPY_CMP_GT,
    UPY_CMP_GE, UPY_CMP_IN, UPY_CMP_NOT_IN, UPY_CMP_IS, UPY_CMP_IS_NOT,
};

/* How lower_one() lowers a decoded instruction that becomes at most one
 * neutral instruction whatever the code around it (lowerings[]); the
 * others have a function of their own (LOWER_OWN). */
typedef enum lowering_kind {
    LOWER_OWN = 0, /* its own function in lower_one()'s switch */
    LOWER_NOTHING, /* nothing for the source */
    LOWER_FIXED,   /* .nop with .arg and .flags */
    LOWER_OPARG,   /* .nop with the instruction's oparg */
    LOWER_NAMED,   /* .nop with .arg and the instruction's name */
    LOWER_JUMP,    /* the jump .nop with .arg and .flags, to its target */
    LOWER_TEST,    /* a conditional jump taken when .arg (upy_jump_cond) */
} lowering_kind;

typedef struct lowering {
    uint8_t kind;
    uint8_t nop;
    int16_t arg;
    uint16_t flags;
} lowering;

/* clang-format off */
#define NOTHING {LOWER_NOTHING, 0, 0, 0}
#define FIXED(nop, arg) {LOWER_FIXED, nop, arg, 0}
#define OPARG(nop) {LOWER_OPARG, nop, 0, 0}
#define NAMED(nop, arg) {LOWER_NAMED, nop, arg, 0}
#define JUMP(nop, arg, flags) {LOWER_JUMP, nop, arg, flags}
#define TEST(cond) {LOWER_TEST, N_POP_JUMP_IF, cond, 0}
#define BINARY(binop) {LOWER_FIXED, N_BINARY, binop, 0}
#define INPLACE(binop) {LOWER_FIXED, N_BINARY, binop, N_INPLACE}
/* clang-format on */

static const lowering lowerings[UPY_OP_COUNT] = {
    [UPY_OP_RESUME] = NOTHING,
    [UPY_OP_CACHE] = NOTHING,
    [UPY_OP_EXTENDED_ARG] = NOTHING,
    [UPY_OP_COPY_FREE_VARS] = NOTHING,
    [UPY_OP_MAKE_CELL] = NOTHING,
    [UPY_OP_PRECALL] = NOTHING,
    [UPY_OP_GEN_START] = NOTHING,
    [UPY_OP_ASYNC_GEN_WRAP] = NOTHING,

    [UPY_OP_POP_TOP] = FIXED(N_POP_TOP, 0),
    [UPY_OP_SWAP] = OPARG(N_SWAP),
    [UPY_OP_ROT_TWO] = FIXED(N_SWAP, 2),
    [UPY_OP_PUSH_NULL] = FIXED(N_PUSH_NULL, 0),

    [UPY_OP_LOAD_FAST_AND_CLEAR] = NAMED(N_LOAD, UPY_SCOPE_FAST_AND_CLEAR),
    [UPY_OP_STORE_FAST] = NAMED(N_STORE, UPY_SCOPE_FAST),
    [UPY_OP_DELETE_FAST] = NAMED(N_DELETE, UPY_SCOPE_FAST),
    [UPY_OP_LOAD_DEREF] = NAMED(N_LOAD, UPY_SCOPE_DEREF),
    [UPY_OP_STORE_DEREF] = NAMED(N_STORE, UPY_SCOPE_DEREF),
    [UPY_OP_DELETE_DEREF] = NAMED(N_DELETE, UPY_SCOPE_DEREF),
    [UPY_OP_LOAD_CLASSDEREF] = NAMED(N_LOAD, UPY_SCOPE_CLASSDEREF),
    [UPY_OP_LOAD_CLOSURE] = NAMED(N_LOAD_CLOSURE, 0),
    [UPY_OP_STORE_GLOBAL] = NAMED(N_STORE, UPY_SCOPE_GLOBAL),
    [UPY_OP_DELETE_GLOBAL] = NAMED(N_DELETE, UPY_SCOPE_GLOBAL),
    [UPY_OP_LOAD_NAME] = NAMED(N_LOAD, UPY_SCOPE_NAME),
    [UPY_OP_STORE_NAME] = NAMED(N_STORE, UPY_SCOPE_NAME),
    [UPY_OP_DELETE_NAME] = NAMED(N_DELETE, UPY_SCOPE_NAME),
    [UPY_OP_LOAD_METHOD] = NAMED(N_LOAD_METHOD, 0),
    [UPY_OP_STORE_ATTR] = NAMED(N_STORE_ATTR, 0),
    [UPY_OP_DELETE_ATTR] = NAMED(N_DELETE_ATTR, 0),
    [UPY_OP_IMPORT_NAME] = NAMED(N_IMPORT_NAME, 0),
    [UPY_OP_IMPORT_FROM] = NAMED(N_IMPORT_FROM, 0),

    [UPY_OP_BINARY_SUBSCR] = FIXED(N_SUBSCR, 0),
    [UPY_OP_STORE_SUBSCR] = FIXED(N_STORE_SUBSCR, 0),
    [UPY_OP_DELETE_SUBSCR] = FIXED(N_DELETE_SUBSCR, 0),
    [UPY_OP_BINARY_SLICE] = FIXED(N_SLICE, 0),
    [UPY_OP_STORE_SLICE] = FIXED(N_STORE_SLICE, 0),
    [UPY_OP_BUILD_SLICE] = OPARG(N_BUILD_SLICE),

    [UPY_OP_UNARY_NOT] = FIXED(N_UNARY, UPY_UOP_NOT),
    [UPY_OP_UNARY_NEGATIVE] = FIXED(N_UNARY, UPY_UOP_NEG),
    [UPY_OP_UNARY_POSITIVE] = FIXED(N_UNARY, UPY_UOP_POS),
    [UPY_OP_UNARY_INVERT] = FIXED(N_UNARY, UPY_UOP_INVERT),
    /* The binary opcodes of 3.8-3.10, by operator. */
    [UPY_OP_BINARY_ADD] = BINARY(UPY_BIN_ADD),
    [UPY_OP_BINARY_AND] = BINARY(UPY_BIN_AND),
    [UPY_OP_BINARY_FLOOR_DIVIDE] = BINARY(UPY_BIN_FLOORDIV),
    [UPY_OP_BINARY_LSHIFT] = BINARY(UPY_BIN_LSHIFT),
    [UPY_OP_BINARY_MATRIX_MULTIPLY] = BINARY(UPY_BIN_MATMUL),
    [UPY_OP_BINARY_MULTIPLY] = BINARY(UPY_BIN_MUL),
    [UPY_OP_BINARY_MODULO] = BINARY(UPY_BIN_MOD),
    [UPY_OP_BINARY_OR] = BINARY(UPY_BIN_OR),
    [UPY_OP_BINARY_POWER] = BINARY(UPY_BIN_POW),
    [UPY_OP_BINARY_RSHIFT] = BINARY(UPY_BIN_RSHIFT),
    [UPY_OP_BINARY_SUBTRACT] = BINARY(UPY_BIN_SUB),
    [UPY_OP_BINARY_TRUE_DIVIDE] = BINARY(UPY_BIN_TRUEDIV),
    [UPY_OP_BINARY_XOR] = BINARY(UPY_BIN_XOR),
    [UPY_OP_INPLACE_ADD] = INPLACE(UPY_BIN_ADD),
    [UPY_OP_INPLACE_AND] = INPLACE(UPY_BIN_AND),
    [UPY_OP_INPLACE_FLOOR_DIVIDE] = INPLACE(UPY_BIN_FLOORDIV),
    [UPY_OP_INPLACE_LSHIFT] = INPLACE(UPY_BIN_LSHIFT),
    [UPY_OP_INPLACE_MATRIX_MULTIPLY] = INPLACE(UPY_BIN_MATMUL),
    [UPY_OP_INPLACE_MULTIPLY] = INPLACE(UPY_BIN_MUL),
    [UPY_OP_INPLACE_MODULO] = INPLACE(UPY_BIN_MOD),
    [UPY_OP_INPLACE_OR] = INPLACE(UPY_BIN_OR),
    [UPY_OP_INPLACE_POWER] = INPLACE(UPY_BIN_POW),
    [UPY_OP_INPLACE_RSHIFT] = INPLACE(UPY_BIN_RSHIFT),
    [UPY_OP_INPLACE_SUBTRACT] = INPLACE(UPY_BIN_SUB),
    [UPY_OP_INPLACE_TRUE_DIVIDE] = INPLACE(UPY_BIN_TRUEDIV),
    [UPY_OP_INPLACE_XOR] = INPLACE(UPY_BIN_XOR),
    [UPY_OP_CHECK_EXC_MATCH] = FIXED(N_EXC_MATCH, 0),
    [UPY_OP_CHECK_EG_MATCH] = FIXED(N_EG_MATCH, 0),

    [UPY_OP_BUILD_TUPLE] = OPARG(N_BUILD_TUPLE),
    [UPY_OP_BUILD_LIST] = OPARG(N_BUILD_LIST),
    [UPY_OP_BUILD_SET] = OPARG(N_BUILD_SET),
    [UPY_OP_BUILD_MAP] = OPARG(N_BUILD_MAP),
    [UPY_OP_BUILD_CONST_KEY_MAP] = OPARG(N_BUILD_CONST_KEY_MAP),
    [UPY_OP_BUILD_STRING] = OPARG(N_BUILD_STRING),
    [UPY_OP_LIST_APPEND] = OPARG(N_LIST_APPEND),
    [UPY_OP_SET_ADD] = OPARG(N_SET_ADD),
    [UPY_OP_MAP_ADD] = OPARG(N_MAP_ADD),
    [UPY_OP_LIST_EXTEND] = OPARG(N_LIST_EXTEND),
    [UPY_OP_SET_UPDATE] = OPARG(N_SET_UPDATE),
    [UPY_OP_DICT_UPDATE] = OPARG(N_DICT_UPDATE),
    [UPY_OP_DICT_MERGE] = OPARG(N_DICT_MERGE),
    [UPY_OP_LIST_TO_TUPLE] = FIXED(N_LIST_TO_TUPLE, 0),
    [UPY_OP_UNPACK_SEQUENCE] = OPARG(N_UNPACK_SEQUENCE),
    [UPY_OP_UNPACK_EX] = OPARG(N_UNPACK_EX),
    [UPY_OP_FORMAT_SIMPLE] = FIXED(N_FORMAT, -1),
    [UPY_OP_FORMAT_WITH_SPEC] = {LOWER_FIXED, N_FORMAT, -1, N_FORMAT_SPEC},
    [UPY_OP_LOAD_BUILD_CLASS] = FIXED(N_LOAD_BUILD_CLASS, 0),
    [UPY_OP_PREP_RERAISE_STAR] =
        FIXED(N_INTRINSIC, UPY_INTRINSIC_PREP_RERAISE_STAR),

    [UPY_OP_JUMP_FORWARD] = JUMP(N_JUMP, 0, 0),
    [UPY_OP_JUMP_ABSOLUTE] = JUMP(N_JUMP, 0, 0),
    [UPY_OP_JUMP_BACKWARD] = JUMP(N_JUMP, 0, N_JUMP_BACK),
    [UPY_OP_JUMP_BACKWARD_NO_INTERRUPT] = JUMP(N_JUMP, 0, N_JUMP_BACK),
    [UPY_OP_POP_JUMP_IF_FALSE] = TEST(UPY_JUMP_FALSE),
    [UPY_OP_POP_JUMP_FORWARD_IF_FALSE] = TEST(UPY_JUMP_FALSE),
    [UPY_OP_POP_JUMP_BACKWARD_IF_FALSE] = TEST(UPY_JUMP_FALSE),
    [UPY_OP_POP_JUMP_IF_TRUE] = TEST(UPY_JUMP_TRUE),
    [UPY_OP_POP_JUMP_FORWARD_IF_TRUE] = TEST(UPY_JUMP_TRUE),
    [UPY_OP_POP_JUMP_BACKWARD_IF_TRUE] = TEST(UPY_JUMP_TRUE),
    [UPY_OP_POP_JUMP_IF_NONE] = TEST(UPY_JUMP_NONE),
    [UPY_OP_POP_JUMP_FORWARD_IF_NONE] = TEST(UPY_JUMP_NONE),
    [UPY_OP_POP_JUMP_BACKWARD_IF_NONE] = TEST(UPY_JUMP_NONE),
    [UPY_OP_POP_JUMP_IF_NOT_NONE] = TEST(UPY_JUMP_NOT_NONE),
    [UPY_OP_POP_JUMP_FORWARD_IF_NOT_NONE] = TEST(UPY_JUMP_NOT_NONE),
    [UPY_OP_POP_JUMP_BACKWARD_IF_NOT_NONE] = TEST(UPY_JUMP_NOT_NONE),
    [UPY_OP_JUMP_IF_FALSE_OR_POP] = JUMP(N_JUMP_IF_OR_POP, UPY_JUMP_FALSE, 0),
    [UPY_OP_JUMP_IF_TRUE_OR_POP] = JUMP(N_JUMP_IF_OR_POP, UPY_JUMP_TRUE, 0),
    [UPY_OP_GET_ITER] = FIXED(N_GET_ITER, 0),
    [UPY_OP_GET_AITER] = FIXED(N_GET_AITER, 0),
    [UPY_OP_YIELD_VALUE] = FIXED(N_YIELD, 0),
    [UPY_OP_END_ASYNC_FOR] = FIXED(N_END_ASYNC_FOR, 0),

    [UPY_OP_RAISE_VARARGS] = OPARG(N_RAISE),
    [UPY_OP_RERAISE] = OPARG(N_RERAISE),
    [UPY_OP_PUSH_EXC_INFO] = FIXED(N_PUSH_EXC_INFO, 0),
    [UPY_OP_POP_EXCEPT] = FIXED(N_POP_EXCEPT, 0),
    [UPY_OP_BEFORE_WITH] = FIXED(N_BEFORE_WITH, 0),
    [UPY_OP_BEFORE_ASYNC_WITH] = {LOWER_FIXED, N_BEFORE_WITH, 0, N_ASYNC},
    [UPY_OP_WITH_EXCEPT_START] = FIXED(N_WITH_EXCEPT_START, 0),
    /* 3.8-3.10's block stack and 3.8's finally subroutine, which
     * blocks.c and finally.c read. */
    [UPY_OP_SETUP_ASYNC_WITH] = JUMP(N_SETUP_WITH, 0, 0),
    [UPY_OP_POP_BLOCK] = FIXED(N_POP_BLOCK, 0),
    [UPY_OP_JUMP_IF_NOT_EXC_MATCH] = JUMP(N_JUMP_IF_NOT_EXC_MATCH, 0, 0),
    [UPY_OP_BEGIN_FINALLY] = FIXED(N_BEGIN_FINALLY, 0),
    [UPY_OP_CALL_FINALLY] = JUMP(N_CALL_FINALLY, 0, 0),
    [UPY_OP_END_FINALLY] = FIXED(N_END_FINALLY, 0),
    [UPY_OP_POP_FINALLY] = OPARG(N_POP_FINALLY),
    [UPY_OP_WITH_CLEANUP_START] = FIXED(N_WITH_CLEANUP_START, 0),
    [UPY_OP_WITH_CLEANUP_FINISH] = FIXED(N_WITH_CLEANUP_FINISH, 0),

    [UPY_OP_LOAD_ASSERTION_ERROR] = FIXED(N_LOAD_ASSERTION_ERROR, 0),
    [UPY_OP_SETUP_ANNOTATIONS] = FIXED(N_SETUP_ANNOTATIONS, 0),
    [UPY_OP_IMPORT_STAR] = FIXED(N_IMPORT_STAR, 0),
    [UPY_OP_MATCH_MAPPING] = FIXED(N_MATCH_MAPPING, 0),
    [UPY_OP_MATCH_SEQUENCE] = FIXED(N_MATCH_SEQUENCE, 0),
    [UPY_OP_GET_LEN] = FIXED(N_GET_LEN, 0),
    [UPY_OP_COPY_DICT_WITHOUT_KEYS] = FIXED(N_COPY_DICT_WITHOUT_KEYS, 0),
    [UPY_OP_PRINT_EXPR] = FIXED(N_PRINT_EXPR, 0),
    [UPY_OP_LOAD_LOCALS] = FIXED(N_LOAD_LOCALS, 0),
};

#undef NOTHING
#undef FIXED
#undef OPARG
#undef NAMED
#undef JUMP
#undef TEST
#undef BINARY
#undef INPLACE

/* BINARY_OP's oparg: NB_ADD.. NB_XOR, then the in-place forms
 * (lower_binary_op). */
#define NB_INPLACE_OFFSET 13

unpyc_status norm_fail_memory(norm *nm) {
    return upy_fail(
        nm->err, nm->arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
        "no memory to normalize %u instructions", (unsigned)nm->dec->count);
}

/* The decoded instruction at byte offset `offset`, or -1. */
int32_t norm_index_of_offset(const norm *nm, int64_t offset) {
    if (offset < 0 || (offset & 1) || offset / 2 >= nm->units)
        return -1;
    return nm->index_at[offset / 2];
}

/* Fills index_at from the decoded instructions' offsets (the copies
 * joined back keep them).  Every jump and handler is looked up by offset,
 * in the walk and in resolve: a search by halves each was a few percent
 * of normalize on whole modules.  -1 when out of memory. */
static int index_offsets(norm *nm) {
    const upy_instr *ins = nm->dec->instrs;
    uint32_t i, count = nm->dec->count;
    nm->units = count ? (uint32_t)(ins[count - 1].offset / 2) + 1 : 0;
    nm->index_at = upy_arena_array_uncleared(nm->arena, (size_t)nm->units + 1,
                                             sizeof *nm->index_at);
    _Static_assert(UNSET == -1, "memset's 0xff bytes make UNSET");
    if (!nm->index_at)
        return -1;
    memset(nm->index_at, 0xff, (size_t)nm->units * sizeof *nm->index_at);
    for (i = 0; i < count; i++)
        nm->index_at[ins[i].offset / 2] = (int32_t)i;
    return 0;
}

/* Whether the entries of the exception table are in order of their
 * ranges, which do not overlap.  A corrupt table need not be. */
static int entries_in_order(const upy_exc_table *t) {
    uint32_t i;
    for (i = 1; i < t->count; i++)
        if (t->entries[i].start < t->entries[i - 1].end)
            return 0;
    return 1;
}

/* The exception-table entry covering byte offset `offset`, or NULL: the
 * first one, for a table out of order.  An ordered table is searched by
 * halves (a function of thousands of tries has thousands of entries). */
static const upy_exc_entry *entry_at(const norm *nm, uint32_t offset) {
    const upy_exc_table *t = &nm->dec->exceptions;
    uint32_t i, lo = 0, hi = t->count;
    if (!nm->entries_in_order) {
        for (i = 0; i < t->count; i++)
            if (t->entries[i].start <= offset && offset < t->entries[i].end)
                return &t->entries[i];
        return NULL;
    }
    /* The last entry starting at or before offset. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->entries[mid].start <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && offset < t->entries[lo - 1].end ? &t->entries[lo - 1]
                                                     : NULL;
}

/* Fills entry_of, the entry covering each decoded instruction (NULL when
 * the code has no exception table).  Every instruction asks, in resolve
 * and the walk: a search by halves each was over a tenth of resolve on
 * whole modules.  An ordered table's entries (starts strictly ascending,
 * decode rejects empty ranges) are walked beside the instructions, whose
 * offsets ascend too; the copies joined back keep them.  -1 when out of
 * memory. */
static int index_entries(norm *nm) {
    const upy_exc_table *t = &nm->dec->exceptions;
    uint32_t i, next = 0, count = nm->dec->count;
    nm->entry_of = NULL;
    if (!t->count)
        return 0;
    nm->entry_of =
        upy_arena_array_uncleared(nm->arena, count, sizeof *nm->entry_of);
    if (!nm->entry_of)
        return -1;
    for (i = 0; i < count; i++) {
        uint32_t offset = at(nm, i)->offset;
        if (!nm->entries_in_order) {
            nm->entry_of[i] = entry_at(nm, offset);
            continue;
        }
        /* next: how many entries start at or before offset. */
        while (next < t->count && t->entries[next].start <= offset)
            next++;
        nm->entry_of[i] = next > 0 && offset < t->entries[next - 1].end
                              ? &t->entries[next - 1]
                              : NULL;
    }
    return 0;
}

/* Whether the NOP at decoded instruction k is a statement of its own.
 * The NOP a try body's end leaves (POP_BLOCK, without a line) where an
 * if in it whose body returns or raises joins takes the line of the
 * if's jump to it, its one way in (propagate_line_numbers): the try gives
 * that NOP back itself.  A `pass` at a jump target has a line no jump
 * to it has.  (The line laid out before the NOP tells nothing: 3.10 puts
 * an else's `pass` after the copy of the return ending the then part.) */
static int nop_is_statement(const norm *nm, uint32_t k) {
    return !nm->jumped_on_line[k];
}

/* The NOPs right before decoded instruction i in its block.  CPython's
 * remove_redundant_nops (Python/flowgraph.c; compile.c before 3.12) keeps
 * a NOP only where its line is neither the line of the instruction before
 * it nor of the one after it (nor missing), so each NOP left in the code
 * is a statement of its own that made no code: a `pass`, a constant
 * expression.  It counts: a block it starts is no exit without a line
 * number (duplicate_exits_without_lineno copies those into each jump to
 * them) and may be too big to inline (inline_small_exit_blocks).  A jump
 * target between a NOP and i puts the NOP in the block before, and so
 * does another exception handler (a NOP of a try body before the copy of
 * its finally body).  A NOP that is no statement (nop_is_statement)
 * does not count.  Sets *joined when the first of them is a jump target. */
static uint32_t lead_nops(const norm *nm, uint32_t i, uint8_t *joined) {
    uint32_t n = 0, k = i, first = i;
    const upy_exc_entry *handler = NULL; /* i's, once a NOP asks */
    int handler_found = 0;
    while (k > 0 && !nm->is_target[k]) {
        k--;
        if (op_is(nm, k, UPY_OP_NOP) && !handler_found) {
            handler = norm_entry_of(nm, i);
            handler_found = 1;
        }
        if (op_is(nm, k, UPY_OP_NOP) && norm_entry_of(nm, k) == handler) {
            n += (uint32_t)nop_is_statement(nm, k);
            first = k;
        } else if (!op_is(nm, k, UPY_OP_EXTENDED_ARG) &&
                   !op_is(nm, k, UPY_OP_CACHE)) {
            break;
        }
    }
    *joined = n > 0 && nm->is_target[first];
    return n;
}

/* Whether control never goes on from decoded instruction i to the next
 * (an unconditional jump, a return or a raise). */
int norm_ends_without_fall(const norm *nm, uint32_t i) {
    static const uint16_t ops[] = {
        UPY_OP_JUMP_FORWARD,  UPY_OP_JUMP_BACKWARD,
        UPY_OP_JUMP_ABSOLUTE, UPY_OP_JUMP_BACKWARD_NO_INTERRUPT,
        UPY_OP_RETURN_VALUE,  UPY_OP_RETURN_CONST,
        UPY_OP_RAISE_VARARGS, UPY_OP_RERAISE,
    };
    size_t k;
    for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (op_is(nm, i, ops[k]))
            return 1;
    return 0;
}

/* Whether a jump after decoded instruction `to` goes back into [from,
 * to): the NOPs there are a loop's header (`while True:`). */
static int jumped_back_into(norm *nm, uint32_t from, uint32_t to) {
    uint32_t k;
    if (nm->scan_budget < nm->dec->count)
        return 1;
    nm->scan_budget -= nm->dec->count;
    for (k = to; k < nm->dec->count; k++) {
        int64_t t = at(nm, k)->target;
        if (t >= (int64_t)at(nm, from)->offset &&
            t < (int64_t)at(nm, to)->offset)
            return 1;
    }
    return 0;
}

/* Whether a jump before decoded instruction `from` goes to instruction
 * j: branches join there (a loop's header is reached from after only). */
static int joined_from_before(norm *nm, uint32_t from, uint32_t j) {
    uint32_t k;
    if (nm->scan_budget < from)
        return 1;
    nm->scan_budget -= from;
    for (k = 0; k < from; k++)
        if (at(nm, k)->target == (int64_t)at(nm, j)->offset)
            return 1;
    return 0;
}

/* Whether the handler of exception-table entry `outer` (NULL: none) is
 * inner's, or the one inner's handler runs under, or that one's, and so
 * on out: the handler the code after a with or try nested in inner's
 * protected code is under (the with's exit after `with c():` in a try
 * body is under the try's handler, its body under the with's). */
static int encloses(const norm *nm, const upy_exc_entry *outer,
                    const upy_exc_entry *inner) {
    uint32_t steps = 0;
    while (inner && (!outer || inner->target != outer->target) &&
           steps++ < nm->dec->exceptions.count)
        inner = entry_at(nm, inner->target);
    return outer ? inner != NULL : inner == NULL;
}

/* Whether the NOP at decoded instruction i is a statement of a block of
 * NOPs alone that only a jump reaches (the code before it never goes on
 * into it), right before another jump target: the `pass` of an else part
 * (of an if, for or while) where the branches join.  lead_nops() gives
 * it to no instruction, and the jump to it would go to the join: an
 * N_PASS keeps both the statement and the block.  (A NOP a compound
 * statement's header leaves, `try:` or `while True:`, follows code that
 * goes on into it, or comes before the code it protects, or is where
 * the loop jumps back to, or comes right before a loop's header that no
 * branch joins -- `while True:` after the handlers of a try, which 3.12+
 * leaves in place inside a finally's handler; the statement gives it
 * back itself.  Nor is a NOP on the line of the jump laid out before it:
 * an `else:` part is on a line of its own, after its then part, but the
 * NOP of a folded constant test keeps the line of the expression around,
 * `(x in c if s else True) and not c` written over lines, whose then arm
 * jumps over it.) */
static int is_pass_block(norm *nm, uint32_t i) {
    uint32_t first = i, j = i + 1, before;
    const upy_exc_entry *handler = norm_entry_of(nm, i);
    if (!nop_is_statement(nm, i))
        return 0;
    while (first > 0 && !nm->is_target[first] &&
           op_is(nm, first - 1, UPY_OP_NOP))
        first--;
    while (j < nm->dec->count && op_is(nm, j, UPY_OP_NOP) && !nm->is_target[j])
        j++;
    before = first;
    while (before > 0 && (op_is(nm, before - 1, UPY_OP_CACHE) ||
                          op_is(nm, before - 1, UPY_OP_EXTENDED_ARG)))
        before--;
    return nm->is_target[first] && j < nm->dec->count && nm->is_target[j] &&
           before > 0 && norm_ends_without_fall(nm, before - 1) &&
           at(nm, before - 1)->line != at(nm, first)->line &&
           !jumped_back_into(nm, first, j) &&
           joined_from_before(nm, first, j) &&
           encloses(nm, norm_entry_of(nm, j), handler) &&
           norm_entry_of(nm, first) == handler &&
           norm_entry_of(nm, j - 1) == handler;
}

/* The run of NOPs around decoded instruction i: [*first, *end). */
static void nop_run(const norm *nm, uint32_t i, uint32_t *first,
                    uint32_t *end) {
    *first = *end = i;
    while (*first > 0 && op_is(nm, *first - 1, UPY_OP_NOP))
        (*first)--;
    while (*end < nm->dec->count && op_is(nm, *end, UPY_OP_NOP))
        (*end)++;
}

/* Whether a jump back from after the NOP at decoded instruction p, of
 * its line, goes to the instruction after it: the jump back from the end
 * of the body of the `while True:` loop the NOP is the header of
 * (flowgraph.c aims a jump to a NOP of its own line past it). */
static int skipped_by_jump_back(norm *nm, uint32_t p) {
    uint32_t k;
    /* No jump goes there: no scan (each NOP of a run of `try:` lines asks
     * for itself and its neighbour, a scan of the code each). */
    if (p + 1 >= nm->dec->count || !nm->is_target[p + 1] ||
        nm->scan_budget < nm->dec->count)
        return 0;
    nm->scan_budget -= nm->dec->count;
    for (k = p + 1; k < nm->dec->count; k++)
        if (at(nm, k)->target == (int64_t)at(nm, p + 1)->offset &&
            at(nm, k)->line == at(nm, p)->line)
            return 1;
    return 0;
}

/* Whether the NOPs around decoded instruction i head nested `while True:`
 * loops: two of them in a row are headers (skipped_by_jump_back), each
 * loop's NOP right before the next one's.  The jump back from the end of
 * the outer loop's body then goes to the inner loop's NOP, where a
 * `continue` of the inner loop goes too.  Example: `while True:` /
 * `while True:` / `if a: ...` / `else: break` / `g()`. */
static int heads_nested_loops(norm *nm, uint32_t i) {
    uint32_t first, end, k;
    nop_run(nm, i, &first, &end);
    for (k = first; k + 1 < end; k++)
        if (skipped_by_jump_back(nm, k) && skipped_by_jump_back(nm, k + 1))
            return 1;
    return 0;
}

/* The byte offset where the jump at decoded instruction i goes: the jump
 * back from the end of a loop's body past its NOP goes to that NOP where
 * loops nest (heads_nested_loops), so that each loop has one header, its
 * NOP, that its `continue` jumps to too. */
static int64_t loop_jump_target(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    int32_t t = norm_index_of_offset(nm, in->target);
    if (in->target < 0 || in->target > (int64_t)in->offset || t <= 0 ||
        !op_is(nm, (uint32_t)t - 1, UPY_OP_NOP) ||
        at(nm, (uint32_t)t - 1)->line != in->line ||
        !heads_nested_loops(nm, (uint32_t)t - 1))
        return in->target;
    return at(nm, (uint32_t)t - 1)->offset;
}

/* Whether the NOP at decoded instruction i is the header of one of nested
 * `while True:` loops (heads_nested_loops).  Dropped like the other NOPs,
 * it would leave two loops one header, their jumps back alike:
 * N_LOOP_HEAD keeps it. */
static int is_nested_loop_head(norm *nm, uint32_t i) {
    return heads_nested_loops(nm, i) && skipped_by_jump_back(nm, i);
}

/* Doubles the capacity of the arrays norm_emit() fills (the old copies are
 * left to the code object's scratch arena).  -1 when out of memory. */
int norm_grow_out(norm *nm) {
    uint32_t cap[5] = {nm->cap, nm->cap, nm->cap, nm->cap, nm->cap};
    upy_arena *arena = nm->arena;
    uint32_t n = nm->n;
    nm->out = upy_arena_grow(arena, nm->out, n, &cap[0], sizeof *nm->out, 0);
    nm->src = upy_arena_grow(arena, nm->src, n, &cap[1], sizeof *nm->src, 0);
    nm->handler_of = upy_arena_grow(arena, nm->handler_of, n, &cap[2],
                                    sizeof *nm->handler_of, 0);
    nm->target_off = upy_arena_grow(arena, nm->target_off, n, &cap[3],
                                    sizeof *nm->target_off, 0);
    nm->empty_handler = upy_arena_grow(arena, nm->empty_handler, n, &cap[4],
                                       sizeof *nm->empty_handler, 0);
    if (!nm->out || !nm->src || !nm->handler_of || !nm->target_off ||
        !nm->empty_handler)
        return -1;
    nm->cap = cap[0];
    return 0;
}

/* The per-instruction tables, in two allocations (one each was a tenth
 * of normalize's time on small functions): those of nm->cap neutral
 * instructions, which norm_emit() writes before it counts each (not cleared;
 * grow_out moves them one by one), and those of the count + 1 decoded
 * ones, the maps set UNSET, the flags cleared. */
static int alloc_tables(norm *nm, uint32_t count) {
    size_t cap = nm->cap, n = (size_t)count + 1;
    unsigned char *at = upy_arena_array_uncleared(
        nm->arena, cap,
        sizeof(upy_nin) + sizeof(int64_t) + 3 * sizeof(int32_t));
    unsigned char *per_ins =
        upy_arena_array_uncleared(nm->arena, n, 6 * sizeof(int32_t) + 4);
    size_t i;
    _Static_assert(sizeof(upy_nin) % sizeof(int64_t) == 0,
                   "target_off stays aligned after out");
    if (!at || !per_ins)
        return -1;
    nm->out = (upy_nin *)at;
    nm->target_off = (int64_t *)(at += cap * sizeof(upy_nin));
    nm->src = (int32_t *)(at += cap * sizeof(int64_t));
    nm->handler_of = (int32_t *)(at += cap * sizeof(int32_t));
    nm->empty_handler = (int32_t *)(at + cap * sizeof(int32_t));
    nm->first_of = (int32_t *)per_ins;
    nm->empty_try_at = nm->first_of + n;
    nm->empty_body_of = nm->empty_try_at + n;
    nm->jumps_to = nm->empty_body_of + n;
    nm->copy_of = nm->jumps_to + n;
    nm->jump_instead = nm->copy_of + n;
    for (i = 0; i < n; i++) {
        nm->first_of[i] = nm->empty_try_at[i] = nm->empty_body_of[i] =
            nm->copy_of[i] = nm->jump_instead[i] = UNSET;
        nm->jumps_to[i] = 0;
    }
    nm->is_target = (uint8_t *)(nm->jump_instead + n);
    nm->jumped_on_line = nm->is_target + n;
    nm->skip = nm->jumped_on_line + n;
    nm->dead = nm->skip + n;
    memset(nm->is_target, 0, 4 * n);
    return 0;
}

/* Whether decoded instruction i starts a with's __exit__ call on the
 * normal way out: 3.9-3.10 `LOAD_CONST None; DUP_TOP; DUP_TOP;
 * CALL_FUNCTION 3`, 3.8 `BEGIN_FINALLY; WITH_CLEANUP_START`. */
static int starts_with_exit(const norm *nm, uint32_t i) {
    return norm_with_exit_call(nm, i) >= 0 ||
           (op_is(nm, i, UPY_OP_BEGIN_FINALLY) &&
            op_is(nm, i + 1, UPY_OP_WITH_CLEANUP_START));
}

/* The line of the POP_BLOCKs right before decoded instruction i (and the
 * SETUP_FINALLY of a try that starts there), where the first of them
 * starts a line of its own and i starts a with's __exit__ call, the copy
 * of a finally body (3.8: the CALL_FINALLY that finally.c turns into one)
 * or code on a later line; -1 otherwise.  A `return` in a try body unwinds
 * the try's block first (compile.c compiler_unwind_fblock), the POP_BLOCK
 * on the return's line; 3.11 makes it a NOP it keeps for the line
 * (remove_redundant_nops), the lead_line of what follows.  Example
 * (3.10): `with c:` / `try:` / `if a or b:` / `return 1`: POP_BLOCK (the
 * return's line); POP_BLOCK; the __exit__ call (the with's line);
 * LOAD_CONST 1; RETURN_VALUE.  Without it the return read as code after
 * the try: `if a or b: pass` + `else: return 1`.  The same through a
 * finally body, copied on its own lines: `try:` / `if c: f()` / `return
 * False` / `except E: pass` / `finally: g()` came out as `if c: f()` and
 * `else: return False` on the try (3.8-3.10, gunicorn
 * ThreadWorker.handle_request).  (A POP_BLOCK that a jump of its own line
 * goes to is the join of the try's ways out, which 3.10 puts on the line
 * of that jump: `except E: pass` / `finally: ...`.)  3.8 / 3.9 give the
 * __exit__ call the return's line too (3.8 spells it BEGIN_FINALLY;
 * WITH_CLEANUP_START, which finally.c turns into 3.9's call, keeping the lead
 * line); a with's body that ends in a statement puts its POP_BLOCK on that
 * statement's line, which starts none. */
static int32_t popped_block_line(const norm *nm, uint32_t i) {
    uint32_t j = i, k;
    if (j > 1 && op_is(nm, j - 1, UPY_OP_SETUP_FINALLY) &&
        !nm->is_target[j - 1])
        j--;
    k = j;
    while (k > 0 && op_is(nm, k - 1, UPY_OP_POP_BLOCK) && !nm->is_target[--k])
        ;
    if (k == j || k == 0 || at(nm, k - 1)->line >= at(nm, k)->line ||
        nm->jumped_on_line[k] ||
        !(starts_with_exit(nm, i) || op_is(nm, i, UPY_OP_CALL_FINALLY) ||
          at(nm, i)->line > at(nm, k)->line))
        return -1;
    return at(nm, k)->line;
}

upy_nin *norm_emit(norm *nm, upy_nop op, int32_t arg, const upy_object *obj,
                   uint32_t i) {
    upy_nin *in;
    if (nm->n == nm->cap && norm_grow_out(nm))
        return NULL;
    in = &nm->out[nm->n];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->arg = arg;
    in->obj = obj;
    in->target = UNSET;
    in->handler = UNSET;
    in->offset = at(nm, i)->offset;
    in->line = at(nm, i)->line;
    in->lead_line = -1;
    /* A NOP on a line after the line before it: a statement of its own
     * (the NOP an if leaves where its branches join takes the if's line,
     * before its body's). */
    if (nm->first_of[i] == UNSET && i > 0 && op_is(nm, i - 1, UPY_OP_NOP) &&
        (i < 2 || at(nm, i - 2)->line < at(nm, i - 1)->line))
        in->lead_line = at(nm, i - 1)->line;
    else if (nm->first_of[i] == UNSET && i > 0)
        in->lead_line = popped_block_line(nm, i);
    if (nm->first_of[i] == UNSET)
        in->lead_nops = lead_nops(nm, i, &in->lead_nops_joined);
    nm->src[nm->n] = (int32_t)i;
    nm->handler_of[nm->n] = (int32_t)i;
    nm->target_off[nm->n] = -1;
    nm->empty_handler[nm->n] = UNSET;
    if (nm->first_of[i] == UNSET)
        nm->first_of[i] = (int32_t)nm->n;
    nm->n++;
    return in;
}

unpyc_status norm_put(norm *nm, upy_nop op, int32_t arg, const upy_object *obj,
                      uint32_t i) {
    return norm_emit(nm, op, arg, obj, i) ? UNPYC_OK : norm_fail_memory(nm);
}

/* 3.13's TO_BOOL: before a test or `not` it is part of them and makes
 * nothing; elsewhere it is what is left of `not not v` (the compiler drops
 * the two UNARY_NOTs after it), written as such. */
static unpyc_status put_to_bool(norm *nm, uint32_t i) {
    uint32_t k = i + 1;
    uint16_t op;
    while (op_is(nm, k, UPY_OP_CACHE) || op_is(nm, k, UPY_OP_EXTENDED_ARG))
        k++;
    op = k < nm->dec->count ? nm->dec->instrs[k].op : UPY_OP_CACHE;
    if (op == UPY_OP_UNARY_NOT || op == UPY_OP_POP_JUMP_IF_FALSE ||
        op == UPY_OP_POP_JUMP_IF_TRUE || k >= nm->dec->count)
        return UNPYC_OK;
    if (!norm_emit(nm, N_UNARY, UPY_UOP_NOT, NULL, i) ||
        !norm_emit(nm, N_UNARY, UPY_UOP_NOT, NULL, i))
        return norm_fail_memory(nm);
    return UNPYC_OK;
}

/* A fast load of local slot `slot` (3.11+ numbering): of a cell or free
 * variable's slot it loads the cell itself, as LOAD_CLOSURE does (3.13
 * builds closures so; before, only code other tools write does it). */
static unpyc_status put_load_fast(norm *nm, int32_t slot,
                                  const upy_object *name, uint32_t i) {
    const upy_object *kinds = nm->dec->code->localspluskinds;
    if (nm->loads_cell && slot >= 0 && (size_t)slot < kinds->u.bytes.len &&
        nm->loads_cell[slot])
        return norm_put(nm, N_LOAD_CLOSURE, 0, name, i);
    return norm_put(nm, N_LOAD, UPY_SCOPE_FAST, name, i);
}

/* The local slots fast instructions bind or clear: a slot of 3.12+'s
 * inlined comprehension holds its variable's value there, not the
 * cell, between LOAD_FAST_AND_CLEAR and the store putting the cell back. */
static void unmark_fast_stores(norm *nm, size_t nslots) {
    uint32_t i;
    for (i = 0; i < nm->dec->count; i++) {
        const upy_instr *in = &nm->dec->instrs[i];
        int32_t first = (in->arg >> 4) & 15, second = in->arg & 15;
        switch (in->op) {
        case UPY_OP_STORE_FAST_STORE_FAST:
            if ((size_t)second < nslots)
                nm->loads_cell[second] = 0;
            /* fall through */
        case UPY_OP_STORE_FAST_LOAD_FAST:
            if ((size_t)first < nslots)
                nm->loads_cell[first] = 0;
            break;
        case UPY_OP_STORE_FAST:
        case UPY_OP_DELETE_FAST:
        case UPY_OP_LOAD_FAST_AND_CLEAR:
            if (in->arg >= 0 && (size_t)in->arg < nslots)
                nm->loads_cell[in->arg] = 0;
            break;
        default:
            break;
        }
    }
}

/* Fills nm->loads_cell: the cell and free variables' slots that no fast
 * instruction binds. */
static unpyc_status mark_cell_slots(norm *nm) {
    const upy_object *kinds = nm->dec->code->localspluskinds;
    size_t k, n;
    if (!kinds || kinds->kind != UPY_BYTES)
        return UNPYC_OK;
    n = kinds->u.bytes.len;
    nm->loads_cell = upy_arena_array(nm->arena, n + 1, 1);
    if (!nm->loads_cell)
        return norm_fail_memory(nm);
    for (k = 0; k < n; k++)
        nm->loads_cell[k] =
            (kinds->u.bytes.data[k] & (UPY_FAST_CELL | UPY_FAST_FREE)) != 0;
    unmark_fast_stores(nm, n);
    return UNPYC_OK;
}

static upy_nin *last_emitted(norm *nm) {
    return nm->n ? &nm->out[nm->n - 1] : NULL;
}

/* The await loop that starts at i (GET_AWAITABLE, GET_YIELD_FROM_ITER or
 * GET_ANEXT): returns the index of its last instruction, or -1 when the
 * instructions after i are not the loop. */
static int32_t await_loop_end(const norm *nm, uint32_t i) {
    const upy_instr *send;
    int32_t end;
    if (!op_is(nm, i + 1, UPY_OP_LOAD_CONST) || !at(nm, i + 1)->argobj ||
        at(nm, i + 1)->argobj->kind != UPY_NONE)
        return -1;
    if (op_is(nm, i + 2, UPY_OP_YIELD_FROM))
        return (int32_t)i + 2;
    if (!op_is(nm, i + 2, UPY_OP_SEND))
        return -1;
    send = at(nm, i + 2);
    end = norm_index_of_offset(nm, send->target);
    if (end <= (int32_t)i + 2)
        return -1;
    /* 3.12+ ends the loop with END_SEND; 3.11 falls out of SEND. */
    if (op_is(nm, (uint32_t)end, UPY_OP_END_SEND))
        return end;
    return end - 1;
}

/* The byte offset of the CLEANUP_THROW that the yield of the await loop
 * [i, end] goes to on an exception (3.12+), 0 when none. */
static uint32_t await_cleanup_offset(const norm *nm, uint32_t i, uint32_t end) {
    const upy_exc_entry *e;
    int32_t t;
    for (; i < end && !op_is(nm, i, UPY_OP_YIELD_VALUE); i++)
        ;
    e = i < end ? norm_entry_of(nm, i) : NULL;
    t = e ? norm_index_of_offset(nm, e->target) : -1;
    return t >= 0 && op_is(nm, (uint32_t)t, UPY_OP_CLEANUP_THROW)
               ? at(nm, (uint32_t)t)->offset
               : 0;
}

/* Marks the decoded instructions of handler code that only the compiler's
 * machinery reaches: CLEANUP_THROW blocks of await loops and the 3.12+
 * generator wrapper.  Their exception-table entries are then ignored. */
static void mark_dead_handlers(norm *nm) {
    uint32_t i;
    for (i = 0; i < nm->dec->count; i++) {
        const upy_instr *in = at(nm, i);
        if (in->op == UPY_OP_CLEANUP_THROW) {
            /* Its jump back to the END_SEND, EXTENDED_ARG prefixed when
             * the code after the loop is long. */
            uint32_t j = i + 1, k;
            while (op_is(nm, j, UPY_OP_EXTENDED_ARG))
                j++;
            nm->dead[i] = 1;
            if ((op_is(nm, j, UPY_OP_JUMP_BACKWARD) ||
                 op_is(nm, j, UPY_OP_JUMP_BACKWARD_NO_INTERRUPT)) &&
                norm_index_of_offset(nm, at(nm, j)->target) >= 0 &&
                op_is(nm, (uint32_t)norm_index_of_offset(nm, at(nm, j)->target),
                      UPY_OP_END_SEND))
                for (k = i + 1; k <= j; k++)
                    nm->dead[k] = 1;
        } else if (in->op == UPY_OP_CALL_INTRINSIC_1 &&
                   in->arg == UPY_INTRINSIC_STOPITERATION_ERROR &&
                   op_is(nm, i + 1, UPY_OP_RERAISE)) {
            nm->dead[i] = nm->dead[i + 1] = 1;
        }
    }
}

/* The line of the first instruction of handler code at decoded
 * instruction p that has one (its first clause), or -1. */
static int32_t handler_line(const norm *nm, uint32_t p) {
    uint32_t k;
    for (k = p + 1; k < nm->dec->count; k++)
        if (at(nm, k)->line >= 0)
            return at(nm, k)->line;
    return -1;
}

/* Where the empty body of the try whose handler starts at decoded
 * instruction p was: after the NOP of the last line before the handler's
 * (the `pass`, or the `try:` line when the pass left none), or before the
 * instructions of that line that are the try's way out (3.11 gives the
 * jump over the handlers the line of the pass it made redundant, and a
 * module's closing `LOAD_CONST None; RETURN_VALUE` the line of the
 * statement before it: the body starts before both, with nothing on the
 * stack).  -1 when no instruction has such a line. */
static int32_t empty_body_anchor(norm *nm, uint32_t p) {
    int32_t line = handler_line(nm, p), best = -1;
    uint32_t k;
    if (line < 0 || nm->scan_budget < nm->dec->count)
        return -1;
    nm->scan_budget -= nm->dec->count;
    for (k = 0; k < nm->dec->count; k++) {
        int32_t l = at(nm, k)->line;
        if (l < 0 || l >= line || op_is(nm, k, UPY_OP_PUSH_EXC_INFO))
            continue;
        if (best < 0 || l >= at(nm, (uint32_t)best)->line)
            best = (int32_t)k;
    }
    if (best >= 0 && op_is(nm, (uint32_t)best, UPY_OP_NOP))
        best++;
    else
        while (best > 0 &&
               at(nm, (uint32_t)best - 1)->line ==
                   at(nm, (uint32_t)best)->line &&
               !op_is(nm, (uint32_t)best - 1, UPY_OP_NOP))
            best--;
    return best < (int32_t)nm->dec->count ? best : -1;
}

/* Finds the tries whose body made no code (`try: pass`): compile.c
 * compiler_try_except brackets the body with SETUP_FINALLY and POP_BLOCK,
 * which become NOPs, so the exception table (assemble.c) covers no
 * instruction for it, yet the handler is kept, which no jump and no
 * entry then names.  Its own code is still covered by its cleanup, whose
 * entry's depth is the try's plus the exception it saved.  An
 * N_EMPTY_BODY under the handler, where the body was, gives the try back
 * its protected block; the structure then reads it as any other try. */
static void find_empty_tries(norm *nm) {
    uint32_t p;
    /* (A few hundred scans of the largest real code.) */
    nm->scan_budget = (uint64_t)1 << 26;
    if (!nm->entry_of)
        return; /* no table: no cleanup entry, nothing below finds a try
                   (the walk was 0.17 k Ir of a small function's 33 k) */
    for (p = 0; p < nm->dec->count; p++) {
        const upy_exc_entry *cleanup;
        int32_t a;
        if (!op_is(nm, p, UPY_OP_PUSH_EXC_INFO) || nm->is_target[p])
            continue;
        cleanup = norm_entry_of(nm, p);
        if (!cleanup || cleanup->depth < 1)
            continue;
        a = empty_body_anchor(nm, p);
        if (a >= 0 && nm->empty_try_at[a] == UNSET && !nm->skip[a] &&
            !nm->dead[a])
            nm->empty_try_at[a] = (int32_t)p;
    }
}

/* The N_EMPTY_BODY find_empty_tries put before decoded instruction i:
 * jumps to i still go to i's own code (the way on of the try's handler),
 * jumps to the NOPs before it to the try (resolve). */
static unpyc_status put_empty_body(norm *nm, uint32_t i) {
    int32_t first = nm->first_of[i];
    upy_nin *in = norm_emit(nm, N_EMPTY_BODY, 0, NULL, i);
    if (!in)
        return norm_fail_memory(nm);
    nm->empty_handler[nm->n - 1] = nm->empty_try_at[i];
    nm->empty_body_of[i] = (int32_t)nm->n - 1;
    nm->first_of[i] = first;
    return UNPYC_OK;
}

void norm_mark_targets(norm *nm) {
    uint32_t i;
    for (i = 0; i < nm->dec->count; i++) {
        int32_t t = at(nm, i)->target >= 0
                        ? norm_index_of_offset(nm, at(nm, i)->target)
                        : -1;
        if (t < 0)
            continue;
        nm->is_target[t] = 1;
        nm->jumps_to[t]++;
        if (at(nm, i)->line >= 0 && at(nm, i)->line == at(nm, t)->line)
            nm->jumped_on_line[t] = 1;
    }
    for (i = 0; i < nm->dec->exceptions.count; i++) {
        int32_t t =
            norm_index_of_offset(nm, nm->dec->exceptions.entries[i].target);
        if (t >= 0)
            nm->is_target[t] = 1;
    }
}

/* COPY 1; [TO_BOOL;] POP_JUMP_IF_FALSE/TRUE L; POP_TOP with no jump into
 * its middle: returns the index of the jump, or -1.  A jump past 255
 * code units has EXTENDED_ARG prefixes (an and / or of more than about
 * 24 operands): they are part of it. */
static int32_t jump_or_pop_idiom(const norm *nm, uint32_t i) {
    uint32_t j = i + 1;
    if (at(nm, i)->arg != 1)
        return -1;
    if (op_is(nm, j, UPY_OP_TO_BOOL)) {
        if (nm->is_target[j])
            return -1;
        j++;
    }
    while (op_is(nm, j, UPY_OP_EXTENDED_ARG)) {
        if (nm->is_target[j])
            return -1;
        j++;
    }
    if (!(op_is(nm, j, UPY_OP_POP_JUMP_IF_FALSE) ||
          op_is(nm, j, UPY_OP_POP_JUMP_IF_TRUE)) ||
        !op_is(nm, j + 1, UPY_OP_POP_TOP) || nm->is_target[j] ||
        nm->is_target[j + 1])
        return -1;
    return (int32_t)j;
}

/* The call of a with's __exit__ on the way out before 3.11: LOAD_CONST
 * None; DUP_TOP; DUP_TOP; CALL_FUNCTION 3, with no jump into its middle.
 * 3.11 loads None three times and calls with two callable slots (the
 * __exit__ and the first None): lowering gives that form, so that a with's
 * exits read the same for every version.  Returns the index of the call,
 * or -1. */
int32_t norm_with_exit_call(const norm *nm, uint32_t i) {
    uint32_t k;
    if (!at(nm, i)->argobj || at(nm, i)->argobj->kind != UPY_NONE)
        return -1;
    for (k = i + 1; k <= i + 3; k++)
        if (nm->is_target[k] ||
            !op_is(nm, k, k < i + 3 ? UPY_OP_DUP_TOP : UPY_OP_CALL_FUNCTION))
            return -1;
    return at(nm, i + 3)->arg == 3 ? (int32_t)i + 3 : -1;
}

/* 3.8's exception match: COMPARE_OP of cmp_op 10 and the
 * POP_JUMP_IF_FALSE after it are one N_JUMP_IF_NOT_EXC_MATCH, as 3.9+
 * spells it.  Returns the index of the jump, or -1. */
static int32_t exception_match_jump(const norm *nm, uint32_t i) {
    uint32_t j = i + 1;
    /* (A jump past 65535 bytes has EXTENDED_ARG before it.) */
    while (op_is(nm, j, UPY_OP_EXTENDED_ARG) && !nm->is_target[j])
        j++;
    if (at(nm, i)->arg != 10 || !op_is(nm, j, UPY_OP_POP_JUMP_IF_FALSE) ||
        nm->is_target[j])
        return -1;
    return (int32_t)j;
}

/* The END_ASYNC_FOR of the async for whose header GET_ANEXT at i
 * starts, or -1: its handler, from the exception table (3.11+), or from
 * the SETUP_FINALLY right before it that 3.8-3.10 wrap the await of the
 * next item in (compile.c compiler_async_for). */
static int32_t async_for_exit(const norm *nm, uint32_t i) {
    const upy_exc_entry *e = norm_entry_of(nm, i);
    int32_t h = e ? norm_index_of_offset(nm, e->target) : -1;
    if (!e && i > 0 && op_is(nm, i - 1, UPY_OP_SETUP_FINALLY))
        h = norm_index_of_offset(nm, at(nm, i - 1)->target);
    return h >= 0 && op_is(nm, (uint32_t)h, UPY_OP_END_ASYNC_FOR) ? h : -1;
}

/* A 3.8-3.10 async for's SETUP_FINALLY at i and the POP_BLOCK after its
 * await: neither is a block of the source, so neither is lowered. */
static int skip_async_for_block(norm *nm, uint32_t i) {
    int32_t end;
    if (!op_is(nm, i + 1, UPY_OP_GET_ANEXT) || async_for_exit(nm, i + 1) < 0)
        return 0;
    end = await_loop_end(nm, i + 1);
    if (end < 0 || !op_is(nm, (uint32_t)end + 1, UPY_OP_POP_BLOCK) ||
        nm->is_target[end + 1])
        return 0;
    nm->skip[end + 1] = 1;
    return 1;
}

unpyc_status norm_unsupported(norm *nm, uint32_t i) {
    return upy_fail(nm->err, UNPYC_E_UNSUPPORTED, (long long)at(nm, i)->offset,
                    "%s at offset %u is not supported by the decompiler yet",
                    upy_op_names[at(nm, i)->op], (unsigned)at(nm, i)->offset);
}

static unpyc_status emit_call(norm *nm, uint32_t i, int slots,
                              const upy_object *kwnames) {
    upy_nin *in = norm_emit(nm, N_CALL, at(nm, i)->arg, kwnames, i);
    if (!in)
        return norm_fail_memory(nm);
    if (slots == 1)
        in->flags |= N_ONE_SLOT;
    return UNPYC_OK;
}

/* Takes the keyword-names tuple a LOAD_CONST pushed just before a call
 * (CALL_FUNCTION_KW, CALL_KW). */
static const upy_object *pop_kwnames_const(norm *nm) {
    upy_nin *last = last_emitted(nm);
    if (!last || last->op != N_LOAD_CONST || !last->obj ||
        last->obj->kind != UPY_TUPLE)
        return NULL;
    nm->n--;
    return last->obj;
}

/* 3.12+ has no backward conditional jumps: the compiler writes the one a
 * test in a loop needs as POP_JUMP_IF_<not X> over a JUMP_BACKWARD.  When
 * instruction i is such a pair (the jump over exactly the next
 * instruction, a JUMP_BACKWARD no other jump enters, EXTENDED_ARG prefixed
 * when it goes far back), returns the index of the JUMP_BACKWARD; else
 * -1.  A JUMP_BACKWARD on a line of its own is a `continue` written under
 * the test, a statement as before 3.12: not such a pair. */
static int32_t inverted_back_jump(const norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    uint32_t j = i + 1;
    /* Before 3.12 the pair is what the source said: `if c: continue`. */
    if (!nm->rules->no_backward_cond || j >= nm->dec->count || nm->is_target[j])
        return -1;
    while (j + 1 < nm->dec->count && op_is(nm, j, UPY_OP_EXTENDED_ARG))
        j++;
    if (!op_is(nm, j, UPY_OP_JUMP_BACKWARD) || nm->is_target[j] ||
        (at(nm, j)->line >= 0 && at(nm, j)->line != in->line))
        return -1;
    /* The pair flowgraph.c's normalize_jumps makes comes after the
     * exception table's ranges were set: in a try it has no handler (a
     * hole in the try's range), a written `if not c: continue` on one
     * line has the try's (imaplib's `if not uid: continue` in a loop in a
     * module-level try). */
    if (norm_entry_of(nm, j))
        return -1;
    if (j + 1 < nm->dec->count ? in->target != at(nm, j + 1)->offset
                               : in->target <= at(nm, j)->offset)
        return -1;
    return (int32_t)j;
}

unpyc_status norm_emit_jump(norm *nm, upy_nop op, int32_t arg, uint32_t i,
                            uint16_t flags) {
    upy_nin *in = norm_emit(nm, op, arg, NULL, i);
    if (!in)
        return norm_fail_memory(nm);
    in->flags = flags;
    nm->target_off[nm->n - 1] = loop_jump_target(nm, i);
    return UNPYC_OK;
}

/* A conditional jump, with the 3.12+ spelling of a backward one undone
 * (see inverted_back_jump). */
static unpyc_status emit_cond_jump(norm *nm, upy_jump_cond cond, uint32_t i) {
    static const upy_jump_cond inverse[] = {UPY_JUMP_TRUE, UPY_JUMP_FALSE,
                                            UPY_JUMP_NOT_NONE, UPY_JUMP_NONE};
    int32_t back = inverted_back_jump(nm, i);
    if (back < 0)
        return norm_emit_jump(nm, N_POP_JUMP_IF, cond, i, 0);
    nm->skip[back] = 1;
    if (!norm_emit(nm, N_POP_JUMP_IF, inverse[cond], NULL, i))
        return norm_fail_memory(nm);
    nm->target_off[nm->n - 1] = at(nm, (uint32_t)back)->target;
    return UNPYC_OK;
}

/* 3.8-3.10's DUP_TOP, DUP_TOP_TWO and ROT_THREE (decoded instruction i),
 * as the COPYs and SWAPs 3.11's compile.c writes for the same source,
 * which replaced them:
 *   - `a < b < c`: DUP_TOP; ROT_THREE keeps b under the first test for
 *     the next (compiler_compare; 3.11: SWAP 2; COPY 2);
 *   - `x.a, x.b, x.c = c, b, a`: ROT_THREE; ROT_TWO, what 3.8-3.10's
 *     peephole.c makes of BUILD_TUPLE 3; UNPACK_SEQUENCE 3 (3.11's
 *     swaptimize: SWAP 3);
 *   - `a[i] += v`: DUP_TOP_TWO before the load of a[i], ROT_THREE before
 *     the store puts the value under a and i (compiler_augassign; 3.11:
 *     COPY 2; COPY 2 and SWAP 3; SWAP 2). */
static unpyc_status put_rotation(norm *nm, uint32_t i) {
    upy_nop first = N_COPY, second = N_COPY;
    int32_t first_arg = 2, second_arg = 2;
    switch (at(nm, i)->op) {
    case UPY_OP_DUP_TOP:
        /* (In 3.10's pattern code a DUP_TOP before a capture's rotation
         * is an as-pattern's copy.) */
        if (!followed_by(nm, i, UPY_OP_ROT_THREE) ||
            norm_is_capture_rotation(nm, i + 1))
            return norm_put(nm, N_COPY, 1, NULL, i);
        nm->skip[i + 1] = 1;
        first = N_SWAP;
        break;
    case UPY_OP_ROT_THREE:
        if (followed_by(nm, i, UPY_OP_ROT_TWO)) {
            nm->skip[i + 1] = 1;
            return norm_put(nm, N_SWAP, 3, NULL, i);
        }
        first = second = N_SWAP;
        first_arg = 3;
        break;
    default: /* DUP_TOP_TWO */
        break;
    }
    if (!norm_emit(nm, first, first_arg, NULL, i) ||
        !norm_emit(nm, second, second_arg, NULL, i))
        return norm_fail_memory(nm);
    return UNPYC_OK;
}

/* Whether decoded instructions i, i + 1 store a name and delete it, in
 * one scope (STORE_FAST e; DELETE_FAST e): how an `except E as e:`
 * clause clears its name, read before lowering by lowerings[] so that it
 * is what upy_nin_clears_name sees after. */
int norm_stores_and_deletes_name(const norm *nm, uint32_t i) {
    const lowering *store, *del;
    if (i + 1 >= nm->dec->count)
        return 0;
    store = &lowerings[at(nm, i)->op];
    del = &lowerings[at(nm, i + 1)->op];
    return store->kind == LOWER_NAMED && store->nop == N_STORE &&
           del->kind == LOWER_NAMED && del->nop == N_DELETE &&
           store->arg == del->arg && at(nm, i)->arg == at(nm, i + 1)->arg;
}

/* One neutral instruction made as lowerings[] says. */
static unpyc_status lower_by_table(norm *nm, const lowering *lw, uint32_t i) {
    const upy_instr *in = at(nm, i);
    upy_nin *out;
    switch (lw->kind) {
    case LOWER_NOTHING:
        return UNPYC_OK;
    case LOWER_JUMP:
        return norm_emit_jump(nm, lw->nop, lw->arg, i, lw->flags);
    case LOWER_TEST:
        return emit_cond_jump(nm, (upy_jump_cond)lw->arg, i);
    default:
        break;
    }
    out = norm_emit(nm, lw->nop, lw->kind == LOWER_OPARG ? in->arg : lw->arg,
                    lw->kind == LOWER_NAMED ? in->argobj : NULL, i);
    if (!out)
        return norm_fail_memory(nm);
    out->flags |= lw->flags;
    return UNPYC_OK;
}

static unpyc_status lower_nop(norm *nm, uint32_t i) {
    if (norm_is_dropped_else_jump(nm, i) || norm_is_removed_loop_break(nm, i)) {
        if (!norm_emit(nm, N_JUMP, 0, NULL, i))
            return norm_fail_memory(nm);
        nm->target_off[nm->n - 1] = at(nm, i + 1)->offset;
        return UNPYC_OK;
    }
    if (is_nested_loop_head(nm, i))
        return norm_put(nm, N_LOOP_HEAD, 0, NULL, i);
    return is_pass_block(nm, i) ? norm_put(nm, N_PASS, 0, NULL, i) : UNPYC_OK;
}

static unpyc_status lower_return_generator(norm *nm, uint32_t i) {
    if (op_is(nm, i + 1, UPY_OP_POP_TOP))
        nm->skip[i + 1] = 1;
    return UNPYC_OK;
}

/* COPY, or the start of the JUMP_IF_X_OR_POP idiom of 3.12+
 * (jump_or_pop_idiom). */
static unpyc_status lower_copy(norm *nm, uint32_t i) {
    int32_t end = jump_or_pop_idiom(nm, i);
    uint32_t k;
    if (end < 0)
        return norm_put(nm, N_COPY, at(nm, i)->arg, NULL, i);
    for (k = i + 1; k <= (uint32_t)end + 1; k++)
        nm->skip[k] = 1;
    return norm_emit_jump(nm, N_JUMP_IF_OR_POP,
                          at(nm, (uint32_t)end)->op == UPY_OP_POP_JUMP_IF_TRUE
                              ? UPY_JUMP_TRUE
                              : UPY_JUMP_FALSE,
                          (uint32_t)end, 0);
}

/* ROT_THREE / ROT_FOUR (n) and ROT_N: a capture's rotation in 3.10's
 * pattern code, else what the version uses them for. */
static unpyc_status lower_rotation(norm *nm, uint32_t i, int32_t n) {
    if (at(nm, i)->op == UPY_OP_ROT_N)
        return nm->rules->rotates_captures ? norm_put_capture_rotation(nm, n, i)
                                           : norm_unsupported(nm, i);
    if (norm_is_capture_rotation(nm, i))
        return norm_put_capture_rotation(nm, n, i);
    return n == 3 ? put_rotation(nm, i) : norm_put(nm, N_ROT_FOUR, 0, NULL, i);
}

/* LOAD_CONST, or the start of a with's __exit__ call before 3.11
 * (norm_with_exit_call). */
static unpyc_status lower_load_const(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    int32_t end = norm_with_exit_call(nm, i);
    uint32_t k;
    if (end < 0)
        return norm_put(nm, N_LOAD_CONST, in->arg, in->argobj, i);
    for (k = i; k < (uint32_t)end; k++) {
        nm->skip[k + 1] = 1;
        if (!norm_emit(nm, N_LOAD_CONST, in->arg, in->argobj, k))
            return norm_fail_memory(nm);
    }
    return norm_put(nm, N_CALL, 2, NULL, (uint32_t)end);
}

static unpyc_status lower_return_const(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    if (!norm_emit(nm, N_LOAD_CONST, in->arg, in->argobj, i) ||
        !norm_emit(nm, N_RETURN, 0, NULL, i))
        return norm_fail_memory(nm);
    return UNPYC_OK;
}

static unpyc_status lower_return_value(norm *nm, uint32_t i) {
    upy_nin *ret = norm_emit(nm, N_RETURN, 0, NULL, i);
    uint32_t before = i;
    if (!ret)
        return norm_fail_memory(nm);
    /* A constant loaded right before a return the compiler did not fuse
     * with it: the two were in different blocks, the return one where
     * paths met, copied here afterwards.  (A NOP between keeps the line
     * of the jump the copy replaced: `return (` / `a if c else b)` on
     * lines of their own.) */
    while (before > 0 && op_is(nm, before - 1, UPY_OP_NOP) &&
           !nm->is_target[before])
        before--;
    /* (In a for loop the iterator is popped from under the value first,
     * compile.c compiler_unwind_fblock: `SWAP 2; POP_TOP`.  A written
     * `return 0.0` pops it before loading the constant.) */
    if (before > 1 && op_is(nm, before - 1, UPY_OP_POP_TOP) &&
        op_is(nm, before - 2, UPY_OP_SWAP) &&
        nm->dec->instrs[before - 2].arg == 2 && !nm->is_target[before] &&
        !nm->is_target[before - 1])
        before -= 2;
    if (nm->rules->fuses_const_return && before > 0 &&
        op_is(nm, before - 1, UPY_OP_LOAD_CONST) && !nm->is_target[before])
        ret->flags |= N_SPLIT_CONST;
    return UNPYC_OK;
}

/* 3.13's superinstructions of two fast loads and stores. */
static unpyc_status lower_fast_pair(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    unpyc_status st;
    if (in->op == UPY_OP_LOAD_FAST_LOAD_FAST)
        st = put_load_fast(nm, (in->arg >> 4) & 15, in->argobj, i);
    else
        st = norm_put(nm, N_STORE, UPY_SCOPE_FAST, in->argobj, i);
    if (st != UNPYC_OK)
        return st;
    if (in->op == UPY_OP_STORE_FAST_STORE_FAST)
        return norm_put(nm, N_STORE, UPY_SCOPE_FAST, in->argobj2, i);
    return put_load_fast(nm, in->arg & 15, in->argobj2, i);
}

/* LOAD_FROM_DICT_OR_DEREF / _OR_GLOBALS: 3.12 class bodies load the
 * namespace with LOAD_LOCALS, then look the name up in it, one name
 * lookup.  The annotation scopes of 3.12+ type parameters, lazily
 * evaluated values and methods below a class load the class's namespace
 * from its __classdict__ cell instead. */
static unpyc_status lower_load_from_dict(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    upy_nin *last = last_emitted(nm);
    if (last &&
        (last->op == N_LOAD_LOCALS ||
         (last->op == N_LOAD && last->obj && last->obj->kind == UPY_STR &&
          strcmp((const char *)last->obj->u.bytes.data, "__classdict__") == 0)))
        nm->n--;
    return norm_put(nm, N_LOAD,
                    in->op == UPY_OP_LOAD_FROM_DICT_OR_DEREF
                        ? UPY_SCOPE_CLASSDEREF
                        : UPY_SCOPE_NAME,
                    in->argobj, i);
}

static unpyc_status lower_load_global(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    const norm_rules *r = nm->rules;
    unpyc_status st;
    if (r->global_null && (in->arg & 1) && !r->null_after &&
        !norm_emit(nm, N_PUSH_NULL, 0, NULL, i))
        return norm_fail_memory(nm);
    if ((st = norm_put(nm, N_LOAD, UPY_SCOPE_GLOBAL, in->argobj, i)))
        return st;
    if (r->global_null && (in->arg & 1) && r->null_after &&
        !norm_emit(nm, N_PUSH_NULL, 0, NULL, i))
        return norm_fail_memory(nm);
    return UNPYC_OK;
}

static unpyc_status lower_load_attr(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    return norm_put(nm,
                    nm->rules->attr_method_bit && (in->arg & 1) ? N_LOAD_METHOD
                                                                : N_LOAD_ATTR,
                    0, in->argobj, i);
}

/* 3.11+'s BINARY_OP: NB_ADD.. NB_XOR, then the in-place forms. */
static unpyc_status lower_binary_op(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    upy_nin *out;
    if (in->arg < 0 || in->arg >= 2 * NB_INPLACE_OFFSET)
        return norm_unsupported(nm, i);
    out = norm_emit(nm, N_BINARY, in->arg % NB_INPLACE_OFFSET, NULL, i);
    if (!out)
        return norm_fail_memory(nm);
    if (in->arg >= NB_INPLACE_OFFSET)
        out->flags |= N_INPLACE;
    return UNPYC_OK;
}

/* COMPARE_OP, or 3.8's exception match (exception_match_jump). */
static unpyc_status lower_compare_op(norm *nm, uint32_t i) {
    const norm_rules *r = nm->rules;
    int32_t k = at(nm, i)->arg >> r->compare_shift, end;
    if (r->compare_shift == 0 && (end = exception_match_jump(nm, i)) >= 0) {
        nm->skip[end] = 1;
        return norm_emit_jump(nm, N_JUMP_IF_NOT_EXC_MATCH, 0, (uint32_t)end, 0);
    }
    if (k < 0 || k >= (int32_t)(sizeof cmp_op_map / sizeof cmp_op_map[0]))
        return norm_unsupported(nm, i);
    return norm_put(nm, N_COMPARE, cmp_op_map[k], NULL, i);
}

/* FORMAT_VALUE's and CONVERT_VALUE's conversion, by oparg & 3. */
static const int conversions[4] = {-1, 's', 'r', 'a'};

static unpyc_status lower_format_value(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    upy_nin *out = norm_emit(nm, N_FORMAT, conversions[in->arg & 3], NULL, i);
    if (!out)
        return norm_fail_memory(nm);
    if (in->arg & 4)
        out->flags |= N_FORMAT_SPEC;
    return UNPYC_OK;
}

static unpyc_status lower_call_ex(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    unpyc_status st;
    upy_nin *out;
    if (nm->rules->passes_lone_kwargs && (in->arg & 1) &&
        (st = norm_wrap_kwargs(nm, i)))
        return st;
    out = norm_emit(nm, N_CALL_EX, 0, NULL, i);
    if (!out)
        return norm_fail_memory(nm);
    if (in->arg & 1)
        out->flags |= N_CALL_KWARGS;
    if (nm->rules->call_slots == 1)
        out->flags |= N_ONE_SLOT;
    return UNPYC_OK;
}

/* MAKE_FUNCTION: before 3.11 it pops the qualname loaded after the
 * code. */
static unpyc_status lower_make_function(norm *nm, uint32_t i) {
    if (nm->rules->function_qualname) {
        upy_nin *last = last_emitted(nm);
        if (last && last->op == N_LOAD_CONST && last->obj &&
            last->obj->kind == UPY_STR)
            nm->n--;
    }
    return norm_put(nm, N_MAKE_FUNCTION, at(nm, i)->arg, NULL, i);
}

/* 3.13's SET_FUNCTION_ATTRIBUTE: folded into the MAKE_FUNCTION before it,
 * as the flags of 3.12's oparg. */
static unpyc_status lower_set_function_attribute(norm *nm, uint32_t i) {
    upy_nin *last = last_emitted(nm);
    if (!last || last->op != N_MAKE_FUNCTION)
        return norm_unsupported(nm, i);
    last->arg |= at(nm, i)->arg;
    return UNPYC_OK;
}

static unpyc_status lower_intrinsic(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    switch (in->arg) {
    case UPY_INTRINSIC_UNARY_POSITIVE:
        return norm_put(nm, N_UNARY, UPY_UOP_POS, NULL, i);
    case UPY_INTRINSIC_LIST_TO_TUPLE:
        return norm_put(nm, N_LIST_TO_TUPLE, 0, NULL, i);
    case UPY_INTRINSIC_IMPORT_STAR:
    case UPY_INTRINSIC_PRINT:
        /* 3.12+ returns None from these, and pops it at once. */
        if (op_is(nm, i + 1, UPY_OP_POP_TOP) && !nm->is_target[i + 1])
            nm->skip[i + 1] = 1;
        return norm_put(
            nm, in->arg == UPY_INTRINSIC_PRINT ? N_PRINT_EXPR : N_IMPORT_STAR,
            0, NULL, i);
    case UPY_INTRINSIC_ASYNC_GEN_WRAP:
        return UNPYC_OK;
    default:
        return norm_put(nm, N_INTRINSIC, in->arg, NULL, i);
    }
}

/* FOR_ITER: 3.12+ exits through END_FOR (and 3.13's POP_TOP after it),
 * which only instrumentation executes: the exit target is after them. */
static unpyc_status lower_for_iter(norm *nm, uint32_t i) {
    int32_t t = norm_index_of_offset(nm, at(nm, i)->target);
    if (t >= 0 && op_is(nm, (uint32_t)t, UPY_OP_END_FOR)) {
        nm->skip[t] = 1;
        if (nm->rules->minor >= 13 &&
            op_is(nm, (uint32_t)t + 1, UPY_OP_POP_TOP))
            nm->skip[t + 1] = 1;
    }
    return norm_emit_jump(nm, N_FOR_ITER, 0, i, 0);
}

/* The header of an async for (GET_ANEXT and its await loop): its handler
 * is END_ASYNC_FOR, and the loop exit is the code after it. */
static unpyc_status lower_async_for_header(norm *nm, uint32_t i) {
    int32_t h = async_for_exit(nm, i);
    upy_nin *out;
    if (h < 0)
        return norm_unsupported(nm, i);
    nm->skip[h] = 1;
    out = norm_emit(nm, N_FOR_ITER, 0, NULL, i);
    if (!out)
        return norm_fail_memory(nm);
    out->flags |= N_ASYNC;
    nm->handler_of[nm->n - 1] = h;
    nm->target_off[nm->n - 1] = (uint32_t)h + 1 < nm->dec->count
                                    ? at(nm, (uint32_t)h + 1)->offset
                                    : at(nm, (uint32_t)h)->offset;
    return UNPYC_OK;
}

/* GET_AWAITABLE, GET_YIELD_FROM_ITER or GET_ANEXT and the await loop
 * after it (await_loop_end), as one N_AWAIT, N_YIELD_FROM or async for
 * header. */
static unpyc_status lower_await(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    int32_t end = await_loop_end(nm, i);
    upy_nin *out;
    uint32_t k;
    if (end < 0) {
        /* GET_YIELD_FROM_ITER before a `for` (yield from with a
         * generator) and other lone uses. */
        if (in->op == UPY_OP_GET_YIELD_FROM_ITER)
            return norm_put(nm, N_GET_ITER, 0, NULL, i);
        return norm_unsupported(nm, i);
    }
    for (k = i + 1; k <= (uint32_t)end; k++)
        nm->skip[k] = 1;
    if (in->op == UPY_OP_GET_ANEXT)
        return lower_async_for_header(nm, i);
    out = norm_emit(
        nm, in->op == UPY_OP_GET_YIELD_FROM_ITER ? N_YIELD_FROM : N_AWAIT,
        in->op == UPY_OP_GET_YIELD_FROM_ITER ? 0 : in->arg, NULL, i);
    if (!out)
        return norm_fail_memory(nm);
    out->throw_offset = await_cleanup_offset(nm, i, (uint32_t)end);
    return UNPYC_OK;
}

/* Lowers decoded instruction i (and, for idioms, those after it, which it
 * marks skipped): by lowerings[] where it makes at most one neutral
 * instruction whatever the code around it, else by the function of its
 * idiom. */
static unpyc_status lower_one(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    const lowering *lw = &lowerings[in->op];
    if (lw->kind != LOWER_OWN)
        return lower_by_table(nm, lw, i);
    switch (in->op) {
    case UPY_OP_NOP:
        return lower_nop(nm, i);
    case UPY_OP_TO_BOOL:
        return put_to_bool(nm, i);
    case UPY_OP_RETURN_GENERATOR:
        return lower_return_generator(nm, i);
    case UPY_OP_KW_NAMES:
        nm->kwnames = in->argobj;
        return UNPYC_OK;
    case UPY_OP_COPY:
        return lower_copy(nm, i);
    case UPY_OP_DUP_TOP:
    case UPY_OP_DUP_TOP_TWO:
        return put_rotation(nm, i);
    case UPY_OP_ROT_THREE:
        return lower_rotation(nm, i, 3);
    case UPY_OP_ROT_FOUR:
        return lower_rotation(nm, i, 4);
    case UPY_OP_ROT_N:
        return lower_rotation(nm, i, in->arg);
    case UPY_OP_LOAD_CONST:
        return lower_load_const(nm, i);
    case UPY_OP_RETURN_CONST:
        return lower_return_const(nm, i);
    case UPY_OP_RETURN_VALUE:
        return lower_return_value(nm, i);
    case UPY_OP_LOAD_FAST:
    case UPY_OP_LOAD_FAST_CHECK:
        return put_load_fast(nm, in->arg, in->argobj, i);
    case UPY_OP_LOAD_FAST_LOAD_FAST:
    case UPY_OP_STORE_FAST_LOAD_FAST:
    case UPY_OP_STORE_FAST_STORE_FAST:
        return lower_fast_pair(nm, i);
    case UPY_OP_LOAD_FROM_DICT_OR_DEREF:
    case UPY_OP_LOAD_FROM_DICT_OR_GLOBALS:
        return lower_load_from_dict(nm, i);
    case UPY_OP_LOAD_GLOBAL:
        return lower_load_global(nm, i);
    case UPY_OP_LOAD_ATTR:
        return lower_load_attr(nm, i);
    case UPY_OP_LOAD_SUPER_ATTR:
        return norm_put(nm, N_LOAD_SUPER_ATTR, in->arg & 3, in->argobj, i);
    case UPY_OP_BINARY_OP:
        return lower_binary_op(nm, i);
    case UPY_OP_COMPARE_OP:
        return lower_compare_op(nm, i);
    case UPY_OP_IS_OP:
        return norm_put(nm, N_COMPARE, in->arg ? UPY_CMP_IS_NOT : UPY_CMP_IS,
                        NULL, i);
    case UPY_OP_CONTAINS_OP:
        return norm_put(nm, N_COMPARE, in->arg ? UPY_CMP_NOT_IN : UPY_CMP_IN,
                        NULL, i);
    case UPY_OP_BUILD_LIST_UNPACK:
    case UPY_OP_BUILD_TUPLE_UNPACK:
    case UPY_OP_BUILD_TUPLE_UNPACK_WITH_CALL:
    case UPY_OP_BUILD_SET_UNPACK:
    case UPY_OP_BUILD_MAP_UNPACK:
    case UPY_OP_BUILD_MAP_UNPACK_WITH_CALL:
        return norm_lower_unpack(nm, i);
    case UPY_OP_FORMAT_VALUE:
        return lower_format_value(nm, i);
    case UPY_OP_CONVERT_VALUE:
        return norm_put(nm, N_CONVERT, conversions[in->arg & 3], NULL, i);
    case UPY_OP_CALL: {
        const upy_object *kw = nm->kwnames;
        nm->kwnames = NULL;
        return emit_call(nm, i, 2, kw);
    }
    case UPY_OP_CALL_KW:
        return emit_call(nm, i, 2, pop_kwnames_const(nm));
    case UPY_OP_CALL_FUNCTION:
        return emit_call(nm, i, 1, NULL);
    case UPY_OP_CALL_FUNCTION_KW:
        return emit_call(nm, i, 1, pop_kwnames_const(nm));
    case UPY_OP_CALL_METHOD:
        return emit_call(nm, i, 2, NULL);
    case UPY_OP_CALL_FUNCTION_EX:
        return lower_call_ex(nm, i);
    case UPY_OP_MAKE_FUNCTION:
        return lower_make_function(nm, i);
    case UPY_OP_SET_FUNCTION_ATTRIBUTE:
        return lower_set_function_attribute(nm, i);
    case UPY_OP_CALL_INTRINSIC_1:
        return lower_intrinsic(nm, i);
    case UPY_OP_CALL_INTRINSIC_2:
        return norm_put(nm, N_INTRINSIC, 100 + in->arg, NULL, i);
    case UPY_OP_FOR_ITER:
        return lower_for_iter(nm, i);
    case UPY_OP_GET_AWAITABLE:
    case UPY_OP_GET_YIELD_FROM_ITER:
    case UPY_OP_GET_ANEXT:
        return lower_await(nm, i);
    case UPY_OP_SETUP_FINALLY:
        if (skip_async_for_block(nm, i))
            return UNPYC_OK;
        return norm_emit_jump(nm, N_SETUP_FINALLY, 0, i, 0);
    case UPY_OP_SETUP_WITH:
        if (!norm_emit(nm, N_BEFORE_WITH, 0, NULL, i))
            return norm_fail_memory(nm);
        return norm_emit_jump(nm, N_SETUP_WITH, 0, i, 0);
    case UPY_OP_MATCH_CLASS:
        return norm_put_match_test(nm, N_MATCH_CLASS, i);
    case UPY_OP_MATCH_KEYS:
        return norm_put_match_test(nm, N_MATCH_KEYS, i);
    default:
        return norm_unsupported(nm, i);
    }
}

/* Turns decoded target offsets and exception-table entries into neutral
 * indexes. */
static unpyc_status resolve(norm *nm, upy_ncode *out) {
    uint32_t count = nm->dec->count, k;
    int32_t next = (int32_t)nm->n;
    int32_t i;

    /* An instruction that emitted nothing takes its successor's index. */
    for (i = (int32_t)count - 1; i >= 0; i--) {
        if (nm->first_of[i] == UNSET)
            nm->first_of[i] = next;
        else
            next = nm->first_of[i];
        if (nm->empty_body_of[i] != UNSET)
            next = nm->empty_body_of[i];
    }
    for (k = 0; k < nm->n; k++) {
        upy_nin *in = &nm->out[k];
        const upy_exc_entry *e;
        if (nm->target_off[k] >= 0) {
            int32_t t = norm_index_of_offset(nm, nm->target_off[k]);
            if (t < 0 || nm->first_of[t] >= (int32_t)nm->n)
                return upy_fail(nm->err, UNPYC_E_CORRUPT, (long long)in->offset,
                                "jump at offset %u leads past the last "
                                "instruction",
                                (unsigned)in->offset);
            in->target = nm->first_of[t];
        }
        e = norm_entry_of(nm, (uint32_t)nm->handler_of[k]);
        if (nm->empty_handler[k] != UNSET) {
            /* (The cleanup's entry covers the handler's entry.) */
            int32_t h = nm->empty_handler[k];
            e = norm_entry_of(nm, (uint32_t)h);
            if (e && e->depth >= 1 && nm->first_of[h] < (int32_t)nm->n) {
                in->handler = nm->first_of[h];
                in->handler_depth = (uint16_t)(e->depth - 1);
                in->handler_lasti = 0;
            }
        } else if (e) {
            int32_t h = norm_index_of_offset(nm, e->target);
            if (h >= 0 && !nm->dead[h] && nm->first_of[h] < (int32_t)nm->n) {
                in->handler = nm->first_of[h];
                in->handler_depth = (uint16_t)e->depth;
                in->handler_lasti = (uint8_t)e->lasti;
            }
        }
    }
    out->ins = nm->out;
    out->count = nm->n;
    out->layout = &nm->rules->layout;
    return UNPYC_OK;
}

/* upy_normalize with everything in arena, its working tables and the
 * neutral instructions alike (normalize.h). */
unpyc_status upy_normalize_in(const upy_decoded *dec, upy_version version,
                              upy_arena *arena, upy_ncode *out,
                              unpyc_error *err) {
    norm nm;
    upy_decoded joined; /* dec with copies joined (undo_duplicate_exits) */
    uint32_t i, count = dec->count;
    size_t k;
    unpyc_status st;

    memset(&nm, 0, sizeof nm);
    nm.dec = dec;
    nm.arena = arena;
    nm.err = err;
    out->code = dec->code;
    out->version = version;
    out->ins = NULL;
    out->count = 0;
    for (k = 0; k < sizeof rules_table / sizeof rules_table[0]; k++)
        if (version.major == 3 && rules_table[k].minor == version.minor)
            nm.rules = &rules_table[k];
    if (!nm.rules)
        return upy_fail(err, UNPYC_E_UNSUPPORTED, -1,
                        "no normalize rules for Python %d.%d", version.major,
                        version.minor);
    /* Most decoded instructions become one neutral one (a few two, and an
     * N_EMPTY_BODY may go before one): the arrays grow past this (grow_out)
     * instead of being sized for the worst case, three per instruction,
     * which made them a code object's biggest allocation. */
    nm.cap = count + count / 8 + 8;
    if (alloc_tables(&nm, count) || index_offsets(&nm))
        return norm_fail_memory(&nm);
    nm.entries_in_order = (uint8_t)entries_in_order(&dec->exceptions);
    if (index_entries(&nm))
        return norm_fail_memory(&nm);
    /* (Tens of thousands of operands of real code, each in a few dozen
     * tries.) */
    nm.operand_budget = (uint64_t)1 << 26;
    nm.has_patterns =
        (uint8_t)(nm.rules->rotates_captures && norm_has_pattern_code(&nm));

    norm_mark_targets(&nm);
    if ((st = norm_undo_duplicate_exits(&nm, &joined)) != UNPYC_OK)
        return st;
    if ((st = norm_undo_unlined_exit_copies(&nm, &joined)) != UNPYC_OK)
        return st;
    if ((st = norm_undo_named_clause_exit_copies(&nm, &joined)) != UNPYC_OK)
        return st;
    norm_undo_extended_with_exits(&nm);
    mark_dead_handlers(&nm);
    if ((st = mark_cell_slots(&nm)) != UNPYC_OK)
        return st;
    find_empty_tries(&nm);
    for (i = 0; i < count; i++) {
        if (nm.empty_try_at[i] != UNSET &&
            (st = put_empty_body(&nm, i)) != UNPYC_OK)
            return st;
        if (nm.skip[i] || nm.dead[i])
            continue;
        st = nm.jump_instead[i] != UNSET ? norm_put_jump_instead(&nm, i)
                                         : lower_one(&nm, i);
        if (st != UNPYC_OK)
            return st;
        /* (The NOPs before an empty try body are its own lines.) */
        if (nm.empty_try_at[i] != UNSET && nm.first_of[i] != UNSET) {
            nm.out[nm.first_of[i]].lead_nops = 0;
            nm.out[nm.first_of[i]].lead_nops_joined = 0;
        }
    }
    if (nm.kwnames)
        return upy_fail(err, UNPYC_E_CORRUPT, -1,
                        "KW_NAMES with no call after it");
    st = resolve(&nm, out);
    if (st == UNPYC_OK)
        st = upy_normalize_finally(out, arena, err);
    if (st == UNPYC_OK && nm.rules->loads_return_const_last)
        st = upy_normalize_const_returns(out, arena, err);
    if (st == UNPYC_OK)
        st = upy_normalize_blocks(out, arena, err);
    if (st == UNPYC_OK && nm.rules->keeps_unreached_code)
        st = upy_normalize_unreached_cleanups(out, arena, err);
    if (st == UNPYC_OK && nm.rules->threads_try_exits)
        st = upy_normalize_unthread(out, arena, err);
    if (st == UNPYC_OK && nm.rules->threads_loop_breaks)
        st = upy_normalize_unthread_breaks(out);
    if (st == UNPYC_OK && nm.rules->threads_statement_ends)
        st = upy_normalize_unthread_ends(out, arena, err);
    if (st == UNPYC_OK && nm.rules->tests_while_on_top)
        st = upy_normalize_while_tests(out, arena, err);
    if (st == UNPYC_OK && nm.rules->no_exit_copies)
        st = upy_normalize_exit_copies(out, arena, err);
    if (st == UNPYC_OK)
        st = upy_normalize_uncopy(out, arena, err);
    if (st == UNPYC_OK && nm.rules->copies_clause_ends_into_breaks)
        st = upy_normalize_clause_breaks(out, arena, err);
    if (st == UNPYC_OK && nm.rules->copies_try_ends_into_with_exits)
        st = upy_normalize_with_exits(out);
    if (st == UNPYC_OK && nm.rules->keeps_jumps_to_try_ends)
        st = upy_normalize_cold_try_ends(out, arena, err);
    if (st == UNPYC_OK && nm.rules->pushes_cold_blocks_to_end)
        st = upy_normalize_cold_blocks(out, arena, err);
    if (st == UNPYC_OK && nm.rules->asserts_load_global)
        st = upy_normalize_assert_global(out, arena, err);
    if (st != UNPYC_OK)
        return st;
    return upy_normalize_layout(out, arena, err);
}

unpyc_status upy_normalize_keep(upy_ncode *code, upy_arena *arena,
                                unpyc_error *err) {
    upy_nin *kept = upy_arena_array_uncleared(arena, code->count, sizeof *kept);
    if (!kept) {
        code->ins = NULL;
        code->count = 0;
        return upy_fail(err,
                        arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                        -1, "out of memory");
    }
    if (code->count)
        memcpy(kept, code->ins, code->count * sizeof *kept);
    code->ins = kept;
    return UNPYC_OK;
}

/* The working tables (per-instruction maps, the arrays grown past their
 * first guess, the layout's moves) are twice the size of the neutral
 * instructions that recovery reads: they live in an arena of their own,
 * released here, and the instructions are copied out to arena at their
 * final size. */
unpyc_status upy_normalize(const upy_decoded *dec, upy_version version,
                           upy_arena *arena, upy_ncode *out, unpyc_error *err) {
    upy_arena work;
    unpyc_status st;

    upy_arena_init_scratch(&work, arena);
    st = upy_normalize_in(dec, version, &work, out, err);
    if (st == UNPYC_OK)
        st = upy_normalize_keep(out, arena, err);
    if (st != UNPYC_OK) {
        out->ins = NULL;
        out->count = 0;
    }
    upy_arena_release(&work);
    return st;
}
