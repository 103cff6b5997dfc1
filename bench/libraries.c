/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl_libraries: what two OpenCL libraries get out of whichever ICD the
 * loader is pointed at (OCL_ICD_VENDORS; the first platform, its first
 * device), next to OpenBLAS on as many threads as the device has compute
 * units (bench/README.md): CLBlast's SGEMM and DGEMM of 1024 and 2048, and
 * clFFT's single-precision complex transform of 2^20 points.
 *
 * Each figure's first call builds the library's kernels: it is timed alone
 * (the `-first` figures; clFFT's `-bake` is clfftBakePlan, which builds
 * them) and its result checked, against OpenBLAS's for the GEMMs, against
 * a DFT in double of a few bins and a round trip for the FFT. Then the
 * figure is timed over --runs calls, each enqueue to clFinish.
 *
 * Output, as refcl_bench's (bench/compare.sh reads both):
 *   <figure> <median> <iqr> <unit>
 *   <figure> unsupported (<the call that failed, what it returned>)
 *   <figure> wrong (<the largest error, where>)
 * and comment lines starting with '#'.
 *
 * Usage: refcl_libraries [--runs N] [--only PREFIX]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include "stats.h"

#include <CL/cl.h>
#include <cblas.h>
#include <clFFT.h>
#include <clblast_c.h>

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Timed calls per figure, at most. */
#define MAX_RUNS 100

struct options {
    int runs;
    const char *only;
};

/* What every figure runs on. */
struct device {
    cl_device_id id;
    cl_context context;
    cl_command_queue queue;
    cl_uint units;
};

/* Why a figure has no number: a call that failed (and what it returned),
 * or a result checked and found wrong. */
struct failure {
    const char *call; /* NULL: none */
    long code;
    bool wrong;
    char detail[96]; /* how wrong */
};

static bool failed(const struct failure *f)
{
    return f->call != NULL || f->wrong;
}

/* Records the first failure only: later ones follow from it. */
static void fail(struct failure *f, const char *call, long code)
{
    if (!failed(f)) {
        f->call = call;
        f->code = code;
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The figure's line: the median and spread of @p runs times in @p ms
 * (sorted here), or why there is none; with @p gflop, the rate too. */
static void print_figure(const char *name, const struct failure *f, double *ms, int runs,
                         double gflop)
{
    if (f->wrong) {
        printf("%-26s wrong (%s)\n", name, f->detail);
    } else if (failed(f)) {
        printf("%-26s unsupported (%s returned %ld)\n", name, f->call, f->code);
    } else {
        struct stats s = bench_summarize(ms, runs);
        printf("%-26s %12.2f %10.2f  ms\n", name, s.median, s.iqr);
        if (gflop > 0)
            printf("# %s: %.1f GFLOP/s\n", name, gflop / s.median * 1e3);
    }
    fflush(stdout);
}

/* Deterministic inputs in [-1, 1): the same matrices on every ICD. */
static double next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (double)(*state >> 11) / (double)(UINT64_C(1) << 52) - 1.0;
}

/* The end of check @p what of figure @p name: the largest error found,
 * in the @p at th @p unit. Within @p tolerance, a comment line says so;
 * else the figure is wrong. */
static void check_end(struct failure *f, const char *name, const char *what, const char *unit,
                      size_t at, double worst, double tolerance)
{
    if (worst <= tolerance) {
        printf("# %s: %s: largest error %.3g (%s %zu), tolerance %.3g\n", name, what, worst,
               unit, at, tolerance);
        return;
    }
    f->wrong = true;
    snprintf(f->detail, sizeof(f->detail), "%s: %s %zu off by %g, tolerance %g", what, unit,
             at, worst, tolerance);
}

/* Keeps the largest error so far and where it was; a NaN is the largest
 * of all: true once one is seen, and the check can stop. */
static bool keep_worst(double error, size_t i, double *worst, size_t *at)
{
    if (isnan(error) || error > *worst) {
        *worst = error;
        *at = i;
    }
    return isnan(error);
}

/* ---- GEMM: CLBlast on the device, OpenBLAS on the host ------------------- */

/* C = A B, all n x n, row-major. */
struct gemm {
    size_t n;
    bool dbl;     /* DGEMM, else SGEMM */
    size_t bytes; /* of one matrix */
    void *a, *b, *expected, *got;
    cl_mem a_mem, b_mem, c_mem;
};

static size_t gemm_elements(const struct gemm *g)
{
    return g->n * g->n;
}

static double gemm_at(const struct gemm *g, const void *m, size_t i)
{
    return g->dbl ? ((const double *)m)[i] : ((const float *)m)[i];
}

static void gemm_fill(const struct gemm *g, void *m, uint64_t seed)
{
    for (size_t i = 0; i < gemm_elements(g); i++) {
        double r = next_random(&seed);
        if (g->dbl)
            ((double *)m)[i] = r;
        else
            ((float *)m)[i] = (float)r;
    }
}

static void openblas_gemm(const struct gemm *g)
{
    const int n = (int)g->n;
    if (g->dbl)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, g->a, n, g->b, n,
                    0.0, g->expected, n);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, g->a, n, g->b,
                    n, 0.0f, g->expected, n);
}

