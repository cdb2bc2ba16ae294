/*
 * main.c - the unpyc command.
 *
 *   unpyc FILE.pyc                    decompile (FILE may be - for stdin)
 *   unpyc --dis [--json] FILE.pyc     disassemble
 *
 * Errors are one line on stderr, "unpyc: FILE: message", and the exit code
 * is the engine's status number (unpyc.h), so scripts can tell a file that
 * is not a .pyc (3) from a corrupt one (6) without parsing text.  Source
 * with parts the decompiler could not recover is still printed; the exit
 * code is then 9 (unsupported) and stderr says how many parts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unpyc.h"

/* Larger inputs are refused before reading them whole. */
#define MAX_INPUT_BYTES ((size_t)1 << 30)

static const char usage_text[] =
    "usage: unpyc [--dis [--json]] FILE.pyc\n"
    "\n"
    "Reads a .pyc file written by CPython 3.8 to 3.13 (FILE may be - for\n"
    "standard input) and prints its source.\n"
    "\n"
    "options:\n"
    "  --dis      print the disassembly of every code object instead\n"
    "  --json     with --dis: print it as one JSON document\n"
    "  --help     show this text\n"
    "\n"
    "exit codes: 0 ok, 1 usage, 2 cannot read the file, 3 not a .pyc,\n"
    "4 unknown magic number, 5 truncated data, 6 corrupt data, 7 bad\n"
    "reference, 8 over the engine's limits, 9 unsupported (source with\n"
    "unrecovered parts is still printed), 10 out of memory\n";

static int fail_usage(const char *message) {
    fprintf(stderr, "unpyc: %s\n(see unpyc --help)\n", message);
    return UNPYC_E_USAGE;
}

/* Reads all of f into a malloc'd buffer; returns 0, or an errno value (or
 * EFBIG past MAX_INPUT_BYTES). */
static int read_all(FILE *f, unsigned char **data, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char *grown;
            if (cap >= MAX_INPUT_BYTES) {
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

int main(int argc, char **argv) {
    int dis = 0, json = 0, i, read_error;
    unsigned unrecovered = 0;
    const char *path = NULL;
    unsigned char *data = NULL;
    size_t len = 0, out_len = 0;
    char *out = NULL;
    unpyc_error err;
    unpyc_status st;
    FILE *f;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--dis") == 0) {
            dis = 1;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "unpyc: unknown option %s\n", a);
            return UNPYC_E_USAGE;
        } else if (path) {
            return fail_usage("one FILE at a time");
        } else {
            path = a;
        }
    }
    if (!path)
        return fail_usage("no FILE given");
    if (json && !dis)
        return fail_usage("--json goes with --dis");

    f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "unpyc: %s: %s\n", path, strerror(errno));
        return UNPYC_E_IO;
    }
    read_error = read_all(f, &data, &len);
    if (f != stdin)
        fclose(f);
    if (read_error) {
        fprintf(stderr, "unpyc: %s: %s\n", path,
                read_error == EFBIG ? "file is larger than 1 GiB"
                                    : strerror(read_error));
        return read_error == EFBIG ? UNPYC_E_TOO_LARGE : UNPYC_E_IO;
    }

    if (dis)
        st = unpyc_dis_pyc(data, len, json ? UNPYC_DIS_JSON : UNPYC_DIS_TEXT,
                           &out, &out_len, &err);
    else
        st = unpyc_decompile_pyc(data, len, &out, &out_len, &unrecovered, &err);
    free(data);
    if (st != UNPYC_OK) {
        fprintf(stderr, "unpyc: %s: %s\n", path, err.message);
        return (int)st;
    }
    if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
        unpyc_free(out);
        fprintf(stderr, "unpyc: cannot write the output: %s\n",
                strerror(errno));
        return UNPYC_E_IO;
    }
    unpyc_free(out);
    if (unrecovered) {
        fprintf(stderr,
                "unpyc: %s: %u part%s could not be recovered (marked in the "
                "output)\n",
                path, unrecovered, unrecovered == 1 ? "" : "s");
        return UNPYC_E_UNSUPPORTED;
    }
    return 0;
}
