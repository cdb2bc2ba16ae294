/*
 * object.h - the values the read layer produces from marshal data.
 *
 * A faithful, version-independent picture of what marshal.loads would build:
 * constants, containers and code objects.  All of it lives in the arena of
 * the input it was read from.  The graph is acyclic: the reader refuses
 * back-references to objects that are still being read, so every walk over
 * it terminates (shared sub-objects are possible, so walks that print must
 * still bound their output).
 */
#ifndef UPY_OBJECT_H
#define UPY_OBJECT_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

/* A CPython version; only major 3, minor 8 to 13 are read today. */
typedef struct upy_version {
    uint8_t major;
    uint8_t minor;
} upy_version;

typedef enum upy_kind {
    UPY_NONE,
    UPY_FALSE,
    UPY_TRUE,
    UPY_STOPITER, /* StopIteration, marshal TYPE_STOPITER */
    UPY_ELLIPSIS,
    UPY_INT,
    UPY_FLOAT,
    UPY_COMPLEX,
    UPY_BYTES,
    UPY_STR,
    UPY_TUPLE,
    UPY_LIST,
    UPY_DICT,
    UPY_SET,
    UPY_FROZENSET,
    UPY_CODE,
} upy_kind;

typedef struct upy_object upy_object;
typedef struct upy_code upy_code;

/* An int of any size.  When is_big is 0 the value is small.value; otherwise
 * the magnitude is digits[0..ndigits) in base 2**15, least significant first
 * (marshal's own layout), and negative gives the sign. */
typedef struct upy_int {
    int64_t value;
    const uint16_t *digits;
    uint32_t ndigits;
    uint8_t is_big;
    uint8_t negative;
} upy_int;

struct upy_object {
    upy_kind kind;
    /* Where the object is in the input (the .pyc file, or the marshal data
     * when no file was given): the first byte of the payload for bytes and
     * str (so a position inside co_code or a table maps to the file), the
     * type byte for every other kind.  Error messages of the layers above
     * use it to name file offsets.  (32 bits, as upy_marshal_read takes no
     * input past 4 GiB: with the int's fields packed, an object takes 32
     * bytes, not 48; a module's objects were a sixth of its peak heap.) */
    uint32_t offset;
    union {
        upy_int integer; /* UPY_INT */
        double real;     /* UPY_FLOAT */
        struct {
            double real, imag;
        } complex; /* UPY_COMPLEX */
        /* UPY_BYTES: the raw bytes.  UPY_STR: the text as UTF-8, where lone
         * surrogates (which marshal writes with "surrogatepass") appear as
         * their 3-byte encodings.  A str's data is a NUL-terminated copy
         * (len does not count the NUL and the text may contain NULs);
         * bytes point into the marshal input, which outlives the objects
         * (upy_marshal_read), with no NUL after them. */
        struct {
            const uint8_t *data;
            size_t len;
        } bytes;
        /* UPY_TUPLE, UPY_LIST, UPY_SET, UPY_FROZENSET: items in marshal
         * order.  UPY_DICT: keys and values alternate, len = 2 * pairs. */
        struct {
            upy_object **items;
            size_t len;
        } seq;
        upy_code *code; /* UPY_CODE */
    } u;
};

/* Kinds of a 3.11+ localsplus slot (CPython's CO_FAST_*). */
enum {
    UPY_FAST_HIDDEN = 0x10, /* 3.12+: inlined comprehension variable */
    UPY_FAST_LOCAL = 0x20,
    UPY_FAST_CELL = 0x40,
    UPY_FAST_FREE = 0x80,
};

/* A code object.  Fields that a version does not marshal are NULL (objects)
 * or 0.  varnames, cellvars and freevars are filled for every version: read
 * directly before 3.11, derived from localsplusnames/kinds from 3.11 on
 * exactly as CPython's co_varnames / co_cellvars / co_freevars are. */
struct upy_code {
    int argcount;
    int posonlyargcount;
    int kwonlyargcount;
    int nlocals; /* marshalled before 3.11, computed from 3.11 on */
    int stacksize;
    uint32_t flags;
    int firstlineno;
    upy_object *code;   /* bytes: co_code */
    upy_object *consts; /* tuple */
    upy_object *names;  /* tuple of str */
    upy_object *varnames;
    upy_object *cellvars;
    upy_object *freevars;
    upy_object *localsplusnames; /* 3.11+: tuple of str */
    upy_object *localspluskinds; /* 3.11+: bytes, one UPY_FAST_* set per name */
    upy_object *filename;        /* str */
    upy_object *name;            /* str */
    upy_object *qualname;        /* str, 3.11+ */
    /* bytes: co_lnotab (3.8, 3.9) or co_linetable (3.10+); the format is the
     * version's, decoded by decode/linetable.c */
    upy_object *linetable;
    upy_object *exceptiontable; /* bytes, 3.11+ */
};

/* A cleared object of kind in arena; NULL when out of memory (or over the
 * arena's limit). */
upy_object *upy_object_new(upy_arena *arena, upy_kind kind);

/* A sequence object of kind with room for n items (u.seq.items set,
 * u.seq.len left 0). */
upy_object *upy_object_new_seq(upy_arena *arena, upy_kind kind, size_t n);

/* A str object holding a NUL-terminated copy of text[0, n) (UTF-8; the
 * offset is left 0). */
upy_object *upy_object_new_str(upy_arena *arena, const uint8_t *text, size_t n);

/* Convenience accessors; they return NULL / 0 on a kind mismatch. */
static inline size_t upy_seq_len(const upy_object *o) {
    return o && (o->kind == UPY_TUPLE || o->kind == UPY_LIST ||
                 o->kind == UPY_SET || o->kind == UPY_FROZENSET ||
                 o->kind == UPY_DICT)
               ? o->u.seq.len
               : 0;
}

static inline upy_object *upy_seq_item(const upy_object *o, size_t i) {
    return i < upy_seq_len(o) ? o->u.seq.items[i] : NULL;
}

#endif /* UPY_OBJECT_H */
