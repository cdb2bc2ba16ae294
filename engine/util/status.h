/*
 * status.h - how an engine function says that it failed.
 *
 * One idiom (CPython's Python/flowgraph.c has it: SUCCESS / ERROR and
 * RETURN_IF_ERROR(pass(g))), instead of an int whose meaning each
 * function chose:
 *
 * - A function that does work (pushes a slot, emits a statement,
 *   structures a region) returns a status: SUCCESS, or ERROR after a hard
 *   failure (out of memory, the arena's limit) that it recorded in the
 *   unpyc_error already (rec_oom, upy_fail).  Its caller passes ERROR on,
 *   RETURN_IF_ERROR(call), and records nothing more.
 * - A function that answers a question returns the answer: a truth value
 *   (1 / 0), a count, an index or a block (its own "none" value:
 *   UPY_NO_BLOCK, -1), a pointer (NULL for none).  One that must allocate
 *   to answer returns 1, 0 or ERROR, and its comment says so.
 * - Code that is not the construct a rule reads is no error: the rule
 *   returns NOT_THIS, having changed nothing, and the caller tries what
 *   else the code may be.  Code that is the construct but cannot be read
 *   is no error either: it is marked unrecovered (rec_fail_region) and the
 *   rule returns SUCCESS; the output carries the mark.
 */
#ifndef UPY_STATUS_H
#define UPY_STATUS_H

enum { ERROR = -1, SUCCESS = 0, NOT_THIS = 1 };

/* Returns ERROR from the calling function when the status X is ERROR
 * (any negative value: a question's answer of ERROR too). */
#define RETURN_IF_ERROR(X)                                                     \
    do {                                                                       \
        if ((X) < 0)                                                           \
            return ERROR;                                                      \
    } while (0)

#endif /* UPY_STATUS_H */
