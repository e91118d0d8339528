/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/run.h"

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/cleanup.h"

int test_run_shell(char **ret_output, bool merge_stderr, const char *format, ...) {
        _cleanup_free_ char *line = NULL, *command = NULL;
        char *output = NULL;
        size_t size = 0;
        FILE *out, *pipe;
        va_list ap;
        int status;

        va_start(ap, format);
        assert_true(vasprintf(&line, format, ap) >= 0);
        va_end(ap);
        assert_true(asprintf(&command, "%s %s", line, merge_stderr ? "2>&1" : "2>/dev/null") >= 0);
        out = open_memstream(&output, &size);
        assert_non_null(out);
        pipe = popen(command, "r");
        assert_non_null(pipe);
        for (int c; (c = fgetc(pipe)) != EOF;)
                fputc(c, out);
        status = pclose(pipe);
        fclose(out);
        assert_true(WIFEXITED(status));
        if (ret_output)
                *ret_output = output;
        else
                free(output);
        return WEXITSTATUS(status);
}

void test_assert_contains(const char *haystack, const char *needle) {
        if (!strstr(haystack, needle))
                fail_msg("expected \"%s\" in:\n%s", needle, haystack);
}
