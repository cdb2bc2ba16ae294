/*
 * rec.h - internals shared by the files of the recover layer.
 *
 * Recovery of one code object is a walk over its control-flow graph
 * (structure.c) that runs the instructions of each block on a symbolic
 * stack (eval.c).  Stack slots hold expressions, or markers for what the
 * compiler keeps on the stack across statements (a for loop's iterator,
 * the exception of an except clause, a with statement's exit) and for
 * values still being assembled (a NULL before a callable, the self of a
 * method, the slots of a tuple unpacking).  Stores resolve these (store.c)
 * into statements.  Conditional control flow inside one expression (and,
 * or, if-else, chained comparisons) is reduced by boolexpr.c.
 */
#ifndef UPY_REC_H
#define UPY_REC_H

#include <stdint.h>

#include "ast/ast.h"
#include "decode/instr.h"
#include "recover/cfg.h"
#include "recover/recover.h"
#include "util/lookup.h"
#include "util/names.h"
#include "util/status.h"
#include "util/strbuf.h"

/* The structurer recurses (regions in regions, code objects in code
 * objects, a try's rest inside the try).  What bounds that is the C stack
 * it has used, not a count of levels (rec_too_deep): a level takes from a
 * few hundred bytes to a few KiB, and a count low enough for the heaviest
 * (it was 200) stopped 201 try statements in one body.  Past
 * REC_STACK_BUDGET bytes below the first code object's frame the rest of
 * the construct is marked unrecovered.  1 MiB (about 800 trys in one body
 * on x86-64, -O2) leaves most of the usual 8 MiB stack of a main thread or
 * a glibc thread to the caller and the printer.  Expressions in
 * expressions stop at REC_MAX_NESTING levels of nesting.  The operands of
 * an and / or chain are read one after another (boolexpr.c), so chains of
 * thousands of operands take one level; what nests is a group in a group,
 * and deeper than 200 it would print more levels of parentheses than
 * CPython's tokenizer reads. */
#define REC_STACK_BUDGET ((uintptr_t)1 << 20)
#define REC_MAX_NESTING 200

/* co_flags bits the recovery reads. */
#define CO_OPTIMIZED 0x0001
#define CO_VARARGS 0x0004
#define CO_VARKEYWORDS 0x0008
#define CO_GENERATOR 0x0020
#define CO_COROUTINE 0x0080
#define CO_ASYNC_GENERATOR 0x0200
#define CO_FUTURE_ANNOTATIONS 0x1000000

#define REC_NO_ALT (-2)
/* Hidden names of a type parameter scope: .defaults, .kwdefaults,
 * .type_params, .generic_base. */
#define REC_MAX_HIDDEN 4

/* What a stack slot holds. */
typedef enum sv_kind {
    SV_VALUE,       /* an expression */
    SV_NULL,        /* PUSH_NULL, or the NULL a global/attribute load adds */
    SV_SELF,        /* the self a method load pushes after the method */
    SV_ITER,        /* the iterator of a for loop or comprehension */
    SV_EXC,         /* the exception an except clause handles */
    SV_PREV_EXC,    /* the exception PUSH_EXC_INFO saves */
    SV_LASTI,       /* the offset a lasti handler gets */
    SV_WITH_EXIT,   /* the bound __exit__ of a with statement */
    SV_BIND,        /* a value that must be bound to a target: the item of
                       a for loop, the value of `with ... as`, an
                       unpacking slot */
    SV_IMPORT,      /* the module of an import statement */
    SV_BUILD_CLASS, /* __build_class__ */
    SV_FUNCTION,    /* a function (or class) waiting for its name */
    SV_ASSERTION,   /* AssertionError of an assert statement */
    SV_SAVED,       /* 3.12+: a local saved by an inlined comprehension */
    SV_CLASS_ARGS,  /* the argument tuple of a __build_class__ call with **
                       keywords (CALL_FUNCTION_EX): pend the class body's
                       function, expr the tuple of name and bases */
} sv_kind;

typedef struct pending pending;
typedef struct order_evidence order_evidence;

typedef struct sval {
    uint8_t kind;    /* sv_kind */
    uint8_t inplace; /* SV_VALUE: an N_INPLACE binary operation */
    uint8_t kept;    /* SV_VALUE: an argument kept across statements under
                        its own name (see spill.c) */
    uint32_t id;     /* push order, for the order of multi-target stores */
    uint32_t slot;   /* SV_BIND of an unpacking: its slot */
    upy_expr *expr;
    pending *pend; /* SV_BIND, SV_IMPORT, SV_FUNCTION, and values awaiting
                      more targets */
} sval;

/* Targets being bound.  A tuple unpacking is a pending with one slot per
 * element; nested unpackings point at their parent slot. */
typedef enum pending_kind {
    P_TARGET,  /* one target for a value bound by a construct (for item,
                  with value, except name, comprehension variable) */
    P_UNPACK,  /* slots of UNPACK_SEQUENCE / UNPACK_EX */
    P_CHAIN,   /* a value stored to several targets: a = b = v, walrus */
    P_IMPORT,  /* an import statement under way */
    P_DEF,     /* a def or class statement under way */
    P_GENERIC, /* 3.12+: the function of a generic def, class or type
                  alias's type parameter scope (value: its code constant),
                  waiting for its call */
} pending_kind;

struct pending {
    uint8_t kind;
    uint8_t complete;
    uint8_t crossed; /* P_DEF, P_IMPORT: a statement came while it waited
                        on the stack (spill.c) */
    uint32_t n, filled; /* P_UNPACK slots */
    int32_t star;       /* P_UNPACK: index of the starred slot, or -1 */
    upy_expr **elts;    /* P_UNPACK: the targets, by slot */
    pending *parent;    /* P_UNPACK nested in another: its slot */
    uint32_t parent_slot;
    upy_expr *result;    /* the complete target expression */
    upy_expr *value;     /* P_CHAIN: the value; P_DEF of a class body or
                            comprehension: the code constant */
    sval orig;           /* P_UNPACK of a value: the slot it popped, stored
                            to once the tuple target is complete */
    upy_ptr_vec targets; /* P_CHAIN: targets so far */
    upy_stmt *stmt;      /* P_IMPORT: the statement; P_DEF: the def or
                            class */
};

