/* reduce.c: which scatter reductions each dtype defines, reduction names, string add. */
#include "reduce.h"

#include <string.h>

#include "../runtime/core/dtype.h"

/* The dtypes each reduction is defined for, in OSC_RED_* order: every standard dtype, but no
 * string mul. */
static const uint64_t k_red_types[OSC_RED_COUNT] = {
    OSC_TS_STD, OSC_TS_STD, OSC_TS_STD & ~OSC_TS(OSC_STRING), OSC_TS_STD, OSC_TS_STD};

bool osc_reduction_defined(int32_t dtype, int32_t reduction) {
    return reduction >= 0 && reduction < OSC_RED_COUNT && dtype >= 0 && dtype < 64 &&
           (k_red_types[reduction] & OSC_TS(dtype)) != 0;
}

bool osc_string_append(osc_pool *strings, osc_string *d, osc_string s) {
    if (s.len == 0) return true;
    char *buf = osc_pool_alloc(strings, d->len + s.len);
    if (!buf) return false;
    if (d->len) memcpy(buf, d->ptr, d->len);
    memcpy(buf + d->len, s.ptr, s.len);
    d->ptr = buf;
    d->len += s.len;
    return true;
}

static const char *const k_red_names[OSC_RED_COUNT] = {"none", "add", "mul", "max", "min"};

const char *osc_reduction_name(int32_t reduction) {
    return (reduction >= 0 && reduction < OSC_RED_COUNT) ? k_red_names[reduction] : "?";
}

int32_t osc_reduction_parse(const char *s) {
    for (int32_t r = 0; r < OSC_RED_COUNT; r++)
        if (strcmp(s, k_red_names[r]) == 0) return r;
    return -1;
}
