/* test_loader_nodetests.c: every model.onnx and .pb of the ONNX node tests loads. */
/* Models with non-tensor values load too, with each such value's decl.non_tensor naming its
 * kind (the runtime refuses them later); their non-tensor .pb files are skipped. The folders
 * come from compile definitions set in loader.cmake. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loader_util.h"
#include "tests/support/check.h"

#ifndef OSC_NODE_TESTS_DIR
#error "OSC_NODE_TESTS_DIR must be defined (tests/unit/loader.cmake)"
#endif
#ifndef OSC_DEBIAN_NODE_TESTS_DIR
#error "OSC_DEBIAN_NODE_TESTS_DIR must be defined (tests/unit/loader.cmake)"
#endif

typedef struct sweep {
    int models, tensors, flagged, skipped, failures;
} sweep;

static bool is_dir(const char *p) {
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void failure(sweep *s, const char *path, const char *what) {
    s->failures++;
    print_message("FAIL %s: %s\n", path, what);
}

/* For a ValueInfo whose type is not a tensor (and not absent): a word the loader's
 * decl.non_tensor must contain. NULL for tensors, absent types, and sequences and optionals,
 * which the loader declares as their pseudo-dtypes (test_loader_model checks those). */
static const char *non_tensor(const Onnx__ValueInfoProto *vi) {
    if (!vi->type) return NULL;
    switch (vi->type->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE: return NULL;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE: return NULL;
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: return "map";
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: return NULL;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE: return "sparse";
    default: return vi->type->base.n_unknown_fields ? "unknown" : NULL;
    }
}

static int32_t find_value(const osc_graph *g, const char *name) {
    for (int32_t i = 0; name && i < g->n_values; i++)
        if (strcmp(g->values[i].name, name) == 0) return i;
    return -1;
}

/* Each non-tensor ValueInfo of a used name flags its value with its kind: the first such
 * declaration (inputs, outputs, value_info in that order) names the kind; values without one
 * carry no flag. Returns false (after reporting) on a mismatch. */
static bool check_flags(sweep *s, const char *path, const Onnx__GraphProto *gp,
                        const osc_graph *g) {
    bool *seen = calloc((size_t)g->n_values + 1, sizeof *seen);
    bool ok = seen != NULL;
    char msg[600];
    Onnx__ValueInfoProto *const *lists[3] = {gp->input, gp->output, gp->value_info};
    size_t counts[3] = {gp->n_input, gp->n_output, gp->n_value_info};
    for (int l = 0; ok && l < 3; l++)
        for (size_t i = 0; ok && i < counts[l]; i++) {
            const char *want = non_tensor(lists[l][i]);
            int32_t id = find_value(g, lists[l][i]->name);
            if (!want || id < 0) continue; /* a tensor, or value_info about an unused name */
            const char *got = g->values[id].decl.non_tensor;
            if (!got || (!seen[id] && !strstr(got, want))) {
                snprintf(msg, sizeof msg, "value '%.200s' is declared non-tensor (%s) but "
                         "decl.non_tensor is %s", g->values[id].name, want, got ? got : "NULL");
                failure(s, path, msg);
                ok = false;
            }
            seen[id] = true;
        }
    for (int32_t id = 0; ok && id < g->n_values; id++)
        if (!seen[id] && g->values[id].decl.non_tensor) {
            snprintf(msg, sizeof msg, "value '%.200s' has decl.non_tensor '%s' but no "
                     "non-tensor declaration", g->values[id].name, g->values[id].decl.non_tensor);
            failure(s, path, msg);
            ok = false;
        }
    free(seen);
    return ok;
}

/* Decodes <set>/<prefix>_K.pb for each K; the matching graph input/output decides whether it
 * is a tensor. The declared elem_type must match the decoded dtype. */
