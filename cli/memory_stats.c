/*
 * memory_stats.c - see memory_stats.h.
 */
#include "memory_stats.h"

#include <stdio.h>
#include <string.h>

/* The value in KiB of the line of /proc/self/status named field (with its
 * colon), or -1. */
static long status_kib(const char *field) {
    char line[256];
    long value = -1;
    size_t n = strlen(field);
    FILE *f = fopen("/proc/self/status", "r");
    while (f && value < 0 && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 &&
            sscanf(line + n, "%ld", &value) != 1)
            value = -1;
    if (f)
        fclose(f);
    return value;
}

void cli_print_memory_stats(const char *path, size_t input, size_t engine_peak,
                            size_t output) {
    long peak = status_kib("VmHWM:"), anon = status_kib("RssAnon:"),
         file = status_kib("RssFile:");
    fprintf(stderr,
            "unpyc: %s: memory: input %zu B, engine peak %zu B, output %zu B",
            path, input, engine_peak, output);
    if (peak >= 0 && anon >= 0 && file >= 0)
        fprintf(stderr,
                ", process peak RSS %ld KiB (at exit: %ld KiB anonymous, %ld "
                "KiB file)",
                peak, anon, file);
    fputc('\n', stderr);
}
