/* SPDX-License-Identifier: MIT */
/* Calls with known accesses, for the accesses-by-function tests (tst_functionaccesses): fill()
 * writes values[] and calls mark() for every even index, which adds to `marks`; total() reads
 * values[]; countdown() calls itself. main calls fill twice, then total and countdown. Built with
 * -O0, so that every statement's loads and stores are its own. It prints the address of each
 * global the test asks about as "name=0x...". */
#include <stdio.h>

int values[8];
int marks;
int depth;

void mark(int index)
{
    marks += index;
}

void fill(int start, int count)
{
    for (int i = 0; i < count; ++i) {
        values[i] = start + i;
        if ((i & 1) == 0)
            mark(i);
    }
}

int total(void)
{
    int sum = 0;
    for (int i = 0; i < 8; ++i)
        sum += values[i];
    return sum;
}

void countdown(int n)
{
    depth += 1;
    if (n > 0)
        countdown(n - 1);
}

int main(void)
{
    fill(1, 8);
    fill(100, 4);
    const int sum = total();
    countdown(3);
    printf("values=%p\nmarks=%p\ndepth=%p\nsum=%d\n", (void *)values, (void *)&marks, (void *)&depth, sum);
    return 0;
}
