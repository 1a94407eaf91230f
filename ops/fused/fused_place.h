/* fused_place.h: a part's source rows and per-edge operand values copied in list order into the
 * end of its own output rows (fused_place.c), for the row loop of a grouped fused scatter
 * (fused_rows.c), which then reads them in sequence instead of through the list. */
#ifndef OSC_FUSED_PLACE_H
#define OSC_FUSED_PLACE_H

#include "fused_types.h"

#define OSC_FS_PLACE_VALS 8 /* operand values per edge placed at most */
#define OSC_FS_ACC 512 /* the row loop combines rows of up to this many elements in a buffer, and
                        * places records for those only */

/* List position q's record: `rec` bytes at sr + (q - q0) * rec, the placed step's values first
 * (elements of the output's dtype), the source row at src_at (a uint32_t). */
typedef struct osc_fs_placed {
    const char *sr; /* NULL: nothing placed */
    int64_t q0;
    size_t rec, src_at;
    int32_t step; /* the step whose per-edge operand is placed (-1: none) */
} osc_fs_placed;

/* The records of the part owning output rows [lo, hi) of rb bytes of j's grouped split, when
 * they fit: the row loop writes row d only after reading every list position below
 * row_at[d + 1], so the end of the part's rows is free until the loop gets there whenever each
 * row's end lies at or below the first record still unread. With one step's values when it is
 * the only step read per edge, a few values in a run; else the source rows alone; else nothing
 * (sr NULL): in place, no gather, sources past uint32_t, rows longer than
 * OSC_FS_ACC, or no room. A PAIR step's values are computed there, row by row. */
osc_fs_placed osc_fs_place(const osc_fs_job *j, int64_t lo, int64_t hi, size_t rb);
/* Whether the row loop places step `step`'s values in every part with edges of j's split
 * (`parts` parts): a PAIR step needs its values made first otherwise (fused_scatter.c,
 * pair_values). */
bool osc_fs_places(const osc_fs_job *j, int32_t parts, int32_t step);

#endif
