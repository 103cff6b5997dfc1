/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kernel/vector_math: sin, cos, exp, log and pow of float and double in
 * kernels whose work-item loop LLVM vectorizes — on x86-64 with glibc's
 * libmvec (compiler/driver.c's -fveclib) — and sinpi, cospi and exp10,
 * which the library builds on them, checked element by element against
 * long double libm with the spec's ULP limits (OpenCL C 3.0, 7.4, full
 * profile: sin, cos, sinpi, cospi 4, exp, exp10, log 3, pow 16), over edge
 * values (±0, denormals, ±inf, NaN, extremes, huge arguments) and 4 Ki
 * random ones. builtins/math checks the scalar functions; this checks the
 * code a vectorized kernel runs instead (libmvec's logf, 3.8 ulp, and its
 * double exp, 3.008 ulp at -0x1.31000000000d0p-6, fail here).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "exec.h"

_Atomic int test_failures;

#define N 4608 /* edge values, then random ones; a multiple of 256 */

#define KERNELS(T)                                                           \
    "kernel void sin_" #T "(global " #T " *x, global " #T " *y,"             \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = sin(x[i]); }\n" \
    "kernel void cos_" #T "(global " #T " *x, global " #T " *y,"             \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = cos(x[i]); }\n" \
    "kernel void exp_" #T "(global " #T " *x, global " #T " *y,"             \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = exp(x[i]); }\n" \
    "kernel void log_" #T "(global " #T " *x, global " #T " *y,"             \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = log(x[i]); }\n" \
    "kernel void pow_" #T "(global " #T " *x, global " #T " *y,"             \
    " global " #T " *r) { size_t i = get_global_id(0);"                      \
    " r[i] = pow(x[i], y[i]); }\n"                                           \
    "kernel void sinpi_" #T "(global " #T " *x, global " #T " *y,"           \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = sinpi(x[i]); }\n" \
    "kernel void cospi_" #T "(global " #T " *x, global " #T " *y,"           \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = cospi(x[i]); }\n" \
    "kernel void exp10_" #T "(global " #T " *x, global " #T " *y,"           \
    " global " #T " *r) { size_t i = get_global_id(0); r[i] = exp10(x[i]); }\n"

static const char float_source[] = KERNELS(float);
static const char double_source[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" KERNELS(double);

struct function {
    const char *name;
    long double (*reference)(long double x, long double y);
    double ulps;
};

/* A reference of one argument in the table's two-argument shape. */
#define UNARY_REFERENCE(name, libm)                                          \
    static long double name(long double x, long double y)                   \
    {                                                                        \
        (void)y;                                                             \
        return libm(x);                                                      \
    }
UNARY_REFERENCE(sin_ref, sinl)
UNARY_REFERENCE(cos_ref, cosl)
UNARY_REFERENCE(exp_ref, expl)
UNARY_REFERENCE(log_ref, logl)

/* sin(pi x): x reduced exactly modulo 2, then to d = x - k, k the nearest
 * integer (exact too), so that a result near 0 keeps its digits. */
static long double sinpi_ref(long double x, long double y)
{
    (void)y;
    if (isinf(x))
        return NAN;
    long double r = fmodl(x, 2), k = nearbyintl(r), s = sinl(M_PIl * (r - k));
    return fmodl(k, 2) != 0 ? -s : s;
}

/* cos(pi x) = sin(pi (x + 1/2)), the sum exact once x is reduced. */
static long double cospi_ref(long double x, long double y)
{
    return isinf(x) ? NAN : sinpi_ref(fmodl(x, 2) + 0.5L, y);
}

static long double exp10_ref(long double x, long double y)
{
    (void)y;
    return powl(10, x);
}

static const struct function functions[] = {
    {"sin", sin_ref, 4},     {"cos", cos_ref, 4},     {"exp", exp_ref, 3},
    {"log", log_ref, 3},     {"pow", powl, 16},       {"sinpi", sinpi_ref, 4},
    {"cospi", cospi_ref, 4}, {"exp10", exp10_ref, 3},
};

/* The arguments' and results' floating type. */
struct type {
    const char *name;
    size_t size;
    int digits, min_exponent; /* of the format: 24/-125, 53/-1021 */
    long double max;
};

static const struct type float_type = {"float", sizeof(float), FLT_MANT_DIG,
                                       FLT_MIN_EXP, FLT_MAX};
static const struct type double_type = {"double", sizeof(double),
                                        DBL_MANT_DIG, DBL_MIN_EXP, DBL_MAX};

/* ---- values -------------------------------------------------------------- */

static uint64_t random_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void) /* xorshift64 */
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return random_state;
}

static const long double edges[] = {
    0.0L, -0.0L, 1.0L, -1.0L, 0.5L, -0.5L, 2.0L, -2.0L, 3.0L, -3.0L, 10.0L,
    0x1p-149L, -0x1p-149L, 0x1p-130L, 0x1p-126L, 0x1p-1074L, 0x1p-1022L,
    0x1p-40L, 88.7L, 89.0L, -87.3L, -103.9L, -104.0L, 709.7L, -745.0L,
    1e6L, -1e6L, 1e22L, 1e30L, 0x1.fffffep127L, -0x1.fffffep127L,
    0x1.fffffffffffffp1023L, 0.9999999L, 1.0000001L, 0.89L, 3.14159265L,
    1.5707963267948966L, 7.0L / 3.0L,
    -0x1.31000000000d0p-6L, /* libmvec's double exp: 3.008 ulp */
    INFINITY, -INFINITY, NAN};
