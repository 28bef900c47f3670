/* ref_levels_free.c: free level sets made by domino_ref_levels */
#include "internal.h"

/* free levels and its arrays; NULL is accepted */
void domino_levels_free(domino_levels *levels)
{
    if (!levels) return;
    domino_free(levels->level_ptr);
    domino_free(levels->level_rows);
    domino_free(levels->row_level);
    domino_free(levels);
}
