/*
 * marshal.h - reading CPython's marshal format (Python/marshal.c).
 *
 * Every TYPE_* code written by CPython 3.8 to 3.13, FLAG_REF and TYPE_REF
 * back-references, and the code-object layout of each version.  Reads are
 * bounds-checked; sizes are checked against the bytes that remain (every
 * element takes at least one byte) so a lying size cannot make the reader
 * allocate more than a small multiple of the input; nesting is limited.
 */
#ifndef UPY_MARSHAL_H
#define UPY_MARSHAL_H

#include <stddef.h>
#include <stdint.h>

#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"

/* Deepest nesting of containers / code objects accepted (CPython's own
 * limit, MAX_MARSHAL_STACK_DEPTH, is 2000). */
#define UPY_MARSHAL_MAX_DEPTH 2000

/* Reads one object from data[0..len).  base_offset is added to positions in
 * error messages (the .pyc header size when reading a file).  On success
 * *result holds the object and, when consumed is not NULL, *consumed the
 * bytes read.  Trailing bytes are not an error here.  Bytes objects
 * point into data, which must outlive the objects read (the arena). */
unpyc_status upy_marshal_read(const uint8_t *data, size_t len,
                              size_t base_offset, upy_version version,
                              upy_arena *arena, upy_object **result,
                              size_t *consumed, unpyc_error *err);

#endif /* UPY_MARSHAL_H */
