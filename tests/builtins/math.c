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
#include <limits.h>
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

/* The test program's to_int: saturated, NaN 0, toward zero. */
static int to_int(long double v)
{
    return isnan(v) ? 0 : v >= INT_MAX ? INT_MAX : v <= INT_MIN ? INT_MIN
                                                                 : (int)v;
}
static long double ref_pown(long double x, long double n)
{
    return powl(x, to_int(n));
}
/* "rootn(x, n) returns a NaN for x < 0 and n is even", "for n = 0". */
static long double ref_rootn(long double x, long double n)
{
    int k = to_int(n);
    if (k == 0 || (x < 0 && k % 2 == 0))
        return NAN;
    long double r = powl(fabsl(x), 1.0L / k);
    return k % 2 ? copysignl(r, x) : r;
}
/* FP_ILOGB0 is INT_MIN, FP_ILOGBNAN INT_MAX (opencl-c-base.h); "ilogb
 * (+-inf) returns INT_MAX". */
static long double ref_ilogb(long double x)
{
    return x == 0 ? INT_MIN : isnan(x) || isinf(x) ? INT_MAX : ilogbl(x);
}
static long double ref_nan(long double x)
{
    (void)x;
    return NAN;
}
static long double ref_frexp_mantissa(long double x)
{
    int e;
    return frexpl(x, &e);
}
static long double ref_frexp_exponent(long double x)
{
    int e;
    frexpl(x, &e);
    return isfinite(x) ? e : 0;
}
/* The quotient's low 7 bits (the spec's n >= 7): |x| reduced modulo
 * 128|y| (exactly), then the remainder of that, whose quotient (at most
 * 128) is exact in long double; signed as x/y. */
static long double ref_remquo_quotient(long double x, long double y)
{
    long double m = fabsl(y), reduced = fmodl(fabsl(x), 128 * m);
    int q = (int)((reduced - remainderl(reduced, m)) / m) & 127;
    return signbit(x) != signbit(y) ? -q : q;
}
/* Gamma's sign: + above 0, (-1)^ceil(-x) below (between the poles). */
static long double ref_lgamma_sign(long double x)
{
    return x > 0 || fmodl(floorl(x), 2) == 0 ? 1 : -1;
}
static long double ref_lgamma(long double x) { return lgammal(x); }
/* fract: "fmin(x - floor(x), 0x1.fffffep-1f)"; +-0 for +-inf, x itself
 * for +-0 and NaN. */
static long double fract_below(long double x, long double below_one)
{
    if (isnan(x) || x == 0)
        return x;
    if (isinf(x))
        return copysignl(0, x);
    return fminl(x - floorl(x), below_one);
}
static long double ref_fract(long double x)
{
    return fract_below(x, 0x1.fffffep-1L);
}
static double fract_double(double x)
{
    return (double)fract_below(x, 0x1.fffffffffffffp-1L);
}
static long double ref_maxmag(long double x, long double y)
{
    return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y);
}
static long double ref_minmag(long double x, long double y)
{
    return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y);
}
/* powr: pow of x >= 0 and NaN for the spec's list of edge cases. */
static long double ref_powr(long double x, long double y)
{
    if (x < 0 || isnan(x) || isnan(y) || (x == 0 && y == 0) ||
        (isinf(x) && y == 0) || (x == 1 && isinf(y)))
        return NAN;
    return powl(fabsl(x), y);
}
/* x - 2 rint(x/2), in [-1, 1], exact in long double. */
static long double half_turns(long double x) { return x - 2 * rintl(x / 2); }
/* "sinpi(+n) returns +0 ..., sinpi(-n) returns -0"; exact zeros. */
static long double ref_sinpi(long double x)
{
    long double r = half_turns(x);
    return r == rintl(r) ? copysignl(0, x) : sinl(M_PIl * r);
}
/* "cospi(n + 0.5) is +0". */
static long double ref_cospi(long double x)
{
    long double r = fabsl(half_turns(x));
    return r == 0.5L ? 0 : cosl(M_PIl * r);
}
static long double ref_tanpi(long double x)
{
    return ref_sinpi(x) / ref_cospi(x);
}
static long double ref_asinpi(long double x) { return asinl(x) / M_PIl; }
static long double ref_acospi(long double x) { return acosl(x) / M_PIl; }
static long double ref_atanpi(long double x) { return atanl(x) / M_PIl; }
static long double ref_nextafter_float(long double x, long double y)
{
    return nextafterf((float)x, (float)y);
}
static double nextafter_of(double x, double y, double z)
{
    (void)z;
    return nextafter(x, y);
}

