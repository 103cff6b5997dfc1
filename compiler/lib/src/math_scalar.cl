// SPDX-License-Identifier: Apache-2.0
// The scalar functions the generated math family calls (generate.py math,
// whose math.cl includes this file first, so it is not compiled by itself):
// libm's lgamma_r, and the algorithms the library computes itself rather
// than take from libm: float exp and rsqrt, double rootn, remquo's
// quotient bits.

// lgamma_r from libm (its names clash with OpenCL C's overloads).
float __refcl_libm_lgammaf_r(float, __private int *) __asm__("lgammaf_r");
double __refcl_libm_lgamma_r(double, __private int *) __asm__("lgamma_r");

#ifdef cl_khr_fp64
// rootn of double: pow(|x|, 1.0/k) is off by ln|x| times 1/k's rounding
// (up to ~100 ulp); one Newton step on q = r^k makes it ~1 ulp. x far from
// 1 is first scaled by 2^(|k|j) so that q stays normal (unscaled by 2^j).
static double __refcl_rootn(double x, int k)
{
    uint m = abs(k);
    double ax = fabs(x);
    bool scale = m != 0 && m <= 900 && ax != 0 && isfinite(ax) &&
                 (ax < 0x1p-1000 || ax > 0x1p1000);
    int j = scale ? (int)((63 + m) / m) : 0;
    j = ax > 1 ? -j : j;
    double y = ldexp(ax, (int)m * j), r = pow(y, 1.0 / k);
    double q = pow(r, (double)k);
    if (isfinite(q) && q >= DBL_MIN)
        r -= r * (q / y - 1) / k;
    r = ldexp(r, k > 0 ? -j : j);
    r = k & 1 ? copysign(r, x) : r;
    /* "rootn(x, n) returns a NaN for x < 0 and n is even", "for n = 0". */
    return k == 0 || (x < 0 && !(k & 1)) ? (double)NAN : r;
}
#endif

// float exp, in operations the vectorizer widens inline, where a libmvec
// call costs the call and the spills around it: exp over 16 Mi floats took
// 7.4-8.5 ms with _ZGVdN8v_expf, 3.8-3.95 with this, the time of a plain
// copy (generate.py's OWN table makes exp of float call it).
// exp(x) = 2^n exp(r), n = rint(x / ln 2), r = x - n ln 2 in two steps (the
// high part of ln 2 has 16 bits, so n times it is exact for every n here),
// exp(r) - 1 the Taylor series to r^7 (|r| <= ln(2)/2: the first term left
// out is under 0.05 ulp), and 2^n as two halves, so that 2^-149 and 2^128
// scale too and a result below 2^-126 is rounded once, by the last
// product. x is clamped first (beyond either end the result is 0 or inf
// anyway) so that n fits. At most 1.06 ulp from exp's true value over
// every float (OpenCL C 3.0 s7.4: 3 ulp), the products fused or not (each
// `a * b + c` is contracted where the CPU has FMA), checked against
// double exp for each of the 2^32 inputs, compiled as C and in a kernel.
float __refcl_expf(float x)
{
    float xc = __builtin_fminf(__builtin_fmaxf(x, -104.0f), 89.0f);
    float n = __builtin_rintf(xc * 0x1.715476p+0f);
    float r = n * -0x1.62e4p-1f + xc;
    r = n * -0x1.7f7d1cp-20f + r;
    float p = 1.0f / 5040;
    p = p * r + 1.0f / 720;
    p = p * r + 1.0f / 120;
    p = p * r + 1.0f / 24;
    p = p * r + 1.0f / 6;
    p = p * r + 0.5f;
    p = p * (r * r) + r;
    int k = (int)n, k_low = k / 2;
    float low = as_float((k_low + 127) << 23);
    float high = as_float((k - k_low + 127) << 23);
    float y = (p * low + low) * high;
    return __builtin_isnan(x) ? x + x : y;
}

// float rsqrt without a square root or a division, in operations the
// vectorizer widens inline: an n-body step's pair loop spent most of its
// time in vsqrtps and vdivps for 1 / sqrt(x). A first guess from the
// bits of x (the exponent halved, within 3.5%), two Newton steps
// y(1.5 - x/2 y^2) (then within 2^-17), and a last one computed as
// y + y(0.5 - x/2 y^2) so that its rounding stays under an ulp. An x
// below 2^-125 is scaled by 2^24 first (a subnormal's bits give a guess
// too far off, and x/2 must not be subnormal: 2.2 ulp just above 2^-126)
// and the result by 2^12. 0, infinities, negatives and NaN take the
// values 1 / sqrt(x) has. At most 1.22 ulp from 1 / sqrt(x) over every
// float with the products apart, 1.0 with them fused (OpenCL C 3.0 s7.4:
// 2 ulp), checked against double 1 / sqrt for each of the 2^32 inputs,
// compiled as C.
float __refcl_rsqrtf(float x)
{
    bool tiny = x < 0x1p-125f;
    float s = tiny ? x * 0x1p24f : x;
    float y = as_float(0x5f375a86 - (as_int(s) >> 1));
    float h = 0.5f * s;
    y = y * (-h * y * y + 1.5f);
    y = y * (-h * y * y + 1.5f);
    y = y * (-h * y * y + 0.5f) + y;
    y = tiny ? y * 0x1p12f : y;
    y = x == 0 ? __builtin_copysignf(INFINITY, x) : y;
    y = __builtin_isinf(x) ? 0.0f : y;
    return x < 0 || __builtin_isnan(x) ? x + NAN : y;
}

// remquo of a scalar T (f: the suffix of T's libm builtins), its quotient
// through a private pointer; the generated vector forms call it per part.
// The spec asks for 7 bits of the quotient where glibc gives 3. fmod by
// 128|y| (exact) leaves the quotient's low 7 bits, taken off one by one as
// exact subtractions (Sterbenz), then rounded to nearest, ties to even, as
// remainder does.
#define REMQUO(T, f)                                                        \
    T __refcl_remquo_##T(T x, T y, __private int *out)                      \
    {                                                                       \
        T m = __builtin_fabs##f(y),                                         \
          r = __builtin_fmod##f(__builtin_fabs##f(x), 128 * m);             \
        int q = 0;                                                          \
        for (int b = 64; b; b >>= 1)                                        \
            if (r >= b * m) {                                               \
                r -= b * m;                                                 \
                q += b;                                                     \
            }                                                               \
        if (2 * r > m || (2 * r == m && (q & 1))) {                         \
            r -= m;                                                         \
            q++;                                                            \
        }                                                                   \
        q &= 127;                                                           \
        *out = (__builtin_signbit(x) != 0) != (__builtin_signbit(y) != 0)   \
                   ? -q                                                     \
                   : q;                                                     \
        return __builtin_signbit(x) ? -r : r;                               \
    }

#ifdef cl_khr_fp64
REMQUO(double, )
#endif
REMQUO(float, f)
#undef REMQUO