/* One store of a multiple assignment whose stores the compiler reordered:
 * its target and the value it took. */
typedef struct multi_store {
    upy_expr *target;
    upy_expr *value;
    uint32_t id;
} multi_store;

/* A value that waited on the stack when a store was held back as part of
 * a multiple assignment. */
typedef struct held_value {
    upy_expr *expr;
    pending *chain; /* the stores it waits for (a walrus), or NULL */
    uint32_t id;
} held_value;

/* Where control goes on in the middle of a block: the block, and the
 * instruction in it.  For an expression, where its value is complete;
 * block is UPY_NO_BLOCK where nothing follows (the expression could not be
 * recovered). */
typedef struct rec_resume {
    int32_t block;
    uint32_t at;
} rec_resume;

/* The structuring context of a region: which blocks it spans, where it
 * ends and what a jump to the enclosing loop's targets means. */
typedef struct region {
    int32_t start, end; /* its blocks, [start, end) in code order */
    int32_t follow;     /* the block after the region, or UPY_NO_BLOCK */
    int32_t brk;        /* break target of the innermost loop */
    int32_t cont;       /* continue target of the innermost loop */
    int32_t loop;       /* header of the innermost loop */
    int32_t handler;    /* handler block of the region's own blocks */
    /* A jump here is a break too: the innermost loop ends the region it is
     * in, and the compiler threaded the jumps of its breaks to where that
     * region goes on (an enclosing loop's header, an if's join).
     * UPY_NO_BLOCK when there is none. */
    int32_t brk_threaded;
    /* Blocks with this handler belong to the region too: the way out of
     * an except clause runs under the try's own handler.  REC_NO_ALT when
     * there is none. */
    int32_t alt_handler;
    /* Running off the region's end goes back to that loop's header: the
     * region is the rest of the loop's body. */
    int falls_to_loop;
    /* The innermost loop, a `while True:`, has no exit after it: only
     * breaks leave it, and the compiler moved the code after it in place
     * of the break (copied a small exit into its one way in). */
    int brk_moved;
    /* Where the innermost `while True:` (brk_moved) goes on: the code
     * after it, found in place of one of its breaks (block UPY_NO_BLOCK
     * until found).  The loop owns it and prints that code after itself;
     * the walks of its body write it.  Outside such a loop, a slot of the
     * code object's that nothing reads. */
    rec_resume *moved_exit;
    uint32_t base; /* stack depth at statement boundaries */
    /* Blocks from here to `end` unwind a `return value` of a try body
     * (try.c): copies of exits, then the RETURN; they belong to the region
     * whatever handler protects them.  0 when there are none (the entry
     * block never is one). */
    int32_t unwind_from;
    /* And the end of the body they belong to: blocks from there on (the
     * clauses of a try in the body, which 3.12+ lays out after it) are
     * not among them. */
    int32_t unwind_end;
    /* In a finally body in its handler: the RERAISE 0 that ends it, or,
     * where the body never runs off its end, its cleanup (COPY 3) after
     * it.  A branch that ends the body early ends in a copy of the RERAISE
     * (the compiler copies that small exit block).  0 when there is none
     * (not a finally body). */
    uint32_t finally_end;
    /* The breaks of the innermost loop end that finally body: each is a
     * copy of its RERAISE, and the loop's else part runs to brk. */
    int brk_ends_finally;
    /* And the block that body starts at, its handler's entry: a loop
     * from there on is in the finally body. */
    int32_t finally_start;
    /* In an except clause `as name`: the name whose cleanup (name = None;
     * del name) the compiler adds on each way out. */
    const char *except_name;
} region;

/* A condition as rec_condition() collapses it: the test, where control
 * goes when it holds and when not, and the blocks of its network. */
typedef struct rec_cond {
    upy_expr *test;
    /* not test, written so that it makes the same code (see polar in
     * boolexpr.c): use it, not rec_negate(test), to turn a condition
     * around. */
    upy_expr *negated;
    /* negated keeps the code of the tests where test does not: test turns
     * an `in` / `is` leaf around that negated leaves as it is.  Where a
     * statement can be written either way (`if test: rest` or `if negated:
     * continue`), negated is the one to write. */
    int prefer_negated;
    /* The other way round: test keeps the code where negated does not. */
    int prefer_test;
    int32_t on_true, on_false;
    int32_t first, last;
    uint32_t start; /* the instruction where the test's code starts */
    /* A test that is one chained comparison: the cleanup block that pops
     * its middle operand when a link fails, and where its last link's
     * failing jump goes as laid out; UPY_NO_BLOCK for other tests. */
    int32_t chain_cleanup, chain_fail;
} rec_cond;

/* The instructions using each entry of a table: at[start[e]] up to
 * at[start[e + 1]]. */
typedef struct table_uses {
    uint32_t *start, *at;
} table_uses;

/* Instructions [from, to). */
typedef struct code_span {
    uint32_t from, to;
} code_span;

/* An instruction and its line (rec.by_line). */
typedef struct line_at {
    int32_t line;
    uint32_t at;
} line_at;