/* Which inputs a function is defined for (the others are skipped). */
enum domain { ANY, NOT_NAN, CLAMP, MIX, SMOOTHSTEP, SMALL, POSITIVE,
              REMQUO, GAMMA_SIGN };

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
    {"cbrt", 1, R1(cbrtl), 2, 2, ANY, false, false, NULL},
    {"sinpi", 1, R1(ref_sinpi), 4, 4, ANY, false, false, NULL},
    {"cospi", 1, R1(ref_cospi), 4, 4, ANY, false, false, NULL},
    {"tanpi", 1, R1(ref_tanpi), 6, 6, ANY, false, false, NULL},
    {"asinpi", 1, R1(ref_asinpi), 5, 5, ANY, false, false, NULL},
    {"acospi", 1, R1(ref_acospi), 5, 5, ANY, false, false, NULL},
    {"atanpi", 1, R1(ref_atanpi), 5, 5, ANY, false, false, NULL},
    {"logb", 1, R1(logbl), 0, 0, ANY, false, false, NULL},
    {"nextafter", 2, R2(ref_nextafter_float), 0, 0, ANY, false, false, (void *)nextafter_of},
    {"maxmag", 2, R2(ref_maxmag), 0, 0, ANY, false, true, NULL},
    {"minmag", 2, R2(ref_minmag), 0, 0, ANY, false, true, NULL},
    {"powr", 2, R2(ref_powr), 16, 16, ANY, false, false, NULL},
    {"pown", 2, R2(ref_pown), 16, 16, ANY, false, false, NULL},
    {"rootn", 2, R2(ref_rootn), 16, 16, ANY, false, false, NULL},
    {"ilogb", 1, R1(ref_ilogb), 0, 0, ANY, false, false, NULL},
    {"nan", 1, R1(ref_nan), 0, 0, ANY, false, false, NULL},
    {"frexp_mantissa", 1, R1(ref_frexp_mantissa), 0, 0, ANY, false, false, NULL},
    {"frexp_exponent", 1, R1(ref_frexp_exponent), 0, 0, ANY, false, false, NULL},
    {"remquo_remainder", 2, R2(remainderl), 0, 0, ANY, false, false, NULL},
    {"remquo_quotient", 2, R2(ref_remquo_quotient), 0, 0, REMQUO, false, false, NULL},
    /* lgamma's bound is undefined: glibc's, away from its zeros. */
    {"lgamma", 1, R1(ref_lgamma), 16, 16, POSITIVE, false, false, NULL},
    {"lgamma_r_value", 1, R1(ref_lgamma), 16, 16, POSITIVE, false, false, NULL},
    {"lgamma_r_sign", 1, R1(ref_lgamma_sign), 0, 0, GAMMA_SIGN, false, false, NULL},
    {"fract_value", 1, R1(ref_fract), 0, 0, ANY, false, false, (void *)fract_double},
    {"fract_floor", 1, R1(floorl), 0, 0, ANY, false, false, NULL},
    {"native_sin", 1, R1(sinl), 4, 0, SMALL, true, false, NULL},
    {"native_exp", 1, R1(expl), 3, 0, SMALL, true, false, NULL},
    {"native_sqrt", 1, R1(sqrtl), 0, 0, SMALL, true, false, NULL},
    {"native_recip", 1, R1(ref_rsqrt), NO_BOUND, 0, SMALL, true, false, NULL},
    {"half_log", 1, R1(logl), 8192, 0, SMALL, true, false, NULL},
    {"half_cos", 1, R1(cosl), 8192, 0, SMALL, true, false, NULL},
    {"native_exp10", 1, R1(ref_exp10), 3, 0, SMALL, true, false, NULL},
    {"half_exp10", 1, R1(ref_exp10), 8192, 0, SMALL, true, false, NULL},
    {"native_powr", 2, R2(ref_powr), 16, 0, SMALL, true, false, NULL},
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
    case POSITIVE:
        return a > 0;
    case REMQUO: /* quo is unspecified where the remainder is NaN */
        return isfinite(a) && !isnan(b) && b != 0;
    case GAMMA_SIGN: /* the poles' sign is unspecified */
        return isfinite(a) && (a > 0 || a != floorl(a));
    }
    return false;
}

