/*
 * disasm.h - printing a decoded code object tree as a disassembly.
 *
 * Two forms: a listing for people, in the layout of CPython's dis, and the
 * JSON document described in the README ("JSON disassembly"), whose
 * instructions and argument texts (argrepr) are exactly those that
 * dis.get_instructions() of the code's own version yields.
 */
#ifndef UPY_DISASM_H
#define UPY_DISASM_H

#include <stddef.h>

#include "read/object.h"
#include "unpyc.h"
#include "util/strbuf.h"

/* Appends the disassembly of co and, recursively, of the code objects in
 * its co_consts.  Each code object is decoded in a scratch arena of at most
 * arena_limit bytes that is released before the next one, so memory stays
 * proportional to the nesting depth, not to the whole tree. */
unpyc_status upy_disasm(upy_version version, const upy_code *co,
                        unpyc_dis_format format, size_t arena_limit,
                        upy_strbuf *out, unpyc_error *err);

#endif /* UPY_DISASM_H */
