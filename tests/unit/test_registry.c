/* test_registry.c: every registry row against the ONNX spec's Changelog
 * (../shared/spec/onnx-Changelog.md): its version range ends where the spec's next version of the
 * op begins (or at OSC_OPSET_NEWEST, the newest opset the Changelog has), and its type constraint
 * for each input is exactly the spec's. Skipped, and said so, when the Changelog is absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/registry.h"
#include "core/dtype.h"

#ifndef OSC_CHANGELOG
#define OSC_CHANGELOG "../shared/spec/onnx-Changelog.md"
#endif

static char *g_text; /* the default domain's part of the Changelog */

static int load(void **state) {
    (void)state;
    FILE *f = fopen(OSC_CHANGELOG, "rb");
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    g_text = malloc((size_t)n + 1);
    if (!g_text || fread(g_text, 1, (size_t)n, f) != (size_t)n) abort();
    g_text[n] = 0;
    fclose(f);
    char *preview = strstr(g_text, "\n# ai.onnx.preview");
    if (preview) *preview = 0;
    return 0;
}

static int unload(void **state) {
    (void)state;
    free(g_text);
    return 0;
}

/* The section of Op-version, up to the next section; NULL when the spec has no such version. */
static const char *section(const char *op, int64_t v, const char **end) {
    char key[96];
    snprintf(key, sizeof key, "### <a name=\"%s-%lld\"></a>", op, (long long)v);
    const char *s = strstr(g_text, key);
    if (!s) return NULL;
    const char *e = strstr(s + 1, "\n### <a name=");
    *end = e ? e : s + strlen(s);
    return s;
}

/* The dtype set of "tensor(a), seq(tensor(b)), optional(...), ..." up to `end` ("</dt>"): a
 * tensor gives its dtype, any seq(...) the bit of OSC_SEQUENCE, any optional(...) that of
 * OSC_OPTIONAL (the engine's pseudo-dtypes; the kernels check the items). */
static uint64_t parse_types(const char *p, const char *end) {
    uint64_t set = 0;
    while (p && p < end) {
        const char *t = strstr(p, "tensor("), *q = strstr(p, "seq("), *o = strstr(p, "optional(");
        const char *first = t;
        if (q && (!first || q < first)) first = q;
        if (o && (!first || o < first)) first = o;
        if (!first || first >= end) break;
        if (first != t) { /* skip the whole item: to the ")" closing it */
            set |= OSC_TS(first == q ? OSC_SEQUENCE : OSC_OPTIONAL);
            int depth = 0;
            for (p = strchr(first, '('); p < end; p++) {
                depth += (*p == '(') - (*p == ')');
                if (!depth) break;
            }
            continue;
        }
        p = t + 7;
        size_t len = strcspn(p, ")");
        for (int32_t d = 1; d < OSC_DTYPE_COUNT; d++)
            if (strlen(osc_dtype_get(d)->name) == len && !strncmp(osc_dtype_get(d)->name, p, len))
                set |= OSC_TS(d);
        p += len;
    }
    return set;
}

/* The type set of each input of a section, into sets[]; returns the count (-1: none listed). */
static int spec_inputs(const char *s, const char *e, uint64_t *sets, int max) {
    const char *tc = strstr(s, "#### Type Constraints"), *in = strstr(s, "#### Inputs");
    const char *out = strstr(s, "#### Outputs");
    if (!in || in > e || !out || out > e) return -1;
    int n = 0;
    for (const char *p = in; (p = strstr(p, "<dt><tt>")) && p < out && n < max; p++) {
        const char *colon = strstr(p, " : "), *dt_end = strstr(p, "</dt>");
        if (!colon || !dt_end || colon > dt_end) continue;
        colon += 3;
        if (!strncmp(colon, "tensor(", 7) || !strncmp(colon, "seq(", 4)) {
            sets[n++] = parse_types(colon, dt_end);
            continue;
        }
        char name[32];
        snprintf(name, sizeof name, "<dt><tt>%.*s</tt> : ", (int)(dt_end - colon), colon);
        const char *c = tc && tc < e ? strstr(tc, name) : NULL;
        sets[n++] = c && c < e ? parse_types(c, strstr(c, "</dt>")) : 0;
    }
    return n;
}

