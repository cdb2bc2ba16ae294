/*
 * unpyc.h - public interface of libunpyc, the unpyc engine.
 *
 * The engine reads CPython .pyc files and marshal data of CPython 3.8 to 3.13
 * by itself (it never includes Python.h), disassembles them and, in later
 * layers, decompiles them.  Every entry point returns an unpyc_status and
 * fills an unpyc_error on failure; output text is malloc'd and released with
 * unpyc_free().  There is no global state: calls are independent and may run
 * on several threads at once.
 */
#ifndef UNPYC_H
#define UNPYC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One value per class of failure.  The CLI maps each to its own exit code
 * (see cli/main.c) and the Python package to its own exception type, so the
 * numbering is part of the interface: never renumber, only append. */
typedef enum unpyc_status {
    UNPYC_OK = 0,
    UNPYC_E_USAGE = 1,     /* bad arguments to the API or the CLI */
    UNPYC_E_IO = 2,        /* file could not be read */
    UNPYC_E_NOT_PYC = 3,   /* too short for a .pyc header, or bad header */
    UNPYC_E_BAD_MAGIC = 4, /* magic number of no supported version */
    UNPYC_E_TRUNCATED = 5, /* marshal data ends in the middle of a value */
    UNPYC_E_CORRUPT = 6,   /* unknown type code, invalid field, bad UTF-8 */
    UNPYC_E_BAD_REF = 7,   /* back-reference to a missing object */
    UNPYC_E_TOO_LARGE = 8, /* size, depth or output over the engine's limits */
    UNPYC_E_UNSUPPORTED = 9, /* valid input the engine cannot handle */
    UNPYC_E_NOMEM = 10,      /* allocation failed */
} unpyc_status;

/* Describes the first failure.  offset is the byte offset in the input
 * (of the .pyc file when one was given, else of the marshal data) where the
 * problem was found, or -1 when it has no position. */
typedef struct unpyc_error {
    unpyc_status status;
    long long offset;
    char message[256];
} unpyc_error;

/* Output formats of the disassembler. */
typedef enum unpyc_dis_format {
    UNPYC_DIS_TEXT = 0, /* human-readable listing, like CPython's dis */
    UNPYC_DIS_JSON = 1, /* one JSON document, see README "JSON disassembly" */
} unpyc_dis_format;

/* Short stable name of a status ("truncated", "bad-magic", ...). */
const char *unpyc_status_name(unpyc_status status);

/* Disassembles a whole .pyc file (header + marshalled module code). */
unpyc_status unpyc_dis_pyc(const uint8_t *data, size_t len,
                           unpyc_dis_format format, char **out, size_t *out_len,
                           unpyc_error *err);

/* Disassembles marshal data (marshal.dumps of a code object) written by
 * CPython major.minor. */
unpyc_status unpyc_dis_marshal(const uint8_t *data, size_t len, int major,
                               int minor, unpyc_dis_format format, char **out,
                               size_t *out_len, unpyc_error *err);

/* Decompiles a whole .pyc file to Python source.  The source is returned
 * even when parts of the code could not be recovered: those parts appear
 * as comments carrying their disassembly, and *unrecovered (when not NULL)
 * counts them. */
unpyc_status unpyc_decompile_pyc(const uint8_t *data, size_t len, char **out,
                                 size_t *out_len, unsigned *unrecovered,
                                 unpyc_error *err);

/* unpyc_decompile_pyc that also says how much memory it took: *peak_bytes
 * (when not NULL) is set to the most bytes the engine held from the system
 * at once (its arenas' chunks, those kept for reuse included, and its text
 * buffers; 0 when it failed before reading the code), whether or not it
 * succeeded; data itself is not counted.  For
 * benchmarks: the CLI's --memory-stats. */
unpyc_status unpyc_decompile_pyc_measured(const uint8_t *data, size_t len,
                                          char **out, size_t *out_len,
                                          unsigned *unrecovered,
                                          size_t *peak_bytes, unpyc_error *err);

/* Decompiles marshal data of a code object written by CPython
 * major.minor: a module's code gives the module's source, any other code
 * object the statement that defines it (def or class). */
unpyc_status unpyc_decompile_marshal(const uint8_t *data, size_t len, int major,
                                     int minor, char **out, size_t *out_len,
                                     unsigned *unrecovered, unpyc_error *err);

/* What a caller may tell the decompiler about the code beyond its bytes. */
typedef struct unpyc_decompile_options {
    /* Globals the caller vouches for: bound before the code runs, and
     * rebound by nothing (the code's own calls included) while it runs.
     * Bytecode cannot tell this (any call may rebind any global), so
     * without it a global read never moves past a call when the engine
     * folds the values it held in __stack temporaries back into
     * expressions; a read of one of these names cannot raise and gives
     * the same value anywhere, so it may (engine/recover/fold.c).  The
     * explorer names the globals torch.compile installs under fresh names
     * for its code (__compiled_fn_*, __resume_at_*): an effect check that
     * proves such source must be told the same names.  A claim that is
     * false gives source that may run differently. */
    const char *const *stable_globals;
    size_t n_stable_globals;
} unpyc_decompile_options;

/* unpyc_decompile_marshal, told what options say (NULL: nothing). */
unpyc_status unpyc_decompile_marshal_with(const uint8_t *data, size_t len,
                                          int major, int minor,
                                          const unpyc_decompile_options *options,
                                          char **out, size_t *out_len,
                                          unsigned *unrecovered,
                                          unpyc_error *err);

/* The CPython version that wrote a .pyc file, read from its header (the
 * rest of data is not looked at): the errors of unpyc_decompile_pyc's
 * header check. */
unpyc_status unpyc_pyc_version(const uint8_t *data, size_t len, int *major,
                               int *minor, unpyc_error *err);

/* Releases text returned by the engine. */
void unpyc_free(char *text);

#ifdef __cplusplus
}
#endif

#endif /* UNPYC_H */
