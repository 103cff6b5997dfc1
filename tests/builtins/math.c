/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/math: refcl-builtins.bc's math, common and geometric functions,
 * float and double, at every width, against the host's long double libm
 * with the OpenCL C specification's ULP limits (full profile). math.cl,
 * compiled like a kernel with the library linked in, is loaded with
 * dlopen and called directly: no runtime in between.
 *
 * Inputs: every pair of edge values (+-0, denormals, the extremes, +-inf,
 * NaN, halves that round either way), then random values over the whole
 * exponent range.
 */
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"

_Atomic int test_failures;

/* A multiple of every width, 3 included. */
#define COUNT 960
#define NO_BOUND (-1.0)

typedef void float_fn(const float *, const float *, const float *, float *,
                      int);
typedef void double_fn(const double *, const double *, const double *,
                       double *, int);
typedef long double reference(long double, long double, long double);

static void *program;
static const int widths[] = {1, 2, 3, 4, 8, 16};

static long double ref_rsqrt(long double x) { return 1 / sqrtl(x); }
static long double ref_exp10(long double x) { return powl(10, x); }
static long double ref_atan2pi(long double y, long double x)
{
    return atan2l(y, x) / M_PIl;
}
static long double ref_ldexp_up(long double x) { return ldexpl(x, 3); }
static long double ref_ldexp_down(long double x) { return ldexpl(x, -140); }
static double ldexp_down(double x) { return ldexp(x, -140); }
static double fdim_of(double x, double y, double z)
{
    (void)z;
    return fdim(x, y);
}
static long double ref_modf_fraction(long double x)
{
    long double integral;
    return modfl(x, &integral);
}
static long double ref_modf_integral(long double x)
{
    long double integral;
    modfl(x, &integral);
    return integral;
}
static long double ref_sign(long double x)
{
    return x > 0 ? 1 : x < 0 ? -1 : x == x ? x : 0;
}
static long double ref_degrees(long double x) { return x * 180 / M_PIl; }
static long double ref_radians(long double x) { return x * M_PIl / 180; }
static long double ref_min(long double x, long double y)
{
    return y < x ? y : x;
}
static long double ref_max(long double x, long double y)
{
    return x < y ? y : x;
}
static long double ref_step(long double edge, long double x)
{
    return x < edge ? 0 : 1;
}
static long double ref_clamp(long double x, long double lo, long double hi)
{
    return fminl(fmaxl(x, lo), hi);
}
static long double ref_mix(long double x, long double y, long double a)
{
    return x + (y - x) * a;
}
static long double ref_smoothstep(long double e0, long double e1,
                                  long double x)
{
    long double t = ref_clamp((x - e0) / (e1 - e0), 0, 1);
    return t * t * (3 - 2 * t);
}

/* Which inputs a function is defined for (the others are skipped). */
enum domain { ANY, NOT_NAN, CLAMP, MIX, SMOOTHSTEP, SMALL };

struct function {
    const char *name;
    int arity;
    void *ref;           /* reference of @arity long doubles */
    double ulp_float;    /* the spec's bound; 0: exact; NO_BOUND: see mad */
    double ulp_double;
    enum domain domain;
    bool float_only;
    bool any_zero_sign;  /* the result's zero may have either sign */
    /* For double, where rounding the long double reference again would
     * round twice: the host's correctly rounded double function. */
    void *double_ref;
};

#define R1(f) ((void *)(long double (*)(long double))(f))
#define R2(f) ((void *)(long double (*)(long double, long double))(f))
#define R3(f) ((void *)(reference *)(f))

