/* test_options.c: options by name (osc_options_set/get, osc_option_name) and the desc tails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onnx_scatter.h"
#include "test_embed_models.h"
#include "tests/support/check.h"

/* What the header documents for each option, in osc_options' field order. */
typedef struct key_row {
    const char *name;
    size_t offset, size;
    uint64_t hi; /* every range starts at 0 */
} key_row;
#define KEY(f, max)                                                                          \
    {.name = #f, .offset = offsetof(osc_options, f), .size = sizeof(((osc_options *)0)->f),  \
     .hi = (max)}
static const key_row k_keys[] = {
    KEY(max_bytes, UINT64_MAX), KEY(strict, 1), KEY(profile, 1), KEY(inplace_inputs, 2),
    KEY(threads, OSC_MAX_THREADS), KEY(max_arena_bytes, UINT64_MAX), KEY(max_nodes, INT32_MAX),
    KEY(max_rank, OSC_MAX_RANK), KEY(max_string_mib, 255), KEY(newer_opsets, 1),
    KEY(no_fusion, 1), KEY(fuse_recompute, 1), KEY(max_iterations, INT64_MAX),
    KEY(max_fold_bytes, UINT64_MAX)};
#define N_KEYS (sizeof k_keys / sizeof k_keys[0])

/* o with field r set to v directly (the way sources written before osc_options_set do). */
static osc_options by_field(const key_row *r, uint64_t v) {
    osc_options o;
    osc_options_init(&o);
    unsigned char *p = (unsigned char *)&o + r->offset;
    if (r->size == 1) {
        const uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
    } else if (r->size == 4) {
        const int32_t x = (int32_t)v;
        memcpy(p, &x, 4);
    } else {
        memcpy(p, &v, 8);
    }
    return o;
}

/* Sets key=value on fresh options; *o gets the result; msg the message. */
static osc_status set(osc_options *o, const char *key, const char *value, char *msg) {
    osc_options_init(o);
    memset(msg, 'x', OSC_MESSAGE_SIZE - 1); /* success must clear it */
    msg[OSC_MESSAGE_SIZE - 1] = '\0';
    return osc_options_set(o, key, value, msg, OSC_MESSAGE_SIZE);
}

static void expect_refused(const char *key, const char *value, const char *want) {
    osc_options o, def;
    char msg[OSC_MESSAGE_SIZE];
    osc_options_init(&def);
    assert_int_equal(set(&o, key, value, msg), OSC_ERR_ARG);
    assert_memory_equal(&o, &def, sizeof o); /* unchanged */
    if (!strstr(msg, want)) fail_msg("%s=%s: message '%s' lacks '%s'", key, value, msg, want);
    assert_null(strchr(msg, '\n'));
}

/* Every key: the library's list is the header's; 0, 1 and the top of the range set the field as
 * an assignment would, read back with osc_options_get; one past the top is refused. */
static void every_key(void **state) {
    (void)state;
    size_t n = 0;
    while (osc_option_name(n)) n++;
    assert_int_equal(n, N_KEYS);
    assert_null(osc_option_name(SIZE_MAX));
    for (size_t i = 0; i < N_KEYS; i++) {
        const key_row *r = &k_keys[i];
        assert_string_equal(osc_option_name(i), r->name);
        const uint64_t values[3] = {0, 1, r->hi};
        for (int k = 0; k < 3; k++) {
            char text[32], msg[OSC_MESSAGE_SIZE];
            snprintf(text, sizeof text, "%llu", (unsigned long long)values[k]);
            osc_options o;
            assert_int_equal(set(&o, r->name, text, msg), OSC_OK);
            assert_string_equal(msg, "");
            const osc_options want = by_field(r, values[k]);
            if (memcmp(&o, &want, sizeof o))
                fail_msg("%s=%s differs from setting the field", r->name, text);
            uint64_t back = 7;
            assert_int_equal(osc_options_get(&o, r->name, &back), OSC_OK);
            assert_true(back == values[k]);
        }
        if (r->hi == UINT64_MAX) continue;
        char text[32], want[160];
        snprintf(text, sizeof text, "%llu", (unsigned long long)r->hi + 1);
        snprintf(want, sizeof want, "option %s = '%s': out of range; expected 0 %s %llu", r->name,
                 text, r->hi == 1 ? "or" : "to", (unsigned long long)r->hi);
        expect_refused(r->name, text, want);
    }
}