static void clblast_gemm(struct gemm *g, struct device *d, struct failure *f)
{
    CLBlastStatusCode status;
    const size_t n = g->n;
    if (g->dbl)
        status = CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                              n, n, n, 1.0, g->a_mem, 0, n, g->b_mem, 0, n, 0.0, g->c_mem, 0,
                              n, &d->queue, NULL);
    else
        status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                              n, n, n, 1.0f, g->a_mem, 0, n, g->b_mem, 0, n, 0.0f, g->c_mem,
                              0, n, &d->queue, NULL);
    if (status != CLBlastSuccess)
        fail(f, g->dbl ? "CLBlastDgemm" : "CLBlastSgemm", status);
    cl_int err = clFinish(d->queue);
    if (err != CL_SUCCESS)
        fail(f, "clFinish", err);
}

/* A buffer of @p bytes, a copy of @p host if given. */
static cl_mem device_buffer(struct device *d, size_t bytes, const void *host, struct failure *f)
{
    cl_int err;
    cl_mem_flags flags = host ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE;
    cl_mem mem = clCreateBuffer(d->context, flags, bytes, (void *)host, &err);
    if (err != CL_SUCCESS)
        fail(f, "clCreateBuffer", err);
    return mem;
}

static void gemm_setup(struct gemm *g, struct device *d, struct failure *f)
{
    g->bytes = gemm_elements(g) * (g->dbl ? sizeof(double) : sizeof(float));
    g->a = malloc(g->bytes);
    g->b = malloc(g->bytes);
    g->expected = malloc(g->bytes);
    g->got = malloc(g->bytes);
    if (!g->a || !g->b || !g->expected || !g->got) {
        fail(f, "malloc", 0);
        return;
    }
    gemm_fill(g, g->a, 1);
    gemm_fill(g, g->b, 2);
    g->a_mem = device_buffer(d, g->bytes, g->a, f);
    g->b_mem = device_buffer(d, g->bytes, g->b, f);
    g->c_mem = device_buffer(d, g->bytes, NULL, f);
}

static void gemm_teardown(struct gemm *g)
{
    cl_mem mems[] = {g->a_mem, g->b_mem, g->c_mem};
    for (size_t i = 0; i < 3; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    free(g->a);
    free(g->b);
    free(g->expected);
    free(g->got);
}

/* The device's C against OpenBLAS's. Each element is a sum of n products
 * of numbers in [-1, 1), about sqrt(n / 9) in size, whose rounding errors
 * add up to a few times sqrt(n) epsilon: 4 n epsilon is several times the
 * largest error seen, and still catches a wrong element, which is off by
 * about 1. */
static void gemm_check(struct gemm *g, struct device *d, const char *name, struct failure *f)
{
    cl_int err = clEnqueueReadBuffer(d->queue, g->c_mem, CL_TRUE, 0, g->bytes, g->got, 0,
                                     NULL, NULL);
    if (err != CL_SUCCESS) {
        fail(f, "clEnqueueReadBuffer", err);
        return;
    }
    double tolerance = 4.0 * (double)g->n * (g->dbl ? DBL_EPSILON : FLT_EPSILON);
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < gemm_elements(g); i++)
        if (keep_worst(fabs(gemm_at(g, g->got, i) - gemm_at(g, g->expected, i)), i, &worst,
                       &at))
            break;
    check_end(f, name, "C against OpenBLAS's", "element", at, worst, tolerance);
}

static double gemm_gflop(const struct gemm *g)
{
    return 2.0 * (double)g->n * (double)g->n * (double)g->n / 1e9;
}

/* OpenBLAS's figure: a first call (its threads start), then the runs; its
 * result is the reference the device's is checked against. */
