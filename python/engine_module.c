/*
 * engine_module.c - unpyc._engine, the CPython binding of libunpyc.
 *
 * Thin on purpose: bytes or a live code object in (decompile_code: read by
 * code_reader.c, with the GIL, into the engine's own structs), str out,
 * and one exception type carrying the engine's status name, message and
 * offset; the unpyc package turns that into its own exception classes.
 * Built against the stable ABI (3.8), so the same binary imports on every
 * supported interpreter.  The engine runs without the GIL: it touches no
 * Python object.  Besides the engine's calls, two helpers of
 * unpyc/_placeholders.py read code objects (below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "code_reader.h"
#include "unpyc.h"

/* Raises module.EngineError(status_name, message, offset or None). */
static PyObject *raise_engine_error(PyObject *module, const unpyc_error *err) {
    PyObject *type = PyObject_GetAttrString(module, "EngineError");
    PyObject *offset, *exc;

    if (!type)
        return NULL;
    if (err->offset >= 0) {
        offset = PyLong_FromLongLong(err->offset);
    } else {
        offset = Py_None;
        Py_INCREF(offset);
    }
    exc = offset ? PyObject_CallFunction(type, "ssO",
                                         unpyc_status_name(err->status),
                                         err->message, offset)
                 : NULL;
    if (exc) {
        PyErr_SetObject(type, exc);
        Py_DECREF(exc);
    }
    Py_XDECREF(offset);
    Py_DECREF(type);
    return NULL;
}

/* Hands engine output to Python as str; the engine writes UTF-8. */
static PyObject *finish(PyObject *module, unpyc_status st, char *out,
                        size_t out_len, const unpyc_error *err) {
    PyObject *text;
    if (st != UNPYC_OK)
        return raise_engine_error(module, err);
    text = PyUnicode_DecodeUTF8(out, (Py_ssize_t)out_len, "surrogatepass");
    unpyc_free(out);
    return text;
}

