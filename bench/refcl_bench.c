/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_bench: what an OpenCL platform layer costs the programs that use it,
 * measured through the ICD loader for whichever ICD the loader is pointed at
 * (OCL_ICD_VENDORS); it uses the first platform. bench/README.md explains
 * every figure; bench/compare.sh runs it against refcl and pocl.
 *
 * Output: comment lines start with '#'; every other line is one figure,
 *   <figure> <median> <iqr> <unit>
 * or, when an API call the figure needs fails,
 *   <figure> unsupported (<CL error name>)
 * The median and the interquartile range (p75 - p25) are over the figure's
 * samples: one fresh process per sample for the startup and memory figures,
 * one timed run of a loop of calls per sample for the others.
 *
 * Usage: refcl_bench [--runs N] [--spawns N] [--ms M] [--iters N]
 *                    [--only PREFIX]
 *   --runs N      samples per loop figure (default 11)
 *   --spawns N    fresh processes per startup/memory figure (default 40)
 *   --ms M        each loop sample lasts about M ms (default 20)
 *   --iters N     calls per loop sample instead (for callgrind)
 *   --only PREFIX only the figures whose name starts with PREFIX
 * Internal: refcl_bench --child <figure> <spawn time, ns> measures one
 * sample of a fresh-process figure and prints it on stdout.
 */
#include "bench.h"
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Not a CL error: the child process of a fresh-process sample failed. */
#define BENCH_CHILD_FAILED (-100000)
/* Thread count meaning "one per online CPU". */
#define ALL_CPUS (-1)

/** Measures one sample in a fresh process spawned at @p t0 (ns). */
typedef cl_int (*child_fn)(uint64_t t0, double *value);

struct figure {
    const char *name;
    const char *unit;
    child_fn child; /* a fresh-process figure, or */
    loop_fn loop;   /* a hot-loop figure: */
    int threads;    /* 0: time per call on one thread, in unit (ns or
                       us); else aggregate Mcall/s of this many threads
                       (ALL_CPUS: one per CPU) */
    const struct work *work; /* or a figure of work (bench/work.c,
                                bench/memory.c) */
};

