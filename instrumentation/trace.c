/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Call tracing: the printers behind the generated wrappers
 * (trace_wrappers.inc, one per entry point) and the writer that puts each
 * call on one line of the trace (docs/tracing.md).
 *
 * A wrapper calls the entry point's notifying twin (refcl/notify.h) first, then formats the whole line
 * in a buffer of its own and hands it to one locked write(2): threads never
 * interleave within a line, and a line is in the file (no stdio buffer) as
 * soon as its call returns.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "refcl/config.h"
#include "refcl/error.h"
#include "refcl/notify.h"
#include "refcl/object.h"
#include "refcl/trace.h"

/* At most PIPE_BUF bytes a line, which a pipe also writes in one piece. */
#define LINE_SIZE PIPE_BUF
/* A cut line ends in "...\n": keep room for it. */
#define LINE_LIMIT (LINE_SIZE - sizeof("...\n"))
/* Most entries of a list, and characters of a string, printed. */
#define LIST_MAX 64
#define STRING_MAX 256
/* Most distinct handles numbered under REFCL_TRACE_ADDRESSES=0. */
#define NUMBERED_MAX 4096

struct line {
    char text[LINE_SIZE];
    size_t length;
    bool cut;
    bool first_argument;
};

/* One value of an enum family and its name (trace_names.inc). */
struct name {
    int64_t value;
    const char *name;
};

struct names {
    const struct name *entries;
    size_t count;
};

#include "trace_names.inc"

bool refcl_tracing(void)
{
    return refcl_config()->trace_fd >= 0;
}

static void append(struct line *line, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void append(struct line *line, const char *format, ...)
{
    if (line->cut)
        return;
    size_t room = LINE_LIMIT - line->length;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line->text + line->length, room + 1, format, args);
    va_end(args);
    if (n < 0 || (size_t)n > room) {
        line->length = LINE_LIMIT;
        line->cut = true;
    } else {
        line->length += (size_t)n;
    }
}

/* ---- handles and pointers ---- */

static const char *const type_names[REFCL_TYPE_COUNT] = {
    [REFCL_PLATFORM] = "platform", [REFCL_DEVICE] = "device",
    [REFCL_CONTEXT] = "context",   [REFCL_QUEUE] = "queue",
    [REFCL_MEM] = "mem",           [REFCL_PROGRAM] = "program",
    [REFCL_KERNEL] = "kernel",     [REFCL_EVENT] = "event",
    [REFCL_SAMPLER] = "sampler",
};

struct numbered {
    const void *handle;
    enum refcl_type type;
    unsigned number;
};

static struct numbered numbered[NUMBERED_MAX];
static size_t numbered_count;
static unsigned type_counts[REFCL_TYPE_COUNT];
static pthread_mutex_t numbered_lock = PTHREAD_MUTEX_INITIALIZER;

/* Handles of each type numbered from 1 in order of first appearance; 0
 * once the table is full. */
static unsigned handle_number(enum refcl_type type, const void *handle)
{
    unsigned number = 0;
    pthread_mutex_lock(&numbered_lock);
    for (size_t i = 0; i < numbered_count && !number; i++)
        if (numbered[i].handle == handle && numbered[i].type == type)
            number = numbered[i].number;
    if (!number && numbered_count < NUMBERED_MAX) {
        number = ++type_counts[type];
        numbered[numbered_count++] = (struct numbered){handle, type, number};
    }
    pthread_mutex_unlock(&numbered_lock);
    return number;
}

static bool addresses_shown(void)
{
    return refcl_config()->trace_addresses;
}

static void put_pointer(struct line *line, const void *pointer)
{
    if (!pointer)
        append(line, "NULL");
    else if (addresses_shown())
        append(line, "%p", pointer);
    else
        append(line, "ptr");
}

static void put_handle(struct line *line, enum refcl_type type,
                       const void *handle)
{
    if (!handle || addresses_shown()) {
        put_pointer(line, handle);
        return;
    }
    unsigned number = handle_number(type, handle);
    if (number)
        append(line, "%s#%u", type_names[type], number);
    else
        append(line, "%s#?", type_names[type]);
}

/* Entry @p i of an array of handles (all handles share one
 * representation); memcpy, as the array's element type is not void *. */
static const void *handle_at(const void *list, size_t i)
{
    const void *handle;
    memcpy(&handle, (const char *)list + i * sizeof(handle), sizeof(handle));
    return handle;
}

static void put_handle_list(struct line *line, enum refcl_type type,
                            const void *list, size_t count)
{
    append(line, "{");
    for (size_t i = 0; i < count && i < LIST_MAX; i++) {
        append(line, i ? ", " : "");
        put_handle(line, type, handle_at(list, i));
    }
    append(line, count > LIST_MAX ? ", ...}" : "}");
}

/* ---- enums ---- */

static const char *name_of(const struct names *names, int64_t value)
{
    for (size_t i = 0; i < names->count; i++)
        if (names->entries[i].value == value)
            return names->entries[i].name;
    return NULL;
}

static void put_enum(struct line *line, cl_ulong value,
                     const struct names *names)
{
    const char *name = name_of(names, (int64_t)value);
    if (name)
        append(line, "%s", name);
    else
        append(line, "0x%" PRIX64, (uint64_t)value);
}

