/*
 * ast.h - the engine's own syntax tree of recovered Python source.
 *
 * The recover layer builds it, the print layer prints it.  It follows the
 * shape of CPython's Parser/Python.asdl closely enough that a reader of
 * either recognises the other, but it is not that tree: it holds only what
 * the printer needs (no positions), names are NUL-terminated UTF-8, and
 * constants are the read layer's objects.  Everything lives in the arena of
 * the code object tree being decompiled.
 */
#ifndef UPY_AST_H
#define UPY_AST_H

#include <stdint.h>

#include "read/object.h"
#include "util/arena.h"

typedef struct upy_expr upy_expr;
typedef struct upy_stmt upy_stmt;
typedef struct upy_pattern upy_pattern;
typedef struct upy_arguments upy_arguments;

/* Lists are arrays in the arena; len may be 0 with items NULL. */
typedef struct upy_expr_list {
    upy_expr **items;
    uint32_t len;
} upy_expr_list;

typedef struct upy_stmt_list {
    upy_stmt **items;
    uint32_t len;
} upy_stmt_list;

typedef enum upy_expr_kind {
    UPY_E_CONST,      /* u.constant */
    UPY_E_NAME,       /* u.name */
    UPY_E_ATTR,       /* u.attr */
    UPY_E_SUBSCRIPT,  /* u.subscript */
    UPY_E_SLICE,      /* u.slice, only as a subscript index (or in a tuple
                         that is one) */
    UPY_E_CALL,       /* u.call */
    UPY_E_BINOP,      /* u.binop */
    UPY_E_UNARYOP,    /* u.unary */
    UPY_E_BOOLOP,     /* u.boolop */
    UPY_E_COMPARE,    /* u.compare */
    UPY_E_IFEXP,      /* u.ifexp */
    UPY_E_LAMBDA,     /* u.lambda */
    UPY_E_TUPLE,      /* u.elts */
    UPY_E_LIST,       /* u.elts */
    UPY_E_SET,        /* u.elts */
    UPY_E_DICT,       /* u.dict */
    UPY_E_LISTCOMP,   /* u.comp */
    UPY_E_SETCOMP,    /* u.comp */
    UPY_E_DICTCOMP,   /* u.comp, with key */
    UPY_E_GENEXP,     /* u.comp */
    UPY_E_STARRED,    /* u.operand: *operand */
    UPY_E_AWAIT,      /* u.operand */
    UPY_E_YIELD,      /* u.operand, NULL for a bare yield */
    UPY_E_YIELD_FROM, /* u.operand */
    UPY_E_JOINEDSTR,  /* u.joined: an f-string */
    UPY_E_FORMATTED,  /* u.formatted: one {replacement field} of an
                         f-string (only inside UPY_E_JOINEDSTR) */
    UPY_E_NAMEDEXPR,  /* u.named: target := value */
    UPY_E_SOURCE,     /* u.name: source text printed as it is (an
                         annotation the compiler kept as its text, under
                         `from __future__ import annotations`) */
    UPY_E_TYPEPARAM,  /* u.type_param: one type parameter of a generic
                         def, class or type alias (3.12+), only in their
                         type_params lists */
} upy_expr_kind;

typedef enum upy_type_param_kind {
    UPY_TP_TYPEVAR,      /* T, T: bound, T: (constraints) */
    UPY_TP_TYPEVARTUPLE, /* *Ts */
    UPY_TP_PARAMSPEC,    /* **P */
} upy_type_param_kind;

/* Operators, in the order of CPython's BINARY_OP oparg (NB_*), so the
 * normalize layer maps 3.11+ opargs directly. */
typedef enum upy_binop {
    UPY_BIN_ADD,
    UPY_BIN_AND,
    UPY_BIN_FLOORDIV,
    UPY_BIN_LSHIFT,
    UPY_BIN_MATMUL,
    UPY_BIN_MUL,
    UPY_BIN_MOD,
    UPY_BIN_OR,
    UPY_BIN_POW,
    UPY_BIN_RSHIFT,
    UPY_BIN_SUB,
    UPY_BIN_TRUEDIV,
    UPY_BIN_XOR,
} upy_binop;

