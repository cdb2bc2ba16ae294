/*
 * norm.h - the state of one code object's lowering, shared by the files
 * of the normalize layer that work on the decoded instructions while
 * normalize.c lowers them (private to engine/normalize).
 *
 *   normalize.c  the walk over the decoded instructions and lower_one();
 *   exitjoin.c   3.10's copies of exit blocks that leave a block, 3.10 /
 *                3.11's of a named clause's way out, joined back before
 *                the walk;
 *   exitlines.c  3.10's copies of exit blocks a statement with no line
 *                starts, joined back before the walk;
 *   patterns.c   3.10's match statement code, lowered as 3.11 writes it;
 *   unpack.c     3.8's BUILD_*_UNPACK, lowered as 3.9's container build;
 *   coldjump.c   3.12+'s NOP left of the jump ending a try's else part,
 *                given back as the jump.
 *   loopbreak.c  3.10+'s NOP left of a loop's last `break`, given back
 *                as the jump.
 *
 * The passes over neutral instructions (blocks.c, finally.c, exits.c,
 * unthread.c, uncopy.c, clausebreaks.c, withexits.c, layout.c) run after
 * the walk and need none of it: their entry points are in normalize.h.
 */
#ifndef UPY_NORM_H
#define UPY_NORM_H

#include "normalize/normalize.h"

/* What differs between versions, one row per version (normalize.c's
 * rules_table). */
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
    /* 3.8-3.9's peephole.c threads a for loop's break through the jump
     * after the loop, where the loop ends an if body (undone by unthread.c
     * unthread_loop_breaks), or through the jump after its `else: break`
     * (breaks.c). */
    uint8_t threads_loop_breaks;
    /* 3.8-3.9's peephole.c threads the jumps to the end of a statement
     * that ends a loop body through the jump there, which the last branch
     * falls into (ifends.c). */
    uint8_t threads_statement_ends;
    /* 3.8's compile.c compiler_assert raises the global AssertionError;
     * 3.9+ load it with LOAD_ASSERTION_ERROR (asserts.c). */
    uint8_t asserts_load_global;
    /* 3.8-3.9's compile.c compiler_return loads a returned constant
     * after the POP_BLOCKs of the tries it leaves, where no copy of an
     * else part's return goes before 3.10 (constreturn.c). */
    uint8_t loads_return_const_last;
    /* 3.8-3.9's compile.c compiler_while tests a while loop on top only;
     * 3.10+ copy the test to the bottom of the body (whiletest.c). */
    uint8_t tests_while_on_top;
    /* 3.8-3.9 keep the code nothing reaches but after a RETURN_VALUE in
     * its basic block (peephole.c); 3.10's compile.c remove_unreachable
     * drops it (unreached.c). */
    uint8_t keeps_unreached_code;
    /* 3.10 copies an exit block that starts with POP_BLOCK (no line: the
     * end of a try body before its finally, of a with body before its
     * __exit__ call) into each jump to it (undo_duplicate_exits). */
    uint8_t copies_pop_block_exits;
    /* 3.10 copies an exit block whose first instruction has no line (an
     * expression statement's POP_TOP) into each jump to it, whatever
     * lines the rest has (undo_unlined_exit_copies). */
    uint8_t copies_statement_exits;
    /* 3.10-3.11 copy the way out of an `except E as e:` clause with the
     * return after the try inlined (no line) into each jump to it
     * (compile.c duplicate_exits_without_lineno; undone by
     * undo_named_clause_exit_copies). */
    uint8_t copies_named_clause_exits;
    /* 3.10's MATCH_CLASS and MATCH_KEYS push a bool above their result,
     * which POP_JUMP_IF_FALSE tests; 3.11+ test the result itself against
     * None (compile.c compiler_pattern_class: COPY 1; POP_JUMP_IF_NONE). */
    uint8_t match_pushes_bool;
    /* 3.10's compile.c pattern_helper_store_name moves each capture under
     * what the pattern still keeps with ROT_N, which the assembler spells
     * ROT_TWO / ROT_THREE / ROT_FOUR up to 4 (3.11's pattern_helper_rotate:
     * SWAP n, ..., SWAP 2). */
    uint8_t rotates_captures;
    /* 3.13's flowgraph.c inline_small_or_no_lineno_blocks copies the end
     * of an except clause (no line) into the jump of a break out of a loop
     * that ends the clause (clausebreaks.c). */
    uint8_t copies_clause_ends_into_breaks;
    /* 3.12+ flowgraph.c push_cold_blocks_to_end lays the code only an
     * exception reaches after all other code (coldblocks.c puts some of it
     * back). */
    uint8_t pushes_cold_blocks_to_end;
    /* 3.12's flowgraph.c jump_thread does not see the jump that ends a
     * try body past its POP_BLOCK: a cold clause's break out of a loop
     * that ends the try body goes through that jump (coldblocks.c). */
    uint8_t keeps_jumps_to_try_ends;
    /* The same pass copies the end of a try body (POP_BLOCK, a jump; no
     * line) into the jump that ends a with's suppressed exception, with
     * the try's outer handler (withexits.c). */
    uint8_t copies_try_ends_into_with_exits;
    /* 3.10's compile.c optimize_cfg, 3.11's compile.c and 3.12+'s
     * flowgraph.c remove_redundant_jumps make a jump to the block laid out
     * next a NOP that keeps its line: a loop's last `break` among them
     * (loopbreak.c). */
    uint8_t removes_redundant_jumps;
    upy_layout layout;
} norm_rules;

