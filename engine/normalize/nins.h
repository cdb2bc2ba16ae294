/*
 * nins.h - the version-neutral instruction set the recover layer reads.
 *
 * The normalize layer lowers each version's bytecode into this one form, so
 * that recovery never asks which CPython wrote the code:
 *
 *   - jumps name the index of their target instruction, not an offset;
 *   - each instruction knows its exception handler (from the 3.11+
 *     exception table; before 3.11 from the SETUP_* block stack);
 *   - calls are one N_CALL whatever the version spelled (PRECALL, KW_NAMES,
 *     CALL_FUNCTION_KW, CALL_METHOD, CALL_KW ...), binary operators one
 *     N_BINARY carrying a upy_binop, comparisons one N_COMPARE carrying a
 *     upy_cmpop (COMPARE_OP, IS_OP, CONTAINS_OP), f-string parts one
 *     N_FORMAT, and superinstructions are split;
 *   - instructions with no meaning for the source (RESUME, CACHE, NOP,
 *     EXTENDED_ARG, COPY_FREE_VARS, MAKE_CELL, RETURN_GENERATOR ...) are
 *     dropped, and RETURN_CONST becomes N_LOAD_CONST + N_RETURN.
 *
 * Stack effects are documented per op as (pops -> pushes) on the neutral
 * stack.  Version details that survive (3.11+ NULL slots under callables,
 * END_FOR) are kept explicit rather than hidden, because the recover layer
 * must still match stacks exactly.
 */
#ifndef UPY_NINS_H
#define UPY_NINS_H

#include <stdint.h>

#include "ast/ast.h"
#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"

