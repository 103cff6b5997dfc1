/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl-loader-check: tells an OpenCL ICD loader's developer, check by
 * check, whether the loader routes OpenCL correctly to its vendors. It
 * installs copies of refcl as vendors in a temporary directory, runs the
 * loader with them in child processes (runner.c), and compares every call
 * with what refcl's journal says arrived (docs/loader-check.md, and the
 * man page refcl-loader-check(1)).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <link.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "runner.h"
#include "vendors.h"

#ifndef REFCL_LIBRARY_DEFAULT
#define REFCL_LIBRARY_DEFAULT "librefcl.so.1"
#endif
/* refcl's library relative to this program's directory: in the build tree,
 * and as installed. */
#ifndef REFCL_LIBRARY_FROM_BUILD
#define REFCL_LIBRARY_FROM_BUILD "../librefcl.so.1"
#endif
#ifndef REFCL_LIBRARY_FROM_INSTALL
#define REFCL_LIBRARY_FROM_INSTALL "../lib/librefcl.so.1"
#endif
#ifndef LOADERCHECK_VERSION
#define LOADERCHECK_VERSION "unknown"
#endif

struct options {
    const char *loader;
    const char *refcl;
    const char *junit;
    const char *expect;
    const char *only[32];
    int only_count;
    cl_ulong seed;
    bool list;
    bool identify;
    bool keep;
    unsigned timeout;
};

static const char usage[] =
    "usage: refcl-loader-check [--loader LIBRARY] [--refcl LIBRARY]\n"
    "                          [--only PATTERN]... [--seed N] [--list]\n"
    "                          [--junit FILE] [--expect FILE]\n"
    "                          [--timeout SECONDS] [--keep]\n"
    "       refcl-loader-check --identify [--loader LIBRARY]\n"
    "\n"
    "Checks that an OpenCL ICD loader routes every call correctly to its\n"
    "vendors, using copies of refcl as the vendors.\n"
    "\n"
    "  --loader LIBRARY  the loader to check (default: libOpenCL.so.1, as\n"
    "                    the dynamic linker finds it)\n"
    "  --refcl LIBRARY   refcl's library to make the vendors from (default:\n"
    "                    the one beside this program, in the build tree or\n"
    "                    as installed; else " REFCL_LIBRARY_DEFAULT ",\n"
    "                    else librefcl.so.1 as the dynamic linker finds it)\n"
    "  --only PATTERN    run only the checks PATTERN (a name or a glob)\n"
    "                    matches: the whole name, or parts of it between\n"
    "                    slashes, e.g. clSetKernelArg, route, single,\n"
    "                    single/route/clSetKernelArg@a (repeatable; a\n"
    "                    pattern that matches no check is an error)\n"
    "  --seed N          the seed of the forced calls' random values\n"
    "                    (default: from the clock; every report prints it)\n"
    "  --list            list the checks' names and exit\n"
    "  --junit FILE      also write the results as JUnit XML\n"
    "  --expect FILE     compare the failures with the expected ones: exit 0\n"
    "                    only if they are the same\n"
    "  --timeout SECONDS the longest a check may take (default 60)\n"
    "  --keep            keep the temporary vendors directory, to reproduce\n"
    "  --identify        print the loader's name and version, and exit\n"
    "\n"
    "Each line says ok, FAIL or skip, the check's name and what was\n"
    "expected and received, a failure the command that reproduces it;\n"
    "then a table per entry point, coverage, the failed checks, and the\n"
    "closing line 'N passed, N failed'. Exit status: 0 when no check\n"
    "failed (with --expect: when the failures are the expected ones), 1\n"
    "otherwise, 2 for a usage error (a pattern matching no check\n"
    "included), 3 when the checks cannot run.\n"
    "See refcl-loader-check(1).\n";

/* @p relative (to this program's directory) into @p path, if readable. */
static bool beside_self(const char *relative, char *path, size_t size)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return false;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = '\0';
    snprintf(path, size, "%s/%s", self, relative);
    return access(path, R_OK) == 0;
}

/* refcl's library when --refcl is not given: the one beside this program
 * (the build tree's, or the installed one), else the configured install
 * path, else the one the dynamic linker finds by its soname. */
