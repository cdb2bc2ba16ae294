/*
 * code_reader.c - the engine's code struct (read/object.h) built from a
 * live code object of the running interpreter, field by field, as the
 * marshal reader (engine/read/marshal.c) builds it from marshal.dumps of
 * the same object: the package's decompile then runs no marshal.dumps and
 * the engine no marshal read (perf41: the two together were ~12 k of the
 * ~68 k instructions of a small function's call).
 *
 * Same graph as the marshal reader's: marshal writes an object seen before
 * as a reference to it, and the reader shares it; here an object met again
 * (by address, in the table `seen`) is shared too.  3.11+ marshal writes
 * co_localsplusnames and co_localspluskinds, which Python does not show:
 * they are put together from co_varnames, co_cellvars and co_freevars as
 * CPython's compiler and code constructor lay them out (the locals, then
 * the cells that are no local, then the free variables; a local that is a
 * cell is both), and varnames, cellvars and freevars are CPython's own,
 * which the marshal reader derives from those two.  The kinds lack 3.12's
 * CO_FAST_HIDDEN bit, which nothing in the engine reads.
 *
 * What it does not read exactly as marshal data would read, it leaves to
 * the marshal path (source->left): objects of any type but those read
 * here (read_object; str with lone surrogates included); and what the package
 * shows by a stand-in (unpyc/_placeholders.py): constants no literal makes (the
 * types above), code objects loaded as values (scan_code_values), nesting past
 * CONSTANT_DEPTH_LIMIT (under the marshal reader's limit).  The caller then
 * takes the package's general way (stand-ins, marshal.dumps), which also says
 * every failure, so errors and their offsets stay the marshal path's.
 */
#include "code_reader.h"

#include <string.h>

#include "util/error.h"

/* marshal.h, which the stable ABI leaves out; the function is public and
 * exported by every supported interpreter (3.8 on): read_frozenset sorts a
 * 3.11+ frozenset's items by it, as marshal does. */
PyAPI_FUNC(PyObject *) PyMarshal_WriteObjectToString(PyObject *, int);

/* The version of marshal data the package's marshal.dumps writes (the
 * default, Py_MARSHAL_VERSION, 4 on 3.8-3.13). */
#define MARSHAL_VERSION 4

const char *const code_attr_names[N_CODE_ATTRS] = {
    "co_argcount",  "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals",
    "co_stacksize", "co_flags",           "co_firstlineno",    "co_code",
    "co_consts",    "co_names",           "co_varnames",       "co_cellvars",
    "co_freevars",  "co_filename",        "co_name",           "co_qualname",
    "co_lnotab",    "co_linetable",       "co_exceptiontable",
};

/* The data descriptor's tp_descr_get, or NULL (the error cleared). */
static descrgetfunc data_descr_get(PyObject *descr) {
    descrgetfunc get =
        (descrgetfunc)PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_get);
    if (!get || !PyType_GetSlot(Py_TYPE(descr), Py_tp_descr_set))
        get = NULL;
    PyErr_Clear();
    return get;
}

int code_getters_init(code_getters *getters, PyObject *const *attr_names) {
    PyObject *types = PyImport_ImportModule("types"), *type = NULL;
    int k;
    memset(getters, 0, sizeof *getters);
    if (types)
        type = PyObject_GetAttrString(types, "CodeType");
    Py_XDECREF(types);
    if (type && !PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "types.CodeType is not a type");
        Py_CLEAR(type);
    }
    if (!type)
        return -1;
    getters->type = (PyTypeObject *)type;
    for (k = 0; k < N_CODE_ATTRS; k++) {
        /* (A type's getattr gives the descriptor of an instance field.) */
        PyObject *descr = PyObject_GetAttr(type, attr_names[k]);
        getters->get[k] = descr ? data_descr_get(descr) : NULL;
        if (getters->get[k])
            getters->descr[k] = descr;
        else
            Py_XDECREF(descr);
        PyErr_Clear();
    }
    return 0;
}

void code_getters_clear(code_getters *getters) {
    int k;
    for (k = 0; k < N_CODE_ATTRS; k++)
        Py_CLEAR(getters->descr[k]);
    Py_CLEAR(getters->type);
}

void live_source_init(live_source *source, PyObject *code,
                      PyObject *const *attr_names, const code_getters *getters,
                      const value_ops *ops) {
    memset(source, 0, sizeof *source);
    source->code = code;
    source->attr_names = attr_names;
    source->getters = getters;
    source->ops = ops;
    source->held.items = source->held.inline_items;
    source->held.cap = sizeof source->held.inline_items / sizeof(PyObject *);
}