/* An unset index of the per-instruction maps. */
#define UNSET (-1)

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
    /* Per code unit (byte offset / 2): the decoded instruction that
     * starts there, or UNSET (norm_index_of_offset). */
    int32_t *index_at;
    uint32_t units;
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
     * writes them: entry_at() can search them by halves, and index_entries
     * walk them. */
    uint8_t entries_in_order;
    /* Per decoded instruction: the exception-table entry covering it, or
     * NULL; itself NULL when the code has no table (norm_entry_of). */
    const upy_exc_entry **entry_of;
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

static inline const upy_instr *at(const norm *nm, uint32_t i) {
    return &nm->dec->instrs[i];
}

static inline int op_is(const norm *nm, uint32_t i, uint16_t op) {
    return i < nm->dec->count && nm->dec->instrs[i].op == op;
}

/* The exception-table entry covering decoded instruction i, or NULL. */
static inline const upy_exc_entry *norm_entry_of(const norm *nm, uint32_t i) {
    return nm->entry_of ? nm->entry_of[i] : NULL;
}

/* Whether decoded instruction i + 1 is `op` and no jump goes to it: the
 * two make one idiom. */
static inline int followed_by(const norm *nm, uint32_t i, uint16_t op) {
    return op_is(nm, i + 1, op) && !nm->is_target[i + 1];
}

/* normalize.c: the lowering's own steps, which the files below use. */
unpyc_status norm_fail_memory(norm *nm);
unpyc_status norm_unsupported(norm *nm, uint32_t i);
/* The decoded instruction at byte offset `offset`, or -1. */
int32_t norm_index_of_offset(const norm *nm, int64_t offset);
/* Whether control never goes on from decoded instruction i to the next
 * (an unconditional jump, a return or a raise). */
int norm_ends_without_fall(const norm *nm, uint32_t i);
/* Sets is_target, jumps_to and jumped_on_line from the jumps and the
 * exception table. */
void norm_mark_targets(norm *nm);
/* Doubles the capacity of the arrays norm_emit() fills; -1 when out of
 * memory. */
int norm_grow_out(norm *nm);
/* Appends a neutral instruction made from decoded instruction i; NULL
 * when out of memory. */
upy_nin *norm_emit(norm *nm, upy_nop op, int32_t arg, const upy_object *obj,
                   uint32_t i);
/* norm_emit() for the common case where the instruction needs no more
 * fields. */
unpyc_status norm_put(norm *nm, upy_nop op, int32_t arg, const upy_object *obj,
                      uint32_t i);
/* A jump made from decoded instruction i, to its target. */
unpyc_status norm_emit_jump(norm *nm, upy_nop op, int32_t arg, uint32_t i,
                            uint16_t flags);
/* The index of the CALL_FUNCTION 3 of a with's __exit__ call starting at
 * decoded instruction i (3.8-3.10), or -1. */
int32_t norm_with_exit_call(const norm *nm, uint32_t i);
/* Whether decoded instructions i, i + 1 store a name and delete it, in
 * one scope: how an `except E as e:` clause clears its name. */
int norm_stores_and_deletes_name(const norm *nm, uint32_t i);

/* exitjoin.c */
/* The end (one past its return or raise) of the exit block starting at
 * decoded instruction s: straight code that nothing jumps into, or 0. */
uint32_t norm_exit_block_end(const norm *nm, uint32_t s);
/* Whether the n decoded instructions from c are those from s: the same
 * ops and opargs, whatever their lines. */
int norm_same_ops(const norm *nm, uint32_t s, uint32_t c, uint32_t n);
/* Whether the n decoded instructions from c do what those from s do, on
 * the same lines but for the first: a copy keeps the lines of its block,
 * and its first instruction takes the line of the jump to it. */
int norm_same_code(const norm *nm, uint32_t s, uint32_t c, uint32_t n);
/* Whether a decoded instruction of [s, end) is on another line than the
 * one at s: it starts a statement, as propagate_line_numbers (3.10
 * compile.c) gives an instruction compiled with no line the line of the
 * one before it. */
int norm_changes_line(const norm *nm, uint32_t s, uint32_t end);
/* The decoded instructions again in *joined, with each jump to a copy
 * (copy_of) aimed at the block it copies, which nm reads from now on; the
 * jump targets are marked anew. */
unpyc_status norm_retarget_copies(norm *nm, upy_decoded *joined);
unpyc_status norm_undo_duplicate_exits(norm *nm, upy_decoded *joined);
unpyc_status norm_undo_named_clause_exit_copies(norm *nm, upy_decoded *joined);
void norm_undo_extended_with_exits(norm *nm);
unpyc_status norm_put_jump_instead(norm *nm, uint32_t i);

/* exitlines.c */
unpyc_status norm_undo_unlined_exit_copies(norm *nm, upy_decoded *joined);

/* patterns.c */
int norm_has_pattern_code(const norm *nm);
int norm_is_capture_rotation(const norm *nm, uint32_t i);
unpyc_status norm_put_capture_rotation(norm *nm, int32_t n, uint32_t i);
unpyc_status norm_put_match_test(norm *nm, upy_nop op, uint32_t i);

/* coldjump.c */
/* Whether the NOP at decoded instruction i is the jump ending a try's
 * else part that 3.12+ dropped (flowgraph.c push_cold_blocks_to_end,
 * remove_redundant_jumps): it goes to the instruction after it. */
int norm_is_dropped_else_jump(norm *nm, uint32_t i);

/* loopbreak.c */
/* Whether the NOP at decoded instruction i is the `break` ending a loop's
 * body that 3.10+ remove_redundant_jumps dropped for the loop's exit
 * right after it: it goes to the instruction after it. */
int norm_is_removed_loop_break(norm *nm, uint32_t i);

/* unpack.c */
unpyc_status norm_lower_unpack(norm *nm, uint32_t i);
unpyc_status norm_wrap_kwargs(norm *nm, uint32_t i);

#endif /* UPY_NORM_H */
