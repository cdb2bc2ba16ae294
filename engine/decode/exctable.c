/*
 * exctable.c - decoding the 3.11+ exception table; see exctable.h.
 *
 * Each entry is four varints (start, length, target in code units, then
 * depth << 1 | lasti).  A varint is 6-bit groups, most significant first,
 * bit 6 set on every group but the last; bit 7 marks the first byte of an
 * entry and is ignored when reading (as dis._parse_varint does).  dis stops
 * silently at a cut entry; we call that corrupt, since CPython never writes
 * one.
 */
#include "decode/exctable.h"

#include "util/error.h"

/* Values beyond this cannot be offsets in any real code object. */
#define VARINT_MAX ((uint32_t)1 << 30)

static int read_varint(const uint8_t *p, size_t len, size_t *pos,
                       uint32_t *value) {
    uint32_t v;
    uint8_t b;

    if (*pos >= len)
        return -1;
    b = p[(*pos)++];
    v = b & 63;
    while (b & 64) {
        if (*pos >= len || v >= VARINT_MAX >> 6)
            return -1;
        b = p[(*pos)++];
        v = v << 6 | (b & 63);
    }
    *value = v;
    return 0;
}

unpyc_status upy_exctable_decode(const upy_code *co, upy_arena *arena,
                                 upy_exc_table *table, unpyc_error *err) {
    const uint8_t *p;
    size_t len, pos = 0, max_entries;
    uint32_t code_len;

    table->entries = NULL;
    table->count = 0;
    if (!co->exceptiontable || co->exceptiontable->u.bytes.len == 0)
        return UNPYC_OK;
    p = co->exceptiontable->u.bytes.data;
    len = co->exceptiontable->u.bytes.len;
    code_len = (uint32_t)co->code->u.bytes.len;
    /* Each entry takes at least four bytes. */
    max_entries = len / 4 + 1;
    table->entries = upy_arena_array(arena, max_entries, sizeof(upy_exc_entry));
    if (!table->entries)
        return upy_fail(err,
                        arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                        -1, "no memory for the exception table");
    while (pos < len) {
        size_t entry_pos = pos;
        uint32_t start, length, target, depth_lasti;
        upy_exc_entry *e = &table->entries[table->count];

        if (read_varint(p, len, &pos, &start) ||
            read_varint(p, len, &pos, &length) ||
            read_varint(p, len, &pos, &target) ||
            read_varint(p, len, &pos, &depth_lasti))
            return upy_fail(err, UNPYC_E_CORRUPT,
                            (long long)(co->exceptiontable->offset + entry_pos),
                            "exception table entry at offset %zu is cut "
                            "short or too large",
                            co->exceptiontable->offset + entry_pos);
        e->start = start * 2;
        e->end = e->start + length * 2;
        e->target = target * 2;
        e->depth = depth_lasti >> 1;
        e->lasti = depth_lasti & 1;
        if (e->end > code_len || e->target >= code_len || length == 0)
            return upy_fail(err, UNPYC_E_CORRUPT,
                            (long long)(co->exceptiontable->offset + entry_pos),
                            "exception table entry at offset %zu covers %u "
                            "to %u with handler %u, outside the code (%u "
                            "bytes)",
                            co->exceptiontable->offset + entry_pos,
                            (unsigned)e->start, (unsigned)e->end,
                            (unsigned)e->target, (unsigned)code_len);
        table->count++;
    }
    return UNPYC_OK;
}
