/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program/cache-trust: what the build cache refuses to trust
 * (docs/security.md). An entry is forged as another user could plant it:
 * the entry of a kernel that writes 2, its key rewritten to that of the
 * kernel that writes 1 and its checksum recomputed. In a directory of this
 * user's own, owned by this user, the forgery is a hit (so the forging is
 * right, and the refusals below are the checks at work); it is refused,
 * and the kernel built again, when the entry belongs to another user (as
 * root: chowned to nobody), when the directory or the entry is writable by
 * others, and when the entry is a link to the forgery. A FIFO at the entry's
 * path is not waited on. The cache keeps at most REFCL_CACHE_MAX bytes,
 * evicting the entry least recently used; with no home to put it in, it
 * lives in /var/tmp/refcl-cache-<uid>.
 * Skipped (77) where the device reports no compiler.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../compiler/exec.h"

#define ENTRY_NAME_LENGTH 32

static char dir[512];

/* Builds the kernel that writes @p value, runs it and returns what it
 * wrote. */
static int build_run(int value)
{
    char source[128];
    snprintf(source, sizeof(source),
             "kernel void k(global int *p) { p[0] = %d; }\n", value);
    cl_program program = exec_build(source, "");
    if (!program)
        return -1;
    cl_int got = exec_one_int(program, "k");
    CHECK_EQ(clReleaseProgram(program), CL_SUCCESS);
    return got;
}

/* The names of the cache's entries into @p names (up to @p room); their
 * count. */
static int entries(char names[][ENTRY_NAME_LENGTH + 1], int room)
{
    DIR *d = opendir(dir);
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strlen(e->d_name) != ENTRY_NAME_LENGTH)
            continue;
        if (count < room)
            memcpy(names[count], e->d_name, ENTRY_NAME_LENGTH + 1);
        count++;
    }
    if (d)
        closedir(d);
    return count;
}

/* The one entry the last build added: the name in @p after missing from
 * @p before. */
static void new_entry(char before[][ENTRY_NAME_LENGTH + 1], int count,
                      char *name)
{
    char after[16][ENTRY_NAME_LENGTH + 1];
    int n = entries(after, 16);
    name[0] = '\0';
    for (int i = 0; i < n && i < 16; i++) {
        bool seen = false;
        for (int j = 0; j < count; j++)
            seen |= !strcmp(after[i], before[j]);
        if (!seen)
            memcpy(name, after[i], ENTRY_NAME_LENGTH + 1);
    }
    CHECK(name[0] != '\0');
}

/* Builds @p value and returns its entry's name in @p name. */
static void build_entry(int value, char *name)
{
    char before[16][ENTRY_NAME_LENGTH + 1];
    int count = entries(before, 16);
    CHECK_EQ(build_run(value), value);
    new_entry(before, count, name);
}

static void path_of(const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%.*s", dir, ENTRY_NAME_LENGTH, name);
}

static void file_write(const char *path, const unsigned char *bytes,
                       size_t size, mode_t mode)
{
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    CHECK(fd >= 0);
    CHECK_EQ((size_t)write(fd, bytes, size), size);
    CHECK_EQ(fchmod(fd, mode), 0); /* whatever the umask */
    close(fd);
}

/* The entry of @p from, made to pass for the entry @p to: its key (bytes
 * 8 to 24, after the magic) taken from @p to's file, its checksum
 * recomputed. */
static unsigned char *forge(const char *from, const char *to, size_t *size)
{
    char path[1024];
    size_t to_size = 0;
    path_of(to, path, sizeof(path));
    unsigned char *target = test_file_read(path, &to_size);
    path_of(from, path, sizeof(path));
    unsigned char *bytes = test_file_read(path, size);
    if (!target || !bytes || *size < 32 || to_size < 32) {
        CHECK(false);
        exit(1);
    }
    memcpy(bytes + 8, target + 8, 16);
    test_checksum_fix(bytes, *size);
    free(target);
    return bytes;
}

