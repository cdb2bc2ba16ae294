/*
 * read_input.h - reading a whole input file, for the single-file and the
 * batch modes of the unpyc command.
 */
#ifndef UNPYC_CLI_READ_INPUT_H
#define UNPYC_CLI_READ_INPUT_H

#include <stddef.h>
#include <stdio.h>

/* Larger inputs are refused before reading them whole. */
#define CLI_MAX_INPUT_BYTES ((size_t)1 << 30)

/* Reads all of f into a malloc'd buffer; returns 0, or an errno value (or
 * EFBIG past CLI_MAX_INPUT_BYTES). */
int cli_read_all(FILE *f, unsigned char **data, size_t *len);

#endif /* UNPYC_CLI_READ_INPUT_H */
