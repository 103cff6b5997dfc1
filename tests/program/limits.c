/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/build-limits: builds end, and the compiler process holds nothing
 * of the application's (docs/compiler.md, "Limits"). Run with
 * REFCL_BUILD_TIMEOUT=3 and a small REFCL_BUILD_MEMORY: a preprocessor
 * bomb, an #include of a FIFO (refused at once by the persistent
 * compiler) and a stopped compiler process each fail the build
 * (CL_BUILD_PROGRAM_FAILURE, the log saying why) within the limit; an
 * application killed mid-build leaves no compiler process (server or tool)
 * and no build directory behind; a pipe the application opened without close-on-exec
 * sees its end once the application closes its own write end (the compiler
 * process holds no copy); a fork()ed child holds no copy of the parent's
 * connections, and the parent's clUnloadPlatformCompiler does not wait for
 * the child. The servers are found as this process's children
 * (tests/program/server.c). The build cache is off: every build compiles.
 * program/build-limits-oneshot runs the same without the persistent
 * compiler (each tool a process of its own); its server-only parts are
 * skipped with a message.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "processes.h"

static cl_platform_id platform;
static cl_device_id device;
static cl_context context;

/* The limit the test runs with (REFCL_BUILD_TIMEOUT, set by CTest). */
static int timeout_seconds(void)
{
    const char *value = getenv("REFCL_BUILD_TIMEOUT");
    return value ? atoi(value) : 300;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload") != NULL;
}

static bool server_used(void)
{
    const char *value = getenv("REFCL_COMPILER_SERVER");
    return !value || strcmp(value, "0");
}

