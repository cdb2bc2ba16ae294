/*
 * fuzz_engine.c - libFuzzer target over the engine's public entry points.
 *
 * The first input byte picks the entry point: even values feed the rest to
 * unpyc_dis_pyc as a whole .pyc file; odd values feed it to
 * unpyc_dis_marshal as marshal data of the version that byte selects.  Both
 * output formats are produced, so the reader, the decoder and the printers
 * all see hostile data.  Any crash, sanitizer report, leak or hang is a bug:
 * the engine must answer every input with output or a clean error.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "unpyc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(unpyc_status st, char *out, const unpyc_error *err) {
    /* A failure must say something; a success must give text. */
    if (st != UNPYC_OK && (err->status != st || err->message[0] == '\0'))
        __builtin_trap();
    if (st == UNPYC_OK && !out)
        __builtin_trap();
    unpyc_free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const int minors[] = {8, 9, 10, 11, 12, 13};
    unpyc_error err;
    char *out = NULL;
    size_t out_len = 0;
    unpyc_status st;
    int format;

    if (size < 1)
        return 0;
    for (format = UNPYC_DIS_TEXT; format <= UNPYC_DIS_JSON; format++) {
        out = NULL;
        if ((data[0] & 1) == 0) {
            st = unpyc_dis_pyc(data + 1, size - 1, (unpyc_dis_format)format,
                               &out, &out_len, &err);
        } else {
            int minor = minors[(data[0] >> 1) % 6];
            st = unpyc_dis_marshal(data + 1, size - 1, 3, minor,
                                   (unpyc_dis_format)format, &out, &out_len,
                                   &err);
        }
        check(st, out, &err);
    }
    return 0;
}
