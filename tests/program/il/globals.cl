// SPDX-License-Identifier: Apache-2.0
// program/il-globals: program-scope variables through SPIR-V (OpVariable
// in the CrossWorkgroup storage class, with and without an initializer).
global int counter = 7;
global int history[4];

// Adds step to counter; the first four values it had go to history.
kernel void bump(int step)
{
    int old = counter;
    if (old - 7 < 4 * step && step > 0)
        history[(old - 7) / step] = old;
    counter = old + step;
}

kernel void read(global int *out)
{
    out[0] = counter;
    for (int i = 0; i < 4; i++)
        out[1 + i] = history[i];
}
