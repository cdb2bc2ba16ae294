/*
 * strbuf.h - growable text buffer with a hard size limit.
 *
 * All engine output is built in a strbuf.  Once an append fails (out of
 * memory, or the limit would be passed) the buffer is marked failed and
 * further appends do nothing, so callers check once at the end instead of
 * after every append.
 */
#ifndef UPY_STRBUF_H
#define UPY_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct upy_strbuf {
    char *data; /* NUL-terminated while not failed */
    size_t len;
    size_t cap;
    size_t limit; /* 0 means no limit */
    int failed;   /* 0, or 1 = out of memory, 2 = over the limit */
} upy_strbuf;

void upy_sb_init(upy_strbuf *sb, size_t limit);
void upy_sb_append(upy_strbuf *sb, const char *text, size_t len);
void upy_sb_puts(upy_strbuf *sb, const char *text);
void upy_sb_putc(upy_strbuf *sb, char c);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void upy_sb_printf(upy_strbuf *sb, const char *fmt, ...);
/* Appends value in decimal, as "%lld" would (without printf's cost: the
 * integer constants of a small function took a tenth of its printing). */
void upy_sb_put_int(upy_strbuf *sb, long long value);
/* Appends text as the body of a JSON string (no quotes added). */
void upy_sb_json_escape(upy_strbuf *sb, const char *text, size_t len);
/* Hands the text over to the caller (to free with free()) and resets sb. */
char *upy_sb_take(upy_strbuf *sb, size_t *len);
/* Empties sb for new text, keeping its memory and limit; clears a
 * failure. */
void upy_sb_clear(upy_strbuf *sb);
void upy_sb_release(upy_strbuf *sb);

#endif /* UPY_STRBUF_H */
