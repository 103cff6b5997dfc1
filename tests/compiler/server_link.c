/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refcl-compiler's ld jobs (compiler/server/link.cpp), spoken to directly
 * over its protocol: an input that is not there is a failed link and the
 * server takes the next job; an object lld cannot parse (its fatal-error
 * path) fails with a log and ends the server unanswered, as a crash would,
 * rather than leave a process whose linker state nobody trusts.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

extern char **environ;

static int server_fd;
static pid_t server_pid;
static char dir[] = "/tmp/refcl-server-link-XXXXXX";

static void spawn_server(void)
{
    int pair[2];
    CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], 3);
    char *argv[] = {REFCL_TEST_SERVER, NULL};
    CHECK_EQ(posix_spawn(&server_pid, argv[0], &actions, NULL, argv, environ),
             0);
    posix_spawn_file_actions_destroy(&actions);
    close(pair[1]);
    server_fd = pair[0];
}

static void put(const void *p, uint32_t size)
{
    CHECK_EQ(write(server_fd, p, size), (ssize_t)size);
}

/* ld's job on @p input in the directory; @return the bytes of the answer
 * read (4, or 0 if the server ended first) and the answer in @p status. */
static ssize_t link_job(const char *input, int32_t *status)
{
    const char *strings[] = {dir, "/usr/bin/ld", "-shared", "-o",
                             "program.so", input};
    uint32_t count = sizeof(strings) / sizeof(strings[0]);
    put(&count, sizeof(count));
    for (uint32_t i = 0; i < count; i++) {
        uint32_t length = (uint32_t)strlen(strings[i]);
        put(&length, sizeof(length));
        put(strings[i], length);
    }
    return read(server_fd, status, sizeof(*status));
}

static bool log_says(const char *text)
{
    char path[64], log[8192] = {0};
    snprintf(path, sizeof(path), "%s/build.log", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(log, 1, sizeof(log) - 1, f);
    fclose(f);
    log[n] = '\0';
    return strstr(log, text) != NULL;
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    spawn_server();
    int32_t status = -1;
    CHECK_EQ(link_job("missing.o", &status), 4);
    CHECK_EQ(status, 1);
    CHECK(log_says("missing.o"));

    /* An ELF header with a section header size no ELF has. */
    static const char garbage[] = "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\1\0\76\0"
                                  "\1\0\0\0garbagegarbagegarbagegarbage";
    char path[64];
    snprintf(path, sizeof(path), "%s/bad.o", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK_EQ(write(fd, garbage, sizeof(garbage)), (ssize_t)sizeof(garbage));
    close(fd);
    CHECK_EQ(link_job("bad.o", &status), 0);
    CHECK(log_says("refcl-compiler: the link did not finish"));
    int ended = 0;
    CHECK_EQ(waitpid(server_pid, &ended, 0), server_pid);
    CHECK(WIFEXITED(ended) && WEXITSTATUS(ended) == 1);
    close(server_fd);

    const char *files[] = {"build.log", "bad.o"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
    return TEST_RESULT();
}
