/*
 * read_input.c - see read_input.h.
 */
#include "read_input.h"

#include <errno.h>
#include <stdlib.h>

int cli_read_all(FILE *f, unsigned char **data, size_t *len) {
    size_t cap = 1 << 16, n = 0;
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
