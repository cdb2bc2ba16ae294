/*
 * recover.h - turning a code object into a syntax tree.
 *
 * The recover layer normalizes each code object, builds its control-flow
 * graph and structures it into statements, recursively for nested code
 * (functions, lambdas, class bodies, comprehensions).  What it cannot
 * structure becomes a UPY_S_UNRECOVERED statement carrying the
 * disassembly of the region, and the rest is still recovered.
 */
#ifndef UPY_RECOVER_H
#define UPY_RECOVER_H

#include "ast/ast.h"
#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"
#include "util/strbuf.h"

typedef struct upy_recover_options {
    /* Deepest nesting of code objects decompiled (deeper ones come out as
     * unrecovered). */
    int max_depth;
    /* Globals the caller vouches are bound and never rebound while the
     * code runs (unpyc_decompile_options): fold.c may move their reads
     * past calls. */
    const char *const *stable_globals;
    size_t n_stable_globals;
    /* When set, each def and class body is handed to it as soon as it is
     * recovered, with print_text, and replaced by the statement it
     * returns (NULL: out of memory): the printer's upy_print_body, which
     * api.c passes so that a body's tree lives only while it is recovered
     * and printed (the recover layer does not print). */
    upy_stmt *(*print_body)(const upy_stmt_list *body, upy_version version,
                            upy_strbuf *print_text, upy_arena *arena);
    upy_strbuf *print_text;
    /* When not NULL, counts the code objects lost to a failure whose mark
     * may read differently for another form of the same code object (a
     * live one, or its marshal data): UNPYC_E_CORRUPT (decode's messages
     * quote offsets in the input) and UNPYC_E_TOO_LARGE (the memory limit
     * scales with the input's length). */
    unsigned *input_marks;
} upy_recover_options;

/* Recovers co: for a module code object the module's statements; for any
 * other code object the single statement that defines it (a def, or the
 * class statement of a class body), without what lives outside the code
 * object (defaults, annotations, decorators, bases).  *unrecovered counts
 * the regions that came out as UPY_S_UNRECOVERED.  Fails only on memory
 * or on input the read and decode layers should have refused. */
unpyc_status upy_recover(const upy_code *co, upy_version version,
                         const upy_recover_options *options, upy_arena *arena,
                         upy_stmt_list *out, unsigned *unrecovered,
                         unpyc_error *err);

#endif /* UPY_RECOVER_H */
