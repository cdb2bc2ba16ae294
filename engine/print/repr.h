/*
 * repr.h - Python's repr() of constants, as the given version prints them.
 *
 * Used by the disassembler (dis shows repr(argval)) and by the source
 * printer for literals.  Follows CPython exactly: str quoting and escaping
 * (with that version's Unicode notion of printable), bytes, ints of any size
 * in decimal, floats in shortest round-trip form ('r' format), complex,
 * tuples / lists / sets / frozensets / dicts, and
 * "<code object NAME at 0x..., file "F", line N>" for code objects (the
 * address is the fixed text UPY_REPR_CODE_ADDRESS, since there is none).
 */
#ifndef UPY_REPR_H
#define UPY_REPR_H

#include "read/object.h"
#include "util/strbuf.h"

#define UPY_REPR_CODE_ADDRESS "0x0"

/* Appends repr(obj) to sb.  Output size is bounded by sb's limit (shared
 * sub-objects can make a repr exponentially long; the strbuf then fails). */
void upy_repr(upy_strbuf *sb, const upy_object *obj, upy_version version);

/* Appends the repr of a str given as UTF-8 (the upy_object str form). */
void upy_repr_str(upy_strbuf *sb, const uint8_t *utf8, size_t len,
                  upy_version version);

#endif /* UPY_REPR_H */