static const struct function functions[] = {
    {"fabs", 1, R1(fabsl), 0, 0, ANY, false, false, NULL},
    {"sqrt", 1, R1(sqrtl), 0, 0, ANY, false, false, (void *)sqrt}, /* correctly rounded */
    {"floor", 1, R1(floorl), 0, 0, ANY, false, false, NULL},
    {"ceil", 1, R1(ceill), 0, 0, ANY, false, false, NULL},
    {"trunc", 1, R1(truncl), 0, 0, ANY, false, false, NULL},
    {"round", 1, R1(roundl), 0, 0, ANY, false, false, NULL},
    {"rint", 1, R1(rintl), 0, 0, ANY, false, false, NULL},
    {"exp", 1, R1(expl), 3, 3, ANY, false, false, NULL},
    {"exp2", 1, R1(exp2l), 3, 3, ANY, false, false, NULL},
    {"log", 1, R1(logl), 3, 3, ANY, false, false, NULL},
    {"log2", 1, R1(log2l), 3, 3, ANY, false, false, NULL},
    {"log10", 1, R1(log10l), 3, 3, ANY, false, false, NULL},
    {"sin", 1, R1(sinl), 4, 4, ANY, false, false, NULL},
    {"cos", 1, R1(cosl), 4, 4, ANY, false, false, NULL},
    {"tan", 1, R1(tanl), 5, 5, ANY, false, false, NULL},
    {"atan", 1, R1(atanl), 5, 5, ANY, false, false, NULL},
    {"tanh", 1, R1(tanhl), 5, 5, ANY, false, false, NULL},
    {"rsqrt", 1, R1(ref_rsqrt), 2, 2, ANY, false, false, NULL},
    {"sign", 1, R1(ref_sign), 0, 0, ANY, false, false, NULL},
    {"degrees", 1, R1(ref_degrees), 2, 2, ANY, false, false, NULL},
    {"radians", 1, R1(ref_radians), 2, 2, ANY, false, false, NULL},
    {"acos", 1, R1(acosl), 4, 4, ANY, false, false, NULL},
    {"asin", 1, R1(asinl), 4, 4, ANY, false, false, NULL},
    {"acosh", 1, R1(acoshl), 4, 4, ANY, false, false, NULL},
    {"asinh", 1, R1(asinhl), 4, 4, ANY, false, false, NULL},
    {"atanh", 1, R1(atanhl), 5, 5, ANY, false, false, NULL},
    {"cosh", 1, R1(coshl), 4, 4, ANY, false, false, NULL},
    {"sinh", 1, R1(sinhl), 4, 4, ANY, false, false, NULL},
    {"erf", 1, R1(erfl), 16, 16, ANY, false, false, NULL},
    {"erfc", 1, R1(erfcl), 16, 16, ANY, false, false, NULL},
    {"exp10", 1, R1(ref_exp10), 3, 3, ANY, false, false, NULL},
    {"expm1", 1, R1(expm1l), 3, 3, ANY, false, false, NULL},
    {"log1p", 1, R1(log1pl), 2, 2, ANY, false, false, NULL},
    {"tgamma", 1, R1(tgammal), 16, 16, ANY, false, false, NULL},
    {"hypot", 2, R2(hypotl), 4, 4, ANY, false, false, NULL},
    {"fmod", 2, R2(fmodl), 0, 0, ANY, false, false, NULL},
    {"remainder", 2, R2(remainderl), 0, 0, ANY, false, false, NULL},
    {"fdim", 2, R2(fdiml), 0, 0, ANY, false, false, (void *)fdim_of},
    {"atan2pi", 2, R2(ref_atan2pi), 6, 6, ANY, false, false, NULL},
    {"ldexp_up", 1, R1(ref_ldexp_up), 0, 0, ANY, false, false, NULL},
    {"ldexp_down", 1, R1(ref_ldexp_down), 0, 0, ANY, false, false, (void *)ldexp_down},
    {"sincos_sin", 1, R1(sinl), 4, 4, ANY, false, false, NULL},
    {"sincos_cos", 1, R1(cosl), 4, 4, ANY, false, false, NULL},
    {"modf_fraction", 1, R1(ref_modf_fraction), 0, 0, ANY, false, false, NULL},
    {"modf_integral", 1, R1(ref_modf_integral), 0, 0, ANY, false, false, NULL},
    {"pow", 2, R2(powl), 16, 16, ANY, false, false, NULL},
    {"atan2", 2, R2(atan2l), 6, 6, ANY, false, false, NULL},
    {"copysign", 2, R2(copysignl), 0, 0, ANY, false, false, NULL},
    {"fmin", 2, R2(fminl), 0, 0, ANY, false, true, NULL},
    {"fmax", 2, R2(fmaxl), 0, 0, ANY, false, true, NULL},
    {"min", 2, R2(ref_min), 0, 0, NOT_NAN, false, true, NULL},
    {"max", 2, R2(ref_max), 0, 0, NOT_NAN, false, true, NULL},
    {"step", 2, R2(ref_step), 0, 0, NOT_NAN, false, false, NULL},
    {"fma", 3, R3(fmal), 0, 0, ANY, false, false, (void *)fma},
    {"mad", 3, R3(fmal), NO_BOUND, NO_BOUND, ANY, false, false, NULL},
    {"clamp", 3, R3(ref_clamp), 0, 0, CLAMP, false, true, NULL},
    {"mix", 3, R3(ref_mix), NO_BOUND, NO_BOUND, MIX, false, false, NULL},
    {"smoothstep", 3, R3(ref_smoothstep), 16, 16, SMOOTHSTEP, false, false, NULL},
    /* Implementation-defined bounds: refcl's are the full functions'. */
    {"native_sin", 1, R1(sinl), 4, 0, SMALL, true, false, NULL},
    {"native_exp", 1, R1(expl), 3, 0, SMALL, true, false, NULL},
    {"native_sqrt", 1, R1(sqrtl), 0, 0, SMALL, true, false, NULL},
    {"native_recip", 1, R1(ref_rsqrt), NO_BOUND, 0, SMALL, true, false, NULL},
    {"half_log", 1, R1(logl), 8192, 0, SMALL, true, false, NULL},
    {"half_cos", 1, R1(cosl), 8192, 0, SMALL, true, false, NULL},
};