static PyObject *dis_pyc(PyObject *module, PyObject *args) {
    PyObject *data;
    int json;
    char *buf, *out = NULL;
    Py_ssize_t len;
    size_t out_len = 0;
    unpyc_error err;
    unpyc_status st;

    if (!PyArg_ParseTuple(args, "Sp:dis_pyc", &data, &json))
        return NULL;
    if (PyBytes_AsStringAndSize(data, &buf, &len) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS st = unpyc_dis_pyc(
        (const uint8_t *)buf, (size_t)len,
        json ? UNPYC_DIS_JSON : UNPYC_DIS_TEXT, &out, &out_len, &err);
    Py_END_ALLOW_THREADS return finish(module, st, out, out_len, &err);
}

static PyObject *dis_marshal(PyObject *module, PyObject *args) {
    PyObject *data;
    int major, minor, json;
    char *buf, *out = NULL;
    Py_ssize_t len;
    size_t out_len = 0;
    unpyc_error err;
    unpyc_status st;

    if (!PyArg_ParseTuple(args, "Siip:dis_marshal", &data, &major, &minor,
                          &json))
        return NULL;
    if (PyBytes_AsStringAndSize(data, &buf, &len) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS st = unpyc_dis_marshal(
        (const uint8_t *)buf, (size_t)len, major, minor,
        json ? UNPYC_DIS_JSON : UNPYC_DIS_TEXT, &out, &out_len, &err);
    Py_END_ALLOW_THREADS return finish(module, st, out, out_len, &err);
}

/* Decompiled source and the count of unrecovered parts, as a tuple. */
static PyObject *finish_source(PyObject *module, unpyc_status st, char *out,
                               size_t out_len, unsigned unrecovered,
                               const unpyc_error *err) {
    PyObject *text = finish(module, st, out, out_len, err);
    return text ? Py_BuildValue("(NI)", text, unrecovered) : NULL;
}

static PyObject *decompile_pyc(PyObject *module, PyObject *args) {
    PyObject *data;
    char *buf, *out = NULL;
    Py_ssize_t len;
    size_t out_len = 0;
    unsigned unrecovered = 0;
    unpyc_error err;
    unpyc_status st;

    if (!PyArg_ParseTuple(args, "S:decompile_pyc", &data))
        return NULL;
    if (PyBytes_AsStringAndSize(data, &buf, &len) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS st = unpyc_decompile_pyc(
        (const uint8_t *)buf, (size_t)len, &out, &out_len, &unrecovered, &err);
    Py_END_ALLOW_THREADS return finish_source(module, st, out, out_len,
                                              unrecovered, &err);
}

/* The names a tuple of str holds, as UTF-8 bytes objects (kept in *held,
 * a new tuple) and C strings into them (*names, PyMem_Malloc'd). */
static int utf8_names(PyObject *given, PyObject **held, const char ***names,
                      Py_ssize_t *n) {
    Py_ssize_t k;
    *n = PyTuple_Size(given);
    *held = *n < 0 ? NULL : PyTuple_New(*n);
    *names = *held ? PyMem_Malloc(sizeof **names * (size_t)(*n + 1)) : NULL;
    if (!*names)
        return -1;
    for (k = 0; k < *n; k++) {
        PyObject *name = PyTuple_GetItem(given, k);
        PyObject *bytes = name && PyUnicode_Check(name)
                              ? PyUnicode_AsUTF8String(name)
                              : NULL;
        if (!bytes) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError,
                                "stable_globals must be a tuple of str");
            return -1;
        }
        PyTuple_SetItem(*held, k, bytes); /* steals the reference */
        (*names)[k] = PyBytes_AsString(bytes);
    }
    return 0;
}

/* The options of a call given the tuple of stable globals (or NULL): the
 * names are kept in *held and *names (NULL and NULL when none are given);
 * -1 on error. */
static int stable_options(PyObject *stable, PyObject **held,
                          const char ***names,
                          unpyc_decompile_options *options) {
    Py_ssize_t n_names = 0;
    if (stable && PyTuple_Size(stable) == 0)
        stable = NULL; /* the usual call: nothing to convert */
    if (stable && utf8_names(stable, held, names, &n_names) < 0)
        return -1;
    options->stable_globals = *names;
    options->n_stable_globals = (size_t)n_names;
    return 0;
}

static PyObject *decompile_marshal(PyObject *module, PyObject *args) {
    PyObject *data, *stable = NULL, *held = NULL, *result = NULL;
    const char **names = NULL;
    int major, minor;
    char *buf, *out = NULL;
    Py_ssize_t len;
    size_t out_len = 0;
    unsigned unrecovered = 0;
    unpyc_decompile_options options;
    unpyc_error err;
    unpyc_status st;

    if (!PyArg_ParseTuple(args, "Sii|O!:decompile_marshal", &data, &major,
                          &minor, &PyTuple_Type, &stable))
        return NULL;
    if (PyBytes_AsStringAndSize(data, &buf, &len) < 0)
        return NULL;
    if (stable_options(stable, &held, &names, &options) == 0) {
        Py_BEGIN_ALLOW_THREADS st = unpyc_decompile_marshal_with(
            (const uint8_t *)buf, (size_t)len, major, minor, &options, &out,
            &out_len, &unrecovered, &err);
        Py_END_ALLOW_THREADS result =
            finish_source(module, st, out, out_len, unrecovered, &err);
    }
    PyMem_Free(names);
    Py_XDECREF(held);
    return result;
}

static PyObject *pyc_version(PyObject *module, PyObject *args) {
    PyObject *data;
    char *buf;
    Py_ssize_t len;
    int major = 0, minor = 0;
    unpyc_error err;
    unpyc_status st;

    if (!PyArg_ParseTuple(args, "S:pyc_version", &data))
        return NULL;
    if (PyBytes_AsStringAndSize(data, &buf, &len) < 0)
        return NULL;
    st = unpyc_pyc_version((const uint8_t *)buf, (size_t)len, &major, &minor,
                           &err);
    if (st != UNPYC_OK)
        return raise_engine_error(module, &err);
    return Py_BuildValue("(ii)", major, minor);
}

/*
 * Whether a code object needs stand-ins for constants (unpyc/_placeholders.py
 * says why and makes them): every decompile asks this of its whole code
 * tree before marshal.dumps, and the walk in Python took a quarter of the
 * time the engine takes on a module.  Only this question and the scan for
 * code objects loaded as values live here; the stand-ins are made in Python.
 */

/* The attribute names the helpers read, interned once when the module is
 * made: PyObject_GetAttrString makes a str each time, and interning them
 * per call was a fifth of stand_ins_needed's cost on a small function. */
typedef struct {
    PyObject *attr_names[N_CODE_ATTRS]; /* by code_attr */
    code_getters getters;
    int minor; /* the running interpreter's minor version */
} engine_state;

static engine_state *state_of(PyObject *module) {
    return (engine_state *)PyModule_GetState(module);
}

/* Constants marshal writes and reads back as what they were, and the
 * engine prints as literals (exact types: a subclass is something else). */
static int is_literal(PyObject *o) {
    return PyUnicode_CheckExact(o) || o == Py_None || PyLong_CheckExact(o) ||
           o == Py_Ellipsis || PyBool_Check(o) || PyFloat_CheckExact(o) ||
           PyComplex_CheckExact(o) || PyBytes_CheckExact(o);
}

static int leaves_literal(PyObject *o, PyTypeObject *code_type, int depth);

/* Whether every item of an iterable is a literal leaf; -1 on error.  A
 * tuple (most of them) is read by index, without an iterator. */
static int items_literal(PyObject *items, PyTypeObject *code_type, int depth) {
    PyObject *iter, *item;
    Py_ssize_t k, n;
    int literal = 1;

    if (PyTuple_CheckExact(items)) {
        n = PyTuple_Size(items);
        for (k = 0; k < n && literal == 1; k++) {
            item = PyTuple_GetItem(items, k);
            literal = item ? leaves_literal(item, code_type, depth + 1) : -1;
        }
        return literal;
    }
    iter = PyObject_GetIter(items);
    if (!iter)
        return -1;
    while (literal == 1 && (item = PyIter_Next(iter)) != NULL) {
        literal = leaves_literal(item, code_type, depth + 1);
        Py_DECREF(item);
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : literal;
}

/* Whether o is a literal, or a tuple or frozenset (exactly) or a code
 * object whose constants are such, at any depth; -1 on error. */
static int leaves_literal(PyObject *o, PyTypeObject *code_type, int depth) {
    PyObject *consts;
    int literal;

    if (is_literal(o))
        return 1;
    if (depth > CONSTANT_DEPTH_LIMIT)
        return 0;
    if (PyTuple_CheckExact(o) || PyFrozenSet_CheckExact(o))
        return items_literal(o, code_type, depth);
    if (Py_TYPE(o) != code_type)
        return 0;
    consts = PyObject_GetAttrString(o, "co_consts");
    literal = consts ? items_literal(consts, code_type, depth) : -1;
    Py_XDECREF(consts);
    return literal;
}

/* values.append(index); -1 on error. */
static int append_index(PyObject *values, Py_ssize_t index) {
    PyObject *number = PyLong_FromSsize_t(index);
    int st = number ? PyList_Append(values, number) : -1;
    Py_XDECREF(number);
    return st;
}

/* Whether the instructions after the one at offset at, EXTENDED_ARG and
 * CACHE entries left out, are MAKE_FUNCTION, or LOAD_CONST (3.8-3.10's
 * qualified name) then MAKE_FUNCTION. */
static int makes_function(const unsigned char *raw, Py_ssize_t len,
                          Py_ssize_t at, const value_ops *ops) {
    Py_ssize_t k;
    int after_load = 0;

    for (k = at + 2; k < len; k += 2) {
        if (raw[k] == ops->extended_arg || raw[k] == ops->cache)
            continue;
        if (raw[k] == ops->make_function)
            return 1;
        if (after_load || raw[k] != ops->load_const)
            return 0;
        after_load = 1;
    }
    return 0;
}

/* The argument of the instruction at even offset at, with those of the
 * EXTENDED_ARG instructions before it; -1 when past any constant index. */
static Py_ssize_t argument(const unsigned char *raw, Py_ssize_t at,
                           const value_ops *ops) {
    long long arg = raw[at + 1];
    int shift = 8;

    while (at >= 2 && raw[at - 2] == ops->extended_arg) {
        at -= 2;
        if (raw[at + 1] && shift > 32)
            return -1;
        arg |= (long long)raw[at + 1] << shift;
        shift += 8;
    }
    return arg > PY_SSIZE_T_MAX ? -1 : (Py_ssize_t)arg;
}

/* Whether the tuple consts holds an object of code_type. */
static int holds_code(PyObject *consts, PyTypeObject *code_type) {
    Py_ssize_t k, n = PyTuple_Size(consts);
    for (k = 0; k < n; k++)
        if (Py_TYPE(PyTuple_GetItem(consts, k)) == code_type)
            return 1;
    return 0;
}

/* Appends to values (when not NULL) the co_consts index of each code
 * object code loads as a value, not to make a function of: no source
 * makes such a value.  Returns how many it found (without values: 0 or 1,
 * it stops at the first), -1 on error. */
Py_ssize_t scan_code_values(PyObject *code, PyObject *consts,
                            const value_ops *ops, PyObject *values) {
    PyObject *code_bytes;
    Py_ssize_t found = -1, len, n, at, index;
    char *raw;

    if (!holds_code(consts, Py_TYPE(code)))
        return 0; /* nothing to load: most code, and its co_code unread */
    code_bytes = PyObject_GetAttr(code, ops->co_code);
    if (code_bytes && PyBytes_AsStringAndSize(code_bytes, &raw, &len) == 0) {
        const unsigned char *ops_at = (const unsigned char *)raw;
        n = PyTuple_Size(consts);
        for (found = 0, at = 0; at + 1 < len && found >= 0; at += 2) {
            if (ops_at[at] != ops->load_const ||
                makes_function(ops_at, len, at, ops))
                continue;
            index = argument(ops_at, at, ops);
            if (index < 0 || index >= n ||
                Py_TYPE(PyTuple_GetItem(consts, index)) != Py_TYPE(code))
                continue;
            found++;
            if (!values)
                break;
            found = append_index(values, index) < 0 ? -1 : found;
        }
    }
    Py_XDECREF(code_bytes);
    return found;
}

static int code_needs_stand_ins(PyObject *code, const value_ops *ops,
                                int depth);

/* Whether a constant of some code needs a stand-in, looking at each code
 * object among consts on its own; -1 on error. */
static int consts_need_stand_ins(PyObject *consts, PyObject *code,
                                 const value_ops *ops, int depth) {
    Py_ssize_t k, n = PyTuple_Size(consts);
    int needed = n < 0 ? -1 : 0;

    for (k = 0; k < n && needed == 0; k++) {
        PyObject *item = PyTuple_GetItem(consts, k);
        if (!item)
            return -1;
        if (Py_TYPE(item) == Py_TYPE(code))
            needed = code_needs_stand_ins(item, ops, depth + 1);
        else if ((needed = leaves_literal(item, Py_TYPE(code), depth)) >= 0)
            needed = !needed;
    }
    return needed;
}

/* Whether code or its nested code holds a constant no literal makes or
 * loads a code object as a value; -1 on error. */
static int code_needs_stand_ins(PyObject *code, const value_ops *ops,
                                int depth) {
    PyObject *consts;
    Py_ssize_t values;
    int needed;

    if (depth > CONSTANT_DEPTH_LIMIT)
        return 1;
    consts = PyObject_GetAttr(code, ops->co_consts);
    if (!consts)
        return -1;
    values = scan_code_values(code, consts, ops, NULL);
    if (values != 0)
        needed = values < 0 ? -1 : 1;
    else
        needed = consts_need_stand_ins(consts, code, ops, depth);
    Py_DECREF(consts);
    return needed;
}

/* A code object and the opcodes tuple (LOAD_CONST, MAKE_FUNCTION,
 * EXTENDED_ARG, CACHE) from the arguments, with the module's attribute
 * names. */
static int code_and_ops(PyObject *module, PyObject *args, const char *format,
                        PyObject **code, value_ops *ops) {
    const engine_state *state = state_of(module);
    ops->co_consts = state->attr_names[ATTR_CONSTS];
    ops->co_code = state->attr_names[ATTR_CODE];
    if (!PyArg_ParseTuple(args, format, code, &ops->load_const,
                          &ops->make_function, &ops->extended_arg, &ops->cache))
        return -1;
    if (PyObject_HasAttr(*code, ops->co_code))
        return 0;
    PyErr_SetString(PyExc_TypeError, "a code object is needed");
    return -1;
}

static PyObject *stand_ins_needed(PyObject *module, PyObject *args) {
    PyObject *code;
    value_ops ops;
    int needed = -1;

    if (code_and_ops(module, args, "O(iiii):stand_ins_needed", &code, &ops) ==
        0)
        needed = code_needs_stand_ins(code, &ops, 0);
    return needed < 0 ? NULL : PyBool_FromLong(needed);
}

static PyObject *code_values(PyObject *module, PyObject *args) {
    PyObject *code, *consts = NULL, *values = NULL;
    value_ops ops;

    if (code_and_ops(module, args, "O(iiii):code_values", &code, &ops) == 0)
        consts = PyObject_GetAttr(code, ops.co_consts);
    values = consts ? PyList_New(0) : NULL;
    if (values && scan_code_values(code, consts, &ops, values) < 0)
        Py_CLEAR(values);
    Py_XDECREF(consts);
    return values;
}

/* Whether the str name is an identifier.  From 3.10 on (minor) ASCII text
 * is read here, as str.isidentifier reads it: a letter or _, then
 * letters, digits and _ (an ASCII str's UTF-8 is its own text, no copy);
 * other text by PyUnicode_IsIdentifier, which took ~270 instructions a
 * name (perf44: ~0.8 k of a median function's call). */
static int is_identifier(PyObject *name, int minor) {
    Py_ssize_t k, len = 0;
    const char *text = minor >= 10 ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
    if (!text) {
        PyErr_Clear(); /* a lone surrogate: no UTF-8 */
        return PyUnicode_IsIdentifier(name);
    }
    for (k = 0; k < len; k++) {
        unsigned char c = (unsigned char)text[k];
        if (c >= 0x80)
            return PyUnicode_IsIdentifier(name);
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (k > 0 && c >= '0' && c <= '9')))
            return 0;
    }
    return len > 0;
}