static void check_set(sweep *s, const char *set, const char *prefix,
                      Onnx__ValueInfoProto **vis, size_t n_vis) {
    char path[1500];
    for (size_t k = 0;; k++) {
        snprintf(path, sizeof path, "%s/%s_%zu.pb", set, prefix, k);
        osc_allocator a;
        osc_err err;
        void *buf;
        size_t len;
        if (lu_read(path, &a, &err, &buf, &len)) return; /* no more files */
        const Onnx__ValueInfoProto *vi = k < n_vis ? vis[k] : NULL;
        if (vi && non_tensor(vi)) {
            s->skipped++;
            osc_free(&a, buf, len);
            continue;
        }
        osc_tensor t;
        char msg[OSC_MSG_SIZE];
        int vc = vi && vi->type ? (int)vi->type->value_case : 0;
        int32_t kind = vc == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE   ? OSC_SEQUENCE
                       : vc == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE ? OSC_OPTIONAL
                                                                     : 0;
        /* a SequenceProto or OptionalProto where the model declares one */
        osc_status st = osc_value_decode_pb(buf, len, kind, &t, NULL, 0, msg, sizeof msg);
        osc_free(&a, buf, len);
        s->tensors++;
        if (st) {
            failure(s, path, msg);
            continue;
        }
        if (kind && t.dtype != kind) failure(s, path, "decoded as another kind");
        const Onnx__TypeProto__Tensor *tt =
            vc == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ? vi->type->tensor_type : NULL;
        /* ONNX 1.12 (Debian's set) saved bfloat16 test tensors as their uint16 bits */
        bool legacy_bf16 = tt && tt->elem_type == OSC_BFLOAT16 && t.dtype == OSC_UINT16;
        if (tt && tt->has_elem_type && tt->elem_type != t.dtype && !legacy_bf16) {
            snprintf(msg, sizeof msg, "decoded dtype %d, the model declares %d", (int)t.dtype,
                     (int)tt->elem_type);
            failure(s, path, msg);
        }
        osc_tensor_free_data(&t);
    }
}

static void check_test(sweep *s, const char *dir) {
    char path[1400];
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    osc_allocator a;
    osc_err err;
    void *buf;
    size_t len;
    if (lu_read(path, &a, &err, &buf, &len)) {
        failure(s, path, err.msg);
        return;
    }
    /* the reference: protobuf-c's own view of which values are not tensors */
    Onnx__ModelProto *mp = onnx__model_proto__unpack(NULL, len, buf);
    if (!mp || !mp->graph) {
        failure(s, path, "protobuf-c cannot unpack it either");
        onnx__model_proto__free_unpacked(mp, NULL);
        osc_free(&a, buf, len);
        return;
    }
    const Onnx__GraphProto *gp = mp->graph;
    bool nt = false;
    for (size_t i = 0; i < gp->n_input; i++) nt |= non_tensor(gp->input[i]) != NULL;
    for (size_t i = 0; i < gp->n_output; i++) nt |= non_tensor(gp->output[i]) != NULL;
    for (size_t i = 0; i < gp->n_value_info; i++) nt |= non_tensor(gp->value_info[i]) != NULL;

    lu_model m;
    osc_status st = lu_parse(&m, buf, len, dir);
    osc_free(&a, buf, len);
    s->models++;
    if (st) {
        failure(s, path, m.err.msg);
    } else if ((size_t)m.g.n_nodes != gp->n_node || (size_t)m.g.n_inputs != gp->n_input ||
               (size_t)m.g.n_outputs != gp->n_output) {
        failure(s, path, "node/input/output counts differ from protobuf-c's");
    } else if (check_flags(s, path, gp, &m.g) && nt) {
        s->flagged++;
    }
    lu_model_free(&m);

    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, "test_data_set_", 14) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        check_set(s, path, "input", gp->input, gp->n_input);
        check_set(s, path, "output", gp->output, gp->n_output);
    }
    if (d) closedir(d);
    onnx__model_proto__free_unpacked(mp, NULL);
}

static void sweep_folder(const char *root) {
    DIR *d = opendir(root);
    if (!d) {
        print_message("SKIP: node-test folder '%s' is absent (set OSC_NODE_TESTS_DIR)\n", root);
        skip();
    }
    sweep s = {0};
    char dir[1024];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        if (is_dir(dir)) check_test(&s, dir);
    }
    closedir(d);
    print_message("%s: %d models (%d with non-tensor values, flagged), %d tensors, %d "
                  "non-tensor .pb skipped, %d failures\n", root, s.models, s.flagged, s.tensors,
                  s.skipped, s.failures);
    assert_true(s.models > 0);
    assert_int_equal(s.failures, 0);
}

static void test_onnx_node_tests(void **state) {
    (void)state;
    sweep_folder(OSC_NODE_TESTS_DIR);
}

static void test_debian_node_tests(void **state) {
    (void)state;
    sweep_folder(OSC_DEBIAN_NODE_TESTS_DIR);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_onnx_node_tests),
    cmocka_unit_test(test_debian_node_tests),
)
