// SPDX-License-Identifier: Apache-2.0
// What the table says about kernels, checked field by field. The __global
// variables are read and written (the table counts those the optimizer
// keeps), the __constant one does not count.
__global int counter = 3;
__global float table[10];
__constant float weights[4] = {1, 2, 3, 4};

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((vec_type_hint(float4)))
void attributed(__global const float4 *restrict in, __global volatile int *out,
                __local uint *scratch, __constant float *c, uint n, float8 v)
{
    scratch[get_local_id(0)] = n;
    out[0] = (int)(in[0].x + c[0] + v.s7 + weights[1] + table[2]) + counter;
    counter = (int)n;
    table[n % 10] = v.s0;
}

__kernel __attribute__((work_group_size_hint(8, 4, 2))) __attribute__((vec_type_hint(uint)))
void hinted(__global void *p, __read_only image2d_t img, __write_only image1d_buffer_t out,
            sampler_t s)
{
    __local ulong big[33];
    __local char small[5];
    big[get_local_id(0)] = (ulong)p;
    small[0] = 1;
    ((__global ulong *)p)[0] = big[1] + small[0];
}

__kernel void plain(void)
{
}
