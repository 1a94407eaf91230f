/* loss.h: the operations of loss.c, the values of its rows' .variant (ops/loss/rows.def). They
 * start at 1, so a row that sets no variant (0) names none and init refuses it. */
#ifndef OSC_LOSS_H
#define OSC_LOSS_H

enum { OSC_LOSS_NLL = 1, OSC_LOSS_SCE, OSC_LOSS_END };

#endif
