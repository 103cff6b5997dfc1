/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs an ND-range command (struct refcl_launch, refcl/exec.h), spread over
 * the compute units of the queue's device (refcl_device_run): element-wise
 * built-in kernels by rows of elements, work-group kernels group by group,
 * compiled kernels (docs/kernels.md) work-group by work-group through their
 * executable's `run`, each piece with one block of its own for the
 * kernel's __local variables, its __local arguments and the work-items'
 * frames, reused from group to group. A fault in a work-group ends the
 * command with CL_OUT_OF_RESOURCES, as an abnormally terminated kernel, and
 * is reported to the context's pfn_notify: the kernel, the signal, the
 * address and the work-group.
 * The checks of an enqueue and the snapshot of the arguments are the kernel
 * layer's (kernel/enqueue.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refcl/context.h"
#include "refcl/exec.h"
#include "refcl/kernel_abi.h"
#include "refcl/memory.h"
#include "refcl/queue.h"
#include "refcl/workers.h"

/* Pieces a command is cut into per compute unit: enough for the units to
 * even out, few enough that each is long. */
#define PIECES_PER_UNIT 4
/* Work-items a piece runs at least: a piece shorter than this costs more
 * to hand to another thread than it takes to run. Not for a kernel whose
 * work-items run loops of their own (refcl-jam-items took its work-item
 * loop): one of its work-groups is worth a thread. */
#define MIN_PIECE_ITEMS 16384

/* ---- the command -------------------------------------------------------- */

static size_t round_up(size_t bytes, size_t align)
{
    return (bytes + align - 1) / align * align;
}

/* Bytes of a command for @p desc: the command, its entries per
 * argument, then the copies of by-value arguments over 8 bytes; with
 * @p c, points the entries to their places in it. */
static size_t command_layout(const struct refcl_kernel_desc *desc,
                             struct refcl_launch *c)
{
    size_t n = desc->num_args;
    size_t at_args = round_up(sizeof(*c), sizeof(union refcl_arg_value));
    size_t at_held = at_args + n * sizeof(*c->args);
    size_t at_local = at_held + n * sizeof(*c->held);
    size_t end = at_local + n * sizeof(*c->local_at);
    unsigned char *base = (unsigned char *)c;
    unsigned char *copies = c ? refcl_arg_copies_start(base + end) : NULL;
    if (c) {
        c->args = (union refcl_arg_value *)(base + at_args);
        c->held = (struct _cl_mem **)(base + at_held);
        c->local_at = (size_t *)(base + at_local);
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const struct refcl_arg_desc *arg = &desc->args[i];
        if (refcl_arg_inline(arg))
            continue;
        size_t here = refcl_arg_place(&at, arg->size);
        if (c)
            c->args[i].ptr = copies + here;
    }
    return at ? end + REFCL_ARG_ALIGN_MAX - 1 + at : end;
}

/* malloc and memset: glibc's calloc skips the thread cache. */
struct refcl_launch *refcl_launch_alloc(const struct refcl_kernel_desc *desc)
{
    size_t bytes = command_layout(desc, NULL);
    struct refcl_launch *c = malloc(bytes);
    if (!c)
        return NULL;
    memset(c, 0, bytes);
    command_layout(desc, c);
    c->desc = desc;
    return c;
}

void refcl_launch_free(struct refcl_launch *c)
{
    for (cl_uint i = 0; i < c->desc->num_args; i++)
        if (c->held[i])
            refcl_mem_release(c->held[i]);
    if (c->owner)
        c->owner_release(c->owner);
    refcl_printf_free(c->printf_buffer);
    free(c);
}


size_t refcl_launch_kernel_local_bytes(const struct refcl_launch *c)
{
    return c->compiled ? round_up(c->compiled->local_bytes, REFCL_ABI_ALIGN)
                       : 0;
}


bool refcl_launch_group_per_piece(const struct refcl_launch *c)
{
    return c->compiled && c->compiled->work_items_per_step;
}

/* The products fit in a size_t: every kernel has an argument that reaches
 * one element per work-item, and the enqueue has checked that a buffer
 * holds them. */
void refcl_launch_plan(struct refcl_launch *c,
                       const struct _cl_device_id *device)
{
    const struct refcl_ndrange *r = &c->range;
    size_t group_items = r->local[0] * r->local[1] * r->local[2];
    size_t min_work = MIN_PIECE_ITEMS;
    c->work = r->global[0] * r->global[1] * r->global[2];
    if (c->desc->group || c->compiled) {
        c->work = r->groups[0] * r->groups[1] * r->groups[2];
        min_work = (MIN_PIECE_ITEMS + group_items - 1) / group_items;
        if (refcl_launch_group_per_piece(c))
            min_work = 1;
    }
    size_t target = (size_t)device->compute_units * PIECES_PER_UNIT;
    size_t per_piece = (c->work + target - 1) / target;
    c->per_piece = per_piece > min_work ? per_piece : min_work;
    c->pieces = (c->work + c->per_piece - 1) / c->per_piece;
}

