#include "domino.h"
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int c,char**v){domino_handle h; domino_create(&h); domino_matrix A; int32_t n=atoi(v[1]); int lv=atoi(v[2]); int pes=atoi(v[3]);
domino_gen_dag(h,n,8,lv,0,1,DOMINO_FLOAT64,&A);
domino_dist_options o; domino_dist_options_init(&o); if(atoi(v[4])>=0){o.scheme=atoi(v[4]); o.level_order=0; o.level_tasks=0;}
for(int r=0;r<3;r++){domino_dist_plan *P=NULL; double t=now(); int s=domino_dist_plan_make(h,A,DOMINO_LOWER,pes,&o,&P); printf("plan %d %.3f s scheme %d\n",s,now()-t,P?P->scheme:-1); domino_dist_plan_free(P);} return 0;}
