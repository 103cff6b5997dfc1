// SPDX-License-Identifier: Apache-2.0
// Barriers where the work-group split must find them. Each kernel runs
// in groups of 64 (1-D) and writes one uint per work-item.

// A barrier in a helper function, called twice.
static uint rotate_left(__local uint *tile, uint l, uint v)
{
    tile[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = tile[(l + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

__kernel void helper(__global uint *out)
{
    __local uint tile[64];
    uint l = get_local_id(0);
    uint v = rotate_left(tile, l, l * 3 + (uint)get_group_id(0));
    out[get_global_id(0)] = rotate_left(tile, l, v + 1000);
}

// Barriers in both branches of a uniform if; a value of one branch
// (x) lives across the barrier.
__kernel void branches(__global uint *out, uint flag)
{
    __local uint tile[64];
    uint l = get_local_id(0);
    uint r;
    if (flag) {
        uint x = l * 7;
        tile[l] = x;
        work_group_barrier(CLK_LOCAL_MEM_FENCE);
        r = tile[63 - l] + x;
    } else {
        tile[l] = l + 5;
        barrier(CLK_LOCAL_MEM_FENCE);
        r = tile[(l + 2) % 64] * 2;
    }
    out[get_global_id(0)] = r;
}

// A barrier as the first and as the last statement.
__kernel void first_last(__global uint *out)
{
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = get_local_id(0) * 2 + 1;
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
}

// A private array written before a barrier and read after it.
__kernel void private_array(__global uint *out, uint n)
{
    __local uint tile[64];
    uint p[16];
    uint l = get_local_id(0);
    for (uint i = 0; i < 16; i++)
        p[i] = l * 16 + i;
    tile[l] = p[n % 16];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = tile[63 - l];
    for (uint i = 0; i < n; i++)
        sum += p[(i + l) % 16];
    out[get_global_id(0)] = sum;
}

// Barriers in a loop with a trip count from an argument, and a value
// that is carried around the loop across the barrier.
__kernel void loop(__global uint *out, uint rounds)
{
    __local uint tile[64];
    uint l = get_local_id(0);
    uint acc = l;
    for (uint r = 0; r < rounds; r++) {
        tile[l] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += tile[(l + r + 1) % 64];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = acc;
}
