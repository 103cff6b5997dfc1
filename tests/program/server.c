/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/server: builds through the persistent compiler process
 * (refcl-compiler; the pool: compiler/pool.c), found as a child of this process
 * (/proc/self/task/N/children, named by /proc/PID/comm). The server killed
 * while idle (the next build spawns another and works), killed during a
 * build (that build fails with CL_BUILD_PROGRAM_FAILURE and a log naming
 * the signal; the next works), four threads building different sources at
 * once (each kernel run and checked; more than one server), a fork()ed
 * child building with a server of its own, and clUnloadPlatformCompiler
 * ending the idle ones. The build cache is off: every build compiles.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "processes.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

enum { ITEMS = 64 };

/* Whether @p pid is busy with a job: its working directory is the job's,
 * not "/" (where it waits between jobs). */
static bool is_busy(int pid)
{
    char cwd[512];
    cwd_of(pid, cwd, sizeof(cwd));
    return strlen(cwd) > 1;
}

/* Whether @p pid is a zombie whose every thread has ended, which the
 * library's waitpid then sees (a zombie leader whose other threads are
 * still exiting is not yet). */
static bool is_reapable(int pid)
{
    char path[64], line[64];
    snprintf(path, sizeof(path), "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    bool zombie = false, alone = false;
    while (f && fgets(line, sizeof(line), f)) {
        zombie |= !strncmp(line, "State:\tZ", 8);
        alone |= !strcmp(line, "Threads:\t1\n");
    }
    if (f)
        fclose(f);
    return zombie && alone;
}

/* Kills @p pid and waits until it is dead (a zombie: the library reaps
 * it). */
static void kill_server(int pid)
{
    CHECK_EQ(kill(pid, SIGKILL), 0);
    for (int i = 0; i < 5000 && is_server(pid) && !is_reapable(pid); i++)
        pause_ms(1);
}

/* A program whose kernel writes i * @p scale + @p offset. */
static cl_program program_of(int scale, int offset)
{
    char text[256];
    snprintf(text, sizeof(text),
             "kernel void fill(global int *out)\n"
             "{ int i = get_global_id(0); out[i] = i * %d + %d; }\n",
             scale, offset);
    return program_in(context, text);
}

/* Runs the built @p program's kernel and checks what it wrote. */
static void run_fill(cl_program program, int scale, int offset)
{
    cl_int err = 1;
    cl_kernel kernel = clCreateKernel(program, "fill", &err);
    CHECK_EQ(err, CL_SUCCESS);
    cl_mem out = clCreateBuffer(context, CL_MEM_WRITE_ONLY,
                                ITEMS * sizeof(cl_int), NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(out), &out), CL_SUCCESS);
    size_t global = ITEMS;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                    NULL, NULL), CL_SUCCESS);
    cl_int got[ITEMS];
    CHECK_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(got), got, 0,
                                 NULL, NULL), CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < ITEMS; i++)
        wrong += got[i] != i * scale + offset;
    CHECK_EQ(wrong, 0);
    CHECK_EQ(clReleaseMemObject(out), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

static void build_and_run(int scale, int offset)
{
    cl_program program = program_of(scale, offset);
    CHECK_EQ(clBuildProgram(program, 1, &device, NULL, NULL, NULL),
             CL_SUCCESS);
    run_fill(program, scale, offset);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* Killed while idle: the next build spawns a server and works. */
static void check_killed_idle(void)
{
    build_and_run(2, 1);
    int pids[MAX_SERVERS];
    int count = find_servers(pids);
    CHECK(count >= 1);
    for (int i = 0; i < count; i++)
        kill_server(pids[i]);
    build_and_run(3, 5);
    int after[MAX_SERVERS];
    CHECK(find_servers(after) >= 1);
    CHECK(count < 1 || after[0] != pids[0]);
}

/* A program slow enough to compile (a few hundred ms at -O3) that the
 * server is seen busy with it. */
static cl_program slow_program(void)
{
    static const char text[] =
        "#define R(x) x = x * 1664525u + 1013904223u; x ^= x >> 7;\n"
        "#define R8(x) R(x) R(x) R(x) R(x) R(x) R(x) R(x) R(x)\n"
        "#define R64(x) R8(x) R8(x) R8(x) R8(x) R8(x) R8(x) R8(x) R8(x)\n"
        "#define F(n) uint f##n(uint x) { R64(x) R64(x) return x + n; }\n"
        "#define F8(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) "
        "F(n##6) F(n##7)\n"
        "F8(1) F8(2) F8(3) F8(4) F8(5) F8(6) F8(7)\n"
        "kernel void slow(global uint *p)\n"
        "{ uint i = get_global_id(0); p[i] = f10(i) + f27(i) + f77(i); }\n";
    return program_in(context, text);
}

static void *build_slow(void *program)
{
    cl_int *status = malloc(sizeof(*status));
    *status = clBuildProgram(program, 1, &device, "-cl-opt-disable", NULL,
                             NULL);
    return status;
}

/* Kills the first server seen busy; @return whether one was. */
static bool kill_busy_server(void)
{
    for (int tries = 0; tries < 20000; tries++) {
        int pids[MAX_SERVERS];
        int count = find_servers(pids);
        for (int i = 0; i < count; i++)
            if (is_busy(pids[i])) {
                kill_server(pids[i]);
                return true;
            }
        pause_ms(0);
    }
    return false;
}

/* Killed during a build: that build fails with a log saying so. */
static void check_killed_busy(void)
{
    cl_program program = slow_program();
    pthread_t thread;
    CHECK_EQ(pthread_create(&thread, NULL, build_slow, program), 0);
    CHECK(kill_busy_server());
    void *status;
    CHECK_EQ(pthread_join(thread, &status), 0);
    /* "CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program
     * executable." */
    CHECK_EQ(*(cl_int *)status, CL_BUILD_PROGRAM_FAILURE);
    free(status);
    char *log = build_log_of(program, device);
    CHECK(strstr(log, "refcl: the compiler (refcl-compiler, pid "));
    CHECK(strstr(log, "died: killed by signal 9"));
    free(log);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    build_and_run(7, 11);
}

enum { THREADS = 4 };
static pthread_barrier_t start;

static void *build_one(void *arg)
{
    int n = (int)(intptr_t)arg;
    cl_program program = program_of(100 + n, n);
    pthread_barrier_wait(&start);
    CHECK_EQ(clBuildProgram(program, 1, &device, NULL, NULL, NULL),
             CL_SUCCESS);
    run_fill(program, 100 + n, n);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    return NULL;
}

/* Four builders at once: each gets a server (none waits for another's
 * whole compile), and the idle ones are kept. */
static void check_threads(void)
{
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    int pids[MAX_SERVERS];
    CHECK_EQ(find_servers(pids), 0);
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, build_one,
                                (void *)(intptr_t)i), 0);
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ(pthread_join(threads[i], NULL), 0);
    pthread_barrier_destroy(&start);
    int count = find_servers(pids);
    CHECK(count >= 2 && count <= THREADS);
}