typedef struct rec {
    upy_arena *arena;
    /* What recovery needs only while this code object is recovered (its
     * indexes), released with its decoded form: nothing of the tree
     * points into it. */
    upy_arena *scratch;
    unpyc_error *err;
    const upy_recover_options *options;
    /* The code this one is nested in, while it is recovered (NULL for the
     * outermost): the scopes a nested name may resolve to. */
    const struct rec *parent;
    upy_version version;
    const upy_code *code;
    /* The decoded instructions live only while the code is normalized
     * (recover_in: 48 B per instruction, held by every code object open at
     * once); decoded again here, once, for the first unrecovered region's
     * disassembly or a LOAD_FAST_CHECK (reads_unbound_local; instrs NULL
     * until then).  What recovery needs of them
     * is kept in const_loads (rec_note_const_loads). */
    upy_decoded decoded;
    uint32_t *const_loads;
    upy_ncode ncode;
    upy_cfg cfg;
    const upy_object *none_object;
    const char *class_name; /* for names mangled in a class body */
    int is_class_body;
    int is_module;
    /* The code object of a comprehension (before 3.12 all of them): its
     * own result is an accumulator under the loop's iterator. */
    int is_comprehension;
    /* The symbolic stack; `base` is its depth at statement boundaries in
     * the region being structured. */
    sval *stack;
    uint32_t sp, cap, base;
    uint32_t next_id;
    /* Stores of a multiple assignment not yet complete. */
    struct {
        uint32_t len;
    } multi;
    multi_store *multi_items;
    uint32_t multi_cap;
    /* The values waiting under those stores (spill.c), and the newest
     * of them (by push order). */
    struct {
        held_value *items;
        uint32_t len;
    } held;
    uint32_t held_cap, held_newest;
    /* 3.12+: the code is the scope of a generic def, class or type
     * alias's type parameters (typeparams.c).  Its hidden names
     * (.defaults, .kwdefaults: the def's defaults it is called with;
     * .type_params, .generic_base) hold values, not source names. */
    int is_generic;
    /* The code is a lazily evaluated value (CODE_LAZY in code.c). */
    int is_lazy;
    struct {
        const char *name;
        upy_expr *value;
    } hidden[REC_MAX_HIDDEN];
    uint32_t n_hidden;
    /* A generic class's .generic_base (its last base, which the source
     * does not write) and the type parameters it subscripts. */
    const upy_expr *generic_base;
    upy_expr_list generic_params;
    /* The name an assert's AssertionError prints as. */
    upy_expr *assertion_name;
    /* Blocks already turned into statements (each block at most once),
     * and instructions to pass over (copies of code recovered once). */
    uint8_t *done;
    uint8_t *skip;
    /* Instructions rec_eval ran, to check that no effect of the code is
     * left out of the output. */
    uint8_t *evaluated;
    /* Instructions with no effect of their own that the output may not
     * leave out all the same (checked as effects are): the returns of a
     * copy of a finally body on a way out this cannot read yet (see
     * structure.c skip_returning_copy). */
    uint8_t *must_place;
    /* Where the walk goes on in the middle of a block (after a with
     * target's stores, at the join of an expression). */
    int32_t resume_block;
    uint32_t resume_at;
    /* The first instruction of the statement being evaluated. */
    uint32_t stmt_start;
    /* The instruction rec_eval is evaluating. */
    uint32_t eval_at;
    /* Code objects are decompiled recursively; depth bounds it. */
    int depth;
    unsigned unrecovered;
    /* The statements made to mark lost code (u.unrecovered.lost). */
    unsigned lost_marks;
    /* Values the stack did not hold, printed as `...`; those before
     * `placeholders_marked` have their comment. */
    unsigned placeholders, placeholders_marked;
    int failed; /* a hard error (memory) is recorded in err */
    /* Depth of the structurer's own recursion (regions in regions,
     * expressions in expressions: REC_MAX_NESTING bounds the latter),
     * and where the stack stood at the first code object's recovery:
     * rec_too_deep bounds the recursion so that no input can exhaust the
     * C stack. */
    int nesting;
    uintptr_t stack_base;
    /* Instructions match.c may still simulate reading patterns, in this
     * whole code object. */
    uint64_t match_steps;
    /* Whether the code has a conditional jump (N_POP_JUMP_IF): a match
     * statement's cases test with one, and without any rec_match_starts
     * need read nothing. */
    uint8_t has_pop_jump_if;
    /* match.c: for each instruction i, whether a conditional jump
     * followed by a POP_TOP (a guard's end) comes at or after i before
     * any return, raise or jump back (index_guard_ends); NULL until first
     * needed. */
    uint8_t *guard_end_ahead;
    /* Temporaries spill.c made so far, and whether its comment is out. */
    unsigned spills;
    uint8_t kept_noted;
    /* spill.c: for each argument, whether it names one object for the
     * whole call (no store, delete or cell); NULL until first needed. */
    uint8_t *stable_args;
    /* try.c: for each block, whether the entry reaches it without an
     * exception (1) or only through a handler (2); found once per code
     * object, before the walk (rec_normal_reach). */
    uint8_t *normal_reach;
    /* code.c: the names instructions give (variables: loads, stores,
     * deletes and closure references; used: any string operand but a
     * constant's), so that asking after each entry of a name table costs
     * a look-up, not a scan of the code. */
    upy_name_set variable_names, used_names;
    /* code.c: for each entry of co_names, whether used_names holds it, and
     * where the entries none uses at its end start: the dead-code passes
     * ask both of co_names again and again (four walks from its end per
     * code object), found once. */
    uint8_t *name_used;
    uint32_t used_names_end;
    /* code.c: co_names (0) and co_consts (1) by address, each object with
     * its first index (rec_entry_index). */
    upy_index_map entries[2];
    /* code.c: rec_table_entry of each instruction for each table, found
     * once (the order checks ask it of every instruction, once per
     * statement they judge); NULL while being found. */
    int32_t *table_entries[2];
    /* stack.c rec_const: for each co_consts slot, whether an expression
     * made it (a test recovered from an unused constant too: deadconst.c
     * numbers only the others); NULL before the tables are indexed. */
    uint8_t *const_shown;
    /* deadconst.c rec_dropped_test: for each co_consts slot, the
     * instruction of the first statement whose dropped test the output
     * writes as that constant (`while True:`, `assert 0`), which numbers
     * it there; UINT32_MAX for none; NULL before the tables are indexed. */
    uint32_t *const_tested_at;
    /* structure.c: for each block h, the blocks whose handler chain
     * reaches h (under()), ascending: under_blocks[under_start[h]] up to
     * under_blocks[under_start[h + 1]]; NULL until first needed. */
    uint32_t *under_start;
    int32_t *under_blocks;
    /* tidy.c: the instructions that use each entry of co_names (0) and
     * co_consts (1), ascending (index_entry_uses); NULL until first
     * needed. */
    table_uses uses_of[2];
    /* tidy.c: the loads of None (its co_consts slot none_slot, past the
     * docstring's), ascending, and the instructions ascending by line,
     * then place (index_none_loads, index_lines); NULL until first
     * needed. */
    uint32_t *none_loads, n_none_loads;
    int32_t none_slot;
    line_at *by_line;
    /* tidy.c: the copies of the tail [copies_t0, copies_t1) on its lines,
     * ascending and disjoint (copies_of), kept for the next if asking
     * about the same tail (every if of an elif chain does); room for as
     * many as the code has instructions; NULL until first needed. */
    code_span *copies;
    uint32_t n_copies, copies_t0, copies_t1;
    uint8_t *in_copy; /* whether each instruction is in one of them */
    /* structure.c: for each block, the last block before it with the same
     * code (alike_before) and the last block of all with it (alike_last),
     * by a hash of what rec_same_code compares, -1 for none; the first
     * handler block at each block or after it (next_handler, count for
     * none); NULL until first needed (copied_join: every if of an elif
     * chain looked for the copies of its return over the rest of the
     * chain). */
    int32_t *alike_before, *alike_last;
    uint32_t *next_handler;
    /* try.c: the instructions using an entry of co_names (0), of
     * co_consts (1), and the loads of None a return follows (2), ascending
     * (index_order_users); NULL until first needed. */
    uint32_t *order_users[3];
    uint32_t n_order_users[3];
    /* try.c: the tables else_by_order fills for each try (order_tables);
     * NULL until first needed. */
    order_evidence *order_evidence;
    /* try.c: the unconditional jumps (N_JUMP) to each instruction t,
     * ascending: jumps_to[jumps_to_start[t]] up to
     * jumps_to[jumps_to_start[t + 1]] (index_jumps); NULL until first
     * needed. */
    uint32_t *jumps_to_start, *jumps_to;
    /* try.c: trees of the least key under each node over the
     * instructions, the keys being the start of the handler (0) and the
     * throw_offset (1), each UINT32_MAX where none, leaves at [key_leaves,
     * 2 * key_leaves) (index_key_trees; NULL for a kind no instruction
     * has); key_leaves 0 until first needed. */
    uint32_t *key_tree[2];
    uint32_t key_leaves;
    /* try.c: the blocks in the order the walk of the dominator tree
     * enters them (upy_block.dom_enter; UPY_NO_BLOCK at the clock ticks
     * that leave one), so that the blocks a handler dominates are a range
     * (index_dom_walk); NULL until first needed. */
    int32_t *by_dom_enter;
    /* eval.c twin_lambda: for each co_consts slot of a code object (its
     * first), whether another code constant is alike it, and the
     * instruction of its second load (UINT32_MAX: none); NULL until
     * first needed. */
    uint8_t *lambda_twins;
    uint32_t *second_load;
    /* What rec_value gives when memory ran out: never printed, the
     * recovery fails then. */
    upy_expr no_memory;
} rec;

