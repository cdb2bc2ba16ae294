/*
 * api.h - the entry point for a reader of code objects other than the
 * marshal reader: the Python extension's reader of the running
 * interpreter's code objects (python/code_reader.c), which builds the read
 * layer's objects from the live code object, so that the package hands the
 * engine no marshal data.  Not part of the public API (unpyc.h): a reader
 * builds the engine's own structs (read/object.h).
 */
#ifndef UPY_API_H
#define UPY_API_H

#include <stddef.h>

#include "read/object.h"
#include "unpyc.h"
#include "util/arena.h"

/* Fills *code from source, built in arena, and *size: the length of the
 * marshal data the code object would take, or a lower bound of it (the
 * engine's memory and output limits scale with it: a bound from below
 * makes them no looser than the marshal data's). */
typedef unpyc_status (*upy_code_reader)(void *source, upy_version version,
                                        upy_arena *arena, upy_code **code,
                                        size_t *size, unpyc_error *err);

/* unpyc_decompile_marshal_with, the code object read by read(source, ...)
 * instead of from marshal data.  *input_marks (when not NULL) gets how many
 * of the parts not recovered have a mark that may read differently when
 * the same code object is decompiled from its marshal data (a failure on
 * corrupt input quotes offsets in that data; the memory limit scales with
 * its length): when 0, the output is the marshal path's. */
unpyc_status upy_decompile_read(upy_code_reader read, void *source, int major,
                                int minor,
                                const unpyc_decompile_options *options,
                                char **out, size_t *out_len,
                                unsigned *unrecovered, unsigned *input_marks,
                                unpyc_error *err);

#endif /* UPY_API_H */
