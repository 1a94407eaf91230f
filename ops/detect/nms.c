/* nms.c: NonMaxSuppression (10, 11): per batch and class, the boxes whose score is strictly above
 * score_threshold (every box when absent), by score descending (the lower box index first on
 * equal scores), each kept unless its IoU with a box kept before is strictly above
 * iou_threshold, at most max_output_boxes_per_class of them (absent or 0: none). Output
 * [num_selected, 3] int64 rows [batch, class, box], batch by batch, class by class, each in
 * selection order: onnxruntime's and ONNX's reference order. IoU in float as onnxruntime:
 * corners ordered per axis (center_point_box 0: [y1, x1, y2, x2]; 1: [x_center, y_center, width,
 * height]), a box of zero area overlaps nothing.
 * The output's size depends on the values, so infer reads every input (infer_reads) and
 * selects; run copies the rows infer kept in the node's session slot (selecting again only
 * without one: at load, in kernel tests). Refused before anything is written:
 * NaN or infinite box coordinates, NaN scores or thresholds, iou_threshold outside [0, 1], a
 * negative max_output_boxes_per_class (docs/semantics.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detect_common.h"
#include "nms_grid.h"

OSC_KERNEL_DECLARE(osc_nms)

typedef struct nms_params {
    bool center; /* center_point_box 1 */
} nms_params;

osc_status osc_nms_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"center_point_box", NULL};
    osc_status st = osc_attr_known(k, node, known);
    if (st) return st;
    nms_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t c;
    st = osc_attr_int(k, node, "center_point_box", 0, &c);
    if (st) return st;
    if (c != 0 && c != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'center_point_box' = %lld; allowed: 0 "
                         "([y1, x1, y2, x2]) or 1 ([x_center, y_center, width, height])",
                         (long long)c);
    p->center = c == 1;
    *params = p;
    return OSC_OK;
}

/* The checked inputs of one selection. */
typedef struct nms_in {
    const float *boxes, *scores;
    int64_t batches, classes, spatial, max_out;
    float iou, score_thr;
    bool has_score_thr;
} nms_in;

/* Input i, when present, must hold one element (a scalar or [1]) of its row dtype; *v gets it
 * as a double. Absent: *present false. */
static osc_status read_scalar(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                              const char *what, bool *present, double *v) {
    const osc_tensor *t = osc_sh_in(in, n_in, i);
    *present = t != NULL;
    if (!t) return OSC_OK;
    int64_t n;
    char b[96];
    osc_status st = osc_sh_need_typed(k, in, n_in, i, what, &n);
    if (!st) st = osc_sh_need_data(k, i, what, t);
    if (st) return st;
    if (n != 1 || t->rank > 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; allowed: a scalar "
                         "or [1]", (int)i, what, osc_kinput_name(k, i),
                         osc_shape_str(t, b, sizeof b));
    *v = t->dtype == OSC_INT64 ? (double)*(const int64_t *)t->data : *(const float *)t->data;
    return OSC_OK;
}