void live_source_end(live_source *source) {
    held_objects *held = &source->held;
    size_t k;
    for (k = 0; k < held->n; k++)
        Py_DECREF(held->items[k]);
    if (held->items != held->inline_items)
        PyMem_Free(held->items);
    held->n = 0;
}

/* Takes o's reference into held; -1 (o released) when out of memory. */
static int hold(held_objects *held, PyObject *o) {
    if (held->n == held->cap) {
        size_t cap = held->cap * 2;
        PyObject **grown = PyMem_Malloc(cap * sizeof *grown);
        if (!grown) {
            Py_DECREF(o);
            return -1;
        }
        memcpy(grown, held->items, held->n * sizeof *grown);
        if (held->items != held->inline_items)
            PyMem_Free(held->items);
        held->items = grown;
        held->cap = cap;
    }
    held->items[held->n++] = o;
    return 0;
}

/* An object read, by the address of the Python object it was read from. */
typedef struct seen_entry {
    PyObject *key;
    upy_object *value;
} seen_entry;

/* One read: where the objects go and what was met so far. */
typedef struct live_read {
    live_source *source;
    upy_arena *arena;
    int minor;
    PyTypeObject *code_type;
    size_t size; /* a lower bound of the marshal data's length */
    seen_entry *seen;
    size_t seen_len, seen_cap; /* seen_cap: a power of 2 */
    int depth;
} live_read;

static size_t seen_index(const live_read *r, const PyObject *key) {
    uint64_t h = (uint64_t)(uintptr_t)key * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 32) & (r->seen_cap - 1);
}

/* The entry of key, or the free entry where it goes. */
static seen_entry *seen_find(const live_read *r, const PyObject *key) {
    size_t i = seen_index(r, key);
    while (r->seen[i].key && r->seen[i].key != key)
        i = (i + 1) & (r->seen_cap - 1);
    return &r->seen[i];
}

/* Records key -> value, the table kept at most half full; -1 when out of
 * memory. */
static int seen_add(live_read *r, PyObject *key, upy_object *value) {
    seen_entry *old = r->seen, *entry;
    size_t old_cap = r->seen_cap, k;
    if (2 * (r->seen_len + 1) > r->seen_cap) {
        r->seen_cap = old_cap ? 2 * old_cap : 128;
        r->seen = upy_arena_array(r->arena, r->seen_cap, sizeof *r->seen);
        if (!r->seen)
            return -1;
        for (k = 0; k < old_cap; k++)
            if (old[k].key)
                *seen_find(r, old[k].key) = old[k];
    }
    entry = seen_find(r, key);
    entry->key = key;
    entry->value = value;
    r->seen_len++;
    return 0;
}

/* o's attribute attr, a new reference (NULL on error): what
 * PyObject_GetAttr gives, by the code type's descriptor when o is of that
 * type (code_getters). */
static PyObject *code_attr_of(const live_read *r, PyObject *o, code_attr attr) {
    const code_getters *g = r->source->getters;
    if (g->type == Py_TYPE(o) && g->get[attr])
        return g->get[attr](g->descr[attr], o, (PyObject *)g->type);
    return PyObject_GetAttr(o, r->source->attr_names[attr]);
}

/* A getattr of o, held until the decompilation is over; NULL on error. */
static PyObject *held_attr(live_read *r, PyObject *o, code_attr attr) {
    PyObject *value = code_attr_of(r, o, attr);
    if (value && hold(&r->source->held, value) < 0)
        return NULL;
    return value;
}

/* An int field as marshal writes it (a 32-bit int; the marshal reader
 * refuses a negative one, but co_flags); -1 when it is not such. */
static int read_int_attr(live_read *r, PyObject *code, code_attr attr,
                         int32_t *value) {
    PyObject *number = code_attr_of(r, code, attr);
    long long v = number ? PyLong_AsLongLong(number) : -1;
    Py_XDECREF(number);
    if (v < (attr == ATTR_FLAGS ? INT32_MIN : 0) || v > INT32_MAX)
        return -1;
    *value = (int32_t)v;
    r->size += 4;
    return 0;
}

static upy_object *read_value(live_read *r, PyObject *o);

