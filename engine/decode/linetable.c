/*
 * linetable.c - each version's line-number table; see linetable.h.
 *
 * Three decoders, one per format, all producing address ranges.  Each one
 * follows the code that defines what dis reports for that version:
 * dis.findlinestarts (3.8, 3.9), the C co_lines() iterator (3.10), and the
 * co_positions() walk of Objects/locations.md (3.11+).  Ranges past the end
 * of the code are dropped rather than refused (CPython writes none, but
 * tools that build code objects may); an entry cut short is corrupt.
 */
#include "decode/linetable.h"

#include "util/error.h"

/* Location entry codes of the 3.11+ table (Objects/locations.md). */
enum {
    LOC_ONE_LINE_FIRST = 10, /* 10..12: one line, line delta = code - 10 */
    LOC_NO_COLUMNS = 13,
    LOC_LONG = 14,
    LOC_NONE = 15,
};

typedef struct table_reader {
    const uint8_t *p;
    size_t len;
    size_t pos;
} table_reader;

typedef struct range_list {
    upy_line_table *table;
    uint32_t capacity;
    uint32_t code_len;
} range_list;

/* Appends [start, end) clipped to the code; empty ranges are dropped. */
static void add_range(range_list *list, uint32_t start, uint64_t end,
                      int32_t line, int32_t end_line, int32_t col,
                      int32_t end_col) {
    upy_line_range *r;
    if (end > list->code_len)
        end = list->code_len;
    if (start >= end || list->table->count == list->capacity)
        return;
    r = &list->table->ranges[list->table->count++];
    r->start = start;
    r->end = (uint32_t)end;
    r->line = line;
    r->end_line = end_line;
    r->col = col;
    r->end_col = end_col;
}

static unpyc_status corrupt(const upy_code *co, size_t pos, unpyc_error *err) {
    return upy_fail(err, UNPYC_E_CORRUPT,
                    (long long)(co->linetable->offset + pos),
                    "line table entry at offset %zu is cut short or out of "
                    "range",
                    co->linetable->offset + pos);
}

/* 3.8, 3.9: the line starts dis.findlinestarts yields; each start's line
 * holds until the next start (the first start is always at offset 0). */
typedef struct line_starts {
    range_list *list;
    int has_pending;
    uint32_t pending_start;
    int32_t pending_line;
} line_starts;

static void yield_start(line_starts *s, uint32_t addr, int64_t line) {
    if (s->has_pending)
        add_range(s->list, s->pending_start, addr, s->pending_line, -1, -1, -1);
    s->has_pending = 1;
    s->pending_start = addr;
    s->pending_line = (int32_t)line;
}

static unpyc_status decode_lnotab(const upy_code *co, range_list *list,
                                  unpyc_error *err) {
    const uint8_t *p = co->linetable->u.bytes.data;
    size_t len = co->linetable->u.bytes.len, i;
    int64_t line = co->firstlineno, last_line = -1;
    uint32_t addr = 0;
    line_starts starts = {list, 0, 0, -1};

    if (len & 1)
        return corrupt(co, len - 1, err);
    for (i = 0; i < len; i += 2) {
        if (p[i]) {
            if (line != last_line) {
                yield_start(&starts, addr, line);
                last_line = line;
            }
            addr += p[i];
            if (addr >= list->code_len)
                break;
        }
        line += (int8_t)p[i + 1];
        if (line < 0 || line > INT32_MAX)
            return corrupt(co, i, err);
    }
    if (i >= len && line != last_line)
        yield_start(&starts, addr, line);
    if (starts.has_pending)
        add_range(list, starts.pending_start, list->code_len,
                  starts.pending_line, -1, -1, -1);
    return UNPYC_OK;
}

/* 3.10: (address delta, line delta) pairs; -128 means no line. */
static unpyc_status decode_310(const upy_code *co, range_list *list,
                               unpyc_error *err) {
    const uint8_t *p = co->linetable->u.bytes.data;
    size_t len = co->linetable->u.bytes.len, i;
    int64_t line = co->firstlineno;
    uint64_t start, end = 0;

    if (len & 1)
        return corrupt(co, len - 1, err);
    for (i = 0; i < len; i += 2) {
        int8_t ldelta = (int8_t)p[i + 1];
        int32_t range_line = -1;
        start = end;
        end += p[i];
        if (ldelta != -128) {
            line += ldelta;
            if (line < 0 || line > INT32_MAX)
                return corrupt(co, i, err);
            range_line = (int32_t)line;
        }
        if (start < list->code_len)
            add_range(list, (uint32_t)start, end, range_line, -1, -1, -1);
    }
    return UNPYC_OK;
}

/* Unsigned varint of the location table: 6 bits per byte, least
 * significant first, bit 6 = more. */
