/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The arguments of a call, built from the entry point's parameter table:
 * the vendor's real objects for handles; for everything else, values refcl
 * can act on (PASS_REAL), or values no loader could produce by accident
 * (PASS_FORCED: refcl is told the result, so it never looks at them).
 * Counts always match their lists, and lists always hold real objects: a
 * loader may read them to find the vendor.
 */
#include <string.h>

#include "call.h"

/* Filled into every output before the call; refcl's forced pattern
 * (0x40-0x7F) and real answers differ from it. */
#define SENTINEL 0xEE

static const char kernel_source[] =
    "kernel void refcl_check(global int *out) { out[0] = 1; }";

static cl_ulong pointer_bits(const void *pointer)
{
    return (cl_ulong)(uintptr_t)pointer;
}

/* Values that refcl accepts, by parameter type. */
struct typed_value {
    const char *type;
    cl_ulong value;
};

static const struct typed_value real_values[] = {
    {"cl_device_info", CL_DEVICE_NAME},
    {"cl_platform_info", CL_PLATFORM_NAME},
    {"cl_context_info", CL_CONTEXT_REFERENCE_COUNT},
    {"cl_command_queue_info", CL_QUEUE_REFERENCE_COUNT},
    {"cl_mem_info", CL_MEM_SIZE},
    {"cl_image_info", CL_IMAGE_ELEMENT_SIZE},
    {"cl_pipe_info", CL_PIPE_PACKET_SIZE},
    {"cl_sampler_info", CL_SAMPLER_REFERENCE_COUNT},
    {"cl_program_info", CL_PROGRAM_REFERENCE_COUNT},
    {"cl_program_build_info", CL_PROGRAM_BUILD_STATUS},
    {"cl_kernel_info", CL_KERNEL_REFERENCE_COUNT},
    {"cl_kernel_arg_info", CL_KERNEL_ARG_NAME},
    {"cl_kernel_work_group_info", CL_KERNEL_WORK_GROUP_SIZE},
    {"cl_kernel_sub_group_info", CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE},
    {"cl_kernel_exec_info", CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM},
    {"cl_event_info", CL_EVENT_REFERENCE_COUNT},
    {"cl_profiling_info", CL_PROFILING_COMMAND_QUEUED},
    {"cl_gl_texture_info", CL_GL_TEXTURE_TARGET},
    {"cl_gl_context_info", CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR},
    {"cl_device_type", CL_DEVICE_TYPE_ALL},
    {"cl_mem_flags", CL_MEM_READ_WRITE},
    {"cl_svm_mem_flags", CL_MEM_READ_WRITE},
    {"cl_map_flags", CL_MAP_READ},
    {"cl_mem_migration_flags", CL_MIGRATE_MEM_OBJECT_HOST},
    {"cl_command_queue_properties", 0},
    {"cl_bool", CL_TRUE},
    {"cl_mem_object_type", CL_MEM_OBJECT_IMAGE2D},
    {"cl_addressing_mode", CL_ADDRESS_NONE},
    {"cl_filter_mode", CL_FILTER_NEAREST},
    {"cl_buffer_create_type", CL_BUFFER_CREATE_TYPE_REGION},
    {"cl_int", CL_COMPLETE}, /* execution statuses */
    {"cl_GLenum", 0x0DE1},   /* GL_TEXTURE_2D */
};

/* ... and by name, for counts and sizes that are not tied to a list. */
struct named_value {
    const char *part; /* a substring of the parameter's name */
    cl_ulong value;
};

static const struct named_value real_named[] = {
    {"work_dim", 1},     {"offset", 0},     {"pitch", 0},
    {"alignment", 0},    {"arg_index", 0},  {"spec_id", 0},
    {"arg_size", sizeof(cl_mem)},           {"spec_size", 4},
    {"pattern_size", 4}, {"packet_size", 4}, {"miplevel", 0},
    {"plane", 0},        {"arg_indx", 0},   {"num_", 0},
};

static cl_ulong real_scalar(const struct param *param)
{
    for (size_t i = 0; i < sizeof(real_named) / sizeof(real_named[0]); i++)
        if (strstr(param->name, real_named[i].part))
            return real_named[i].value;
    for (size_t i = 0; i < sizeof(real_values) / sizeof(real_values[0]); i++)
        if (!strcmp(param->type, real_values[i].type))
            return real_values[i].value;
    return strcmp(param->type, "size_t") == 0 ? 16 : 1;
}

/* Bits no loader would make up: the slot and parameter index in the low
 * half, a fixed pattern above, cut to the parameter's size. */
static cl_ulong forced_scalar(const struct entry *entry, int index,
                              size_t size)
{
    cl_ulong value = 0xA5C35A5A00000000u |
                     ((cl_ulong)(entry->slot & 0xFF) << 24) |
                     ((cl_ulong)index << 16) | 0xBEEFu;
    return size >= sizeof(cl_ulong) ? value
                                    : value & ((1ull << (8 * size)) - 1);
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
    for (size_t i = 0; i < sizeof(null_names) / sizeof(null_names[0]); i++)
        if (!strcmp(name, null_names[i]))
            return 0;
    void *scratch = call->scratch[index];
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
            cl_ulong length = input ? (forced ? 2 : 1)
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
    if (!object && !(call->pass == PASS_NULL && dispatch)) {
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
        call->args[index] = forced ? forced_scalar(call->entry, index,
                                                   param->size)
                                   : real_scalar(param);
        break;
    case ARG_STRING:
        call->args[index] = pointer_bits(
            forced ? "refcl-loader-check" : real_string(param->name));
        break;
    case ARG_STRING_LIST:
        string_list(call, index);
        break;
    case ARG_CALLBACK:
        call->args[index] = pointer_bits(entry_noop_callback(param));
        break;
    case ARG_POINTER:
        call->args[index] = forced ? pointer_bits(call->scratch[index])
                                   : real_pointer(call, session, index);
        break;
    default:
        call->args[index] = properties(call, session, index);
        break;
    }
}

void call_prepare(struct call *call, struct session *session,
                  const struct entry *entry, int v, enum pass pass)
{
    memset(call->args, 0, sizeof(call->args));
    memset(call->scratch, 0, sizeof(call->scratch));
    memset(call->handles, 0, sizeof(call->handles));
    call->entry = entry;
    call->pass = pass;
    call->vendor = v;
    call->result = 0;
    int dispatch = entry_dispatch_param(entry);
    bool tied[MAX_PARAMS] = {false};
    for (int i = 0; i < entry->num_params; i++)
        if (entry->params[i].count >= 0)
            tied[entry->params[i].count] = true;
    for (int i = 0; i < entry->num_params; i++) {
        if (arg_is_output(entry->params[i].kind)) {
            memset(call->outputs[i], SENTINEL, OUTPUT_BYTES);
            call->args[i] = pointer_bits(call->outputs[i]);
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
                ? (cl_ulong)(cl_uint)(cl_int)(-55000 - entry->slot)
            : entry->result == RESULT_POINTER
                ? 0x7E5700000000u + (cl_ulong)entry->slot * 16
                : 0;
        call->forced_errcode = -56000 - entry->slot;
    }
}
