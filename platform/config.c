/*
 * Reads refcl's environment variables once (see refcl/config.h). Every
 * value is validated; a bad one is reported on stderr, naming the variable
 * and what it accepts, and the default is used instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refcl/config.h"

static struct refcl_config config;

static void complain(const char *variable, const char *value,
                     const char *accepted, const char *fallback)
{
    fprintf(stderr, "refcl: ignoring %s=\"%s\": expected %s; using %s\n",
            variable, value, accepted, fallback);
}

static void read_platform_count(void)
{
    const char *value = getenv("REFCL_PLATFORMS");
    config.platforms = 1;
    if (!value)
        return;
    char *end;
    long n = strtol(value, &end, 10);
    if (*value && !*end && n >= 1 && n <= REFCL_MAX_PLATFORMS)
        config.platforms = (cl_uint)n;
    else
        complain("REFCL_PLATFORMS", value, "a number from 1 to 16", "1");
}

/* CL_PLATFORM_NAME of platforms without one in REFCL_PLATFORM_NAME. */
static const char *const default_names[REFCL_MAX_PLATFORMS] = {
    "refcl",    "refcl 1",  "refcl 2",  "refcl 3",  "refcl 4",  "refcl 5",
    "refcl 6",  "refcl 7",  "refcl 8",  "refcl 9",  "refcl 10", "refcl 11",
    "refcl 12", "refcl 13", "refcl 14", "refcl 15",
};
_Static_assert(REFCL_MAX_PLATFORMS == 16, "one default name per platform");

/*
 * Points table[i] at the i-th item of a comma-separated list, copied into
 * items[i]; platforms past the list, or with an empty item, keep the
 * default already in table[i].
 */
static void read_list(const char *variable, const char *table[],
                      char items[][REFCL_NAME_SIZE])
{
    const char *value = getenv(variable);
    for (cl_uint i = 0; value && *value && i < REFCL_MAX_PLATFORMS; i++) {
        size_t len = strcspn(value, ",");
        if (len >= REFCL_NAME_SIZE) {
            complain(variable, value, "items shorter than 64 characters",
                     "the default for that platform");
        } else if (len > 0) {
            memcpy(items[i], value, len);
            items[i][len] = '\0';
            table[i] = items[i];
        }
        value += len + (value[len] == ',');
    }
}

static void read_names(void)
{
    for (cl_uint i = 0; i < REFCL_MAX_PLATFORMS; i++) {
        config.names[i] = default_names[i];
        config.suffixes[i] = "REFCL";
    }
    read_list("REFCL_PLATFORM_NAME", config.names, config.name_items);
    read_list("REFCL_ICD_SUFFIX", config.suffixes, config.suffix_items);
}

static void read_icd_version(void)
{
    const char *value = getenv("REFCL_ICD_VERSION");
    config.icd_version = 2;
    if (!value)
        return;
    if (!strcmp(value, "1") || !strcmp(value, "2"))
        config.icd_version = value[0] - '0';
    else
        complain("REFCL_ICD_VERSION", value, "1 or 2", "2");
}

static const char *const fault_names[] = {
    [REFCL_FAULT_NONE] = "none",
    [REFCL_FAULT_GET_PLATFORMS_FAILS] = "get-platforms-fails",
    [REFCL_FAULT_ZERO_PLATFORMS] = "zero-platforms",
    [REFCL_FAULT_NO_KHR_ICD] = "no-khr-icd",
    [REFCL_FAULT_SUFFIX_FAILS] = "suffix-fails",
    [REFCL_FAULT_ONE_TAG] = "one-tag",
    [REFCL_FAULT_NO_GET_FUNCTION] = "no-get-function",
    [REFCL_FAULT_NO_SET_DISP_DATA] = "no-set-dispatch-data",
};

static void read_fault(void)
{
    const char *value = getenv("REFCL_FAULT");
    config.fault = REFCL_FAULT_NONE;
    if (!value)
        return;
    for (size_t i = 0; i < sizeof(fault_names) / sizeof(fault_names[0]); i++)
        if (!strcmp(value, fault_names[i])) {
            config.fault = (enum refcl_fault)i;
            return;
        }
    complain("REFCL_FAULT", value,
             "none, get-platforms-fails, zero-platforms, no-khr-icd, "
             "suffix-fails, one-tag, no-get-function or no-set-dispatch-data",
             "none");
}

/* REFCL_TRACE: unset or 0, no trace; 1, stderr; anything else, a file,
 * created or emptied. A file that cannot be opened means no trace. */
static void read_trace(void)
{
    const char *value = getenv("REFCL_TRACE");
    config.trace_fd = -1;
    if (!value || !strcmp(value, "0"))
        return;
    if (!strcmp(value, "1")) {
        config.trace_fd = STDERR_FILENO;
        return;
    }
    config.trace_fd = open(value, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
                                      O_CLOEXEC, 0666);
    if (config.trace_fd < 0) {
        char accepted[160];
        snprintf(accepted, sizeof(accepted),
                 "0, 1 or a file refcl can write (%s)", strerror(errno));
        complain("REFCL_TRACE", value, accepted, "no trace");
    }
}

static void read_trace_addresses(void)
{
    const char *value = getenv("REFCL_TRACE_ADDRESSES");
    config.trace_addresses = true;
    if (!value)
        return;
    if (!strcmp(value, "0") || !strcmp(value, "1"))
        config.trace_addresses = value[0] == '1';
    else
        complain("REFCL_TRACE_ADDRESSES", value, "0 or 1", "1");
}

/* REFCL_BIND: 1 (default) binds every thread that runs commands to its
 * device's processing units; 0 leaves placement to the system, for
 * machines (containers, job schedulers) that forbid binding. */
static void read_bind(void)
{
    const char *value = getenv("REFCL_BIND");
    config.bind = true;
    if (!value)
        return;
    if (!strcmp(value, "0") || !strcmp(value, "1"))
        config.bind = value[0] == '1';
    else
        complain("REFCL_BIND", value, "0 or 1", "1");
}

static void config_read(void)
{
    read_platform_count();
    read_names();
    read_icd_version();
    read_fault();
    read_trace();
    read_trace_addresses();
    read_bind();
}

/* The trace file is refcl's until the library unloads: a loader that
 * dlcloses refcl and loads it again gets a fresh trace, and no stray fd. */
__attribute__((destructor)) static void config_unload(void)
{
    if (config.trace_fd > STDERR_FILENO)
        close(config.trace_fd);
    config.trace_fd = -1;
}

const struct refcl_config *refcl_config(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, config_read);
    return &config;
}
