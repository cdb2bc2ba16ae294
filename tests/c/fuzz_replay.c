/* Runs fuzz/fuzz_engine.c's target on each file named on the command line
 * (tests/test_fuzz_regressions.py: the inputs of fuzz/regressions, built
 * with gcc's sanitizers, where no libFuzzer is needed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path) {
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long size;
    if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "%s: cannot read\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(data);
        fclose(f);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)size);
    free(data);
    printf("%s: ran\n", path);
    return 0;
}

int main(int argc, char **argv) {
    int i, failed = 0;
    for (i = 1; i < argc; i++)
        failed |= replay(argv[i]);
    return failed;
}