typedef enum upy_unaryop {
    UPY_UOP_NOT,
    UPY_UOP_NEG,
    UPY_UOP_POS,
    UPY_UOP_INVERT,
} upy_unaryop;

typedef enum upy_cmpop {
    UPY_CMP_LT,
    UPY_CMP_LE,
    UPY_CMP_EQ,
    UPY_CMP_NE,
    UPY_CMP_GT,
    UPY_CMP_GE,
    UPY_CMP_IS,
    UPY_CMP_IS_NOT,
    UPY_CMP_IN,
    UPY_CMP_NOT_IN,
} upy_cmpop;

/* A keyword argument name=value, or **value when name is NULL. */
typedef struct upy_keyword {
    const char *name;
    upy_expr *value;
} upy_keyword;

/* One `for target in iter if cond ...` clause of a comprehension. */
typedef struct upy_comprehension {
    upy_expr *target;
    upy_expr *iter;
    upy_expr_list ifs;
    int is_async;
    /* Bit k: ifs[k] goes on a line of its own (the compiler threads the
     * jumps of a condition on the element's line, and not otherwise). */
    uint32_t own_line_ifs;
} upy_comprehension;

struct upy_expr {
    upy_expr_kind kind;
    /* COPY duplicated it on the symbolic stack: one value in two places
     * (recover/spill.c). */
    uint8_t copied;
    /* UPY_E_NAME: the variable's cell, not its value (LOAD_CLOSURE), which
     * only a closure's tuple of cells takes in CPython's code. */
    uint8_t cell;
    /* Printed in parentheses, starting a line of its own: a lambda with an
     * equal twin constant (recover/eval.c twin_lambda), an and/or inside
     * an or/and whose jump was not threaded (recover/boolexpr.c
     * keep_operands). */
    uint8_t own_line;
    /* An and/or the source put in parentheses inside one of the same
     * kind, whose jumps the compiler did not thread to the outer one's
     * end (recover/boolexpr.c keep_operands, keep_jump): kept apart, not
     * merged into the outer operands, which would test its value once
     * where the original tests it twice. */
    uint8_t grouped;
    union {
        const upy_object *constant;
        const char *name;
        struct {
            upy_expr *value;
            const char *attr;
        } attr;
        struct {
            upy_expr *value;
            upy_expr *index;
        } subscript;
        struct {
            upy_expr *lower, *upper, *step; /* each may be NULL */
        } slice;
        struct {
            upy_expr *func;
            upy_expr_list args; /* may hold UPY_E_STARRED */
            upy_keyword *keywords;
            uint32_t n_keywords;
        } call;
        struct {
            upy_binop op;
            upy_expr *left, *right;
        } binop;
        struct {
            upy_unaryop op;
            upy_expr *operand;
        } unary;
        struct {
            int is_and; /* 1: and, 0: or */
            upy_expr_list values;
        } boolop;
        struct {
            upy_expr *left;
            upy_cmpop *ops;
            upy_expr **comparators; /* n of each */
            uint32_t n;
        } compare;
        struct {
            upy_expr *test, *body, *orelse;
        } ifexp;
        struct {
            upy_arguments *args;
            upy_expr *body;
        } lambda;
        upy_expr_list elts;
        struct {
            upy_expr **keys; /* NULL key: **values[i] */
            upy_expr **values;
            uint32_t n;
        } dict;
        struct {
            upy_expr *key; /* UPY_E_DICTCOMP only */
            upy_expr *elt; /* the value of a dict comprehension */
            upy_comprehension *generators;
            uint32_t n_generators;
            /* A list, set or dict comprehension before 3.12 whose function
             * is a coroutine (async): the await of its call, still to
             * come, is its own. */
            int awaits_call;
        } comp;
        upy_expr *operand;
        /* Parts: UPY_E_CONST str and UPY_E_FORMATTED, in order. */
        upy_expr_list joined;
        struct {
            upy_expr *value;
            int conversion;        /* -1 none, else 's', 'r' or 'a' */
            upy_expr *format_spec; /* UPY_E_JOINEDSTR, or NULL */
        } formatted;
        struct {
            upy_expr *target; /* UPY_E_NAME */
            upy_expr *value;
        } named;
        struct {
            upy_type_param_kind kind;
            const char *name;
            upy_expr *bound;    /* NULL when none; a tuple of
                                   constraints for `T: (A, B)` */
            upy_expr *default_; /* 3.13+, NULL when none */
        } type_param;
    } u;
};

