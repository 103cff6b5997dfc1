/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running a scenario's checks in child processes. A child sets the
 * scenario up (session_open: the loader, the vendors, their objects), then
 * runs checks in plan order and reports each on a pipe, one line each:
 *
 *   S                     set up
 *   E <reason>            cannot set up (the loader cannot be loaded)
 *   B <index>             check <index> begins
 *   R <index> <status> <microseconds> <detail>
 *
 * A loader that crashes (or hangs) costs the check that was running: the
 * parent reports it as a failure with the signal, and starts a new child
 * for the checks after it. A loader initialises once per process, so each
 * scenario needs a process of its own anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "session.h"

volatile sig_atomic_t runner_stop;

/* @p text into @p out of @p size bytes, cut if longer. */
static void copy_text(char *out, size_t size, const char *text)
{
    size_t length = strnlen(text, size - 1);
    memcpy(out, text, length);
    out[length] = '\0';
}

/* ---- the child ---- */

static void report_line(int fd, size_t index, const struct outcome *outcome)
{
    char detail[sizeof(outcome->detail)];
    copy_text(detail, sizeof(detail), outcome->detail);
    for (char *c = detail; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    size_t length = strlen(detail); /* outcome_fail's "; " separators */
    while (length && (detail[length - 1] == ' ' || detail[length - 1] == ';'))
        detail[--length] = '\0';
    dprintf(fd, "R %zu %d %llu %s\n", index, (int)outcome->status,
            outcome->micros, detail);
}

static unsigned long long now_micros(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (unsigned long long)now.tv_sec * 1000000u +
           (unsigned long long)now.tv_nsec / 1000u;
}

static _Noreturn void child_run(int fd, const struct run *run, size_t first,
                                size_t last)
{
    static struct session session;
    char why[512];
    signal(SIGINT, SIG_DFL); /* the parent's handler cleans up, not ours */
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    dup2(STDERR_FILENO, STDOUT_FILENO); /* the report owns stdout */
    if (!session_open(&session, run->checks[first].scenario, run->dir,
                      run->loader, why, sizeof(why))) {
        dprintf(fd, "E %s\n", why);
        _exit(0);
    }
    session.seed = run->seed;
    dprintf(fd, "S\n");
    for (size_t i = first; i <= last; i++) {
        if (!run->selected[i])
            continue;
        dprintf(fd, "B %zu\n", i);
        struct outcome outcome = {STATUS_OK, 0, ""};
        unsigned long long start = now_micros();
        run->checks[i].run(&session, &run->checks[i], &outcome);
        outcome.micros = now_micros() - start;
        report_line(fd, i, &outcome);
    }
    _exit(0);
}

/* ---- the parent ---- */

/* Lines from a child's pipe, read a buffer at a time. */
struct reader {
    int fd;
    char buffer[4096];
    size_t start, end;
};

/* The next line into @p line, waiting at most @p seconds for each piece:
 * 1 a line, 0 end of file, -1 timeout, -2 the run was stopped. */
static int read_line(struct reader *in, char *line, size_t size,
                     unsigned seconds)
{
    size_t length = 0;
    for (;;) {
        while (in->start < in->end) {
            char c = in->buffer[in->start++];
            if (c == '\n') {
                line[length] = '\0';
                return 1;
            }
            if (length + 1 < size)
                line[length++] = c;
        }
        struct pollfd p = {in->fd, POLLIN, 0};
        int ready = runner_stop ? -1 : poll(&p, 1, (int)seconds * 1000);
        if (runner_stop)
            return -2;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return -1;
        ssize_t n = read(in->fd, in->buffer, sizeof(in->buffer));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            line[length] = '\0';
            return length ? 1 : 0;
        }
        in->start = 0;
        in->end = (size_t)n;
    }
}

static void fail(struct run *run, size_t index, const char *format,
                 const char *why)
{
    char detail[4096]; /* room for a whole line from the child: cut below */
    snprintf(detail, sizeof(detail), format, why);
    run->outcomes[index].status = STATUS_FAIL;
    copy_text(run->outcomes[index].detail,
              sizeof(run->outcomes[index].detail), detail);
    run->done[index] = true;
}

