/* attr_pb.c: AttributeProto -> osc_attr (values copied into the model's pool). */
#include <stdio.h>
#include <string.h>

#include "core/graph.h"
#include "pb.h"

osc_status osc_attr_from_pb(const Onnx__AttributeProto *ap, const char *node, osc_tdec *d,
                            const osc_limits *lim, osc_attr *out) {
    osc_pool *pool = d->pool;
    memset(out, 0, sizeof *out);
    const char *name = ap->name ? ap->name : "";
    if (!name[0])
        return osc_fail(d->err, OSC_ERR_MODEL, "%s has an attribute without a name", node);
    if (ap->ref_attr_name && ap->ref_attr_name[0])
        return osc_fail(d->err, OSC_ERR_MODEL,
                        "%s attribute '%s' refers to function attribute '%s', which is only "
                        "valid inside a function", node, name, ap->ref_attr_name);
    out->name = osc_pool_strdup(pool, name);
    if (!out->name) return osc_pool_nomem(d->err, pool, strlen(name) + 1, node);
    out->type = ap->has_type ? (int32_t)ap->type : OSC_ATTR_UNDEFINED;
    if (ap->n_strings > OSC_MAX_STRING_ENTRIES)
        return osc_fail(d->err, OSC_ERR_LIMIT, "%s attribute '%s': strings entries: %zu; the "
                        "limit is %d (OSC_MAX_STRING_ENTRIES)", node, name, ap->n_strings,
                        OSC_MAX_STRING_ENTRIES);
    size_t need = 0;
    switch (out->type) {
    case OSC_ATTR_INT: out->i = ap->i; break;
    case OSC_ATTR_FLOAT: out->f = ap->f; break;
    case OSC_ATTR_STRING:
        if (lim && ap->s.len > lim->max_string)
            return osc_fail(d->err, OSC_ERR_LIMIT, "%s attribute '%s' is a string of %zu bytes; "
                            "the limit is %llu (opts.max_string_mib)", node, name, ap->s.len,
                            (unsigned long long)lim->max_string);
        out->s_len = ap->s.len;
        out->s = osc_pool_strndup(pool, (const char *)ap->s.data, ap->s.len);
        need = ap->s.len + 1;
        if (!out->s) goto nomem;
        break;
    case OSC_ATTR_INTS:
        out->n = ap->n_ints;
        need = ap->n_ints * sizeof *out->ints;
        out->ints = osc_pool_alloc(pool, need);
        if (!out->ints) goto nomem;
        if (need) memcpy(out->ints, ap->ints, need);
        break;
    case OSC_ATTR_FLOATS:
        out->n = ap->n_floats;
        need = ap->n_floats * sizeof *out->floats;
        out->floats = osc_pool_alloc(pool, need);
        if (!out->floats) goto nomem;
        if (need) memcpy(out->floats, ap->floats, need);
        break;
    case OSC_ATTR_TENSOR: {
        if (!ap->t)
            return osc_fail(d->err, OSC_ERR_MODEL, "%s attribute '%s' has type TENSOR but no "
                            "tensor", node, name);
        char label[400];
        snprintf(label, sizeof label, "%s attribute '%.100s'", node, name);
        need = sizeof *out->t;
        out->t = osc_pool_alloc(pool, need);
        if (!out->t) goto nomem;
        const char *saved = d->label;
        d->label = label;
        osc_status st = osc_tensor_from_pb_lim(ap->t, d, lim, out->t);
        d->label = saved;
        if (st) return st;
        break;
    }
    case OSC_ATTR_TYPE_PROTO: { /* the type of a value (Optional's `type`) */
        need = sizeof *out->tp;
        osc_type *tp = osc_pool_alloc(pool, need);
        if (!tp) goto nomem;
        osc_status st = osc_type_from_pb(ap->tp, "attribute", name, lim ? lim->max_rank :
                                         OSC_MAX_RANK, pool, tp, d->err);
        if (st) return st;
        out->tp = tp;
        break;
    }
    default: break; /* graphs, sparse tensors, lists of strings/tensors: only the type is kept */
    }
    return OSC_OK;
nomem:
    return osc_pool_nomem(d->err, pool, need, node);
}
