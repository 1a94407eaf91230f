# family.cmake: the sources of ops/sequence/, sequences and optionals; paths from this folder.
set(OSC_FAMILY_SOURCES
  seq_common.c seq_ops.c seq_split.c optional.c)
