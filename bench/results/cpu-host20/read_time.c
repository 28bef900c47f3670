#include "domino.h"
#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int c,char**v){domino_handle h; domino_create(&h); domino_matrix A; double t=now(); int s=domino_mm_read(h,v[1],DOMINO_FLOAT64,0,&A); printf("read %d %.3f s\n",s,now()-t); return 0;}
