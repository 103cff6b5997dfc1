/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the compiler: clang (and llvm-link for clLinkProgram) as
 * subprocesses started with posix_spawn (argv only, no shell), in a private
 * directory made with mkdtemp and removed after. Each runs with that
 * directory as its working directory and its TMPDIR, so the build log,
 * which is their stdout and stderr, names files as "program.cl:3:5", never
 * by a /tmp path. A crash of clang is a failed build whose log says so.
 * A build has a deadline and a memory limit (REFCL_BUILD_TIMEOUT,
 * REFCL_BUILD_MEMORY): a tool still running at the deadline, stopped or
 * not, is killed and the build fails with a log saying so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "refcl/compiler.h"
#include "refcl/device.h"
#include "refcl/error.h"
#include "refcl/server.h"
#include "refcl/spirv.h"
#include "refcl/toolchain.h"
#include "cache.h"

extern char **environ;

#define SOURCE_NAME "program.cl"
#define LOG_NAME "build.log"
#define DEPS_NAME "program.d"

const char *refcl_compiler_target(void)
{
#if defined(__x86_64__)
    return "x86_64-unknown-linux-gnu";
#elif defined(__aarch64__)
    return "aarch64-unknown-linux-gnu";
#else
#error "refcl's compiler: no clang target for this architecture"
#endif
}

void refcl_blob_free(struct refcl_blob *blob)
{
    free(blob->bytes);
    *blob = (struct refcl_blob){0};
}

void refcl_compile_result_free(struct refcl_compile_result *result)
{
    refcl_blob_free(&result->output);
    free(result->log);
    *result = (struct refcl_compile_result){0};
}

/* The build limits, read once from the environment. */
#define TIMEOUT_DEFAULT 300u         /* seconds */
#define TIMEOUT_MAX 1000000u
#define MEMORY_DEFAULT (8ull << 30)  /* bytes of address space */
#define MEMORY_MIN (64ull << 20)

struct build_limits {
    unsigned timeout;      /* REFCL_BUILD_TIMEOUT, seconds */
    rlim_t memory;         /* REFCL_BUILD_MEMORY; 0: not applied */
    char timeout_env[48];  /* "REFCL_BUILD_TIMEOUT=N", for the server */
};

static struct build_limits limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

/* @p name's value as a number from @p min to @p max, else @p fallback
 * (a bad value said on stderr). */
static unsigned long long limit_setting(const char *name,
                                        unsigned long long min,
                                        unsigned long long max,
                                        unsigned long long fallback)
{
    const char *value = secure_getenv(name);
    if (!value)
        return fallback;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(value, &end, 10);
    if (*value >= '0' && *value <= '9' && !*end && !errno && n >= min &&
        n <= max)
        return n;
    fprintf(stderr, "refcl: ignoring %s=\"%s\": expected a number from "
            "%llu to %llu; using %llu\n", name, value, min, max, fallback);
    return fallback;
}

/* A sanitizer reserves terabytes of address space for its shadow at
 * start: a process built with one cannot run under an RLIMIT_AS. */
