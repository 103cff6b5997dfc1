// SPDX-License-Identifier: Apache-2.0
// Values live across barriers that are the same in every work-item of a
// group (the pass computes them again or keeps them once for the group),
// and values built from such ones that are not (kept per work-item).
// Each kernel writes four uints per work-item.

constant uint table[4] = {11, 22, 33, 44};

// base: an expression of the arguments and group fields; t: a load of
// constant memory; x: redefined each round before the first barrier and
// used after it; s: a loop counter defined and used in the same region
// (after the second barrier: used by the latch, then defined again).
kernel void uniform(global uint *out, uint k, local uint *scratch)
{
    uint l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    uint base = g * n * 5 + k + (uint)get_global_offset(0) + (uint)get_num_groups(0);
    uint t = table[g & 3];
    uint acc = 0;
    for (uint s = n; s > 0; s /= 2) {
        uint x = s * 3 + g;
        scratch[l] = l + s;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += scratch[(l + 1) % n] + x;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    size_t i = (get_global_id(0) - get_global_offset(0)) * 4;
    out[i] = base + l;
    out[i + 1] = t * l;
    out[i + 2] = acc;
    out[i + 3] = base * t;
}

// chosen: a phi of uniform values joining a branch on the local id;
// counted: a sum over a loop whose trip count is the local id's; same: a
// local-memory load at a uniform address (never loaded again after the
// memory changed); loaded: one at the work-item's address.
kernel void divergent(global uint *out, uint k, local uint *scratch)
{
    uint l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    uint chosen = g + k;
    if (l & 1)
        chosen = g * 3 + k;
    uint counted = 0;
    for (uint j = 0; j < l % 5; j++)
        counted += n;
    scratch[l] = g * 100 + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint same = scratch[0], loaded = scratch[n - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = (get_global_id(0) - get_global_offset(0)) * 4;
    out[i] = chosen;
    out[i + 1] = counted + scratch[(l + 1) % n];
    out[i + 2] = loaded;
    out[i + 3] = same;
}
