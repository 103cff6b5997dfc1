/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/cache: the build cache, in a fresh directory of its own under
 * REFCL_CACHE_DIR. A miss writes one entry, a hit leaves it untouched (same
 * inode) and costs no compiler run; a damaged entry is built again; a
 * changed header is a miss (the entry is written again), and so is a changed
 * library named to the linker; two threads and two processes building at
 * once share it; REFCL_CACHE=0 writes nothing.
 * Skipped (77) where the device reports no compiler.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static cl_device_id device;
static cl_context context;
static char dir[600]; /* the cache */
static char include[700]; /* a header directory */

static const char source[] =
    "#include \"value.h\"\n"
    "kernel void k(global int *p) { p[0] = VALUE; }\n";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The entries in the cache, and the inode of the last one seen. */
static int entries(ino_t *inode)
{
    DIR *d = opendir(dir);
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        count++;
        char path[1100];
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (inode && stat(path, &st) == 0)
            *inode = st.st_ino;
    }
    if (d)
        closedir(d);
    return count;
}

static void write_header(int value)
{
    char path[800];
    snprintf(path, sizeof(path), "%s/value.h", include);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "#define VALUE %d\n", value);
        fclose(f);
    }
}

/* One build of the source; its time in ms. */
static double build(void)
{
    char options[800];
    snprintf(options, sizeof(options), "-I %s", include);
    const char *text = source;
    cl_int err = 1;
    cl_program program =
        clCreateProgramWithSource(context, 1, &text, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    double start = now_ms();
    CHECK_EQ(clBuildProgram(program, 0, NULL, options, NULL, NULL),
             CL_SUCCESS);
    double ms = now_ms() - start;
    char names[16];
    CHECK_EQ(clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
                              names, NULL), CL_SUCCESS);
    CHECK_STR(names, "k");
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    return ms;
}

/* The entry's file, for damaging it. */
static void entry_path(char *path, size_t size)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            snprintf(path, size, "%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
}

static void check_hit_miss(void)
{
    ino_t first = 0, again = 0;
    write_header(1);
    double miss = build();
    CHECK_EQ(entries(&first), 1);
    double hit = build();
    CHECK_EQ(entries(&again), 1);
    CHECK_EQ(again, first); /* not written again */
    printf("uncached build %.1f ms, cached rebuild %.1f ms\n", miss, hit);

    /* Truncated: its checksum fails, it is built and written again. */
    char path[1100] = "";
    entry_path(path, sizeof(path));
    struct stat whole;
    CHECK_EQ(stat(path, &whole), 0);
    CHECK_EQ(truncate(path, whole.st_size / 2), 0);
    build();
    struct stat rebuilt;
    CHECK_EQ(stat(path, &rebuilt), 0);
    CHECK_EQ(rebuilt.st_size, whole.st_size);
    /* One byte changed in the middle: the same. */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, whole.st_size / 2, SEEK_SET);
        int c = fgetc(f);
        fseek(f, whole.st_size / 2, SEEK_SET);
        fputc(c ^ 0x55, f);
        fclose(f);
    }
    ino_t damaged = 0, fresh = 0;
    entries(&damaged);
    build();
    CHECK_EQ(entries(&fresh), 1);
    CHECK(fresh != damaged);

    /* A changed header is a miss (the key is the same: the entry is
     * replaced), then a hit. */
    ino_t changed = 0, same = 0;
    write_header(2);
    build();
    CHECK_EQ(entries(&changed), 1);
    CHECK(changed != fresh);
    build();
    CHECK_EQ(entries(&same), 1);
    CHECK_EQ(same, changed);
}

static void *builder(void *arg)
{
    (void)arg;
    build();
    return NULL;
}

static void check_concurrent(void)
{
    write_header(3);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, builder, NULL), 0);
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_join(threads[i], NULL), 0);
    CHECK_EQ(entries(NULL), 1);
}

static void check_off(void)
{
    ino_t before = 0, after = 0;
    entries(&before);
    write_header(4);
    setenv("REFCL_CACHE", "0", 1);
    build();
    CHECK_EQ(entries(&after), 1);
    CHECK_EQ(after, before);
    unsetenv("REFCL_CACHE");
}

static int setup(void)
{
    cl_platform_id platform;
    if (!test_first_device(&platform, &device))
        return 1;
    if (!test_compiler_available(device))
        return TEST_SKIP;
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return 0;
}