typedef enum upy_nop {
    /* Stack shuffles. */
    N_POP_TOP,   /* (v -> ) */
    N_COPY,      /* arg = n: push a copy of the n-th item (1 = top) */
    N_SWAP,      /* arg = n: swap top and n-th item */
    N_PUSH_NULL, /* ( -> NULL) */
    /* No code: the body of a try that made none (`try: pass`), which
     * normalizing puts where the body was, under the try's handler (no
     * exception-table entry names that handler, see find_empty_tries in
     * normalize.c).  ( -> ) */
    N_EMPTY_BODY,
    /* A `pass` alone in a block that a jump reaches, right before the
     * join of the branches (is_pass_block in normalize.c).  ( -> ) */
    N_PASS,
    /* The header of a `while True:` loop whose body starts with another
     * (is_nested_loop_head in normalize.c): no code, a block of its own that
     * the outer loop jumps back to.  ( -> ) */
    N_LOOP_HEAD,

    /* Names.  arg = upy_scope, obj = the name (str). */
    N_LOAD,       /* ( -> value) */
    N_STORE,      /* (value -> ) */
    N_DELETE,     /* ( -> ) */
    N_LOAD_CONST, /* obj = the constant, arg = its co_consts index
                     ( -> value) */

    /* Attributes and items. */
    N_LOAD_ATTR,       /* obj = name (owner -> value) */
    N_LOAD_METHOD,     /* obj = name (owner -> method, self_or_null) */
    N_LOAD_SUPER_ATTR, /* obj = name, arg = 1 when a method load
                          (global_super, class, self -> attr [, self]) */
    N_STORE_ATTR,      /* obj = name (value, owner -> ) */
    N_DELETE_ATTR,     /* obj = name (owner -> ) */
    N_SUBSCR,          /* (container, key -> value) */
    N_STORE_SUBSCR,    /* (value, container, key -> ) */
    N_DELETE_SUBSCR,   /* (container, key -> ) */
    N_SLICE,           /* 3.12+ BINARY_SLICE (container, start, stop -> v) */
    N_STORE_SLICE,     /* (value, container, start, stop -> ) */
    N_BUILD_SLICE,     /* arg = 2 or 3 (start, stop[, step] -> slice) */

    /* Operators. */
    N_BINARY,    /* arg = upy_binop, flags N_INPLACE (left, right -> v) */
    N_UNARY,     /* arg = upy_unaryop (v -> v) */
    N_COMPARE,   /* arg = upy_cmpop (a, b -> v) */
    N_EXC_MATCH, /* CHECK_EXC_MATCH (exc, type -> exc, bool) */
    N_EG_MATCH,  /* CHECK_EG_MATCH (exc, type -> rest, match) */

    /* Containers.  arg = item count. */
    N_BUILD_TUPLE,
    N_BUILD_LIST,
    N_BUILD_SET,
    N_BUILD_MAP,           /* arg = pairs (k1, v1, ... -> dict) */
    N_BUILD_CONST_KEY_MAP, /* arg = n (v1..vn, keys tuple -> dict) */
    N_BUILD_STRING,        /* arg = n parts of an f-string */
    N_LIST_APPEND,         /* arg = depth of the list (v -> ) */
    N_SET_ADD,             /* arg = depth */
    N_MAP_ADD,             /* arg = depth (k, v -> ) */
    N_LIST_EXTEND,         /* arg = depth (iterable -> ) */
    N_SET_UPDATE,          /* arg = depth */
    N_DICT_UPDATE,         /* arg = depth (mapping -> ) */
    N_DICT_MERGE,          /* arg = depth, for **kwargs of a call */
    N_LIST_TO_TUPLE,       /* (list -> tuple) */
    N_UNPACK_SEQUENCE,     /* arg = n (seq -> vn..v1) */
    N_UNPACK_EX,           /* arg = before | after << 8 */

    /* f-strings: arg = conversion (-1 none, 's', 'r', 'a'); flags
     * N_FORMAT_SPEC when a spec is on the stack (v [, spec] -> str).  3.13
     * converts first, in its own instruction: N_CONVERT (v -> v). */
    N_FORMAT,
    N_CONVERT,

    /* Calls and functions. */
    /* arg = count of arguments after the callable slots, keyword values
     * included; obj = tuple of keyword names or NULL.  The callable takes
     * two slots (callable and NULL, in either order, or method and self)
     * except where N_ONE_SLOT says one (CALL_FUNCTION before 3.11):
     * (slots..., args..., kwvalues... -> v). */
    N_CALL,
    N_CALL_EX,       /* flags N_CALL_KWARGS, N_ONE_SLOT (slots..., args tuple
                        [, kwargs dict] -> v) */
    N_MAKE_FUNCTION, /* arg = MAKE_FUNCTION flags (defaults 1, kwdefaults
                        2, annotations 4, closure 8): (extras..., code ->
                        function) with the 3.13 SET_FUNCTION_ATTRIBUTE
                        sequence folded in */
    N_LOAD_CLOSURE,  /* obj = cell name ( -> cell) */
    N_LOAD_BUILD_CLASS,
    N_INTRINSIC, /* arg = upy_intrinsic (v -> v) or (a, b -> v) */

    /* Control flow.  target = instruction index. */
    N_JUMP,           /* unconditional; flags N_JUMP_BACK when the version
                         spelled it as a backward jump */
    N_POP_JUMP_IF,    /* arg = upy_jump_cond (v -> ) */
    N_JUMP_IF_OR_POP, /* arg = UPY_JUMP_TRUE / FALSE: keep v and jump, or
                         pop and fall through (3.8-3.11's JUMP_IF_X_OR_POP,
                         and the 3.12+ COPY 1; [TO_BOOL;] POP_JUMP_IF_X;
                         POP_TOP idiom) */
    /* (iter -> iter, v); when exhausted the iterator is popped and control
     * goes to target (END_FOR of 3.12+ is folded in).  With N_ASYNC it is
     * the header of an async for: GET_ANEXT and its await, with target the
     * code after END_ASYNC_FOR. */
    N_FOR_ITER,
    N_RETURN, /* (v -> ) */
    N_YIELD,  /* (v -> sent) */
    N_GET_ITER,
    N_GET_AITER,
    /* The whole await loop (GET_AWAITABLE, SEND / YIELD_VALUE ...,
     * END_SEND; YIELD_FROM before 3.11): (v -> result).  arg is where the
     * await is: 0 await expression, 1 after __aenter__, 2 after
     * __aexit__. */
    N_AWAIT,
    N_YIELD_FROM, /* GET_YIELD_FROM_ITER and its loop (v -> result) */
    N_END_ASYNC_FOR,
    N_RAISE,   /* arg = 0, 1 or 2 operands */
    N_RERAISE, /* arg: set lasti */

    /* Exceptions and with. */
    N_PUSH_EXC_INFO, /* handler entry (exc -> prev_exc, exc) */
    N_POP_EXCEPT,
    N_BEFORE_WITH, /* flags N_ASYNC (ctx -> exit, value) */
    N_WITH_EXCEPT_START,
    N_LOAD_ASSERTION_ERROR,
    N_SETUP_ANNOTATIONS,

    /* Imports. */
    N_IMPORT_NAME, /* obj = module name (level, fromlist -> module) */
    N_IMPORT_FROM, /* obj = name (module -> module, value) */
    N_IMPORT_STAR, /* (module -> ) */

    /* Pattern matching. */
    N_MATCH_CLASS, /* arg = positional count */
    N_MATCH_MAPPING,
    N_MATCH_SEQUENCE,
    N_MATCH_KEYS,
    N_GET_LEN,
    N_COPY_DICT_WITHOUT_KEYS,

    N_PRINT_EXPR, /* interactive mode only */
    N_LOAD_LOCALS,

    /* The block stack of 3.8-3.10, as lowering meets it.  blocks.c turns
     * these into the handlers 3.11's exception table gives and drops or
     * rewrites them: recovery never sees them.  Stack effects are the
     * version's own. */
    N_SETUP_FINALLY, /* target = handler ( -> ) */
    N_SETUP_WITH,    /* target = handler, after N_BEFORE_WITH ( -> ) */
    N_POP_BLOCK,     /* ( -> ) */
    /* JUMP_IF_NOT_EXC_MATCH (3.8: COMPARE_OP exception match and
     * POP_JUMP_IF_FALSE): target = the next clause (type, type -> ) */
    N_JUMP_IF_NOT_EXC_MATCH,
    N_ROT_FOUR, /* (a, b, c, d -> d, a, b, c) */
    /* 3.8's finally subroutine, as lowering meets it.  finally.c turns
     * these into the copies 3.9's compiler makes, before blocks.c runs.
     * BEGIN_FINALLY pushes NULL and falls into the finally body,
     * CALL_FINALLY (target = the body) pushes the address to come back
     * to, END_FINALLY ends the body or an except chain, POP_FINALLY (arg =
     * preserve_tos) leaves it early; WITH_CLEANUP_START and
     * WITH_CLEANUP_FINISH call a with's __exit__. */
    N_BEGIN_FINALLY,
    N_CALL_FINALLY,
    N_END_FINALLY,
    N_POP_FINALLY,
    N_WITH_CLEANUP_START,
    N_WITH_CLEANUP_FINISH,
    N_COUNT
} upy_nop;