/* Whether every str of the tuple names is an identifier; -1 on error. */
static int all_identifiers(PyObject *names, int minor) {
    Py_ssize_t k, n = PyTuple_Size(names);
    int valid = n < 0 ? -1 : 1;
    for (k = 0; k < n && valid == 1; k++) {
        PyObject *name = PyTuple_GetItem(names, k);
        valid =
            !name ? -1 : PyUnicode_Check(name) && is_identifier(name, minor);
    }
    return valid;
}

/* Whether the engine's statement for a code object alone is valid Python as
 * far as names go (names_printable; -1 on error), given its co_name and
 * co_varnames: a module's, or a def or class whose name and variables are
 * identifiers (a lambda's is a lambda expression when its body is one; the
 * caller looks).  Asked of every code object decompiled: in Python,
 * str.isidentifier over co_varnames took a fifth of the package's own cost
 * around the engine on a small function. */
static int printable(PyObject *name, PyObject *varnames, int minor) {
    int valid = PyUnicode_CompareWithASCIIString(name, "<module>") == 0;
    if (!valid && is_identifier(name, minor))
        valid = all_identifiers(varnames, minor);
    return valid;
}

/* printable() of a code object's own fields. */
static int printable_names(const engine_state *state, PyObject *code) {
    PyObject *name = PyObject_GetAttr(code, state->attr_names[ATTR_NAME]),
             *varnames = NULL;
    int valid = -1;

    if (name && PyUnicode_Check(name)) {
        varnames = PyObject_GetAttr(code, state->attr_names[ATTR_VARNAMES]);
        valid = varnames && PyTuple_Check(varnames)
                    ? printable(name, varnames, state->minor)
                    : -1;
    } else if (name) {
        PyErr_SetString(PyExc_TypeError, "a code object is needed");
    }
    Py_XDECREF(name);
    Py_XDECREF(varnames);
    return valid;
}

