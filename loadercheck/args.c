/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The arguments of a call, built from the entry point's parameter table:
 * the vendor's real objects for handles; for everything else the call's
 * choices (values.c): values refcl can act on (PASS_REAL), or any value,
 * seeded random numbers included (PASS_FORCED: refcl is told the result,
 * so it never looks at them). Counts always match their lists, and lists
 * always hold real objects: a loader may read them to find the vendor.
 */
#include <string.h>

#include "call.h"

static const char kernel_source[] =
    "kernel void refcl_check(global int *out) { out[0] = 1; }";

static cl_ulong pointer_bits(const void *pointer)
{
    return (cl_ulong)(uintptr_t)pointer;
}

/* Pointers refcl needs NULL, or pointing at something particular, to
 * accept a real call. */
static cl_ulong real_pointer(struct call *call, struct session *session,
                             int index)
{
    const char *name = call->entry->params[index].name;
    static const char *const null_names[] = {
        "host_ptr", "global_work_offset", "local_work_size", "lengths",
        "sizes", "args_mem_loc", "svm_pointers", "user_data"};
    void *scratch = call->scratch[index];
    for (size_t i = 0; i < sizeof(null_names) / sizeof(null_names[0]); i++)
        if (!strcmp(name, null_names[i]))
            return call->choice[index] == CHOICE_OTHER ? pointer_bits(scratch)
                                                       : 0;
    if (strstr(name, "region") || !strcmp(name, "global_work_size")) {
        size_t ones[3] = {1, 1, 1};
        memcpy(scratch, ones, sizeof(ones));
    } else if (!strcmp(name, "image_format")) {
        cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
        memcpy(scratch, &format, sizeof(format));
    } else if (!strcmp(name, "image_desc")) {
        cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                              .image_width = 4, .image_height = 4};
        memcpy(scratch, &desc, sizeof(desc));
    } else if (!strcmp(name, "buffer_create_info")) {
        cl_buffer_region region = {0, 16};
        memcpy(scratch, &region, sizeof(region));
    } else if (!strcmp(name, "arg_value")) {
        void *mem = session->vendors[call->vendor].fixture.objects[OBJ_MEM];
        memcpy(scratch, &mem, sizeof(mem));
    }
    return pointer_bits(scratch);
}

static cl_ulong properties(struct call *call, struct session *session,
                           int index)
{
    intptr_t *list = call->properties[index];
    cl_platform_id platform = session->vendors[call->vendor].platforms[0];
    memset(list, 0, sizeof(call->properties[index]));
    switch (call->entry->params[index].kind) {
    case PROPS_CONTEXT:
        list[0] = CL_CONTEXT_PLATFORM;
        list[1] = call->pass == PASS_NULL ? 0 : (intptr_t)platform;
        break;
    case PROPS_QUEUE:
        list[0] = CL_QUEUE_PROPERTIES;
        break;
    case PROPS_SAMPLER:
        list[0] = CL_SAMPLER_NORMALIZED_COORDS;
        break;
    case PROPS_PARTITION:
        list[0] = CL_DEVICE_PARTITION_EQUALLY;
        list[1] = 1;
        break;
    case PROPS_PARTITION_EXT:
        list[0] = CL_DEVICE_PARTITION_EQUALLY_EXT;
        list[1] = 1;
        list[2] = CL_PROPERTIES_LIST_END_EXT;
        break;
    case PROPS_PIPE: /* "must be NULL" in OpenCL 3.0 */
        return 0;
    default: /* an empty list */
        break;
    }
    return pointer_bits(list);
}

/* The object a handle parameter gets: the vendor's, except where a call
 * needs a particular one. */
static void *object_for(const struct call *call, struct session *session,
                        int index)
{
    const struct fixture *fixture = &session->vendors[call->vendor].fixture;
    const struct param *param = &call->entry->params[index];
    if (param->object == OBJ_EVENT &&
        !strcmp(call->entry->name, "clSetUserEventStatus"))
        return fixture->user_event;
    return fixture->objects[param->object];
}

/* The length of input list @p index: its choice if it varies, else one
 * object (two in a forced call). */