/* One parameter of a def or lambda. */
typedef struct upy_arg {
    const char *name;
    upy_expr *annotation; /* NULL when none */
} upy_arg;

struct upy_arguments {
    upy_arg *posonly;
    uint32_t n_posonly;
    upy_arg *args;
    uint32_t n_args;
    upy_arg *vararg; /* NULL when none */
    upy_arg *kwonly;
    uint32_t n_kwonly;
    upy_arg *kwarg; /* NULL when none */
    /* Defaults of the last n_defaults of posonly + args. */
    upy_expr **defaults;
    uint32_t n_defaults;
    /* n_kwonly entries, NULL where a keyword-only parameter has none. */
    upy_expr **kw_defaults;
};

typedef enum upy_stmt_kind {
    UPY_S_EXPR,      /* u.expr */
    UPY_S_ASSIGN,    /* u.assign: t1 = t2 = value */
    UPY_S_AUGASSIGN, /* u.augassign */
    UPY_S_ANNASSIGN, /* u.annassign */
    UPY_S_DELETE,    /* u.targets */
    UPY_S_PASS,
    UPY_S_BREAK,
    UPY_S_CONTINUE,
    UPY_S_RETURN,      /* u.value, NULL for a bare return */
    UPY_S_RAISE,       /* u.raise */
    UPY_S_GLOBAL,      /* u.names */
    UPY_S_NONLOCAL,    /* u.names */
    UPY_S_IMPORT,      /* u.import */
    UPY_S_IMPORT_FROM, /* u.import */
    UPY_S_IF,          /* u.if_; an orelse of one UPY_S_IF prints as elif */
    UPY_S_WHILE,       /* u.while_ */
    UPY_S_FOR,         /* u.for_ */
    UPY_S_WITH,        /* u.with */
    UPY_S_TRY,         /* u.try_ */
    UPY_S_ASSERT,      /* u.assert_ */
    UPY_S_FUNCTIONDEF, /* u.funcdef */
    UPY_S_CLASSDEF,    /* u.classdef */
    UPY_S_MATCH,       /* u.match */
    UPY_S_TYPEALIAS,   /* u.typealias: type name[params] = value */
    /* A region the engine could not recover: printed as a comment block
     * (u.unrecovered.text, one or more lines, each printed after "# "),
     * followed by `pass` where the block would otherwise be empty. */
    UPY_S_UNRECOVERED,
    /* A def or class body already printed (u.printed), the one statement
     * of that body: see upy_print_body in print/source.h. */
    UPY_S_PRINTED,
} upy_stmt_kind;

/* `name as asname` of an import; asname NULL when absent, name "*" for
 * `from m import *`. */
typedef struct upy_alias {
    const char *name;
    const char *asname;
} upy_alias;

/* One `context as vars` of a with statement; vars NULL when absent. */
typedef struct upy_withitem {
    upy_expr *context;
    upy_expr *vars;
} upy_withitem;

/* `except type as name:` ; type NULL for a bare except, name NULL when
 * absent. */
typedef struct upy_handler {
    upy_expr *type;
    const char *name;
    upy_stmt_list body;
} upy_handler;

