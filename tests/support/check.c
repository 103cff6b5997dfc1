/* Shared state and bad-handle factories for refcl's tests. */
#include "check.h"

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