/* Every check of the inputs, shapes and values, into *s. */
static osc_status check_inputs(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               nms_in *s) {
    char b[96], c[96];
    int64_t n;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "boxes", &n);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 1, "scores", &n);
    if (st) return st;
    const osc_tensor *bx = in[0], *sc = in[1];
    if (bx->rank != 3 || bx->dims[2] != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'boxes' (%s) has shape %s; allowed: "
                         "[num_batches, spatial_dimension, 4]", osc_kinput_name(k, 0),
                         osc_shape_str(bx, b, sizeof b));
    if (sc->rank != 3 || sc->dims[0] != bx->dims[0] || sc->dims[2] != bx->dims[1])
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'scores' (%s) has shape %s; allowed: "
                         "[num_batches, num_classes, spatial_dimension] with boxes' %s",
                         osc_kinput_name(k, 1), osc_shape_str(sc, b, sizeof b),
                         osc_shape_str(bx, c, sizeof c));
    bool has_max, has_iou; /* iou_threshold absent: 0 */
    double max_out = 0, iou = 0, thr = 0;
    st = read_scalar(k, in, n_in, 2, "max_output_boxes_per_class", &has_max, &max_out);
    if (!st) st = read_scalar(k, in, n_in, 3, "iou_threshold", &has_iou, &iou);
    if (!st) st = read_scalar(k, in, n_in, 4, "score_threshold", &s->has_score_thr, &thr);
    if (!st) st = osc_sh_need_data(k, 0, "boxes", bx);
    if (!st) st = osc_sh_need_data(k, 1, "scores", sc);
    if (st) return st;
    s->max_out = has_max ? *(const int64_t *)in[2]->data : 0;
    if (s->max_out < 0)
        return osc_kfail(k, OSC_ERR_INDEX, "input 2 'max_output_boxes_per_class' (%s) is %lld; "
                         "allowed: 0 (no output) or more", osc_kinput_name(k, 2),
                         (long long)s->max_out);
    if (!(iou >= 0 && iou <= 1))
        return osc_kfail(k, OSC_ERR_INDEX, "input 3 'iou_threshold' (%s) is %g; allowed: 0 to 1",
                         osc_kinput_name(k, 3), iou);
    if (isnan(thr))
        return osc_kfail(k, OSC_ERR_INDEX, "input 4 'score_threshold' (%s) is NaN; allowed: a "
                         "number", osc_kinput_name(k, 4));
    s->boxes = bx->data;
    s->scores = sc->data;
    s->batches = bx->dims[0];
    s->classes = sc->dims[1];
    s->spatial = bx->dims[1];
    s->iou = (float)iou;
    s->score_thr = (float)thr;
    const int64_t nb = s->batches * s->spatial * 4, ns = s->batches * s->classes * s->spatial;
    for (int64_t i = 0; i < nb; i++)
        if (!isfinite(s->boxes[i]))
            return osc_kfail(k, OSC_ERR_INDEX, "input 0 'boxes' (%s) at [%lld, %lld, %lld] is "
                             "%g; allowed: a finite coordinate", osc_kinput_name(k, 0),
                             (long long)(i / 4 / s->spatial), (long long)(i / 4 % s->spatial),
                             (long long)(i % 4), (double)s->boxes[i]);
    for (int64_t i = 0; i < ns; i++)
        if (isnan(s->scores[i]))
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'scores' (%s) at [%lld, %lld, %lld] is "
                             "NaN; allowed: a number", osc_kinput_name(k, 1),
                             (long long)(i / s->spatial / s->classes),
                             (long long)(i / s->spatial % s->classes),
                             (long long)(i % s->spatial));
    return OSC_OK;
}

static nms_box box_at(const float *b, bool center) {
    nms_box r;
    for (int a = 0; a < 2; a++) {
        if (center) { /* [x_center, y_center, width, height]: axis a = 0 (y) is b[1], b[3] */
            const float half = b[3 - a] / 2;
            r.lo[a] = b[1 - a] - half, r.hi[a] = b[1 - a] + half;
        } else { /* [y1, x1, y2, x2] */
            const float u = b[a], v = b[a + 2];
            r.lo[a] = u <= v ? u : v, r.hi[a] = u <= v ? v : u;
        }
    }
    r.area = (r.hi[0] - r.lo[0]) * (r.hi[1] - r.lo[1]);
    return r;
}

typedef struct nms_cand {
    float score;
    int64_t index;
} nms_cand;

