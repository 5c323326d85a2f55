/* Compiled by the context tests (gcc -g): a global written in a known function at a known line,
 * a static array, a constant string and an initialised thread-local variable. The "line:" markers
 * are how the tests find the lines; keep them on the statements they name. */
#include <stdio.h>

int counter;
static char table[16];
const char greeting[] = "hello";
__thread int perThread = 7;

void bump(int amount)
{
    counter += amount; /* line: counter */
    table[amount & 15] = (char)amount; /* line: table */
}

int main(int argc, char **argv)
{
    (void)argv;
    bump(argc);
    perThread += argc;
    printf("%d %d %s %d\n", counter, perThread, greeting, table[1]);
    return 0;
}