static void build_fine(int n)
{
    char text[128];
    snprintf(text, sizeof(text),
             "kernel void k(global int *p) { p[0] = %d; }\n", n);
    cl_program program = program_in(context, text);
    CHECK_EQ(clBuildProgram(program, 1, &device, NULL, NULL, NULL),
             CL_SUCCESS);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* A build of @p text with @p options must fail within the limit (plus
 * the time of the tools' start), its log saying the limit stopped it, or,
 * where @p memory_too, that it ran out of the memory allowed. */
static void check_stopped_build(const char *what, const char *text,
                                const char *options, bool memory_too)
{
    cl_program program = program_in(context, text);
    double start = now();
    cl_int err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    double took = now() - start;
    /* "CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program
     * executable." */
    CHECK_EQ(err, CL_BUILD_PROGRAM_FAILURE);
    if (took > timeout_seconds() + 5.0) {
        fprintf(stderr, "%s: the build took %.1f s\n", what, took);
        CHECK(took <= timeout_seconds() + 5.0);
    }
    char *log = build_log_of(program, device);
    char line[128];
    snprintf(line, sizeof(line), "refcl: the compiler ran past "
             "REFCL_BUILD_TIMEOUT=%d s and was stopped\n",
             timeout_seconds());
    bool said = strstr(log, line) ||
                (memory_too && strstr(log, "REFCL_BUILD_MEMORY"));
    if (!said)
        fprintf(stderr, "%s: the log:\n%s\n", what, log);
    CHECK(said);
    free(log);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
}

/* 1 KB of macros whose expansion is 2^41 terms. */
static const char bomb[] =
    "#define A0 1+1\n#define A1 A0+A0\n#define A2 A1+A1\n#define A3 A2+A2\n"
    "#define A4 A3+A3\n#define A5 A4+A4\n#define A6 A5+A5\n"
    "#define A7 A6+A6\n#define A8 A7+A7\n#define A9 A8+A8\n"
    "#define A10 A9+A9\n#define A11 A10+A10\n#define A12 A11+A11\n"
    "#define A13 A12+A12\n#define A14 A13+A13\n#define A15 A14+A14\n"
    "#define A16 A15+A15\n#define A17 A16+A16\n#define A18 A17+A17\n"
    "#define A19 A18+A18\n#define A20 A19+A19\n#define A21 A20+A20\n"
    "#define A22 A21+A21\n#define A23 A22+A22\n#define A24 A23+A23\n"
    "#define A25 A24+A24\n#define A26 A25+A25\n#define A27 A26+A26\n"
    "#define A28 A27+A27\n#define A29 A28+A28\n#define A30 A29+A29\n"
    "#define A31 A30+A30\n#define A32 A31+A31\n#define A33 A32+A32\n"
    "#define A34 A33+A33\n#define A35 A34+A34\n#define A36 A35+A35\n"
    "#define A37 A36+A36\n#define A38 A37+A37\n#define A39 A38+A38\n"
    "#define A40 A39+A39\n"
    "kernel void bomb(global int *p) { p[0] = A40; }\n";

static void check_bomb(void)
{
    check_stopped_build("the preprocessor bomb", bomb, NULL, true);
}

/* A directory with a FIFO nobody writes, blocks.h: the compiler's open()
 * of it blocks. */
struct fifo_dir {
    char dir[32], fifo[64], options[64];
};

static const char fifo_source[] =
    "#include \"blocks.h\"\nkernel void k(global int *p) { p[0] = 1; }\n";

static void fifo_make(struct fifo_dir *f)
{
    snprintf(f->dir, sizeof(f->dir), "/tmp/refcl-fifo-XXXXXX");
    CHECK(mkdtemp(f->dir) != NULL);
    snprintf(f->fifo, sizeof(f->fifo), "%s/blocks.h", f->dir);
    CHECK_EQ(mkfifo(f->fifo, 0600), 0);
    snprintf(f->options, sizeof(f->options), "-I %s", f->dir);
}

static void fifo_remove(struct fifo_dir *f)
{
    CHECK_EQ(unlink(f->fifo), 0);
    CHECK_EQ(rmdir(f->dir), 0);
}

/* The persistent compiler opens only regular files: the FIFO's include
 * fails at once, the log naming it. Each tool a process of its own
 * (Debian's clang), the build ends at the deadline. */
static void check_fifo(void)
{
    struct fifo_dir f;
    fifo_make(&f);
    if (!server_used()) {
        check_stopped_build("the FIFO include", fifo_source, f.options,
                            false);
        fifo_remove(&f);
        return;
    }
    cl_program program = program_in(context, fifo_source);
    double start = now();
    CHECK_EQ(clBuildProgram(program, 1, &device, f.options, NULL, NULL),
             CL_BUILD_PROGRAM_FAILURE);
    CHECK(now() - start < timeout_seconds());
    char *log = build_log_of(program, device);
    char line[128];
    snprintf(line, sizeof(line), "cannot open file '%s'", f.fifo);
    CHECK(strstr(log, line) != NULL);
    free(log);
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    fifo_remove(&f);
}

/* A stopped server (SIGSTOP) is killed at the deadline, and the next
 * build spawns another. */
static void check_stopped_server(void)
{
    build_fine(1);
    int pids[MAX_SERVERS];
    int count = find_servers(pids);
    CHECK(count >= 1);
    for (int i = 0; i < count; i++)
        CHECK_EQ(kill(pids[i], SIGSTOP), 0);
    check_stopped_build("the stopped server",
                        "kernel void k(global int *p) { p[0] = 2; }\n", NULL,
                        false);
    build_fine(3);
    /* The stopped ones were killed at the deadline or by the unload: none
     * is left behind stopped. */
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    for (int i = 0; i < count; i++)
        CHECK(!is_server(pids[i]));
}

/* Whether @p pid is gone (or a zombie: init reaps it). */
static bool gone(int pid)
{
    char path[64], state = 0;
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    bool zombie = fscanf(f, "%*d (%*[^)]) %c", &state) == 1 && state == 'Z';
    fclose(f);
    return zombie;
}

/* Whether @p pid works in a build directory: a server in a job, or clang
 * (REFCL_COMPILER_SERVER=0) once setpriv has given it its parent-death
 * signal and become it (just spawned, the process has the spawner's name,
 * then setpriv's). */
static bool in_build_directory(int pid)
{
    char cwd[512];
    cwd_of(pid, cwd, sizeof(cwd));
    return strstr(cwd, "/refcl-") != NULL &&
           (is_server(pid) || is_named(pid, "clang"));
}

/* A child killed while the process building for it (its server, or the
 * tool it ran) is busy with a build (the bomb): that process ends at
 * once, and the build's directory is removed, by the server at once, or
 * by the next build of anyone (one-shot: the killed child could not). */
static void check_dying_application(void)
{
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        cl_program program = program_in(context, bomb);
        clBuildProgram(program, 1, &device, NULL, NULL, NULL);
        _exit(0);
    }
    CHECK(child > 0);
    int builder = 0;
    char cwd[512] = "";
    for (int tries = 0; tries < 2000 && !builder; tries++) {
        int pids[MAX_SERVERS];
        if (children_of(child, in_build_directory, pids) == 1) {
            builder = pids[0];
            cwd_of(builder, cwd, sizeof(cwd));
        }
        pause_ms(5);
    }
    CHECK(builder != 0);
    CHECK_EQ(kill(child, SIGKILL), 0);
    int status;
    CHECK_EQ(waitpid(child, &status, 0), child);
    for (int i = 0; i < 1000 && builder && !gone(builder); i++)
        pause_ms(1);
    CHECK(builder && gone(builder));
    if (!server_used())
        build_fine(1);
    struct stat st;
    CHECK(cwd[0] && stat(cwd, &st) != 0);
}

/* The inode of a pipe, as /proc/PID/fd names it: "pipe:[N]". */
static void pipe_name(int fd, char *name, size_t room)
{
    struct stat st;
    CHECK_EQ(fstat(fd, &st), 0);
    snprintf(name, room, "pipe:[%lu]", (unsigned long)st.st_ino);
}

/* Whether @p pid holds a descriptor whose link reads @p name. */
static bool holds(int pid, const char *name)
{
    char dir[64];
    snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
    DIR *fds = opendir(dir);
    bool found = false;
    for (struct dirent *e; fds && (e = readdir(fds)) && !found;) {
        char path[320], link[128];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        ssize_t n = readlink(path, link, sizeof(link) - 1);
        link[n > 0 ? n : 0] = '\0';
        found = n > 0 && !strcmp(link, name);
    }
    if (fds)
        closedir(fds);
    return found;
}

/* A pipe without close-on-exec: the compiler processes spawned after it
 * hold no copy, so its reader sees end-of-file once the writer closes. */
static void check_inherited_pipe(void)
{
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    char name[64];
    pipe_name(fds[1], name, sizeof(name));
    build_fine(4);
    int pids[MAX_SERVERS];
    int count = find_servers(pids);
    CHECK(count >= 1 || !server_used());
    for (int i = 0; i < count; i++)
        CHECK(!holds(pids[i], name));
    close(fds[1]);
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, 1000);
    CHECK_EQ(ready, 1);
    char byte;
    if (ready == 1)
        CHECK_EQ(read(fds[0], &byte, 1), 0);
    close(fds[0]);
}

