/* SPDX-License-Identifier: Apache-2.0 */
/* The argument checks of the subcommands: a count of arguments, or only --NAME options. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* More than any subcommand has; getopt_long needs a terminated array. */
#define MAX_OPTIONS 16

/* "cuzk setup: --pce, --params and --vk are required" */
static void print_required(const char *command, const struct cli_option *options, size_t n_options,
                           const char *usage) {
        size_t n_required = 0, printed = 0;

        for (size_t i = 0; i < n_options; i++)
                n_required += options[i].required;
        fprintf(stderr, "cuzk %s: ", command);
        for (size_t i = 0; i < n_options; i++) {
                if (!options[i].required)
                        continue;
                printed++;
                fprintf(stderr, "%s--%s",
                        printed == 1            ? ""
                        : printed == n_required ? " and "
                                                : ", ",
                        options[i].name);
        }
        fprintf(stderr, " %s required\n%s", n_required == 1 ? "is" : "are", usage);
}

static bool option_given(const struct cli_option *o) {
        return o->value ? *o->value != NULL : *o->flag;
}

int cli_parse_options(int argc, char **argv, const char *command, const struct cli_option *options,
                      size_t n_options, const char *usage) {
        struct option long_options[MAX_OPTIONS + 1] = {0};
        int c;

        assert(argv);
        assert(command);
        assert(options);
        assert(n_options <= MAX_OPTIONS);
        assert(usage);

        for (size_t i = 0; i < n_options; i++) {
                assert(options[i].value || options[i].flag);
                long_options[i] = (struct option){
                        .name = options[i].name,
                        .has_arg = options[i].value ? required_argument : no_argument,
                        .val = (int)i,
                };
                if (options[i].value)
                        *options[i].value = NULL;
                else
                        *options[i].flag = false;
        }

        optind = 0; /* the main parser used getopt already: start afresh */
        while ((c = getopt_long(argc, argv, "", long_options, NULL)) >= 0) {
                if (c == '?' || (size_t)c >= n_options) {
                        /* getopt_long said what it did not understand. */
                        fprintf(stderr, "Try 'cuzk %s --help'.\n", command);
                        return -EINVAL;
                }
                if (options[c].value)
                        *options[c].value = optarg;
                else
                        *options[c].flag = true;
        }
        if (optind != argc) {
                fprintf(stderr, "cuzk %s: unexpected argument '%s': only options\n%s", command,
                        argv[optind], usage);
                return -EINVAL;
        }
        for (size_t i = 0; i < n_options; i++)
                if (options[i].required && !option_given(&options[i])) {
                        print_required(command, options, n_options, usage);
                        return -EINVAL;
                }
        return 0;
}

bool cli_arguments_ok(int argc, char **argv, int n_args, const char *command, const char *usage,
                      int *ret_exit) {
        assert(argv);
        assert(command);
        assert(usage);
        assert(ret_exit);

        if (cli_wants_help(argc, argv, usage)) {
                *ret_exit = EXIT_OK;
                return false;
        }
        if (argc - 1 != n_args) {
                fprintf(stderr, "cuzk %s: expected %d argument%s, got %d\n%s", command, n_args,
                        n_args == 1 ? "" : "s", argc - 1, usage);
                *ret_exit = EXIT_BAD_INPUT;
                return false;
        }
        return true;
}
