/* SPDX-License-Identifier: Apache-2.0 */
/* The plain C loop that the saxpy kernel is measured against, built -O3
 * (so that gcc vectorizes it too) and apart from the harness. */
#include <stddef.h>

struct c_saxpy { float a; const float *x; float *y; size_t n; };
void *pass_c_saxpy(void *arg);

void *pass_c_saxpy(void *arg)
{
    struct c_saxpy *s = arg;
    const float *restrict x = s->x;
    float *restrict y = s->y;
    for (size_t i = 0; i < s->n; i++)
        y[i] = s->a * x[i] + y[i];
    return NULL;
}
