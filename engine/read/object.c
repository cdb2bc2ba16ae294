/*
 * object.c - making the read layer's objects; see object.h.  Shared by the
 * marshal reader and the Python extension's reader of live code objects
 * (python/code_reader.c), so both build the same graph.
 */
#include "read/object.h"

#include <string.h>

upy_object *upy_object_new(upy_arena *arena, upy_kind kind) {
    upy_object *o = upy_arena_alloc(arena, sizeof *o);
    if (o)
        o->kind = kind;
    return o;
}

/* The items array sits right after the object, in one allocation (a tuple
 * and its items took two; a code object has five tuples or more). */
upy_object *upy_object_new_seq(upy_arena *arena, upy_kind kind, size_t n) {
    upy_object *o;
    _Static_assert(sizeof(upy_object) % _Alignof(upy_object *) == 0,
                   "the items that follow an object are aligned");
    if (n > (SIZE_MAX - sizeof *o) / sizeof(upy_object *))
        return NULL;
    o = upy_arena_alloc(arena, sizeof *o + n * sizeof(upy_object *));
    if (o) {
        o->kind = kind;
        o->u.seq.items = (upy_object **)(o + 1);
    }
    return o;
}

/* The text sits right after the object, in one allocation (a str and its
 * text took two: names are most of a code object's objects). */
upy_object *upy_object_new_str(upy_arena *arena, const uint8_t *text,
                               size_t n) {
    upy_object *o;
    uint8_t *copy;
    if (n > SIZE_MAX - sizeof *o - 1)
        return NULL;
    o = upy_arena_alloc(arena, sizeof *o + n + 1);
    if (!o)
        return NULL;
    copy = (uint8_t *)(o + 1);
    memcpy(copy, text, n);
    copy[n] = 0;
    o->kind = UPY_STR;
    o->u.bytes.data = copy;
    o->u.bytes.len = n;
    return o;
}
