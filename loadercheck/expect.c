/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expectations: the checks a given loader is known to fail, each with the
 * reason, so that CI fails only when the results change. A line is
 *
 *   <check name or glob pattern> <reason>
 *   ~<check name or glob pattern> <reason>
 *
 * the second for results that vary from run to run (a loader reading
 * memory it freed fails or not depending on the allocator). Lines starting
 * with # and blank lines are comments.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct expectation {
    char pattern[128];
    char reason[512];
    bool unstable;
    int matched;  /* checks that ran and match */
    int failing;  /* ... and failed */
    int line;
};

#define MAX_EXPECTATIONS 512

static int expectations_read(FILE *in, struct expectation *list)
{
    char text[1024];
    int count = 0, line = 0;
    while (count < MAX_EXPECTATIONS && fgets(text, sizeof(text), in)) {
        line++;
        char *p = text;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        struct expectation *e = &list[count++];
        memset(e, 0, sizeof(*e));
        e->line = line;
        e->unstable = *p == '~';
        p += e->unstable;
        size_t length = strcspn(p, " \t\n");
        snprintf(e->pattern, sizeof(e->pattern), "%.*s", (int)length, p);
        p += length;
        while (isspace((unsigned char)*p))
            p++;
        snprintf(e->reason, sizeof(e->reason), "%s", p);
        e->reason[strcspn(e->reason, "\n")] = '\0';
    }
    return count;
}

static struct expectation *matching(struct expectation *list, int count,
                                    const char *id)
{
    for (int i = 0; i < count; i++)
        if (!fnmatch(list[i].pattern, id, 0))
            return &list[i];
    return NULL;
}

bool expect_compare(FILE *out, const char *path,
                    const struct report_data *data, bool filtered)
{
    static struct expectation list[MAX_EXPECTATIONS];
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(out, "expectations: cannot read %s\n", path);
        return false;
    }
    int count = expectations_read(in, list);
    fclose(in);
    bool same = true;
    int expected = 0;
    fprintf(out, "\nexpectations (%s):\n", path);
    for (size_t i = 0; i < data->count; i++) {
        if (!data->done[i])
            continue;
        struct expectation *e = matching(list, count, data->checks[i].id);
        bool failed = data->outcomes[i].status == STATUS_FAIL;
        if (e) {
            e->matched++;
            e->failing += failed;
            expected += failed;
        } else if (failed) {
            same = false;
            fprintf(out, "  new failure: %s\n", data->checks[i].id);
        }
    }
    for (int i = 0; i < count; i++) {
        struct expectation *e = &list[i];
        if (e->failing)
            fprintf(out, "  expected: %s (%d failing): %s\n", e->pattern,
                    e->failing, e->reason);
        if (e->matched && !e->failing && !e->unstable) {
            same = false;
            fprintf(out, "  now passing (line %d, remove it): %s\n", e->line,
                    e->pattern);
        } else if (!e->matched && !filtered) {
            same = false;
            fprintf(out, "  matches no check (line %d): %s\n", e->line,
                    e->pattern);
        }
    }
    fprintf(out, "  %d failures expected, %s\n", expected,
            same ? "results as expected" : "results differ");
    return same;
}