#define EDGES (sizeof(edges) / sizeof(edges[0]))

/* x and y for element @p i of @p t: every pair of edge values (x, y) for
 * the first EDGES^2, then random: raw bit patterns, [0, 10), near 1. */
static void arguments(const struct type *t, size_t i, long double *x,
                      long double *y)
{
    if (i < EDGES * EDGES) {
        *x = edges[i / EDGES];
        *y = edges[i % EDGES];
        return;
    }
    uint64_t bits = next_random();
    double unit = (double)(next_random() >> 11) * 0x1p-53;
    switch (i % 3) {
    case 0:
        if (t->size == sizeof(float)) {
            float f;
            uint32_t b = (uint32_t)bits;
            memcpy(&f, &b, sizeof(f));
            *x = f;
        } else {
            double d;
            memcpy(&d, &bits, sizeof(d));
            *x = d;
        }
        break;
    case 1:
        *x = 10 * unit;
        break;
    default:
        *x = 0.75 + unit / 2;
        break;
    }
    *y = (long double)((int64_t)(next_random() % 64) - 32) / 4;
}

/* ---- checking -------------------------------------------------------------- */

/* |got - want| in units of the last place of @p t at want. */
static long double ulp_error(const struct type *t, long double got,
                             long double want)
{
    int exponent;
    frexpl(want, &exponent);
    if (exponent < t->min_exponent)
        exponent = t->min_exponent; /* denormals: one fixed ulp */
    return fabsl(got - want) / ldexpl(1, exponent - t->digits);
}

/* @p got is @p want, @p ulps allowed: NaN for NaN, an infinity for a
 * result beyond the largest finite value. */
static bool within(const struct type *t, long double got, long double want,
                   double ulps)
{
    if (isnan(want))
        return isnan(got);
    if (fabsl(want) > t->max)
        return isinf(got) ? signbit(got) == signbit(want)
                          : ulp_error(t, got, copysignl(t->max, want)) <=
                                ulps;
    return !isnan(got) && !isinf(got) && ulp_error(t, got, want) <= ulps;
}

static long double element(const struct type *t, const void *array,
                           size_t i)
{
    return t->size == sizeof(float) ? ((const float *)array)[i]
                                    : ((const double *)array)[i];
}

static void store(const struct type *t, void *array, size_t i,
                  long double value)
{
    if (t->size == sizeof(float))
        ((float *)array)[i] = (float)value;
    else
        ((double *)array)[i] = (double)value;
}

/* One function over the N elements, every result checked. */
static void check_function(cl_program program, const struct type *t,
                           const struct function *f, cl_mem bx, cl_mem by,
                           const void *x, const void *y)
{
    char name[32];
    snprintf(name, sizeof(name), "%s_%s", f->name, t->name);
    cl_kernel kernel = exec_kernel(program, name);
    cl_mem br = exec_buffer(N * t->size, NULL);
    CHECK_EQ(clSetKernelArg(kernel, 0, sizeof(cl_mem), &bx), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 1, sizeof(cl_mem), &by), CL_SUCCESS);
    CHECK_EQ(clSetKernelArg(kernel, 2, sizeof(cl_mem), &br), CL_SUCCESS);
    size_t global = N, local = 256;
    CHECK_EQ(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                    0, NULL, NULL),
             CL_SUCCESS);
    void *r = malloc(N * t->size);
    exec_read(br, N * t->size, r);
    int wrong = 0;
    for (size_t i = 0; i < N; i++) {
        long double xi = element(t, x, i), yi = element(t, y, i);
        long double got = element(t, r, i), want = f->reference(xi, yi);
        if (!within(t, got, want, f->ulps) && wrong++ < 5)
            fprintf(stderr, "%s(%La, %La) = %La, want %La\n", name, xi, yi,
                    got, want);
    }
    CHECK_EQ(wrong, 0);
    free(r);
    CHECK_EQ(clReleaseMemObject(br), CL_SUCCESS);
    CHECK_EQ(clReleaseKernel(kernel), CL_SUCCESS);
}

static void check_type(const struct type *t, const char *source)
{
    void *x = malloc(N * t->size), *y = malloc(N * t->size);
    for (size_t i = 0; i < N; i++) {
        long double xi, yi;
        arguments(t, i, &xi, &yi);
        store(t, x, i, xi);
        store(t, y, i, yi);
    }
    cl_program program = exec_build(source, "");
    cl_mem bx = exec_buffer(N * t->size, x), by = exec_buffer(N * t->size, y);
    for (size_t i = 0; program && i < sizeof(functions) / sizeof(*functions);
         i++)
        check_function(program, t, &functions[i], bx, by, x, y);
    printf("%s: sin cos exp log pow sinpi cospi exp10, %d values each, "
           "within the spec's "
           "limits\n", t->name, N);
    CHECK_EQ(clReleaseMemObject(bx), CL_SUCCESS);
    CHECK_EQ(clReleaseMemObject(by), CL_SUCCESS);
    if (program)
        CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    free(x);
    free(y);
}

int main(void)
{
    if (!test_long_double_extended()) {
        fprintf(stderr, "long double is not extended precision here "
                        "(valgrind?): no reference to check against\n");
        return TEST_SKIP;
    }
    exec_setup();
    check_type(&float_type, float_source);
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp64), &fp64,
                    NULL);
    if (fp64)
        check_type(&double_type, double_source);
    exec_teardown();
    return test_failures ? 1 : 0;
}
