/*
 * strbuf.c - growable text buffer; see strbuf.h.
 */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends up to this long are copied by copy_short, not by a memcpy call. */
#define SB_SHORT_COPY 16

void upy_sb_init(upy_strbuf *sb, size_t limit) {
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
    sb->limit = limit;
    sb->failed = 0;
}

/* Makes room for `extra` more bytes plus the NUL; 0 on success. */
static int sb_reserve(upy_strbuf *sb, size_t extra) {
    size_t need, cap;
    char *grown;

    if (sb->failed)
        return -1;
    if (extra > (size_t)-1 - sb->len - 1) {
        sb->failed = 1;
        return -1;
    }
    need = sb->len + extra + 1;
    if (sb->limit && need > sb->limit + 1) {
        sb->failed = 2;
        return -1;
    }
    if (need <= sb->cap)
        return 0;
    cap = sb->cap ? sb->cap : 256;
    while (cap < need)
        cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    grown = realloc(sb->data, cap);
    if (!grown) {
        sb->failed = 1;
        return -1;
    }
    sb->data = grown;
    sb->cap = cap;
    return 0;
}

/* Whether len more bytes and the NUL fit the buffer as it is. */
static int sb_fits(const upy_strbuf *sb, size_t len) {
    return !sb->failed && sb->cap - sb->len > len &&
           (!sb->limit || len <= sb->limit - sb->len);
}

/* Copies len <= SB_SHORT_COPY bytes (most appends are a few) by two
 * copies of a fixed size that overlap, chosen by the size's class: a
 * byte loop's exit, after a varying count, was mispredicted for most
 * appends (cachegrind --branch-sim). */
static void copy_short(char *at, const char *text, size_t len) {
    if (len >= 8) {
        memcpy(at, text, 8);
        memcpy(at + len - 8, text + len - 8, 8);
    } else if (len >= 4) {
        memcpy(at, text, 4);
        memcpy(at + len - 4, text + len - 4, 4);
    } else if (len > 0) {
        at[0] = text[0];
        at[len / 2] = text[len / 2];
        at[len - 1] = text[len - 1];
    }
}

void upy_sb_append(upy_strbuf *sb, const char *text, size_t len) {
    char *at;
    if (!sb_fits(sb, len) && sb_reserve(sb, len))
        return;
    at = sb->data + sb->len;
    if (len > SB_SHORT_COPY)
        memcpy(at, text, len);
    else
        copy_short(at, text, len);
    sb->len += len;
    at[len] = '\0';
}

void upy_sb_puts(upy_strbuf *sb, const char *text) {
    upy_sb_append(sb, text, strlen(text));
}

void upy_sb_putc(upy_strbuf *sb, char c) {
    if (!sb_fits(sb, 1)) {
        upy_sb_append(sb, &c, 1);
        return;
    }
    sb->data[sb->len++] = c;
    sb->data[sb->len] = '\0';
}

void upy_sb_printf(upy_strbuf *sb, const char *fmt, ...) {
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || sb_reserve(sb, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void upy_sb_put_int(upy_strbuf *sb, long long value) {
    char digits[24];
    size_t at = sizeof digits;
    /* (The magnitude as unsigned: -LLONG_MIN does not fit a long long.) */
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value
                                             : (unsigned long long)value;
    do {
        digits[--at] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        digits[--at] = '-';
    upy_sb_append(sb, digits + at, sizeof digits - at);
}

void upy_sb_json_escape(upy_strbuf *sb, const char *text, size_t len) {
    static const char hex[] = "0123456789abcdef";
    size_t i, run = 0;

    /* Copies runs of plain bytes at once; UTF-8 passes through as is, since
     * JSON text is UTF-8.  Lone surrogates (the engine keeps them as their
     * 3-byte encodings) are escaped as \uXXXX so the document stays valid
     * UTF-8. */
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        char esc[7];
        const char *rep = NULL;
        size_t rep_len = 0, skip = 0;

        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            rep = esc;
            rep_len = 2;
        } else if (c < 0x20) {
            esc[0] = '\\';
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            rep = esc;
            rep_len = 6;
        } else if (c == 0xED && i + 2 < len &&
                   ((unsigned char)text[i + 1] & 0xE0) == 0xA0) {
            unsigned cp = 0xD000 | (((unsigned char)text[i + 1] & 0x3F) << 6) |
                          ((unsigned char)text[i + 2] & 0x3F);
            esc[0] = '\\';
            esc[1] = 'u';
            esc[2] = hex[(cp >> 12) & 15];
            esc[3] = hex[(cp >> 8) & 15];
            esc[4] = hex[(cp >> 4) & 15];
            esc[5] = hex[cp & 15];
            rep = esc;
            rep_len = 6;
            skip = 2;
        }
        if (rep) {
            upy_sb_append(sb, text + i - run, run);
            run = 0;
            upy_sb_append(sb, rep, rep_len);
            i += skip;
        } else {
            run++;
        }
    }
    upy_sb_append(sb, text + len - run, run);
}

char *upy_sb_take(upy_strbuf *sb, size_t *len) {
    char *text;

    if (sb->failed)
        return NULL;
    if (!sb->data && sb_reserve(sb, 0))
        return NULL;
    text = sb->data;
    if (len)
        *len = sb->len;
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return text;
}

void upy_sb_clear(upy_strbuf *sb) {
    sb->len = 0;
    sb->failed = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

void upy_sb_release(upy_strbuf *sb) {
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}