static const char *default_refcl(void)
{
    static char path[8192];
    if (beside_self(REFCL_LIBRARY_FROM_BUILD, path, sizeof(path)) ||
        beside_self(REFCL_LIBRARY_FROM_INSTALL, path, sizeof(path)))
        return path;
    if (access(REFCL_LIBRARY_DEFAULT, R_OK) == 0)
        return REFCL_LIBRARY_DEFAULT;
    path[0] = '\0';
    void *handle = dlopen("librefcl.so.1", RTLD_LAZY | RTLD_LOCAL);
    struct link_map *map = NULL;
    if (handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
        map->l_name[0])
        snprintf(path, sizeof(path), "%s", map->l_name);
    if (handle)
        dlclose(handle);
    return path[0] ? path : REFCL_LIBRARY_DEFAULT;
}

static _Noreturn void usage_error(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

static _Noreturn void usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fflush(stdout);
    fputs("refcl-loader-check: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(2);
}

static cl_ulong number_option(const char *text, const char *option)
{
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 0);
    if (errno || end == text || *end || text[0] == '-')
        usage_error("%s takes a number, not '%s' (--help shows the usage)",
                    option, text);
    return value;
}

/* A seed that differs from run to run; printed, so a run reproduces. */
static cl_ulong clock_seed(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return ((cl_ulong)now.tv_nsec ^ (cl_ulong)now.tv_sec * 1000003u ^
            (cl_ulong)getpid()) & 0xFFFFFFFFu;
}