static void check_planted(void)
{
    char one[ENTRY_NAME_LENGTH + 1], two[ENTRY_NAME_LENGTH + 1];
    build_entry(1, one);
    build_entry(2, two);
    size_t size;
    unsigned char *forged = forge(two, one, &size);
    char path[1024];
    path_of(one, path, sizeof(path));

    /* This user's own entry in this user's own directory: trusted. */
    file_write(path, forged, size, 0600);
    CHECK_EQ(build_run(1), 2);

    if (geteuid() == 0) {
        file_write(path, forged, size, 0600);
        CHECK_EQ(chown(path, 65534, 65534), 0);
        CHECK_EQ(build_run(1), 1);
    } else {
        printf("an entry of another user: only as root (chown)\n");
    }

    file_write(path, forged, size, 0666);
    CHECK_EQ(build_run(1), 1);

    file_write(path, forged, size, 0600);
    CHECK_EQ(chmod(dir, 0777), 0);
    CHECK_EQ(build_run(1), 1);
    CHECK_EQ(chmod(dir, 0700), 0);

    char elsewhere[1024];
    snprintf(elsewhere, sizeof(elsewhere), "%s.forged", dir);
    file_write(elsewhere, forged, size, 0600);
    unlink(path);
    CHECK_EQ(symlink(elsewhere, path), 0);
    CHECK_EQ(build_run(1), 1);
    unlink(elsewhere);

    unlink(path);
    CHECK_EQ(mkfifo(path, 0600), 0);
    alarm(120); /* a build that waited on the FIFO would never end */
    CHECK_EQ(build_run(1), 1);
    alarm(0);
    unlink(path);
    free(forged);
}

static off_t entry_size(const char *name)
{
    char path[1024];
    struct stat st;
    path_of(name, path, sizeof(path));
    return stat(path, &st) == 0 ? st.st_size : -1;
}

static void check_eviction(void)
{
    char a[ENTRY_NAME_LENGTH + 1], b[ENTRY_NAME_LENGTH + 1];
    char c[ENTRY_NAME_LENGTH + 1], d[ENTRY_NAME_LENGTH + 1];
    build_entry(11, a);
    off_t size = entry_size(a);
    CHECK(size > 0);
    /* Room for two entries and a half. */
    char max[32];
    snprintf(max, sizeof(max), "%lld", (long long)(size * 5 / 2));
    setenv("REFCL_CACHE_MAX", max, 1);
    build_entry(12, b);
    build_entry(13, c);
    CHECK_EQ(entry_size(a), -1);
    CHECK(entry_size(b) > 0);
    CHECK(entry_size(c) > 0);
    /* A hit is a use: b, then d, push out c. */
    CHECK_EQ(build_run(12), 12);
    build_entry(14, d);
    CHECK(entry_size(b) > 0);
    CHECK_EQ(entry_size(c), -1);
    CHECK(entry_size(d) > 0);
    unsetenv("REFCL_CACHE_MAX");
}

#ifdef REFCL_TEST_DIRECT
/* Before any OpenCL call in this process (a child of a process whose
 * devices have threads would have none of them): a child with no home,
 * whose entry lands in /var/tmp/refcl-cache-<uid>. */
static void check_fallback(void)
{
    char fallback[64];
    snprintf(fallback, sizeof(fallback), "/var/tmp/refcl-cache-%u",
             (unsigned)geteuid());
    time_t start = time(NULL);
    fflush(stdout);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        unsetenv("REFCL_CACHE_DIR");
        unsetenv("XDG_CACHE_HOME");
        setenv("HOME", "/nonexistent/home", 1);
        /* A value no other build has: a miss, so a new entry. */
        exec_setup();
        int ok = build_run((int)getpid()) == (int)getpid();
        exec_teardown();
        _exit(ok && TEST_RESULT() == 0 ? 0 : 1);
    }
    int status = -1;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    snprintf(dir, sizeof(dir), "%s", fallback);
    char names[256][ENTRY_NAME_LENGTH + 1];
    int count = entries(names, 256), fresh = 0;
    for (int i = 0; i < count && i < 256; i++) {
        char path[1024];
        struct stat st;
        path_of(names[i], path, sizeof(path));
        if (stat(path, &st) == 0 && st.st_mtime >= start) {
            fresh++;
            unlink(path);
        }
    }
    CHECK(fresh >= 1);
}
#endif

int main(void)
{
#ifdef REFCL_TEST_DIRECT
    /* Once of the three routes, which run at once: each removes the entries
     * made since it started. */
    check_fallback();
#endif
    const char *base = getenv("REFCL_CACHE_DIR");
    if (!base)
        base = "/tmp/refcl-cache-trust";
    snprintf(dir, sizeof(dir), "%s.%d", base, (int)getpid());
    CHECK_EQ(mkdir(dir, 0700), 0);
    setenv("REFCL_CACHE_DIR", dir, 1);
    exec_setup();
    check_planted();
    check_eviction();
    exec_teardown();
    char command[1024];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    CHECK_EQ(system(command), 0);
    return TEST_RESULT();
}