/* ---- running ------------------------------------------------------------ */

/* Items [first, first + count) of an element-wise kernel, in row-major
 * order over the global range, as rows of elements. */
static void items_run(const struct refcl_launch *c, size_t first,
                      size_t count)
{
    const struct refcl_ndrange *r = &c->range;
    size_t row = first / r->global[0];
    size_t column = first % r->global[0];
    while (count) {
        size_t y = r->offset[1] + row % r->global[1];
        size_t z = r->offset[2] + row / r->global[1];
        size_t base = r->offset[0] + column + r->extent[0] *
                                                  (y + r->extent[1] * z);
        size_t length = r->global[0] - column;
        length = length < count ? length : count;
        c->desc->items(c->args, base, length);
        count -= length;
        column = 0;
        row++;
    }
}

static void items_piece(void *arg, size_t index)
{
    const struct refcl_launch *c = arg;
    size_t first = index * c->per_piece;
    size_t left = c->work - first;
    items_run(c, first, left < c->per_piece ? left : c->per_piece);
}

/* Work-group @p id of the range. */
static struct refcl_group group_at(const struct refcl_ndrange *r, size_t id)
{
    struct refcl_group g = {.range = r, .id = id};
    size_t rest = id;
    for (cl_uint d = 0; d < 3; d++) {
        size_t index = rest % r->groups[d];
        size_t start = index * r->local[d];
        rest /= r->groups[d];
        g.origin[d] = r->offset[d] + start;
        g.size[d] = r->global[d] - start < r->local[d] ? r->global[d] - start
                                                       : r->local[d];
    }
    return g;
}

/* The piece's own __local memory and, after it, its own argument values
 * pointing there; NULL when out of memory. Freed with free(). */
static void *scratch_alloc(const struct refcl_launch *c,
                           union refcl_arg_value **args)
{
    size_t n = c->desc->num_args;
    size_t at_args = round_up(c->scratch, REFCL_MEM_BASE_ALIGN);
    size_t bytes = round_up(at_args + n * sizeof(**args),
                            REFCL_MEM_BASE_ALIGN);
    unsigned char *scratch = aligned_alloc(REFCL_MEM_BASE_ALIGN, bytes);
    if (!scratch)
        return NULL;
    *args = (union refcl_arg_value *)(scratch + at_args);
    memcpy(*args, c->args, n * sizeof(**args));
    for (size_t i = 0; i < n; i++)
        if (c->desc->args[i].kind == REFCL_ARG_LOCAL)
            (*args)[i].ptr = scratch + c->local_at[i];
    return scratch;
}

/* Work-groups of a work-group kernel, each with __local memory of the
 * piece's own, reused from group to group as a compute unit would. */
static void groups_piece(void *arg, size_t index)
{
    struct refcl_launch *c = arg;
    union refcl_arg_value *args = c->args;
    void *scratch = NULL;
    if (c->scratch && !(scratch = scratch_alloc(c, &args))) {
        atomic_store(&c->out_of_memory, true);
        return;
    }
    size_t first = index * c->per_piece;
    size_t end = first + c->per_piece < c->work ? first + c->per_piece
                                                : c->work;
    for (size_t id = first; id < end; id++) {
        struct refcl_group group = group_at(&c->range, id);
        c->desc->group(args, &group);
    }
    free(scratch);
}

/* The memory of one piece of a compiled kernel, and where it is. */
struct compiled_piece {
    const struct refcl_launch *c;
    size_t first, end;             /* its work-groups */
    void *local_mem;               /* the kernel's __local variables */
    size_t local_bytes;            /* and the __local arguments after them */
    void *frames;                  /* the work-items' frames, or NULL */
    union refcl_arg_value *args;   /* __local arguments pointing here */
    size_t group;                  /* the work-group running */
};

/* One block for @p p: the kernel's __local variables, the __local
 * arguments (c->scratch), the frames of a whole group, then the argument
 * values; NULL when out of memory. Freed with free(). */
static void *compiled_alloc(struct compiled_piece *p)
{
    const struct refcl_launch *c = p->c;
    const struct refcl_ndrange *r = &c->range;
    size_t n = c->desc->num_args;
    size_t at_scratch = refcl_launch_kernel_local_bytes(c);
    size_t at_frames = at_scratch + round_up(c->scratch, REFCL_ABI_ALIGN);
    size_t frames = c->compiled->frame_bytes * r->local[0] * r->local[1] *
                    r->local[2];
    size_t at_args = at_frames + round_up(frames, REFCL_ABI_ALIGN);
    size_t bytes = round_up(at_args + n * sizeof(*p->args), REFCL_ABI_ALIGN);
    unsigned char *block = aligned_alloc(REFCL_ABI_ALIGN, bytes);
    if (!block)
        return NULL;
    p->local_mem = block;
    p->local_bytes = at_scratch + c->scratch;
    p->frames = frames ? block + at_frames : NULL;
    p->args = (union refcl_arg_value *)(block + at_args);
    memcpy(p->args, c->args, n * sizeof(*p->args));
    for (size_t i = 0; i < n; i++)
        if (c->desc->args[i].kind == REFCL_ARG_LOCAL)
            p->args[i].ptr = block + at_scratch + c->local_at[i];
    return block;
}