/* Fills digits[0..n) with the 15-bit digits, least significant first, of
 * the little-endian bytes data[0..len).  Example: 2**64, bytes 0 x8 then 1,
 * gives 0, 0, 0, 0, 16 (16 * 2**60). */
static void fill_digits(const unsigned char *data, size_t len, uint16_t *digits,
                        size_t n) {
    uint32_t pending = 0;
    int bits = 0;
    size_t k, d = 0;
    for (k = 0; k < len; k++) {
        pending |= (uint32_t)data[k] << bits;
        for (bits += 8; bits >= 15 && d < n; bits -= 15, pending >>= 15)
            digits[d++] = (uint16_t)(pending & 0x7FFF);
    }
    if (d < n)
        digits[d] = (uint16_t)(pending & 0x7FFF);
}

/* An int past 60 bits in the marshal reader's is_big form: its magnitude's
 * 15-bit digits (from int.to_bytes: the stable ABI shows no digits). */
static upy_object *read_big_int(live_read *r, PyObject *o, int negative) {
    PyObject *magnitude = PyNumber_Absolute(o), *bits = NULL, *bytes = NULL;
    long nbits = -1;
    upy_object *read = NULL;
    uint16_t *digits = NULL;
    size_t n = 0;

    if (magnitude)
        bits = PyObject_CallMethod(magnitude, "bit_length", NULL);
    if (bits)
        nbits = PyLong_AsLong(bits);
    if (nbits > 60 && nbits < INT32_MAX / 2)
        bytes = PyObject_CallMethod(magnitude, "to_bytes", "ns",
                                    (Py_ssize_t)(nbits + 7) / 8, "little");
    if (bytes) {
        n = ((size_t)nbits + 14) / 15;
        read = upy_object_new(r->arena, UPY_INT);
        digits = upy_arena_array(r->arena, n, sizeof *digits);
    }
    if (read && digits) {
        fill_digits((const unsigned char *)PyBytes_AsString(bytes),
                    (size_t)PyBytes_Size(bytes), digits, n);
        read->u.integer.digits = digits;
        read->u.integer.ndigits = (uint32_t)n;
        read->u.integer.is_big = 1;
        read->u.integer.negative = (uint8_t)negative;
        r->size += 5 + 2 * n;
    }
    Py_XDECREF(magnitude);
    Py_XDECREF(bits);
    Py_XDECREF(bytes);
    return read && digits ? read : NULL;
}

/* An int as the marshal reader reads what marshal writes of it: a 32-bit
 * one as TYPE_INT (the value alone), a bigger one as TYPE_LONG (15-bit
 * digits too; past 60 bits, 4 digits, the marshal reader's is_big form:
 * read_big_int). */
static upy_object *read_int(live_read *r, PyObject *o) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    unsigned long long magnitude;
    uint16_t *digits;
    upy_object *read;
    uint32_t n = 0;

    if (v == -1 && PyErr_Occurred())
        return NULL;
    if (overflow || v >= (1LL << 60) || v <= -(1LL << 60))
        return read_big_int(r, o, overflow ? overflow < 0 : v < 0);
    read = upy_object_new(r->arena, UPY_INT);
    if (!read)
        return NULL;
    read->u.integer.value = v;
    r->size += 5;
    if (v >= INT32_MIN && v <= INT32_MAX)
        return read;
    magnitude = v < 0 ? (unsigned long long)-v : (unsigned long long)v;
    digits = upy_arena_array(r->arena, 4, sizeof *digits);
    if (!digits)
        return NULL;
    for (; magnitude; magnitude >>= 15)
        digits[n++] = (uint16_t)(magnitude & 0x7FFF);
    read->u.integer.digits = digits;
    read->u.integer.ndigits = n;
    read->u.integer.negative = v < 0;
    r->size += 2 * n;
    return read;
}

/* A str as UTF-8, as marshal writes it: with "surrogatepass", so that a
 * lone surrogate ('\udc80') is the three bytes ED B2 80, which the marshal
 * reader's check lets through.  From 3.10 on the str's own UTF-8 (kept in
 * it: an ASCII str's text as it is) is copied, with no bytes object made
 * for it; a str that has none (a lone surrogate) and every str before 3.10
 * are encoded. */
