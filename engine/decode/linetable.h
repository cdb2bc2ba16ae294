/*
 * linetable.h - decoding each version's line-number table.
 *
 *   3.8, 3.9  co_lnotab: (byte increment, signed line increment) pairs
 *             (Objects/lnotab_notes.txt).
 *   3.10      co_linetable: (byte delta, line delta) pairs, -128 = no line.
 *   3.11+     co_linetable: location entries (Objects/locations.md).
 *
 * The result is one list of address ranges with their locations, the shape
 * of 3.10's co_lines() / 3.11's co_positions(), for every version.
 */
#ifndef UPY_LINETABLE_H
#define UPY_LINETABLE_H

#include <stdint.h>

#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"

/* [start, end) in bytes of co_code.  line is -1 where the range has no line
 * (3.10+).  end_line, col and end_col are -1 where unknown (always before
 * 3.11). */
typedef struct upy_line_range {
    uint32_t start;
    uint32_t end;
    int32_t line;
    int32_t end_line;
    int32_t col;
    int32_t end_col;
} upy_line_range;

typedef struct upy_line_table {
    upy_line_range *ranges; /* sorted by start, not overlapping */
    uint32_t count;
} upy_line_table;

/* Decodes co's line table.  Malformed tables (running past their end,
 * ranges past the code) give UNPYC_E_CORRUPT; offsets in messages are
 * positions inside the table. */
unpyc_status upy_linetable_decode(upy_version version, const upy_code *co,
                                  upy_arena *arena, upy_line_table *table,
                                  unpyc_error *err);

/* The line of the instruction at byte offset `offset`, as that version's dis
 * reports it: 3.8-3.9 the line of the last line start at or before it;
 * 3.10 the line of the co_lines() range holding it; 3.11+ positions.lineno.
 * -1 when none.  Offsets are asked in increasing order: *cursor, 0 before
 * the first, keeps the place in the table between them. */
int32_t upy_linetable_line_at(const upy_line_table *table, uint32_t offset,
                              uint32_t *cursor);

#endif /* UPY_LINETABLE_H */