/* Where a name lives. */
typedef enum upy_scope {
    UPY_SCOPE_FAST,  /* LOAD_FAST and friends */
    UPY_SCOPE_DEREF, /* cell or free variable */
    UPY_SCOPE_GLOBAL,
    UPY_SCOPE_NAME,           /* module / class body names */
    UPY_SCOPE_CLASSDEREF,     /* LOAD_CLASSDEREF, LOAD_FROM_DICT_OR_DEREF */
    UPY_SCOPE_FAST_AND_CLEAR, /* 3.12+ inlined comprehension save */
} upy_scope;

typedef enum upy_jump_cond {
    UPY_JUMP_FALSE,
    UPY_JUMP_TRUE,
    UPY_JUMP_NONE,
    UPY_JUMP_NOT_NONE,
} upy_jump_cond;

typedef enum upy_intrinsic {
    UPY_INTRINSIC_PRINT = 1,
    UPY_INTRINSIC_IMPORT_STAR = 2,
    UPY_INTRINSIC_STOPITERATION_ERROR = 3,
    UPY_INTRINSIC_ASYNC_GEN_WRAP = 4,
    UPY_INTRINSIC_UNARY_POSITIVE = 5,
    UPY_INTRINSIC_LIST_TO_TUPLE = 6,
    UPY_INTRINSIC_TYPEVAR = 7,
    UPY_INTRINSIC_PARAMSPEC = 8,
    UPY_INTRINSIC_TYPEVARTUPLE = 9,
    UPY_INTRINSIC_SUBSCRIPT_GENERIC = 10,
    UPY_INTRINSIC_TYPEALIAS = 11,
    /* Two-operand intrinsics, offset by 100. */
    UPY_INTRINSIC_PREP_RERAISE_STAR = 101,
    UPY_INTRINSIC_TYPEVAR_WITH_BOUND = 102,
    UPY_INTRINSIC_TYPEVAR_WITH_CONSTRAINTS = 103,
    UPY_INTRINSIC_SET_FUNCTION_TYPE_PARAMS = 104,
    UPY_INTRINSIC_SET_TYPEPARAM_DEFAULT = 105,
} upy_intrinsic;

