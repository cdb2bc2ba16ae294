/*
 * names.h - what text can be a name in Python source.
 *
 * Normalizing asks it of the keys of a call's keyword dict (3.8's
 * BUILD_MAP_UNPACK_WITH_CALL), recovery of every name it prints.
 */
#ifndef UPY_NAMES_H
#define UPY_NAMES_H

/* Whether s can be a name in source: an identifier and no keyword
 * (non-ASCII letters are taken on trust). */
int upy_is_identifier(const char *s);

#endif /* UPY_NAMES_H */