/* Instruction i and block b of the code being recovered: the accessors
 * every file of the layer reads the graph with. */
static inline const upy_nin *ins(const rec *r, uint32_t i) {
    return &r->ncode.ins[i];
}

static inline const upy_block *blk(const rec *r, int32_t b) {
    return &r->cfg.blocks[b];
}

/* region.c: shape questions the rules share. */
/* Whether block b ends in POP_TOP; JUMP: how a break leaves a for loop,
 * dropping its iterator first (on its own, after an except clause's
 * POP_EXCEPT, after copies of the finally bodies it leaves). */
int rec_pops_and_jumps(const rec *r, const upy_block *b);
/* Whether block b is the one instruction op: a lone jump (the jump of a
 * break, a continue, or the way over an else part, where the code before
 * it ended a block of its own), a lone return (what a return in a try
 * body runs into once it left the handler's range). */
int rec_is_lone(const rec *r, const upy_block *b, upy_nop op);
/* The most instructions of a small exit block CPython copies into each
 * jump to it (flowgraph.c MAX_COPY_SIZE; rec_copy_size measures). */
enum { MAX_COPY_SIZE = 4 };
/* Whether blocks a and b are one block, or copies of one small block
 * that leaves the function, a return or a raise (an assert's): CPython
 * copies such a block into each jump to it (inline_small_exit_blocks;
 * 3.12+ into the failing end of a chained comparison too), so two ways to
 * one exit end in equal blocks. */
int rec_copies_of_exit(const rec *r, int32_t a, int32_t b);
/* Whether instruction i of block b has the line of the code that runs
 * or jumps into b: 3.10 / 3.11 give an exit with no line (the implicit
 * `return None`, and the way out of a clause it is inlined into) the line
 * of the jump or the code before it (compile.c propagate_line_numbers,
 * duplicate_exits_without_lineno), where a written return has a line of
 * its own. */
int rec_has_line_of_a_pred(const rec *r, int32_t b, uint32_t i);
/* Whether block b's handler chain reaches handler h: b's handler, that
 * handler's own (its cleanup), and so on out.  (At most 64 steps, a
 * guard: CPython's limit on nested blocks, CO_MAXBLOCKS, keeps real
 * chains shorter.) */
int rec_under(const rec *r, int32_t b, int32_t h);
/* Whether instructions i, i + 1, i + 2 clear `name` (upy_nin_clears_name):
 * the end of `except E as name` on every way out of the clause. */
int rec_is_name_cleanup(const rec *r, uint32_t i, const char *name);
/* Whether instructions i, i + 1, i + 2 clear the name stored at i + 1,
 * whichever it is: the end of a named clause whose name the caller does
 * not hold (a clause in a clause, or one met before its region is read). */
int rec_clears_a_name(const rec *r, uint32_t i);

/* stack.c */
int rec_push(rec *r, sv_kind kind, upy_expr *expr);
int rec_push_sval(rec *r, sval v);
/* Pops a slot; on an empty stack (only possible in corrupt code) returns
 * a VALUE of `...` and counts the region as unrecovered. */
sval rec_pop(rec *r);
sval *rec_peek(rec *r, uint32_t depth_from_top); /* 1 = top, NULL if none */
upy_expr *rec_value(rec *r, sval v); /* the expression of a slot, never NULL */
upy_expr *rec_placeholder(rec *r);
upy_expr *rec_name(rec *r, const char *name);
upy_expr *rec_const(rec *r, const upy_object *obj);
/* Takes back what rec_const(r, e's constant) said: the output no longer
 * shows e (it was replaced). */
void rec_unshow_const(rec *r, const upy_expr *e);
upy_expr *rec_const_false(rec *r);
/* Whether the recursion must stop here (see REC_STACK_BUDGET).  (The
 * address of a local says where the stack stands; the stack may grow
 * either way.) */