static PyObject *names_printable(PyObject *module, PyObject *code) {
    int valid = printable_names(state_of(module), code);
    return valid < 0 ? NULL : PyBool_FromLong(valid);
}

/* decompile_code's arguments, unpacked without a format string (parsing
 * "OiiO!(iiii)" took a fortieth of a small function's call). */
static int code_arguments(PyObject *args, PyObject **code, int *major,
                          int *minor, PyObject **stable, value_ops *ops) {
    PyObject *major_given, *minor_given, *opcodes;
    int *const opcode[4] = {&ops->load_const, &ops->make_function,
                            &ops->extended_arg, &ops->cache};
    Py_ssize_t k;

    if (!PyArg_UnpackTuple(args, "decompile_code", 5, 5, code, &major_given,
                           &minor_given, stable, &opcodes))
        return -1;
    if (!PyTuple_Check(*stable) || !PyTuple_Check(opcodes) ||
        PyTuple_Size(opcodes) != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "decompile_code: stable_globals must be a tuple and "
                        "opcodes a tuple of 4 ints");
        return -1;
    }
    *major = (int)PyLong_AsLong(major_given);
    *minor = (int)PyLong_AsLong(minor_given);
    for (k = 0; k < 4; k++)
        *opcode[k] = (int)PyLong_AsLong(PyTuple_GetItem(opcodes, k));
    return PyErr_Occurred() ? -1 : 0;
}