static void fail_rest(struct run *run, size_t from, size_t last,
                      const char *format, const char *why)
{
    for (size_t i = from; i <= last; i++)
        if (run->selected[i] && !run->done[i])
            fail(run, i, format, why);
}

static void signal_text(int status, bool timed_out, unsigned seconds,
                        char *text, size_t size)
{
    if (runner_stop)
        snprintf(text, size, "the run was interrupted");
    else if (timed_out)
        snprintf(text, size, "no answer within %u s: killed", seconds);
    else if (WIFSIGNALED(status))
        snprintf(text, size, "SIG%s", sigabbrev_np(WTERMSIG(status)) ?
                                      sigabbrev_np(WTERMSIG(status)) : "?");
    else
        snprintf(text, size, "exit status %d", WEXITSTATUS(status));
}

/* What the parent knows of a child so far. */
struct progress {
    size_t next;     /* the first check not reported yet */
    size_t current;  /* the check running, or SIZE_MAX */
    bool set_up;
};

/* One line from the child. */
static void take_line(struct run *run, size_t last, const char *line,
                      struct progress *progress)
{
    size_t index;
    int status, offset = 0;
    unsigned long long micros;
    if (line[0] == 'S') {
        progress->set_up = true;
    } else if (line[0] == 'E') {
        fail_rest(run, progress->next, last, "cannot set up: %.900s",
                  line + 2); /* cut to fit a detail */
    } else if (line[0] == 'B' && sscanf(line, "B %zu", &index) == 1) {
        progress->current = index;
    } else if (line[0] == 'R' &&
               sscanf(line, "R %zu %d %llu %n", &index, &status, &micros,
                      &offset) == 3 &&
               index <= last) {
        run->outcomes[index].status = (enum status)status;
        run->outcomes[index].micros = micros;
        copy_text(run->outcomes[index].detail,
                  sizeof(run->outcomes[index].detail), line + offset);
        run->done[index] = true;
        progress->current = SIZE_MAX;
        progress->next = index + 1;
    }
}

/* After the child ended: the check it died in, or those it never ran.
 * Returns where the next child starts. */
static size_t settle(struct run *run, size_t last,
                     const struct progress *progress, const char *why)
{
    if (progress->current != SIZE_MAX && !runner_stop) {
        fail(run, progress->current, "the process crashed in this check (%s)",
             why);
        return progress->current + 1;
    }
    if (!progress->set_up)
        fail_rest(run, progress->next, last,
                  "not run: the process crashed while the loader loaded the "
                  "vendors (%s)",
                  why);
    else
        fail_rest(run, progress->next, last,
                  "not run: the process ended early (%s)", why);
    return last + 1;
}

/* One child, from check @p next on; returns where the next child starts. */
static size_t child_round(struct run *run, size_t next, size_t last)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        fail_rest(run, next, last, "cannot run: %s", strerror(errno));
        return last + 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_run(fds[1], run, next, last);
    }
    close(fds[1]);
    struct progress progress = {next, SIZE_MAX, false};
    bool timed_out = false;
    char line[2048];
    static struct reader in;
    in = (struct reader){.fd = fds[0]};
    for (int got; pid > 0 && (got = read_line(&in, line, sizeof(line),
                                             run->timeout)) != 0;) {
        if (got < 0) {
            kill(pid, SIGKILL);
            timed_out = got == -1;
            break;
        }
        take_line(run, last, line, &progress);
    }
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    char why[128];
    signal_text(status, timed_out, run->timeout, why, sizeof(why));
    return settle(run, last, &progress, why);
}

void runner_scenario(struct run *run, size_t first, size_t last)
{
    size_t next = first;
    while (next <= last && !runner_stop) {
        while (next <= last && !run->selected[next])
            next++;
        if (next > last)
            break;
        next = child_round(run, next, last);
    }
}
