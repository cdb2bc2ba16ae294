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
 * 3.8's BUILD_*_UNPACK joins values the code before it pushed: its
 * operands are found by their stack effects among the neutral
 * instructions already emitted, and the container 3.9+ build first is put
 * in before them (lower_unpack).
 *
 * Jump targets and handlers are resolved at the end, through a map from
 * each decoded instruction to the first neutral instruction at or after it.
 * What differs between versions in the meaning of an oparg lives in the
 * rules table.
 */
#include "normalize/normalize.h"

#include <string.h>

#include "util/error.h"
#include "util/names.h"

typedef struct norm_rules {
    uint8_t minor;
    /* 3.11+: LOAD_GLOBAL's oparg & 1 pushes a NULL; 3.13 pushes it after
     * the global, 3.11 and 3.12 before. */
    uint8_t global_null;
    uint8_t null_after;
    /* 3.12+: LOAD_ATTR's oparg & 1 makes it a method load. */
    uint8_t attr_method_bit;
    /* COMPARE_OP: cmp_op index = oparg >> compare_shift. */
    uint8_t compare_shift;
    /* Callable slots of CALL_FUNCTION and CALL_FUNCTION_EX: 1 before
     * 3.11, 2 from 3.11 on (NULL or self beside the callable). */
    uint8_t call_slots;
    /* Before 3.11 MAKE_FUNCTION pops a qualname pushed after the code. */
    uint8_t function_qualname;
    /* 3.8 passes the one mapping of a call's `**` to CALL_FUNCTION_EX as
     * it is (compile.c compiler_call_helper joins two or more with
     * BUILD_MAP_UNPACK_WITH_CALL); 3.9+ merge it into a new dict first,
     * as they do every `**` (wrap_kwargs). */
    uint8_t passes_lone_kwargs;
    /* 3.12+ has no backward conditional jumps. */
    uint8_t no_backward_cond;
    /* 3.12+ fuses a constant's load with the return after it in one basic
     * block (RETURN_CONST), before it copies returns into the jumps to
     * them. */
    uint8_t fuses_const_return;
    /* 3.8-3.9 have no duplicate_exits_without_lineno (3.10 compile.c): the
     * return after a finally body's copy stays one block (exits.c; 3.8's
     * copies are finally.c's, made as 3.9 makes them). */
    uint8_t no_exit_copies;
    /* 3.8-3.9's peephole.c threads a try's jumps to its end through the
     * jump there, which it leaves unreachable (unthread.c). */
    uint8_t threads_try_exits;
    /* 3.10 copies an exit block that starts with POP_BLOCK (no line: the
     * end of a try body before its finally, of a with body before its
     * __exit__ call) into each jump to it (undo_duplicate_exits). */
    uint8_t copies_pop_block_exits;
    /* 3.10's MATCH_CLASS and MATCH_KEYS push a bool above their result,
     * which POP_JUMP_IF_FALSE tests; 3.11+ test the result itself against
     * None (compile.c compiler_pattern_class: COPY 1; POP_JUMP_IF_NONE). */
    uint8_t match_pushes_bool;
    /* 3.10's compile.c pattern_helper_store_name moves each capture under
     * what the pattern still keeps with ROT_N, which the assembler spells
     * ROT_TWO / ROT_THREE / ROT_FOUR up to 4 (3.11's pattern_helper_rotate:
     * SWAP n, ..., SWAP 2). */
    uint8_t rotates_captures;
    upy_layout layout;
} norm_rules;