static void openblas_figure(struct gemm *g, const char *name, const struct options *o)
{
    struct failure none = {0};
    double ms[MAX_RUNS];
    openblas_gemm(g);
    for (int r = 0; r < o->runs; r++) {
        double start = now_ms();
        openblas_gemm(g);
        ms[r] = now_ms() - start;
    }
    print_figure(name, &none, ms, o->runs, gemm_gflop(g));
}

/* CLBlast's figures: the first call, built from nothing (CLBlast's own
 * cache of programs emptied; an ICD's cache of binaries still counts), its
 * result checked, then the runs. */
static void clblast_figures(struct gemm *g, struct device *d, const char *name,
                            struct failure *f, const struct options *o)
{
    char first_name[80]; /* the name, up to 63 characters, and "-first" */
    double ms[MAX_RUNS], first[1];
    snprintf(first_name, sizeof(first_name), "%s-first", name);
    CLBlastClearCache();
    double start = now_ms();
    clblast_gemm(g, d, f);
    first[0] = now_ms() - start;
    if (!failed(f))
        gemm_check(g, d, name, f);
    print_figure(first_name, f, first, 1, 0);
    for (int r = 0; r < o->runs && !failed(f); r++) {
        start = now_ms();
        clblast_gemm(g, d, f);
        ms[r] = now_ms() - start;
    }
    print_figure(name, f, ms, o->runs, gemm_gflop(g));
}

static bool wanted(const char *name, const struct options *o)
{
    return strncmp(name, o->only, strlen(o->only)) == 0;
}

static void gemm_figures(size_t n, bool dbl, struct device *d, const struct options *o)
{
    char clblast_name[64], openblas_name[64];
    const char *routine = dbl ? "dgemm" : "sgemm";
    snprintf(clblast_name, sizeof(clblast_name), "clblast.%s-%zu", routine, n);
    snprintf(openblas_name, sizeof(openblas_name), "openblas.%s-%zu", routine, n);
    if (!wanted(clblast_name, o) && !wanted(openblas_name, o))
        return;
    struct gemm g = {.n = n, .dbl = dbl};
    struct failure f = {0};
    gemm_setup(&g, d, &f);
    if (!failed(&f)) /* the reference, even when only CLBlast's figure is asked */
        openblas_figure(&g, openblas_name, o);
    if (wanted(clblast_name, o))
        clblast_figures(&g, d, clblast_name, &f, o);
    gemm_teardown(&g);
}

/* ---- FFT: clFFT's transform of 2^20 complex floats ----------------------- */

#define FFT_LOG2 20
#define FFT_POINTS ((size_t)1 << FFT_LOG2)
#define FFT_BYTES (FFT_POINTS * 2 * sizeof(float))
#define FFT_NAME "clfft.c2c-1m"

struct fft {
    clfftPlanHandle plan;
    float *x, *got; /* interleaved complex */
    cl_mem in, out, back;
};

static void fft_status(struct failure *f, const char *call, clfftStatus status)
{
    if (status != CLFFT_SUCCESS)
        fail(f, call, status);
}

/* clfftInitSetupData is an inline function of clFFT.h with no external
 * definition in C: a build without optimisation would not link. */
static void fft_library_setup(struct failure *f)
{
    clfftSetupData setup;
    memset(&setup, 0, sizeof(setup));
    setup.major = clfftVersionMajor;
    setup.minor = clfftVersionMinor;
    setup.patch = clfftVersionPatch;
    fft_status(f, "clfftSetup", clfftSetup(&setup));
}

/* Out of place: every run transforms the same input. */
static void fft_plan(struct fft *t, struct device *d, struct failure *f)
{
    size_t length = FFT_POINTS;
    fft_status(f, "clfftCreateDefaultPlan",
               clfftCreateDefaultPlan(&t->plan, d->context, CLFFT_1D, &length));
    if (failed(f))
        return;
    fft_status(f, "clfftSetPlanPrecision", clfftSetPlanPrecision(t->plan, CLFFT_SINGLE));
    fft_status(f, "clfftSetLayout",
               clfftSetLayout(t->plan, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED));
    fft_status(f, "clfftSetResultLocation", clfftSetResultLocation(t->plan, CLFFT_OUTOFPLACE));
}

static void fft_buffers(struct fft *t, struct device *d, struct failure *f)
{
    uint64_t seed = 3;
    t->x = malloc(FFT_BYTES);
    t->got = malloc(FFT_BYTES);
    if (!t->x || !t->got) {
        fail(f, "malloc", 0);
        return;
    }
    for (size_t i = 0; i < 2 * FFT_POINTS; i++)
        t->x[i] = (float)next_random(&seed);
    t->in = device_buffer(d, FFT_BYTES, t->x, f);
    t->out = device_buffer(d, FFT_BYTES, NULL, f);
    t->back = device_buffer(d, FFT_BYTES, NULL, f);
}