static int read_varint(table_reader *t, uint32_t *value) {
    uint32_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (t->pos >= t->len || shift > 30)
            return -1;
        b = t->p[t->pos++];
        v |= (uint32_t)(b & 63) << shift;
        shift += 6;
    } while (b & 64);
    *value = v;
    return 0;
}

static int read_svarint(table_reader *t, int64_t *value) {
    uint32_t v;
    if (read_varint(t, &v))
        return -1;
    *value = v & 1 ? -(int64_t)(v >> 1) : (int64_t)(v >> 1);
    return 0;
}

/* 3.11+: location entries, each covering 1 to 8 code units. */
static unpyc_status decode_locations(const upy_code *co, range_list *list,
                                     unpyc_error *err) {
    table_reader t = {co->linetable->u.bytes.data, co->linetable->u.bytes.len,
                      0};
    int64_t line = co->firstlineno;
    uint64_t addr = 0;

    while (t.pos < t.len) {
        size_t entry = t.pos;
        uint8_t first = t.p[t.pos++];
        int code = (first >> 3) & 15;
        uint64_t end = addr + 2 * (uint64_t)((first & 7) + 1);
        int64_t end_line = 0, delta = 0;
        int32_t col = -1, end_col = -1;
        uint8_t b;

        if (!(first & 0x80))
            return corrupt(co, entry, err);
        if (code == LOC_NONE) {
            add_range(list, (uint32_t)addr, end, -1, -1, -1, -1);
            addr = end;
            continue;
        }
        if (code == LOC_LONG) {
            /* line delta, end-line delta, column + 1, end column + 1 */
            uint32_t end_delta, col1, end_col1;
            if (read_svarint(&t, &delta) || read_varint(&t, &end_delta) ||
                read_varint(&t, &col1) || read_varint(&t, &end_col1))
                return corrupt(co, entry, err);
            line += delta;
            end_line = line + end_delta;
            col = (int32_t)col1 - 1;
            end_col = (int32_t)end_col1 - 1;
        } else if (code == LOC_NO_COLUMNS) {
            if (read_svarint(&t, &delta))
                return corrupt(co, entry, err);
            line += delta;
            end_line = line;
        } else if (code >= LOC_ONE_LINE_FIRST) {
            if (t.len - t.pos < 2)
                return corrupt(co, entry, err);
            line += code - LOC_ONE_LINE_FIRST;
            end_line = line;
            col = t.p[t.pos];
            end_col = t.p[t.pos + 1];
            t.pos += 2;
        } else {
            if (t.pos >= t.len)
                return corrupt(co, entry, err);
            b = t.p[t.pos++];
            end_line = line;
            col = code * 8 + ((b >> 4) & 7);
            end_col = col + (b & 15);
        }
        if (line < 0 || line > INT32_MAX || end_line < 0 ||
            end_line > INT32_MAX)
            return corrupt(co, entry, err);
        add_range(list, (uint32_t)addr, end, (int32_t)line, (int32_t)end_line,
                  col, end_col);
        addr = end;
    }
    return UNPYC_OK;
}

unpyc_status upy_linetable_decode(upy_version version, const upy_code *co,
                                  upy_arena *arena, upy_line_table *table,
                                  unpyc_error *err) {
    range_list list;
    size_t table_len = co->linetable ? co->linetable->u.bytes.len : 0;

    table->count = 0;
    list.table = table;
    list.code_len = (uint32_t)co->code->u.bytes.len;
    /* Every format yields at most one range per table byte, plus the final
     * range of an lnotab. */
    list.capacity = (uint32_t)(table_len + 2 < list.code_len / 2 + 2
                                   ? table_len + 2
                                   : list.code_len / 2 + 2);
    /* (add_range writes each range it counts.) */
    table->ranges = upy_arena_array_uncleared(arena, list.capacity,
                                              sizeof(upy_line_range));
    if (!table->ranges)
        return upy_fail(err,
                        arena->over_limit ? UNPYC_E_TOO_LARGE : UNPYC_E_NOMEM,
                        -1, "no memory for the line table");
    if (!co->linetable)
        return UNPYC_OK;
    if (version.minor <= 9)
        return decode_lnotab(co, &list, err);
    if (version.minor == 10)
        return decode_310(co, &list, err);
    return decode_locations(co, &list, err);
}

int32_t upy_linetable_line_at(const upy_line_table *table, uint32_t offset,
                              uint32_t *cursor) {
    uint32_t k = *cursor;
    /* The first range with end > offset: ranges come in the order of the
     * code, so their ends only grow. */
    while (k < table->count && table->ranges[k].end <= offset)
        k++;
    *cursor = k;
    if (k < table->count && table->ranges[k].start <= offset)
        return table->ranges[k].line;
    return -1;
}
