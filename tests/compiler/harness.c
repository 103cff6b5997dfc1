/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness's compiler and runtime: one clang-15 process per program
 * (posix_spawn, the driver's command line), and work-groups taken from a
 * shared counter by threads that each own their __local memory, frames and
 * argument slots, as refcl's device threads do.
 */

#include "harness.h"

#include "check.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* What a CPU device reports to clang (-cl-ext=-all,+...). */
#define PASS_EXTENSIONS "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64," \
    "+__opencl_c_images,+__opencl_c_program_scope_global_variables," \
    "+__opencl_c_generic_address_space"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc(1, (size_t)n + 1);
    REQUIRE(s != NULL);
    REQUIRE(fread(s, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    return s;
}

static void output_path(char *out, size_t size, const char *name, const char *ext)
{
    snprintf(out, size, "%s/pass-%s-%d.%s", REFCL_TEST_OUT_DIR, name, (int)getpid(), ext);
}

static int run_clang(const char **argv, const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    REQUIRE(posix_spawn(&pid, argv[0], &fa, NULL, (char **)argv, environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    int status;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Appends @p extra, split at spaces, to argv from argc; NULL-terminates. */
static void add_words(const char **argv, int argc, char *words, size_t size, const char *extra)
{
    snprintf(words, size, "%s", extra);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w && argc < 62;
         w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
}

/* The driver's line for clBuildProgram: OpenCL C to a shared object. */
static int spawn_clang(const char *name, const char *extra, const char *so, const char *log)
{
    char source[512], words[1024];
    snprintf(source, sizeof source, "%s/%s.cl", REFCL_TEST_KERNEL_DIR, name);
    const char *argv[64] = {
        REFCL_TEST_CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "x86_64-unknown-linux-gnu",
        "-fPIC", "-Xclang", "-ffake-address-space-map", "-Xclang", "-finclude-default-header",
        PASS_EXTENSIONS, "-fpass-plugin=" REFCL_TEST_PLUGIN, "-O3", "-shared", "-nostdlib",
        "-o", so, source, "-lm"};
    add_words(argv, 20, words, sizeof words, extra);
    return run_clang(argv, log);
}

/* The driver's lines for clCompileProgram (to bitcode, no plugin) and
 * clLinkProgram (bitcode to a shared object, with the plugin). */
static int spawn_clang_via_bitcode(const char *name, const char *so, const char *log)
{
    char source[512], bc[512];
    snprintf(source, sizeof source, "%s/%s.cl", REFCL_TEST_KERNEL_DIR, name);
    output_path(bc, sizeof bc, name, "bc");
    const char *compile[] = {
        REFCL_TEST_CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "x86_64-unknown-linux-gnu",
        "-fPIC", "-Xclang", "-ffake-address-space-map", "-Xclang", "-finclude-default-header",
        PASS_EXTENSIONS, "-O3", "-emit-llvm", "-c", "-o", bc, source, NULL};
    int rc = run_clang(compile, log);
    if (rc != 0)
        return rc;
    const char *link[] = {
        REFCL_TEST_CLANG, "-x", "ir", "-target", "x86_64-unknown-linux-gnu", "-fPIC",
        "-Xclang", "-ffake-address-space-map", "-fpass-plugin=" REFCL_TEST_PLUGIN, "-O3",
        "-shared", "-nostdlib", "-o", so, bc, "-lm", NULL};
    rc = run_clang(link, log);
    unlink(bc);
    return rc;
}

char *pass_compile_log(const char *name, const char *extra)
{
    char so[512], log[512];
    output_path(so, sizeof so, name, "so");
    output_path(log, sizeof log, name, "log");
    int rc = spawn_clang(name, extra, so, log);
    char *text = read_all(log);
    if (rc != 0)
        fprintf(stderr, "clang failed on %s.cl (%d):\n%s", name, rc, text);
    REQUIRE(rc == 0);
    unlink(so);
    unlink(log);
    return text;
}

void pass_build(struct pass_program *p, const char *name, const char *extra)
{
    char so[512], log[512];
    output_path(so, sizeof so, name, "so");
    output_path(log, sizeof log, name, "log");
    int rc = extra ? spawn_clang(name, extra, so, log) : spawn_clang_via_bitcode(name, so, log);
    if (rc != 0) {
        char *text = read_all(log);
        fprintf(stderr, "clang failed on %s.cl (%d):\n%s", name, rc, text);
        free(text);
    }
    REQUIRE(rc == 0);
    unlink(log);
    p->handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!p->handle)
        fprintf(stderr, "dlopen: %s\n", dlerror());
    REQUIRE(p->handle != NULL);
    unlink(so);
    p->table = dlsym(p->handle, REFCL_ABI_TABLE_SYMBOL);
    REQUIRE(p->table != NULL);
    REQUIRE(p->table->version == REFCL_ABI_VERSION);
}

void pass_unload(struct pass_program *p)
{
    REQUIRE(dlclose(p->handle) == 0);
}

const struct refcl_abi_kernel *pass_kernel(const struct pass_program *p, const char *name)
{
    for (uint32_t i = 0; i < p->table->num_kernels; i++)
        if (strcmp(p->table->kernels[i].name, name) == 0)
            return &p->table->kernels[i];
    fprintf(stderr, "no kernel %s\n", name);
    REQUIRE(0);
    return NULL;
}

double pass_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct pass_job {
    const struct refcl_abi_kernel *k;
    const struct pass_arg *args;
    const struct pass_range *r;
    uint64_t groups[3];
    atomic_ulong next;
};

static void *aligned(size_t size)
{
    void *p = NULL;
    size = (size + REFCL_ABI_ALIGN - 1) / REFCL_ABI_ALIGN * REFCL_ABI_ALIGN;
    REQUIRE(posix_memalign(&p, REFCL_ABI_ALIGN, size ? size : REFCL_ABI_ALIGN) == 0);
    memset(p, 0xa5, size); /* no kernel may count on zeroed memory */
    return p;
}

/* This thread's slots: values in place up to 8 bytes, else a pointer to
 * the caller's bytes; __local pointers into this thread's local memory. */
static uint64_t *fill_slots(const struct pass_job *j, char *local)
{
    const struct refcl_abi_kernel *k = j->k;
    uint64_t *slots = calloc(k->num_args + 1, sizeof *slots);
    REQUIRE(slots != NULL);
    size_t at = (size_t)k->local_bytes;
    for (uint32_t i = 0; i < k->num_args; i++) {
        const struct pass_arg *a = &j->args[i];
        if (k->args[i].kind == REFCL_ABI_ARG_LOCAL) {
            at = (at + REFCL_ABI_ALIGN - 1) / REFCL_ABI_ALIGN * REFCL_ABI_ALIGN;
            void *p = local + at;
            memcpy(&slots[i], &p, sizeof p);
            at += a->size;
        } else if (a->size <= 8) {
            memcpy(&slots[i], a->value, a->size);
        } else {
            memcpy(&slots[i], &a->value, sizeof a->value);
        }
    }
    return slots;
}

static size_t local_size_of(const struct pass_job *j)
{
    size_t bytes = (size_t)j->k->local_bytes;
    for (uint32_t i = 0; i < j->k->num_args; i++)
        if (j->k->args[i].kind == REFCL_ABI_ARG_LOCAL)
            bytes = (bytes + REFCL_ABI_ALIGN - 1) / REFCL_ABI_ALIGN * REFCL_ABI_ALIGN +
                    j->args[i].size;
    return bytes;
}

static void set_group(const struct pass_job *j, uint64_t index, struct refcl_abi_group *g)
{
    const struct pass_range *r = j->r;
    for (unsigned d = 0; d < 3; d++) {
        uint64_t id = index % j->groups[d];
        index /= j->groups[d];
        g->group_id[d] = id;
        uint64_t left = r->global[d] - id * r->local[d];
        g->local_size[d] = left < r->local[d] ? left : r->local[d];
    }
}

static void *worker(void *arg)
{
    struct pass_job *j = arg;
    const struct pass_range *r = j->r;
    struct refcl_abi_group g = {.work_dim = r->dims};
    uint64_t items = 1;
    for (unsigned d = 0; d < 3; d++) {
        g.global_offset[d] = r->offset[d];
        g.global_size[d] = r->global[d];
        g.enqueued_local_size[d] = r->local[d];
        g.num_groups[d] = j->groups[d];
        items *= r->local[d];
    }
    g.local_bytes = (uint32_t)local_size_of(j);
    g.local_mem = aligned(local_size_of(j));
    g.frames = j->k->frame_bytes ? aligned((size_t)(j->k->frame_bytes * items)) : NULL;
    uint64_t *slots = fill_slots(j, g.local_mem);
    uint64_t total = j->groups[0] * j->groups[1] * j->groups[2];
    for (uint64_t i; (i = atomic_fetch_add(&j->next, 1)) < total;) {
        set_group(j, i, &g);
        j->k->run(slots, &g);
    }
    free(slots);
    free(g.frames);
    free(g.local_mem);
    return NULL;
}

void pass_run(const struct refcl_abi_kernel *k, const struct pass_arg *args,
              const struct pass_range *r, unsigned threads)
{
    struct pass_job j = {.k = k, .args = args, .r = r};
    atomic_init(&j.next, 0);
    for (unsigned d = 0; d < 3; d++)
        j.groups[d] = (r->global[d] + r->local[d] - 1) / r->local[d];
    pthread_t t[16];
    REQUIRE(threads >= 1 && threads <= 16);
    for (unsigned i = 0; i < threads; i++)
        REQUIRE(pthread_create(&t[i], NULL, worker, &j) == 0);
    for (unsigned i = 0; i < threads; i++)
        REQUIRE(pthread_join(t[i], NULL) == 0);
}
