/*
 * linetable.h - decoding each version's line-number table.
 *
 *   3.8, 3.9  co_lnotab: (byte increment, signed line increment) pairs
 *             (Objects/lnotab_notes.txt).
 *   3.10      co_linetable: (byte delta, line delta) pairs, -128 = no line.
 *   3.11+     co_linetable: location entries (Objects/locations.md).
 *
 * Each instruction gets the line that version's dis reports for it, read
 * from the address ranges of the table (the shape of 3.10's co_lines() /
 * 3.11's co_positions(), for every version) as they are decoded: the
 * ranges come in the order of the code, and so do the instructions.
 */
#ifndef UPY_LINETABLE_H
#define UPY_LINETABLE_H

#include <stdint.h>

#include "decode/instr.h"
#include "read/object.h"
#include "unpyc.h"

/* Sets the line of each of the count instructions (in the order of their
 * offsets in co_code) as that version's dis reports it: 3.8-3.9 the line
 * of the last line start at or before it; 3.10 the line of the co_lines()
 * range holding it; 3.11+ positions.lineno; -1 when none.  Malformed
 * tables (running past their end, ranges past the code) give
 * UNPYC_E_CORRUPT; offsets in messages are positions inside the table. */
unpyc_status upy_linetable_lines(upy_version version, const upy_code *co,
                                 upy_instr *instrs, uint32_t count,
                                 unpyc_error *err);

#endif /* UPY_LINETABLE_H */
