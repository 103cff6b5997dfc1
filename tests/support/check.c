/* Shared state and bad-handle factories for refcl's tests. */
#include "check.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

_Atomic int test_failures;

void *test_zeroed_handle(void)
{
    static _Alignas(256) unsigned char zeroes[1024];
    return zeroes;
}

void *test_unmapped_handle(void)
{
    /* Reserve a page and give it back: its address is now unmapped. */
    void *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        abort();
    munmap(page, 4096);
    return page;
}

int test_thread_count(void)
{
    int count = 0;
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return -1;
    for (struct dirent *e; (e = readdir(dir));)
        count += e->d_name[0] != '.';
    closedir(dir);
    return count;
}

static void *no_work(void *arg)
{
    return arg;
}

int test_thread_baseline(void)
{
    pthread_t thread;
    if (pthread_create(&thread, NULL, no_work, NULL) == 0)
        pthread_join(thread, NULL);
    return test_thread_count();
}
