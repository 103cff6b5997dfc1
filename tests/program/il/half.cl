// SPDX-License-Identifier: Apache-2.0
// program/il-half's kernels, made SPIR-V (Float16) at build time: half
// arithmetic, builtins of every half vector width (whose library
// definitions take them as the x86-64 ABI lowers them: half2 an i32,
// half3 and half4 a double, half16 in memory), conversions and a double
// cast to half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void scalar(global const half *a, global const half *b,
                   global half *r)
{
    size_t i = get_global_id(0);
    r[4 * i] = a[i] * b[i] + a[i];
    r[4 * i + 1] = fma(a[i], b[i], a[i]);
    r[4 * i + 2] = sqrt(fabs(a[i]));
    r[4 * i + 3] = convert_half_rtz((float)a[i] * 3.0f);
}

kernel void widths(global const half *a, global half *r)
{
    size_t i = get_global_id(0);
    // 16 work-items: halves [0, 32), [32, 80), [80, 144), [144, 272),
    // [272, 528).
    vstore2(fabs(vload2(i, a)), i, r);
    vstore3(fabs(vload3(i, a + 32)), i, r + 32);
    vstore4(fmax(vload4(i, a + 80), (half4)(0.5h)), i, r + 80);
    vstore8(fmin(vload8(i, a + 144), (half8)(0.5h)), i, r + 144);
    vstore16(floor(vload16(i, a + 272)), i, r + 272);
}

kernel void casts(global const double *d, global half *r)
{
    size_t i = get_global_id(0);
    r[i] = (half)d[i];
}