static const double float_edges[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 3.5, 0x1p-149, -0x1p-149,
    FLT_MIN, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, 1e-3, 100.0,
    3.14159265, -7.25, 1e10, -1e-10, 0.1, 89.5};
static const double double_edges[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 3.5, 0x1p-1074, -0x1p-1074,
    DBL_MIN, DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN, 1e-3, 100.0,
    3.141592653589793, -7.25, 1e300, -1e-300, 0.1, 709.5};
#define EDGES (sizeof(float_edges) / sizeof(float_edges[0]))

/* Random: half over the whole exponent range, half in [-10, 10]. */
static double random_value(int max_exponent)
{
    double unit = (double)rand() / RAND_MAX;
    double sign = rand() & 1 ? -1.0 : 1.0;
    if (rand() & 1)
        return sign * unit * 10;
    return sign * ldexp(0.5 + unit / 2, rand() % (2 * max_exponent) -
                                            max_exponent);
}

/* Inputs a, b, c: every pair of edges in (a, b), c from the edges too,
 * then random values. */
static void fill(double *a, double *b, double *c, const double *edges,
                 int max_exponent)
{
    for (int i = 0; i < COUNT; i++) {
        if ((size_t)i < EDGES * EDGES) {
            a[i] = edges[i % EDGES];
            b[i] = edges[(i / EDGES) % EDGES];
            c[i] = edges[(i * 7) % EDGES];
        } else {
            a[i] = random_value(max_exponent);
            b[i] = random_value(max_exponent);
            c[i] = random_value(max_exponent);
        }
    }
}

static bool in_domain(enum domain domain, long double a, long double b,
                      long double c)
{
    switch (domain) {
    case ANY:
        return true;
    case NOT_NAN:
        return !isnan(a) && !isnan(b);
    case CLAMP:
        return !isnan(a) && !isnan(b) && !isnan(c) && b <= c;
    case MIX:
        return isfinite(a) && isfinite(b) && fabsl(a) < 1e30L &&
               fabsl(b) < 1e30L && c >= 0 && c <= 1;
    case SMOOTHSTEP:
        return isfinite(a) && isfinite(b) && isfinite(c) && a < b &&
               b - a > 1e-10L && fabsl(a) < 1e30L && fabsl(b) < 1e30L;
    case SMALL:
        return isfinite(a) && fabsl(a) < 1000 && fabsl(a) > 1e-30L;
    }
    return false;
}