/* Bits joined with '|' (CL_DEVICE_TYPE_CPU|CL_DEVICE_TYPE_GPU), unnamed
 * bits in hex; a value with a name of its own (CL_DEVICE_TYPE_ALL) by it. */
static void put_flags(struct line *line, cl_ulong value,
                      const struct names *names)
{
    const char *name = name_of(names, (int64_t)value);
    if (name || value == 0) {
        append(line, "%s", name ? name : "0");
        return;
    }
    const char *separator = "";
    for (size_t i = 0; i < names->count; i++) {
        uint64_t bit = (uint64_t)names->entries[i].value;
        if ((bit & (bit - 1)) == 0 && (value & bit)) {
            append(line, "%s%s", separator, names->entries[i].name);
            value &= ~bit;
            separator = "|";
        }
    }
    if (value)
        append(line, "%s0x%" PRIX64, separator, (uint64_t)value);
}

const char *refcl_trace_code_name(cl_int code)
{
    return name_of(&errors_names, code);
}

static void put_code(struct line *line, cl_int code)
{
    const char *name = refcl_trace_code_name(code);
    if (name)
        append(line, "%s", name);
    else
        append(line, "%d", code);
}

/* ---- arguments: "name=value", comma-separated ---- */

static void line_begin(struct line *line, const char *function)
{
    line->length = 0;
    line->cut = false;
    line->first_argument = true;
    append(line, "%s(", function);
}

static void arg_begin(struct line *line, const char *name)
{
    append(line, "%s%s=", line->first_argument ? "" : ", ", name);
    line->first_argument = false;
}

/* "name=", then NULL for a NULL @p pointer: false if that was all. */
static bool arg_begin_pointee(struct line *line, const char *name,
                              const void *pointer)
{
    arg_begin(line, name);
    if (!pointer)
        append(line, "NULL");
    return pointer != NULL;
}

static void arg_handle(struct line *line, const char *name,
                       enum refcl_type type, const void *handle)
{
    arg_begin(line, name);
    put_handle(line, type, handle);
}

static void arg_pointer(struct line *line, const char *name,
                        const void *pointer)
{
    arg_begin(line, name);
    put_pointer(line, pointer);
}

static void arg_unsigned(struct line *line, const char *name, cl_ulong value)
{
    arg_begin(line, name);
    append(line, "%" PRIu64, (uint64_t)value);
}

static void arg_signed(struct line *line, const char *name, cl_int value)
{
    arg_begin(line, name);
    append(line, "%d", value);
}

static void arg_hex(struct line *line, const char *name, cl_uint value)
{
    arg_begin(line, name);
    append(line, "0x%X", value);
}

static void arg_enum(struct line *line, const char *name, cl_ulong value,
                     const struct names *names)
{
    arg_begin(line, name);
    put_enum(line, value, names);
}

static void arg_flags(struct line *line, const char *name, cl_ulong value,
                      const struct names *names)
{
    arg_begin(line, name);
    put_flags(line, value, names);
}

/* A C string, quoted and escaped, at most STRING_MAX characters. */
static void arg_string(struct line *line, const char *name, const char *s)
{
    if (!arg_begin_pointee(line, name, s))
        return;
    append(line, "\"");
    size_t i = 0;
    for (; s[i] && i < STRING_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            append(line, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F)
            append(line, "\\x%02X", c);
        else
            append(line, "%c", c);
    }
    append(line, s[i] ? "\"..." : "\"");
}

/* Input: (num_devices, devices) printed as {device#1, device#2}. */
static void arg_handles(struct line *line, const char *name,
                        enum refcl_type type, const void *list, cl_uint count)
{
    if (arg_begin_pointee(line, name, list))
        put_handle_list(line, type, list, count);
}

/* Output: what the call wrote, after "->", only when it succeeded. */
static void arg_handles_out(struct line *line, const char *name,
                            enum refcl_type type, const void *list,
                            cl_uint capacity, const cl_uint *count)
{
    arg_pointer(line, name, list);
    if (list && count) {
        append(line, "->");
        put_handle_list(line, type, list,
                        *count < capacity ? *count : capacity);
    }
}

static void arg_handle_out(struct line *line, const char *name,
                           enum refcl_type type, const void *out, bool ok)
{
    arg_pointer(line, name, out);
    if (ok && out) {
        append(line, "->");
        put_handle(line, type, handle_at(out, 0));
    }
}

static void arg_uint_out(struct line *line, const char *name,
                         const cl_uint *out, bool ok)
{
    arg_pointer(line, name, out);
    if (ok && out)
        append(line, "->%u", *out);
}

static void arg_size_out(struct line *line, const char *name,
                         const size_t *out, bool ok)
{
    arg_pointer(line, name, out);
    if (ok && out)
        append(line, "->%zu", *out);
}

static void arg_ulong_out(struct line *line, const char *name,
                          const cl_ulong *out, bool ok)
{
    arg_pointer(line, name, out);
    if (ok && out)
        append(line, "->%" PRIu64, (uint64_t)*out);
}

