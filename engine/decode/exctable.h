/*
 * exctable.h - the 3.11+ exception table
 * (Objects/exception_handling_notes.txt).
 *
 * Entries as dis._parse_exception_table gives them: byte offsets, end
 * exclusive.
 */
#ifndef UPY_EXCTABLE_H
#define UPY_EXCTABLE_H

#include <stdint.h>

#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"

typedef struct upy_exc_entry {
    uint32_t start;  /* first byte covered */
    uint32_t end;    /* one past the last byte covered */
    uint32_t target; /* handler's byte offset */
    uint32_t depth;  /* stack depth to unwind to */
    int lasti;       /* push the offset of the raising instruction */
} upy_exc_entry;

typedef struct upy_exc_table {
    upy_exc_entry *entries;
    uint32_t count;
} upy_exc_table;

/* Decodes co->exceptiontable (an empty table when co has none).  Entries
 * that run past the table or point outside the code give UNPYC_E_CORRUPT. */
unpyc_status upy_exctable_decode(const upy_code *co, upy_arena *arena,
                                 upy_exc_table *table, unpyc_error *err);

#endif /* UPY_EXCTABLE_H */
