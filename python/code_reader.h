/*
 * code_reader.h - the engine's code struct built from a live code object of
 * the running interpreter (code_reader.c), for upy_decompile_read.
 */
#ifndef UNPYC_CODE_READER_H
#define UNPYC_CODE_READER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "api.h"

#if !defined(Py_LIMITED_API) || Py_LIMITED_API + 0 < 0x030A0000
/* In the stable ABI from 3.10; 3.8 and 3.9 export the same function (public
 * since 3.3), so the one build loads everywhere; read_str and the names
 * check call it only from 3.10 on. */
PyAPI_FUNC(const char *) PyUnicode_AsUTF8AndSize(PyObject *, Py_ssize_t *);
#endif

/* The code object attributes the reader reads, by index into the names
 * the module interns once (code_attr_names). */
typedef enum code_attr {
    ATTR_ARGCOUNT,
    ATTR_POSONLYARGCOUNT,
    ATTR_KWONLYARGCOUNT,
    ATTR_NLOCALS,
    ATTR_STACKSIZE,
    ATTR_FLAGS,
    ATTR_FIRSTLINENO,
    ATTR_CODE,
    ATTR_CONSTS,
    ATTR_NAMES,
    ATTR_VARNAMES,
    ATTR_CELLVARS,
    ATTR_FREEVARS,
    ATTR_FILENAME,
    ATTR_NAME,
    ATTR_QUALNAME,
    ATTR_LNOTAB,
    ATTR_LINETABLE,
    ATTR_EXCEPTIONTABLE,
    N_CODE_ATTRS
} code_attr;

extern const char *const code_attr_names[N_CODE_ATTRS];

/* Nesting of constants and code objects past which a constant counts as
 * one that needs a stand-in instead of being walked further. */
#define CONSTANT_DEPTH_LIMIT 1000

/* The running interpreter's opcodes the scan for code objects loaded as
 * values reads (from dis.opmap, so the one binary serves every version),
 * and the module's attribute names (borrowed). */
typedef struct value_ops {
    int load_const, make_function, extended_arg, cache;
    PyObject *co_consts, *co_code;
} value_ops;

/* engine_module.c: appends to values (when not NULL) the co_consts index
 * of each code object code loads as a value, not to make a function of.
 * Returns how many it found (without values: 0 or 1), -1 on error. */
Py_ssize_t scan_code_values(PyObject *code, PyObject *consts,
                            const value_ops *ops, PyObject *values);

/* The code type's descriptor of each attribute the reader reads, with the
 * descriptor's tp_descr_get, taken once (code_getters_init): the reader
 * calls it as PyObject_GenericGetAttr does once it has found the
 * descriptor (the code type's getattr is that, and its fields are data
 * descriptors), without the lookups by name, which were two thirds of a
 * field's ~180 instructions (perf44: ~2 k of a median function's call). */
typedef struct code_getters {
    PyTypeObject *type; /* NULL when none were taken */
    PyObject *descr[N_CODE_ATTRS];
    descrgetfunc get[N_CODE_ATTRS]; /* NULL: by PyObject_GetAttr */
} code_getters;

/* Takes types.CodeType's descriptors of the attributes named by
 * attr_names; one the type lacks, or whose tp_descr_get the stable ABI
 * does not give (a static type's slots, before 3.10), is left to
 * PyObject_GetAttr.  -1 on error. */
int code_getters_init(code_getters *getters, PyObject *const *attr_names);

void code_getters_clear(code_getters *getters);

/* The objects a read took from getattr, owned until the decompilation is
 * over: bytes objects' data is read by the engine in place, and the table
 * of objects seen (by address) must not meet the address of one freed. */
typedef struct held_objects {
    PyObject *inline_items[48];
    PyObject **items;
    size_t n, cap;
} held_objects;

/* One live code object to read (the upy_code_reader's source).  The reader
 * gives up the GIL when it is done (*released), so the engine runs without
 * it; the caller takes it back after upy_decompile_read returns, then
 * calls live_source_end. */
typedef struct live_source {
    PyObject *code;              /* borrowed */
    PyObject *const *attr_names; /* the module's, by code_attr */
    const code_getters *getters; /* the module's */
    const value_ops *ops;        /* for the scan for code loaded as values */
    PyThreadState *released;     /* set when the reader gave up the GIL */
    int left;                    /* the reader left the code to marshal */
    /* The code object's co_name and co_varnames once read (held), for the
     * caller's names check: NULL when the read stopped before them. */
    PyObject *name, *varnames;
    held_objects held;
} live_source;

void live_source_init(live_source *source, PyObject *code,
                      PyObject *const *attr_names, const code_getters *getters,
                      const value_ops *ops);

/* Releases the objects held; the GIL must be held. */
void live_source_end(live_source *source);

/* The upy_code_reader of a live_source.  A code object holding anything
 * it does not read exactly as marshal data of it would read, or anything
 * the package shows by a stand-in (unpyc/_placeholders.py: a constant no
 * literal makes, a code object loaded as a value), fails with
 * UNPYC_E_UNSUPPORTED and source->left set (the caller then takes the
 * package's general way). */
unpyc_status read_live_code(void *source, upy_version version, upy_arena *arena,
                            upy_code **code, size_t *size, unpyc_error *err);

#endif /* UNPYC_CODE_READER_H */
