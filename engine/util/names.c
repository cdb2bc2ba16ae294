/*
 * names.c - what text can be a name in Python source; see names.h.
 */
#include "util/names.h"

#include <string.h>

int upy_is_identifier(const char *s) {
    static const char *const keywords[] = {
        "False",  "None",     "True",  "and",    "as",       "assert",
        "async",  "await",    "break", "class",  "continue", "def",
        "del",    "elif",     "else",  "except", "finally",  "for",
        "from",   "global",   "if",    "import", "in",       "is",
        "lambda", "nonlocal", "not",   "or",     "pass",     "raise",
        "return", "try",      "while", "with",   "yield",
    };
    size_t k;
    const unsigned char *c = (const unsigned char *)s;
    if (!s || !*s || (*c >= '0' && *c <= '9'))
        return 0;
    for (; *c; c++) {
        if (!(*c == '_' || (*c >= 'a' && *c <= 'z') ||
              (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c >= 0x80))
            return 0;
        /* A lone surrogate (ED A0-BF ..., as str objects hold it) is no
         * letter: `**{'\udc80': 10}` is no keyword argument. */
        if (*c == 0xED && c[1] >= 0xA0 && c[1] <= 0xBF)
            return 0;
    }
    for (k = 0; k < sizeof keywords / sizeof *keywords; k++)
        if (strcmp(s, keywords[k]) == 0)
            return 0;
    return 1;
}
