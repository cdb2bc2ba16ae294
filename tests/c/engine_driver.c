/*
 * engine_driver.c - runs the engine over many .pyc files in one process.
 *
 *   engine_driver < list-of-paths
 *
 * For memory checkers (valgrind) and profilers: one process start for a
 * whole standard library instead of one per file.  Each file is
 * disassembled in both formats; output is discarded, errors are printed.
 * Exits 1 when any file failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unpyc.h"

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long size;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)size + 1);
        if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
            free(data);
            data = NULL;
        }
        *len = (size_t)size;
    }
    fclose(f);
    return data;
}

int main(void) {
    char path[4096];
    int failed = 0;
    unsigned files = 0;

    while (fgets(path, sizeof path, stdin)) {
        size_t len = strcspn(path, "\n"), data_len = 0;
        unsigned char *data;
        int format;
        path[len] = '\0';
        if (!len)
            continue;
        data = read_file(path, &data_len);
        if (!data) {
            fprintf(stderr, "%s: cannot read\n", path);
            failed = 1;
            continue;
        }
        for (format = UNPYC_DIS_TEXT; format <= UNPYC_DIS_JSON; format++) {
            char *out = NULL;
            size_t out_len = 0;
            unpyc_error err;
            if (unpyc_dis_pyc(data, data_len, (unpyc_dis_format)format, &out,
                              &out_len, &err) != UNPYC_OK) {
                fprintf(stderr, "%s: %s\n", path, err.message);
                failed = 1;
            }
            unpyc_free(out);
        }
        free(data);
        files++;
    }
    printf("engine_driver: %u files\n", files);
    return failed;
}
