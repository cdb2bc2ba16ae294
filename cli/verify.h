/*
 * verify.h - the unpyc command checks the decompiled source with CPython of
 * the .pyc file's own version.
 *
 * The engine has no libpython, and only CPython X.Y compiles source to X.Y
 * bytecode, so the check runs in a subprocess: python3.X (the newest pyenv
 * build of X.Y, else python3.X on PATH) running unpyc's round-trip oracle,
 * `roundtrip.py --verify-pyc FILE -`, with the source on its standard
 * input.  The oracle is the roundtrip.py installed beside this program
 * (site-packages/unpyc/ under <prefix>/lib, run with -I: it needs only
 * the standard library), else `-m unpyc.roundtrip` of that interpreter.
 * It prints the note that goes on top of the source: the module and every
 * function equivalent, or each one that differs with its first difference.
 */
#ifndef UNPYC_CLI_VERIFY_H
#define UNPYC_CLI_VERIFY_H

#include <stddef.h>

/* Exit codes of verification, after the engine's statuses (unpyc.h). */
#define CLI_EXIT_NOT_EQUIVALENT 11
#define CLI_EXIT_NOT_VERIFIED 12

typedef enum cli_verdict {
    CLI_EQUIVALENT,   /* verified: the module and all its functions */
    CLI_DIFFERS,      /* verified: something differs, named in the note */
    CLI_NOT_VERIFIED, /* no interpreter of the version, or it failed */
} cli_verdict;

/* Writes the verification note of source (len bytes), decompiled from the
 * .pyc file at path (data, data_len: its bytes; path "-": standard input,
 * handed to the verifier in a temporary file) written by Python
 * major.minor, to standard output; what went wrong, if anything, to
 * standard error. */
cli_verdict cli_verify(const char *path, const unsigned char *data,
                       size_t data_len, int major, int minor,
                       const char *source, size_t len);

#endif /* UNPYC_CLI_VERIFY_H */