static void rows_match_the_changelog(void **state) {
    (void)state;
    if (!g_text) skip(); /* reported by cmocka as skipped, never passed */
    int checked = 0;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        const osc_kernel *k = osc_kernel_at(r);
        if (k->domain && k->domain[0]) { /* a fused kernel: no spec, no model may name it */
            assert_string_equal(k->domain, "osc");
            assert_true(k->flags & OSC_KF_INTERNAL);
            checked++;
            continue;
        }
        assert_false(k->flags & OSC_KF_INTERNAL);
        const char *e, *s = section(k->op, k->since, &e);
        if (!s) fail_msg("%s-%lld: no such version in the Changelog", k->op, (long long)k->since);
        /* until: the spec's next version of the op, less one */
        int64_t next = OSC_OPSET_NEWEST + 1;
        for (int64_t v = k->since + 1; v <= OSC_OPSET_NEWEST; v++)
            if (section(k->op, v, &e) && (next = v)) break;
        if (k->until != next - 1)
            fail_msg("%s-%lld: .until is %lld; the spec's next version is %lld", k->op,
                     (long long)k->since, (long long)k->until, (long long)next);
        /* types: a deprecated version without its own lists keeps the previous version's, or
         * when it is the first (GroupNormalization-18, whose entry is only the deprecation
         * note), the next one's */
        uint64_t sets[16];
        int n = -1;
        for (int64_t v = k->since; v >= 1 && n < 0; v--)
            if ((s = section(k->op, v, &e))) n = spec_inputs(s, e, sets, 16);
        for (int64_t v = k->since + 1; v <= OSC_OPSET_NEWEST && n < 0; v++)
            if ((k->flags & OSC_KF_DEPRECATED) && (s = section(k->op, v, &e)))
                n = spec_inputs(s, e, sets, 16);
        if (n < 0) fail_msg("%s-%lld: no input list found", k->op, (long long)k->since);
        for (int i = 0; i < n; i++)
            if (osc_kernel_types(k, i) != sets[i]) {
                char want[512], got[512];
                fail_msg("%s-%lld input %d: the row allows %s; the spec: %s", k->op,
                         (long long)k->since, i,
                         osc_typeset_str(osc_kernel_types(k, i), got, sizeof got),
                         osc_typeset_str(sets[i], want, sizeof want));
            }
        checked++;
    }
    assert_int_equal(checked, (int)osc_kernel_count());
    /* the newest opset the library knows is the Changelog's newest */
    char key[64];
    snprintf(key, sizeof key, "## Version %d of the default ONNX operator set",
             OSC_OPSET_NEWEST + 1);
    assert_null(strstr(g_text, key));
    snprintf(key, sizeof key, "## Version %d of the default ONNX operator set", OSC_OPSET_NEWEST);
    assert_non_null(strstr(g_text, key));
}

/* Lookups follow the ranges: inside a row's range, that row; past the newest, none. */
static void lookups_follow_the_ranges(void **state) {
    (void)state;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        const osc_kernel *k = osc_kernel_at(r);
        const char *domain = k->domain ? k->domain : "";
        assert_ptr_equal(osc_kernel_find(domain, k->op, k->since), k);
        assert_ptr_equal(osc_kernel_find(domain, k->op, k->until), k);
        assert_true(k->since <= k->until);
        assert_true(k->inputs.min <= k->inputs.max);
        if (k->inputs.max > 0) assert_true(osc_kernel_types(k, 0) != 0);
    }
    assert_null(osc_kernel_find("", "ScatterND", OSC_OPSET_NEWEST + 1));
    assert_null(osc_kernel_find("", "ScatterND", 10));
    assert_null(osc_kernel_at(osc_kernel_count()));
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(rows_match_the_changelog),
                                       cmocka_unit_test(lookups_follow_the_ranges)};
    return cmocka_run_group_tests(tests, load, unload);
}
