/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What refcl_bench's figures share (bench/refcl_bench.c), and the figures
 * that need things made first: memory objects (bench/memory.c), work on
 * the device (bench/work.c: native kernels, a saxpy through the ICD next
 * to a plain C loop), command-queues (bench/queues.c), images
 * (bench/images.c).
 */
#ifndef REFCL_BENCH_H
#define REFCL_BENCH_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

/** What every loop runs against: the first platform, its first device and
 *  a context on it. */
struct bench {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_uint units; /* CL_DEVICE_MAX_COMPUTE_UNITS: EQUALLY 1 makes this many */
};

/** Makes @p n calls of the API function a figure measures; the first
 *  error, else CL_SUCCESS. Must be safe to run from several threads. */
typedef cl_int (*loop_fn)(const struct bench *b, long n);

/** Not a CL error: the figure does not apply here (more compute units
 *  than the device has); it prints nothing. */
#define BENCH_NOT_HERE (-100001)

/** A figure that needs things made first (a queue, buffers, threads). */
struct work {
    /** Makes them for @p units compute units (0: the whole device; for
     *  the C loops, threads, -1 one per CPU). */
    cl_int (*setup)(const struct bench *b, int units);
    loop_fn loop;      /**< one call: one command, completed */
    void (*teardown)(void);
    int units;
    /** Bytes one call moves: the figure is in GB/s; 0: ns per call. */
    double bytes;
};

/** A figure's kernel from OpenCL C, in a context and queue of its own
 *  (bench/kernel.c). */
struct bench_kernel {
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel;
};

/** Makes @p k: kernel @p name of @p source built with @p options on the
 *  bench's device (without @p source, the context and queue only); the
 *  first error, else CL_SUCCESS. */
cl_int bench_kernel_build(const struct bench *b, const char *source,
                          const char *options, const char *name,
                          struct bench_kernel *k);
/** Releases what @p k holds (what was made of it) and clears it. */
void bench_kernel_release(struct bench_kernel *k);

/* One thread's share of some work: items [first, first + count). */
struct bench_slice {
    size_t first, count;
};

/* Cuts @p total items into @p threads slices (the last takes the rest)
 * and runs @p main on each, in a thread of its own when there are
 * several; CL_OUT_OF_RESOURCES if a thread could not start. */
cl_int bench_run_slices(int threads, size_t total, void *(*main)(void *));

/** Elements of the saxpy figures: 64 Mi floats. */
#define BENCH_SAXPY_N ((size_t)64 * 1024 * 1024)

/** The reduction figures: 16 Mi uints, or 64 Mi floats, summed in groups
 *  of 256. */
#define BENCH_REDUCE_N ((size_t)16 * 1024 * 1024)
#define BENCH_REDUCE_FLOAT_N ((size_t)64 * 1024 * 1024)
#define BENCH_REDUCE_GROUP ((size_t)256)

/* bench/memory.c */
extern const struct work bench_buffer_create;
extern const struct work bench_memcpy_64m;
extern const struct work bench_copy_buffer_64m;
extern const struct work bench_write_buffer_64m;
extern const struct work bench_read_buffer_64m;
extern const struct work bench_map_unmap_64m;
extern const struct work bench_write_buffer_4b;

/* bench/images.c */
extern const struct work bench_image_blur;
extern const struct work bench_buffer_blur;
extern const struct work bench_image_resample;
extern const struct work bench_copy_image_64m;
extern const struct work bench_map_unmap_image_64m;

/* bench/work.c */
extern const struct work bench_native_latency;
extern const struct work bench_saxpy_device;
extern const struct work bench_saxpy_c1;
extern const struct work bench_saxpy_c_all;
extern const struct work bench_saxpy_units[7]; /* 1, 2, 4, ... 64 units */
extern const struct work bench_saxpy_source;  /* from OpenCL C everywhere */
extern const struct work bench_reduce_source;
extern const struct work bench_reduce_float_tree;
extern const struct work bench_reduce_float_collective;
extern const struct work bench_reduce_c_all;
extern const struct work bench_build_uncached; /* saxpy, a new source */
extern const struct work bench_build_cached;   /* saxpy, built before */
extern const struct work bench_build_first_run; /* new saxpy, run once */
/* bench/builtins.c: sin, exp, pow, convert, atomic_add on 1 and on 64
 * counters, async_work_group_copy tiles, an update through __global and
 * through generic pointers, float4s gathered and kept across a barrier;
 * 16 Mi work-items each (4 Mi of float4s). */
#define BENCH_BUILTIN_FIGURES 11
extern const struct work bench_builtins[BENCH_BUILTIN_FIGURES];
extern const struct work bench_kernel_create;
extern const struct work bench_kernel_set_arg;

/* bench/compute.c: clpeak's float and float16 multiply-add chains, the
 * same FMAs in C on every CPU, a naive SGEMM, an n-body step. */
extern const struct work bench_mad_float;
extern const struct work bench_mad_float16;
extern const struct work bench_mad_half;
extern const struct work bench_fma_c_all;
extern const struct work bench_sgemm;
extern const struct work bench_nbody;
extern const struct work bench_conv;
extern const struct work bench_collatz;
extern const struct work bench_collatz_c_all;
extern const struct work bench_mandelbrot;

/* bench/queues.c */
extern const struct work bench_queues_one;
extern const struct work bench_queues_herd;

#endif /* REFCL_BENCH_H */