typedef enum upy_pattern_kind {
    UPY_P_VALUE,     /* u.value: a dotted name or literal */
    UPY_P_SINGLETON, /* u.constant: None, True or False */
    UPY_P_SEQUENCE,  /* u.seq: [p, *rest, q] */
    UPY_P_MAPPING,   /* u.mapping */
    UPY_P_CLASS,     /* u.cls */
    UPY_P_STAR,      /* u.name: *name, or *_ when NULL */
    UPY_P_AS,        /* u.as: pattern as name; `_` when both are NULL;
                        a bare capture `name` when pattern is NULL */
    UPY_P_OR,        /* u.seq: p | q */
} upy_pattern_kind;

typedef struct upy_pattern_list {
    upy_pattern **items;
    uint32_t len;
} upy_pattern_list;

struct upy_pattern {
    upy_pattern_kind kind;
    union {
        upy_expr *value;
        const upy_object *constant;
        upy_pattern_list seq;
        struct {
            upy_expr_list keys;
            upy_pattern_list patterns;
            const char *rest; /* **rest, or NULL */
        } mapping;
        struct {
            upy_expr *cls;
            upy_pattern_list patterns;
            const char **kwd_attrs;
            upy_pattern_list kwd_patterns; /* same length as kwd_attrs */
        } cls;
        const char *name;
        struct {
            upy_pattern *pattern;
            const char *name;
        } as;
    } u;
};

typedef struct upy_match_case {
    upy_pattern *pattern;
    upy_expr *guard; /* NULL when none */
    upy_stmt_list body;
} upy_match_case;

struct upy_stmt {
    upy_stmt_kind kind;
    /* The first instruction (neutral index) of the statement's code as
     * recovery found it, for tidy-ups that ask what the code held
     * there, and its line (-1: none). */
    uint32_t start;
    int32_t line;
    union {
        upy_expr *expr;
        struct {
            upy_expr_list targets;
            upy_expr *value;
        } assign;
        struct {
            upy_expr *target;
            upy_binop op;
            upy_expr *value;
        } augassign;
        struct {
            upy_expr *target;
            upy_expr *annotation;
            upy_expr *value; /* NULL when none */
            int simple;      /* 1: a plain name not in parentheses */
        } annassign;
        upy_expr_list targets;
        upy_expr *value;
        struct {
            upy_expr *exc;   /* NULL: bare raise */
            upy_expr *cause; /* NULL: no from clause */
        } raise;
        struct {
            const char **names;
            uint32_t n;
        } names;
        struct {
            const char *module; /* from-import; NULL for `from . import` */
            int level;          /* from-import: number of leading dots */
            upy_alias *names;
            uint32_t n;
        } import;
        struct {
            upy_expr *test;
            upy_stmt_list body, orelse;
        } if_;
        struct {
            upy_expr *test;
            upy_stmt_list body, orelse;
        } while_;
        struct {
            upy_expr *target, *iter;
            upy_stmt_list body, orelse;
            int is_async;
        } for_;
        struct {
            upy_withitem *items;
            uint32_t n_items;
            upy_stmt_list body;
            int is_async;
        } with;
        struct {
            upy_stmt_list body;
            upy_handler *handlers;
            uint32_t n_handlers;
            upy_stmt_list orelse, finalbody;
            int is_star; /* except* */
        } try_;
        struct {
            upy_expr *test, *msg; /* msg may be NULL */
        } assert_;
        struct {
            const char *name;
            upy_arguments *args;
            upy_stmt_list body;
            upy_expr_list decorators;  /* outermost first */
            upy_expr_list type_params; /* UPY_E_TYPEPARAM, 3.12+ */
            upy_expr *returns;         /* NULL when none */
            int is_async;
            /* The code object the def was recovered from: two defs made
             * from one code object are copies of one statement. */
            const upy_code *origin;
        } funcdef;
        struct {
            const char *name;
            upy_expr_list bases;
            upy_keyword *keywords;
            uint32_t n_keywords;
            upy_stmt_list body;
            upy_expr_list decorators;
            upy_expr_list type_params; /* as for funcdef */
            const upy_code *origin;    /* as for funcdef */
        } classdef;
        struct {
            const char *name;
            upy_expr_list type_params; /* as for funcdef */
            upy_expr *value;
        } typealias;
        struct {
            upy_expr *subject;
            upy_match_case *cases;
            uint32_t n_cases;
        } match;
        /* UPY_S_BREAK, while it is recovered: a break the compiler laid
         * out as a copy of the `return value` it leads to, past code the
         * loop's exit runs first (its else part).  to_return: the first
         * instruction of that return + 1, 0 for a plain break.  moved:
         * that return is this copy alone (the else part raises), to be
         * written after the loop. */
        struct {
            upy_expr *value;
            uint32_t to_return;
            uint8_t moved;
        } break_;
        struct {
            const char *text;
            /* 1 where code is lost here (counted as unrecovered), 0 for
             * a note on code that is all there. */
            uint8_t lost;
        } unrecovered;
        /* UPY_S_PRINTED: the text print_block puts after a def's or a
         * class's ':' line, printed one level in from a def at level 0;
         * marks[0, n_marks) are the offsets in it where the def's own
         * indentation goes (each line's start but those inside a string
         * literal).  issues: the UPY_PRINT_* met printing it; failed: its
         * strbuf's failure, if any. */
        struct {
            const char *text;
            size_t len;
            const uint32_t *marks;
            uint32_t n_marks;
            unsigned issues;
            int failed;
        } printed;
    } u;
};