/* The engine's answer for a live code object of the running interpreter,
 * read by code_reader.c without marshal data, in the usual case: when
 * unpyc.decompile would take it as it is (no constant needs a stand-in;
 * names_printable, or the source a lambda expression) and the engine's
 * marks, if any, read the same for marshal data.  False when only the names
 * stand in the way (a comprehension's code: the caller renames them first,
 * with_valid_names, and need not decompile it as it is).  Otherwise None,
 * and the caller takes the package's general way (StandIns, marshal.dumps,
 * decompile_marshal): what the reader leaves to it, every failure (its
 * message and offset are the marshal path's to give) and code with a part
 * whose mark may quote the input (upy_decompile_read's input_marks: an
 * offset in the marshal data, or the memory limit its length sets). */
static PyObject *decompile_code(PyObject *module, PyObject *args) {
    const engine_state *state = state_of(module);
    PyObject *code, *stable, *held = NULL, *result = NULL;
    const char **names = NULL;
    int major, minor, names_valid;
    char *out = NULL;
    size_t out_len = 0;
    unsigned unrecovered = 0, input_marks = 0;
    unpyc_decompile_options options;
    unpyc_error err;
    unpyc_status st = UNPYC_E_UNSUPPORTED;
    live_source source;
    value_ops ops;

    if (code_arguments(args, &code, &major, &minor, &stable, &ops) < 0)
        return NULL;
    ops.co_consts = state->attr_names[ATTR_CONSTS];
    ops.co_code = state->attr_names[ATTR_CODE];
    if (stable_options(stable, &held, &names, &options) < 0)
        return NULL;
    live_source_init(&source, code, state->attr_names, &state->getters, &ops);
    st = upy_decompile_read(read_live_code, &source, major, minor, &options,
                            &out, &out_len, &unrecovered, &input_marks, &err);
    if (source.released)
        PyEval_RestoreThread(source.released);
    /* (The names check reads the fields the reader holds: once read, they
     * are a str and a tuple of str.) */
    names_valid = st == UNPYC_OK
                      ? printable(source.name, source.varnames, state->minor)
                      : -1;
    PyErr_Clear(); /* the general way says what went wrong */
    live_source_end(&source);
    if (st == UNPYC_OK && input_marks == 0 &&
        (names_valid == 1 || strncmp(out, "lambda", 6) == 0)) {
        result = finish_source(module, st, out, out_len, unrecovered, &err);
    } else {
        unpyc_free(out);
        result = names_valid == 0 && input_marks == 0 ? Py_False : Py_None;
        Py_INCREF(result);
    }
    PyMem_Free(names);
    Py_XDECREF(held);
    return result;
}

