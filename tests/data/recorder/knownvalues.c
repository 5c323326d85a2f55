/* SPDX-License-Identifier: MIT */
/* A program of known memory effects for tst_toolrecorder: it stores known constants of 1, 2, 4, 8,
 * 16 and 32 bytes to globals, the stack and the heap and reads them back; copies 5 bytes with
 * `rep movsb`; runs `xchg`, `lock xadd`, a `lock cmpxchg` that succeeds and one that fails; writes
 * from a second thread; read()s a file into a buffer; and, given "crash", stores a last constant
 * and then writes to address 16. It prints the address of each object as "name=0x..." so that the
 * test can find them. Each line that makes an access the test checks ends with a marker comment
 * the test finds by its name ("mark:NAME"). */
#include <fcntl.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint8_t g1;
uint16_t g2;
uint32_t g4;
uint64_t g8;
__attribute__((aligned(32))) uint8_t g16[16];
__attribute__((aligned(32))) uint8_t g32[32];
uint32_t xchgWord = 0x11111111u;
uint32_t xaddWord = 10;
uint32_t casOkWord = 15;
uint32_t casFailWord = 20;
uint64_t threadWord;
uint8_t copySource[5] = { 'm', 'e', 'm', 'h', 'i' };
uint8_t copyTarget[5];
uint64_t crashWord;
volatile uint64_t sink;

__attribute__((noinline)) void storeGlobals(void)
{
    g1 = 0x11; /* mark:g1 */
    g2 = 0x2222; /* mark:g2 */
    g4 = 0x44444444u; /* mark:g4 */
    g8 = 0x8888888888888888ull; /* mark:g8 */
    const __m128i sixteen = _mm_set1_epi8(0x16);
    __asm__ volatile("movdqu %1, %0" : "=m"(*(__m128i *)g16) : "x"(sixteen)); /* mark:g16 */
}

__attribute__((noinline, target("avx"))) void storeWide(uint8_t *target)
{
    const __m256i thirtyTwo = _mm256_set1_epi8(0x32);
    __asm__ volatile("vmovdqu %1, %0" : "=m"(*(__m256i *)target) : "x"(thirtyTwo)); /* mark:g32 */
}

__attribute__((noinline)) void readGlobals(void)
{
    sink = g1 + g2 + g4 + g8 + g16[0] + g32[0];
}

__attribute__((noinline)) void copyBytes(void)
{
    void *target = copyTarget;
    const void *source = copySource;
    size_t count = sizeof copySource;
    __asm__ volatile("rep movsb" : "+D"(target), "+S"(source), "+c"(count) : : "memory"); /* mark:movsb */
}

__attribute__((noinline)) void atomics(void)
{
    uint32_t swapped = 0x22222222u;
    __asm__ volatile("xchg %0, %1" : "+r"(swapped), "+m"(xchgWord)); /* mark:xchg */
    uint32_t added = 5;
    __asm__ volatile("lock xadd %0, %1" : "+r"(added), "+m"(xaddWord)); /* mark:xadd */
    __sync_val_compare_and_swap(&casOkWord, 15, 25); /* mark:casok */
    __sync_val_compare_and_swap(&casFailWord, 99, 30); /* mark:casfail */
}

void *secondThread(void *argument)
{
    (void)argument;
    threadWord = 0x7777777777777777ull; /* mark:thread */
    return NULL;
}

__attribute__((noinline)) void stackAndHeap(void)
{
    volatile uint64_t local;
    local = 0x5555555555555555ull; /* mark:stack */
    sink = local;
    uint64_t *heap = malloc(64);
    *(volatile uint64_t *)heap = 0x6666666666666666ull; /* mark:heap */
    sink = *(volatile uint64_t *)heap;
    printf("stack=%p\nheap=%p\n", (void *)&local, (void *)heap);
    free(heap);
}

__attribute__((noinline)) void readFile(const char *path)
{
    char buffer[16];
    const int fd = open(path, O_RDONLY);
    const ssize_t n = read(fd, buffer, sizeof buffer); /* mark:read */
    close(fd);
    sink = (uint64_t)n + (uint8_t)buffer[0];
    printf("buffer=%p\n", (void *)buffer);
}

int main(int argc, char **argv)
{
    storeGlobals();
    if (__builtin_cpu_supports("avx"))
        storeWide(g32);
    readGlobals();
    copyBytes();
    atomics();
    pthread_t thread;
    pthread_create(&thread, NULL, secondThread, NULL);
    pthread_join(thread, NULL);
    stackAndHeap();
    if (argc > 1)
        readFile(argv[1]);
    printf("g1=%p\ng2=%p\ng4=%p\ng8=%p\ng16=%p\ng32=%p\navx=%d\n", (void *)&g1, (void *)&g2, (void *)&g4,
        (void *)&g8, (void *)g16, (void *)g32, __builtin_cpu_supports("avx") ? 1 : 0);
    printf("xchg=%p\nxadd=%p\ncasok=%p\ncasfail=%p\nthread=%p\nmovsbsource=%p\nmovsbtarget=%p\n", (void *)&xchgWord,
        (void *)&xaddWord, (void *)&casOkWord, (void *)&casFailWord, (void *)&threadWord, (void *)copySource,
        (void *)copyTarget);
    printf("crash=%p\n", (void *)&crashWord);
    fflush(stdout);
    if (argc > 2 && strcmp(argv[2], "crash") == 0) {
        crashWord = 0x4242424242424242ull; /* mark:crash */
        *(volatile int *)16 = 1;
    }
    return 0;
}