static inline int rec_too_deep(const rec *r) {
    char here;
    uintptr_t at = (uintptr_t)&here;
    uintptr_t used = at < r->stack_base ? r->stack_base - at
                                        : at - r->stack_base;
    return used > REC_STACK_BUDGET;
}

const char *rec_str(const upy_object *o);
/* The first index of o in co_names (table 0) or co_consts (1), or -1. */
int32_t rec_entry_index(const rec *r, int table, const upy_object *o);
int rec_is_const_none(const upy_expr *e);
/* Pushes a function made (SV_FUNCTION) that waits for its call or its name:
 * a pending of `kind` holding the statement under way (a def, class or
 * type alias) or the code constant (stmt NULL). */
int rec_push_function(rec *r, pending_kind kind, upy_stmt *stmt,
                      upy_expr *value);
upy_stmt *rec_stmt(rec *r, upy_stmt_kind kind);
/* The statement's code starts at instruction `start`. */
void rec_set_start(const rec *r, upy_stmt *s, uint32_t start);
int rec_emit(rec *r, upy_ptr_vec *out, upy_stmt *s);
/* rec_emit of each statement of `stmts`, in order (a try's rest, emitted
 * again after the try). */
int rec_emit_all(rec *r, upy_ptr_vec *out, const upy_ptr_vec *stmts);
int rec_oom(rec *r);
/* Emits the instructions [from, to) as an unrecovered region. */
void rec_unrecovered(rec *r, upy_ptr_vec *out, uint32_t from, uint32_t to,
                     const char *why);
/* Gives up on the rest of region rg from block b (unrecovered). */
int rec_fail_region(rec *r, int32_t b, const region *rg, upy_ptr_vec *out);
upy_expr *rec_true(rec *r, uint32_t from);

/* eval.c: runs one non-control instruction: SUCCESS, ERROR, or NOT_THIS
 * when the instruction is control flow for the structurer. */
int rec_eval(rec *r, uint32_t i, upy_ptr_vec *out);

/* store.c */
int rec_store(rec *r, upy_expr *target, sval v, int swappable,
              upy_ptr_vec *out);
int rec_unpack(rec *r, const upy_nin *in, sval v, upy_ptr_vec *out);
int rec_finish_chain(rec *r, sval v, upy_ptr_vec *out);
upy_expr *rec_chain_as_walrus(rec *r, pending *p);
/* The target a binding pending has collected, or NULL when incomplete. */
upy_expr *rec_bound_target(pending *p);
pending *rec_new_target(rec *r);
/* Flushes statement values still on the stack above `base` as
 * expression statements (only in corrupt or unusual code). */
int rec_flush(rec *r, uint32_t base, upy_ptr_vec *out);

/* spill.c: values left on the stack across statements (code not made
 * by CPython's compiler). */
/* Marks e as duplicated by COPY (names and constants need no mark). */
void rec_note_copy(upy_expr *e);
/* Assigns the plain values waiting in the stack slots [r->base, top) to
 * temporaries, before a statement is emitted; held-back stores are
 * statements of their own then, in their place among them. */
int rec_spill(rec *r, uint32_t top, upy_ptr_vec *out);
/* Whether the statement is a del of locals, each bound just before it,
 * that no value waiting on the stack reads or binds: deleting a local has
 * no effect of its own and the values do not see it, so they may wait on
 * past it and be written where they are used (`del tmp_1` then
 * `graph_out_0 = f(x)`, not `__stack2 = f(x)`, `del tmp_1`, `graph_out_0
 * = __stack2`); then the source says it keeps the bytecode's effects,
 * not its order.  1 when so, 0 when not, ERROR on error. */
int rec_del_passes_waiting(rec *r, const upy_stmt *s, upy_ptr_vec *out);
/* Notes the values waiting under a store held back as one pair of a
 * multiple assignment: if it is none, they ran before it. */
int rec_hold_store(rec *r);
/* Whether e reads an argument no instruction stores or deletes (and no
 * cell): bound to one object for the whole call; ERROR when out of memory. */
int rec_is_stable_arg(rec *r, const upy_expr *e);
/* Whether e is a temporary rec_spill made. */
int rec_is_spilled(const upy_expr *e);
/* Whether v was kept across a statement: a temporary, or an argument
 * left under its own name. */
int rec_kept_across(const sval *v);
/* Whether a slot in [from, to) of the stack was kept across a statement. */
int rec_spilled_below(const rec *r, uint32_t from, uint32_t to);
/* `target.method(arg)` as a statement: LIST_EXTEND and the like on an
 * object that is no display being built (a copied or spilled one). */
int rec_mutate_copy(rec *r, sval *target, const char *method, upy_expr *arg,
                    upy_ptr_vec *out);

/* boolexpr.c: reduces the conditional control flow of one expression
 * starting with the conditional jump ending block b; the value is left on
 * the stack, *resume is where it goes on. */
int rec_cond_expr(rec *r, int32_t b, const region *rg, rec_resume *resume,
                  upy_ptr_vec *out);
/* Collapses the network of condition blocks starting with the conditional
 * jump ending block b (its value on the stack) into one test. */
int rec_condition(rec *r, int32_t b, const region *rg, rec_cond *c,
                  upy_ptr_vec *out);

/* A test whose code runs through control flow of its own value: the
 * loops of comprehensions 3.12+ inlined in it (`c and [x for x in y]` in
 * a condition), `x or y` / `x and y` values (`c or (x or 0) >= 1`) and
 * conditional expressions (`c or f(x if d else y)`), each one value.  The
 * blocks from t on compute one value with no statement and the last ends in a
 * POP_JUMP_IF on it: that last block, else UPY_NO_BLOCK (also for a test of one
 * block, rec_is_test_block's, and where a block inside is reached from outside
 * the test). */
int32_t rec_flow_test_last(const rec *r, int32_t t);
upy_expr *rec_negate(rec *r, upy_expr *e);
/* Whether block b only computes one value, with no statements, and ends
 * with a POP_JUMP_IF on it. */
int rec_is_test_block(const rec *r, int32_t b);

/* structure.c */
/* Region rg narrowed to the blocks [start, end), followed by `follow`. */
region rec_sub_region(const region *rg, int32_t start, int32_t end,
                      int32_t follow);
/* Structures region rg from block entry into out; *exit (when exit is not
 * NULL) is where control left the region: the block it went to, or
 * UPY_NO_BLOCK after a return, raise, break or continue. */