/* N_*.flags */
enum {
    N_INPLACE = 1 << 0,     /* N_BINARY: augmented assignment form */
    N_ONE_SLOT = 1 << 1,    /* N_CALL, N_CALL_EX: no NULL / self slot */
    N_FORMAT_SPEC = 1 << 2, /* N_FORMAT */
    N_CALL_KWARGS = 1 << 3, /* N_CALL_EX */
    N_JUMP_BACK = 1 << 4,   /* N_JUMP: spelled as a backward jump */
    N_ASYNC = 1 << 5,       /* N_BEFORE_WITH, N_FOR_ITER */
    /* N_RETURN of a constant loaded right before it that the version's
     * compiler did not fuse into one instruction with the return though it
     * fuses them in one block (3.12+ RETURN_CONST): the return was a block
     * of its own where the branches of the value met (`return 1 if c else
     * 2`), copied into each.  Never set for versions without the fusion. */
    N_SPLIT_CONST = 1 << 6,
};

typedef struct upy_nin {
    uint16_t op; /* upy_nop */
    uint16_t flags;
    int32_t arg;
    const upy_object *obj;
    int32_t target;         /* instruction index, -1 when not a jump */
    int32_t handler;        /* index of the exception handler's first
                               instruction, -1 when none */
    uint16_t handler_depth; /* stack depth the handler unwinds to */
    uint8_t handler_lasti;  /* the handler gets the raising offset */
    /* Whether the first of the lead_nops below starts the block as a jump
     * target (a join).  (Here, in what would be padding: the fields are
     * ordered so that an instruction takes 48 bytes, not 56.) */
    uint8_t lead_nops_joined;
    uint32_t offset;        /* byte offset of the source instruction */
    int32_t line;           /* -1 when none */
    /* The line of a NOP dropped right before it, on a line after the one
     * before it, -1 when none: the mark of a statement that left no code
     * of its own there (a `return` whose value is loaded after the finally
     * body copied before it). */
    int32_t lead_line;
    /* The NOPs right before it in its block: statements that left no code
     * (a `pass`), see lead_nops() in normalize.c. */
    uint32_t lead_nops;
    /* N_AWAIT, N_YIELD_FROM: the byte offset of the CLEANUP_THROW its
     * yield's exception goes to (3.12+), 0 when none.  The compiler lays
     * those out with the cold code in the order it made them
     * (flowgraph.c push_cold_blocks_to_end): an await in a try's else
     * part has its CLEANUP_THROW before the try's handlers, one after the
     * try after them (await_cleanup_offset in normalize.c). */
    uint32_t throw_offset;
} upy_nin;

/* How a version's compiler lays code out, where recovery must know it:
 * one row per version of normalize.c's rules table. */