static void fft_run(struct fft *t, struct device *d, clfftDirection direction, cl_mem *in,
                    cl_mem *out, struct failure *f)
{
    fft_status(f, "clfftEnqueueTransform",
               clfftEnqueueTransform(t->plan, direction, 1, &d->queue, 0, NULL, NULL, in, out,
                                     NULL));
    cl_int err = clFinish(d->queue);
    if (err != CL_SUCCESS)
        fail(f, "clFinish", err);
}

static void fft_read(struct fft *t, struct device *d, cl_mem mem, struct failure *f)
{
    cl_int err = clEnqueueReadBuffer(d->queue, mem, CL_TRUE, 0, FFT_BYTES, t->got, 0, NULL,
                                     NULL);
    if (err != CL_SUCCESS)
        fail(f, "clEnqueueReadBuffer", err);
}

/* Bin @p k of the DFT of x, in double, the twiddles exact to the last
 * bit of a double: cos and sin of 2 pi (k n mod N) / N from a table. */
static void dft_bin(const struct fft *t, const double *cos_table, size_t k, double *re,
                    double *im)
{
    double sum_re = 0, sum_im = 0;
    for (size_t n = 0; n < FFT_POINTS; n++) {
        size_t j = k * n & (FFT_POINTS - 1);
        double c = cos_table[j], s = cos_table[(j + FFT_POINTS * 3 / 4) & (FFT_POINTS - 1)];
        double xr = t->x[2 * n], xi = t->x[2 * n + 1];
        /* x e^{-i theta} = (xr c + xi s) + i (xi c - xr s) */
        sum_re += xr * c + xi * s;
        sum_im += xi * c - xr * s;
    }
    *re = sum_re;
    *im = sum_im;
}

/* A few bins of the forward transform, against the DFT. Inputs in
 * [-1, 1): a bin is about sqrt(N) in size, and a float FFT's error grows
 * as epsilon log2(N) times that; 8 times that bound leaves a margin of
 * tens, and a wrong bin is off by about sqrt(N). */
static void fft_check_bins(struct fft *t, struct failure *f)
{
    static const size_t bins[] = {0, 1, 2, 3, 1000, FFT_POINTS / 2, 777777, FFT_POINTS - 1};
    double tolerance = 8.0 * FLT_EPSILON * FFT_LOG2 * sqrt((double)FFT_POINTS);
    double *cos_table = malloc(FFT_POINTS * sizeof(double));
    if (!cos_table) {
        fail(f, "malloc", 0);
        return;
    }
    /* cos(2 pi j / N); sin(2 pi j / N) is cos at j - N/4. */
    for (size_t j = 0; j < FFT_POINTS; j++)
        cos_table[j] = cos(2.0 * M_PI * (double)j / (double)FFT_POINTS);
    double worst = 0;
    size_t at = 0;
    for (size_t b = 0; b < sizeof(bins) / sizeof(bins[0]); b++) {
        double re, im;
        dft_bin(t, cos_table, bins[b], &re, &im);
        if (keep_worst(hypot(t->got[2 * bins[b]] - re, t->got[2 * bins[b] + 1] - im), bins[b],
                       &worst, &at))
            break;
    }
    free(cos_table);
    check_end(f, FFT_NAME, "bins against a DFT in double", "bin", at, worst, tolerance);
}

/* Backward after forward (clFFT scales it by 1/N) gives x back, each
 * number within a few epsilon log2(N). */
static void fft_check_round_trip(struct fft *t, struct failure *f)
{
    double tolerance = 8.0 * FLT_EPSILON * FFT_LOG2;
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < 2 * FFT_POINTS; i++)
        if (keep_worst(fabs((double)t->got[i] - t->x[i]), i, &worst, &at))
            break;
    check_end(f, FFT_NAME, "forward then backward against the input", "float", at, worst,
              tolerance);
}

static void fft_check(struct fft *t, struct device *d, struct failure *f)
{
    fft_read(t, d, t->out, f);
    if (!failed(f))
        fft_check_bins(t, f);
    if (!failed(f))
        fft_run(t, d, CLFFT_BACKWARD, &t->out, &t->back, f);
    if (!failed(f))
        fft_read(t, d, t->back, f);
    if (!failed(f))
        fft_check_round_trip(t, f);
}