/* {CL_CONTEXT_PLATFORM, platform#1, 0}: name, value pairs up to the 0
 * that ends the list, at most LIST_MAX entries. */
static void arg_context_properties(struct line *line, const char *name,
                                   const cl_context_properties *list)
{
    if (!arg_begin_pointee(line, name, list))
        return;
    append(line, "{");
    size_t i = 0;
    for (; i + 1 < LIST_MAX && list[i] != 0; i += 2) {
        put_enum(line, (cl_ulong)list[i], &cl_context_properties_names);
        append(line, ", ");
        if (list[i] == CL_CONTEXT_PLATFORM)
            put_handle(line, REFCL_PLATFORM, (const void *)list[i + 1]);
        else if (list[i] == CL_CONTEXT_INTEROP_USER_SYNC)
            put_enum(line, (cl_ulong)list[i + 1], &cl_bool_names);
        else
            put_pointer(line, (const void *)list[i + 1]);
        append(line, ", ");
    }
    append(line, i + 1 < LIST_MAX ? "0}" : "...}");
}

/* {CL_DEVICE_PARTITION_EQUALLY, 1, 0},
 * {CL_DEVICE_PARTITION_BY_COUNTS, 2, 2, 0, 0} (the counts end with
 * CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, the list with 0),
 * {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0}.
 */
static void arg_partition_properties(struct line *line, const char *name,
                                     const cl_device_partition_property *list)
{
    if (!arg_begin_pointee(line, name, list))
        return;
    append(line, "{");
    size_t i = 0;
    while (i < LIST_MAX && list[i] != 0) {
        cl_device_partition_property scheme = list[i++];
        put_enum(line, (cl_ulong)scheme, &cl_device_partition_property_names);
        /* BY_COUNTS is followed by counts up to and including their
         * LIST_END, the other schemes by one value. */
        bool counts = scheme == CL_DEVICE_PARTITION_BY_COUNTS;
        for (bool more = true; more && i < LIST_MAX; i++) {
            append(line, ", ");
            if (scheme == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
                put_flags(line, (cl_ulong)list[i],
                          &cl_device_affinity_domain_names);
            else
                append(line, "%" PRIdPTR, list[i]);
            more = counts && list[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
        }
        append(line, ", ");
    }
    append(line, i < LIST_MAX ? "0}" : "...}");
}

/* ---- the end of a line: result, then write ---- */

static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

/* One write(2) of the whole line under a lock: a short write (a pipe, a
 * full disk) is completed before another thread's line starts. errno is
 * the application's and stays as it was. */
static void line_write(struct line *line)
{
    static const char cut_end[] = "...\n";
    if (line->cut) {
        memcpy(line->text + line->length, cut_end, sizeof(cut_end) - 1);
        line->length += sizeof(cut_end) - 1;
    } else {
        line->text[line->length++] = '\n';
    }
    int saved_errno = errno;
    int fd = refcl_config()->trace_fd;
    pthread_mutex_lock(&write_lock);
    for (size_t done = 0; done < line->length;) {
        ssize_t n = write(fd, line->text + done, line->length - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    pthread_mutex_unlock(&write_lock);
    errno = saved_errno;
}

static void line_end(struct line *line)
{
    append(line, ")");
    line_write(line);
}

/* " (<reason>)" when the calling thread kept one for @p code: the
 * offending handle, if any, as the trace prints handles, then the rule. */
static void put_reason(struct line *line, cl_int code)
{
    const struct refcl_reason *reason = refcl_reason_for(code);
    if (!reason)
        return;
    append(line, " (");
    if (reason->handle_type >= 0) {
        put_handle(line, (enum refcl_type)reason->handle_type,
                   reason->handle);
        append(line, ": ");
    }
    append(line, "%s)", reason->text);
}

static void line_end_code(struct line *line, cl_int result)
{
    append(line, ") = ");
    put_code(line, result);
    put_reason(line, result);
    line_write(line);
}

/* Object and pointer results show *errcode_ret after them, when the
 * caller asked for it, and why a NULL result failed: after the code it
 * explains, which stands alone when errcode_ret is NULL. */
static void end_errcode(struct line *line, const void *result,
                        const cl_int *errcode_ret)
{
    if (errcode_ret) {
        append(line, " (errcode_ret=");
        put_code(line, *errcode_ret);
        append(line, ")");
        if (!result)
            put_reason(line, *errcode_ret);
    } else if (!result) {
        const struct refcl_reason *reason = refcl_reason_last();
        if (reason) {
            append(line, " (");
            put_code(line, reason->code);
            append(line, ")");
            put_reason(line, reason->code);
        }
    }
    line_write(line);
}

static void line_end_handle(struct line *line, enum refcl_type type,
                            const void *result, const cl_int *errcode_ret)
{
    append(line, ") = ");
    put_handle(line, type, result);
    end_errcode(line, result, errcode_ret);
}

static void line_end_pointer(struct line *line, const void *result,
                             const cl_int *errcode_ret)
{
    append(line, ") = ");
    put_pointer(line, result);
    end_errcode(line, result, errcode_ret);
}

#include "trace_wrappers.inc"