typedef struct upy_layout {
    /* 3.12+ lays exception handlers out after all other code
     * (flowgraph.c push_cold_blocks_to_end); before, a handler follows
     * the body of its try. */
    uint8_t cold_handlers;
    /* 3.10+ puts copies of small exit blocks (returns) in place of jumps
     * to them; 3.11 only of blocks without a line number (the implicit
     * return), 3.10 and 3.12+ of written returns too. */
    uint8_t copies_exits;
    uint8_t written_exits_keep_jumps;
    /* 3.12 threads a conditional jump to the end of a loop body (a jump
     * back to the header with no line of its own) into a jump over a copy
     * of it; 3.13 keeps the jump apart, with the line of the test. */
    uint8_t threads_loop_jumps;
    /* 3.13+ replaces a jump to a block without a line that ends in a jump
     * (as the try's way out after its body) by a copy of that block, with
     * the block's handler (try.c). */
    uint8_t copies_jump_blocks;
    /* 3.8-3.9 compile a while loop's test on top only (compile.c
     * compiler_while: the body ends in a jump back to it, not a
     * `continue`, though one written there compiles to the same); 3.10+
     * copy the test to the bottom of the body but where the body ends in
     * a jump. */
    uint8_t while_test_on_top;
    /* 3.8-3.9 keep the jump over an else part after an if body that ends
     * in raise, break or continue, and any code the source wrote after
     * such a statement (recover/structure.c written_dead_code):
     * peephole.c drops the unreachable code after a RETURN_VALUE only.
     * 3.10+ drop it after any. */
    uint8_t keeps_jump_after_exit;
    /* 3.8-3.9 keep the end of an if / else or a try whose every way
     * returns, which nothing reaches (the implicit return, a loop body's
     * jump back): peephole.c drops unreachable code after a RETURN_VALUE
     * in its basic block only; 3.10+ drop every unreachable block
     * (compile.c mark_reachable; recover/deadelse.c). */
    uint8_t keeps_unreachable_ends;
    /* 3.8-3.9 keep a jump to the next instruction: compile.c compiler_if's
     * jump over an else part that compiles to nothing (`else: pass`),
     * which peephole.c leaves; 3.10+ drop it (optimize_cfg).  Elsewhere
     * (3.12's break out of a loop laid out right before the code after
     * the if) such a jump is no else part (recover/deadelse.c). */
    uint8_t keeps_jump_to_next;
    /* 3.10-3.11 keep True in co_consts for every `while True`, one whose
     * loop never ends too (compile.c adds the constant before it folds
     * the test away); 3.12+ do not, and 3.8-3.9 never test a constant
     * (code.c rec_true). */
    uint8_t keeps_while_true_const;
    /* 3.12+ count the instructions of the code object in the size
     * inline_small_exit_blocks / the copy limit checks (structure.c
     * copy_size); 3.11 counts its PRECALL too, which normalizing drops. */
    uint8_t copy_limit_counts_code;
    /* 3.13+ keep co_consts[0] whether or not an instruction loads it
     * (a docstring's slot: compiler_unit's first constant; code.c
     * add_first_const). */
    uint8_t keeps_first_const;
    /* 3.10-3.11 keep a constant no instruction loads but at the end of
     * co_consts (trim_unused_consts; recover/deadconst.c); 3.12+ keep
     * co_consts[0] only. */
    uint8_t keeps_unused_consts;
    /* 3.8-3.10 and 3.12 merge equal code objects among a code's
     * constants (compile.c merge_consts_recursive), and their code
     * equality looks at co_firstlineno but not at columns (codeobject.c
     * code_richcompare): two equal lambdas on one line are one constant
     * (eval.c twin_lambda).  3.11 and 3.13 compare positions too and keep
     * them apart. */
    uint8_t merges_lambdas_on_a_line;
    /* 3.10-3.11 thread a JUMP_IF_FALSE_OR_POP to a JUMP_IF_TRUE_OR_POP
     * (and the reverse) only where both have one line (compile.c
     * optimize_basic_block checks the line; boolexpr.c keeps_inner_link);
     * 3.8-3.9's peephole optimizer always threads, 3.12+ lay and/or out
     * as COPY and POP_JUMP_IF and keep the inner jump. */
    uint8_t threads_jumps_of_one_line;
    /* 3.10 threads the way out of a try body at the end of a loop body
     * (POP_BLOCK; JUMP_FORWARD) through the loop's back jump, which has no
     * line (compile.c compiler_for / compiler_while mark it artificial), to
     * a jump straight to the header (optimize_basic_block's jump-to-jump
     * threading), but keeps the jump of a `continue` written in the try's
     * else part apart, with its line: JUMP_FORWARD to it.  So a try body
     * going straight back to the header has no `else: continue` there
     * (structure.c loop_body; a written one recompiles to the other
     * layout).  3.11+ thread the written one too (either reads the same),
     * 3.8-3.9 lay the body's way out to the loop's own back jump. */
    uint8_t keeps_else_continue_apart;
    /* 3.8-3.10 lay a try's else part out after its handlers (compile.c
     * compiler_try_except: POP_BLOCK; JUMP_FORWARD orelse over them), so
     * code between the body's POP_BLOCK and the handlers is the body's:
     * the unwinding of a `break` written last in it (POP_TOP of the for
     * loop's iterator, the jump or a copy of the exit).  3.11+ put the
     * else part right after the body, where it reads the same. */
    uint8_t else_after_handlers;
    /* 3.13+ drop the first of two stores of one name in a row on one
     * line (flowgraph.c optimize_basic_block: STORE_FAST x; STORE_FAST x
     * becomes POP_TOP; STORE_FAST x); on two lines both stay (eval.c
     * unpack_target). */
    uint8_t drops_repeated_store;
} upy_layout;

/* A code object in neutral form. */
typedef struct upy_ncode {
    const upy_code *code;
    upy_version version;
    upy_nin *ins;
    uint32_t count;
    /* The version's row of normalize.c's rules table. */
    const upy_layout *layout;
} upy_ncode;