static cl_ulong list_length(const struct call *call, int index)
{
    if (call->varies[index])
        return call->choice[index];
    return call->pass == PASS_FORCED ? 2 : 1;
}

/* Lengths of the lists and buffers, set into their count parameters:
 * outputs first, input lists last, as an input list's length must win
 * when both share a count (clCreateProgramWithBinary's num_devices). */
static void tie_counts(struct call *call)
{
    const struct entry *entry = call->entry;
    bool forced = call->pass == PASS_FORCED;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < entry->num_params; i++) {
            const struct param *param = &entry->params[i];
            if (param->count < 0)
                continue;
            enum arg_kind kind = param->kind;
            bool input = kind == ARG_HANDLE_LIST || kind == ARG_STRING_LIST;
            if (input != (pass == 1))
                continue;
            cl_ulong length = input ? list_length(call, i)
                              : kind == OUT_BYTES ? (forced ? 200 : 256)
                                                  : (forced ? 3 : 4);
            call->args[param->count] = length;
        }
}

static void handle_list(struct call *call, struct session *session,
                        int index, bool dispatch)
{
    const struct param *param = &call->entry->params[index];
    void *object = call->pass == PASS_NULL && dispatch
                       ? NULL
                       : object_for(call, session, index);
    if (list_length(call, index) == 0 ||
        (!object && !(call->pass == PASS_NULL && dispatch))) {
        call->args[param->count] = 0; /* none to list: an empty list */
        call->args[index] = 0;
        return;
    }
    for (int i = 0; i < 4; i++)
        call->handles[index][i] = object;
    call->args[index] = pointer_bits(call->handles[index]);
}

static void string_list(struct call *call, int index)
{
    call->strings[index][0] = kernel_source;
    call->strings[index][1] = "refcl-loader-check";
    call->args[index] = pointer_bits(call->strings[index]);
}

static const char *real_string(const char *name)
{
    if (!strcmp(name, "func_name"))
        return "clGetCallJournalREFCL";
    if (!strcmp(name, "kernel_name"))
        return "refcl_check";
    return "";
}

static cl_ulong pointer_argument(struct call *call, struct session *session,
                                 int index)
{
    if (call->pass != PASS_FORCED)
        return real_pointer(call, session, index);
    return call->choice[index] == CHOICE_OTHER
               ? 0
               : pointer_bits(call->scratch[index]);
}

static void input(struct call *call, struct session *session, int index,
                  bool dispatch)
{
    const struct param *param = &call->entry->params[index];
    bool forced = call->pass == PASS_FORCED;
    switch (param->kind) {
    case ARG_HANDLE:
        call->args[index] = call->pass == PASS_NULL && dispatch
                                ? 0
                                : pointer_bits(object_for(call, session,
                                                          index));
        break;
    case ARG_HANDLE_LIST:
        handle_list(call, session, index, dispatch);
        break;
    case ARG_SCALAR:
        call->args[index] = call->choice[index];
        break;
    case ARG_STRING:
        call->args[index] = pointer_bits(
            forced ? "refcl-loader-check" : real_string(param->name));
        break;
    case ARG_STRING_LIST:
        string_list(call, index);
        break;
    case ARG_CALLBACK:
        call->args[index] = call->choice[index] == CHOICE_OTHER
                                ? 0
                                : pointer_bits(entry_noop_callback(param));
        break;
    case ARG_POINTER:
        call->args[index] = pointer_argument(call, session, index);
        break;
    default:
        call->args[index] = properties(call, session, index);
        break;
    }
}

int call_count(const struct entry *entry, enum pass pass, int kernel_args)
{
    cl_ulong choices[MAX_CHOICES];
    int forced = 1, real = 1;
    bool pointers = false;
    for (int i = 0; i < entry->num_params; i++) {
        int n = values_choices(entry, i, pass == PASS_FORCED, kernel_args,
                               choices);
        forced += n;
        if (entry->params[i].kind == ARG_SCALAR ||
            entry->params[i].kind == ARG_HANDLE_LIST)
            real = n > real ? n : real;
        else
            pointers = pointers || n > 0;
    }
    if (pointers && real < 3)
        real = 3; /* calls 1 and 2 give each pointer both choices */
    if (pass == PASS_NULL)
        return 1;
    if (pass == PASS_FORCED)
        return forced;
    return real < MAX_REAL_CALLS ? real : MAX_REAL_CALLS;
}

