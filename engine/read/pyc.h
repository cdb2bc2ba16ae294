/*
 * pyc.h - the .pyc file header.
 *
 * 16 bytes since 3.7 (PEP 552): magic (2 bytes little-endian + "\r\n"),
 * a flags word, then either source mtime and size or a 64-bit source hash.
 */
#ifndef UPY_PYC_H
#define UPY_PYC_H

#include <stddef.h>
#include <stdint.h>

#include "read/object.h"
#include "unpyc.h"

#define UPY_PYC_HEADER_SIZE 16

typedef struct upy_pyc_header {
    upy_version version;
    uint16_t magic; /* the 16-bit magic number */
    uint32_t flags; /* PEP 552: bit 0 hash-based, bit 1 check_source */
    int hash_based;
    int check_source;
    uint32_t source_mtime; /* when not hash-based */
    uint32_t source_size;  /* when not hash-based */
    uint64_t source_hash;  /* when hash-based */
} upy_pyc_header;

/* Maps a magic number to the CPython version that writes it.  Returns 0 and
 * fills *version for the final-release magic of a supported version, else
 * -1. */
int upy_version_from_magic(uint16_t magic, upy_version *version);

/* The final-release magic number of a supported version, or 0. */
uint16_t upy_magic_for_version(upy_version version);

/* Parses the header at data[0..len).  Errors: UNPYC_E_NOT_PYC (short, no
 * "\r\n", unknown flag bits), UNPYC_E_BAD_MAGIC (a magic of no supported
 * version; the message names the version when the magic is a known older or
 * newer one). */
unpyc_status upy_pyc_read_header(const uint8_t *data, size_t len,
                                 upy_pyc_header *header, unpyc_error *err);

#endif /* UPY_PYC_H */
