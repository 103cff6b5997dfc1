/* SPDX-License-Identifier: Apache-2.0 */
/* Shared state and bad-handle factories for refcl's tests. */
#include "check.h"

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Atomic int test_failures;

static pthread_mutex_t signal_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t signal_cond = PTHREAD_COND_INITIALIZER;
static int signalled;

void CL_CALLBACK test_signal_complete(cl_event event, cl_int status,
                                      void *data)
{
    (void)event;
    (void)data;
    CHECK_EQ(status, CL_COMPLETE);
    pthread_mutex_lock(&signal_lock);
    signalled = 1;
    pthread_cond_signal(&signal_cond);
    pthread_mutex_unlock(&signal_lock);
}

void test_signal_wait(void)
{
    pthread_mutex_lock(&signal_lock);
    while (!signalled)
        pthread_cond_wait(&signal_cond, &signal_lock);
    signalled = 0;
    pthread_mutex_unlock(&signal_lock);
}

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

/* PF_EXITING of the kernel's include/linux/sched.h ("getting shut down"),
 * in the flags field of /proc/<pid>/task/<tid>/stat (proc(5)). */
#define TASK_EXITING 0x4u

/* True unless task @p tid of this process is gone or exiting. */
static int task_alive(const char *tid)
{
    char path[64], text[1024];
    snprintf(path, sizeof(path), "/proc/self/task/%s/stat", tid);
    FILE *file = fopen(path, "r");
    if (!file)
        return 0; /* released since readdir */
    size_t n = fread(text, 1, sizeof(text) - 1, file);
    fclose(file);
    text[n] = '\0';
    /* pid (comm) state ppid pgrp session tty_nr tpgid flags ...; comm may
     * hold anything, ')' included. */
    const char *end = strrchr(text, ')');
    char state;
    unsigned flags;
    if (!end || sscanf(end + 1, " %c %*d %*d %*d %*d %*d %u", &state,
                       &flags) != 2)
        return 1; /* unreadable: counted, so the check fails loudly */
    return !(flags & TASK_EXITING);
}

int test_thread_count(void)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(dir));)
        if (e->d_name[0] != '.')
            count += task_alive(e->d_name);
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

static void *try_bind(void *arg)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
    *(int *)arg = sched_setaffinity(0, sizeof(one), &one) == 0;
    return NULL;
}

const char *test_emulator(void)
{
    const char *emulator = getenv("REFCL_TEST_EMULATOR");
    return emulator && *emulator ? emulator : NULL;
}

bool test_address_limit_usable(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#endif
#endif
    if (test_emulator()) {
        fprintf(stderr, "under %s: qemu-user keeps a guest's RLIMIT_AS for "
                        "itself, unapplied\n", test_emulator());
        return false;
    }
    const char *preload = getenv("LD_PRELOAD");
    return !(preload && strstr(preload, "vgpreload"));
}

size_t test_mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * 4096;
}

int test_binding_allowed(void)
{
    int ok = 0;
    pthread_t thread;
    if (pthread_create(&thread, NULL, try_bind, &ok) != 0)
        return 0;
    pthread_join(thread, NULL);
    return ok;
}