/* Call @p number's choice of parameter @p index among its @p n. A real
 * call walks every list in step (call 0 takes the defaults); pointers
 * alternate, out of step with each other. A forced call 0 takes random
 * numbers for every scalar; call k > 0 the k-th choice of the parameters
 * in turn, with random numbers for the other scalars. */
static void choose(struct call *call, int index, const cl_ulong *choices,
                   int n, int *remaining, struct random *random)
{
    const struct param *param = &call->entry->params[index];
    int number = call->number;
    cl_ulong pick = choices[0];
    if (call->pass == PASS_REAL && number > 0) {
        bool scalar = param->kind == ARG_SCALAR ||
                      param->kind == ARG_HANDLE_LIST;
        pick = choices[scalar ? number % n : (number + index) % n];
    } else if (call->pass == PASS_FORCED) {
        if (number > 0 && *remaining >= 0 && *remaining < n) {
            pick = choices[*remaining];
            call->varied = index;
        } else if (param->kind == ARG_SCALAR) {
            pick = values_truncate(random_next(random), param->size);
        }
        *remaining -= n;
    }
    call->choice[index] = pick;
    call->varies[index] = true;
}

static void choose_all(struct call *call, int kernel_args,
                       struct random *random)
{
    const struct entry *entry = call->entry;
    int remaining = call->number - 1;
    call->varied = -1;
    for (int i = 0; i < entry->num_params; i++) {
        cl_ulong choices[MAX_CHOICES];
        int n = values_choices(entry, i, call->pass == PASS_FORCED,
                               kernel_args, choices);
        call->choice[i] = CHOICE_DEFAULT;
        call->varies[i] = false;
        if (n > 0)
            choose(call, i, choices, n, &remaining, random);
    }
}

void call_prepare(struct call *call, struct session *session,
                  const struct entry *entry, int v, enum pass pass,
                  int number, struct random *random)
{
    memset(call->args, 0, sizeof(call->args));
    memset(call->scratch, 0, sizeof(call->scratch));
    memset(call->handles, 0, sizeof(call->handles));
    call->entry = entry;
    call->pass = pass;
    call->vendor = v;
    call->number = number;
    call->result = 0;
    choose_all(call, session->vendors[v].fixture.kernel_args, random);
    int dispatch = entry_dispatch_param(entry);
    bool tied[MAX_PARAMS] = {false};
    for (int i = 0; i < entry->num_params; i++)
        if (entry->params[i].count >= 0)
            tied[entry->params[i].count] = true;
    for (int i = 0; i < entry->num_params; i++) {
        if (arg_is_output(entry->params[i].kind)) {
            memset(call->outputs[i], CHECKER_FILL, OUTPUT_BYTES);
            call->args[i] = call->choice[i] == CHOICE_OTHER
                                ? 0
                                : pointer_bits(call->outputs[i]);
        } else if (!tied[i]) {
            input(call, session, i, i == dispatch);
        }
    }
    tie_counts(call);
    /* Lists last: an empty one (no object to list) zeroes its count. */
    for (int i = 0; i < entry->num_params; i++)
        if (entry->params[i].kind == ARG_HANDLE_LIST ||
            entry->params[i].kind == ARG_STRING_LIST)
            input(call, session, i, i == dispatch);
    if (pass == PASS_FORCED) {
        call->forced_result =
            entry->result == RESULT_CODE
                ? (cl_ulong)(cl_uint)(cl_int)(FORCED_RESULT_BASE - entry->slot)
            : entry->result == RESULT_POINTER
                ? FORCED_POINTER_BASE + (cl_ulong)entry->slot * 16
                : 0;
        call->forced_errcode = FORCED_ERRCODE_BASE - entry->slot;
    }
}