struct options {
    int runs;
    int spawns;
    double ms;
    long iters; /* 0: calibrate to `ms` */
    const char *only;
};

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* CPU time of the whole process, every thread (the ICD's included). */
static uint64_t cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static const char *error_name(cl_int err)
{
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
        {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
        {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
        {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
        {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
        {CL_DEVICE_PARTITION_FAILED, "CL_DEVICE_PARTITION_FAILED"},
        {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
        {CL_INVALID_DEVICE_TYPE, "CL_INVALID_DEVICE_TYPE"},
        {CL_INVALID_PLATFORM, "CL_INVALID_PLATFORM"},
        {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
        {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
        {CL_INVALID_OPERATION, "CL_INVALID_OPERATION"},
        {CL_INVALID_PROPERTY, "CL_INVALID_PROPERTY"},
        {CL_INVALID_DEVICE_PARTITION_COUNT,
         "CL_INVALID_DEVICE_PARTITION_COUNT"},
        {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
        {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
        {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
        {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
        {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
        {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
        {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
        {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
        {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
        {BENCH_CHILD_FAILED, "child process failed"},
    };
    static char unknown[32];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].code == err)
            return names[i].name;
    snprintf(unknown, sizeof(unknown), "CL error %d", err);
    return unknown;
}

/* ---- fresh-process figures: each runs in a child spawned at t0 ---- */

static double us_since(uint64_t t0)
{
    return (double)(now_ns() - t0) / 1e3;
}

/* VmRSS of this process in KiB, or -1. */
static long vm_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static cl_int first_device(cl_device_id *device)
{
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err != CL_SUCCESS)
        return err;
    return clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, device, NULL);
}

/* The floor: spawn to main() of a process linked to the loader. */
static cl_int child_floor(uint64_t t0, double *value)
{
    *value = us_since(t0);
    return CL_SUCCESS;
}

static cl_int child_platforms(uint64_t t0, double *value)
{
    cl_platform_id platform;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    *value = us_since(t0);
    return err;
}

static cl_int child_device_ids(uint64_t t0, double *value)
{
    (void)t0;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err != CL_SUCCESS)
        return err;
    uint64_t start = now_ns();
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    *value = us_since(start);
    return err;
}

/* VmRSS before the first clGetPlatformIDs and after it and the first
 * clGetDeviceIDs: what loading and initialising the ICD adds. */
static cl_int child_rss(uint64_t t0, double *value)
{
    (void)t0;
    cl_device_id device;
    long before = vm_rss_kib();
    cl_int err = first_device(&device);
    *value = (double)(vm_rss_kib() - before);
    return before < 0 ? CL_OUT_OF_RESOURCES : err;
}

/* Live user events a fresh process creates for the events.live figures. */
#define LIVE_EVENTS 1000000

/* Creates LIVE_EVENTS user events and keeps them all; with @p rss, the
 * VmRSS they add in KiB, else the milliseconds they took. Then releases
 * them. */
static cl_int live_events(bool rss, double *value)
{
    cl_device_id device;
    cl_int err = first_device(&device);
    cl_context context =
        err ? NULL : clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event *events = malloc(LIVE_EVENTS * sizeof(*events));
    if (!events)
        err = CL_OUT_OF_HOST_MEMORY;
    long before = vm_rss_kib();
    uint64_t start = now_ns();
    long made = 0;
    for (; err == CL_SUCCESS && made < LIVE_EVENTS; made++)
        events[made] = clCreateUserEvent(context, &err);
    made -= err != CL_SUCCESS;
    *value = rss ? (double)(vm_rss_kib() - before)
                 : (double)(now_ns() - start) / 1e6;
    for (long i = 0; i < made; i++)
        clReleaseEvent(events[i]);
    free(events);
    if (context)
        clReleaseContext(context);
    return err;
}

static cl_int child_live_events_time(uint64_t t0, double *value)
{
    (void)t0;
    return live_events(false, value);
}

static cl_int child_live_events_rss(uint64_t t0, double *value)
{
    (void)t0;
    return live_events(true, value);
}

/* ---- hot-loop figures: n calls each ---- */

static cl_int loop_clock(const struct bench *b, long n)
{
    (void)b;
    struct timespec t;
    for (long i = 0; i < n; i++)
        if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
            return CL_OUT_OF_RESOURCES;
    return CL_SUCCESS;
}

static cl_int loop_device_scalar(const struct bench *b, long n)
{
    cl_uint units;
    for (long i = 0; i < n; i++) {
        cl_int err = clGetDeviceInfo(b->device, CL_DEVICE_MAX_COMPUTE_UNITS,
                                     sizeof(units), &units, NULL);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int loop_device_string(const struct bench *b, long n)
{
    char name[256];
    for (long i = 0; i < n; i++) {
        cl_int err = clGetDeviceInfo(b->device, CL_DEVICE_NAME, sizeof(name),
                                     name, NULL);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int loop_platform_string(const struct bench *b, long n)
{
    char version[256];
    for (long i = 0; i < n; i++) {
        cl_int err = clGetPlatformInfo(b->platform, CL_PLATFORM_VERSION,
                                       sizeof(version), version, NULL);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int loop_context(const struct bench *b, long n)
{
    for (long i = 0; i < n; i++) {
        cl_int err;
        cl_context context =
            clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
        if (err != CL_SUCCESS)
            return err;
        err = clReleaseContext(context); /* also catches a NULL context */
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int loop_user_event(const struct bench *b, long n)
{
    for (long i = 0; i < n; i++) {
        cl_int err;
        cl_event event = clCreateUserEvent(b->context, &err);
        if (err != CL_SUCCESS)
            return err;
        err = clReleaseEvent(event);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int release_devices(const cl_device_id *devices, cl_uint count)
{
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < count; i++) {
        cl_int err = clReleaseDevice(devices[i]);
        if (err != CL_SUCCESS)
            status = err;
    }
    return status;
}

/* clCreateSubDevices(EQUALLY 1): one sub-device per compute unit. */
static cl_int loop_subdevices(const struct bench *b, long n)
{
    const cl_device_partition_property equally_1[] = {
        CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id *subs = malloc(b->units * sizeof(*subs));
    cl_int err = subs ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (long i = 0; i < n && err == CL_SUCCESS; i++) {
        cl_uint count = 0;
        err = clCreateSubDevices(b->device, equally_1, b->units, subs, &count);
        if (err == CL_SUCCESS)
            err = count ? release_devices(subs, count) : CL_DEVICE_NOT_FOUND;
    }
    free(subs);
    return err;
}

static cl_int loop_host_timer(const struct bench *b, long n)
{
    cl_ulong host;
    for (long i = 0; i < n; i++) {
        cl_int err = clGetHostTimer(b->device, &host);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static cl_int loop_device_and_host_timer(const struct bench *b, long n)
{
    cl_ulong device, host;
    for (long i = 0; i < n; i++) {
        cl_int err = clGetDeviceAndHostTimer(b->device, &device, &host);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

static const struct figure figures[] = {
    {"startup.process-floor", "us", child_floor, NULL, 0, NULL},
    {"startup.platforms-ready", "us", child_platforms, NULL, 0, NULL},
    {"startup.first-device-ids", "us", child_device_ids, NULL, 0, NULL},
    {"rss.icd-loaded", "KiB", child_rss, NULL, 0, NULL},
    {"events.1m-live", "ms", child_live_events_time, NULL, 0, NULL},
    {"rss.events-1m-live", "KiB", child_live_events_rss, NULL, 0, NULL},
    {"clock-gettime", "ns", NULL, loop_clock, 0, NULL},
    {"device-info.scalar", "ns", NULL, loop_device_scalar, 0, NULL},
    {"device-info.string", "ns", NULL, loop_device_string, 0, NULL},
    {"platform-info.string", "ns", NULL, loop_platform_string, 0, NULL},
    {"context.create-release", "ns", NULL, loop_context, 0, NULL},
    {"subdevices.equally-1", "ns", NULL, loop_subdevices, 0, NULL},
    {"user-event.create-release", "ns", NULL, loop_user_event, 0, NULL},
    {"buffer.create-release", "ns", NULL, NULL, 0, &bench_buffer_create},
    {"kernel.create-release", "ns", NULL, NULL, 0, &bench_kernel_create},
    {"kernel.set-arg-3", "ns", NULL, NULL, 0, &bench_kernel_set_arg},
    {"memcpy.64m", "us", NULL, NULL, 0, &bench_memcpy_64m},
    {"copy-buffer.64m", "us", NULL, NULL, 0, &bench_copy_buffer_64m},
    {"write-buffer.64m", "us", NULL, NULL, 0, &bench_write_buffer_64m},
    {"read-buffer.64m", "us", NULL, NULL, 0, &bench_read_buffer_64m},
    {"map-unmap.64m", "us", NULL, NULL, 0, &bench_map_unmap_64m},
    {"write-buffer.4b", "ns", NULL, NULL, 0, &bench_write_buffer_4b},
    {"timer.host", "ns", NULL, loop_host_timer, 0, NULL},
    {"timer.device-and-host", "ns", NULL, loop_device_and_host_timer, 0, NULL},
    {"device-info.threads-1", "Mcall/s", NULL, loop_device_scalar, 1, NULL},
    {"device-info.threads-2", "Mcall/s", NULL, loop_device_scalar, 2, NULL},
    {"device-info.threads-all", "Mcall/s", NULL, loop_device_scalar,
     ALL_CPUS, NULL},
    {"context.threads-1", "Mcall/s", NULL, loop_context, 1, NULL},
    {"context.threads-2", "Mcall/s", NULL, loop_context, 2, NULL},
    {"context.threads-all", "Mcall/s", NULL, loop_context, ALL_CPUS, NULL},
    {"native-kernel.latency", "ns", NULL, NULL, 0, &bench_native_latency},
    {"queues.one", "ns", NULL, NULL, 0, &bench_queues_one},
    {"queues.one-cpu", "ns-cpu", NULL, NULL, 0, &bench_queues_one},
    {"queues.herd", "ns", NULL, NULL, 0, &bench_queues_herd},
    {"queues.herd-cpu", "ns-cpu", NULL, NULL, 0, &bench_queues_herd},
    {"saxpy.device", "GB/s", NULL, NULL, 0, &bench_saxpy_device},
    {"saxpy.source", "GB/s", NULL, NULL, 0, &bench_saxpy_source},
    {"saxpy.c-1-thread", "GB/s", NULL, NULL, 0, &bench_saxpy_c1},
    {"saxpy.c-all-threads", "GB/s", NULL, NULL, 0, &bench_saxpy_c_all},
    {"reduce.source", "us", NULL, NULL, 0, &bench_reduce_source},
    {"reduce.float-tree", "us", NULL, NULL, 0, &bench_reduce_float_tree},
    {"reduce.float-collective", "us", NULL, NULL, 0,
     &bench_reduce_float_collective},
    {"compute.mad-float", "us", NULL, NULL, 0, &bench_mad_float},
    {"compute.mad-float16", "us", NULL, NULL, 0, &bench_mad_float16},
    {"compute.mad-half", "us", NULL, NULL, 0, &bench_mad_half},
    {"compute.c-fma-all-threads", "us", NULL, NULL, 0, &bench_fma_c_all},
    {"sgemm.naive-1024", "us", NULL, NULL, 0, &bench_sgemm},
    {"nbody.4096", "us", NULL, NULL, 0, &bench_nbody},
    {"conv5x5.4096", "us", NULL, NULL, 0, &bench_conv},
    {"divergent.collatz-1m", "us", NULL, NULL, 0, &bench_collatz},
    {"divergent.c-collatz-all-threads", "us", NULL, NULL, 0, &bench_collatz_c_all},
    {"divergent.mandelbrot-2048", "us", NULL, NULL, 0, &bench_mandelbrot},
    {"image.blur-5x5", "us", NULL, NULL, 0, &bench_image_blur},
    {"buffer.blur-5x5", "us", NULL, NULL, 0, &bench_buffer_blur},
    {"image.resample-bilinear", "us", NULL, NULL, 0, &bench_image_resample},
    {"copy-image.64m", "us", NULL, NULL, 0, &bench_copy_image_64m},
    {"map-unmap-image.64m", "us", NULL, NULL, 0,
     &bench_map_unmap_image_64m},
    {"reduce.c-all-threads", "us", NULL, NULL, 0, &bench_reduce_c_all},
    {"build.uncached", "us", NULL, NULL, 0, &bench_build_uncached},
    {"build.cached", "us", NULL, NULL, 0, &bench_build_cached},
    {"build.first_run", "us", NULL, NULL, 0, &bench_build_first_run},
    {"builtin.sin", "us", NULL, NULL, 0, &bench_builtins[0]},
    {"builtin.exp", "us", NULL, NULL, 0, &bench_builtins[1]},
    {"builtin.pow", "us", NULL, NULL, 0, &bench_builtins[2]},
    {"builtin.convert_uchar4_sat_rte", "us", NULL, NULL, 0, &bench_builtins[3]},
    {"builtin.atomic_add-1", "us", NULL, NULL, 0, &bench_builtins[4]},
    {"builtin.atomic_add-64", "us", NULL, NULL, 0, &bench_builtins[5]},
    {"builtin.atomic_add-64-wg64", "us", NULL, NULL, 0, &bench_builtins[7]},
    {"builtin.async_copy_tiles", "us", NULL, NULL, 0, &bench_builtins[6]},
    {"barrier.gather-float4", "us", NULL, NULL, 0, &bench_builtins[10]},
    {"generic.axpy-global", "us", NULL, NULL, 0, &bench_builtins[8]},
    {"generic.axpy-generic", "us", NULL, NULL, 0, &bench_builtins[9]},
    {"saxpy.units-1", "GB/s", NULL, NULL, 0, &bench_saxpy_units[0]},
    {"saxpy.units-2", "GB/s", NULL, NULL, 0, &bench_saxpy_units[1]},
    {"saxpy.units-4", "GB/s", NULL, NULL, 0, &bench_saxpy_units[2]},
    {"saxpy.units-8", "GB/s", NULL, NULL, 0, &bench_saxpy_units[3]},
    {"saxpy.units-16", "GB/s", NULL, NULL, 0, &bench_saxpy_units[4]},
    {"saxpy.units-32", "GB/s", NULL, NULL, 0, &bench_saxpy_units[5]},
    {"saxpy.units-64", "GB/s", NULL, NULL, 0, &bench_saxpy_units[6]},
};
#define FIGURE_COUNT (sizeof(figures) / sizeof(figures[0]))

/* ---- timing and statistics ---- */

struct span {
    uint64_t begin, end;
};

/** Times @p n calls of @p loop: the one place a loop is timed. */
static cl_int time_loop(loop_fn loop, const struct bench *b, long n,
                        struct span *span)
{
    span->begin = now_ns();
    cl_int err = loop(b, n);
    span->end = now_ns();
    return err;
}

/* ---- one sample of each kind of figure ---- */

/* Reads the child's one line: "<value>" or "error <code>". */
static cl_int read_child(int fd, double *value)
{
    char buf[128];
    size_t used = 0;
    ssize_t got;
    while (used < sizeof(buf) - 1 &&
           ((got = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0 ||
            (got < 0 && errno == EINTR)))
        used += got > 0 ? (size_t)got : 0;
    buf[used] = '\0';
    int code;
    if (sscanf(buf, "error %d", &code) == 1)
        return code;
    return sscanf(buf, "%lf", value) == 1 ? CL_SUCCESS : BENCH_CHILD_FAILED;
}

/* Spawns this program as `--child <figure> <t0>` and reads its sample. */
static cl_int spawn_sample(const struct figure *f, double *value)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return BENCH_CHILD_FAILED;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);

    char t0_arg[32];
    char *argv[] = {"refcl_bench", "--child", (char *)f->name, t0_arg, NULL};
    pid_t pid;
    uint64_t t0 = now_ns();
    snprintf(t0_arg, sizeof(t0_arg), "%" PRIu64, t0);
    int spawned =
        posix_spawn(&pid, "/proc/self/exe", &actions, NULL, argv, environ);
    close(fds[1]);
    cl_int err = spawned == 0 ? read_child(fds[0], value) : BENCH_CHILD_FAILED;
    close(fds[0]);
    posix_spawn_file_actions_destroy(&actions);

    int status;
    if (spawned == 0 &&
        (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)))
        err = BENCH_CHILD_FAILED;
    return err;
}

struct worker {
    loop_fn loop;
    const struct bench *bench;
    long iters;
    pthread_barrier_t *start;
    struct span span;
    cl_int err;
};

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(w->start);
    w->err = time_loop(w->loop, w->bench, w->iters, &w->span);
    return NULL;
}

/* @p threads threads run @p n calls each, released together: calls made
 * by all of them per second of wall time, from the first start to the last
 * end, in millions. */
static cl_int threads_sample(loop_fn loop, const struct bench *b, int threads,
                             long n, double *value)
{
    struct worker *w = calloc((size_t)threads, sizeof(*w));
    pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
    pthread_barrier_t start;
    cl_int err = w && tid ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    int started = 0;
    if (err == CL_SUCCESS)
        pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (; err == CL_SUCCESS && started < threads; started++) {
        w[started] = (struct worker){loop, b, n, &start, {0, 0}, 0};
        if (pthread_create(&tid[started], NULL, worker_run, &w[started]))
            abort(); /* the others would wait at the barrier forever */
    }
    uint64_t first = UINT64_MAX, last = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(tid[i], NULL);
        err = err != CL_SUCCESS ? err : w[i].err;
        first = w[i].span.begin < first ? w[i].span.begin : first;
        last = w[i].span.end > last ? w[i].span.end : last;
    }
    if (started)
        pthread_barrier_destroy(&start);
    *value = (double)threads * (double)n / (double)(last - first) * 1e3;
    free(w);
    free(tid);
    return err;
}

static int thread_count(const struct figure *f)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return f->threads == ALL_CPUS ? (cpus > 0 ? (int)cpus : 1) : f->threads;
}

/* Calls per loop sample: doubled until one sample lasts @p ms. */
static cl_int calibrate(loop_fn loop, const struct bench *b, double ms,
                        long *n)
{
    struct span span;
    for (*n = 1;; *n *= 2) {
        cl_int err = time_loop(loop, b, *n, &span);
        if (err != CL_SUCCESS ||
            (double)(span.end - span.begin) >= ms * 1e6 || *n >= (1L << 40))
            return err;
    }
}

/* The figure's loop: its own, or its work's. */
static loop_fn figure_loop(const struct figure *f)
{
    return f->work ? f->work->loop : f->loop;
}

static cl_int sample(const struct figure *f, const struct bench *b, long n,
                     double *value)
{
    if (f->child)
        return spawn_sample(f, value);
    if (f->threads)
        return threads_sample(f->loop, b, thread_count(f), n, value);
    struct span span;
    uint64_t cpu = cpu_ns();
    cl_int err = time_loop(figure_loop(f), b, n, &span);
    /* ns-cpu: the process's CPU time per call, every thread's. */
    double ns = strcmp(f->unit, "ns-cpu") == 0
                    ? (double)(cpu_ns() - cpu)
                    : (double)(span.end - span.begin);
    /* Bytes per ns are GB/s. */
    *value = f->work && f->work->bytes ? f->work->bytes * (double)n / ns
                                       : ns / (double)n;
    if (strcmp(f->unit, "us") == 0)
        *value /= 1e3;
    return err;
}

/** Measures one figure and prints its line. */
static void measure(const struct figure *f, const struct bench *b,
                    const struct options *o)
{
    long n = o->iters;
    cl_int err = f->work ? f->work->setup(b, f->work->units) : CL_SUCCESS;
    if (err == BENCH_NOT_HERE) {
        f->work->teardown();
        return;
    }
    if (err == CL_SUCCESS && figure_loop(f) && !n)
        err = calibrate(figure_loop(f), b, o->ms, &n);
    int count = f->child ? o->spawns : o->runs;
    double *samples = calloc((size_t)count, sizeof(*samples));
    if (!samples)
        err = CL_OUT_OF_HOST_MEMORY;
    for (int i = 0; i < count && err == CL_SUCCESS; i++)
        err = sample(f, b, n, &samples[i]);
    if (err == CL_SUCCESS) {
        struct stats s = bench_summarize(samples, count);
        printf("%-26s %12.2f %10.2f  %s\n", f->name, s.median, s.iqr,
               f->unit);
    } else {
        printf("%-26s unsupported (%s)\n", f->name, error_name(err));
    }
    fflush(stdout);
    free(samples);
    if (f->work)
        f->work->teardown();
}

/* ---- setup ---- */

static cl_int bench_open(struct bench *b, char *name, size_t size)
{
    cl_int err = clGetPlatformIDs(1, &b->platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetPlatformInfo(b->platform, CL_PLATFORM_VERSION, size, name,
                                NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(b->platform, CL_DEVICE_TYPE_ALL, 1, &b->device,
                             NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(b->device, CL_DEVICE_MAX_COMPUTE_UNITS,
                              sizeof(b->units), &b->units, NULL);
    if (err == CL_SUCCESS)
        b->context = clCreateContext(NULL, 1, &b->device, NULL, NULL, &err);
    return err;
}

static int child_main(const char *name, const char *t0_arg)
{
    uint64_t t0 = strtoull(t0_arg, NULL, 10);
    for (size_t i = 0; i < FIGURE_COUNT; i++) {
        if (!figures[i].child || strcmp(figures[i].name, name) != 0)
            continue;
        double value = 0;
        cl_int err = figures[i].child(t0, &value);
        if (err == CL_SUCCESS)
            printf("%.17g\n", value);
        else
            printf("error %d\n", err);
        return 0;
    }
    return 2;
}

static int usage(void)
{
    fprintf(stderr, "usage: refcl_bench [--runs N] [--spawns N] [--ms M] "
                    "[--iters N] [--only PREFIX]\n");
    return 2;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){11, 40, 20.0, 0, ""};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[++i] : NULL;
        if (!value)
            return -1;
        if (strcmp(arg, "--runs") == 0)
            o->runs = atoi(value);
        else if (strcmp(arg, "--spawns") == 0)
            o->spawns = atoi(value);
        else if (strcmp(arg, "--ms") == 0)
            o->ms = atof(value);
        else if (strcmp(arg, "--iters") == 0)
            o->iters = atol(value);
        else if (strcmp(arg, "--only") == 0)
            o->only = value;
        else
            return -1;
    }
    return o->runs > 0 && o->spawns > 0 && o->iters >= 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--child") == 0)
        return child_main(argv[2], argv[3]);
    struct options o;
    if (parse_options(argc, argv, &o) != 0)
        return usage();

    struct bench b;
    char version[256] = "";
    cl_int err = bench_open(&b, version, sizeof(version));
    if (err != CL_SUCCESS) {
        fprintf(stderr, "refcl_bench: no platform with a device (%s)\n",
                error_name(err));
        return 1;
    }
    printf("# platform: %s; device: %u compute units; %ld CPUs online\n",
           version, b.units, sysconf(_SC_NPROCESSORS_ONLN));
    printf("# figure median iqr unit (over %d fresh processes or %d runs)\n",
           o.spawns, o.runs);
    for (size_t i = 0; i < FIGURE_COUNT; i++)
        if (strncmp(figures[i].name, o.only, strlen(o.only)) == 0)
            measure(&figures[i], &b, &o);
    return 0;
}