static upy_object *read_str(live_read *r, PyObject *o) {
    PyObject *utf8 = NULL;
    upy_object *read = NULL;
    const char *text = NULL;
    char *copy;
    Py_ssize_t len;
    if (r->minor >= 10)
        text = PyUnicode_AsUTF8AndSize(o, &len);
    if (!text) {
        PyErr_Clear();
        utf8 = PyUnicode_AsEncodedString(o, "utf-8", "surrogatepass");
        text = utf8 && PyBytes_AsStringAndSize(utf8, &copy, &len) == 0 ? copy
                                                                       : NULL;
    }
    if (text) {
        read = upy_object_new_str(r->arena, (const uint8_t *)text, (size_t)len);
        r->size += 2 + (size_t)len;
    }
    Py_XDECREF(utf8);
    return read;
}

/* Bytes, read in place: the object is held (its tuple or code object, or
 * held_attr) until the engine is done. */
static upy_object *read_bytes(live_read *r, PyObject *o) {
    upy_object *read = upy_object_new(r->arena, UPY_BYTES);
    char *data;
    Py_ssize_t len;
    if (!read || PyBytes_AsStringAndSize(o, &data, &len) < 0)
        return NULL;
    read->u.bytes.data = (const uint8_t *)data;
    read->u.bytes.len = (size_t)len;
    r->size += 5 + (size_t)len;
    return read;
}

static upy_object *read_tuple(live_read *r, PyObject *o) {
    Py_ssize_t n = PyTuple_Size(o), k;
    upy_object *read = upy_object_new_seq(r->arena, UPY_TUPLE, (size_t)n);
    if (!read)
        return NULL;
    r->size += 2;
    for (k = 0; k < n; k++)
        if (!(read->u.seq.items[k] = read_value(r, PyTuple_GetItem(o, k))))
            return NULL;
    read->u.seq.len = (size_t)n;
    return read;
}

static upy_object *read_code(live_read *r, PyObject *code);

/* The items of a 3.11+ frozenset as marshal writes them: sorted as
 * (marshal data of the item alone, item) pairs (w_complex_object, bpo-37596:
 * sorted(v, key=marshal.dumps)).  An item's FLAG_REF bit is set unless its
 * reference count is 1 (w_ref), so each is dumped holding the references
 * marshal holds then: 3.11 and 3.12 walk the set by borrowed references
 * (_PySet_NextEntry), so the one this walk takes is released before the
 * dump (the set holds the item); 3.13 takes one (_PySet_NextEntryRef) and
 * keeps it through the dump.  Example: a str of one holder, 'a b' in
 * frozenset({'a b', 'x'}), is dumped without the flag by 3.11 ('z' type
 * byte, sorted before 'x', whose interned str is always flagged: 0xDA) and
 * with it by 3.13.  A list of pairs; NULL on error (an item marshal
 * refuses: the marshal path says what). */
static PyObject *marshal_order(PyObject *set, int minor) {
    PyObject *pairs = PyList_New(0), *walk = PyObject_GetIter(set), *item,
             *dump, *pair;
    int failed = !pairs || !walk;
    while (!failed && (item = PyIter_Next(walk))) {
        if (minor < 13)
            Py_DECREF(item);
        dump = PyMarshal_WriteObjectToString(item, MARSHAL_VERSION);
        pair = dump ? PyTuple_Pack(2, dump, item) : NULL;
        failed = !pair || PyList_Append(pairs, pair) < 0;
        if (minor >= 13)
            Py_DECREF(item);
        Py_XDECREF(dump);
        Py_XDECREF(pair);
    }
    Py_XDECREF(walk);
    if (failed || PyErr_Occurred() || PyList_Sort(pairs) < 0)
        Py_CLEAR(pairs);
    return pairs;
}

/* A frozenset, its items in the order marshal writes them: iteration order
 * on 3.8-3.10, marshal_order's from 3.11 on. */
static upy_object *read_frozenset(live_read *r, PyObject *o) {
    int sorted = r->minor >= 11;
    PyObject *items = sorted ? marshal_order(o, r->minor) : PySequence_List(o),
             *item;
    Py_ssize_t n = items ? PyList_Size(items) : 0, k;
    upy_object *read =
        items ? upy_object_new_seq(r->arena, UPY_FROZENSET, (size_t)n) : NULL;
    if (read)
        r->size += 5;
    for (k = 0; read && k < n; k++) {
        item = PyList_GetItem(items, k);
        if (!(read->u.seq.items[k] =
                  read_value(r, sorted ? PyTuple_GetItem(item, 1) : item)))
            read = NULL;
    }
    if (read)
        read->u.seq.len = (size_t)n;
    Py_XDECREF(items);
    return read;
}

