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

/* The ranges of the table, handed to the instructions as they are
 * decoded (a list of them, in an arena of its own, was a tenth of the
 * decode layer's time).  A range is dropped as a list of capacity ranges
 * dropped those past it: tables CPython writes never have that many. */
typedef struct range_list {
    upy_instr *instrs;
    uint32_t count;
    uint32_t next; /* the first instruction no range has reached yet */
    uint32_t ranges;
    uint32_t capacity;
    uint32_t code_len;
} range_list;

/* The range [start, end) of the code on line `line` (-1: none): the
 * instructions before its end that no range before it reached get its
 * line, or none when they lie before its start. */
static void add_range(range_list *list, uint32_t start, uint64_t end,
                      int32_t line) {
    if (end > list->code_len)
        end = list->code_len;
    if (start >= end || list->ranges == list->capacity)
        return;
    list->ranges++;
    for (; list->next < list->count && list->instrs[list->next].offset < end;
         list->next++)
        list->instrs[list->next].line =
            list->instrs[list->next].offset >= start ? line : -1;
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
        add_range(s->list, s->pending_start, addr, s->pending_line);
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
                  starts.pending_line);
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
            add_range(list, (uint32_t)start, end, range_line);
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
        uint32_t end_delta, col1, end_col1;

        if (!(first & 0x80))
            return corrupt(co, entry, err);
        if (code == LOC_NONE) {
            add_range(list, (uint32_t)addr, end, -1);
            addr = end;
            continue;
        }
        /* (The columns are read past: no instruction keeps them.) */
        if (code == LOC_LONG) {
            /* line delta, end-line delta, column + 1, end column + 1 */
            if (read_svarint(&t, &delta) || read_varint(&t, &end_delta) ||
                read_varint(&t, &col1) || read_varint(&t, &end_col1))
                return corrupt(co, entry, err);
            line += delta;
            end_line = line + end_delta;
        } else if (code == LOC_NO_COLUMNS) {
            if (read_svarint(&t, &delta))
                return corrupt(co, entry, err);
            line += delta;
            end_line = line;
        } else if (code >= LOC_ONE_LINE_FIRST) {
            /* (column, end column) */
            if (t.len - t.pos < 2)
                return corrupt(co, entry, err);
            line += code - LOC_ONE_LINE_FIRST;
            end_line = line;
            t.pos += 2;
        } else {
            /* one byte of the column and the end column */
            if (t.pos >= t.len)
                return corrupt(co, entry, err);
            t.pos++;
            end_line = line;
        }
        if (line < 0 || line > INT32_MAX || end_line < 0 ||
            end_line > INT32_MAX)
            return corrupt(co, entry, err);
        add_range(list, (uint32_t)addr, end, (int32_t)line);
        addr = end;
    }
    return UNPYC_OK;
}

/* The instructions no range reached have no line. */
static void end_ranges(range_list *list) {
    for (; list->next < list->count; list->next++)
        list->instrs[list->next].line = -1;
}

unpyc_status upy_linetable_lines(upy_version version, const upy_code *co,
                                 upy_instr *instrs, uint32_t count,
                                 unpyc_error *err) {
    range_list list;
    size_t table_len = co->linetable ? co->linetable->u.bytes.len : 0;
    unpyc_status st = UNPYC_OK;

    list.instrs = instrs;
    list.count = count;
    list.next = 0;
    list.ranges = 0;
    list.code_len = (uint32_t)co->code->u.bytes.len;
    /* Every format yields at most one range per table byte, plus the final
     * range of an lnotab. */
    list.capacity = (uint32_t)(table_len + 2 < list.code_len / 2 + 2
                                   ? table_len + 2
                                   : list.code_len / 2 + 2);
    if (co->linetable && version.minor <= 9)
        st = decode_lnotab(co, &list, err);
    else if (co->linetable && version.minor == 10)
        st = decode_310(co, &list, err);
    else if (co->linetable)
        st = decode_locations(co, &list, err);
    end_ranges(&list);
    return st;
}