/* A fork()ed child builds with a server of its own (its children), never
 * the parent's; the parent's still serve it after. */
static void check_fork(void)
{
    int parents[MAX_SERVERS];
    CHECK(find_servers(parents) >= 1);
    fflush(NULL);
    int result[2];
    CHECK_EQ(pipe(result), 0);
    pid_t child = fork();
    if (child == 0) {
        cl_program program = program_of(9, 9);
        int ok = clBuildProgram(program, 1, &device, NULL, NULL, NULL) ==
                 CL_SUCCESS;
        cl_int err = 1;
        cl_kernel kernel = clCreateKernel(program, "fill", &err);
        int mine[MAX_SERVERS];
        ok = ok && err == CL_SUCCESS && find_servers(mine) == 1;
        if (kernel)
            clReleaseKernel(kernel);
        /* The verdict through the pipe, then exec: the child has the
         * parent's memory but not its worker threads, whose per-thread
         * allocations a leak checker at its exit would call lost. */
        char verdict = ok ? 'y' : 'n';
        ssize_t written = write(result[1], &verdict, 1);
        (void)written;
        execl("/bin/true", "true", (char *)NULL);
        _exit(1);
    }
    CHECK(child > 0);
    close(result[1]);
    char verdict = 0;
    CHECK_EQ(read(result[0], &verdict, 1), 1);
    close(result[0]);
    CHECK_EQ(verdict, 'y');
    int status = -1;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status));
    CHECK_EQ(WEXITSTATUS(status), 0);
    build_and_run(4, 4);
}

int main(void)
{
    if (!test_first_device(&platform, &device))
        return 1;
    if (!test_compiler_available(device))
        return TEST_SKIP;
    if (!test_context_queue(device, 0, &context, &queue))
        return 1;
    check_killed_idle();
    check_killed_busy();
    check_threads();
    check_fork();
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    int pids[MAX_SERVERS];
    CHECK_EQ(find_servers(pids), 0);
    CHECK_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