/* What the marshal reader reads of what marshal writes of o, for the
 * kinds of objects a code object holds; NULL for the others. */
static upy_object *read_object(live_read *r, PyObject *o) {
    if (PyUnicode_CheckExact(o))
        return read_str(r, o);
    if (PyTuple_CheckExact(o))
        return read_tuple(r, o);
    if (PyLong_CheckExact(o))
        return read_int(r, o);
    if (PyBytes_CheckExact(o))
        return read_bytes(r, o);
    if (Py_TYPE(o) == r->code_type)
        return read_code(r, o);
    if (PyFrozenSet_CheckExact(o))
        return read_frozenset(r, o);
    if (PyFloat_CheckExact(o)) {
        upy_object *read = upy_object_new(r->arena, UPY_FLOAT);
        if (read)
            read->u.real = PyFloat_AsDouble(o);
        r->size += 9;
        return read;
    }
    if (PyComplex_CheckExact(o)) {
        upy_object *read = upy_object_new(r->arena, UPY_COMPLEX);
        if (read) {
            read->u.complex.real = PyComplex_RealAsDouble(o);
            read->u.complex.imag = PyComplex_ImagAsDouble(o);
        }
        r->size += 17;
        return read;
    }
    return NULL;
}

/* An object of a code object's fields or constants; NULL when it is left
 * to the marshal path (or on error). */
static upy_object *read_value(live_read *r, PyObject *o) {
    seen_entry *entry;
    upy_object *read;

    r->size++;
    if (r->depth >= CONSTANT_DEPTH_LIMIT)
        return NULL;
    if (o == Py_None || o == Py_True || o == Py_False || o == Py_Ellipsis)
        return upy_object_new(r->arena, o == Py_None    ? UPY_NONE
                                        : o == Py_True  ? UPY_TRUE
                                        : o == Py_False ? UPY_FALSE
                                                        : UPY_ELLIPSIS);
    if (r->seen_cap && (entry = seen_find(r, o))->key)
        return entry->value;
    r->depth++;
    read = read_object(r, o);
    r->depth--;
    return read && seen_add(r, o, read) == 0 ? read : NULL;
}

/* A field of a code object, of the kind the marshal reader demands (a
 * tuple of names: UPY_TUPLE of UPY_STR); NULL when it is not.  *given
 * (when not NULL) gets the Python object. */
static upy_object *read_field(live_read *r, PyObject *code, code_attr attr,
                              upy_kind kind, int names, PyObject **given) {
    PyObject *value = held_attr(r, code, attr);
    upy_object *read = value ? read_value(r, value) : NULL;
    size_t k;
    if (!read || read->kind != kind)
        return NULL;
    for (k = 0; names && k < read->u.seq.len; k++)
        if (read->u.seq.items[k]->kind != UPY_STR)
            return NULL;
    if (given)
        *given = value;
    return read;
}

/* Whether names (a tuple) holds the object name. */
static int holds_name(const upy_object *names, const upy_object *name) {
    size_t k;
    for (k = 0; k < names->u.seq.len; k++)
        if (names->u.seq.items[k] == name)
            return 1;
    return 0;
}

/* co_localsplusnames and co_localspluskinds of a 3.11+ code object, from
 * its varnames, cellvars and freevars; -1 when out of memory. */
static int put_localsplus(live_read *r, upy_code *co) {
    size_t nv = co->varnames->u.seq.len, nc = co->cellvars->u.seq.len,
           nf = co->freevars->u.seq.len, n = 0, k;
    upy_object *names = upy_object_new_seq(r->arena, UPY_TUPLE, nv + nc + nf);
    upy_object *kinds = upy_object_new(r->arena, UPY_BYTES);
    uint8_t *kind = upy_arena_alloc(r->arena, nv + nc + nf + 1);
    if (!names || !kinds || !kind)
        return -1;
    for (k = 0; k < nv; k++, n++) {
        names->u.seq.items[n] = co->varnames->u.seq.items[k];
        kind[n] =
            UPY_FAST_LOCAL |
            (holds_name(co->cellvars, names->u.seq.items[n]) ? UPY_FAST_CELL
                                                             : 0);
    }
    for (k = 0; k < nc; k++)
        if (!holds_name(co->varnames, co->cellvars->u.seq.items[k])) {
            names->u.seq.items[n] = co->cellvars->u.seq.items[k];
            kind[n++] = UPY_FAST_CELL;
        }
    for (k = 0; k < nf; k++, n++) {
        names->u.seq.items[n] = co->freevars->u.seq.items[k];
        kind[n] = UPY_FAST_FREE;
    }
    names->u.seq.len = n;
    kinds->u.bytes.data = kind;
    kinds->u.bytes.len = n;
    co->localsplusnames = names;
    co->localspluskinds = kinds;
    co->nlocals = (int)nv;
    return 0;
}