/* Score descending, then index ascending: a total order, so qsort's result is unique. */
static int cand_cmp(const void *a, const void *b) {
    const nms_cand *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The selected rows, 3 int64 each: n rows in room for cap. */
typedef struct nms_rows {
    int64_t *v;
    int64_t n, cap;
} nms_rows;

static void rows_free(osc_allocator *a, nms_rows *r) {
    if (r->v) osc_free(a, r->v, (size_t)r->cap * 3 * sizeof *r->v);
    memset(r, 0, sizeof *r);
}

static bool rows_push(osc_allocator *a, nms_rows *r, int64_t b, int64_t c, int64_t i) {
    if (r->n == r->cap) {
        const int64_t cap = r->cap ? 2 * r->cap : 64;
        int64_t *v = osc_realloc(a, r->v, (size_t)r->cap * 3 * sizeof *v,
                                 (size_t)cap * 3 * sizeof *v);
        if (!v) return false;
        r->v = v, r->cap = cap;
    }
    int64_t *o = r->v + r->n++ * 3;
    o[0] = b, o[1] = c, o[2] = i;
    return true;
}

/* Runs the selection into *out (empty on entry; freed on failure): per batch and class, the
 * candidates' boxes in score order, each compared with the kept boxes sharing a grid cell. */
static osc_status select_boxes(osc_kctx *k, const nms_in *s, nms_rows *out) {
    if (s->max_out == 0 || s->spatial == 0 || s->classes == 0) return OSC_OK;
    const bool center = ((const nms_params *)k->params)->center;
    const int64_t keep_max = s->max_out < s->spatial ? s->max_out : s->spatial;
    const size_t n = (size_t)s->spatial;
    nms_cand *cand = osc_malloc(k->alloc, n * sizeof *cand);
    nms_box *boxes = osc_malloc(k->alloc, n * sizeof *boxes);
    nms_box *kept = osc_malloc(k->alloc, (size_t)keep_max * sizeof *kept);
    bool ok = cand && boxes && kept;
    for (int64_t b = 0; ok && b < s->batches; b++)
        for (int64_t c = 0; ok && c < s->classes; c++) {
            const float *sc = s->scores + (b * s->classes + c) * s->spatial;
            size_t m = 0;
            for (int64_t i = 0; i < s->spatial; i++)
                if (!s->has_score_thr || sc[i] > s->score_thr)
                    cand[m++] = (nms_cand){sc[i], i};
            if (m == 0) continue;
            qsort(cand, m, sizeof *cand, cand_cmp);
            for (size_t j = 0; j < m; j++)
                boxes[j] = box_at(s->boxes + (b * s->spatial + cand[j].index) * 4, center);
            nms_grid g;
            ok = osc_nms_grid_init(&g, k->alloc, boxes, (int64_t)m);
            int64_t nk = 0;
            for (size_t j = 0; ok && j < m && nk < keep_max; j++) {
                if (osc_nms_grid_suppressed(&g, kept, nk, &boxes[j], s->iou)) continue;
                kept[nk] = boxes[j];
                ok = osc_nms_grid_add(&g, &boxes[j], nk++) &&
                     rows_push(k->alloc, out, b, c, cand[j].index);
            }
            osc_nms_grid_free(&g);
        }
    if (cand) osc_free(k->alloc, cand, n * sizeof *cand);
    if (boxes) osc_free(k->alloc, boxes, n * sizeof *boxes);
    if (kept) osc_free(k->alloc, kept, (size_t)keep_max * sizeof *kept);
    if (ok) return OSC_OK;
    rows_free(k->alloc, out);
    return osc_kfail(k, OSC_ERR_NOMEM, "out of memory selecting among %lld boxes",
                     (long long)s->spatial);
}

/* The rows infer selected in session run `run` for the inputs' data at `data`, kept for run
 * (osc_kslot), as Unique keeps its groups: the selection runs once per run, not twice. */
typedef struct nms_stash {
    nms_rows rows;
    uint64_t run;
    const void *data[5];
    osc_allocator *a;
} nms_stash;

static void drop_stash(void *p) {
    nms_stash *st = p;
    rows_free(st->a, &st->rows);
    osc_free(st->a, st, sizeof *st);
}

static void inputs_data(const osc_tensor *const *in, int32_t n_in, const void **data) {
    for (int32_t i = 0; i < 5; i++) {
        const osc_tensor *t = osc_sh_in(in, n_in, i);
        data[i] = t ? t->data : NULL;
    }
}

/* Hands r to the slot (the session's run k->run); without a slot or room, frees it. */
static void keep_rows(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, nms_rows *r) {
    nms_stash *st = osc_kslot_state(k, sizeof *st, drop_stash);
    if (!st) {
        rows_free(k->alloc, r);
        return;
    }
    st->a = k->alloc;
    rows_free(st->a, &st->rows);
    st->rows = *r;
    st->run = k->run;
    inputs_data(in, n_in, st->data);
}

/* The rows infer kept for this run and these inputs, moved out of the slot; else selected
 * now. */
static osc_status take_rows(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            const nms_in *s, nms_rows *r) {
    nms_stash *st = k->slot && k->run ? k->slot->p : NULL;
    const void *data[5];
    inputs_data(in, n_in, data);
    memset(r, 0, sizeof *r);
    if (!st || st->run != k->run || memcmp(st->data, data, sizeof data) != 0)
        return select_boxes(k, s, r);
    *r = st->rows;
    memset(&st->rows, 0, sizeof st->rows);
    st->run = 0;
    return OSC_OK;
}

/* [num_selected, 3] int64. */
static void out_shape(osc_tensor *o, int64_t n) {
    memset(o, 0, sizeof *o);
    o->dtype = OSC_INT64;
    o->rank = 2;
    o->dims[0] = n;
    o->dims[1] = 3;
}

/* The output's size depends on the values, so infer reads them (infer_reads) and selects. */
osc_status osc_nms_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    nms_in s;
    nms_rows r = {0};
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "no output 0; allowed: exactly 1 output");
    osc_status st = check_inputs(k, in, n_in, &s);
    if (!st) st = select_boxes(k, &s, &r);
    if (st) return st;
    out_shape(&out[0], r.n);
    keep_rows(k, in, n_in, &r);
    return OSC_OK;
}

osc_status osc_nms_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    nms_in s;
    nms_rows r;
    osc_tensor want;
    osc_status st = osc_sh_check_inputs(k, in, n_in);
    if (!st) st = check_inputs(k, in, n_in, &s);
    if (!st) st = take_rows(k, in, n_in, &s, &r);
    if (st) return st;
    out_shape(&want, r.n);
    st = osc_det_check_out(k, out, n_out, &want);
    if (!st && r.n) memcpy(out[0].data, r.v, (size_t)r.n * 3 * sizeof *r.v);
    rows_free(k->alloc, &r);
    return st;
}
