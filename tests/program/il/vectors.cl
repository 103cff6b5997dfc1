/* SPDX-License-Identifier: Apache-2.0 */
/* program/il-vectors' kernels, compiled to SPIR-V when the tests are built
 * (clang-15 -target spir64, then llvm-spirv-15): builtins of the library
 * that the x86-64 ABI gives other types than the translator's calls (an
 * 8-byte vector as a double, a 2- or 3-byte one as an integer, a 32-byte
 * one in memory), and a 2D image read with int2 and float2 coordinates. */
constant sampler_t nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void vectors(global const float2 *a, global const float2 *b,
                    global float2 *m, global char2 *c, global char4 *c3,
                    global int2 *i, global float8 *f)
{
    size_t g = get_global_id(0);
    m[g] = fmax(a[g], b[g]);
    c[g] = add_sat(c[g], (char2)(100, -100));
    char3 v = max(c3[g].xyz, (char3)(-5, 0, 5));
    c3[g] = (char4)(v, c3[g].w);
    i[g] = max(i[g], (int2)(3, -3));
    f[g] = fmin(f[g], (float8)(1.5f));
}

/* dst(x, y) = src(w - 1 - x, y) + 2 src(x, y): the first read with int2
 * and the program's sampler, the second with float2 and the argument's. */
kernel void mirror(read_only image2d_t src, write_only image2d_t dst,
                   sampler_t s)
{
    int x = get_global_id(0), y = get_global_id(1);
    int2 at = (int2)(get_image_width(src) - 1 - x, y);
    float4 v = read_imagef(src, nearest, at) +
               2.0f * read_imagef(src, s, (float2)(x + 0.5f, y + 0.5f));
    write_imagef(dst, (int2)(x, y), v);
}

/* Builtins taking pointers, which the translator names with SPIR's address
 * spaces (PU3AS1 for global, a bare P for private): atomic_inc and
 * atomic_dec on global ints, sincos into a private float and float4,
 * fract into global floats, vstore4 and vload4 through local memory. */
kernel void pointers(global int *counters, global const float *x,
                     global float *sines, global float *cosines,
                     global float4 *sines4, global float4 *cosines4,
                     global float *fractions, global float *wholes,
                     local float *scratch)
{
    size_t g = get_global_id(0), l = get_local_id(0);
    atomic_inc(&counters[0]);
    atomic_dec(&counters[1]);
    float c;
    sines[g] = sincos(x[g], &c);
    cosines[g] = c;
    float4 c4;
    sines4[g] = sincos((float4)(x[g], -x[g], 0.5f * x[g], 0.0f), &c4);
    cosines4[g] = c4;
    vstore4((float4)(x[g], 1.0f, 2.0f, 3.0f), l, scratch);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 mine = vload4(l ^ 1, scratch);
    fractions[g] = fract(mine.x * 3.25f, &wholes[g]);
}