static PyMethodDef engine_methods[] = {
    {"pyc_version", pyc_version, METH_VARARGS,
     "pyc_version(data: bytes) -> (int, int)\n\n"
     "The CPython version (major, minor) that wrote a .pyc file, from its "
     "header."},
    {"dis_pyc", dis_pyc, METH_VARARGS,
     "dis_pyc(data: bytes, json: bool) -> str\n\n"
     "Disassembles the bytes of a whole .pyc file."},
    {"dis_marshal", dis_marshal, METH_VARARGS,
     "dis_marshal(data: bytes, major: int, minor: int, json: bool) -> str\n\n"
     "Disassembles marshal data of a code object written by CPython "
     "major.minor."},
    {"decompile_pyc", decompile_pyc, METH_VARARGS,
     "decompile_pyc(data: bytes) -> (str, int)\n\n"
     "Decompiles the bytes of a whole .pyc file: the source, and how many "
     "parts could not be recovered (marked as comments in it)."},
    {"decompile_marshal", decompile_marshal, METH_VARARGS,
     "decompile_marshal(data: bytes, major: int, minor: int,"
     " stable_globals: tuple = ()) -> (str, int)"
     "\n\nDecompiles marshal data of a code object written by CPython "
     "major.minor.  stable_globals: names of globals the caller vouches "
     "are bound and never rebound while the code runs (unpyc.h, "
     "unpyc_decompile_options)."},
    {"decompile_code", decompile_code, METH_VARARGS,
     "decompile_code(code, major: int, minor: int, stable_globals: tuple,"
     " opcodes: (int, int, int, int)) -> (str, int), False or None\n\n"
     "decompile_marshal(marshal.dumps(code), ...), read from the live code "
     "object without marshal data, when the code needs no stand-in and "
     "names_printable(code) or the source is a lambda expression; False "
     "when only the names are not printable (rename them, then decompile); "
     "None when the answer is to be had the general way (stand-ins, a "
     "constant or field the reader leaves to marshal data, a failure, a "
     "mark that may quote the marshal data).  opcodes: as "
     "stand_ins_needed's."},
    {"stand_ins_needed", stand_ins_needed, METH_VARARGS,
     "stand_ins_needed(code, opcodes: (int, int, int, int)) -> bool\n\n"
     "Whether code or its nested code holds a constant that is not a "
     "literal (nor a tuple or frozenset of them) or loads a code object as a "
     "value.  opcodes: LOAD_CONST, MAKE_FUNCTION, EXTENDED_ARG and CACHE "
     "of the running interpreter."},
    {"names_printable", names_printable, METH_O,
     "names_printable(code) -> bool\n\n"
     "Whether code is a module's, or its name and co_varnames are all "
     "identifiers (str.isidentifier)."},
    {"code_values", code_values, METH_VARARGS,
     "code_values(code, opcodes: (int, int, int, int)) -> list\n\n"
     "The co_consts indexes of the code objects code loads as values, not "
     "to make a function of (MAKE_FUNCTION next, or LOAD_CONST then "
     "MAKE_FUNCTION; EXTENDED_ARG and CACHE entries left out)."},
    {NULL, NULL, 0, NULL},
};

