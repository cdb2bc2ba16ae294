/*
 * pyc.c - the .pyc header; see pyc.h.
 *
 * The magic numbers of supported versions come from the generated opcode
 * tables (each interpreter's importlib.util.MAGIC_NUMBER).  The ranges below
 * only serve error messages: a user holding a 3.7 or 3.14 file should be
 * told so, not just "unknown magic".  They follow the history kept in
 * CPython's Lib/importlib/_bootstrap_external.py.
 */
#include "read/pyc.h"

#include "decode/opcode_table.h"
#include "util/error.h"

typedef struct magic_range {
    uint16_t first, last;
    upy_version version;
} magic_range;

static const magic_range known_magics[] = {
    {20121, 20121, {1, 5}}, {50428, 50428, {1, 6}}, {50823, 50823, {2, 0}},
    {60202, 60202, {2, 1}}, {60717, 60717, {2, 2}}, {62011, 62021, {2, 3}},
    {62041, 62061, {2, 4}}, {62071, 62131, {2, 5}}, {62151, 62161, {2, 6}},
    {62171, 62211, {2, 7}}, {3000, 3131, {3, 0}},   {3141, 3151, {3, 1}},
    {3160, 3180, {3, 2}},   {3190, 3230, {3, 3}},   {3250, 3310, {3, 4}},
    {3320, 3351, {3, 5}},   {3360, 3379, {3, 6}},   {3390, 3399, {3, 7}},
    {3400, 3419, {3, 8}},   {3420, 3429, {3, 9}},   {3430, 3449, {3, 10}},
    {3450, 3499, {3, 11}},  {3500, 3549, {3, 12}},  {3550, 3599, {3, 13}},
    {3600, 3649, {3, 14}},  {3650, 3699, {3, 15}},
};

/* PEP 552: bit 0 = hash-based, bit 1 = check_source; others are reserved. */
#define PYC_FLAG_HASH_BASED 1u
#define PYC_FLAG_CHECK_SOURCE 2u

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

int upy_version_from_magic(uint16_t magic, upy_version *version) {
    int i;
    for (i = 0; i < upy_opcode_table_count; i++) {
        if (upy_opcode_tables[i]->magic == magic) {
            *version = upy_opcode_tables[i]->version;
            return 0;
        }
    }
    return -1;
}

uint16_t upy_magic_for_version(upy_version version) {
    const upy_opcode_table *table = upy_opcode_table_for(version);
    return table ? table->magic : 0;
}

static const magic_range *range_of_magic(uint16_t magic) {
    size_t i;
    for (i = 0; i < sizeof known_magics / sizeof known_magics[0]; i++)
        if (magic >= known_magics[i].first && magic <= known_magics[i].last)
            return &known_magics[i];
    return NULL;
}

unpyc_status upy_pyc_read_header(const uint8_t *data, size_t len,
                                 upy_pyc_header *header, unpyc_error *err) {
    const magic_range *other;

    if (len >= 4 && (data[2] != '\r' || data[3] != '\n'))
        return upy_fail(err, UNPYC_E_NOT_PYC, 0,
                        "not a .pyc file: no magic number at offset 0 "
                        "(bytes 2-3 are not \\r\\n)");
    if (len < UPY_PYC_HEADER_SIZE)
        return upy_fail(err, UNPYC_E_NOT_PYC, 0,
                        "not a .pyc file: %zu bytes, shorter than the "
                        "%d-byte header",
                        len, UPY_PYC_HEADER_SIZE);

    header->magic = (uint16_t)(data[0] | data[1] << 8);
    if (upy_version_from_magic(header->magic, &header->version) != 0) {
        other = range_of_magic(header->magic);
        if (other && upy_opcode_table_for(other->version))
            return upy_fail(err, UNPYC_E_BAD_MAGIC, 0,
                            "magic number %u is from a pre-release of "
                            "Python %d.%d; unpyc reads the final releases of "
                            "3.8 to 3.13",
                            (unsigned)header->magic, other->version.major,
                            other->version.minor);
        if (other)
            return upy_fail(err, UNPYC_E_BAD_MAGIC, 0,
                            "magic number %u is Python %d.%d's; unpyc reads "
                            "3.8 to 3.13",
                            (unsigned)header->magic, other->version.major,
                            other->version.minor);
        return upy_fail(err, UNPYC_E_BAD_MAGIC, 0,
                        "unknown magic number %u at offset 0",
                        (unsigned)header->magic);
    }

    header->flags = read_u32(data + 4);
    if (header->flags & ~(PYC_FLAG_HASH_BASED | PYC_FLAG_CHECK_SOURCE))
        return upy_fail(err, UNPYC_E_NOT_PYC, 4,
                        "invalid .pyc flags 0x%x at offset 4 (PEP 552 "
                        "defines bits 0 and 1 only)",
                        (unsigned)header->flags);
    header->hash_based = (header->flags & PYC_FLAG_HASH_BASED) != 0;
    header->check_source = (header->flags & PYC_FLAG_CHECK_SOURCE) != 0;
    header->source_mtime = 0;
    header->source_size = 0;
    header->source_hash = 0;
    if (header->hash_based)
        header->source_hash =
            (uint64_t)read_u32(data + 8) | (uint64_t)read_u32(data + 12) << 32;
    else {
        header->source_mtime = read_u32(data + 8);
        header->source_size = read_u32(data + 12);
    }
    return UNPYC_OK;
}