/* Change of the stack depth `in` makes along its fall-through edge
 * (taken = 0) or its jump (taken = 1). */
int upy_nin_stack_effect(const upy_nin *in, int taken);

/* No valid code object's stack gets this deep (co_stacksize is far
 * smaller); corrupt opargs are clamped to it. */
#define UPY_MAX_STACK_EFFECT (1 << 24)

/* Whether `in` ends a basic block (a jump of any kind, return, raise). */
int upy_nin_ends_block(const upy_nin *in);

/* Whether control can go on to the next instruction after `in`. */
int upy_nin_falls_through(const upy_nin *in);

/* Whether `in` names an entry of co_names (a global or module-level name,
 * an attribute, an import): the table whose order tells in which order
 * the compiler met them. */
int upy_nin_uses_names(const upy_nin *in);

/* Whether `in` ends a statement (a store, a pop, a way out) or starts a
 * handler's code (PUSH_EXC_INFO, FOR_ITER's exit). */
int upy_nin_ends_statement(const upy_nin *in);

/* The statement instruction i belongs to, as the instructions between two
 * that end a statement: its first is the one after the last end before i
 * (0 when none), its end the first instruction at or after from that ends
 * a statement (code->count when none).  The scans that undo a jump
 * threaded through one statement's tests read that statement only. */
uint32_t upy_ncode_statement_start(const upy_ncode *code, uint32_t i);
uint32_t upy_ncode_statement_end(const upy_ncode *code, uint32_t from);

/* Whether `in` loads the constant None. */
int upy_nin_loads_none(const upy_nin *in);

/* Whether the n instructions at c start with the clearing of the name
 * that ends the body of `except E as x:` (compile.c compiler_try_except):
 * LOAD_CONST None; STORE x; DELETE x. */
int upy_nin_clears_name(const upy_nin *c, size_t n);

/* Sets reached[i] to 1 for each instruction i that a path from the first
 * one reaches (falling through, jumping, or raising to a handler), the
 * others left as they are (0); reached and work hold code->count entries. */
void upy_ncode_mark_reached(const upy_ncode *code, uint8_t *reached,
                            uint32_t *work);

/* Where a jump to instruction t leads at last, through a few jumps. */
int32_t upy_ncode_jump_end(const upy_ncode *code, int32_t t);

/* Whether the test at k can be that of a 3.8-3.9 while loop, which
 * compile.c's compiler_while puts at the top: it goes right after a jump
 * back to a header at or before k, with no statement between that header
 * and k.  (`while c: x()` / `break` and `while True: if c: x()` / `break`
 * compile alike.)  Each instruction walked costs one of *budget; 1 when
 * it runs out. */
int upy_ncode_may_test_while(const upy_ncode *code, uint32_t k,
                             uint64_t *budget);

/* Whether jump j back to header h comes from past the end of the while
 * loop that 3.8-3.9's compile.c compiler_while tests at h: past where its
 * test fails to, right after the loop's own jump back (which has the line
 * of the body's last statement; a `continue` has one of its own).  Such a
 * jump, under the header's handler, is that of a `while True:` loop whose
 * body starts with the inner loop: its test compiles to no code, the outer
 * loop's top is the inner loop's (nltk misc/sort._partition: `while
 * True:` / `while i < r:` / `... break` / `out.append(i)`).  Read as the
 * inner loop's last jump back, it made the inner loop an if, its break
 * lost.  Only a body that
 * breaks (jumps to where the test fails to, or past it, over an else part,
 * before j) tells the inner loop from `while True:` / `if c: x()` / `else:
 * y()`, which compiles alike; without a break both read the same. */
int upy_ncode_past_inner_while(const upy_ncode *code, uint32_t j, uint32_t h);

/* Whether the n instructions at c start with the handler of the body of
 * `except E as x:`: the clearing of the name, then RERAISE. */
int upy_nin_is_name_cleanup(const upy_nin *c, size_t n);

/* Drops each instruction i with dropped[i] set (dropped holds
 * code->count entries) and renumbers the jumps and handlers: one to a
 * dropped instruction goes to the first kept one after it.  Fails only
 * with UNPYC_E_NOMEM. */
unpyc_status upy_ncode_drop(upy_ncode *code, const uint8_t *dropped,
                            upy_arena *arena);

#endif /* UPY_NINS_H */