static bool address_limit_usable(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

static void read_limits(void)
{
    limits.timeout = (unsigned)limit_setting("REFCL_BUILD_TIMEOUT", 1,
                                             TIMEOUT_MAX, TIMEOUT_DEFAULT);
    limits.memory = (rlim_t)limit_setting("REFCL_BUILD_MEMORY", MEMORY_MIN,
                                          RLIM_INFINITY - 1, MEMORY_DEFAULT);
    if (!address_limit_usable())
        limits.memory = 0;
    snprintf(limits.timeout_env, sizeof(limits.timeout_env),
             "REFCL_BUILD_TIMEOUT=%u", limits.timeout);
}

static const struct build_limits *build_limits(void)
{
    pthread_once(&limits_once, read_limits);
    return &limits;
}

/* One run's private directory, and the run's limits. */
struct workdir {
    char path[PATH_MAX];
    struct refcl_job_limits limits;
};

static bool path_in(const struct workdir *dir, const char *name, char *path)
{
    int n = snprintf(path, PATH_MAX, "%s/%s", dir->path, name);
    return n > 0 && n < PATH_MAX;
}

bool refcl_write_all(int fd, const void *bytes, size_t size)
{
    const unsigned char *p = bytes;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

static bool write_bytes(const char *path, const void *bytes, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    bool written = refcl_write_all(fd, bytes, size);
    return close(fd) == 0 && written;
}

bool refcl_blob_read_fd(int fd, size_t size, struct refcl_blob *out)
{
    *out = (struct refcl_blob){0};
    bool ok = (out->bytes = malloc(size + 1)) != NULL;
    size_t done = 0;
    while (ok && done < size) {
        ssize_t n = read(fd, out->bytes + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        done += ok ? (size_t)n : 0;
    }
    if (!ok) {
        refcl_blob_free(out);
        return false;
    }
    out->bytes[done] = '\0'; /* a log is text */
    out->size = done;
    return true;
}

bool refcl_blob_read(const char *path, struct refcl_blob *out)
{
    *out = (struct refcl_blob){0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 &&
              refcl_blob_read_fd(fd, (size_t)st.st_size, out);
    close(fd);
    return ok;
}

/* Appends @p text to the run's log, as the tools' own lines are. */
static void log_note(const struct workdir *dir, const char *text)
{
    char path[PATH_MAX];
    if (!path_in(dir, LOG_NAME, path))
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    ssize_t written = write(fd, text, strlen(text));
    (void)written;
    close(fd);
}

/* True if @p name's first component is a file of the build directory's
 * own: a header of that name would replace the source, the log or an
 * output. */
static bool name_reserved(const char *name)
{
    static const char *const own[] = {
        SOURCE_NAME, LOG_NAME,      DEPS_NAME,     "program.o", "program.bc",
        "program.so", "linked.bc", "program.spv", "spirv.bc"};
    size_t length = strcspn(name, "/");
    for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
        if (strlen(own[i]) == length && !strncmp(name, own[i], length))
            return true;
    return false;
}

/* A header name (may hold directories) written under the directory;
 * names that would leave it ("..") or are absolute are not, nor those of
 * the directory's own files. */
static bool write_header(const struct workdir *dir,
                         const struct refcl_header *header)
{
    const char *name = header->name;
    if (name[0] == '/' || strstr(name, "..") || name_reserved(name))
        return false;
    char path[PATH_MAX];
    if (!path_in(dir, name, path))
        return false;
    for (char *slash = strchr(path + strlen(dir->path) + 1, '/'); slash;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int made = mkdir(path, 0700);
        *slash = '/';
        if (made != 0 && errno != EEXIST)
            return false;
    }
    return write_bytes(path, header->text, strlen(header->text));
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void workdir_remove(const char *path)
{
    nftw(path, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Where build directories are made: $TMPDIR, or /tmp. */
static const char *workdir_parent(void)
{
    const char *tmp = secure_getenv("TMPDIR");
    return tmp && tmp[0] == '/' ? tmp : "/tmp";
}

/* True if @p name is a build directory of a process that no longer runs:
 * "refcl-<pid>-XXXXXX" whose pid is gone. A reused pid keeps it until
 * that process ends too. */
static bool workdir_orphaned(const char *name)
{
    char *end;
    if (strncmp(name, "refcl-", 6))
        return false;
    long pid = strtol(name + 6, &end, 10);
    return pid > 0 && pid <= INT_MAX && *end == '-' && strlen(end) == 7 &&
           kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the build directories whose process died before it could (a
 * killed application, a killed compiler process): only directories this
 * user owns, never through a symbolic link. */
static void workdir_sweep(void)
{
    const char *parent = workdir_parent();
    int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        char stale[PATH_MAX];
        if (!workdir_orphaned(e->d_name) ||
            fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
            continue;
        int n = snprintf(stale, sizeof(stale), "%s/%s", parent, e->d_name);
        if (n > 0 && (size_t)n < sizeof(stale))
            workdir_remove(stale);
    }
    closedir(d);
}

/* A fresh build directory, "refcl-<pid>-XXXXXX" (workdir_orphaned), and
 * the build's limits from now. */
static bool workdir_make(struct workdir *dir)
{
    const struct build_limits *l = build_limits();
    clock_gettime(CLOCK_MONOTONIC, &dir->limits.deadline);
    dir->limits.deadline.tv_sec += (time_t)l->timeout;
    dir->limits.memory = l->memory;
    workdir_sweep();
    int n = snprintf(dir->path, sizeof(dir->path), "%s/refcl-%ld-XXXXXX",
                     workdir_parent(), (long)getpid());
    return n > 0 && (size_t)n < sizeof(dir->path) && mkdtemp(dir->path);
}

/* The environment of the tools: ours, with TMPDIR the working directory
 * (clang's own temporary files are then named "./x.o" in the log), and the
 * build's time limit as applied (the server limits each job's CPU time
 * to it). */
static char **tool_environment(void)
{
    size_t count = 0;
    while (environ[count])
        count++;
    char **env = malloc((count + 3) * sizeof(*env));
    if (!env)
        return NULL;
    size_t used = 0;
    for (size_t i = 0; i < count; i++)
        if (strncmp(environ[i], "TMPDIR=", 7) &&
            strncmp(environ[i], "REFCL_BUILD_TIMEOUT=", 20))
            env[used++] = environ[i];
    env[used++] = "TMPDIR=.";
    env[used++] = (char *)build_limits()->timeout_env;
    env[used] = NULL;
    return env;
}

/* The log's line for a tool killed at the build's deadline. */
static void log_timeout(const struct workdir *dir)
{
    char note[128];
    snprintf(note, sizeof(note), "refcl: the compiler ran past "
             "REFCL_BUILD_TIMEOUT=%u s and was stopped\n",
             build_limits()->timeout);
    log_note(dir, note);
}

/* The work-group passes' options, which the plugin defines: the CPU
 * (clang_back), the adapter of SPIR-V's calls (to_shared_object) and the
 * library's names for them (from_il), the only -mllvm a server job may
 * have. */
#define TARGET_CPU_OPTION "-refcl-target-cpu="
#define ADAPT_CALLS_OPTION "-refcl-adapt-calls"
#define NO_JAM_OPTION "-refcl-no-jam"
#define SPIRV_NAMES_OPTION "-refcl-spirv-names"

static bool plugin_option(const char *option)
{
    return option && (!strncmp(option, TARGET_CPU_OPTION,
                               strlen(TARGET_CPU_OPTION)) ||
                      !strcmp(option, ADAPT_CALLS_OPTION) ||
                      !strcmp(option, NO_JAM_OPTION) ||
                      !strcmp(option, SPIRV_NAMES_OPTION));
}

/* Whether @p argv can run in the persistent compiler: clang, llvm-link
 * or (where lld is built into it) ld, and no -mllvm but the plugin's
 * (other LLVM options may be process-wide ones that would outlive the job
 * in a server: such jobs run in a process of their own; the server resets
 * every option to its default before each clang job). */
static bool servable(char *const argv[])
{
    const struct refcl_toolchain *tc = refcl_toolchain();
    bool linker = tc->server_links && !strcmp(argv[0], tc->ld);
    if (!tc->server || (strcmp(argv[0], tc->clang) &&
                        strcmp(argv[0], tc->llvm_link) && !linker))
        return false;
    for (size_t i = 1; argv[i]; i++) {
        if (!strcmp(argv[i], "-mllvm") && plugin_option(argv[i + 1])) {
            i++;
            continue;
        }
        if (strstr(argv[i], "-mllvm"))
            return false;
    }
    return true;
}

/* Runs @p argv in the persistent compiler if it can. @return whether it
 * did (else the caller spawns it); @p ok whether it succeeded. */
static bool serve(const struct workdir *dir, char *const argv[],
                  char *const env[], bool *ok)
{
    if (!servable(argv))
        return false;
    char note[256];
    int status = 1;
    switch (refcl_server_run(refcl_toolchain()->server, dir->path, argv, env,
                             &dir->limits, &status, note, sizeof(note))) {
    case REFCL_NOT_SERVED:
        return false;
    case REFCL_SERVER_DIED:
        log_note(dir, note);
        *ok = false;
        return true;
    case REFCL_SERVER_TIMED_OUT:
        log_timeout(dir);
        *ok = false;
        return true;
    case REFCL_SERVED:
        break;
    }
    *ok = status == 0;
    return true;
}

/* Set once pidfd_open is found missing (a kernel before 5.3, valgrind
 * 3.19), so that it is not asked again. */
static atomic_bool no_pidfd;

/* Whether @p pid ended by @p deadline: its pidfd polled (Linux 5.3), or
 * where there is none, its state looked at every 10 ms. */
static bool ended_by(pid_t pid, const struct timespec *deadline)
{
    int pidfd = atomic_load_explicit(&no_pidfd, memory_order_relaxed)
                    ? -1
                    : pidfd_open(pid, 0);
    if (pidfd < 0 && errno == ENOSYS)
        atomic_store_explicit(&no_pidfd, true, memory_order_relaxed);
    if (pidfd >= 0) {
        struct pollfd p = {pidfd, POLLIN, 0};
        int ready;
        while ((ready = poll(&p, 1, refcl_ms_until(deadline))) < 0 &&
               errno == EINTR)
            ;
        close(pidfd);
        return ready != 0;
    }
    for (;;) {
        siginfo_t info = {0};
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) ||
            info.si_pid == pid)
            return true;
        if (!refcl_ms_until(deadline))
            return false;
        struct timespec tick = {0, 10000000};
        nanosleep(&tick, NULL);
    }
}

/* @p pid's end: true if it exited with 0; else the log says why. At the
 * build's deadline it is killed. */
static bool tool_wait(const struct workdir *dir, const char *name, pid_t pid)
{
    char note[PATH_MAX + 128];
    int status;
    bool in_time = ended_by(pid, &dir->limits.deadline);
    if (!in_time)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            log_note(dir, "refcl: lost the compiler's exit status\n");
            return false;
        }
    if (!in_time) {
        log_timeout(dir);
        return false;
    }
    if (WIFSIGNALED(status)) {
        snprintf(note, sizeof(note), "refcl: %s was killed by signal %d "
                 "(%s)\n", name, WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
        log_note(dir, note);
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A tool's own limits, set on it just spawned (posix_spawn sets none):
 * its address space, and its CPU time, which bounds it even if the
 * application dies and nobody kills it at the deadline. */
static void limit_tool(const struct workdir *dir, pid_t pid)
{
    rlim_t seconds = (rlim_t)build_limits()->timeout;
    struct rlimit cpu = {seconds, seconds + 1};
    prlimit(pid, RLIMIT_CPU, &cpu, NULL);
    if (dir->limits.memory) {
        struct rlimit memory = {dir->limits.memory, dir->limits.memory};
        prlimit(pid, RLIMIT_AS, &memory, NULL);
    }
}

/* setpriv (util-linux, in every Debian) starts a tool with a parent-death
 * signal, which posix_spawn cannot set: the tool of a killed application
 * is killed with it, even one blocked where no limit reaches it (an
 * #include of a FIFO). Where it is missing, the tool's CPU limit ends a
 * running orphan, and the next build removes its directory. */
#define SETPRIV "/usr/bin/setpriv"

static int tool_spawn(pid_t *pid, const posix_spawn_file_actions_t *actions,
                      char *const argv[], char **env)
{
    size_t count = 0;
    while (argv[count])
        count++;
    char **wrapped = access(SETPRIV, X_OK) == 0
                         ? malloc((count + 5) * sizeof(*wrapped))
                         : NULL;
    if (!wrapped)
        return posix_spawn(pid, argv[0], actions, NULL, argv, env);
    char *const prefix[] = {SETPRIV, "--pdeathsig", "KILL", "--"};
    memcpy(wrapped, prefix, sizeof(prefix));
    memcpy(wrapped + 4, argv, (count + 1) * sizeof(*argv));
    int error = posix_spawn(pid, SETPRIV, actions, NULL, wrapped, env);
    free(wrapped);
    return error;
}

/* Runs @p argv in @p dir, its output appended to the log: in the
 * persistent compiler, or as a subprocess. @return true if it exited with
 * 0; else the log says why. */
static bool tool_run(const struct workdir *dir, char *const argv[])
{
    char **env = tool_environment();
    bool ok = false;
    if (env && serve(dir, argv, env, &ok)) {
        free(env);
        return ok;
    }
    posix_spawn_file_actions_t actions;
    if (!env || posix_spawn_file_actions_init(&actions) != 0) {
        free(env);
        log_note(dir, "refcl: no memory to run the compiler\n");
        return false;
    }
    posix_spawn_file_actions_addchdir_np(&actions, dir->path);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, LOG_NAME,
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    /* Nothing of the application's descriptors. */
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    pid_t pid;
    int error = tool_spawn(&pid, &actions, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    free(env);
    if (!error)
        limit_tool(dir, pid);
    if (error) {
        char note[PATH_MAX + 128];
        snprintf(note, sizeof(note), "refcl: could not run %s: %s\n",
                 argv[0], strerror(error));
        log_note(dir, note);
        return false;
    }
    return tool_wait(dir, argv[0], pid);
}

/* argv under construction, grown as needed: clLinkProgram takes any number
 * of programs and the options any number of words. A failed allocation is
 * remembered and refused by run_argv. */
struct argv {
    const char **arg;
    size_t count, room;
    bool failed;
};

static void arg(struct argv *a, const char *s)
{
    if (a->failed)
        return;
    if (a->count + 2 > a->room) {
        size_t room = a->room ? 2 * a->room : 64;
        const char **grown = realloc(a->arg, room * sizeof(*grown));
        if (!grown) {
            a->failed = true;
            return;
        }
        a->arg = grown;
        a->room = room;
    }
    a->arg[a->count++] = s;
    a->arg[a->count] = NULL;
}

static void argv_free(struct argv *a)
{
    free(a->arg);
    *a = (struct argv){0};
}

static const char *std_arg(unsigned cl_std)
{
    /* "If the -cl-std build option is not specified, the highest OpenCL C
     * 1.x language version supported by each device is used." */
    switch (cl_std) {
    case 10: return "-cl-std=CL1.0";
    case 11: return "-cl-std=CL1.1";
    case 30: return "-cl-std=CL3.0";
    default: return "-cl-std=CL1.2";
    }
}

/* What every clang run starts with. */
static void clang_common(struct argv *a, const struct refcl_toolchain *tc,
                         const char *language)
{
    arg(a, tc->clang);
    arg(a, "-x");
    arg(a, language);
    arg(a, "-target");
    arg(a, refcl_compiler_target());
    arg(a, "-fPIC");
    arg(a, "-fno-color-diagnostics");
}

/* sin, cos, exp, log and pow in a vectorized work-item loop become glibc's
 * libmvec calls, 4 to 16 lanes at once (docs/builtins.md: which meet the
 * spec's limits; the library keeps logf scalar). Only where the CPU has
 * AVX2 (x86-64-v3 and up): LLVM 15 maps a call of 4 doubles or 8 floats to
 * libmvec's AVX2 variant (_ZGVdN4v_sin) whatever the target's features,
 * and below v3 the caller passes those lanes in two SSE registers while
 * the callee reads one AVX register, a wrong result. */
static void vector_math(struct argv *a)
{
#if defined(__x86_64__)
    const char *cpu = refcl_compiler_cpu();
    if (!strcmp(cpu, "x86-64-v3") || !strcmp(cpu, "x86-64-v4"))
        arg(a, "-fveclib=libmvec");
#else
    (void)a;
#endif
}

/* Kernels are OpenCL C: inline assembly is refused (clang's log says
 * "GNU-style inline assembly is disabled") unless the unsafe option allows
 * it. The stack is probed page by page, so that a private array larger
 * than the thread's stack faults on its guard page rather than reaching
 * past it into other memory (exec/fault.c catches the fault). */
static void kernel_limits(struct argv *a,
                          const struct refcl_compiler_options *o)
{
    if (!o->allow_inline_asm)
        arg(a, "-fno-gnu-inline-asm");
    arg(a, "-fstack-clash-protection");
}

/* Feature macros (__opencl_c_*) are OpenCL C 3.0's: a 1.x program may
 * define functions of its own with the names a feature's builtins have
 * (a work_group_reduce_add written for OpenCL C 1.2), which a declaration
 * of the builtin would make an error. The sub-group extensions' macros
 * likewise: clang defines cl_khr_subgroups from OpenCL C 2.0 only. */
static bool macro_for_language(const char *macro, unsigned cl_std)
{
    return cl_std >= 30 ||
           (strncmp(macro, "-D__opencl_c_", strlen("-D__opencl_c_")) &&
            strncmp(macro, "-Dcl_khr_subgroup", strlen("-Dcl_khr_subgroup")));
}

/* The front end's arguments: language, extensions, the user's options. */
static void clang_front(struct argv *a, const struct refcl_compile_job *job)
{
    const struct refcl_compiler_options *o = job->options;
    arg(a, std_arg(o->cl_std));
    arg(a, "-Xclang");
    arg(a, "-ffake-address-space-map");
    arg(a, "-Xclang");
    arg(a, "-finclude-default-header");
    arg(a, "-Xclang");
    arg(a, refcl_device_clang_extensions());
    for (const char *const *m = refcl_device_clang_macros(); *m; m++)
        if (macro_for_language(*m, o->cl_std))
            arg(a, *m);
    for (size_t i = 0; i < o->count; i++)
        arg(a, o->args[i]);
    kernel_limits(a, o);
    /* The front end compiles for baseline x86-64 (the CPU's level reaches
     * the passes and code generation), so that a function taking a float8
     * "without 'avx' enabled changes the ABI": true and harmless, since
     * the program's functions and the library's all come from that front
     * end alike and no call crosses another ABI. */
    arg(a, "-Wno-psabi");
    vector_math(a);
    if (o->opt_disable) {
        arg(a, "-O0");
        arg(a, "-Xclang");
        arg(a, "-disable-O0-optnone");
    } else {
        arg(a, "-O3");
    }
}

/* The strings clang_back's arguments point into. */
struct back_args {
    char plugin[PATH_MAX + 32];
    char cpu[64];
};

/* The plugin, in clang's pipeline and loaded (-load) before clang parses
 * -mllvm, so that its options exist. */
static void load_plugin(struct argv *a, const struct refcl_toolchain *tc,
                        struct back_args *b)
{
    snprintf(b->plugin, sizeof(b->plugin), "-fpass-plugin=%s", tc->plugin);
    arg(a, b->plugin);
    arg(a, "-Xclang");
    arg(a, "-load");
    arg(a, "-Xclang");
    arg(a, tc->plugin);
}

/* The back end: the work-group passes, an object of the program, which
 * link() makes a shared object; the CPU this host's (refcl_compiler_cpu),
 * set on every function while the front end stays at the baseline. */
static void clang_back(struct argv *a, const struct refcl_toolchain *tc,
                       struct back_args *b)
{
    load_plugin(a, tc, b);
    snprintf(b->cpu, sizeof(b->cpu), TARGET_CPU_OPTION "%s",
             refcl_compiler_cpu());
    arg(a, "-mllvm");
    arg(a, b->cpu);
    if (!refcl_compiler_vectorizes()) {
        arg(a, "-fno-vectorize");
        arg(a, "-fno-slp-vectorize");
        arg(a, "-mllvm");
        arg(a, NO_JAM_OPTION);
    }
    arg(a, "-c");
    arg(a, "-o");
    arg(a, "program.o");
}

bool refcl_compiler_vectorizes(void)
{
    const char *value = secure_getenv("REFCL_VECTORIZE");
    return !value || strcmp(value, "0") != 0;
}

/* Runs @p a and frees it. */
static bool run_argv(const struct workdir *dir, struct argv *a)
{
    bool ran = false;
    if (a->failed || !a->arg)
        log_note(dir, "refcl: no memory for the compiler's arguments\n");
    else
        ran = tool_run(dir, (char *const *)a->arg);
    argv_free(a);
    return ran;
}

/* program.o to program.so: ld itself, not clang's driver again (which
 * would start LLVM once more and hand ld its whole search path). The C
 * and math libraries are named, so that the shared object names every
 * symbol it needs: a call of an undefined function is a link error with a
 * log, not a failed dlopen. */
static bool link_shared(const struct workdir *dir)
{
    const struct refcl_toolchain *tc = refcl_toolchain();
    struct argv a = {0};
    arg(&a, tc->ld);
    arg(&a, "-shared");
    arg(&a, "--no-undefined");
    arg(&a, "--eh-frame-hdr");
    arg(&a, "-o");
    arg(&a, "program.so");
    arg(&a, "program.o");
    arg(&a, tc->libc);
    /* The vector math the vectorizer calls (-fveclib=libmvec). */
    if (tc->libmvec)
        arg(&a, tc->libmvec);
    arg(&a, tc->libm);
    return run_argv(dir, &a);
}

/* Source to a shared object (build) or to bitcode (compile). */
static bool from_source(const struct workdir *dir,
                        const struct refcl_compile_job *job,
                        const char **output)
{
    const struct refcl_toolchain *tc = refcl_toolchain();
    char path[PATH_MAX];
    struct back_args back;
    if (!path_in(dir, SOURCE_NAME, path) ||
        !write_bytes(path, job->source, strlen(job->source)))
        return false;
    for (size_t i = 0; i < job->header_count; i++)
        if (!write_header(dir, &job->headers[i]))
            log_note(dir, "refcl: a header named outside the build "
                          "directory, or as one of its own files "
                          "(program.cl, ...), was not written\n");
    struct argv a = {0};
    clang_common(&a, tc, "cl");
    clang_front(&a, job);
    /* The files it includes, which the build cache re-checks on a hit. */
    arg(&a, "-MD");
    arg(&a, "-MF");
    arg(&a, DEPS_NAME);
    if (job->step == REFCL_STEP_COMPILE) {
        arg(&a, "-emit-llvm");
        arg(&a, "-c");
        arg(&a, "-o");
        arg(&a, "program.bc");
        *output = "program.bc";
    } else {
        arg(&a, "-Xclang");
        arg(&a, "-mlink-builtin-bitcode");
        arg(&a, "-Xclang");
        arg(&a, tc->builtins);
        clang_back(&a, tc, &back);
        *output = "program.so";
    }
    arg(&a, SOURCE_NAME);
    bool compiled = run_argv(dir, &a);
    if (!compiled || job->step == REFCL_STEP_COMPILE)
        return compiled;
    return link_shared(dir);
}

/* The objects, written as input<N>.bc, to one module linked.bc. */
static bool link_objects(const struct workdir *dir,
                         const struct refcl_compile_job *job)
{
    enum { NAME_ROOM = 32 };
    char path[PATH_MAX];
    char *names = malloc(job->object_count * NAME_ROOM + 1);
    if (!names) {
        log_note(dir, "refcl: no memory for the objects' names\n");
        return false;
    }
    struct argv a = {0};
    arg(&a, refcl_toolchain()->llvm_link);
    bool written = true;
    for (size_t i = 0; i < job->object_count && written; i++) {
        char *name = names + i * NAME_ROOM;
        snprintf(name, NAME_ROOM, "input%zu.bc", i);
        written = path_in(dir, name, path) &&
                  write_bytes(path, job->objects[i].bytes,
                              job->objects[i].size);
        arg(&a, name);
    }
    arg(&a, "-o");
    arg(&a, "linked.bc");
    bool linked = written ? run_argv(dir, &a) : (argv_free(&a), false);
    free(names);
    return linked;
}

/* The bitcode module @p linked, with the builtins it uses (clang 15 links
 * -mlink-builtin-bitcode only into source, so llvm-link does,
 * internalized), to a shared object. Its code may come from SPIR-V (a
 * build from IL, or an object compiled from IL among a link's), whose
 * calls of the library the plugin makes match the library's ABI
 * (refcl-adapt-calls); calls from OpenCL C source match already. */
static bool to_shared_object(const struct workdir *dir, const char *linked,
                             const char **output)
{
    const struct refcl_toolchain *tc = refcl_toolchain();
    struct back_args back;
    struct argv b = {0};
    arg(&b, tc->llvm_link);
    arg(&b, linked);
    arg(&b, "--only-needed");
    arg(&b, "--internalize");
    arg(&b, tc->builtins);
    arg(&b, "-o");
    arg(&b, "full.bc");
    if (!run_argv(dir, &b))
        return false;
    struct argv c = {0};
    clang_common(&c, tc, "ir");
    arg(&c, "-O3");
    vector_math(&c);
    clang_back(&c, tc, &back);
    arg(&c, "-mllvm");
    arg(&c, ADAPT_CALLS_OPTION);
    arg(&c, "full.bc");
    *output = "program.so";
    return run_argv(dir, &c) && link_shared(dir);
}

/* Objects to one bitcode module (a library), and on to a shared object. */
static bool from_objects(const struct workdir *dir,
                         const struct refcl_compile_job *job,
                         const char **output)
{
    if (!link_objects(dir, job))
        return false;
    *output = "linked.bc";
    if (job->options->create_library)
        return true;
    return to_shared_object(dir, "linked.bc", output);
}

/* SPIR-V to this target's bitcode (an object), and on to a shared object
 * for a build. SPIR-V 1.4's instructions llvm-spirv-15 cannot read are
 * rewritten first (compiler/spirv_lower.c); a build stops on any left,
 * its log naming it, rather than on the translator's assertion.
 * llvm-spirv gives spir64 bitcode with typed pointers, whose
 * address spaces are OpenCL's, as refcl's (-ffake-address-space-map);
 * clang retargets it and makes its pointers opaque, as the builtins', and
 * the plugin gives its calls of builtins the library's names
 * (refcl-spirv-names, before any link). */
static bool from_il(const struct workdir *dir,
                    const struct refcl_compile_job *job, const char **output)
{
    const struct refcl_toolchain *tc = refcl_toolchain();
    char path[PATH_MAX], why[192];
    struct refcl_blob lowered;
    const struct refcl_blob *il =
        refcl_spirv_lower(job->il, &lowered) ? &lowered : job->il;
    bool readable = refcl_spirv_readable(il, why, sizeof(why));
    if (!readable)
        log_note(dir, why);
    bool written = readable && path_in(dir, "program.spv", path) &&
                   write_bytes(path, il->bytes, il->size);
    refcl_blob_free(&lowered);
    if (!written)
        return false;
    struct argv a = {0};
    arg(&a, tc->llvm_spirv);
    arg(&a, "-r");
    arg(&a, "program.spv");
    arg(&a, "-o");
    arg(&a, "spirv.bc");
    if (!run_argv(dir, &a))
        return false;
    struct argv b = {0};
    struct back_args plugin;
    clang_common(&b, tc, "ir");
    load_plugin(&b, tc, &plugin);
    arg(&b, "-mllvm");
    arg(&b, SPIRV_NAMES_OPTION);
    arg(&b, "-Wno-override-module");
    arg(&b, "-mllvm");
    arg(&b, "-opaque-pointers");
    arg(&b, "-emit-llvm");
    arg(&b, "-c");
    arg(&b, "-O0");
    arg(&b, "-o");
    arg(&b, "program.bc");
    arg(&b, "spirv.bc");
    *output = "program.bc";
    bool translated = run_argv(dir, &b);
    if (!translated || job->step == REFCL_STEP_COMPILE)
        return translated;
    return to_shared_object(dir, "program.bc", output);
}

static cl_int gather(const struct workdir *dir, bool built,
                     const char *output, struct refcl_compile_result *result)
{
    char path[PATH_MAX];
    struct refcl_blob log;
    if (!path_in(dir, LOG_NAME, path) || !refcl_blob_read(path, &log)) {
        log.bytes = (unsigned char *)strdup("");
        if (!log.bytes)
            return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for a log");
    }
    result->log = (char *)log.bytes;
    result->built = built && path_in(dir, output, path) &&
                    refcl_blob_read(path, &result->output);
    return CL_SUCCESS;
}

/* Stores a successful run with the files it included. */
static void remember(const struct workdir *dir,
                     const struct refcl_cache_key *key,
                     const struct refcl_compile_result *result)
{
    char path[PATH_MAX];
    struct refcl_blob deps = {0};
    if (path_in(dir, DEPS_NAME, path))
        refcl_blob_read(path, &deps);
    refcl_cache_store(key, result, (const char *)deps.bytes);
    refcl_blob_free(&deps);
}

cl_int refcl_compiler_run(const struct refcl_compile_job *job,
                          struct refcl_compile_result *result)
{
    *result = (struct refcl_compile_result){0};
    struct refcl_cache_key key;
    bool cacheable = refcl_cache_key(job, &key);
    if (cacheable && refcl_cache_lookup(&key, result))
        return CL_SUCCESS;
    struct workdir dir;
    if (!workdir_make(&dir)) {
        char *log = strdup("refcl: could not make a temporary directory\n");
        if (!log)
            return REFCL_FAIL(CL_OUT_OF_HOST_MEMORY, "no memory for a log");
        result->log = log;
        return CL_SUCCESS;
    }
    const char *output = NULL;
    bool built = job->step == REFCL_STEP_LINK ? from_objects(&dir, job, &output)
                 : job->il ? from_il(&dir, job, &output)
                           : from_source(&dir, job, &output);
    cl_int status = gather(&dir, built, output, result);
    if (status == CL_SUCCESS && result->built && cacheable)
        remember(&dir, &key, result);
    workdir_remove(dir.path);
    return status;
}