/* |result - exact| in units of the last place of the type with @mantissa
 * bits and smallest exponent @min_exponent (denormals' ulp below it). */
static double ulps(long double result, long double exact, int mantissa,
                   int min_exponent)
{
    int exponent;
    frexpl(exact, &exponent);
    if (exponent < min_exponent)
        exponent = min_exponent;
    long double unit = ldexpl(1, exponent - mantissa);
    return (double)(fabsl(result - exact) / unit);
}

/* Does @result meet @bound against @exact, the type's rounding of which
 * is @rounded? Special values (NaN, inf, exact results) must match. */
static bool accurate(const struct function *f, long double result,
                     long double exact, long double rounded, double bound,
                     int mantissa, int min_exponent)
{
    if (isnan(exact))
        return isnan(result);
    if (bound == 0)
        return result == rounded &&
               (f->any_zero_sign || signbit(result) == signbit(rounded));
    if (isinf(rounded) || isinf(result))
        return result == rounded;
    return ulps(result, exact, mantissa, min_exponent) <= bound;
}

static long double evaluate(const struct function *f, long double a,
                            long double b, long double c)
{
    switch (f->arity) {
    case 1:
        return ((long double (*)(long double))f->ref)(a);
    case 2:
        return ((long double (*)(long double, long double))f->ref)(a, b);
    default:
        return ((reference *)f->ref)(a, b, c);
    }
}

static void *symbol(const char *name, const char *type, int width)
{
    char full[64];
    snprintf(full, sizeof(full), "%s_%s%d", name, type, width);
    void *fn = dlsym(program, full);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", full);
        test_failures++;
    }
    return fn;
}

/* The functions the spec defines by their formula, without a bound (mad:
 * "any value allowed", not a licence to return garbage; mix; native_recip):
 * the formula in the type's precision, rounded once or at every step. */
static bool formula_ok(const struct function *f, long double r,
                       long double a, long double b, long double c,
                       bool is_float)
{
    long double fused, twice;
    if (!strcmp(f->name, "native_recip")) {
        fused = twice = is_float ? 1 / (float)a : 1 / (double)a;
    } else if (!strcmp(f->name, "mix")) {
        long double d = is_float ? (float)(b - a) : (double)(b - a);
        fused = is_float ? fmaf((float)d, (float)c, (float)a)
                         : fma((double)d, (double)c, (double)a);
        twice = is_float ? (float)((float)d * (float)c) + (float)a
                         : (double)((double)d * (double)c) + (double)a;
    } else {
        fused = is_float ? fmaf((float)a, (float)b, (float)c)
                         : fma((double)a, (double)b, (double)c);
        twice = is_float ? (float)((float)a * (float)b) + (float)c
                         : (double)a * (double)b + (double)c;
    }
    return (isnan(r) && (isnan(fused) || isnan(twice))) || r == fused ||
           r == twice;
}

static void report(const char *name, const char *type, int width, int i,
                   long double a, long double b, long double c,
                   long double r, long double exact)
{
    fprintf(stderr, "%s_%s%d[%d](%La, %La, %La) = %La, expected %La\n",
            name, type, width, i, a, b, c, r, exact);
    test_failures++;
}

static void check_float(const struct function *f, int width,
                        const float *a, const float *b, const float *c)
{
    float_fn *fn = (float_fn *)symbol(f->name, "float", width);
    float r[COUNT];
    if (!fn)
        return;
    fn(a, b, c, r, COUNT);
    int failures = 0;
    for (int i = 0; i < COUNT && failures < 5; i++) {
        if (!in_domain(f->domain, a[i], b[i], c[i]))
            continue;
        long double exact = evaluate(f, a[i], b[i], c[i]);
        bool ok = f->ulp_float == NO_BOUND
                      ? formula_ok(f, r[i], a[i], b[i], c[i], true)
                      : accurate(f, r[i], exact, (float)exact, f->ulp_float,
                                 FLT_MANT_DIG - 1, FLT_MIN_EXP - 1);
        if (!ok) {
            report(f->name, "float", width, i, a[i], b[i], c[i], r[i],
                   exact);
            failures++;
        }
    }
}

