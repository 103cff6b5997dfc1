// SPDX-License-Identifier: Apache-2.0
// The classic tree reduction: a barrier inside a loop.
__kernel void reduce(__global const uint *in, __global uint *out, __local uint *scratch)
{
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