/* The parts of work-group @p id of @p r that change from group to group. */
static void abi_group_at(struct refcl_abi_group *g,
                         const struct refcl_ndrange *r, size_t id)
{
    for (cl_uint d = 0; d < 3; d++) {
        size_t index = id % r->groups[d];
        size_t start = index * r->local[d];
        id /= r->groups[d];
        g->group_id[d] = index;
        g->local_size[d] = r->global[d] - start < r->local[d]
                               ? r->global[d] - start
                               : r->local[d];
    }
}

/* The work-groups of a piece, through the kernel's `run`: the body that
 * refcl_fault_catch guards. */
static void compiled_groups(void *arg)
{
    struct compiled_piece *p = arg;
    const struct refcl_ndrange *r = &p->c->range;
    struct refcl_abi_group g = {.work_dim = r->dims,
                                .local_bytes = (uint32_t)p->local_bytes,
                                .local_mem = p->local_mem,
                                .frames = p->frames,
                                .printf_buffer = p->c->printf_buffer};
    for (cl_uint d = 0; d < 3; d++) {
        g.global_offset[d] = r->offset[d];
        g.global_size[d] = r->global[d];
        g.enqueued_local_size[d] = r->local[d];
        g.num_groups[d] = r->groups[d];
    }
    refcl_abi_run *run = p->c->compiled->run;
    const refcl_abi_slot *slots = (const refcl_abi_slot *)p->args;
    for (size_t id = p->first; id < p->end; id++) {
        abi_group_at(&g, r, id);
        p->group = id;
        run(slots, &g);
    }
}

/* Work-groups of a compiled kernel; none once a piece has faulted (the
 * command has failed). */
static void compiled_piece(void *arg, size_t index)
{
    struct refcl_launch *c = arg;
    if (atomic_load_explicit(&c->faulted, memory_order_relaxed))
        return;
    struct compiled_piece p = {.c = c, .first = index * c->per_piece};
    p.end = c->work - p.first < c->per_piece ? c->work
                                             : p.first + c->per_piece;
    void *block = compiled_alloc(&p);
    if (!block) {
        atomic_store(&c->out_of_memory, true);
        return;
    }
    struct refcl_kernel_fault fault;
    if (!refcl_fault_catch(compiled_groups, &p, &fault) &&
        !atomic_exchange(&c->faulted, true)) {
        c->fault = fault;
        c->fault_group = p.group;
    }
    free(block);
}

/* "kernel 'oob': SIGSEGV at address 0x10 in work-group (3, 0, 0)", to the
 * pfn_notify of the queue's context. */
static void fault_report(const struct refcl_launch *c,
                         struct _cl_command_queue *queue)
{
    struct refcl_abi_group g;
    abi_group_at(&g, &c->range, c->fault_group);
    refcl_context_notify(queue->context,
                         "kernel '%s': %s at address %p in work-group (%llu, "
                         "%llu, %llu)", c->desc->name,
                         refcl_fault_signal_name(c->fault.signal),
                         c->fault.address,
                         (unsigned long long)g.group_id[0],
                         (unsigned long long)g.group_id[1],
                         (unsigned long long)g.group_id[2]);
}

static cl_int ndrange_run(void *payload, struct _cl_command_queue *queue)
{
    struct refcl_launch *c = payload;
    refcl_device_run(queue->device, c->pieces,
                     c->compiled         ? compiled_piece
                     : c->desc->group ? groups_piece
                                         : items_piece,
                     c);
    /* "When the event that is associated with a particular kernel
     * invocation is completed, the output of all printf() calls executed
     * by this kernel invocation is flushed to the implementation-defined
     * output stream": every piece has joined, the event is not yet
     * complete. */
    if (c->printf_buffer)
        refcl_printf_flush(c->printf_buffer, stdout);
    if (atomic_load(&c->faulted))
        fault_report(c, queue);
    /* A piece without its __local memory did not run, a faulting one did
     * not finish: the command ends with the error, as an abnormally
     * terminated kernel does. */
    return atomic_load(&c->out_of_memory) || atomic_load(&c->faulted)
               ? CL_OUT_OF_RESOURCES
               : CL_COMPLETE;
}

static void ndrange_release(void *payload)
{
    refcl_launch_free(payload);
}

const struct refcl_command_ops refcl_launch_ops = {
    .run = ndrange_run, .release = ndrange_release};
