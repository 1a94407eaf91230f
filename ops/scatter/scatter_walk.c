/* scatter_walk.c: the block walk of ScatterElements/GatherElements (scatter_loops.h): an
 * index tensor cut into osc_elem_blocks in row-major order. */
#include "scatter_loops.h"

#include "core/kattr.h"

bool osc_elem_walk_init(osc_elem_walk *w, const osc_tensor *data, const osc_tensor *idx,
                        int32_t axis) {
    int64_t stride[OSC_MAX_RANK];
    if (!osc_row_strides(data, stride)) return false;
    w->block = (osc_elem_block){0};
    w->base = 0;
    /* dims kept: (index size, data stride, is the axis); at least the axis */
    int64_t size[OSC_MAX_RANK], st[OSC_MAX_RANK];
    bool is_axis[OSC_MAX_RANK];
    int32_t m = 0;
    for (int32_t d = 0; d < data->rank; d++) {
        const int64_t n = idx->dims[d];
        if (d != axis && n == 1) continue; /* its coordinate is always 0 */
        /* merged coordinate c = c_prev * n + c_d has offset c * stride[d] exactly when the
         * previous kept dim's stride is n * stride[d] */
        if (d != axis && m > 0 && !is_axis[m - 1] && st[m - 1] == n * stride[d]) {
            size[m - 1] *= n; /* a factor of idx's valid count */
            st[m - 1] = stride[d];
            continue;
        }
        size[m] = n;
        st[m] = stride[d];
        is_axis[m] = d == axis;
        m++;
    }
    osc_elem_block *b = &w->block;
    b->s = data->dims[axis];
    b->astride = stride[axis];
    b->n = size[m - 1];
    w->axis_last = is_axis[m - 1];
    b->jstride = w->axis_last ? 0 : st[m - 1];
    b->rows = 1;
    if (m >= 2) {
        b->rows = size[m - 2];
        b->row_step = is_axis[m - 2] ? 0 : st[m - 2];
    }
    w->blocks = 1;
    w->nd = m >= 2 ? m - 2 : 0;
    for (int32_t d = 0; d < w->nd; d++) {
        w->size[d] = size[d];
        w->step[d] = is_axis[d] ? 0 : st[d]; /* the index supplies the axis coordinate */
        w->c[d] = 0;
        w->blocks *= size[d];
    }
    return true;
}

int64_t osc_elem_walk_next(osc_elem_walk *w) {
    for (int32_t d = w->nd - 1; d >= 0; d--) {
        w->base += w->step[d];
        if (++w->c[d] < w->size[d]) break;
        w->base -= w->step[d] * w->size[d];
        w->c[d] = 0;
    }
    return w->base;
}

int64_t osc_elem_walk_seek(osc_elem_walk *w, int64_t blk) {
    w->base = 0;
    for (int32_t d = w->nd - 1; d >= 0; d--) {
        w->c[d] = blk % w->size[d];
        blk /= w->size[d];
        w->base += w->c[d] * w->step[d];
    }
    return w->base;
}
