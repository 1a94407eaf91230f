/* rules.c: the table of rewrite rules (rules.def), in the order the pass offers them. */
#include "rewrite.h"
#include "osc_ops_config.h" /* OSC_OP_<Name>: a rule whose ops are left out is not in the table */

#define OSC_RULE(name, anchor, flags, priority)                                                 \
    bool osc_rw_##name##_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *cap);    \
    bool osc_rw_##name##_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,              \
                                 const void *cap, osc_fusion *f);
#include "rules.def"
#undef OSC_RULE

#define OSC_RULE(name_, anchor_, flags_, priority_)                                             \
    {.name = #name_, .anchor = anchor_, .anchor_traits = flags_, .priority = priority_,         \
     .match = osc_rw_##name_##_match, .rewrite = osc_rw_##name_##_rewrite},
static const osc_rw_rule k_rules[] = {
#include "rules.def"
    {.name = NULL}};
#undef OSC_RULE

const osc_rw_rule *osc_rw_rule_at(size_t i) {
    return i + 1 < sizeof k_rules / sizeof k_rules[0] ? &k_rules[i] : NULL;
}