/* Constructors: zeroed nodes of the given kind, NULL when the arena is
 * exhausted. */
upy_expr *upy_expr_new(upy_arena *arena, upy_expr_kind kind);
upy_stmt *upy_stmt_new(upy_arena *arena, upy_stmt_kind kind);
upy_pattern *upy_pattern_new(upy_arena *arena, upy_pattern_kind kind);

/* Where a statement list sits in the statement holding it. */
typedef enum upy_list_role {
    UPY_LIST_BRANCH,    /* an if's body or else part, a match case's body */
    UPY_LIST_LOOP_BODY, /* a while's or for's body */
    UPY_LIST_LOOP_ELSE,
    UPY_LIST_WITH_BODY,
    UPY_LIST_TRY_BODY,
    UPY_LIST_HANDLER,
    UPY_LIST_TRY_ELSE,
    UPY_LIST_FINALLY,
} upy_list_role;

typedef void (*upy_list_visit)(upy_stmt_list *list, upy_list_role role,
                               const upy_stmt *holder, void *arg);

/* Calls visit on each statement list directly inside s, in source order.
 * A def's or class's body is none: it is a code object of its own. */
void upy_stmt_each_list(upy_stmt *s, upy_list_visit visit, void *arg);

/* A growable array of pointers in an arena, for building lists whose
 * length is not known up front.  Growth copies (the arena cannot
 * reallocate), which at most doubles the memory used. */
typedef struct upy_ptr_vec {
    void **items;
    uint32_t len;
    uint32_t cap;
} upy_ptr_vec;

/* Makes room for `more` items past len at once (a known count of pushes
 * to come, without the copies of doubling); 0, or -1 when the arena is
 * exhausted. */
int upy_vec_reserve(upy_arena *arena, upy_ptr_vec *vec, uint32_t more);

/* Appends p; returns 0, or -1 when the arena is exhausted. */
int upy_vec_push(upy_arena *arena, upy_ptr_vec *vec, void *p);

static inline upy_expr_list upy_vec_exprs(const upy_ptr_vec *vec) {
    upy_expr_list list;
    list.items = (upy_expr **)vec->items;
    list.len = vec->len;
    return list;
}

static inline upy_stmt_list upy_vec_stmts(const upy_ptr_vec *vec) {
    upy_stmt_list list;
    list.items = (upy_stmt **)vec->items;
    list.len = vec->len;
    return list;
}

#endif /* UPY_AST_H */
