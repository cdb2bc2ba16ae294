/*
 * fd_io.h - whole reads and writes on file descriptors: the pipes between
 * a batch's processes, a verifier's standard input, temporary files.
 */
#ifndef UNPYC_CLI_FD_IO_H
#define UNPYC_CLI_FD_IO_H

#include <stddef.h>

/* Writes all len bytes of data to fd, again after an interrupted write;
 * 0, or -1 on an error. */
int cli_write_whole(int fd, const void *data, size_t len);

/* Reads len bytes from fd into data; 0, or -1 at an end or error before
 * them. */
int cli_read_whole(int fd, void *data, size_t len);

#endif /* UNPYC_CLI_FD_IO_H */