static void parse(int argc, char **argv, struct options *options)
{
    static const struct option longs[] = {
        {"loader", required_argument, NULL, 'l'},
        {"refcl", required_argument, NULL, 'r'},
        {"only", required_argument, NULL, 'o'},
        {"list", no_argument, NULL, 'L'},
        {"junit", required_argument, NULL, 'j'},
        {"expect", required_argument, NULL, 'e'},
        {"timeout", required_argument, NULL, 't'},
        {"keep", no_argument, NULL, 'k'},
        {"seed", required_argument, NULL, 's'},
        {"identify", no_argument, NULL, 'i'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    *options = (struct options){.loader = "libOpenCL.so.1",
                                .refcl = NULL,
                                .timeout = 60,
                                .seed = clock_seed()};
    for (int c; (c = getopt_long(argc, argv, "h", longs, NULL)) != -1;) {
        switch (c) {
        case 'l': options->loader = optarg; break;
        case 'r': options->refcl = optarg; break;
        case 'o':
            if (options->only_count == 32)
                usage_error("at most 32 --only patterns are taken");
            options->only[options->only_count++] = optarg;
            break;
        case 's': options->seed = number_option(optarg, "--seed"); break;
        case 'L': options->list = true; break;
        case 'j': options->junit = optarg; break;
        case 'e': options->expect = optarg; break;
        case 't':
            options->timeout = (unsigned)number_option(optarg, "--timeout");
            break;
        case 'k': options->keep = true; break;
        case 'i': options->identify = true; break;
        case 'h': fputs(usage, stdout); exit(0);
        case 'V': puts("refcl-loader-check " LOADERCHECK_VERSION); exit(0);
        default: fputs(usage, stderr); exit(2);
        }
    }
    if (optind < argc || options->timeout == 0) {
        fputs(usage, stderr);
        exit(2);
    }
    if (!options->refcl)
        options->refcl = default_refcl();
}

/* True if @p pattern matches the part of @p id made of the segments
 * first..last ("single/route/clSetKernelArg@a": single, route,
 * clSetKernelArg, route/clSetKernelArg@a, ...), with or without its
 * @vendor. */
static bool matches_part(const char *pattern, const char *id, int first,
                         int last)
{
    const char *start = id;
    for (int s = 0; s < first; s++)
        start = strchr(start, '/') + 1;
    const char *end = start;
    for (int s = first; s < last; s++)
        end = strchr(end, '/') + 1;
    const char *slash = strchr(end, '/');
    int length = (int)((slash ? slash : end + strlen(end)) - start);
    char part[128];
    snprintf(part, sizeof(part), "%.*s", length, start);
    if (!fnmatch(pattern, part, 0))
        return true;
    part[strcspn(part, "@")] = '\0';
    return !fnmatch(pattern, part, 0);
}

static bool pattern_selects(const char *pattern, const char *id)
{
    int segments = 1;
    for (const char *c = id; *c; c++)
        segments += *c == '/';
    for (int first = 0; first < segments; first++)
        for (int last = first; last < segments; last++)
            if (matches_part(pattern, id, first, last))
                return true;
    return false;
}

/* Chooses the checks --only selects; a pattern that selects none is a
 * usage error (a typo must not make a CI job pass). */
static void select_checks(const struct options *options,
                          const struct check *checks, size_t count,
                          bool *chosen)
{
    for (size_t i = 0; i < count; i++)
        chosen[i] = options->only_count == 0;
    for (int p = 0; p < options->only_count; p++) {
        bool any = false;
        for (size_t i = 0; i < count; i++)
            if (pattern_selects(options->only[p], checks[i].id))
                any = chosen[i] = true;
        if (!any)
            usage_error("--only %s matches no check (--list names them)",
                        options->only[p]);
    }
}

/* In a child: the loader's answer to ocl-icd's clGetICDLoaderInfoOCLICD
 * (which the Khronos loader gives too), written to @p fd; with no vendor
 * to load. */
static void loader_identity_child(int fd, const char *loader)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    setenv("OCL_ICD_VENDORS", "/nonexistent/refcl-loader-check", 1);
    setenv("OPENCL_LAYER_PATH", "/nonexistent/refcl-loader-check", 1);
    unsetenv("OCL_ICD_FILENAMES");
    unsetenv("OPENCL_LAYERS");
    void *handle = dlopen(loader, RTLD_NOW | RTLD_LOCAL);
    void *(*lookup)(const char *) = handle
        ? (void *(*)(const char *))(uintptr_t)dlsym(
              handle, "clGetExtensionFunctionAddress")
        : NULL;
    clGetICDLoaderInfoOCLICD_t *info = lookup
        ? (clGetICDLoaderInfoOCLICD_t *)(uintptr_t)lookup(
              "clGetICDLoaderInfoOCLICD")
        : NULL;
    char name[96] = "", version[64] = "";
    if (!info || info(CL_ICDL_NAME, sizeof(name), name, NULL) != CL_SUCCESS ||
        info(CL_ICDL_VERSION, sizeof(version), version, NULL) != CL_SUCCESS)
        return;
    dprintf(fd, "%s %s", name, version);
}

/* The loader's name and version, asked in a child: loading the loader here
 * would make it initialise in the parent, which must stay clean. */
static void loader_identity(const char *loader, char *text, size_t size)
{
    snprintf(text, size, "%s", loader);
    int fds[2];
    if (pipe(fds) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        loader_identity_child(fds[1], loader);
        _exit(0);
    }
    close(fds[1]);
    char answer[256];
    ssize_t n = pid > 0 ? read(fds[0], answer, sizeof(answer) - 1) : 0;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    if (n > 0) {
        answer[n] = '\0';
        snprintf(text, size, "%s (%s)", loader, answer);
    }
}

/* After every scenario: the table, coverage, JUnit, expectations, the
 * failed checks and the closing count. The exit status. */
static int report_finish(const struct options *options,
                         const struct report_data *data, const char *loader)
{
    bool per_entry = false;
    for (size_t i = 0; i < data->count; i++)
        per_entry = per_entry ||
                    (data->done[i] && data->checks[i].column != COLUMN_NONE);
    if (per_entry) {
        report_table(stdout, data);
        if (!data->filtered)
            report_coverage(stdout, data);
    }
    report_scenarios(stdout, data);
    int passed, failed, skipped;
    report_counts(stdout, data, &passed, &failed, &skipped);
    bool junit = !options->junit || report_junit(options->junit, data, loader);
    bool as_expected = true;
    if (options->expect)
        as_expected = expect_compare(stdout, options->expect, data,
                                     data->filtered);
    report_failures(stdout, data);
    printf("\n%d skipped (not checked, with the reasons above)\n", skipped);
    printf("%d passed, %d failed (seed %llu)\n", passed, failed,
           (unsigned long long)data->seed);
    fflush(stdout);
    if (!junit)
        fprintf(stderr, "refcl-loader-check: cannot write %s\n",
                options->junit);
    if (options->expect)
        return as_expected ? 0 : 1;
    return failed ? 1 : 0;
}

/* Each scenario with a chosen check: its vendors installed under @p dir,
 * its checks run and printed. False if a scenario cannot be installed. */
static bool run_scenarios(const struct options *options,
                          const struct report_data *data, const bool *chosen,
                          const char *dir, struct outcome *outcomes,
                          bool *done)
{
    const struct check *checks = data->checks;
    size_t count = data->count;
    for (size_t first = 0; first < count && !runner_stop;) {
        size_t last = first;
        while (last + 1 < count &&
               checks[last + 1].scenario == checks[first].scenario)
            last++;
        bool any = false;
        for (size_t i = first; i <= last; i++)
            any = any || chosen[i];
        const struct scenario *scenario = checks[first].scenario;
        char scenario_dir[4200], why[512];
        snprintf(scenario_dir, sizeof(scenario_dir), "%s/%s", dir,
                 scenario->name);
        if (any && !vendors_install(scenario_dir, scenario, options->refcl,
                                    why, sizeof(why))) {
            fflush(stdout);
            fprintf(stderr, "refcl-loader-check: %s\n", why);
            return false;
        }
        if (any) {
            struct run run = {checks,       chosen,          outcomes,
                              done,         scenario_dir,    options->loader,
                              options->timeout, options->seed};
            printf("# %s: %s\n", scenario->name, scenario->summary);
            runner_scenario(&run, first, last);
            for (size_t i = first; i <= last; i++)
                if (done[i])
                    report_line(stdout, data, i);
            fflush(stdout);
        }
        first = last + 1;
    }
    return !runner_stop;
}

static void on_signal(int signal_number)
{
    runner_stop = signal_number;
}

/* SIGINT, SIGTERM and SIGHUP stop the run (runner.c) so that the
 * temporary directory is removed; the signal is then raised again. */
static void signals_catch(void)
{
    struct sigaction action = {.sa_handler = on_signal};
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
}

static int run_all(const struct options *options, const struct check *checks,
                   size_t count, const bool *chosen)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/refcl-loader-check.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("refcl-loader-check: cannot create a temporary directory");
        return 3;
    }
    struct outcome *outcomes = calloc(count, sizeof(*outcomes));
    bool *done = calloc(count, sizeof(*done));
    char identity[512];
    loader_identity(options->loader, identity, sizeof(identity));
    printf("refcl-loader-check %s: loader %s, vendors made from %s, "
           "seed %llu\n",
           LOADERCHECK_VERSION, identity, options->refcl,
           (unsigned long long)options->seed);
    struct report_data data = {checks, outcomes, done, count,
                               options->loader, options->seed,
                               options->only_count > 0};
    int status = 3;
    if (outcomes && done &&
        run_scenarios(options, &data, chosen, dir, outcomes, done))
        status = report_finish(options, &data, identity);
    fflush(stdout);
    if (options->keep && !runner_stop)
        fprintf(stderr, "refcl-loader-check: vendors kept in %s\n", dir);
    else
        vendors_remove(dir);
    free(outcomes);
    free(done);
    return status;
}

int main(int argc, char **argv)
{
    struct options options;
    parse(argc, argv, &options);
    size_t count;
    struct check *checks = plan_build(&count);
    bool *chosen = calloc(count, sizeof(*chosen));
    if (!chosen)
        return 3;
    select_checks(&options, checks, count, chosen);
    int status = 0;
    if (options.identify) {
        char identity[512];
        loader_identity(options.loader, identity, sizeof(identity));
        puts(identity);
    } else if (options.list) {
        for (size_t i = 0; i < count; i++)
            if (chosen[i])
                puts(checks[i].id);
    } else if (access(options.refcl, R_OK) != 0) {
        fprintf(stderr, "refcl-loader-check: cannot read refcl's library %s "
                        "(use --refcl)\n",
                options.refcl);
        status = 3;
    } else {
        signals_catch();
        status = run_all(&options, checks, count, chosen);
    }
    free(chosen);
    free(checks);
    if (runner_stop) {
        fprintf(stderr, "refcl-loader-check: interrupted; temporary files "
                        "removed\n");
        signal(runner_stop, SIG_DFL);
        raise(runner_stop);
    }
    return status;
}
