// SPDX-License-Identifier: MIT
// The program of tst_diff: run as `diffpaths a` and `diffpaths b`. The input's letter is read
// without a branch, so the runs first part at the branch in choose() (mark:branch) and meet again
// where choose() goes on after calling left() or right() (mark:resync); `counter` is written 50
// times with input a, 51 with b; the two heap blocks are allocated in the opposite order, so each
// lies at the other's address, and only the second word of `first` differs (8 or 9).
#include <stdlib.h>

long counter;
long sink;

struct cell
{
    long a;
    long b;
};

__attribute__((noinline)) static void left(void)
{
    sink += 1; // mark:sinkleft
}

__attribute__((noinline)) static void right(void)
{
    sink -= 1; // mark:sinkright
}

__attribute__((noinline)) static void choose(int mode)
{
    if (mode) // mark:branch
        right(); // mark:right
    else
        left(); // mark:left
} // mark:resync

int main(int argc, char **argv)
{
    const int mode = argc > 1 ? argv[1][0] - 'a' : 0;
    choose(mode);
    const int n = 50 + mode;
    for (int i = 0; i < n; i++)
        counter = 100 + i; // mark:counter
    struct cell *first, *second;
    if (mode) {
        second = malloc(sizeof *second);
        first = malloc(sizeof *first);
    } else {
        first = malloc(sizeof *first);
        second = malloc(sizeof *second);
    }
    first->a = 7;
    first->b = 8 + mode; // mark:heap
    second->a = 5;
    return (int)(first->b + second->a + counter + sink) == 0;
}
