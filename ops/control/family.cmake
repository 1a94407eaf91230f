# family.cmake: the sources of ops/control/, control flow (If, Loop, Scan, SequenceMap); paths
# from this folder.
set(OSC_FAMILY_SOURCES
  cf_common.c if.c loop.c scan.c seq_map.c)
