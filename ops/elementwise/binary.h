/* binary.h: the operations of the binary elementwise kernel (binary.c), one per op: a row's
 * .variant, which the kernel computes and the rewrite reads (a gather-scatter's steps). */
#ifndef OSC_BINARY_H
#define OSC_BINARY_H

enum {
    OSC_BIN_ADD = 1, /* 0: a row that names none, refused at init */
    OSC_BIN_SUB,
    OSC_BIN_MUL,
    OSC_BIN_DIV,
    OSC_BIN_MOD,
    OSC_BIN_EQUAL,
    OSC_BIN_LESS,
    OSC_BIN_LESS_EQUAL,
    OSC_BIN_GREATER,
    OSC_BIN_GREATER_EQUAL,
    OSC_BIN_AND,
    OSC_BIN_OR,
    OSC_BIN_XOR,
    OSC_BIN_BITSHIFT, /* LEFT or RIGHT by the attribute 'direction' */
    OSC_BIN_BITAND,
    OSC_BIN_BITOR,
    OSC_BIN_BITXOR,
    OSC_BIN_END
};

#endif
