/* main.c: placeholder for the onnx-scatter command line. */
#include "onnx_scatter.h"
int main(void) { return 2; }
