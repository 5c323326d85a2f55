/* SPDX-License-Identifier: MIT */
/* Values with known paths through memory and registers, for tst_origin. Each line the test expects
 * in an origin tree ends with a marker comment ("mark:NAME") that the test finds by its name.
 * Built with -O0: every statement's loads and stores are its own, on its own line (values pass
 * through the stack between statements, which the trees show).
 *  - chain: a constant stored to a global, loaded, XOR-ed, stored to the heap, copied by memcpy
 *    to another global and read;
 *  - fromFile: bytes read() from a file (the kernel writes them) and read;
 *  - neverWritten: a byte of .data no instruction writes, read;
 *  - across threads: a second thread stores a constant to a global, the first loads it after the
 *    join and stores it to another global, then reads that;
 *  - rep movsb copies five bytes, then one of them is read;
 *  - farRegister: a register set, then not written for 1.2 million instructions, then stored;
 *  - registerStaysInItsThread: r14 set, a spin until a second thread has written its own r14,
 *    then r14 stored: the store's r14 is the first thread's, whatever ran between.
 * It prints the address of each object the test asks about as "name=0x...". */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile uint32_t constantWord;
uint32_t *heapWord;
volatile uint32_t copiedWord;
volatile uint32_t chainSink;
char fileBuffer[16];
volatile char fileSink;
volatile uint8_t neverWritten[4] = { 7, 7, 7, 7 };
volatile uint8_t neverSink;
volatile uint64_t threadWord;
volatile uint64_t joinedWord;
volatile uint64_t joinedSink;
uint8_t movsSource[5] = { 'o', 'r', 'i', 'g', 'n' };
uint8_t movsTarget[5];
volatile uint8_t movsSink;
size_t (*volatile copySize)(void);
uint64_t farWord;
uint64_t r14Word;
uint64_t otherR14Word;
volatile int r14Set;
volatile int r14Done;

static size_t four(void)
{
    return 4;
}

__attribute__((noinline)) void storeConstant(void)
{
    constantWord = 0x12345678u; /* mark:store */
}

__attribute__((noinline)) void loadXorStore(void)
{
    uint32_t value = constantWord; /* mark:load */
    value ^= 0x5a5a5a5au; /* mark:xor */
    *heapWord = value; /* mark:heap */
}

__attribute__((noinline)) void copyToGlobal(void)
{
    memcpy((void *)&copiedWord, heapWord, copySize()); /* mark:memcpy */
}

__attribute__((noinline)) void readCopy(void)
{
    chainSink = copiedWord; /* mark:read */
}

__attribute__((noinline)) void readFile(const char *path)
{
    const int descriptor = open(path, O_RDONLY);
    if (descriptor < 0 || read(descriptor, fileBuffer, sizeof fileBuffer) <= 0) /* mark:syscall */
        exit(1);
    close(descriptor);
    fileSink = fileBuffer[3]; /* mark:fileread */
}

__attribute__((noinline)) void readNeverWritten(void)
{
    neverSink = neverWritten[2]; /* mark:never */
}

void *storeFromThread(void *argument)
{
    (void)argument;
    threadWord = 0x0123456789abcdefull; /* mark:thread */
    return NULL;
}

__attribute__((noinline)) void acrossThreads(void)
{
    pthread_t thread;
    pthread_create(&thread, NULL, storeFromThread, NULL);
    pthread_join(thread, NULL);
    uint64_t value = threadWord; /* mark:joinload */
    joinedWord = value; /* mark:joinstore */
    joinedSink = joinedWord; /* mark:joinread */
}

__attribute__((noinline)) void repMovsb(void)
{
    void *target = movsTarget;
    const void *source = movsSource;
    size_t count = sizeof movsSource;
    __asm__ volatile("rep movsb" : "+D"(target), "+S"(source), "+c"(count) : : "memory"); /* mark:movsb */
    movsSink = movsTarget[3]; /* mark:movsread */
}

__attribute__((noinline)) void farRegister(void)
{
    unsigned long count = 600000; /* two instructions per turn of the loop */
    __asm__ volatile("mov $0x2a, %%r15d\n" /* mark:far */
                     "1: dec %1\n"
                     "jnz 1b\n"
                     "mov %%r15, %0"
                     : "=m"(farWord), "+c"(count)
                     :
                     : "r15", "cc");
}

void *writeOwnR14(void *argument)
{
    (void)argument;
    while (!r14Set)
        sched_yield();
    __asm__ volatile("mov $0x22, %%r14d\n"
                     "mov %%r14, %0"
                     : "=m"(otherR14Word)
                     :
                     : "r14"); /* mark:otherr14 */
    r14Done = 1;
    return NULL;
}

/* Sets r14, lets the second thread go, and yields (sched_yield(), which writes rax, rcx and r11 but
 * not r14) until it has written its own r14; then stores r14. */
__attribute__((noinline)) void registerStaysInItsThread(void)
{
    pthread_t thread;
    pthread_create(&thread, NULL, writeOwnR14, NULL);
    __asm__ volatile("mov $0x11, %%r14d\n" /* mark:r14 */
                     "movl $1, %1\n"
                     "1: mov $24, %%eax\n"
                     "syscall\n"
                     "cmpl $0, %2\n"
                     "je 1b\n"
                     "mov %%r14, %0"
                     : "=m"(r14Word), "=m"(r14Set)
                     : "m"(r14Done)
                     : "r14", "rax", "rcx", "r11", "cc", "memory");
    pthread_join(thread, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    copySize = four;
    heapWord = malloc(sizeof *heapWord);
    storeConstant();
    loadXorStore();
    copyToGlobal();
    readCopy();
    readFile(argv[1]);
    readNeverWritten();
    acrossThreads();
    repMovsb();
    farRegister();
    registerStaysInItsThread();
    printf("constantWord=%p\nheapWord=%p\ncopiedWord=%p\nchainSink=%p\nfileBuffer=%p\nfileSink=%p\n",
        (void *)&constantWord, (void *)heapWord, (void *)&copiedWord, (void *)&chainSink, (void *)fileBuffer,
        (void *)&fileSink);
    printf("neverWritten=%p\nneverSink=%p\nthreadWord=%p\njoinedWord=%p\njoinedSink=%p\n", (void *)neverWritten,
        (void *)&neverSink, (void *)&threadWord, (void *)&joinedWord, (void *)&joinedSink);
    printf("movsSource=%p\nmovsTarget=%p\nmovsSink=%p\nfarWord=%p\nr14Word=%p\notherR14Word=%p\n", (void *)movsSource,
        (void *)movsTarget, (void *)&movsSink, (void *)&farWord, (void *)&r14Word, (void *)&otherR14Word);
    free(heapWord);
    return 0;
}
