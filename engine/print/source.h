/*
 * source.h - printing the engine's syntax tree (ast/ast.h) as Python source.
 *
 * The text must recompile, with the CPython version it is printed for, to
 * the same bytecode as the code it was recovered from, and read like
 * hand-written PEP 8 code: minimal parentheses that keep the tree's exact
 * shape, 4-space indents, blank lines around def and class, constants in
 * forms whose constant folding gives back the very same value (inf, nan,
 * signed zeros, complex parts), and f-strings quoted so that the version's
 * tokenizer accepts them.
 *
 * Output goes to a strbuf, so its size is bounded by the strbuf's limit;
 * the recursion follows the tree, whose depth the producer bounds.
 */
#ifndef UPY_SOURCE_H
#define UPY_SOURCE_H

#include "ast/ast.h"
#include "read/object.h"
#include "util/strbuf.h"

/* What the printer could not say exactly in the target version.  The text
 * is printed all the same, as close as it gets. */
enum {
    /* Before 3.12 an f-string's replacement fields may hold neither a
     * backslash nor the f-string's own quote; a field needed one (a str
     * constant with an escape, or more quote kinds than there are), so
     * the text does not compile on that version. */
    UPY_PRINT_FSTRING_INEXACT = 1u << 0,
    /* An expression nests deeper than UPY_PRINT_MAX_DEPTH: the printer
     * stopped there (the text is incomplete).  Only corrupt or crafted
     * bytecode builds such a tree; CPython's own compiler refuses sources
     * nested far less deep. */
    UPY_PRINT_TOO_DEEP = 1u << 1,
    /* A code object used as a value (a constant loaded other than for a
     * def or lambda, which no source does): it prints as `...`, and the
     * line holding it ends in a comment saying so. */
    UPY_PRINT_CODE_VALUE = 1u << 2,
};

#define UPY_PRINT_MAX_DEPTH 3000

/* Appends the source of a module body (or any statement list at top
 * level) to sb, for CPython `version`: nothing for an empty body, else
 * lines that end with exactly one newline. */
void upy_print_module(upy_strbuf *sb, const upy_stmt_list *body,
                      upy_version version);

/* Like upy_print_module; returns the UPY_PRINT_* issues met (0 when the
 * text is exact). */
unsigned upy_print_module_ex(upy_strbuf *sb, const upy_stmt_list *body,
                             upy_version version);

/* Prints ahead what a def or class statement holding body prints after
 * its ':' line, in sb (emptied first: one buffer serves every body, under
 * the output's limit), and returns it as the one statement of a body that
 * prints the same (UPY_S_PRINTED), in arena; NULL when arena is
 * exhausted.  Recovery calls it (through
 * upy_recover_options.print_body) on each def and class body once it is
 * recovered, so that the body's tree can be released and a module's peak
 * memory holds its text instead of the whole module's tree. */
upy_stmt *upy_print_body(const upy_stmt_list *body, upy_version version,
                         upy_strbuf *sb, upy_arena *arena);

/* Appends one expression (no newline), as it would print as a call's
 * argument, for tests and error messages. */
void upy_print_expr(upy_strbuf *sb, const upy_expr *e, upy_version version);

#endif /* UPY_SOURCE_H */