/* Fields left out are 0. */
static const norm_rules rules_table[] = {
    {.minor = 8,
     .call_slots = 1,
     .function_qualname = 1,
     .passes_lone_kwargs = 1,
     .no_exit_copies = 1,
     .threads_try_exits = 1,
     .layout = {.while_test_on_top = 1,
                .keeps_jump_after_exit = 1,
                .merges_lambdas_on_a_line = 1,
                .else_after_handlers = 1}},
    {.minor = 9,
     .call_slots = 1,
     .function_qualname = 1,
     .no_exit_copies = 1,
     .threads_try_exits = 1,
     .layout = {.while_test_on_top = 1,
                .keeps_jump_after_exit = 1,
                .merges_lambdas_on_a_line = 1,
                .else_after_handlers = 1}},
    {.minor = 10,
     .call_slots = 1,
     .function_qualname = 1,
     .copies_pop_block_exits = 1,
     .match_pushes_bool = 1,
     .rotates_captures = 1,
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

/* The binary opcodes of 3.8-3.10, by operator. */
typedef struct binary_name {
    uint16_t op;
    uint8_t binop;
    uint8_t inplace;
} binary_name;

static const binary_name binary_names[] = {
    {UPY_OP_BINARY_ADD, UPY_BIN_ADD, 0},
    {UPY_OP_BINARY_AND, UPY_BIN_AND, 0},
    {UPY_OP_BINARY_FLOOR_DIVIDE, UPY_BIN_FLOORDIV, 0},
    {UPY_OP_BINARY_LSHIFT, UPY_BIN_LSHIFT, 0},
    {UPY_OP_BINARY_MATRIX_MULTIPLY, UPY_BIN_MATMUL, 0},
    {UPY_OP_BINARY_MULTIPLY, UPY_BIN_MUL, 0},
    {UPY_OP_BINARY_MODULO, UPY_BIN_MOD, 0},
    {UPY_OP_BINARY_OR, UPY_BIN_OR, 0},
    {UPY_OP_BINARY_POWER, UPY_BIN_POW, 0},
    {UPY_OP_BINARY_RSHIFT, UPY_BIN_RSHIFT, 0},
    {UPY_OP_BINARY_SUBTRACT, UPY_BIN_SUB, 0},
    {UPY_OP_BINARY_TRUE_DIVIDE, UPY_BIN_TRUEDIV, 0},
    {UPY_OP_BINARY_XOR, UPY_BIN_XOR, 0},
    {UPY_OP_INPLACE_ADD, UPY_BIN_ADD, 1},
    {UPY_OP_INPLACE_AND, UPY_BIN_AND, 1},
    {UPY_OP_INPLACE_FLOOR_DIVIDE, UPY_BIN_FLOORDIV, 1},
    {UPY_OP_INPLACE_LSHIFT, UPY_BIN_LSHIFT, 1},
    {UPY_OP_INPLACE_MATRIX_MULTIPLY, UPY_BIN_MATMUL, 1},
    {UPY_OP_INPLACE_MULTIPLY, UPY_BIN_MUL, 1},
    {UPY_OP_INPLACE_MODULO, UPY_BIN_MOD, 1},
    {UPY_OP_INPLACE_OR, UPY_BIN_OR, 1},
    {UPY_OP_INPLACE_POWER, UPY_BIN_POW, 1},
    {UPY_OP_INPLACE_RSHIFT, UPY_BIN_RSHIFT, 1},
    {UPY_OP_INPLACE_SUBTRACT, UPY_BIN_SUB, 1},
    {UPY_OP_INPLACE_TRUE_DIVIDE, UPY_BIN_TRUEDIV, 1},
    {UPY_OP_INPLACE_XOR, UPY_BIN_XOR, 1},
};

/* BINARY_OP's oparg: NB_ADD.. NB_XOR, then the in-place forms. */
#define NB_INPLACE_OFFSET 13

#define UNSET (-1)

/* compile.c MAX_COPY_SIZE (3.10): extend_block copies at most this many
 * instructions. */
#define MAX_COPY_SIZE 4

typedef struct norm {
    const upy_decoded *dec;
    const norm_rules *rules;
    upy_arena *arena;
    unpyc_error *err;
    upy_nin *out;
    uint32_t n, cap;
    /* Per decoded instruction. */
    int32_t *first_of;       /* first neutral instruction at or after it */
    uint8_t *is_target;      /* jump target or handler start */
    uint8_t *jumped_on_line; /* a jump of its own line goes to it */
    uint8_t *skip;           /* consumed by an idiom, emits nothing itself */
    uint8_t *dead;           /* handler code no source statement makes */
    /* The PUSH_EXC_INFO of the handler of an empty try body that goes
     * right before it, UNSET when none (find_empty_tries). */
    int32_t *empty_try_at;
    int32_t *empty_body_of; /* the N_EMPTY_BODY put before it, or UNSET */
    int32_t *jumps_to;      /* how many jumps go to it */
    /* A copy's first instruction: the first one of the block it copies
     * (undo_duplicate_exits); UNSET. */
    int32_t *copy_of;
    /* The first instruction of a copy that becomes a jump to the block it
     * copies: that block's (undo_extended_with_exits); UNSET. */
    int32_t *jump_instead;
    /* Instructions the whole-code scans for empty tries and pass blocks
     * may still visit: each such NOP or handler costs a scan of the code,
     * and crafted code of many would cost quadratic time. */
    uint64_t scan_budget;
    /* Per neutral instruction. */
    int32_t *src;              /* decoded instruction it came from */
    int32_t *handler_of;       /* decoded instruction whose handler it takes */
    int64_t *target_off;       /* jump target byte offset, or -1 */
    int32_t *empty_handler;    /* N_EMPTY_BODY: its handler's PUSH_EXC_INFO */
    const upy_object *kwnames; /* pending 3.11/3.12 KW_NAMES */
    /* 3.11+, per local slot: a fast load of it loads its cell (see
     * put_load_fast); NULL when no slot is such. */
    uint8_t *loads_cell;
    /* The exception table's entries are in order and apart, as CPython
     * writes them: entry_at() can search them by halves. */
    uint8_t entries_in_order;
    /* operand_start's stack depths, per neutral instruction of the range
     * it tries, and the instructions its tries may still visit (each try
     * walks its range: crafted code of many long operands would cost
     * quadratic time). */
    int32_t *operand_depth;
    size_t operand_cap;
    uint64_t operand_budget;
    /* The code has pattern code (a match statement's MATCH_* or ROT_N):
     * its ROT_THREE / ROT_FOUR may be a capture's rotation. */
    uint8_t has_patterns;
} norm;

static unpyc_status fail_memory(norm *nm) {
    return upy_fail(
        nm->err, nm->arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM, -1,
        "no memory to normalize %u instructions", (unsigned)nm->dec->count);
}

static const upy_instr *at(const norm *nm, uint32_t i) {
    return &nm->dec->instrs[i];
}

static int op_is(const norm *nm, uint32_t i, uint16_t op) {
    return i < nm->dec->count && nm->dec->instrs[i].op == op;
}

/* The decoded instruction at byte offset `offset`, or -1. */
static int32_t index_of_offset(const norm *nm, int64_t offset) {
    uint32_t lo = 0, hi = nm->dec->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nm->dec->instrs[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < nm->dec->count && nm->dec->instrs[lo].offset == offset)
        return (int32_t)lo;
    return -1;
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
 * first one, for a table out of order.  Every instruction asks, so an
 * ordered table is searched by halves (a function of thousands of tries
 * has thousands of entries). */
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
            handler = entry_at(nm, at(nm, i)->offset);
            handler_found = 1;
        }
        if (op_is(nm, k, UPY_OP_NOP) &&
            entry_at(nm, at(nm, k)->offset) == handler) {
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
static int ends_without_fall(const norm *nm, uint32_t i) {
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
 * back itself.) */
static int is_pass_block(norm *nm, uint32_t i) {
    uint32_t first = i, j = i + 1, before;
    const upy_exc_entry *handler = entry_at(nm, at(nm, i)->offset);
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
           before > 0 && ends_without_fall(nm, before - 1) &&
           !jumped_back_into(nm, first, j) &&
           joined_from_before(nm, first, j) &&
           encloses(nm, entry_at(nm, at(nm, j)->offset), handler) &&
           entry_at(nm, at(nm, first)->offset) == handler &&
           entry_at(nm, at(nm, j - 1)->offset) == handler;
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
    if (p + 1 >= nm->dec->count || nm->scan_budget < nm->dec->count)
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
    int32_t t = index_of_offset(nm, in->target);
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

/* Appends a neutral instruction made from decoded instruction i. */
/* Doubles the capacity of the arrays emit() fills (the old copies are
 * left to the code object's scratch arena).  -1 when out of memory. */
static int grow_out(norm *nm) {
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
 * instructions, which emit() writes before it counts each (not cleared;
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

static upy_nin *emit(norm *nm, upy_nop op, int32_t arg, const upy_object *obj,
                     uint32_t i) {
    upy_nin *in;
    if (nm->n == nm->cap && grow_out(nm))
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

/* emit() for the common case where the instruction needs no more fields. */
static unpyc_status put(norm *nm, upy_nop op, int32_t arg,
                        const upy_object *obj, uint32_t i) {
    return emit(nm, op, arg, obj, i) ? UNPYC_OK : fail_memory(nm);
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
    if (!emit(nm, N_UNARY, UPY_UOP_NOT, NULL, i) ||
        !emit(nm, N_UNARY, UPY_UOP_NOT, NULL, i))
        return fail_memory(nm);
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
        return put(nm, N_LOAD_CLOSURE, 0, name, i);
    return put(nm, N_LOAD, UPY_SCOPE_FAST, name, i);
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
        return fail_memory(nm);
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
    end = index_of_offset(nm, send->target);
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
    e = i < end ? entry_at(nm, at(nm, i)->offset) : NULL;
    t = e ? index_of_offset(nm, e->target) : -1;
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
                index_of_offset(nm, at(nm, j)->target) >= 0 &&
                op_is(nm, (uint32_t)index_of_offset(nm, at(nm, j)->target),
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
    for (p = 0; p < nm->dec->count; p++) {
        const upy_exc_entry *cleanup;
        int32_t a;
        if (!op_is(nm, p, UPY_OP_PUSH_EXC_INFO) || nm->is_target[p])
            continue;
        cleanup = entry_at(nm, at(nm, p)->offset);
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
    upy_nin *in = emit(nm, N_EMPTY_BODY, 0, NULL, i);
    if (!in)
        return fail_memory(nm);
    nm->empty_handler[nm->n - 1] = nm->empty_try_at[i];
    nm->empty_body_of[i] = (int32_t)nm->n - 1;
    nm->first_of[i] = first;
    return UNPYC_OK;
}

static void mark_targets(norm *nm) {
    uint32_t i;
    for (i = 0; i < nm->dec->count; i++) {
        int32_t t = at(nm, i)->target >= 0
                        ? index_of_offset(nm, at(nm, i)->target)
                        : -1;
        if (t < 0)
            continue;
        nm->is_target[t] = 1;
        nm->jumps_to[t]++;
        if (at(nm, i)->line >= 0 && at(nm, i)->line == at(nm, t)->line)
            nm->jumped_on_line[t] = 1;
    }
    for (i = 0; i < nm->dec->exceptions.count; i++) {
        int32_t t = index_of_offset(nm, nm->dec->exceptions.entries[i].target);
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
static int32_t with_exit_call(const norm *nm, uint32_t i) {
    uint32_t k;
    if (!at(nm, i)->argobj || at(nm, i)->argobj->kind != UPY_NONE)
        return -1;
    for (k = i + 1; k <= i + 3; k++)
        if (nm->is_target[k] ||
            !op_is(nm, k, k < i + 3 ? UPY_OP_DUP_TOP : UPY_OP_CALL_FUNCTION))
            return -1;
    return at(nm, i + 3)->arg == 3 ? (int32_t)i + 3 : -1;
}

/* The end (one past its return or raise) of the exit block starting at
 * decoded instruction s: straight code that nothing jumps into, or 0. */
static uint32_t exit_block_end(const norm *nm, uint32_t s) {
    uint32_t k;
    for (k = s; k < nm->dec->count; k++) {
        if ((k > s && nm->is_target[k]) || at(nm, k)->target >= 0)
            return 0;
        if (op_is(nm, k, UPY_OP_RETURN_VALUE) || op_is(nm, k, UPY_OP_RERAISE) ||
            op_is(nm, k, UPY_OP_RAISE_VARARGS))
            return k + 1;
    }
    return 0;
}

/* Whether the n decoded instructions from c do what those from s do, on
 * the same lines but for the first: a copy keeps the lines of its block,
 * and its first instruction takes the line of the jump to it. */
static int same_code(const norm *nm, uint32_t s, uint32_t c, uint32_t n) {
    uint32_t k;
    if (c + n > nm->dec->count)
        return 0;
    for (k = 0; k < n; k++)
        if (at(nm, s + k)->op != at(nm, c + k)->op ||
            at(nm, s + k)->arg != at(nm, c + k)->arg ||
            (k > 0 && at(nm, s + k)->line != at(nm, c + k)->line))
            return 0;
    return 1;
}

/* Whether the exit block [i, end) that starts with a POP_BLOCK ends a
 * finally's or a with's body and holds code 3.11 gives a line (compile.c),
 * so does not copy: a with's __exit__ call, a finally body, a return
 * written after the try (3.10 inlines it, extend_block).  The end of an
 * `except ... as e` body (POP_BLOCK; POP_EXCEPT; e = None; del e) stays
 * copied: recovery reads the copies of a return after the try inlined
 * there as that return (`except E as e: if c: f()` then `return None`
 * reads as `return` in the handler once they are one block). */
static int has_lined_code(const norm *nm, uint32_t i, uint32_t end) {
    uint32_t k;
    if (op_is(nm, i + 1, UPY_OP_POP_EXCEPT))
        return 0;
    if (op_is(nm, i + 1, UPY_OP_LOAD_CONST) && with_exit_call(nm, i + 1) >= 0)
        return 1;
    for (k = i + 1; k < end; k++)
        if (at(nm, k)->line != at(nm, i)->line)
            return 1;
    return 0;
}

/* The decoded instructions again in *joined, with each jump to a copy
 * (copy_of) aimed at the block it copies, which nm reads from now on; the
 * jump targets are marked anew. */
static unpyc_status retarget_copies(norm *nm, upy_decoded *joined) {
    uint32_t k, count = nm->dec->count;
    upy_instr *ins = upy_arena_array_uncleared(nm->arena, count, sizeof *ins);
    if (!ins)
        return fail_memory(nm);
    memcpy(ins, nm->dec->instrs, count * sizeof *ins);
    for (k = 0; k < count; k++) {
        int32_t t =
            ins[k].target >= 0 ? index_of_offset(nm, ins[k].target) : -1;
        if (t >= 0 && nm->copy_of[t] != UNSET)
            ins[k].target = ins[nm->copy_of[t]].offset;
    }
    *joined = *nm->dec;
    joined->instrs = ins;
    nm->dec = joined;
    memset(nm->is_target, 0, count + 1);
    memset(nm->jumped_on_line, 0, count + 1);
    mark_targets(nm);
    return UNPYC_OK;
}

/* Undoes 3.10's compile.c duplicate_exits_without_lineno: an exit block
 * whose first instruction has no line, as the POP_BLOCK that ends a try
 * body before the copy of its finally body, is copied into each jump to
 * it, the copies laid out right after the block.  Worked example:
 *
 *     try:                          2 SETUP_FINALLY
 *         if a or (b and c):        4 POP_JUMP_IF_TRUE 14; LOAD_FAST b
 *             g()                     POP_JUMP_IF_FALSE 36; ...
 *     finally:                     14 g(); POP_BLOCK; close(); RETURN
 *         close()                  36 POP_BLOCK; close(); RETURN
 *                                  50 POP_BLOCK; close(); RETURN
 *
 * Recovery would read each copy as the end of a branch (here `if not a:
 * if b: if c: pass`, g() lost).  Jumps to a copy go to the block again,
 * as in 3.11, where the finally body's line keeps the block from being
 * copied; the copies emit nothing.  Blocks 3.11 copies too (no
 * has_lined_code) stay copies: recovery reads those as 3.11's. */
static unpyc_status undo_duplicate_exits(norm *nm, upy_decoded *joined) {
    uint32_t i, end, n, c, copies = 0;
    if (!nm->rules->copies_pop_block_exits)
        return UNPYC_OK;
    for (i = 0; i < nm->dec->count; i++) {
        if (!op_is(nm, i, UPY_OP_POP_BLOCK) || !(end = exit_block_end(nm, i)) ||
            !has_lined_code(nm, i, end))
            continue;
        n = end - i;
        for (c = end; op_is(nm, c, UPY_OP_POP_BLOCK) && nm->is_target[c] &&
                      exit_block_end(nm, c) == c + n &&
                      same_code(nm, i, c, n) && has_lined_code(nm, c, c + n);
             c += n, copies++) {
            memset(&nm->skip[c], 1, n);
            nm->copy_of[c] = (int32_t)i;
        }
        i = c - 1;
    }
    return copies ? retarget_copies(nm, joined) : UNPYC_OK;
}

/* The instruction after the way on of a with's handler that starts at
 * decoded instruction h, where an exception __exit__ swallowed goes on
 * after the with (3.9-3.10 compile.c compiler_with_except_finish):
 * WITH_EXCEPT_START; POP_JUMP_IF_TRUE t; RERAISE; t: POP_TOP x3;
 * POP_EXCEPT; POP_TOP.  0 when the code is not so. */
static uint32_t with_swallow_end(const norm *nm, uint32_t h) {
    static const uint16_t way_on[] = {UPY_OP_POP_TOP, UPY_OP_POP_TOP,
                                      UPY_OP_POP_TOP, UPY_OP_POP_EXCEPT,
                                      UPY_OP_POP_TOP};
    uint32_t t = h + 3, k;
    if (t >= nm->dec->count || !op_is(nm, h, UPY_OP_WITH_EXCEPT_START) ||
        !op_is(nm, h + 1, UPY_OP_POP_JUMP_IF_TRUE) ||
        at(nm, h + 1)->target != (int64_t)at(nm, t)->offset ||
        !op_is(nm, h + 2, UPY_OP_RERAISE))
        return 0;
    for (k = 0; k < sizeof way_on / sizeof way_on[0]; k++)
        if (!op_is(nm, t + k, way_on[k]) || (k > 0 && nm->is_target[t + k]))
            return 0;
    return t + k;
}

/* Whether decoded instructions [x, end) leave a block (POP_BLOCK,
 * POP_EXCEPT): a return in a try body or handler, not after it.  The
 * copy of `return True` after a with in a try body starts with the try's
 * POP_BLOCK, and read as a jump it would go to the try's else part. */
static int leaves_a_block(const norm *nm, uint32_t x, uint32_t end) {
    uint32_t k;
    for (k = x; k < end; k++)
        if (op_is(nm, k, UPY_OP_POP_BLOCK) || op_is(nm, k, UPY_OP_POP_EXCEPT))
            return 1;
    return 0;
}

/* Undoes 3.10's compile.c extend_block where it copied the small exit
 * block after a with (a return) into the with's normal way out, after
 * the __exit__ call: the way on of the with's handler falls into the
 * block itself.  Worked example:
 *
 *     if c:                 0 POP_JUMP_IF_FALSE 48
 *         with lock:          SETUP_WITH 32; ... POP_BLOCK
 *             make()       18 __exit__(None, None, None); POP_TOP
 *     return c             28 LOAD_FAST c; RETURN_VALUE     (the copy)
 *                          32 WITH_EXCEPT_START ... POP_EXCEPT; POP_TOP
 *                          48 LOAD_FAST c; RETURN_VALUE
 *
 * Read so, the with ends the if body with `return c`, and the block at
 * 48, which the if's jump and the swallowed exception reach, belongs to
 * no statement ("could not recover").  The copy becomes a jump to the
 * block, as 3.11 lays the with out (it copies no written return). */
static void undo_extended_with_exits(norm *nm) {
    uint32_t i, x, end, h, y;
    int32_t call;
    if (!nm->rules->copies_pop_block_exits)
        return;
    for (i = 0; i + 1 < nm->dec->count; i++) {
        if (!op_is(nm, i, UPY_OP_POP_BLOCK) ||
            !op_is(nm, i + 1, UPY_OP_LOAD_CONST) ||
            (call = with_exit_call(nm, i + 1)) < 0 ||
            !op_is(nm, (uint32_t)call + 1, UPY_OP_POP_TOP))
            continue;
        x = (uint32_t)call + 2;
        if (x >= nm->dec->count || nm->is_target[x] ||
            !(end = exit_block_end(nm, x)) || end - x > MAX_COPY_SIZE ||
            leaves_a_block(nm, x, end))
            continue;
        /* (Copies of the with's way out that undo_duplicate_exits joined
         * come before its handler.) */
        for (h = end; h < nm->dec->count && nm->skip[h]; h++)
            ;
        if (!(y = with_swallow_end(nm, h)) ||
            exit_block_end(nm, y) != y + (end - x) ||
            !same_code(nm, x, y, end - x) || at(nm, x)->line != at(nm, y)->line)
            continue;
        nm->jump_instead[x] = (int32_t)y;
        memset(&nm->skip[x + 1], 1, end - x - 1);
    }
}

/* The jump undo_extended_with_exits puts for the copy at decoded
 * instruction i. */
static unpyc_status put_jump_instead(norm *nm, uint32_t i) {
    upy_nin *in = emit(nm, N_JUMP, 0, NULL, i);
    if (!in)
        return fail_memory(nm);
    nm->target_off[nm->n - 1] = at(nm, (uint32_t)nm->jump_instead[i])->offset;
    return UNPYC_OK;
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
    const upy_exc_entry *e = entry_at(nm, at(nm, i)->offset);
    int32_t h = e ? index_of_offset(nm, e->target) : -1;
    if (!e && i > 0 && op_is(nm, i - 1, UPY_OP_SETUP_FINALLY))
        h = index_of_offset(nm, at(nm, i - 1)->target);
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

static unpyc_status unsupported(norm *nm, uint32_t i) {
    return upy_fail(nm->err, UNPYC_E_UNSUPPORTED, (long long)at(nm, i)->offset,
                    "%s at offset %u is not supported by the decompiler yet",
                    upy_op_names[at(nm, i)->op], (unsigned)at(nm, i)->offset);
}

static unpyc_status emit_call(norm *nm, uint32_t i, int slots,
                              const upy_object *kwnames) {
    upy_nin *in = emit(nm, N_CALL, at(nm, i)->arg, kwnames, i);
    if (!in)
        return fail_memory(nm);
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
    if (entry_at(nm, at(nm, j)->offset))
        return -1;
    if (j + 1 < nm->dec->count ? in->target != at(nm, j + 1)->offset
                               : in->target <= at(nm, j)->offset)
        return -1;
    return (int32_t)j;
}

static unpyc_status emit_jump(norm *nm, upy_nop op, int32_t arg, uint32_t i,
                              uint16_t flags) {
    upy_nin *in = emit(nm, op, arg, NULL, i);
    if (!in)
        return fail_memory(nm);
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
        return emit_jump(nm, N_POP_JUMP_IF, cond, i, 0);
    nm->skip[back] = 1;
    if (!emit(nm, N_POP_JUMP_IF, inverse[cond], NULL, i))
        return fail_memory(nm);
    nm->target_off[nm->n - 1] = at(nm, (uint32_t)back)->target;
    return UNPYC_OK;
}

static const binary_name *binary_name_of(uint16_t op) {
    size_t k;
    for (k = 0; k < sizeof binary_names / sizeof binary_names[0]; k++)
        if (binary_names[k].op == op)
            return &binary_names[k];
    return NULL;
}

/* Whether decoded instruction i + 1 is `op` and no jump goes to it: the
 * two make one idiom. */
static int followed_by(norm *nm, uint32_t i, uint16_t op) {
    return op_is(nm, i + 1, op) && !nm->is_target[i + 1];
}

/* Whether the code has pattern code: a match statement's MATCH_* or the
 * ROT_N only its captures use (asked where rules.rotates_captures). */
static int has_pattern_code(const norm *nm) {
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
static int is_capture_rotation(const norm *nm, uint32_t i) {
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
static unpyc_status put_capture_rotation(norm *nm, int32_t n, uint32_t i) {
    /* (A rotation deeper than the code's stack is no compiler's: crafted
     * code of many would make n SWAPs of each.) */
    if (n > nm->dec->code->stacksize)
        return unsupported(nm, i);
    for (; n > 1; n--)
        if (!emit(nm, N_SWAP, n, NULL, i))
            return fail_memory(nm);
    return UNPYC_OK;
}

/* MATCH_CLASS or MATCH_KEYS at decoded instruction i.  3.10 tests the bool
 * they push above the result with the POP_JUMP_IF_FALSE after them
 * (rules.match_pushes_bool): lowered to the test of the result 3.11 writes,
 * COPY 1; POP_JUMP_IF_NONE, to the same place. */
static unpyc_status put_match_test(norm *nm, upy_nop op, uint32_t i) {
    unpyc_status st =
        put(nm, op, op == N_MATCH_CLASS ? at(nm, i)->arg : 0, NULL, i);
    if (st != UNPYC_OK || !nm->rules->match_pushes_bool)
        return st;
    if (!op_is(nm, i + 1, UPY_OP_POP_JUMP_IF_FALSE) || nm->is_target[i + 1])
        return unsupported(nm, i);
    nm->skip[i + 1] = 1;
    if ((st = put(nm, N_COPY, 1, NULL, i + 1)) != UNPYC_OK)
        return st;
    return emit_jump(nm, N_POP_JUMP_IF, UPY_JUMP_NONE, i + 1, 0);
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
            is_capture_rotation(nm, i + 1))
            return put(nm, N_COPY, 1, NULL, i);
        nm->skip[i + 1] = 1;
        first = N_SWAP;
        break;
    case UPY_OP_ROT_THREE:
        if (followed_by(nm, i, UPY_OP_ROT_TWO)) {
            nm->skip[i + 1] = 1;
            return put(nm, N_SWAP, 3, NULL, i);
        }
        first = second = N_SWAP;
        first_arg = 3;
        break;
    default: /* DUP_TOP_TWO */
        break;
    }
    if (!emit(nm, first, first_arg, NULL, i) ||
        !emit(nm, second, second_arg, NULL, i))
        return fail_memory(nm);
    return UNPYC_OK;
}

/* The neutral instruction the jump of neutral instruction k, emitted
 * before decoded instruction `cur` was lowered, goes to: nm->n for cur
 * itself (or code after it), -1 for no jump. */
static int32_t emitted_target(const norm *nm, uint32_t k, uint32_t cur) {
    int32_t t;
    if (nm->target_off[k] < 0)
        return -1;
    t = index_of_offset(nm, nm->target_off[k]);
    if (t < 0)
        return -1;
    while ((uint32_t)t < cur && nm->first_of[t] == UNSET)
        t++;
    return (uint32_t)t >= cur ? (int32_t)nm->n : nm->first_of[t];
}

/* How many jumps go to neutral instruction t (decoded instruction cur's
 * code for nm->n): those to its decoded instruction, where t is the first
 * neutral instruction of it, and to the decoded ones right before that
 * made none (a jump past 255 code units lands on its target's
 * EXTENDED_ARG).  UINT32_MAX, which no count of jumps matches, after
 * more than a few of those. */
static uint32_t jumps_to_neutral(const norm *nm, uint32_t t, uint32_t cur) {
    uint32_t d = t == nm->n ? cur : (uint32_t)nm->src[t], n, steps = 0;
    if (t < nm->n && nm->first_of[d] != (int32_t)t)
        return 0;
    n = (uint32_t)nm->jumps_to[d];
    while (d > 0 && (nm->first_of[d - 1] == UNSET ||
                     (t < nm->n && nm->first_of[d - 1] == (int32_t)t))) {
        if (++steps > 64)
            return UINT32_MAX;
        n += (uint32_t)nm->jumps_to[--d];
    }
    return n;
}

/* Sets the depth of the way into the instruction at offset `rel` of the
 * range: 0 where it goes below the range's entry or disagrees with
 * another way in. */
static int meet_depth(int32_t *depth, uint32_t rel, int32_t d) {
    if (d < 0 || (depth[rel] != UNSET && depth[rel] != d))
        return 0;
    depth[rel] = d;
    return 1;
}

/* Whether the neutral instructions [s, e), entered at s with nothing on
 * the stack, leave exactly one value at e: each is reached from s (no
 * jump from before s goes into the range) or from nowhere, none takes
 * more than the range pushed, every jump goes on to (s, e], and the ways
 * to each instruction agree on the depth.  `cur` is the decoded instruction
 * being lowered, whose code starts at e. */
static int pushes_one(norm *nm, uint32_t s, uint32_t e, uint32_t cur) {
    int32_t *depth = nm->operand_depth;
    uint32_t k;
    uint64_t jumps_in = 0, jumps_taken = 0;
    for (k = s; k <= e; k++)
        depth[k - s] = UNSET;
    depth[0] = 0;
    for (k = s; k < e; k++) {
        const upy_nin *in = &nm->out[k];
        int32_t d = depth[k - s], t = emitted_target(nm, k, cur);
        /* (Code no way reaches is left in place by 3.8-3.9: the else
         * value of `x if (1, 2) else y`, after the jump over it.) */
        if (d == UNSET && k > s && jumps_to_neutral(nm, k, cur) == 0 &&
            (depth[k - 1 - s] == UNSET ||
             !upy_nin_falls_through(&nm->out[k - 1])))
            continue;
        if (d == UNSET)
            return 0;
        if ((in->op == N_COPY || in->op == N_SWAP) && d < in->arg)
            return 0;
        if (k > s)
            jumps_in += jumps_to_neutral(nm, k, cur);
        if (nm->target_off[k] >= 0 &&
            (t <= (int32_t)s || t > (int32_t)e ||
             !meet_depth(depth, (uint32_t)t - s,
                         d + upy_nin_stack_effect(in, 1))))
            return 0;
        jumps_taken += nm->target_off[k] >= 0;
        if (upy_nin_falls_through(in) &&
            !meet_depth(depth, k + 1 - s, d + upy_nin_stack_effect(in, 0)))
            return 0;
    }
    return depth[e - s] == 1 &&
           jumps_taken == jumps_in + jumps_to_neutral(nm, e, cur);
}

/* The first neutral instruction of the expression whose code ends right
 * before neutral instruction e (decoded instruction cur's, or the next
 * operand's): the nearest start from which [start, e) pushes one value
 * (pushes_one).  In the code of an expression every part before its
 * end leaves something on the stack for what follows, or jumps past it
 * (an and / or, a conditional expression), so no later start does.  -1
 * when none is found within the budget. */
static int32_t operand_start(norm *nm, uint32_t e, uint32_t cur) {
    uint32_t s;
    /* (Room for the longest range it may try, [0, e], and some for the
     * operands of later instructions.) */
    if ((size_t)e + 1 > nm->operand_cap) {
        size_t cap = (size_t)e + 1 + e / 2;
        int32_t *depth =
            upy_arena_array_uncleared(nm->arena, cap, sizeof *depth);
        if (!depth)
            return -1;
        nm->operand_depth = depth;
        nm->operand_cap = cap;
    }
    for (s = e; s-- > 0;) {
        if (nm->operand_budget < e - s)
            return -1;
        nm->operand_budget -= e - s;
        if (pushes_one(nm, s, e, cur))
            return (int32_t)s;
    }
    return -1;
}

/* Puts neutral instruction op(arg) at neutral index p, before what was
 * there (code of decoded instruction cur or before it): jumps to that
 * code go to it first, and it takes the marks of a statement's start. */
static unpyc_status insert_before(norm *nm, uint32_t p, upy_nop op, int32_t arg,
                                  uint32_t cur) {
    uint32_t tail = nm->n - p, k;
    upy_nin *in;
    if (p == nm->n)
        return put(nm, op, arg, NULL, cur);
    if (nm->n == nm->cap && grow_out(nm))
        return fail_memory(nm);
    memmove(&nm->out[p + 1], &nm->out[p], tail * sizeof *nm->out);
    memmove(&nm->src[p + 1], &nm->src[p], tail * sizeof *nm->src);
    memmove(&nm->handler_of[p + 1], &nm->handler_of[p],
            tail * sizeof *nm->handler_of);
    memmove(&nm->target_off[p + 1], &nm->target_off[p],
            tail * sizeof *nm->target_off);
    memmove(&nm->empty_handler[p + 1], &nm->empty_handler[p],
            tail * sizeof *nm->empty_handler);
    nm->n++;
    for (k = (uint32_t)nm->src[p]; k <= cur; k++) {
        if (nm->first_of[k] != UNSET && nm->first_of[k] > (int32_t)p)
            nm->first_of[k]++;
        if (nm->empty_body_of[k] != UNSET && nm->empty_body_of[k] >= (int32_t)p)
            nm->empty_body_of[k]++;
    }
    in = &nm->out[p];
    *in = nm->out[p + 1];
    in->op = (uint16_t)op;
    in->arg = arg;
    in->obj = NULL;
    in->flags = 0;
    in->target = UNSET;
    in->throw_offset = 0;
    nm->target_off[p] = -1;
    nm->empty_handler[p] = UNSET;
    nm->out[p + 1].lead_line = -1;
    nm->out[p + 1].lead_nops = 0;
    nm->out[p + 1].lead_nops_joined = 0;
    return UNPYC_OK;
}

/* 3.8's BUILD_*_UNPACK n, and how 3.9+'s compile.c builds the same
 * display or call arguments instead.  3.8 pushes each run of plain items
 * as one tuple (a dict for keywords and dict items) and each starred
 * value, then joins the n of them; 3.9+ build the container with the
 * plain items before the first starred one, then add each item or
 * extend by each starred value (starunpack_helper, compiler_dict,
 * compiler_call_helper):
 *
 *   [a, *b, c]  3.8: a BUILD_TUPLE 1; b; c BUILD_TUPLE 1; BUILD_LIST_UNPACK 3
 *               (sets: BUILD_SET 1, BUILD_SET_UNPACK)
 *               3.9: a BUILD_LIST 1; b LIST_EXTEND 1; c LIST_APPEND 1
 *   f(**a, x=1) 3.8: a; 'x' 1 BUILD_MAP 1; BUILD_MAP_UNPACK_WITH_CALL 2
 *               3.9: BUILD_MAP 0; a DICT_MERGE 1; 'x' 1 BUILD_MAP 1;
 *                    DICT_MERGE 1
 *
 * 3.8's peephole.c folds a plain run of constants into one tuple constant,
 * and leaves the items it was built of in co_consts: a constant tuple
 * whose items all are there is such a run (folded_run), one that a
 * starred `*(1, 2)` made, folded from the source before the compiler
 * numbered anything, has them not.  The plain runs of a dict stay dicts
 * (`add` unused); a call's first one is its keywords only where its keys
 * can be (keyword_run), else it is a `**{...}` display. */
typedef struct unpack_rule {
    uint16_t op;
    /* upy_nop: what 3.8 builds a plain run with, and 3.9 the container,
     * each item and each starred value. */
    uint8_t run, build, add, extend;
    uint8_t to_tuple, dict, keywords;
} unpack_rule;

static const unpack_rule unpack_rules[] = {
    {UPY_OP_BUILD_LIST_UNPACK, N_BUILD_TUPLE, N_BUILD_LIST, N_LIST_APPEND,
     N_LIST_EXTEND, 0, 0, 0},
    {UPY_OP_BUILD_TUPLE_UNPACK, N_BUILD_TUPLE, N_BUILD_LIST, N_LIST_APPEND,
     N_LIST_EXTEND, 1, 0, 0},
    {UPY_OP_BUILD_TUPLE_UNPACK_WITH_CALL, N_BUILD_TUPLE, N_BUILD_LIST,
     N_LIST_APPEND, N_LIST_EXTEND, 1, 0, 0},
    {UPY_OP_BUILD_SET_UNPACK, N_BUILD_SET, N_BUILD_SET, N_SET_ADD, N_SET_UPDATE,
     0, 0, 0},
    {UPY_OP_BUILD_MAP_UNPACK, N_BUILD_MAP, N_BUILD_MAP, 0, N_DICT_UPDATE, 0, 1,
     0},
    {UPY_OP_BUILD_MAP_UNPACK_WITH_CALL, N_BUILD_MAP, N_BUILD_MAP, 0,
     N_DICT_MERGE, 0, 1, 1},
};

static const unpack_rule *unpack_rule_of(uint16_t op) {
    size_t k;
    for (k = 0; k < sizeof unpack_rules / sizeof unpack_rules[0]; k++)
        if (unpack_rules[k].op == op)
            return &unpack_rules[k];
    return NULL;
}

/* Whether the operand [s, e) of decoded instruction cur is a run of
 * plain items: a tuple (a set) built of its items, a dict of its keys and
 * values, by its last instruction, the one way to its end.  (One branch
 * of `*(a or (b, c))` ends in such a tuple too, and the jump of the `or`
 * goes past it.) */
static int is_plain_run(const norm *nm, const unpack_rule *rule, uint32_t s,
                        uint32_t e, uint32_t cur) {
    const upy_nin *last = &nm->out[e - 1];
    if (e - s < 2 || jumps_to_neutral(nm, e, cur) != 0)
        return 0;
    if (rule->dict)
        return (last->op == N_BUILD_MAP && last->arg > 0) ||
               last->op == N_BUILD_CONST_KEY_MAP;
    return last->op == rule->run && last->arg > 0;
}

/* Whether constant `key` can be a keyword's name, and is none of the
 * `n` names of `seen` (NULL: none). */
static int is_new_keyword(const upy_object *key, const upy_object *seen,
                          size_t n) {
    const char *name =
        key && key->kind == UPY_STR ? (const char *)key->u.bytes.data : NULL;
    size_t k;
    if (!name || strlen(name) != key->u.bytes.len || !upy_is_identifier(name))
        return 0;
    for (k = 0; k < n; k++)
        if (strcmp((const char *)upy_seq_item(seen, k)->u.bytes.data, name) ==
            0)
            return 0;
    return 1;
}

/* Whether the dict [s, e) a call's first plain run built holds keyword
 * arguments: compile.c compiler_subkwargs writes one as 'k' v BUILD_MAP 1
 * and more as their values, then the tuple of their names and
 * BUILD_CONST_KEY_MAP.  The same code from a `**{...}` display whose
 * keys could not be names stays that display (recovery names each key). */
static int keyword_run(norm *nm, uint32_t s, uint32_t e, uint32_t cur) {
    const upy_nin *last = &nm->out[e - 1], *keys = &nm->out[e - 2];
    size_t k, n;
    if (last->op == N_BUILD_MAP)
        return last->arg == 1 && nm->out[s].op == N_LOAD_CONST &&
               operand_start(nm, e - 1, cur) == (int32_t)s + 1 &&
               is_new_keyword(nm->out[s].obj, NULL, 0);
    if (keys->op != N_LOAD_CONST || !keys->obj || keys->obj->kind != UPY_TUPLE)
        return 0;
    n = upy_seq_len(keys->obj);
    for (k = 0; k < n; k++)
        if (!is_new_keyword(upy_seq_item(keys->obj, k), keys->obj, k))
            return 0;
    return 1;
}

/* A run of k plain items [s, e - 1) after the first operand: each item
 * is added on its own, its BUILD_TUPLE k (BUILD_SET k) gone (the last
 * item's add takes its place). */
static unpyc_status add_each_item(norm *nm, const unpack_rule *rule, uint32_t s,
                                  uint32_t e, uint32_t cur) {
    uint32_t k = (uint32_t)nm->out[e - 1].arg, end = e - 1;
    unpyc_status st;
    nm->out[e - 1].op = rule->add;
    nm->out[e - 1].arg = 1;
    while (k-- > 1) {
        int32_t start = operand_start(nm, end, cur);
        if (start <= (int32_t)s)
            return unsupported(nm, cur);
        if ((st = insert_before(nm, (uint32_t)start, rule->add, 1, cur)))
            return st;
        end = (uint32_t)start;
    }
    return operand_start(nm, end, cur) == (int32_t)s ? UNPYC_OK
                                                     : unsupported(nm, cur);
}

/* Whether `kind` is that of None, True, False or Ellipsis, of which
 * marshal writes no references: each read is an object of its own. */
static int is_singleton_kind(int kind) {
    return kind == UPY_NONE || kind == UPY_TRUE || kind == UPY_FALSE ||
           kind == UPY_ELLIPSIS;
}

/* The index in co_consts of `item` (the very object: the peephole
 * optimizer builds a folded tuple of the objects it loaded, and marshal
 * writes the second of each as a reference to the first), or -1. */
static int32_t const_index(norm *nm, const upy_object *item) {
    const upy_object *consts = nm->dec->code->consts;
    size_t k, n = consts ? upy_seq_len(consts) : 0;
    if (nm->operand_budget < n)
        return -1;
    nm->operand_budget -= n;
    for (k = 0; k < n; k++) {
        const upy_object *c = upy_seq_item(consts, k);
        if (c == item ||
            (is_singleton_kind(item->kind) && c->kind == item->kind))
            return (int32_t)k;
    }
    return -1;
}

/* Whether the operand [s, e) is a plain run of constants folded into one
 * tuple (see unpack_rule). */
static int folded_run(norm *nm, uint32_t s, uint32_t e) {
    const upy_object *t = nm->out[s].obj;
    size_t k, n;
    if (e != s + 1 || nm->out[s].op != N_LOAD_CONST || !t ||
        t->kind != UPY_TUPLE || (n = upy_seq_len(t)) == 0)
        return 0;
    for (k = 0; k < n; k++)
        if (const_index(nm, upy_seq_item(t, k)) < 0)
            return 0;
    return 1;
}

/* A plain run of constants folded into the tuple operand j loads, at
 * neutral index s: each item loaded again, then the container built of
 * them (the first operand) or each added. */
static unpyc_status unfold_run(norm *nm, const unpack_rule *rule, uint32_t j,
                               uint32_t s, uint32_t cur) {
    const upy_object *t = nm->out[s].obj;
    uint32_t n = (uint32_t)upy_seq_len(t), k, p = s + 1;
    unpyc_status st;
    for (k = 0; k < n; k++) {
        const upy_object *item = upy_seq_item(t, k);
        upy_nin *load;
        if (k > 0 && (st = insert_before(nm, p++, N_LOAD_CONST, 0, cur)))
            return st;
        load = &nm->out[p - 1];
        load->op = N_LOAD_CONST;
        load->obj = item;
        load->arg = const_index(nm, item);
        if (j > 0 && (st = insert_before(nm, p++, rule->add, 1, cur)))
            return st;
    }
    return j == 0 ? insert_before(nm, p, rule->build, (int32_t)n, cur)
                  : UNPYC_OK;
}

/* What operand j, the neutral instructions [s, e), is: a plain run
 * (OPERAND_RUN, OPERAND_FOLDED for one folded into a constant) or a
 * starred value.  The compiler puts all plain items in a row in one run:
 * a tuple right after a run is a starred display, `f(a, *(b,), *c)`.  A
 * dict's run is a call's keywords only where its keys can be. */
enum { OPERAND_STARRED, OPERAND_RUN, OPERAND_FOLDED };

static int operand_kind(norm *nm, const unpack_rule *rule, uint32_t j,
                        int after_run, uint32_t s, uint32_t e, uint32_t cur) {
    if (rule->dict)
        return is_plain_run(nm, rule, s, e, cur) &&
                       (j > 0 || !rule->keywords || keyword_run(nm, s, e, cur))
                   ? OPERAND_RUN
                   : OPERAND_STARRED;
    if (after_run)
        return OPERAND_STARRED;
    if (rule->run == N_BUILD_TUPLE && folded_run(nm, s, e))
        return OPERAND_FOLDED;
    return is_plain_run(nm, rule, s, e, cur) ? OPERAND_RUN : OPERAND_STARRED;
}

/* Operand j of a BUILD_*_UNPACK, the neutral instructions [s, e), of
 * operand_kind `kind`. */
static unpyc_status lower_unpack_operand(norm *nm, const unpack_rule *rule,
                                         uint32_t j, int kind, uint32_t s,
                                         uint32_t e, uint32_t cur) {
    unpyc_status st;
    if (kind == OPERAND_FOLDED)
        return unfold_run(nm, rule, j, s, cur);
    if (kind == OPERAND_RUN) {
        if (j == 0 && !rule->dict)
            nm->out[e - 1].op = rule->build;
        if (j == 0)
            return UNPYC_OK;
        if (!rule->dict)
            return add_each_item(nm, rule, s, e, cur);
        return insert_before(nm, e, rule->extend, 1, cur);
    }
    if ((st = insert_before(nm, e, rule->extend, 1, cur)))
        return st;
    return j == 0 ? insert_before(nm, s, rule->build, 0, cur) : UNPYC_OK;
}

/* The keyword mapping of the CALL_FUNCTION_EX at decoded instruction i,
 * the last value before it, as 3.9+ build it: where it is no run of
 * keyword arguments (keyword_run) and no merge of several (lower_unpack
 * ends those in DICT_MERGE), it is merged into a new dict, BUILD_MAP 0
 * before it and DICT_MERGE 1 after.  `f(**{**a, **b})` so stays one
 * `**` of a display, whose merge lets a key repeat, where `f(**a, **b)`
 * refuses it. */
static unpyc_status wrap_kwargs(norm *nm, uint32_t i) {
    const unpack_rule *rule = unpack_rule_of(UPY_OP_BUILD_MAP_UNPACK_WITH_CALL);
    uint32_t e = nm->n;
    int32_t s = operand_start(nm, e, i);
    unpyc_status st;
    if (s < 0)
        return unsupported(nm, i);
    if ((nm->out[e - 1].op == N_DICT_MERGE &&
         jumps_to_neutral(nm, e, i) == 0) ||
        (is_plain_run(nm, rule, (uint32_t)s, e, i) &&
         keyword_run(nm, (uint32_t)s, e, i)))
        return UNPYC_OK;
    if ((st = insert_before(nm, e, N_DICT_MERGE, 1, i)))
        return st;
    return insert_before(nm, (uint32_t)s, N_BUILD_MAP, 0, i);
}

/* Decoded instruction i, a BUILD_*_UNPACK (see unpack_rule): where its
 * operands start, found from the last back; what each is, from the first
 * on; then each lowered from the last back, so that what each puts in
 * leaves the places of those before it as they were. */
static unpyc_status lower_unpack(norm *nm, uint32_t i) {
    const unpack_rule *rule = unpack_rule_of(at(nm, i)->op);
    uint32_t n = (uint32_t)at(nm, i)->arg, j;
    int32_t *start;
    uint8_t *kind;
    unpyc_status st;
    if (n == 0 || n > nm->n)
        return unsupported(nm, i);
    start = upy_arena_array(nm->arena, n + 1, sizeof *start);
    kind = upy_arena_array(nm->arena, n, 1);
    if (!start || !kind)
        return fail_memory(nm);
    start[n] = (int32_t)nm->n;
    for (j = n; j-- > 0;)
        if ((start[j] = operand_start(nm, (uint32_t)start[j + 1], i)) < 0)
            return unsupported(nm, i);
    for (j = 0; j < n; j++)
        kind[j] = (uint8_t)operand_kind(
            nm, rule, j, j > 0 && kind[j - 1] != OPERAND_STARRED,
            (uint32_t)start[j], (uint32_t)start[j + 1], i);
    for (j = n; j-- > 0;)
        if ((st = lower_unpack_operand(nm, rule, j, kind[j], (uint32_t)start[j],
                                       (uint32_t)start[j + 1], i)))
            return st;
    return rule->to_tuple ? put(nm, N_LIST_TO_TUPLE, 0, NULL, i) : UNPYC_OK;
}

/* Lowers decoded instruction i (and, for idioms, those after it, which it
 * marks skipped). */
static unpyc_status lower_one(norm *nm, uint32_t i) {
    const upy_instr *in = at(nm, i);
    const norm_rules *r = nm->rules;
    const binary_name *bn;
    upy_nin *out;
    unpyc_status st;
    int32_t end;

    switch (in->op) {
    case UPY_OP_NOP:
        if (is_nested_loop_head(nm, i))
            return put(nm, N_LOOP_HEAD, 0, NULL, i);
        return is_pass_block(nm, i) ? put(nm, N_PASS, 0, NULL, i) : UNPYC_OK;
    /* Nothing for the source. */
    case UPY_OP_RESUME:
    case UPY_OP_CACHE:
    case UPY_OP_EXTENDED_ARG:
    case UPY_OP_COPY_FREE_VARS:
    case UPY_OP_MAKE_CELL:
    case UPY_OP_PRECALL:
    case UPY_OP_GEN_START:
    case UPY_OP_ASYNC_GEN_WRAP:
        return UNPYC_OK;
    case UPY_OP_TO_BOOL:
        return put_to_bool(nm, i);
    case UPY_OP_RETURN_GENERATOR:
        if (op_is(nm, i + 1, UPY_OP_POP_TOP))
            nm->skip[i + 1] = 1;
        return UNPYC_OK;
    case UPY_OP_KW_NAMES:
        nm->kwnames = in->argobj;
        return UNPYC_OK;

    case UPY_OP_POP_TOP:
        return put(nm, N_POP_TOP, 0, NULL, i);
    case UPY_OP_COPY:
        end = jump_or_pop_idiom(nm, i);
        if (end >= 0) {
            uint32_t k;
            for (k = i + 1; k <= (uint32_t)end + 1; k++)
                nm->skip[k] = 1;
            return emit_jump(nm, N_JUMP_IF_OR_POP,
                             at(nm, (uint32_t)end)->op ==
                                     UPY_OP_POP_JUMP_IF_TRUE
                                 ? UPY_JUMP_TRUE
                                 : UPY_JUMP_FALSE,
                             (uint32_t)end, 0);
        }
        return put(nm, N_COPY, in->arg, NULL, i);
    case UPY_OP_DUP_TOP:
    case UPY_OP_DUP_TOP_TWO:
        return put_rotation(nm, i);
    case UPY_OP_ROT_THREE:
        if (is_capture_rotation(nm, i))
            return put_capture_rotation(nm, 3, i);
        return put_rotation(nm, i);
    case UPY_OP_SWAP:
        return put(nm, N_SWAP, in->arg, NULL, i);
    case UPY_OP_ROT_TWO:
        return put(nm, N_SWAP, 2, NULL, i);
    case UPY_OP_PUSH_NULL:
        return put(nm, N_PUSH_NULL, 0, NULL, i);

    case UPY_OP_LOAD_CONST:
        if ((end = with_exit_call(nm, i)) >= 0) {
            uint32_t k;
            for (k = i; k < (uint32_t)end; k++) {
                nm->skip[k + 1] = 1;
                if (!emit(nm, N_LOAD_CONST, in->arg, in->argobj, k))
                    return fail_memory(nm);
            }
            return put(nm, N_CALL, 2, NULL, (uint32_t)end);
        }
        return put(nm, N_LOAD_CONST, in->arg, in->argobj, i);
    case UPY_OP_RETURN_CONST:
        if (!emit(nm, N_LOAD_CONST, in->arg, in->argobj, i) ||
            !emit(nm, N_RETURN, 0, NULL, i))
            return fail_memory(nm);
        return UNPYC_OK;
    case UPY_OP_RETURN_VALUE: {
        upy_nin *ret = emit(nm, N_RETURN, 0, NULL, i);
        uint32_t before = i;
        if (!ret)
            return fail_memory(nm);
        /* A constant loaded right before a return the compiler did not
         * fuse with it: the two were in different blocks, the return one
         * where paths met, copied here afterwards.  (A NOP between keeps
         * the line of the jump the copy replaced: `return (` / `a if c
         * else b)` on lines of their own.) */
        while (before > 0 && op_is(nm, before - 1, UPY_OP_NOP) &&
               !nm->is_target[before])
            before--;
        /* (In a for loop the iterator is popped from under the value
         * first, compile.c compiler_unwind_fblock: `SWAP 2; POP_TOP`.  A
         * written `return 0.0` pops it before loading the constant.) */
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

    case UPY_OP_LOAD_FAST:
    case UPY_OP_LOAD_FAST_CHECK:
        return put_load_fast(nm, in->arg, in->argobj, i);
    case UPY_OP_LOAD_FAST_AND_CLEAR:
        return put(nm, N_LOAD, UPY_SCOPE_FAST_AND_CLEAR, in->argobj, i);
    case UPY_OP_STORE_FAST:
        return put(nm, N_STORE, UPY_SCOPE_FAST, in->argobj, i);
    case UPY_OP_DELETE_FAST:
        return put(nm, N_DELETE, UPY_SCOPE_FAST, in->argobj, i);
    case UPY_OP_LOAD_FAST_LOAD_FAST:
        st = put_load_fast(nm, (in->arg >> 4) & 15, in->argobj, i);
        return st ? st : put_load_fast(nm, in->arg & 15, in->argobj2, i);
    case UPY_OP_STORE_FAST_LOAD_FAST:
        st = put(nm, N_STORE, UPY_SCOPE_FAST, in->argobj, i);
        return st ? st : put_load_fast(nm, in->arg & 15, in->argobj2, i);
    case UPY_OP_STORE_FAST_STORE_FAST:
        st = put(nm, N_STORE, UPY_SCOPE_FAST, in->argobj, i);
        return st ? st : put(nm, N_STORE, UPY_SCOPE_FAST, in->argobj2, i);
    case UPY_OP_LOAD_DEREF:
        return put(nm, N_LOAD, UPY_SCOPE_DEREF, in->argobj, i);
    case UPY_OP_STORE_DEREF:
        return put(nm, N_STORE, UPY_SCOPE_DEREF, in->argobj, i);
    case UPY_OP_DELETE_DEREF:
        return put(nm, N_DELETE, UPY_SCOPE_DEREF, in->argobj, i);
    case UPY_OP_LOAD_CLASSDEREF:
        return put(nm, N_LOAD, UPY_SCOPE_CLASSDEREF, in->argobj, i);
    case UPY_OP_LOAD_FROM_DICT_OR_DEREF:
    case UPY_OP_LOAD_FROM_DICT_OR_GLOBALS: {
        /* 3.12 class bodies: LOAD_LOCALS then this, one name lookup.
         * The annotation scopes of 3.12+ type parameters, lazily
         * evaluated values and methods below a class load the class's
         * namespace from its __classdict__ cell instead. */
        upy_nin *last = last_emitted(nm);
        if (last &&
            (last->op == N_LOAD_LOCALS ||
             (last->op == N_LOAD && last->obj && last->obj->kind == UPY_STR &&
              strcmp((const char *)last->obj->u.bytes.data, "__classdict__") ==
                  0)))
            nm->n--;
        return put(nm, N_LOAD,
                   in->op == UPY_OP_LOAD_FROM_DICT_OR_DEREF
                       ? UPY_SCOPE_CLASSDEREF
                       : UPY_SCOPE_NAME,
                   in->argobj, i);
    }
    case UPY_OP_LOAD_CLOSURE:
        return put(nm, N_LOAD_CLOSURE, 0, in->argobj, i);
    case UPY_OP_LOAD_GLOBAL:
        if (r->global_null && (in->arg & 1) && !r->null_after &&
            !emit(nm, N_PUSH_NULL, 0, NULL, i))
            return fail_memory(nm);
        if ((st = put(nm, N_LOAD, UPY_SCOPE_GLOBAL, in->argobj, i)))
            return st;
        if (r->global_null && (in->arg & 1) && r->null_after &&
            !emit(nm, N_PUSH_NULL, 0, NULL, i))
            return fail_memory(nm);
        return UNPYC_OK;
    case UPY_OP_STORE_GLOBAL:
        return put(nm, N_STORE, UPY_SCOPE_GLOBAL, in->argobj, i);
    case UPY_OP_DELETE_GLOBAL:
        return put(nm, N_DELETE, UPY_SCOPE_GLOBAL, in->argobj, i);
    case UPY_OP_LOAD_NAME:
        return put(nm, N_LOAD, UPY_SCOPE_NAME, in->argobj, i);
    case UPY_OP_STORE_NAME:
        return put(nm, N_STORE, UPY_SCOPE_NAME, in->argobj, i);
    case UPY_OP_DELETE_NAME:
        return put(nm, N_DELETE, UPY_SCOPE_NAME, in->argobj, i);

    case UPY_OP_LOAD_ATTR:
        return emit(nm,
                    r->attr_method_bit && (in->arg & 1) ? N_LOAD_METHOD
                                                        : N_LOAD_ATTR,
                    0, in->argobj, i)
                   ? UNPYC_OK
                   : fail_memory(nm);
    case UPY_OP_LOAD_METHOD:
        return put(nm, N_LOAD_METHOD, 0, in->argobj, i);
    case UPY_OP_LOAD_SUPER_ATTR:
        return put(nm, N_LOAD_SUPER_ATTR, in->arg & 3, in->argobj, i);
    case UPY_OP_STORE_ATTR:
        return put(nm, N_STORE_ATTR, 0, in->argobj, i);
    case UPY_OP_DELETE_ATTR:
        return put(nm, N_DELETE_ATTR, 0, in->argobj, i);
    case UPY_OP_BINARY_SUBSCR:
        return put(nm, N_SUBSCR, 0, NULL, i);
    case UPY_OP_STORE_SUBSCR:
        return put(nm, N_STORE_SUBSCR, 0, NULL, i);
    case UPY_OP_DELETE_SUBSCR:
        return put(nm, N_DELETE_SUBSCR, 0, NULL, i);
    case UPY_OP_BINARY_SLICE:
        return put(nm, N_SLICE, 0, NULL, i);
    case UPY_OP_STORE_SLICE:
        return put(nm, N_STORE_SLICE, 0, NULL, i);
    case UPY_OP_BUILD_SLICE:
        return put(nm, N_BUILD_SLICE, in->arg, NULL, i);

    case UPY_OP_BINARY_OP:
        if (in->arg < 0 || in->arg >= 2 * NB_INPLACE_OFFSET)
            return unsupported(nm, i);
        out = emit(nm, N_BINARY, in->arg % NB_INPLACE_OFFSET, NULL, i);
        if (!out)
            return fail_memory(nm);
        if (in->arg >= NB_INPLACE_OFFSET)
            out->flags |= N_INPLACE;
        return UNPYC_OK;
    case UPY_OP_UNARY_NOT:
        return put(nm, N_UNARY, UPY_UOP_NOT, NULL, i);
    case UPY_OP_UNARY_NEGATIVE:
        return put(nm, N_UNARY, UPY_UOP_NEG, NULL, i);
    case UPY_OP_UNARY_POSITIVE:
        return put(nm, N_UNARY, UPY_UOP_POS, NULL, i);
    case UPY_OP_UNARY_INVERT:
        return put(nm, N_UNARY, UPY_UOP_INVERT, NULL, i);
    case UPY_OP_COMPARE_OP: {
        int32_t k = in->arg >> r->compare_shift;
        if (r->compare_shift == 0 && (end = exception_match_jump(nm, i)) >= 0) {
            nm->skip[end] = 1;
            return emit_jump(nm, N_JUMP_IF_NOT_EXC_MATCH, 0, (uint32_t)end, 0);
        }
        if (k < 0 || k >= (int32_t)(sizeof cmp_op_map / sizeof cmp_op_map[0]))
            return unsupported(nm, i);
        return put(nm, N_COMPARE, cmp_op_map[k], NULL, i);
    }
    case UPY_OP_IS_OP:
        return put(nm, N_COMPARE, in->arg ? UPY_CMP_IS_NOT : UPY_CMP_IS, NULL,
                   i);
    case UPY_OP_CONTAINS_OP:
        return put(nm, N_COMPARE, in->arg ? UPY_CMP_NOT_IN : UPY_CMP_IN, NULL,
                   i);
    case UPY_OP_CHECK_EXC_MATCH:
        return put(nm, N_EXC_MATCH, 0, NULL, i);
    case UPY_OP_CHECK_EG_MATCH:
        return put(nm, N_EG_MATCH, 0, NULL, i);

    case UPY_OP_BUILD_TUPLE:
        return put(nm, N_BUILD_TUPLE, in->arg, NULL, i);
    case UPY_OP_BUILD_LIST:
        return put(nm, N_BUILD_LIST, in->arg, NULL, i);
    case UPY_OP_BUILD_SET:
        return put(nm, N_BUILD_SET, in->arg, NULL, i);
    case UPY_OP_BUILD_MAP:
        return put(nm, N_BUILD_MAP, in->arg, NULL, i);
    case UPY_OP_BUILD_CONST_KEY_MAP:
        return put(nm, N_BUILD_CONST_KEY_MAP, in->arg, NULL, i);
    case UPY_OP_BUILD_STRING:
        return put(nm, N_BUILD_STRING, in->arg, NULL, i);
    case UPY_OP_LIST_APPEND:
        return put(nm, N_LIST_APPEND, in->arg, NULL, i);
    case UPY_OP_SET_ADD:
        return put(nm, N_SET_ADD, in->arg, NULL, i);
    case UPY_OP_MAP_ADD:
        return put(nm, N_MAP_ADD, in->arg, NULL, i);
    case UPY_OP_LIST_EXTEND:
        return put(nm, N_LIST_EXTEND, in->arg, NULL, i);
    case UPY_OP_SET_UPDATE:
        return put(nm, N_SET_UPDATE, in->arg, NULL, i);
    case UPY_OP_DICT_UPDATE:
        return put(nm, N_DICT_UPDATE, in->arg, NULL, i);
    case UPY_OP_DICT_MERGE:
        return put(nm, N_DICT_MERGE, in->arg, NULL, i);
    case UPY_OP_LIST_TO_TUPLE:
        return put(nm, N_LIST_TO_TUPLE, 0, NULL, i);
    case UPY_OP_BUILD_LIST_UNPACK:
    case UPY_OP_BUILD_TUPLE_UNPACK:
    case UPY_OP_BUILD_TUPLE_UNPACK_WITH_CALL:
    case UPY_OP_BUILD_SET_UNPACK:
    case UPY_OP_BUILD_MAP_UNPACK:
    case UPY_OP_BUILD_MAP_UNPACK_WITH_CALL:
        return lower_unpack(nm, i);
    case UPY_OP_UNPACK_SEQUENCE:
        return put(nm, N_UNPACK_SEQUENCE, in->arg, NULL, i);
    case UPY_OP_UNPACK_EX:
        return put(nm, N_UNPACK_EX, in->arg, NULL, i);

    case UPY_OP_FORMAT_VALUE: {
        static const int conversions[4] = {-1, 's', 'r', 'a'};
        out = emit(nm, N_FORMAT, conversions[in->arg & 3], NULL, i);
        if (!out)
            return fail_memory(nm);
        if (in->arg & 4)
            out->flags |= N_FORMAT_SPEC;
        return UNPYC_OK;
    }
    case UPY_OP_CONVERT_VALUE: {
        static const int conversions[4] = {-1, 's', 'r', 'a'};
        return put(nm, N_CONVERT, conversions[in->arg & 3], NULL, i);
    }
    case UPY_OP_FORMAT_SIMPLE:
        return put(nm, N_FORMAT, -1, NULL, i);
    case UPY_OP_FORMAT_WITH_SPEC:
        out = emit(nm, N_FORMAT, -1, NULL, i);
        if (!out)
            return fail_memory(nm);
        out->flags |= N_FORMAT_SPEC;
        return UNPYC_OK;

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
        if (r->passes_lone_kwargs && (in->arg & 1) && (st = wrap_kwargs(nm, i)))
            return st;
        out = emit(nm, N_CALL_EX, 0, NULL, i);
        if (!out)
            return fail_memory(nm);
        if (in->arg & 1)
            out->flags |= N_CALL_KWARGS;
        if (r->call_slots == 1)
            out->flags |= N_ONE_SLOT;
        return UNPYC_OK;
    case UPY_OP_MAKE_FUNCTION:
        if (r->function_qualname) {
            upy_nin *last = last_emitted(nm);
            if (last && last->op == N_LOAD_CONST && last->obj &&
                last->obj->kind == UPY_STR)
                nm->n--;
        }
        return put(nm, N_MAKE_FUNCTION, in->arg, NULL, i);
    case UPY_OP_SET_FUNCTION_ATTRIBUTE: {
        upy_nin *last = last_emitted(nm);
        if (!last || last->op != N_MAKE_FUNCTION)
            return unsupported(nm, i);
        last->arg |= in->arg;
        return UNPYC_OK;
    }
    case UPY_OP_LOAD_BUILD_CLASS:
        return put(nm, N_LOAD_BUILD_CLASS, 0, NULL, i);
    case UPY_OP_CALL_INTRINSIC_1:
        switch (in->arg) {
        case UPY_INTRINSIC_UNARY_POSITIVE:
            return put(nm, N_UNARY, UPY_UOP_POS, NULL, i);
        case UPY_INTRINSIC_LIST_TO_TUPLE:
            return put(nm, N_LIST_TO_TUPLE, 0, NULL, i);
        case UPY_INTRINSIC_IMPORT_STAR:
        case UPY_INTRINSIC_PRINT:
            /* 3.12+ returns None from these, and pops it at once. */
            if (op_is(nm, i + 1, UPY_OP_POP_TOP) && !nm->is_target[i + 1])
                nm->skip[i + 1] = 1;
            return put(nm,
                       in->arg == UPY_INTRINSIC_PRINT ? N_PRINT_EXPR
                                                      : N_IMPORT_STAR,
                       0, NULL, i);
        case UPY_INTRINSIC_ASYNC_GEN_WRAP:
            return UNPYC_OK;
        default:
            return put(nm, N_INTRINSIC, in->arg, NULL, i);
        }
    case UPY_OP_CALL_INTRINSIC_2:
        return put(nm, N_INTRINSIC, 100 + in->arg, NULL, i);
    case UPY_OP_PREP_RERAISE_STAR:
        return emit(nm, N_INTRINSIC, UPY_INTRINSIC_PREP_RERAISE_STAR, NULL, i)
                   ? UNPYC_OK
                   : fail_memory(nm);

    case UPY_OP_JUMP_FORWARD:
    case UPY_OP_JUMP_ABSOLUTE:
        return emit_jump(nm, N_JUMP, 0, i, 0);
    case UPY_OP_JUMP_BACKWARD:
    case UPY_OP_JUMP_BACKWARD_NO_INTERRUPT:
        return emit_jump(nm, N_JUMP, 0, i, N_JUMP_BACK);
    case UPY_OP_POP_JUMP_IF_FALSE:
    case UPY_OP_POP_JUMP_FORWARD_IF_FALSE:
    case UPY_OP_POP_JUMP_BACKWARD_IF_FALSE:
        return emit_cond_jump(nm, UPY_JUMP_FALSE, i);
    case UPY_OP_POP_JUMP_IF_TRUE:
    case UPY_OP_POP_JUMP_FORWARD_IF_TRUE:
    case UPY_OP_POP_JUMP_BACKWARD_IF_TRUE:
        return emit_cond_jump(nm, UPY_JUMP_TRUE, i);
    case UPY_OP_POP_JUMP_IF_NONE:
    case UPY_OP_POP_JUMP_FORWARD_IF_NONE:
    case UPY_OP_POP_JUMP_BACKWARD_IF_NONE:
        return emit_cond_jump(nm, UPY_JUMP_NONE, i);
    case UPY_OP_POP_JUMP_IF_NOT_NONE:
    case UPY_OP_POP_JUMP_FORWARD_IF_NOT_NONE:
    case UPY_OP_POP_JUMP_BACKWARD_IF_NOT_NONE:
        return emit_cond_jump(nm, UPY_JUMP_NOT_NONE, i);
    case UPY_OP_JUMP_IF_FALSE_OR_POP:
        return emit_jump(nm, N_JUMP_IF_OR_POP, UPY_JUMP_FALSE, i, 0);
    case UPY_OP_JUMP_IF_TRUE_OR_POP:
        return emit_jump(nm, N_JUMP_IF_OR_POP, UPY_JUMP_TRUE, i, 0);
    case UPY_OP_FOR_ITER: {
        /* 3.12+ exits through END_FOR (and 3.13's POP_TOP after it), which
         * only instrumentation executes: the exit target is after them. */
        int32_t t = index_of_offset(nm, in->target);
        if (t >= 0 && op_is(nm, (uint32_t)t, UPY_OP_END_FOR)) {
            nm->skip[t] = 1;
            if (nm->rules->minor >= 13 &&
                op_is(nm, (uint32_t)t + 1, UPY_OP_POP_TOP))
                nm->skip[t + 1] = 1;
        }
        return emit_jump(nm, N_FOR_ITER, 0, i, 0);
    }
    case UPY_OP_GET_ITER:
        return put(nm, N_GET_ITER, 0, NULL, i);
    case UPY_OP_GET_AITER:
        return put(nm, N_GET_AITER, 0, NULL, i);
    case UPY_OP_GET_AWAITABLE:
    case UPY_OP_GET_YIELD_FROM_ITER:
    case UPY_OP_GET_ANEXT: {
        uint32_t k;
        end = await_loop_end(nm, i);
        if (end < 0) {
            /* GET_YIELD_FROM_ITER before a `for` (yield from with a
             * generator) and other lone uses. */
            if (in->op == UPY_OP_GET_YIELD_FROM_ITER)
                return put(nm, N_GET_ITER, 0, NULL, i);
            return unsupported(nm, i);
        }
        for (k = i + 1; k <= (uint32_t)end; k++)
            nm->skip[k] = 1;
        if (in->op == UPY_OP_GET_ANEXT) {
            /* The header of an async for: its handler is END_ASYNC_FOR,
             * and the loop exit is the code after it. */
            int32_t h = async_for_exit(nm, i);
            if (h < 0)
                return unsupported(nm, i);
            nm->skip[h] = 1;
            out = emit(nm, N_FOR_ITER, 0, NULL, i);
            if (!out)
                return fail_memory(nm);
            out->flags |= N_ASYNC;
            nm->handler_of[nm->n - 1] = h;
            nm->target_off[nm->n - 1] = (uint32_t)h + 1 < nm->dec->count
                                            ? at(nm, (uint32_t)h + 1)->offset
                                            : at(nm, (uint32_t)h)->offset;
            return UNPYC_OK;
        }
        out = emit(
            nm, in->op == UPY_OP_GET_YIELD_FROM_ITER ? N_YIELD_FROM : N_AWAIT,
            in->op == UPY_OP_GET_YIELD_FROM_ITER ? 0 : in->arg, NULL, i);
        if (!out)
            return fail_memory(nm);
        out->throw_offset = await_cleanup_offset(nm, i, (uint32_t)end);
        return UNPYC_OK;
    }
    case UPY_OP_YIELD_VALUE:
        return put(nm, N_YIELD, 0, NULL, i);
    case UPY_OP_END_ASYNC_FOR:
        return put(nm, N_END_ASYNC_FOR, 0, NULL, i);
    case UPY_OP_RAISE_VARARGS:
        return put(nm, N_RAISE, in->arg, NULL, i);
    case UPY_OP_RERAISE:
        return put(nm, N_RERAISE, in->arg, NULL, i);
    case UPY_OP_PUSH_EXC_INFO:
        return put(nm, N_PUSH_EXC_INFO, 0, NULL, i);
    case UPY_OP_POP_EXCEPT:
        return put(nm, N_POP_EXCEPT, 0, NULL, i);
    case UPY_OP_BEFORE_WITH:
        return put(nm, N_BEFORE_WITH, 0, NULL, i);
    case UPY_OP_BEFORE_ASYNC_WITH:
        out = emit(nm, N_BEFORE_WITH, 0, NULL, i);
        if (!out)
            return fail_memory(nm);
        out->flags |= N_ASYNC;
        return UNPYC_OK;
    case UPY_OP_WITH_EXCEPT_START:
        return put(nm, N_WITH_EXCEPT_START, 0, NULL, i);
    case UPY_OP_SETUP_FINALLY:
        if (skip_async_for_block(nm, i))
            return UNPYC_OK;
        return emit_jump(nm, N_SETUP_FINALLY, 0, i, 0);
    case UPY_OP_SETUP_WITH:
        if (!emit(nm, N_BEFORE_WITH, 0, NULL, i))
            return fail_memory(nm);
        return emit_jump(nm, N_SETUP_WITH, 0, i, 0);
    case UPY_OP_SETUP_ASYNC_WITH:
        return emit_jump(nm, N_SETUP_WITH, 0, i, 0);
    case UPY_OP_POP_BLOCK:
        return put(nm, N_POP_BLOCK, 0, NULL, i);
    case UPY_OP_JUMP_IF_NOT_EXC_MATCH:
        return emit_jump(nm, N_JUMP_IF_NOT_EXC_MATCH, 0, i, 0);
    case UPY_OP_ROT_FOUR:
        if (is_capture_rotation(nm, i))
            return put_capture_rotation(nm, 4, i);
        return put(nm, N_ROT_FOUR, 0, NULL, i);
    case UPY_OP_ROT_N:
        if (!r->rotates_captures)
            return unsupported(nm, i);
        return put_capture_rotation(nm, in->arg, i);
    case UPY_OP_BEGIN_FINALLY:
        return put(nm, N_BEGIN_FINALLY, 0, NULL, i);
    case UPY_OP_CALL_FINALLY:
        return emit_jump(nm, N_CALL_FINALLY, 0, i, 0);
    case UPY_OP_END_FINALLY:
        return put(nm, N_END_FINALLY, 0, NULL, i);
    case UPY_OP_POP_FINALLY:
        return put(nm, N_POP_FINALLY, in->arg, NULL, i);
    case UPY_OP_WITH_CLEANUP_START:
        return put(nm, N_WITH_CLEANUP_START, 0, NULL, i);
    case UPY_OP_WITH_CLEANUP_FINISH:
        return put(nm, N_WITH_CLEANUP_FINISH, 0, NULL, i);
    case UPY_OP_LOAD_ASSERTION_ERROR:
        return put(nm, N_LOAD_ASSERTION_ERROR, 0, NULL, i);
    case UPY_OP_SETUP_ANNOTATIONS:
        return put(nm, N_SETUP_ANNOTATIONS, 0, NULL, i);
    case UPY_OP_IMPORT_NAME:
        return put(nm, N_IMPORT_NAME, 0, in->argobj, i);
    case UPY_OP_IMPORT_FROM:
        return put(nm, N_IMPORT_FROM, 0, in->argobj, i);
    case UPY_OP_IMPORT_STAR:
        return put(nm, N_IMPORT_STAR, 0, NULL, i);
    case UPY_OP_MATCH_CLASS:
        return put_match_test(nm, N_MATCH_CLASS, i);
    case UPY_OP_MATCH_MAPPING:
        return put(nm, N_MATCH_MAPPING, 0, NULL, i);
    case UPY_OP_MATCH_SEQUENCE:
        return put(nm, N_MATCH_SEQUENCE, 0, NULL, i);
    case UPY_OP_MATCH_KEYS:
        return put_match_test(nm, N_MATCH_KEYS, i);
    case UPY_OP_GET_LEN:
        return put(nm, N_GET_LEN, 0, NULL, i);
    case UPY_OP_COPY_DICT_WITHOUT_KEYS:
        return put(nm, N_COPY_DICT_WITHOUT_KEYS, 0, NULL, i);
    case UPY_OP_PRINT_EXPR:
        return put(nm, N_PRINT_EXPR, 0, NULL, i);
    case UPY_OP_LOAD_LOCALS:
        return put(nm, N_LOAD_LOCALS, 0, NULL, i);
    default:
        break;
    }
    bn = binary_name_of(in->op);
    if (bn) {
        out = emit(nm, N_BINARY, bn->binop, NULL, i);
        if (!out)
            return fail_memory(nm);
        if (bn->inplace)
            out->flags |= N_INPLACE;
        return UNPYC_OK;
    }
    return unsupported(nm, i);
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
        const upy_instr *from = at(nm, (uint32_t)nm->handler_of[k]);
        const upy_exc_entry *e;
        if (nm->target_off[k] >= 0) {
            int32_t t = index_of_offset(nm, nm->target_off[k]);
            if (t < 0 || nm->first_of[t] >= (int32_t)nm->n)
                return upy_fail(nm->err, UNPYC_E_CORRUPT, (long long)in->offset,
                                "jump at offset %u leads past the last "
                                "instruction",
                                (unsigned)in->offset);
            in->target = nm->first_of[t];
        }
        e = entry_at(nm, from->offset);
        if (nm->empty_handler[k] != UNSET) {
            /* (The cleanup's entry covers the handler's entry.) */
            int32_t h = nm->empty_handler[k];
            e = entry_at(nm, at(nm, (uint32_t)h)->offset);
            if (e && e->depth >= 1 && nm->first_of[h] < (int32_t)nm->n) {
                in->handler = nm->first_of[h];
                in->handler_depth = (uint16_t)(e->depth - 1);
                in->handler_lasti = 0;
            }
        } else if (e) {
            int32_t h = index_of_offset(nm, e->target);
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
 * neutral instructions alike. */
static unpyc_status normalize_in(const upy_decoded *dec, upy_version version,
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
    if (alloc_tables(&nm, count))
        return fail_memory(&nm);
    nm.entries_in_order = (uint8_t)entries_in_order(&dec->exceptions);
    /* (Tens of thousands of operands of real code, each in a few dozen
     * tries.) */
    nm.operand_budget = (uint64_t)1 << 26;
    nm.has_patterns =
        (uint8_t)(nm.rules->rotates_captures && has_pattern_code(&nm));

    mark_targets(&nm);
    if ((st = undo_duplicate_exits(&nm, &joined)) != UNPYC_OK)
        return st;
    undo_extended_with_exits(&nm);
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
        st = nm.jump_instead[i] != UNSET ? put_jump_instead(&nm, i)
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
    if (st == UNPYC_OK)
        st = upy_normalize_blocks(out, arena, err);
    if (st == UNPYC_OK && nm.rules->threads_try_exits)
        st = upy_normalize_unthread(out, arena, err);
    if (st == UNPYC_OK && nm.rules->no_exit_copies)
        st = upy_normalize_exit_copies(out, arena, err);
    if (st == UNPYC_OK)
        st = upy_normalize_uncopy(out, arena, err);
    if (st != UNPYC_OK)
        return st;
    return upy_normalize_layout(out, arena, err);
}

/* The working tables (per-instruction maps, the arrays grown past their
 * first guess, the layout's moves) are three times the size of the
 * neutral instructions that recovery reads: they live in an arena of
 * their own, released here, and the instructions are copied out to arena
 * at their final size. */
unpyc_status upy_normalize(const upy_decoded *dec, upy_version version,
                           upy_arena *arena, upy_ncode *out, unpyc_error *err) {
    upy_arena work;
    upy_nin *kept = NULL;
    unpyc_status st;

    upy_arena_init_scratch(&work, arena);
    st = normalize_in(dec, version, &work, out, err);
    if (st == UNPYC_OK) {
        kept = upy_arena_array_uncleared(arena, out->count, sizeof *kept);
        if (!kept)
            st = upy_fail(err,
                          arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                          -1, "out of memory");
        else if (out->count)
            memcpy(kept, out->ins, out->count * sizeof *kept);
    }
    out->ins = kept;
    if (!kept)
        out->count = 0;
    upy_arena_release(&work);
    return st;
}