int rec_region(rec *r, int32_t entry, const region *rg, upy_ptr_vec *out,
               int32_t *exit);
/* The body of a loop, region body_rg, that starts with an inner `while
 * True:` sharing its header and ending at block inner_end: that loop,
 * then the rest of the body from where its breaks go; *exit (exit not
 * NULL) as rec_region gives it. */
int rec_inner_while_true(rec *r, int32_t header, int32_t inner_end,
                         const region *body_rg, upy_ptr_vec *body,
                         int32_t *exit);
/* 3.12+: block b, run up to the FOR_ITER that ends it, loops a
 * comprehension inlined into an expression with control flow around it
 * (`[x for x in y] if c else d`, an operand of `and`): the loop becomes
 * the comprehension, in place of its accumulator on the stack, and *next
 * is where the expression goes on (the END_FOR after it).  NOT_THIS
 * when the stack holds no inlined comprehension there. */
int rec_inlined_loop(rec *r, int32_t b, const region *rg, int32_t *next,
                     upy_ptr_vec *out);
/* Runs the non-control instructions of [from, to); stops early (returning
 * the index reached) at an instruction the caller must handle. */
int rec_run(rec *r, uint32_t from, uint32_t to, const region *rg,
            upy_ptr_vec *out);
int rec_assert(rec *r, const rec_cond *c, const region *rg, int32_t *next,
               upy_ptr_vec *out);
int rec_same_code(const rec *r, uint32_t a, uint32_t b, uint32_t n);
int32_t rec_first_handler_from(rec *r, int32_t b, int32_t end);
/* The size of [from, to) as the compiler's limit on the blocks it copies
 * (flowgraph.c inline_small_exit_blocks) counts it. */
uint32_t rec_copy_size(const rec *r, uint32_t from, uint32_t to);
int rec_same_lines(const rec *r, uint32_t a, uint32_t b, uint32_t n);
/* When the instructions from start up to a loop header are the test of a
 * while loop (copied at the bottom of its body): that header, else
 * UPY_NO_BLOCK. */
int32_t rec_while_test_at(const rec *r, uint32_t start);
/* The co_names (0) or co_consts (1) entry instruction i refers to. */
int32_t rec_table_entry(const rec *r, uint32_t i, int table);
/* Whether block b is the way out of a constant's `return` the compiler
 * wrote after copies of the exits it leaves (finally bodies, with exits):
 * the copies, then LOAD_CONST; RETURN.  The NOP of the return's line
 * before the copies marks it (the implicit return at the end of a
 * function, copied after the normal way out of a try, has none).  The
 * copies are not protected by the statement's handler, yet the block
 * belongs to its body. */
int rec_is_copied_return(const rec *r, int32_t b);
/* Whether block b holds only copies of exits (marked skipped), and maybe
 * the RETURN they unwind for: the way out of a `return value` in a try
 * body, which the protected range leaves out. */
int rec_is_unwinding(const rec *r, int32_t b);
/* The cleanup of the finally body in its handler that ends at `end`
 * (region.finally_end): the handler of its RERAISE, or `end` itself where
 * the body never runs off its end.  The copies of the RERAISE that
 * branches ending the body early end in run under it. */
int32_t rec_finally_cleanup(const rec *r, uint32_t end);
/* Whether instruction i of a finally body ending at `end` (its RERAISE,
 * or its cleanup where it never runs off its end: rec_finally_cleanup)
 * ends a branch that ends the body early: a RERAISE of its own, a copy of
 * that at the end (the compiler copies that small exit block).  `end` 0
 * is no finally body (region.finally_end outside one): no. */
int rec_ends_finally_early(const rec *r, uint32_t i, uint32_t end);
/* Whether block b ends in the jump back to the header of a loop in the
 * blocks [from, b]: the end of the body of a loop in a copy of a finally
 * body, whose exit (the header's) goes on after it. */
int rec_loops_back_within(const rec *r, int32_t b, int32_t from);
/* Where the blocks from b on that are handlers claimed already after a
 * lone RETURN (done: the handlers of a try in the copy of a finally body
 * before that return, see rec_skip_copy) end, b when block b is no such
 * handler. */
int32_t rec_past_claimed_handlers(const rec *r, int32_t b);
/* The end (exclusive, in code order) of the blocks from b on protected by
 * handler h, directly or through handlers nested in it. */
int32_t rec_protected_end(const rec *r, int32_t b, int32_t h, const region *rg);
void rec_skip_range(rec *r, uint32_t start, uint32_t n);
/* Marks the copy [at, at + n) of the code at orig skipped, and the
 * handlers of a try in it done: ERROR when out of memory. */
int rec_skip_copy(rec *r, uint32_t at, uint32_t orig, uint32_t n);
int rec_skip_finally(rec *r, int32_t start, int32_t end, int32_t from,
                     int32_t h, uint32_t fstart, uint32_t flen);
/* try.c: whether the finally body [first, first + n) in its handler
 * returns a constant in a branch (it pops the exception first, which its
 * copies on the ways out of the try do not: see
 * rec_returning_finally_copy). */
int rec_finally_returns(const rec *r, uint32_t first, uint32_t n);
/* try.c: whether the code at `at` is a copy, run with no exception, of
 * the finally body [first, first + *n) that returns in a branch; sets *n
 * to the copy's length.  ERROR when out of memory. */
int rec_returning_finally_copy(rec *r, uint32_t at, uint32_t first,
                               uint32_t *n);

/* structure.c: where the code at instruction i goes on, past the jumps it
 * starts with. */
uint32_t rec_jumped_to(const rec *r, uint32_t i);

/* try.c: the try statement whose handler is h, starting at block b. */
int rec_try(rec *r, int32_t b, int32_t h, const region *rg, int32_t *next,
            upy_ptr_vec *out);

/* match.c: whether a match statement (its subject on the stack) starts at
 * instruction i; the statement, structured. */
int rec_match_starts(rec *r, uint32_t i);
int rec_match(rec *r, int32_t b, uint32_t i, const region *rg, int32_t *next,
              upy_ptr_vec *out);