static void check_double(const struct function *f, int width,
                         const double *a, const double *b, const double *c)
{
    double_fn *fn = (double_fn *)symbol(f->name, "double", width);
    double r[COUNT];
    if (!fn)
        return;
    fn(a, b, c, r, COUNT);
    int failures = 0;
    for (int i = 0; i < COUNT && failures < 5; i++) {
        if (!in_domain(f->domain, a[i], b[i], c[i]))
            continue;
        long double exact = evaluate(f, a[i], b[i], c[i]);
        if (f->double_ref)
            exact = f->arity == 1 ? ((double (*)(double))f->double_ref)(a[i])
                                  : ((double (*)(double, double, double))
                                         f->double_ref)(a[i], b[i], c[i]);
        bool ok = f->ulp_double == NO_BOUND
                      ? formula_ok(f, r[i], a[i], b[i], c[i], false)
                      : accurate(f, r[i], exact, (double)exact, f->ulp_double,
                                 DBL_MANT_DIG - 1, DBL_MIN_EXP - 1);
        if (!ok) {
            report(f->name, "double", width, i, a[i], b[i], c[i], r[i],
                   exact);
            failures++;
        }
    }
}

static void check_functions(void)
{
    static double a[COUNT], b[COUNT], c[COUNT];
    static float fa[COUNT], fb[COUNT], fc[COUNT];
    fill(a, b, c, float_edges, 126);
    for (int i = 0; i < COUNT; i++) {
        fa[i] = (float)a[i];
        fb[i] = (float)b[i];
        fc[i] = (float)c[i];
    }
    for (size_t f = 0; f < sizeof(functions) / sizeof(functions[0]); f++)
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
            check_float(&functions[f], widths[w], fa, fb, fc);
    fill(a, b, c, double_edges, 1022);
    for (size_t f = 0; f < sizeof(functions) / sizeof(functions[0]); f++)
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
            if (!functions[f].float_only)
                check_double(&functions[f], widths[w], a, b, c);
}

/* ---- geometric: finite inputs, the extremes included ---- */

static long double dot_of(const double *p, const double *q, int n,
                          long double *magnitude)
{
    long double sum = 0;
    *magnitude = 0;
    for (int k = 0; k < n; k++) {
        sum += (long double)p[k] * q[k];
        *magnitude += fabsl((long double)p[k] * q[k]);
    }
    return sum;
}

static long double length_of(const double *p, int n)
{
    long double magnitude;
    return sqrtl(dot_of(p, p, n, &magnitude));
}

/* The geometric functions of one width on @p a, @p b (as float or
 * double); length within 4 ulp, normalize's components within 4
 * epsilons, dot within n epsilons of the sum of magnitudes. */