/* The int fields, in the order marshal writes them. */
static int read_code_ints(live_read *r, PyObject *code, upy_code *co) {
    int32_t flags, firstlineno;
    if (read_int_attr(r, code, ATTR_ARGCOUNT, &co->argcount) < 0 ||
        read_int_attr(r, code, ATTR_POSONLYARGCOUNT, &co->posonlyargcount) <
            0 ||
        read_int_attr(r, code, ATTR_KWONLYARGCOUNT, &co->kwonlyargcount) < 0 ||
        (r->minor < 11 &&
         read_int_attr(r, code, ATTR_NLOCALS, &co->nlocals) < 0) ||
        read_int_attr(r, code, ATTR_STACKSIZE, &co->stacksize) < 0 ||
        read_int_attr(r, code, ATTR_FLAGS, &flags) < 0 ||
        read_int_attr(r, code, ATTR_FIRSTLINENO, &firstlineno) < 0)
        return -1;
    co->flags = (uint32_t)flags;
    co->firstlineno = firstlineno;
    return 0;
}

static upy_object *read_code(live_read *r, PyObject *code) {
    PyObject *consts = NULL;
    int localsplus = r->minor >= 11, top = code == r->source->code;
    upy_object *read = upy_object_new(r->arena, UPY_CODE);
    upy_code *co = upy_arena_alloc(r->arena, sizeof *co);
    if (!read || !co || read_code_ints(r, code, co) < 0)
        return NULL;
    read->u.code = co;
    if (!(co->code = read_field(r, code, ATTR_CODE, UPY_BYTES, 0, NULL)) ||
        !(co->consts =
              read_field(r, code, ATTR_CONSTS, UPY_TUPLE, 0, &consts)) ||
        scan_code_values(code, consts, r->source->ops, NULL) != 0 ||
        !(co->names = read_field(r, code, ATTR_NAMES, UPY_TUPLE, 1, NULL)) ||
        !(co->varnames = read_field(r, code, ATTR_VARNAMES, UPY_TUPLE, 1,
                                    top ? &r->source->varnames : NULL)) ||
        !(co->freevars =
              read_field(r, code, ATTR_FREEVARS, UPY_TUPLE, 1, NULL)) ||
        !(co->cellvars =
              read_field(r, code, ATTR_CELLVARS, UPY_TUPLE, 1, NULL)) ||
        !(co->filename =
              read_field(r, code, ATTR_FILENAME, UPY_STR, 0, NULL)) ||
        !(co->name = read_field(r, code, ATTR_NAME, UPY_STR, 0,
                                top ? &r->source->name : NULL)) ||
        (localsplus && !(co->qualname = read_field(r, code, ATTR_QUALNAME,
                                                   UPY_STR, 0, NULL))) ||
        !(co->linetable =
              read_field(r, code, r->minor >= 10 ? ATTR_LINETABLE : ATTR_LNOTAB,
                         UPY_BYTES, 0, NULL)) ||
        (localsplus &&
         !(co->exceptiontable =
               read_field(r, code, ATTR_EXCEPTIONTABLE, UPY_BYTES, 0, NULL))))
        return NULL;
    return localsplus && put_localsplus(r, co) < 0 ? NULL : read;
}

unpyc_status read_live_code(void *source, upy_version version, upy_arena *arena,
                            upy_code **code, size_t *size, unpyc_error *err) {
    live_source *s = source;
    live_read r;
    upy_object *read = NULL;

    memset(&r, 0, sizeof r);
    r.source = s;
    r.arena = arena;
    r.minor = version.minor;
    r.code_type = Py_TYPE(s->code);
    if (version.major == 3 && version.minor >= 8 && version.minor <= 13)
        read = read_value(&r, s->code);
    *size = r.size;
    if (read && read->kind == UPY_CODE)
        *code = read->u.code;
    else
        s->left = 1;
    PyErr_Clear();
    s->released = PyEval_SaveThread();
    if (s->left)
        return upy_fail(err, UNPYC_E_UNSUPPORTED, -1,
                        "the code object is left to the marshal reader");
    return UNPYC_OK;
}