/* deadconst.c: numbers again, each with an `if c: pass`, the constants
 * of co_consts that no instruction loads and no expression shows, in
 * the body from `lead` on; `doc_slot`: co_consts[0] is the docstring's
 * slot (a function's). */
int rec_add_dead_consts(rec *r, upy_stmt_list *body, uint32_t lead,
                        int doc_slot);
/* The bounds of dead code that numbers entries [from, to) of a table
 * (co_consts, co_names), given the first neutral instruction numbering
 * each of its n entries (UINT32_MAX: none): *lo, the last of those of the
 * entries before; *hi, the first of those of the entries after
 * (UINT32_MAX: no bound). */
void rec_dead_bounds(const uint32_t *first, uint32_t n, uint32_t from,
                     uint32_t to, uint32_t *lo, uint32_t *hi);
/* Where dead code whose numbering goes after instruction lo (UINT32_MAX:
 * anywhere) and by hi goes among the statements of body from `lead` on,
 * nested ones included: before *at in *list, the first statement there
 * starting after lo, by hi, or at the end of a list whose last statement
 * (a raise or a return) holds lo and ends before hi; *start, the
 * instruction its code would start at.  0 when there is none. */
int rec_dead_place(const rec *r, upy_stmt_list *body, uint32_t lead,
                   uint32_t lo, uint32_t hi, upy_stmt_list **list,
                   uint32_t *at, uint32_t *start);
int rec_insert_stmt(rec *r, upy_stmt_list *list, uint32_t at, upy_stmt *s);
/* For each co_consts slot, the first neutral instruction whose code loads
 * it (any opcode that names a constant), or UINT32_MAX: a copy the caller
 * may change; NULL when out of memory. */
uint32_t *rec_first_const_loads(rec *r);
/* Finds what rec_first_const_loads copies (r->const_loads) in two steps:
 * from the decoded form dec of the code object, the byte offset of each
 * constant's first load (ERROR when out of memory), and once r->ncode is
 * made, the neutral instruction at each. */
int rec_note_const_loads(rec *r, const upy_decoded *dec);
void rec_index_const_loads(rec *r);
/* code.c: for each co_names entry, the first neutral instruction numbering
 * it, or UINT32_MAX. */
uint32_t *rec_first_name_uses(rec *r);
/* Whether o is a constant the source may write that is false. */
int rec_false_literal(const upy_object *o);
/* code.c: whether the code sets up __annotations__ (SETUP_ANNOTATIONS: a
 * module or class body with an annotated assignment). */
int rec_sets_up_annotations(const rec *r);
/* Whether the statements cannot fall off their end: they end in a return
 * or raise, or in an if or try every way through which does. */
int rec_always_leaves(const upy_stmt_list *body);
/* The test of an `assert` that always fails at instruction `at` (the
 * compiler drops the test, keeping its constant numbered): the false
 * constant no instruction loads in the slot the code's order leaves for
 * it, else False.  NULL when out of memory. */
upy_expr *rec_failing_assert_test(rec *r, uint32_t at);
/* The constant c written as the dropped test of a statement starting at
 * instruction `at` (see const_tested_at); NULL when out of memory. */
upy_expr *rec_dropped_test(rec *r, const upy_object *c, uint32_t at);
/* The constant that `fits` and whose slot the code's order leaves to a
 * statement starting at instruction `at` (the constants numbered before
 * it first loaded before `at`, those after it from `at` on): the test the
 * compiler dropped of `assert 0` or `while 1`.  One no instruction loads
 * (not yet shown) first, else one first loaded from `at` on (`assert 0`
 * and `offset < 0` after it), else (numbered_before) one loaded before,
 * which numbers nothing anew.  NULL when there is none. */
const upy_object *rec_dropped_const_at(const rec *r, uint32_t at,
                                       int (*fits)(const upy_object *),
                                       int numbered_before);

/* code.c: nested code objects (def, lambda, class body, comprehension)
 * and the pieces of a def that live outside its code object. */
upy_stmt_list rec_nested_body(rec *r, const upy_code *co, int *ok);
/* rec_nested_body for the body of a def or class statement, which only
 * the printer reads: printed ahead when the options say so. */
upy_stmt_list rec_def_body(rec *r, const upy_code *co, int *ok);
upy_expr *rec_lambda_body(rec *r, const upy_code *co);
/* Whether co is the code of a comprehension or generator expression. */
int rec_is_comprehension_code(const upy_code *co);
upy_expr *rec_comprehension(rec *r, const upy_code *co, upy_expr *iter);
upy_arguments *rec_arguments(rec *r, const upy_code *co);
void rec_apply_defaults(rec *r, upy_arguments *args, const upy_code *co,
                        upy_expr *defaults, upy_expr *kwdefaults,
                        upy_expr *annotations);
upy_expr *rec_return_annotation(rec *r, upy_expr *annotations);
/* An annotation as the source wrote it: under `from __future__ import
 * annotations` the compiler keeps the annotation's text as a str. */
upy_expr *rec_annotation(rec *r, upy_expr *e);
int rec_is_async(const upy_code *co);
/* A name as the source wrote it.  Below a class, the compiler stores a
 * name that starts with two underscores as _Class__name (CPython's
 * _Py_Mangle).  The stored form would compile to the same name, but the
 * source form is what the user wrote, and what 3.13 records in a class's
 * __static_attributes__ for `self.__name = ...`. */
const char *rec_source_name(const rec *r, const char *stored);
/* The value a lazily evaluated code object of 3.12+ (a type parameter's
 * bound, constraints or default, a type alias's value) returns. */
upy_expr *rec_lazy_value(rec *r, const upy_code *co);
/* The def, class or type alias statement a type parameter scope co
 * makes, called with the def's defaults args[0, nargs); NULL when its
 * code is not what the compiler makes. */
upy_stmt *rec_generic_body(rec *r, const upy_code *co, const sval *args,
                           uint32_t nargs);
/* __build_class__(body, name, *bases, **keywords). */
int rec_class_call(rec *r, sval *args, uint32_t npos, const upy_object *kwnames,
                   uint32_t nkw);
/* LIST_APPEND / SET_ADD / MAP_ADD: a display element or a comprehension's
 * result. */
int rec_comprehension_add(rec *r, const upy_nin *in, upy_ptr_vec *out);
/* 3.12+ inlines comprehensions: an accumulator (an empty display) under
 * the iterator of a loop, locals saved under it. */
