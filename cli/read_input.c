/*
 * read_input.c - see read_input.h.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include "read_input.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The first buffer: a regular file's size and one byte more (the read
 * that finds its end needs room), so that a small .pyc does not take 64 KiB
 * and a big one is not held in a buffer up to twice its size; 64 KiB when
 * the size is unknown (a pipe). */
static size_t first_capacity(FILE *f) {
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
        (uint64_t)st.st_size < CLI_MAX_INPUT_BYTES)
        return (size_t)st.st_size + 1;
    return 1 << 16;
}

int cli_read_all(FILE *f, unsigned char **data, size_t *len) {
    size_t cap = first_capacity(f), n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char *grown;
            if (cap >= CLI_MAX_INPUT_BYTES) {
                free(buf);
                return EFBIG;
            }
            cap *= 2;
            grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                return ENOMEM;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                free(buf);
                return EIO;
            }
            break;
        }
    }
    *data = buf;
    *len = n;
    return 0;
}
