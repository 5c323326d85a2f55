/* Compiled by the context tests into a shared library (gcc -g -shared -fPIC): an exported function
 * writing an exported global, so a stripped copy still names both through .dynsym. */
int shared_total;
static int shared_calls;

int shared_add(int amount)
{
    shared_calls += 1;
    shared_total += amount; /* line: shared_total */
    return shared_total + shared_calls;
}