int rec_is_accumulator(const upy_expr *e);
upy_expr *rec_inlined_comprehension(rec *r, const upy_expr *accumulator,
                                    const upy_stmt *loop);

/* Whether instruction i is in code only a handler reaches that the
 * compiler laid out after all other code (3.12+ flowgraph.c
 * push_cold_blocks_to_end), out of the order it compiled it in.
 *
 * Cold code.  This is CPython's definition (flowgraph.c mark_cold): a
 * block no path of normal edges from the entry reaches, found once per
 * code object (rec_normal_reach).  in_cold_clause, handlers_in_place and
 * cold_else_part ask it; two questions in structure.c look like it and do
 * not, because each asks something this does not tell:
 *   - in_cold_handler(b, start, exit): whether b is the code of a
 *     handler of a try in one loop body [start, exit), told by its
 *     instructions: the handler's entry (of a try in that body, not any
 *     handler), its cleanup, what the cleanup protects, the POP_EXCEPT
 *     and jump it leaves by.  It answers for a layout that keeps handlers
 *     in place too (3.11), where rec_is_cold answers no.
 *   - only_handlers_reach(b, from, to): whether b is cold code of the
 *     tries in [from, to) in particular, reached only by the ways out of
 *     their except clauses: which try's rest it is, not just cold.
 * (in_cold_clause(k), the `continue` of an except clause laid out cold,
 * is its POP_EXCEPT and jump back in code rec_is_cold says is cold.) */
int rec_is_cold(const rec *r, uint32_t i);
/* What r->normal_reach holds: one walk of the normal edges from the entry
 * for the whole code object, made before the walk of its regions, so
 * that rec_is_cold asks a const rec and cannot fail.  NULL when out of
 * memory. */
uint8_t *rec_normal_reach(const rec *r);

/* typeparams.c: 3.12+ type parameters (PEP 695). */
/* Whether the MAKE_FUNCTION at instruction i makes a lazily evaluated
 * value: a type parameter's bound, constraints or default, a type
 * alias's value. */
int rec_is_lazy_value(const rec *r, uint32_t i);
/* Whether the UNPACK_SEQUENCE at instruction i is the compiler's
 * UNPACK_SEQUENCE 1 of a starred value no target stores: the starred
 * default of a TypeVarTuple (`*Ts = *tuple[int]`: the lazy value returns
 * the one item) or the starred annotation of a *args (`def f(*args:
 * *Ts)`, PEP 646: an item of the annotations tuple of the MAKE_FUNCTION
 * after it). */
int rec_is_starred_value(const rec *r, uint32_t i);
/* Whether co is the scope of a generic def, class or type alias's type
 * parameters. */
int rec_is_generic_scope(const upy_code *co);
/* The type parameter intrinsics (CALL_INTRINSIC_1 / _2). */
int rec_type_param_intrinsic(rec *r, const upy_nin *in);
/* In a type parameter scope: a store (1 when it is no statement of the
 * source) and a load (1 when it pushed the hidden name's value). */
int rec_generic_store(rec *r, const char *name, sval v);
int rec_generic_load(rec *r, const char *name);
/* The call of a type parameter scope's function: the statement it makes,
 * waiting for its name like any def or class. */
int rec_generic_call(rec *r, sval fn, const sval *args, uint32_t nargs);
/* The return of a type parameter scope: the statement it made, emitted
 * (1), or 0 when v is none. */
int rec_generic_return(rec *r, sval v, upy_ptr_vec *out);

/* fold.c: puts the temporaries rec_spill made back into the one
 * expression that reads each, where the order of effects allows. */
int rec_fold_spills(rec *r, upy_stmt_list *body);

/* deadelse.c: the statements after an if or try that went in its else
 * part, where code nothing reaches after a return tells (3.8-3.9). */
void rec_else_before_dead_code(const rec *r, upy_stmt_list *body);
/* deadelse.c: the statements after a try that went in its else part,
 * as the jumps 3.8-3.9 keep after its clauses tell. */
void rec_else_before_clause_jumps(const rec *r, upy_stmt_list *body);
/* deadelse.c: whether the then part of an if, ending before block
 * then_end, ends in 3.8-3.9's jump over an else part that compiles to
 * nothing, to block join (where its test's false way goes). */
int rec_jumps_over_empty_else(const rec *r, int32_t then_end, int32_t join);

/* tidy.c */
void rec_drop_final_return(const rec *r, upy_stmt_list *body);
/* Whether the statement list cannot fall off its end. */
int rec_ends_terminal(const upy_stmt_list *body);
/* Whether the compiler leaves out the jump over an else part after an if
 * body ending so: after any body that cannot fall through, but 3.8-3.9
 * after a return only (only_return; see upy_layout.keeps_jump_after_exit). */
int rec_drops_jump_over_else(const upy_stmt_list *body, int only_return);

/* passes.c: a `pass` for each NOP the code kept, before the statement
 * whose code follows it (upy_nin.lead_nops); then, after the final return
 * is dropped, those before a module's final return that no statement
 * took, at its end. */
int rec_place_passes(rec *r, upy_stmt_list *body);
int rec_place_final_passes(rec *r, upy_stmt_list *body);
void rec_fold_tail_returns(rec *r, upy_stmt_list *body);
void rec_strip_tail_copies(rec *r, upy_stmt_list *body);
/* A return of a constant read after a try/finally that the try body's
 * end had: moved back there. */
void rec_unwound_returns(rec *r, upy_stmt_list *body);
void rec_class_cell_returns(upy_stmt_list *body);
void rec_tidy_class_body(upy_stmt_list *body);
void rec_docstring_from_doc(upy_stmt_list *body, uint32_t at);
void rec_elif_chains(upy_stmt_list *body, int keeps_jump_after_exit);
/* Gives a loop whose breaks the compiler laid out as copies of the return
 * after its else part that else part (see upy_stmt.u.break_); breaks with
 * no such else become the returns they were read from. */
void rec_breaks_to_tail(rec *r, upy_stmt_list *body);
/* upy_stmt.u.break_.to_return of a break read from a copy of a module's or
 * class body's implicit `return None`: the end of the code. */
#define REC_TO_END UINT32_MAX

#endif /* UPY_REC_H */
