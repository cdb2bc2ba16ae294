/*
 * engine_module.c - unpyc._engine, the CPython binding of libunpyc.
 *
 * Thin on purpose: bytes in, str out, and one exception type carrying the
 * engine's status name, message and offset; the unpyc package turns that
 * into its own exception classes.  Built against the stable ABI (3.8), so
 * the same binary imports on every supported interpreter.  The engine runs
 * without the GIL: it touches no Python object.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

static PyObject *decompile_marshal(PyObject *module, PyObject *args) {
    PyObject *data, *stable = NULL, *held = NULL, *result = NULL;
    const char **names = NULL;
    Py_ssize_t n_names = 0;
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
    if (!stable || utf8_names(stable, &held, &names, &n_names) == 0) {
        options.stable_globals = names;
        options.n_stable_globals = (size_t)n_names;
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
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    "unpyc._engine",
    "The unpyc engine (libunpyc), bytes in and text out.",
    -1,
    engine_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__engine(void) {
    PyObject *module = PyModule_Create(&engine_module);
    PyObject *error;

    if (!module)
        return NULL;
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
