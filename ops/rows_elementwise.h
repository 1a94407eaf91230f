/* rows_elementwise.h: dispatch rows of the elementwise ops (included inside ops/registry.c's
 * table). Every version in effect from opset 7 on; a version older than 7 is listed when it is
 * still the current one at opset 7 (Neg-6, Abs-6, Min-6, Max-6, Not-1, Cast-6, Identity-1).
 * Rows of one op share a check/infer/run triple; check and infer consult k->since_version. */
#define EW_BIN(op, ver) FULL_ROW(op, ver, 2, 2, 1, false, 0, osc_bin)
#define EW_UN(op, ver) FULL_ROW(op, ver, 1, 1, 1, true, 0, osc_unary)
#define EW_MM(op, ver) FULL_ROW(op, ver, 1, INT32_MAX, 1, false, 0, osc_minmax)
    EW_BIN("Add", 7), EW_BIN("Add", 13), EW_BIN("Add", 14),
    EW_BIN("Sub", 7), EW_BIN("Sub", 13), EW_BIN("Sub", 14),
    EW_BIN("Mul", 7), EW_BIN("Mul", 13), EW_BIN("Mul", 14),
    EW_BIN("Div", 7), EW_BIN("Div", 13), EW_BIN("Div", 14),
    EW_BIN("Mod", 10), EW_BIN("Mod", 13),
    EW_BIN("Equal", 7), EW_BIN("Equal", 11), EW_BIN("Equal", 13), EW_BIN("Equal", 19),
    EW_BIN("Less", 7), EW_BIN("Less", 9), EW_BIN("Less", 13),
    EW_BIN("Greater", 7), EW_BIN("Greater", 9), EW_BIN("Greater", 13),
    EW_BIN("LessOrEqual", 12), EW_BIN("LessOrEqual", 16),
    EW_BIN("GreaterOrEqual", 12), EW_BIN("GreaterOrEqual", 16),
    EW_BIN("And", 7), EW_BIN("Or", 7),
    EW_UN("Neg", 6), EW_UN("Neg", 13), EW_UN("Abs", 6), EW_UN("Abs", 13), EW_UN("Not", 1),
    EW_MM("Min", 6), EW_MM("Min", 8), EW_MM("Min", 12), EW_MM("Min", 13),
    EW_MM("Max", 6), EW_MM("Max", 8), EW_MM("Max", 12), EW_MM("Max", 13),
    FULL_ROW("Where", 9, 3, 3, 1, false, 0, osc_where),
    FULL_ROW("Where", 16, 3, 3, 1, false, 0, osc_where),
    FULL_ROW("Cast", 6, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 9, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 13, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 19, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 21, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 23, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 24, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Cast", 25, 1, 1, 1, false, 0, osc_cast),
    FULL_ROW("Identity", 1, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 13, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 14, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 16, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 19, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 21, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 23, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 24, 1, 1, 1, true, 0, osc_ident),
    FULL_ROW("Identity", 25, 1, 1, 1, true, 0, osc_ident),
#undef EW_BIN
#undef EW_UN
#undef EW_MM
