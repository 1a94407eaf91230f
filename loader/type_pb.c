/* type_pb.c: TypeProto of graph inputs, outputs and value_info -> osc_type. */
#include <string.h>

#include "core/dtype.h"
#include "pb.h"

/* The dtype of a sequence's or optional's items: a tensor's elem_type, OSC_SEQUENCE or
 * OSC_OPTIONAL; 0 when not said (or a kind this runtime does not carry: the ops refuse it). */
static int32_t elem_of(const Onnx__TypeProto *tp) {
    if (!tp) return 0;
    switch (tp->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
        return tp->tensor_type && tp->tensor_type->has_elem_type &&
                       osc_dtype_valid(tp->tensor_type->elem_type)
                   ? tp->tensor_type->elem_type
                   : 0;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE: return OSC_SEQUENCE;
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: return OSC_OPTIONAL;
    default: return 0;
    }
}

osc_status osc_type_from_pb(const Onnx__TypeProto *tp, const char *role, const char *name,
                            int32_t max_rank, osc_pool *pool, osc_type *out, osc_err *err) {
    memset(out, 0, sizeof *out);
    out->rank = -1;
    if (!tp) return OSC_OK;
    const char *kind = NULL;
    switch (tp->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE: break;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
        out->dtype = OSC_SEQUENCE;
        out->elem = elem_of(tp->sequence_type ? tp->sequence_type->elem_type : NULL);
        return OSC_OK;
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
        out->dtype = OSC_OPTIONAL;
        out->elem = elem_of(tp->optional_type ? tp->optional_type->elem_type : NULL);
        return OSC_OK;
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: kind = "a map"; break;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE: kind = "a sparse tensor"; break;
    default:
        /* Newer kinds (opaque, ...) arrive as unknown fields of this onnx.proto's TypeProto. */
        if (!tp->base.n_unknown_fields) return OSC_OK; /* no type: unknown tensor */
        kind = "an unknown";
        break;
    }
    if (kind) {
        /* Accepted and recorded: the runtime names an unsupported op first (the usual cause),
         * then refuses the non-tensor value itself. dtype stays 0 and rank -1. */
        out->non_tensor = kind;
        return OSC_OK;
    }
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    if (!tt) return OSC_OK;
    int32_t dtype = tt->has_elem_type ? tt->elem_type : 0;
    if (dtype != 0 && !osc_dtype_valid(dtype))
        return osc_fail(err, OSC_ERR_MODEL, "%s '%s' has unknown elem_type %d (allowed 1..%d)",
                        role, name, (int)dtype, OSC_DTYPE_COUNT - 1);
    out->dtype = dtype;
    const Onnx__TensorShapeProto *sh = tt->shape;
    if (!sh) return OSC_OK;
    if (sh->n_dim > (size_t)max_rank)
        return osc_fail(err, OSC_ERR_LIMIT, "%s '%s' has rank %zu; the limit is %d (opts.max_rank)",
                        role, name, sh->n_dim, (int)max_rank);
    out->rank = (int32_t)sh->n_dim;
    for (size_t i = 0; i < sh->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *dm = sh->dim[i];
        out->dims[i] = -1;
        if (dm->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
            if (dm->dim_value < 0)
                return osc_fail(err, OSC_ERR_MODEL,
                                "%s '%s' dim %zu is %lld; dims must be >= 0 (or symbolic)",
                                role, name, i, (long long)dm->dim_value);
            out->dims[i] = dm->dim_value;
        } else if (dm->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                   dm->dim_param && dm->dim_param[0]) {
            out->dim_names[i] = osc_pool_strdup(pool, dm->dim_param);
            if (!out->dim_names[i])
                return osc_pool_nomem(err, pool, strlen(dm->dim_param) + 1, name);
        }
    }
    return OSC_OK;
}
