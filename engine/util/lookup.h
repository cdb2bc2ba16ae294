/*
 * lookup.h - hash tables in an arena, filled once and then only read.
 *
 * recover asks, for every instruction and every entry of a name table,
 * which co_names / co_consts entry an object is and whether a name
 * occurs in the code; a sort of the tables and a binary search per
 * question cost more than the rest of building the index.  These answer
 * in constant time (open addressing, linear probing, at most half full).
 */
#ifndef UPY_LOOKUP_H
#define UPY_LOOKUP_H

#include <stdint.h>

#include "util/arena.h"

/* Object (by address) -> the first index it was put with. */
typedef struct upy_index_map {
    const void **keys; /* NULL: empty slot */
    int32_t *values;
    uint32_t mask;     /* slots - 1 */
} upy_index_map;

/* A map with room for count keys; -1 when out of memory. */
int upy_index_map_init(upy_index_map *map, upy_arena *arena, uint32_t count);
/* Puts key (not NULL) with value unless key is there already. */
void upy_index_map_put_first(upy_index_map *map, const void *key,
                             int32_t value);
/* The value of key, or -1. */
int32_t upy_index_map_get(const upy_index_map *map, const void *key);

/* A set of strings, by their text. */
typedef struct upy_name_set {
    const char **names; /* NULL: empty slot */
    uint32_t mask;
} upy_name_set;

int upy_name_set_init(upy_name_set *set, upy_arena *arena, uint32_t count);
void upy_name_set_add(upy_name_set *set, const char *name);
int upy_name_set_has(const upy_name_set *set, const char *name);

#endif /* UPY_LOOKUP_H */
