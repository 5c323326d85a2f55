/* A small program whose memory history shows every kind of context memhist stores: it counts the
 * letters of a text into a global table (a data object with a name), copies the words into heap
 * blocks (the heap), sorts them with qsort, whose comparison callback runs from libc (functions of
 * two modules), and keeps its cursors in stack frames (the stack). scripts/screenshots.sh compiles
 * it with `gcc -g -O0` and records it with `memhist record`, so every access has its instruction,
 * function, source line and region. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char text[] = "the quick brown fox jumps over the lazy dog and the dog sleeps while the fox runs";

unsigned letter_counts[26];
char *words[32];
int word_count;

static void count_letters(const char *s)
{
    for (; *s; ++s) {
        if (*s >= 'a' && *s <= 'z')
            letter_counts[*s - 'a'] += 1;
    }
}

static void split_words(const char *s)
{
    while (*s && word_count < 32) {
        const char *end = strchr(s, ' ');
        size_t length = end ? (size_t)(end - s) : strlen(s);
        char *word = malloc(length + 1);
        memcpy(word, s, length);
        word[length] = '\0';
        words[word_count++] = word;
        s += length;
        while (*s == ' ')
            ++s;
    }
}

static int compare_words(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    count_letters(text);
    split_words(text);
    qsort(words, word_count, sizeof words[0], compare_words);

    int most = 0;
    for (int i = 1; i < 26; ++i) {
        if (letter_counts[i] > letter_counts[most])
            most = i;
    }
    printf("%d words, first \"%s\", last \"%s\"; most frequent letter '%c' (%u times)\n", word_count, words[0],
        words[word_count - 1], 'a' + most, letter_counts[most]);

    for (int i = 0; i < word_count; ++i)
        free(words[i]);
    return 0;
}
