/* Recorded by the record-context tests (gcc -g, linked with -ldl): opens libshared.so (shared.c)
 * halfway through the run, after some work of its own, and calls into it. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    puts("loading");
    void *library = dlopen("./libshared.so", RTLD_NOW);
    if (!library)
        return 1;
    int (*add)(int) = (int (*)(int))dlsym(library, "shared_add");
    const int total = add(argc);
    dlclose(library);
    return total == argc + 1 ? 0 : 2;
}
