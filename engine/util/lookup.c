/*
 * lookup.c - open-addressing hash tables; see lookup.h.
 */
#include "util/lookup.h"

#include <string.h>

/* The number of slots for count keys: a power of two, at least twice
 * count, so that probes stay short; 0 when it does not fit. */
static uint32_t slots_for(uint32_t count) {
    uint32_t slots = 8;
    while (slots / 2 < count) {
        if (slots > UINT32_MAX / 2)
            return 0;
        slots *= 2;
    }
    return slots;
}

static uint32_t hash_address(const void *key) {
    uint64_t x = (uint64_t)(uintptr_t)key;
    x ^= x >> 29;
    x *= 0x9E3779B97F4A7C15u;
    return (uint32_t)(x >> 32);
}

/* FNV-1a of the text. */
static uint32_t hash_text(const char *text) {
    uint32_t h = 2166136261u;
    for (; *text; text++)
        h = (h ^ (uint8_t)*text) * 16777619u;
    return h;
}

int upy_index_map_init(upy_index_map *map, upy_arena *arena, uint32_t count) {
    uint32_t slots = slots_for(count);
    map->keys = slots ? upy_arena_array(arena, slots, sizeof *map->keys) : NULL;
    map->values = slots ? upy_arena_array_uncleared(arena, slots,
                                                    sizeof *map->values)
                        : NULL;
    map->mask = slots - 1;
    return map->keys && map->values ? 0 : -1;
}

void upy_index_map_put_first(upy_index_map *map, const void *key,
                             int32_t value) {
    uint32_t at = hash_address(key) & map->mask;
    while (map->keys[at] && map->keys[at] != key)
        at = (at + 1) & map->mask;
    if (map->keys[at])
        return;
    map->keys[at] = key;
    map->values[at] = value;
}

int32_t upy_index_map_get(const upy_index_map *map, const void *key) {
    uint32_t at;
    if (!map->keys || !key)
        return -1;
    at = hash_address(key) & map->mask;
    while (map->keys[at]) {
        if (map->keys[at] == key)
            return map->values[at];
        at = (at + 1) & map->mask;
    }
    return -1;
}

int upy_name_set_init(upy_name_set *set, upy_arena *arena, uint32_t count) {
    uint32_t slots = slots_for(count);
    set->names = slots ? upy_arena_array(arena, slots, sizeof *set->names)
                       : NULL;
    set->mask = slots - 1;
    return set->names ? 0 : -1;
}

void upy_name_set_add(upy_name_set *set, const char *name) {
    uint32_t at = hash_text(name) & set->mask;
    while (set->names[at]) {
        if (set->names[at] == name || strcmp(set->names[at], name) == 0)
            return;
        at = (at + 1) & set->mask;
    }
    set->names[at] = name;
}

int upy_name_set_has(const upy_name_set *set, const char *name) {
    uint32_t at;
    if (!set->names)
        return 0;
    at = hash_text(name) & set->mask;
    while (set->names[at]) {
        if (set->names[at] == name || strcmp(set->names[at], name) == 0)
            return 1;
        at = (at + 1) & set->mask;
    }
    return 0;
}
