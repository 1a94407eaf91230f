/* einsum_parse.c: Einsum's equation: parsing (init) and the per-shape plan (labels' sizes,
 * strides and the output's labels). */
#include <stdio.h>
#include <string.h>

#include "einsum.h"

static int32_t letter_code(char c) {
    if (c >= 'a' && c <= 'z') return c - 'a';
    if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
    return -1;
}

/* One term of s[from, to) (spaces already removed); `what` names it in messages. */
static osc_status parse_term(osc_kctx *k, const es_eq *eq, const char *s, int32_t from,
                             int32_t to, const char *what, es_term *t) {
    t->n = 0;
    t->ell = -1;
    for (int32_t i = from; i < to; i++) {
        int32_t c = letter_code(s[i]);
        if (t->n == OSC_MAX_RANK + 1)
            return osc_kfail(k, OSC_ERR_LIMIT, "equation '%s': %s has more than %d labels",
                             eq->text, what, OSC_MAX_RANK);
        if (c >= 0) {
            t->lab[t->n++] = (int8_t)c;
            continue;
        }
        if (s[i] == '.' && t->ell < 0 && i + 2 < to && s[i + 1] == '.' && s[i + 2] == '.') {
            t->ell = t->n;
            t->lab[t->n++] = ES_ELL;
            i += 2;
            continue;
        }
        return osc_kfail(k, OSC_ERR_MODEL, "equation '%s': %s: character '%c' at position %d "
                         "is not a letter or the one '...' a term may have", eq->text, what,
                         s[i], (int)i);
    }
    return OSC_OK;
}

osc_status osc_es_parse(osc_kctx *k, const char *src, es_eq *eq) {
    char s[256];
    int32_t n = 0;
    memset(eq, 0, sizeof *eq);
    size_t len = strlen(src);
    if (len < sizeof eq->text) memcpy(eq->text, src, len + 1);
    else snprintf(eq->text, sizeof eq->text, "%.*s...", (int)sizeof eq->text - 4, src);
    for (size_t i = 0; i < len; i++) {
        if (src[i] == ' ') continue;
        if (n + 1 >= (int32_t)sizeof s)
            return osc_kfail(k, OSC_ERR_LIMIT, "equation '%s' is longer than %d characters",
                             eq->text, (int)sizeof s - 1);
        s[n++] = src[i];
    }
    s[n] = 0;
    const char *arrow = strstr(s, "->");
    const int32_t lhs_end = arrow ? (int32_t)(arrow - s) : n;
    int32_t ops = 1;
    for (int32_t i = 0; i < lhs_end; i++) ops += s[i] == ',';
    if (ops > ES_MAX_OPS)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "equation '%s' has %d operands; this runtime "
                         "supports one or two (contract them pairwise in the model)", eq->text,
                         (int)ops);
    eq->n_ops = ops;
    osc_status st = OSC_OK;
    for (int32_t t = 0, from = 0; t < ops && !st; t++) {
        int32_t to = from;
        while (to < lhs_end && s[to] != ',') to++;
        st = parse_term(k, eq, s, from, to, t ? "operand 1's term" : "operand 0's term",
                        &eq->in[t]);
        from = to + 1;
    }
    if (st) return st;
    int32_t count[ES_LETTERS] = {0};
    bool any_ell = false;
    for (int32_t t = 0; t < ops; t++) {
        any_ell = any_ell || eq->in[t].ell >= 0;
        for (int32_t i = 0; i < eq->in[t].n; i++)
            if (eq->in[t].lab[i] != ES_ELL) count[eq->in[t].lab[i]]++;
    }
    eq->explicit_out = arrow != NULL;
    es_term *o = &eq->out;
    if (arrow) {
        if (strstr(arrow + 2, "->"))
            return osc_kfail(k, OSC_ERR_MODEL, "equation '%s' has more than one '->'", eq->text);
        if ((st = parse_term(k, eq, s, lhs_end + 2, n, "the output term", o))) return st;
        bool seen[ES_LETTERS] = {false};
        for (int32_t i = 0; i < o->n; i++) {
            int32_t c = o->lab[i];
            if (c == ES_ELL) continue;
            if (!count[c] || seen[c])
                return osc_kfail(k, OSC_ERR_MODEL, "equation '%s': output label '%c' %s",
                                 eq->text, c < 26 ? 'a' + c : 'A' + c - 26,
                                 seen[c] ? "appears twice" : "appears in no operand");
            seen[c] = true;
        }
    } else { /* the ellipsis dims, then the letters seen once, in ASCII order (A-Z, a-z) */
        o->n = 0;
        o->ell = -1;
        if (any_ell) {
            o->ell = 0;
            o->lab[o->n++] = ES_ELL;
        }
        for (int32_t c = 26; c < ES_LETTERS; c++)
            if (count[c] == 1) o->lab[o->n++] = (int8_t)c;
        for (int32_t c = 0; c < 26; c++)
            if (count[c] == 1) o->lab[o->n++] = (int8_t)c;
    }
    return OSC_OK;
}

static char label_char(int32_t c) { return (char)(c < 26 ? 'a' + c : 'A' + c - 26); }

