/* Recorded by the record-context tests (gcc -g): a write to a global in a known function, one to
 * that function's frame and one to a malloc()ed block. The "line:" markers are how the tests find
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
    return 0;
}
