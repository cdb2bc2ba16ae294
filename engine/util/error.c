/*
 * error.c - recording failures; see error.h.
 */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

unpyc_status upy_fail(unpyc_error *err, unpyc_status status, long long offset,
                      const char *fmt, ...) {
    va_list ap;

    if (!err || err->status != UNPYC_OK)
        return status;
    err->status = status;
    err->offset = offset;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return status;
}

const char *unpyc_status_name(unpyc_status status) {
    switch (status) {
    case UNPYC_OK:
        return "ok";
    case UNPYC_E_USAGE:
        return "usage";
    case UNPYC_E_IO:
        return "io";
    case UNPYC_E_NOT_PYC:
        return "not-pyc";
    case UNPYC_E_BAD_MAGIC:
        return "bad-magic";
    case UNPYC_E_TRUNCATED:
        return "truncated";
    case UNPYC_E_CORRUPT:
        return "corrupt";
    case UNPYC_E_BAD_REF:
        return "bad-reference";
    case UNPYC_E_TOO_LARGE:
        return "too-large";
    case UNPYC_E_UNSUPPORTED:
        return "unsupported";
    case UNPYC_E_NOMEM:
        return "no-memory";
    }
    return "unknown";
}
