// SPDX-License-Identifier: Apache-2.0
// Two kernel-scope __local variables of different alignment, used by
// work-groups run at once: each group reverses its slice through them.
__kernel void reverse(__global const uint *in, __global uint *out)
{
    __local uchar pad[3];
    __local uint tile[128];
    uint l = get_local_id(0), n = get_local_size(0);
    if (l < 3)
        pad[l] = (uchar)(l + get_group_id(0));
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[n - 1 - l] + pad[l % 3];
}