static void check_geometric(const char *type, int n, const double *a,
                            const double *b)
{
    bool is_float = type[0] == 'f';
    long double eps = is_float ? FLT_EPSILON : DBL_EPSILON;
    int mantissa = is_float ? FLT_MANT_DIG - 1 : DBL_MANT_DIG - 1;
    int min_exponent = is_float ? FLT_MIN_EXP - 1 : DBL_MIN_EXP - 1;
    long double tiny = is_float ? 0x1p-149L : 0x1p-1074L;
    double r[COUNT], diff[16];
    const char *names[] = {"dot", "length", "distance", "normalize"};
    for (int f = 0; f < 4; f++) {
        void *fn = symbol(names[f], type, n);
        if (!fn)
            continue;
        if (is_float) {
            float fa[COUNT], fb[COUNT], fr[COUNT];
            for (int i = 0; i < COUNT; i++) {
                fa[i] = (float)a[i];
                fb[i] = (float)b[i];
            }
            ((float_fn *)fn)(fa, fb, fb, fr, COUNT);
            for (int i = 0; i < COUNT; i++)
                r[i] = fr[i];
        } else {
            ((double_fn *)fn)(a, b, b, r, COUNT);
        }
        int failures = 0;
        for (int v = 0; v < COUNT / n && failures < 5; v++) {
            const double *p = a + v * n, *q = b + v * n;
            long double magnitude, exact;
            bool ok;
            switch (f) {
            case 0:
                /* A product that overflows may make the sum inf or NaN. */
                exact = dot_of(p, q, n, &magnitude);
                ok = magnitude > (is_float ? FLT_MAX : DBL_MAX) / 2 ||
                     fabsl(r[v] - exact) <= n * (eps * magnitude + tiny);
                break;
            case 1:
            case 2:
                for (int k = 0; k < n; k++)
                    diff[k] = f == 1 ? p[k] : is_float
                                                  ? (float)p[k] - (float)q[k]
                                                  : p[k] - q[k];
                exact = length_of(diff, n);
                ok = ulps(r[v], exact, mantissa, min_exponent) <= 4;
                break;
            default:
                exact = length_of(p, n);
                ok = true;
                for (int k = 0; k < n; k++) {
                    long double want = exact ? p[k] / exact : p[k];
                    ok &= fabsl(r[v * n + k] - want) <= 4 * eps;
                }
            }
            if (!ok) {
                report(names[f], type, n, v, p[0], q[0], 0, r[v], exact);
                failures++;
            }
        }
    }
}

static void check_geometrics(void)
{
    static double a[COUNT], b[COUNT];
    static const struct {
        const char *type;
        double big, tiny;
        int exponents;
    } types[] = {{"float", FLT_MAX, 0x1p-149, 60},
                 {"double", DBL_MAX, 0x1p-1074, 500}};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < COUNT; i++) {
            a[i] = random_value(types[t].exponents);
            b[i] = random_value(types[t].exponents);
        }
        /* Sums of squares that overflow and that underflow. */
        a[0] = a[1] = a[2] = a[3] = types[t].big / 2;
        a[48] = a[49] = a[50] = a[51] = types[t].tiny * 3;
        a[96] = a[97] = a[98] = a[99] = 0;
        for (int i = 0; t == 0 && i < COUNT; i++) {
            a[i] = (float)a[i];
            b[i] = (float)b[i];
        }
        for (int n = 1; n <= 4; n++)
            check_geometric(types[t].type, n, a, b);
    }
    float p[6] = {1, 2, 3, 4, 5, 6}, r[3];
    float_fn *cross = (float_fn *)dlsym(program, "cross_float3");
    CHECK(cross != NULL);
    if (cross) {
        cross(p, p + 3, p, r, 3);
        CHECK(r[0] == -3 && r[1] == 6 && r[2] == -3);
    }
    double d[8] = {1, 2, 3, 9, 4, 5, 6, 9}, dr[4];
    double_fn *cross4 = (double_fn *)dlsym(program, "cross_double4");
    CHECK(cross4 != NULL);
    if (cross4) {
        cross4(d, d + 4, d, dr, 4);
        CHECK(dr[0] == -3 && dr[1] == 6 && dr[2] == -3 && dr[3] == 0);
    }
}

/* The references need x87 long double's 64-bit mantissa; valgrind runs
 * long double arithmetic in double precision (and 1/0.0L is not inf). */
static bool extended_long_double(void)
{
    volatile long double one = 1, tiny = 0x1p-63L, zero = 0;
    return one + tiny != one && isinf(one / zero);
}

int main(void)
{
    if (!extended_long_double()) {
        fprintf(stderr, "long double is not extended precision here "
                        "(valgrind?): no reference to check against\n");
        return TEST_SKIP;
    }
    program = dlopen(BUILTINS_TEST_PROGRAM, RTLD_NOW | RTLD_LOCAL);
    if (!program) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    srand(1);
    check_functions();
    check_geometrics();
    dlclose(program);
    return TEST_RESULT();
}
