/* mw_check.h: the ModelProto writer's result in cmocka tests (test-support, not the library).
 * Header-only (static inline): the writer itself stays free of cmocka. */
#ifndef OSC_TEST_MW_CHECK_H
#define OSC_TEST_MW_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "writer.h"

/* The model mw describes, serialized into a malloc'ed buffer (*len bytes); frees mw. Fails the
 * test with the writer's message when it recorded an error. */
static inline void *osc_check_serialize(osc_mw *mw, size_t *len) {
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

/* The model of len bytes at buf loaded with options o (NULL: the defaults); fails the test with
 * the load's message unless the load succeeds. */
static inline osc_model *osc_check_load_buffer(const void *buf, size_t len,
                                               const osc_options *o) {
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    if (osc_model_load_buffer(buf, len, NULL, o, &m, msg, sizeof msg) != OSC_OK)
        fail_msg("load: %s", msg);
    return m;
}

/* The model mw describes (mw freed), loaded with options o (NULL: the defaults); fails the test
 * with the load's message unless the load succeeds. */
static inline osc_model *osc_check_load(osc_mw *mw, const osc_options *o) {
    size_t len;
    void *buf = osc_check_serialize(mw, &len);
    osc_model *m = osc_check_load_buffer(buf, len, o);
    free(buf);
    return m;
}

#endif
