/* test_loader_nodetests.c: every model.onnx and every input/output .pb of the ONNX node tests
 * loads (models with non-tensor values are refused as unsupported, and their non-tensor .pb
 * files are skipped). The folders come from compile definitions set in loader.cmake. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loader_util.h"

#ifndef OSC_NODE_TESTS_DIR
#error "OSC_NODE_TESTS_DIR must be defined (tests/unit/loader.cmake)"
#endif
#ifndef OSC_DEBIAN_NODE_TESTS_DIR
#error "OSC_DEBIAN_NODE_TESTS_DIR must be defined (tests/unit/loader.cmake)"
#endif

typedef struct sweep {
    int models, tensors, refused, skipped, failures;
} sweep;

static bool is_dir(const char *p) {
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void failure(sweep *s, const char *path, const char *what) {
    s->failures++;
    print_message("FAIL %s: %s\n", path, what);
}

/* A ValueInfo whose type is not a tensor (and not absent). */
static bool non_tensor(const Onnx__ValueInfoProto *vi) {
    return vi->type && vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE &&
           vi->type->value_case != ONNX__TYPE_PROTO__VALUE__NOT_SET;
}

/* Decodes <set>/<prefix>_K.pb for each K; the matching graph input/output decides whether it
 * is a tensor. The declared elem_type must match the decoded dtype. */
static void check_set(sweep *s, const char *set, const char *prefix,
                      Onnx__ValueInfoProto **vis, size_t n_vis) {
    char path[1500];
    for (size_t k = 0;; k++) {
        snprintf(path, sizeof path, "%s/%s_%zu.pb", set, prefix, k);
        osc_allocator a;
        osc_allocator_init(&a, NULL);
        osc_err err;
        osc_err_clear(&err);
        void *buf;
        size_t len;
        if (osc_read_file(&a, path, &buf, &len, &err)) return; /* no more files */
        const Onnx__ValueInfoProto *vi = k < n_vis ? vis[k] : NULL;
        if (vi && non_tensor(vi)) {
            s->skipped++;
            osc_free(&a, buf, len);
            continue;
        }
        osc_tensor t;
        char msg[OSC_MSG_SIZE];
        osc_status st = osc_tensor_decode_pb(buf, len, &t, NULL, 0, msg, sizeof msg);
        osc_free(&a, buf, len);
        s->tensors++;
        if (st) {
            failure(s, path, msg);
            continue;
        }
        const Onnx__TypeProto__Tensor *tt = vi && vi->type ? vi->type->tensor_type : NULL;
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
    osc_allocator_init(&a, NULL);
    osc_err err;
    osc_err_clear(&err);
    void *buf;
    size_t len;
    if (osc_read_file(&a, path, &buf, &len, &err)) {
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
    for (size_t i = 0; i < gp->n_input; i++) nt |= non_tensor(gp->input[i]);
    for (size_t i = 0; i < gp->n_output; i++) nt |= non_tensor(gp->output[i]);
    for (size_t i = 0; i < gp->n_value_info; i++) nt |= non_tensor(gp->value_info[i]);

    lu_model m;
    osc_status st = lu_parse(&m, buf, len, dir);
    osc_free(&a, buf, len);
    s->models++;
    if (nt) {
        s->refused++;
        if (st != OSC_ERR_UNSUPPORTED || !strstr(m.err.msg, "only tensors are supported"))
            failure(s, path, st ? m.err.msg : "loaded, but it has non-tensor values");
    } else if (st) {
        failure(s, path, m.err.msg);
    } else if ((size_t)m.g.n_nodes != gp->n_node || (size_t)m.g.n_inputs != gp->n_input ||
               (size_t)m.g.n_outputs != gp->n_output) {
        failure(s, path, "node/input/output counts differ from protobuf-c's");
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
    print_message("%s: %d models (%d refused for non-tensor values), %d tensors, %d non-tensor "
                  ".pb skipped, %d failures\n", root, s.models, s.refused, s.tensors, s.skipped,
                  s.failures);
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_onnx_node_tests),
        cmocka_unit_test(test_debian_node_tests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
