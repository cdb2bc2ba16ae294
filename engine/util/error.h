/*
 * error.h - filling an unpyc_error.
 */
#ifndef UPY_ERROR_H
#define UPY_ERROR_H

#include "unpyc.h"

/* Records the failure in err (when err is not NULL and holds no earlier
 * failure: the first failure is the one reported) and returns status, so
 * callers can write `return upy_fail(err, UNPYC_E_TRUNCATED, pos, "...")`.
 * offset is -1 when the failure has no position. */
#if defined(__GNUC__)
/* cold: the paths to a failure are laid out apart from the working code
 * and taken as unlikely, so the code run on every instruction is denser
 * in the instruction cache. */
__attribute__((format(printf, 4, 5), cold))
#endif
unpyc_status
upy_fail(unpyc_error *err, unpyc_status status, long long offset,
         const char *fmt, ...);

#endif /* UPY_ERROR_H */