/* Before any OpenCL call in this process: a child that builds the source,
 * with @p variable set to @p value (read once per process) unless NULL. */
static pid_t start_build_child(const char *variable, const char *value)
{
    pid_t child = fork();
    if (child == 0) {
        if (variable)
            setenv(variable, value, 1);
        int status = setup();
        if (status == 0)
            build();
        _exit(status ? status : TEST_RESULT());
    }
    return child;
}

/* @p child ended, its build and checks passed. */
static void wait_build_child(pid_t child)
{
    int child_status = -1;
    CHECK_EQ(waitpid(child, &child_status, 0), child);
    CHECK(WIFEXITED(child_status) && WEXITSTATUS(child_status) == 0);
}

static void build_in_child(const char *variable, const char *value)
{
    wait_build_child(start_build_child(variable, value));
}

/* The cache in @p run's directory @p name, from now on. */
static void use_cache(const char *run, const char *name)
{
    snprintf(dir, sizeof(dir), "%s/%s", run, name);
    setenv("REFCL_CACHE_DIR", dir, 1);
}

/* A child builds for a lower CPU (REFCL_CPU), which two_processes then does
 * not find: another entry. */
static void build_for_baseline_cpu(void)
{
    write_header(5);
    build_in_child("REFCL_CPU", "x86-64");
    CHECK_EQ(entries(NULL), 1);
}

/* Copies the system's C math library to @p copy. */
static bool copy_libm(const char *copy)
{
    void *handle = dlopen("libm.so.6", RTLD_NOW);
    void *cos_address = handle ? dlsym(handle, "cos") : NULL;
    Dl_info info;
    char command[2000] = "false";
    if (cos_address && dladdr(cos_address, &info) && info.dli_fname)
        snprintf(command, sizeof(command), "cp '%s' '%s'", info.dli_fname,
                 copy);
    if (handle)
        dlclose(handle);
    return system(command) == 0;
}

/* Before any OpenCL call: a library the program is linked with, named in
 * REFCL_LIBM, is part of the key by its path and its time of change. Each
 * build is in a child of its own, so each reads REFCL_LIBM. */
static void check_toolchain_files(const char *run)
{
    write_header(6);
    char libm[500];
    snprintf(libm, sizeof(libm), "%s/libm.so.6", run);
    CHECK(copy_libm(libm));
    use_cache(run, "toolchain");
    build_in_child("REFCL_LIBM", libm);
    ino_t first = 0, again = 0, touched = 0;
    CHECK_EQ(entries(&first), 1);
    build_in_child("REFCL_LIBM", libm); /* the same file: a hit */
    CHECK_EQ(entries(&again), 1);
    CHECK_EQ(again, first);
    const struct timespec later[2] = {{0, UTIME_OMIT}, {4102444800, 0}};
    CHECK_EQ(utimensat(AT_FDCWD, libm, later, 0), 0);
    build_in_child("REFCL_LIBM", libm); /* changed since: a miss */
    CHECK_EQ(entries(&touched), 2);
    unlink(libm);
}

/* Before any OpenCL call: two processes build one new program at once. */
static int two_processes(void)
{
    write_header(5);
    pid_t child = start_build_child(NULL, NULL);
    int status = setup();
    if (status)
        return status;
    build();
    wait_build_child(child);
#if defined(__x86_64__)
    CHECK_EQ(entries(NULL), 2); /* this host is above x86-64's baseline */
#else
    CHECK_EQ(entries(NULL), 1); /* REFCL_CPU=x86-64 means nothing here */
#endif
    return 0;
}


int main(void)
{
    const char *base = getenv("REFCL_CACHE_DIR");
    char run[400];
    snprintf(run, sizeof(run), "%s/run-XXXXXX", base ? base : "/tmp");
    mkdir(base ? base : "/tmp", 0700);
    if (!mkdtemp(run)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(include, sizeof(include), "%s/include", run);
    mkdir(include, 0700);
    use_cache(run, "processes");
    build_for_baseline_cpu();
    check_toolchain_files(run);
    use_cache(run, "processes");
    int status = two_processes();
    if (status)
        return status;
    use_cache(run, "cache");
    check_hit_miss();
    check_concurrent();
    check_off();
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