/* |result - exact| in units of the last place of the type with @mantissa
 * bits and smallest exponent @min_exponent (denormals' ulp below it). */
static double ulps(long double result, long double exact, int mantissa,
                   int min_exponent)
{
    int exponent; /* exact = m 2^exponent, 1/2 <= m < 1 */
    frexpl(exact, &exponent);
    if (exponent - 1 < min_exponent)
        exponent = min_exponent + 1;
    long double unit = ldexpl(1, exponent - 1 - mantissa);
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
    /* Exact zeros (the spec's edge cases: sinpi(-n) is -0...) too. */
    if (isinf(rounded) || isinf(result) || exact == 0)
        return result == rounded && signbit(result) == signbit(rounded);
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

/* A floating type under test: its name and the size of its ulps. */
struct flavour {
    const char *type;
    bool is_float;
    int mantissa, min_exponent;
};
static const struct flavour float_type = {"float", true, FLT_MANT_DIG - 1,
                                          FLT_MIN_EXP - 1};
static const struct flavour double_type = {"double", false,
                                           DBL_MANT_DIG - 1, DBL_MIN_EXP - 1};

/* Calls @fn of @type on @a, @b, @c (exact in @type), results in @r. */
static void call(void *fn, const struct flavour *type, const double *a,
                 const double *b, const double *c, long double *r)
{
    if (type->is_float) {
        static float fa[COUNT], fb[COUNT], fc[COUNT], fr[COUNT];
        for (int i = 0; i < COUNT; i++) {
            fa[i] = (float)a[i];
            fb[i] = (float)b[i];
            fc[i] = (float)c[i];
        }
        ((float_fn *)fn)(fa, fb, fc, fr, COUNT);
        for (int i = 0; i < COUNT; i++)
            r[i] = fr[i];
    } else {
        static double dr[COUNT];
        ((double_fn *)fn)(a, b, c, dr, COUNT);
        for (int i = 0; i < COUNT; i++)
            r[i] = dr[i];
    }
}

/* The exact result of @f on a, b, c, or double's correctly rounded one
 * where rounding the long double reference again would round twice. */
static long double exact_of(const struct function *f,
                            const struct flavour *type, long double a,
                            long double b, long double c)
{
    if (type->is_float || !f->double_ref)
        return evaluate(f, a, b, c);
    if (f->arity == 1)
        return ((double (*)(double))f->double_ref)((double)a);
    return ((double (*)(double, double, double))f->double_ref)(
        (double)a, (double)b, (double)c);
}

static void check(const struct function *f, int width,
                  const struct flavour *type, const double *a,
                  const double *b, const double *c)
{
    void *fn = symbol(f->name, type->type, width);
    static long double r[COUNT];
    if (!fn)
        return;
    call(fn, type, a, b, c, r);
    double bound = type->is_float ? f->ulp_float : f->ulp_double;
    int failures = 0;
    for (int i = 0; i < COUNT && failures < 5; i++) {
        if (!in_domain(f->domain, a[i], b[i], c[i]))
            continue;
        long double exact = exact_of(f, type, a[i], b[i], c[i]);
        long double rounded = type->is_float ? (float)exact : (double)exact;
        bool ok = bound == NO_BOUND
                      ? formula_ok(f, r[i], a[i], b[i], c[i], type->is_float)
                      : accurate(f, r[i], exact, rounded, bound,
                                 type->mantissa, type->min_exponent);
        if (!ok) {
            report(f->name, type->type, width, i, a[i], b[i], c[i], r[i],
                   exact);
            failures++;
        }
    }
}

static void check_functions(void)
{
    static double a[COUNT], b[COUNT], c[COUNT];
    size_t count = sizeof(functions) / sizeof(functions[0]);
    fill(a, b, c, float_edges, 126);
    for (int i = 0; i < COUNT; i++) {
        a[i] = (float)a[i];
        b[i] = (float)b[i];
        c[i] = (float)c[i];
    }
    for (size_t f = 0; f < count; f++)
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
            check(&functions[f], widths[w], &float_type, a, b, c);
    fill(a, b, c, double_edges, 1022);
    a[COUNT - 1] = 0x1.976472cc41506p+1; /* glibc's cbrt is 3.3 ulp off */
    for (size_t f = 0; f < count; f++)
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
            if (!functions[f].float_only)
                check(&functions[f], widths[w], &double_type, a, b, c);
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

int main(void)
{
    if (!test_long_double_extended()) {
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