static void bad_keys_and_values(void **state) {
    (void)state;
    expect_refused("fuse_recompte", "1", "unknown option 'fuse_recompte'; the options are ");
    expect_refused("fuse_recompte", "1", "no_fusion, fuse_recompute");
    expect_refused("", "1", "unknown option ''");
    expect_refused("Threads", "1", "unknown option 'Threads'");
    expect_refused("reserved", "0", "unknown option 'reserved'");
    expect_refused("alloc", "0", "unknown option 'alloc'");
    static const char *const not_numbers[] = {"",    "-1",  "+1", " 1",  "1 ", "0x1",
                                              "1.0", "1e3", "on", "true"};
    for (size_t i = 0; i < sizeof not_numbers / sizeof not_numbers[0]; i++) {
        char want[160];
        snprintf(want, sizeof want, "option threads = '%s': not a decimal integer; expected 0 to "
                 "256", not_numbers[i]);
        expect_refused("threads", not_numbers[i], want);
    }
    expect_refused("max_bytes", "18446744073709551616", "out of range; expected 0 to "
                   "18446744073709551615");
    expect_refused("no_fusion", "2", "option no_fusion = '2': out of range; expected 0 or 1");
    /* a long key or value is cut in the message, which still says what is allowed */
    char big[300];
    memset(big, '9', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    expect_refused("max_rank", big, "'...: out of range; expected 0 to 32");
    big[100] = 'x';
    expect_refused("max_rank", big, "'...: not a decimal integer; expected 0 to 32");
    /* leading zeros are a decimal number */
    osc_options o;
    char msg[OSC_MESSAGE_SIZE];
    assert_int_equal(set(&o, "threads", "0004", msg), OSC_OK);
    assert_int_equal(o.threads, 4);
    /* NULL arguments; msg NULL or size 0 writes nothing; a short buffer gets a cut message */
    assert_int_equal(osc_options_set(NULL, "threads", "1", msg, sizeof msg), OSC_ERR_ARG);
    assert_string_equal(msg, "osc_options_set: NULL opts");
    assert_int_equal(osc_options_set(&o, NULL, "1", msg, sizeof msg), OSC_ERR_ARG);
    assert_int_equal(osc_options_set(&o, "threads", NULL, msg, sizeof msg), OSC_ERR_ARG);
    assert_string_equal(msg, "osc_options_set: NULL value");
    assert_int_equal(osc_options_set(&o, "nope", "1", NULL, 0), OSC_ERR_ARG);
    msg[0] = 'x';
    assert_int_equal(osc_options_set(&o, "nope", "1", msg, 0), OSC_ERR_ARG);
    assert_int_equal(msg[0], 'x');
    assert_int_equal(osc_options_set(&o, "nope", "1", msg, 8), OSC_ERR_ARG);
    assert_string_equal(msg, "unknown");
    uint64_t v;
    assert_int_equal(osc_options_get(&o, "nope", &v), OSC_ERR_ARG);
    assert_int_equal(osc_options_get(NULL, "threads", &v), OSC_ERR_ARG);
    assert_int_equal(osc_options_get(&o, NULL, &v), OSC_ERR_ARG);
    assert_int_equal(osc_options_get(&o, "threads", NULL), OSC_ERR_ARG);
}

static osc_status load(const osc_options *o, osc_model **m, char *msg) {
    size_t len;
    void *buf = emb_chain_model(8, false, &len);
    assert_non_null(buf);
    const osc_status st = osc_model_load_buffer(buf, len, NULL, o, m, msg, OSC_MESSAGE_SIZE);
    free(buf);
    return st;
}

/* A setting by name is the field: the model keeps it (osc_model_options) and acts on it. */
static void settings_take_effect(void **state) {
    (void)state;
    char msg[OSC_MESSAGE_SIZE];
    osc_options named, field, kept;
    osc_options_init(&named);
    osc_options_init(&field);
    assert_int_equal(osc_options_set(&named, "fuse_recompute", "1", msg, sizeof msg), OSC_OK);
    assert_int_equal(osc_options_set(&named, "threads", "2", msg, sizeof msg), OSC_OK);
    field.fuse_recompute = 1;
    field.threads = 2;
    assert_memory_equal(&named, &field, sizeof named);
    osc_model *m;
    assert_int_equal(load(&named, &m, msg), OSC_OK);
    assert_int_equal(osc_model_options(m, &kept), OSC_OK);
    assert_memory_equal(&kept, &field, sizeof kept);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    const int32_t threads = osc_session_threads(s); /* 2 unless the build has no threads */
    assert_true(threads == 2 || threads == 1);
    osc_session_free(s);
    osc_model_free(m);
    /* the chain has 2 nodes: max_nodes 1 by name refuses it, naming the field */
    osc_options_init(&named);
    assert_int_equal(osc_options_set(&named, "max_nodes", "1", msg, sizeof msg), OSC_OK);
    assert_int_equal(load(&named, &m, msg), OSC_ERR_LIMIT);
    assert_non_null(strstr(msg, "opts.max_nodes"));
    /* the later setting of a key wins */
    assert_int_equal(osc_options_set(&named, "max_nodes", "0", msg, sizeof msg), OSC_OK);
    assert_int_equal(load(&named, &m, msg), OSC_OK);
    osc_model_free(m);
}

/* The library writes zero into the reserved tail of what it fills. */
static void desc_tails_zeroed(void **state) {
    (void)state;
    osc_op_desc op;
    memset(&op, 0x5a, sizeof op);
    assert_int_equal(osc_op_at(0, &op), OSC_OK);
    for (size_t k = 0; k < sizeof op.reserved / sizeof op.reserved[0]; k++)
        assert_true(op.reserved[k] == 0);
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m;
    assert_int_equal(load(NULL, &m, msg), OSC_OK);
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc d;
        memset(&d, 0x5a, sizeof d);
        assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
        for (size_t k = 0; k < sizeof d.reserved / sizeof d.reserved[0]; k++)
            assert_true(d.reserved[k] == 0);
    }
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(every_key),
    cmocka_unit_test(bad_keys_and_values),
    cmocka_unit_test(settings_take_effect),
    cmocka_unit_test(desc_tails_zeroed),
)
