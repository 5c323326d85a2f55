/* Recorded by the record-context tests (gcc -g): a write to a global in a known function, one to
 * that function's frame, one to a small malloc()ed block (the brk heap) and one to a large one
 * (malloc mmap()s it: anonymous memory). The "line:" markers are how the tests find
 * the lines; keep them on the statements they name. */
#include <stdlib.h>

int counter;

void bump(int amount)
{
    volatile int doubled = amount * 2; /* line: frame */
    counter += doubled; /* line: counter */
}

int main(int argc, char **argv)
{
    (void)argv;
    int *block = malloc(64);
    block[3] = argc; /* line: heap */
    bump(block[3]);
    free(block);
    char *large = malloc(1 << 20);
    large[5] = 1; /* line: mapped */
    free(large);
    return 0;
}