/* The sockets this process holds ("socket:[N]"), up to @p room. */
static int own_sockets(char names[][64], int room)
{
    int count = 0;
    DIR *fds = opendir("/proc/self/fd");
    for (struct dirent *e; fds && (e = readdir(fds)) && count < room;) {
        char path[320];
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, names[count], 63);
        names[count][n > 0 ? n : 0] = '\0';
        if (n > 0 && !strncmp(names[count], "socket:", 7))
            count++;
    }
    if (fds)
        closedir(fds);
    return count;
}

/* A fork()ed child that lives on (20 s) holds no copy of the parent's
 * connections to its servers, and the parent's clUnloadPlatformCompiler
 * ends them without waiting for the child. */
static void check_fork_unload(void)
{
    build_fine(5);
    char sockets[MAX_SERVERS][64];
    int count = own_sockets(sockets, MAX_SERVERS);
    CHECK(count >= 1 || !server_used());
    int verdict[2];
    CHECK_EQ(pipe(verdict), 0);
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        char kept = 'n';
        for (int i = 0; i < count; i++)
            if (holds(getpid(), sockets[i]))
                kept = 'y';
        ssize_t written = write(verdict[1], &kept, 1);
        (void)written;
        sleep(20);
        _exit(0);
    }
    CHECK(child > 0);
    close(verdict[1]);
    char kept = 0;
    CHECK_EQ(read(verdict[0], &kept, 1), 1);
    close(verdict[0]);
    CHECK_EQ(kept, 'n');
    double start = now();
    CHECK_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
    double took = now() - start;
    /* Under valgrind everything of this process is slower, the 20 s of a
     * wait on the child are not. */
    double bound = under_valgrind() ? 5.0 : 1.0;
    if (took > bound)
        fprintf(stderr, "clUnloadPlatformCompiler took %.1f s\n", took);
    CHECK(took <= bound);
    int pids[MAX_SERVERS];
    CHECK_EQ(find_servers(pids), 0);
    kill(child, SIGKILL);
    int status;
    CHECK_EQ(waitpid(child, &status, 0), child);
}

/* The checks, run in this order; named on the command line, only those. */
static const struct {
    const char *name;
    void (*run)(void);
    bool timed, needs_server;
} checks[] = {
    {"bomb", check_bomb, true, false},
    {"fifo", check_fifo, true, false},
    {"stopped-server", check_stopped_server, true, true},
    {"dying-application", check_dying_application, true, false},
    {"inherited-pipe", check_inherited_pipe, false, false},
    {"fork-unload", check_fork_unload, false, false},
};

static bool chosen(const char *name, int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], name))
            return true;
    return argc < 2;
}

int main(int argc, char **argv)
{
    if (!test_first_device(&platform, &device))
        return 1;
    if (!test_compiler_available(device))
        return TEST_SKIP;
    cl_int err = 1;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        if (!chosen(checks[i].name, argc, argv))
            continue;
        if (checks[i].timed && under_valgrind())
            fprintf(stderr, "%s: under valgrind, a build stopped at the "
                            "limit is not timed: skipped\n", checks[i].name);
        else if (checks[i].needs_server && !server_used())
            fprintf(stderr, "%s: needs the persistent compiler "
                            "(REFCL_COMPILER_SERVER=0): skipped\n",
                    checks[i].name);
        else
            checks[i].run();
    }
    CHECK_EQ(clReleaseContext(context), CL_SUCCESS);
    return TEST_RESULT();
}
