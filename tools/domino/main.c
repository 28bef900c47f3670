/* main.c: the domino command (placeholder until the subcommands land) */
#include "domino.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("usage: domino <info|gen|solve|bench> ...\n");
        return 0;
    }
    return 0;
}