static void free_state(void *module) {
    engine_state *state = state_of(module);
    int k;
    if (!state)
        return;
    for (k = 0; k < N_CODE_ATTRS; k++)
        Py_CLEAR(state->attr_names[k]);
    code_getters_clear(&state->getters);
}

/* The running interpreter's minor version, from sys.version_info; -1 on
 * error. */
static int running_minor(void) {
    PyObject *info = PySys_GetObject("version_info"); /* borrowed */
    PyObject *minor = info ? PySequence_GetItem(info, 1) : NULL;
    long value = minor ? PyLong_AsLong(minor) : -1;
    Py_XDECREF(minor);
    if (!info && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "no sys.version_info");
    return (int)value;
}

/* Interns the attribute names into the module's state and takes the code
 * type's descriptors of them; -1 on error. */
static int init_state(PyObject *module) {
    engine_state *state = state_of(module);
    int k;
    for (k = 0; k < N_CODE_ATTRS; k++)
        if (!(state->attr_names[k] =
                  PyUnicode_InternFromString(code_attr_names[k])))
            return -1;
    if ((state->minor = running_minor()) < 0)
        return -1;
    return code_getters_init(&state->getters, state->attr_names);
}

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    "unpyc._engine",
    "The unpyc engine (libunpyc), bytes in and text out.",
    sizeof(engine_state),
    engine_methods,
    NULL,
    NULL,
    NULL,
    free_state,
};

PyMODINIT_FUNC PyInit__engine(void) {
    PyObject *module = PyModule_Create(&engine_module);
    PyObject *error;

    if (!module)
        return NULL;
    if (init_state(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    error = PyErr_NewExceptionWithDoc(
        "unpyc._engine.EngineError",
        "A failure of the engine: args are (status name, message, offset "
        "or None).",
        NULL, NULL);
    if (!error || PyModule_AddObject(module, "EngineError", error) < 0) {
        Py_XDECREF(error);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