static void fft_teardown(struct fft *t)
{
    cl_mem mems[] = {t->in, t->out, t->back};
    for (size_t i = 0; i < 3; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (t->plan)
        clfftDestroyPlan(&t->plan);
    clfftTeardown();
    free(t->x);
    free(t->got);
}

/* 5 N log2(N) flops, the FFT's customary count. */
static double fft_gflop(void)
{
    return 5.0 * (double)FFT_POINTS * FFT_LOG2 / 1e9;
}

/* The plan baked (clFFT builds its kernels there) and the first
 * transform, each timed; the transform's result checked. */
static void fft_first(struct fft *t, struct device *d, struct failure *f)
{
    double bake[1], first[1];
    double start = now_ms();
    if (!failed(f))
        fft_status(f, "clfftBakePlan", clfftBakePlan(t->plan, 1, &d->queue, NULL, NULL));
    bake[0] = now_ms() - start;
    print_figure(FFT_NAME "-bake", f, bake, 1, 0);
    start = now_ms();
    if (!failed(f))
        fft_run(t, d, CLFFT_FORWARD, &t->in, &t->out, f);
    first[0] = now_ms() - start;
    if (!failed(f))
        fft_check(t, d, f);
    print_figure(FFT_NAME "-first", f, first, 1, 0);
}

static void fft_figures(struct device *d, const struct options *o)
{
    if (!wanted(FFT_NAME, o))
        return;
    struct fft t = {0};
    struct failure f = {0};
    double ms[MAX_RUNS];
    fft_library_setup(&f);
    if (!failed(&f))
        fft_plan(&t, d, &f);
    fft_buffers(&t, d, &f);
    fft_first(&t, d, &f);
    for (int r = 0; r < o->runs && !failed(&f); r++) {
        double start = now_ms();
        fft_run(&t, d, CLFFT_FORWARD, &t.in, &t.out, &f);
        ms[r] = now_ms() - start;
    }
    print_figure(FFT_NAME, &f, ms, o->runs, fft_gflop());
    fft_teardown(&t);
}

/* ---- setup --------------------------------------------------------------- */

static cl_int device_open(struct device *d, char *platform, size_t platform_size, char *name,
                          size_t name_size)
{
    cl_platform_id p;
    cl_int err = clGetPlatformIDs(1, &p, NULL);
    if (err == CL_SUCCESS)
        err = clGetPlatformInfo(p, CL_PLATFORM_VERSION, platform_size, platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d->id, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(d->id, CL_DEVICE_NAME, name_size, name, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(d->units), &d->units,
                              NULL);
    if (err == CL_SUCCESS)
        d->context = clCreateContext(NULL, 1, &d->id, NULL, NULL, &err);
    /* In order, as CLBlast and clFFT expect of the queue they are given. */
    if (err == CL_SUCCESS)
        d->queue = clCreateCommandQueueWithProperties(d->context, d->id, NULL, &err);
    return err;
}

static void device_close(struct device *d)
{
    if (d->queue)
        clReleaseCommandQueue(d->queue);
    if (d->context)
        clReleaseContext(d->context);
}

static int parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){5, ""};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--runs") == 0)
            o->runs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0)
            o->only = argv[i + 1];
        else
            return -1;
    }
    return argc % 2 == 1 && o->runs > 0 && o->runs <= MAX_RUNS ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_options(argc, argv, &o) != 0) {
        fprintf(stderr, "usage: refcl_libraries [--runs N] [--only PREFIX]\n");
        return 2;
    }
    struct device d = {0};
    char platform[256] = "", name[256] = "";
    cl_int err = device_open(&d, platform, sizeof(platform), name, sizeof(name));
    if (err != CL_SUCCESS) {
        fprintf(stderr, "refcl_libraries: no platform with a device (CL error %d)\n", err);
        return 1;
    }
    /* The host reference on as many threads as the device has units. */
    openblas_set_num_threads((int)d.units);
    printf("# platform: %s; device: %s, %u compute units\n", platform, name, d.units);
    /* OpenBLAS picks its kernels by the CPU's model: one it does not know
     * gets old SSE kernels (core "Prescott"), a reference far below the
     * machine's (OPENBLAS_CORETYPE names the right ones, README). */
    printf("# OpenBLAS: %d threads, core %s\n", openblas_get_num_threads(),
           openblas_get_corename());
    printf("# figure median iqr unit (over %d runs after the first call)\n", o.runs);
    static const size_t sizes[] = {1024, 2048};
    for (int dbl = 0; dbl < 2; dbl++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            gemm_figures(sizes[s], dbl, &d, &o);
    fft_figures(&d, &o);
    device_close(&d);
    return 0;
}