osc_status osc_es_plan(osc_kctx *k, const es_eq *eq, const osc_tensor *const *in, int32_t n_in,
                       es_plan *p, osc_tensor *o) {
    char buf[256];
    int32_t e_rank[ES_MAX_OPS], e_max = 0;
    if (n_in != eq->n_ops)
        return osc_kfail(k, OSC_ERR_MODEL, "equation '%s' has %d operand(s) but the node has %d "
                         "inputs", eq->text, (int)eq->n_ops, (int)n_in);
    memset(p, 0, sizeof *p);
    for (int32_t i = 0; i < n_in; i++) {
        int64_t count;
        osc_status st = osc_sh_need(k, in, n_in, i, "Inputs");
        if (!st) st = osc_sh_check_type(k, i, "Inputs", in[i], osc_kernel_types(k->row, 0));
        if (!st && i > 0) st = osc_check_same_dtype(k, 0, "Inputs", in[0], i, "Inputs", in[i]);
        if (!st) st = osc_check_count(k, i, "Inputs", in[i], &count);
        if (st) return st;
        const es_term *t = &eq->in[i];
        const int32_t letters = t->n - (t->ell >= 0);
        e_rank[i] = in[i]->rank - letters;
        if (e_rank[i] < 0 || (t->ell < 0 && e_rank[i] != 0))
            return osc_kfail(k, OSC_ERR_SHAPE, "equation '%s': input %d (%s) has shape %s (rank "
                             "%d) but its term has %d labels%s", eq->text, (int)i,
                             osc_kinput_name(k, i), osc_shape_str(in[i], buf, sizeof buf),
                             (int)in[i]->rank, (int)letters, t->ell >= 0 ? " and '...'" : "");
        if (e_rank[i] > e_max) e_max = e_rank[i];
    }
    if (eq->explicit_out && eq->out.ell < 0 && e_max > 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "equation '%s': '...' stands for %d dims of the "
                         "inputs but the output term has no '...'", eq->text, (int)e_max);
    p->n_labels = ES_LETTERS + e_max;
    for (int32_t c = 0; c < p->n_labels; c++) p->size[c] = -1;
    /* sizes: letters must agree exactly; ellipsis dims broadcast (1 stretches) */
    for (int32_t i = 0; i < n_in; i++) {
        const es_term *t = &eq->in[i];
        int32_t axis = 0;
        for (int32_t j = 0; j < t->n; j++) {
            const int32_t span = t->lab[j] == ES_ELL ? e_rank[i] : 1;
            for (int32_t q = 0; q < span; q++, axis++) {
                const int32_t c = t->lab[j] == ES_ELL ? ES_LETTERS + e_max - e_rank[i] + q
                                                      : t->lab[j];
                const int64_t d = in[i]->dims[axis];
                const bool ell = c >= ES_LETTERS;
                if (p->size[c] < 0 || (ell && p->size[c] == 1)) {
                    p->size[c] = d;
                } else if (d != p->size[c] && !(ell && d == 1)) {
                    if (ell)
                        return osc_kfail(k, OSC_ERR_SHAPE, "equation '%s': input %d (%s) has "
                                         "size %lld in dim %d, one of the '...' dims, where "
                                         "another operand has %lld; they must be equal or one "
                                         "of them 1", eq->text, (int)i, osc_kinput_name(k, i),
                                         (long long)d, (int)axis, (long long)p->size[c]);
                    return osc_kfail(k, OSC_ERR_SHAPE, "equation '%s': label '%c' is size %lld "
                                     "in dim %d of input %d (%s) but %lld elsewhere; a label's "
                                     "dims must agree", eq->text, label_char(c), (long long)d,
                                     (int)axis, (int)i, osc_kinput_name(k, i),
                                     (long long)p->size[c]);
                }
                if (!(p->where[c] & (1u << i)))
                    p->first[i][p->n_first[i]++] = c;
                p->where[c] |= (uint8_t)(1u << i);
            }
        }
    }
    /* strides: summed over repeated labels (diagonals); 0 for a broadcast dim. An empty
     * operand's strides may not fit: they are then never used (no element is read). */
    for (int32_t i = 0; i < n_in; i++) {
        int64_t s = 1;
        int32_t axis = in[i]->rank;
        const es_term *t = &eq->in[i];
        for (int32_t j = t->n - 1; j >= 0; j--) {
            const int32_t span = t->lab[j] == ES_ELL ? e_rank[i] : 1;
            for (int32_t q = span - 1; q >= 0; q--) {
                const int32_t c = t->lab[j] == ES_ELL ? ES_LETTERS + e_max - e_rank[i] + q
                                                      : t->lab[j];
                const int64_t d = in[i]->dims[--axis];
                if (!(d == 1 && p->size[c] != 1) &&
                    !osc_add_ok(p->stride[i][c], s, &p->stride[i][c]))
                    p->stride[i][c] = 0;
                if (!osc_mul_ok(s, d, &s)) s = 0;
            }
        }
    }
    /* the output */
    if (eq->out.n - (eq->out.ell >= 0) + (eq->out.ell >= 0 ? e_max : 0) > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_LIMIT, "equation '%s': the output would have more than %d "
                         "dims", eq->text, OSC_MAX_RANK);
    memset(o, 0, sizeof *o);
    o->dtype = in[0]->dtype;
    for (int32_t j = 0; j < eq->out.n; j++) {
        const int32_t span = eq->out.lab[j] == ES_ELL ? e_max : 1;
        for (int32_t q = 0; q < span; q++) {
            const int32_t c = eq->out.lab[j] == ES_ELL ? ES_LETTERS + q : eq->out.lab[j];
            p->out[p->n_out++] = c;
            p->where[c] |= ES_IN_OUT;
            o->dims[o->rank++] = p->size[c];
        }
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "equation '%s': the output %s would have more than "
                         "2^63-1 elements", eq->text, osc_shape_str(o, buf, sizeof buf));
    return OSC_OK;
}
