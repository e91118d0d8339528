/* SPDX-License-Identifier: Apache-2.0 */
/* cuzkd.conf: the defaults, every key, every kind of error with its file:line
 * message, drop-in order, missing files, and config_parse_size. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/log.h"
#include "cuda/gpu-tuning.h"
#include "daemon/supervisor/config-keys.h"
#include "daemon/supervisor/config.h"
#include "tests/lib/fixture.h"

/* A fresh directory per case, *state, with conf = <dir>/cuzkd.conf. */
struct fixture {
        char dir[64];
        char conf[128];
        char dropins[128];
};

static int setup(void **state) {
        struct fixture *f = calloc(1, sizeof(*f));

        assert_non_null(f);
        strcpy(f->dir, "/tmp/test-config-XXXXXX");
        assert_non_null(mkdtemp(f->dir));
        snprintf(f->conf, sizeof(f->conf), "%s/cuzkd.conf", f->dir);
        snprintf(f->dropins, sizeof(f->dropins), "%s/cuzkd.conf.d", f->dir);
        test_log_capture(LOG_INFO);
        /* The defaults must not depend on the environment the tests run in. */
        unsetenv("FIL_PROOFS_PARAMETER_CACHE");
        *state = f;
        return 0;
}

static int teardown(void **state) {
        struct fixture *f = *state;

        test_remove_tree(f->dir);
        free(f);
        test_log_capture_stop();
        return 0;
}

static void write_file(const char *path, const char *text) {
        FILE *file = fopen(path, "we");

        assert_non_null(file);
        assert_int_equal(fputs(text, file) >= 0, 1);
        assert_int_equal(fclose(file), 0);
}

static void write_dropin(const struct fixture *f, const char *name, const char *text) {
        char path[256];

        (void)mkdir(f->dropins, 0755);
        snprintf(path, sizeof(path), "%s/%s", f->dropins, name);
        write_file(path, text);
}

static void test_defaults(void **state) {
        struct fixture *f = *state;
        struct config c;

        /* Neither cuzkd.conf nor cuzkd.conf.d/: the defaults, no error. */
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_string_equal(c.socket_path, "/run/cuzk/cuzk.sock");
        assert_int_equal(c.socket_mode, 0660);
        assert_string_equal(c.spool_dir, "/var/lib/cuzk/spool");
        assert_int_equal(c.log_target, CONFIG_LOG_AUTO);
        assert_int_equal(c.log_level, LOG_INFO);
        assert_int_equal(c.max_message_bytes, 128ull << 20);
        assert_int_equal(c.result_retention_sec, 3600);
        assert_int_equal(c.total_budget_bytes, 0);
        assert_int_equal(c.safety_margin_bytes, 1ull << 30);
        assert_int_equal(c.worker_slack_bytes, 64ull << 20);
        assert_int_equal(c.enforcement, CONFIG_ENFORCE_AUTO);
        assert_int_equal(c.pressure_stall_msec, 200);
        assert_int_equal(c.pressure_window_msec, 2000);
        assert_int_equal(c.pressure_resume_msec, 5000);
        assert_int_equal(c.bpf, CONFIG_AUTO);
        assert_int_equal(c.max_workers, 0);
        assert_int_equal(c.max_attempts, 3);
        assert_int_equal(c.worker_nice, 10);
        assert_int_equal(c.prover_threads, 0);
        assert_int_equal(c.gpu, CONFIG_AUTO);
        assert_true(c.devices.all);
        assert_int_equal(c.devices.n, 0);
        assert_string_equal(c.preload, "");
        assert_int_equal(c.gpu_tuning.lanes, 2);
        assert_int_equal(c.gpu_tuning.srs, GPU_SRS_AUTO);
        assert_int_equal(c.gpu_tuning.msm_window_bits, 0);
        assert_string_equal(c.parameter_cache, "/var/tmp/filecoin-proof-parameters");
        assert_string_equal(c.pce_cache, "/var/cache/cuzk");
        assert_int_equal(test_log_errors(), 0);

        /* ParameterCache= follows the Filecoin stack's variable, when it is a usable path. */
        setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/params", 1);
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_string_equal(c.parameter_cache, "/srv/params");
        setenv("FIL_PROOFS_PARAMETER_CACHE", "relative/params", 1);
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_string_equal(c.parameter_cache, "/var/tmp/filecoin-proof-parameters");
        unsetenv("FIL_PROOFS_PARAMETER_CACHE");

        /* config_load_file() leaves a missing file to its caller. */
        assert_int_equal(config_load_file(&c, f->conf), -ENOENT);
}

/* Field by field: the padding of struct config is not part of its value. */
static void assert_config_equal(const struct config *a, const struct config *b) {
        assert_string_equal(a->socket_path, b->socket_path);
        assert_int_equal(a->socket_mode, b->socket_mode);
        assert_string_equal(a->spool_dir, b->spool_dir);
        assert_int_equal(a->log_target, b->log_target);
        assert_int_equal(a->log_level, b->log_level);
        assert_int_equal(a->max_message_bytes, b->max_message_bytes);
        assert_int_equal(a->result_retention_sec, b->result_retention_sec);
        assert_int_equal(a->total_budget_bytes, b->total_budget_bytes);
        assert_int_equal(a->safety_margin_bytes, b->safety_margin_bytes);
        assert_int_equal(a->worker_slack_bytes, b->worker_slack_bytes);
        assert_int_equal(a->enforcement, b->enforcement);
        assert_int_equal(a->pressure_stall_msec, b->pressure_stall_msec);
        assert_int_equal(a->pressure_window_msec, b->pressure_window_msec);
        assert_int_equal(a->pressure_resume_msec, b->pressure_resume_msec);
        assert_int_equal(a->bpf, b->bpf);
        assert_int_equal(a->max_workers, b->max_workers);
        assert_int_equal(a->max_attempts, b->max_attempts);
        assert_int_equal(a->worker_nice, b->worker_nice);
        assert_int_equal(a->prover_threads, b->prover_threads);
        assert_int_equal(a->gpu, b->gpu);
        assert_int_equal(a->devices.all, b->devices.all);
        assert_int_equal(a->devices.n, b->devices.n);
        assert_string_equal(a->preload, b->preload);
        assert_string_equal(a->parameter_cache, b->parameter_cache);
        assert_string_equal(a->pce_cache, b->pce_cache);
        assert_int_equal(a->gpu_tuning.lanes, b->gpu_tuning.lanes);
        assert_int_equal(a->gpu_tuning.srs, b->gpu_tuning.srs);
        assert_int_equal(a->gpu_tuning.msm_window_bits, b->gpu_tuning.msm_window_bits);
        assert_int_equal(a->compact_witness, b->compact_witness);
        for (unsigned i = 0; i < a->devices.n; i++)
                assert_int_equal(a->devices.ordinals[i], b->devices.ordinals[i]);
}

/* The example configuration installed as /etc/cuzk/cuzkd.conf: every key
 * commented out, so loading it gives the defaults; uncommented, every
 * value it shows is the default too; and cuzkd.conf(5) documents each key. */
static void test_example_config(void **state) {
        struct fixture *f = *state;
        struct config loaded, defaults;
        char line[512], entry[64], entry_r[64], man[32768];
        FILE *in, *out;
        int keys = 0, documented = 0, len;
        size_t n;

        (void)f;
        config_init(&defaults);
        assert_int_equal(config_load(&loaded, CUZK_SOURCE_ROOT "/daemon/cuzkd.conf"), 0);
        assert_config_equal(&loaded, &defaults);

        in = fopen(CUZK_SOURCE_ROOT "/man/cuzkd.conf.5", "re");
        assert_non_null(in);
        n = fread(man, 1, sizeof(man) - 1, in);
        fclose(in);
        assert_true(n > 0 && n < sizeof(man) - 1);
        man[n] = 0;

        in = fopen(CUZK_SOURCE_ROOT "/daemon/cuzkd.conf", "re");
        assert_non_null(in);
        out = fopen(f->conf, "we");
        assert_non_null(out);
        while (fgets(line, sizeof(line), in)) {
                /* "#Key=value" lines are the keys; "# text" lines are prose. */
                if (line[0] == '#' && line[1] >= 'A' && line[1] <= 'Z' && strchr(line, '=')) {
                        fputs(line + 1, out);
                        keys++;
                        /* cuzkd.conf(5) has ".BI Key= ..." or ".BR Key= ..." for it */
                        len = (int)(strchr(line, '=') - line - 1);
                        snprintf(entry, sizeof(entry), "\n.BI %.*s=", len, line + 1);
                        snprintf(entry_r, sizeof(entry_r), "\n.BR %.*s=", len, line + 1);
                        documented += strstr(man, entry) || strstr(man, entry_r);
                } else {
                        fputs(line, out);
                }
        }
        fclose(in);
        assert_int_equal(fclose(out), 0);
        /* Every key of the table is in the example, and has its man page entry. */
        assert_int_equal(keys, config_n_keys);
        assert_int_equal(documented, config_n_keys);
        assert_int_equal(config_load(&loaded, f->conf), 0);
        assert_config_equal(&loaded, &defaults);
}

static void test_every_key(void **state) {
        struct fixture *f = *state;
        struct config c;

        write_file(f->conf, "# every key, none at its default\n"
                            "[Daemon]\n"
                            "Socket = /run/test/x.sock\n"
                            "SocketMode=0600\n"
                            "SpoolDirectory=/srv/spool ; an inline comment\n"
                            "LogTarget=journal\n"
                            "LogLevel=debug\n"
                            "MaxMessageSize=64M\n"
                            "ResultRetention=0\n"
                            "\n"
                            "[Memory]\n"
                            "TotalBudget=512G\n"
                            "SafetyMargin=2G\n"
                            "WorkerSlack=32M\n"
                            "Enforcement=rlimit\n"
                            "PressureStall=150\n"
                            "PressureWindow=1000\n"
                            "PressureResume=0\n"
                            "BPF=no\n"
                            "[Scheduler]\n"
                            "MaxWorkers=12\n"
                            "MaxAttempts=5\n"
                            "WorkerNice=5\n"
                            "[Prover]\n"
                            "Threads=48\n"
                            "GPU=no\n"
                            "Devices=1, 0 cpu\tcpu\n"
                            "Preload=/srv/a.zkey  /srv/c.pce+/srv/c.params porep-32g\n"
                            "ParameterCache=/srv/filecoin-proof-parameters\n"
                            "PceCache=/srv/pce\n"
                            "[GPU]\n"
                            "Lanes=1\n"
                            "SrsResidence=host\n"
                            "MsmWindow=20\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_string_equal(c.socket_path, "/run/test/x.sock");
        assert_int_equal(c.socket_mode, 0600);
        assert_string_equal(c.spool_dir, "/srv/spool");
        assert_int_equal(c.log_target, CONFIG_LOG_JOURNAL);
        assert_int_equal(c.log_level, LOG_DEBUG);
        assert_int_equal(c.max_message_bytes, 64ull << 20);
        assert_int_equal(c.result_retention_sec, 0);
        assert_int_equal(c.total_budget_bytes, 512ull << 30);
        assert_int_equal(c.safety_margin_bytes, 2ull << 30);
        assert_int_equal(c.worker_slack_bytes, 32ull << 20);
        assert_int_equal(c.enforcement, CONFIG_ENFORCE_RLIMIT);
        assert_int_equal(c.pressure_stall_msec, 150);
        assert_int_equal(c.pressure_window_msec, 1000);
        assert_int_equal(c.pressure_resume_msec, 0);
        assert_int_equal(c.bpf, CONFIG_NO);
        assert_int_equal(c.max_workers, 12);
        assert_int_equal(c.max_attempts, 5);
        assert_int_equal(c.worker_nice, 5);
        assert_int_equal(c.prover_threads, 48);
        assert_int_equal(c.gpu, CONFIG_NO);
        assert_false(c.devices.all);
        assert_int_equal(c.devices.n, 4);
        assert_int_equal(c.devices.ordinals[0], 1);
        assert_int_equal(c.devices.ordinals[1], 0);
        assert_int_equal(c.devices.ordinals[2], CONFIG_DEVICE_CPU);
        assert_int_equal(c.devices.ordinals[3], CONFIG_DEVICE_CPU);
        assert_string_equal(c.preload, "/srv/a.zkey  /srv/c.pce+/srv/c.params porep-32g");
        assert_string_equal(c.parameter_cache, "/srv/filecoin-proof-parameters");
        assert_string_equal(c.pce_cache, "/srv/pce");
        assert_int_equal(c.gpu_tuning.lanes, 1);
        assert_int_equal(c.gpu_tuning.srs, GPU_SRS_HOST);
        assert_int_equal(c.gpu_tuning.msm_window_bits, 20);

        /* The other spellings of the enums. */
        write_file(f->conf, "[Daemon]\nLogTarget=stderr\nLogLevel=3\n"
                            "[Memory]\nEnforcement=cgroup1\nTotalBudget=auto\nBPF=yes\n"
                            "[Prover]\nGPU=yes\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.log_target, CONFIG_LOG_STDERR);
        assert_int_equal(c.log_level, LOG_ERR);
        assert_int_equal(c.enforcement, CONFIG_ENFORCE_CGROUP1);
        assert_int_equal(c.total_budget_bytes, 0);
        assert_int_equal(c.bpf, CONFIG_YES);
        assert_int_equal(c.gpu, CONFIG_YES);
        write_file(f->conf, "[Daemon]\nLogLevel=Warning\n[Memory]\nEnforcement=cgroup2\n"
                            "[Prover]\nGPU=auto\nDevices=ALL\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_true(c.devices.all);
        assert_int_equal(c.log_level, LOG_WARNING);
        assert_int_equal(c.enforcement, CONFIG_ENFORCE_CGROUP2);
        assert_int_equal(c.gpu, CONFIG_AUTO);
        write_file(f->conf, "[Memory]\nEnforcement=none\n[Prover]\nGPU=false\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.enforcement, CONFIG_ENFORCE_NONE);
        assert_int_equal(c.gpu, CONFIG_NO);
        /* [GPU]: each end of each range, and the residences in any case. */
        write_file(f->conf, "[GPU]\nLanes=4\nSrsResidence=Device\nMsmWindow=5\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.gpu_tuning.lanes, 4);
        assert_int_equal(c.gpu_tuning.srs, GPU_SRS_DEVICE);
        assert_int_equal(c.gpu_tuning.msm_window_bits, 5);
        write_file(f->conf, "[GPU]\nSrsResidence=AUTO\nMsmWindow=22\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.gpu_tuning.srs, GPU_SRS_AUTO);
        assert_int_equal(c.gpu_tuning.msm_window_bits, 22);
        write_file(f->conf, "[GPU]\nLanes=3\nLanes=\nMsmWindow=12\nMsmWindow=0\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.gpu_tuning.lanes, 2);
        assert_int_equal(c.gpu_tuning.msm_window_bits, 0);
        assert_int_equal(c.compact_witness, CONFIG_AUTO);
        write_file(f->conf, "[GPU]\nCompactWitness=no\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.compact_witness, CONFIG_NO);
        write_file(f->conf, "[GPU]\nCompactWitness=Yes\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.compact_witness, CONFIG_YES);

        /* WorkerNice=: each end of its range; 0 leaves the workers at cuzkd's nice. */
        write_file(f->conf, "[Scheduler]\nWorkerNice=0\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.worker_nice, 0);
        write_file(f->conf, "[Scheduler]\nWorkerNice=19\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.worker_nice, 19);

        /* An empty value restores the default; a later line wins. */
        write_file(f->conf, "[Scheduler]\nMaxAttempts=7\nMaxAttempts=\n"
                            "[Memory]\nSafetyMargin=5G\nSafetyMargin=3G\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.max_attempts, 3);
        assert_int_equal(c.safety_margin_bytes, 3ull << 30);
        assert_int_equal(test_log_errors(), 0);
}

/* Loads text as cuzkd.conf, expects -EINVAL and a message naming the line. */
static void assert_refused(const struct fixture *f, const char *text, unsigned line,
                           const char *message) {
        char where[256];
        struct config c;

        test_log_reset();
        write_file(f->conf, text);
        assert_int_equal(config_load(&c, f->conf), -EINVAL);
        snprintf(where, sizeof(where), "%s:%u: %s", f->conf, line, message);
        test_assert_logged(where);
}

static void test_errors(void **state) {
        struct fixture *f = *state;
        struct config c;
        char text[600];

        assert_refused(f, "[Daemon]\nSokcet=/x\n", 2,
                       "unknown key Sokcet in section [Daemon], expected one of Socket, "
                       "SocketMode, SpoolDirectory, LogTarget, LogLevel, MaxMessageSize");
        assert_refused(f, "[Deamon]\nSocket=/x\n", 1,
                       "unknown section [Deamon], expected [Daemon], [Memory], [Scheduler], "
                       "[Prover] or [GPU]");
        /* A section with no key below it is judged too. */
        assert_refused(f, "[Daemon]\n\n[Bogus]\n", 3, "unknown section [Bogus]");
        assert_refused(f, "Socket=/x\n", 1, "key Socket outside any section");
        assert_refused(f, "[Scheduler]\nMaxWorkers=four\n", 2,
                       "key MaxWorkers: 'four' is not a worker count, expected 0 (one per CPU) "
                       "to 4096");
        assert_refused(f, "[Scheduler]\nMaxWorkers=-1\n", 2, "key MaxWorkers: '-1' is not");
        assert_refused(f, "[Scheduler]\nMaxWorkers=4097\n", 2,
                       "key MaxWorkers: '4097' is out of range, expected 0 (one per CPU) to "
                       "4096");
        assert_refused(f, "[Scheduler]\nMaxAttempts=0\n", 2,
                       "key MaxAttempts: '0' is out of range");
        assert_refused(f, "[Scheduler]\nWorkerNice=20\n", 2,
                       "key WorkerNice: '20' is out of range, expected 0 (cuzkd's own priority) "
                       "to 19");
        assert_refused(f, "[Scheduler]\nWorkerNice=-1\n", 2,
                       "key WorkerNice: '-1' is not a nice value, expected 0 (cuzkd's own "
                       "priority) to 19");
        assert_refused(f, "[Scheduler]\nWorkerNice=abc\n", 2,
                       "key WorkerNice: 'abc' is not a nice value, expected 0 (cuzkd's own "
                       "priority) to 19");
        assert_refused(f, "[Prover]\nThreads=99999999999999999999999\n", 2,
                       "key Threads: '99999999999999999999999' is out of range");
        assert_refused(f, "[Memory]\nSafetyMargin=1.5G\n", 2,
                       "key SafetyMargin: '1.5G' is not a size, expected a byte count with an "
                       "optional K, M, G or T suffix (powers of 1024)");
        assert_refused(f, "[Memory]\nWorkerSlack=auto\n", 2,
                       "key WorkerSlack: 'auto' is not a size");
        assert_refused(f, "[Memory]\nTotalBudget=16777216T\n", 2,
                       "key TotalBudget: '16777216T' is out of range");
        assert_refused(f, "[Daemon]\nMaxMessageSize=4G\n", 2,
                       "key MaxMessageSize: '4G' is out of range");
        assert_refused(f, "[Daemon]\nMaxMessageSize=1000\n", 2,
                       "key MaxMessageSize: '1000' is out of range");
        assert_refused(f, "[Memory]\nEnforcement=cgroup3\n", 2,
                       "key Enforcement: 'cgroup3' is not an enforcement, expected auto, "
                       "cgroup2, cgroup1, rlimit or none");
        assert_refused(f, "[Daemon]\nLogTarget=syslog\n", 2,
                       "key LogTarget: 'syslog' is not a log target, expected auto, journal or "
                       "stderr");
        assert_refused(f, "[Daemon]\nLogLevel=8\n", 2, "key LogLevel: '8' is not a log level");
        assert_refused(f, "[Prover]\nGPU=maybe\n", 2,
                       "key GPU: 'maybe' is not a GPU setting, expected auto, yes or no");
        assert_refused(f, "[Prover]\nDevices=gpu0\n", 2,
                       "key Devices: 'gpu0' is not a device list, expected all, or up to 16 GPU "
                       "ordinals (0 to 255, each once) and cpu entries");
        assert_refused(f, "[Prover]\nDevices=0 1 0\n", 2, "key Devices: '0 1 0' is not");
        assert_refused(f, "[Prover]\nDevices=all 1\n", 2, "key Devices: 'all 1' is not");
        assert_refused(f, "[Prover]\nDevices=256\n", 2, "key Devices: '256' is not");
        assert_refused(f, "[Prover]\nDevices= , \n", 2, "key Devices: ',' is not");
        assert_refused(f, "[Prover]\nDevices=0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", 2,
                       "key Devices: '0 1 2");
        assert_refused(f, "[Prover]\nPreload=a.zkey\n", 2,
                       "key Preload: 'a.zkey' is not a circuit list, expected up to 16 circuit "
                       "ids separated by spaces, each a .zkey path or PCE+PARAMS");
        assert_refused(f, "[Prover]\nPreload=/c.pce+c.params\n", 2, "key Preload: '/c.pce+");
        assert_refused(f, "[Prover]\nPreload=/a+/b+/c\n", 2, "key Preload: '/a+/b+/c' is not");
        assert_refused(f, "[GPU]\nLanes=0\n", 2, "key Lanes: '0' is out of range, expected 1 to 4");
        assert_refused(f, "[GPU]\nLanes=5\n", 2, "key Lanes: '5' is out of range");
        assert_refused(f, "[GPU]\nLanes=two\n", 2,
                       "key Lanes: 'two' is not a lane count, expected 1 to 4");
        assert_refused(f, "[GPU]\nCompactWitness=maybe\n", 2,
                       "key CompactWitness: 'maybe' is not a compact witness setting, expected "
                       "auto, yes or no");
        assert_refused(f, "[GPU]\nSrsResidence=pinned\n", 2,
                       "key SrsResidence: 'pinned' is not an SRS residence, expected auto, "
                       "device or host");
        assert_refused(f, "[GPU]\nSrsResidence=devicedevicedevice\n", 2,
                       "key SrsResidence: 'devicedevicedevice' is not an SRS residence");
        assert_refused(f, "[GPU]\nMsmWindow=4\n", 2,
                       "key MsmWindow: '4' is out of range, expected 0 (automatic) or 5 to 22");
        assert_refused(f, "[GPU]\nMsmWindow=23\n", 2, "key MsmWindow: '23' is out of range");
        assert_refused(f, "[GPU]\nMsmWindow=auto\n", 2,
                       "key MsmWindow: 'auto' is not a window size, expected 0 (automatic) or 5 "
                       "to 22");
        assert_refused(f, "[Prover]\nLanes=1\n", 2,
                       "unknown key Lanes in section [Prover], expected one of Threads, "
                       "ProverStallTimeout, GPU, Devices, Preload");
        assert_refused(f, "[Memory]\nBPF=maybe\n", 2,
                       "key BPF: 'maybe' is not a BPF setting, expected auto, yes or no");
        assert_refused(f, "[Daemon]\nSocket=run/cuzk.sock\n", 2,
                       "key Socket: 'run/cuzk.sock' is not a socket path, expected an absolute "
                       "path");
        snprintf(text, sizeof(text), "[Daemon]\nSocket=/%0120d\n", 0);
        assert_refused(f, text, 2, "key Socket: '/0000");
        test_assert_logged(
                "' is out of range, expected an absolute path of at most 107 characters");
        assert_refused(f, "[Daemon]\nSpoolDirectory=spool\n", 2,
                       "key SpoolDirectory: 'spool' is not a directory");
        assert_refused(f, "[Daemon]\nSocketMode=0999\n", 2,
                       "key SocketMode: '0999' is not a file mode");
        assert_refused(f, "[Daemon]\nSocketMode=10000\n", 2,
                       "key SocketMode: '10000' is out of range");
        assert_refused(f, "[Memory]\nPressureWindow=100\n", 2,
                       "key PressureWindow: '100' is out of range, expected milliseconds from "
                       "500 to 10000");
        assert_refused(f, "[Memory]\nPressureStall=0\n", 2,
                       "key PressureStall: '0' is out of range");
        assert_refused(f, "[Memory]\nPressureResume=1s\n", 2,
                       "key PressureResume: '1s' is not a duration");
        assert_refused(f, "[Daemon]\nResultRetention=1h\n", 2,
                       "key ResultRetention: '1h' is not a duration, expected seconds from 0 to "
                       "315360000");
        assert_refused(f, "[Daemon]\nResultRetention=315360001\n", 2,
                       "key ResultRetention: '315360001' is out of range");

        /* inih's own syntax errors, with their lines. */
        assert_refused(f, "[Daemon]\nSocket\n", 2, "syntax error: 'Socket' has no '='");
        assert_refused(f, "[Daemon\nSocket=/x\n", 1, "syntax error: '[' without ']'");
        assert_refused(f, "[Daemon]\nSocket=/x\n  /y\n", 3,
                       "syntax error: '/y' has no '=' (an indented line does not continue a "
                       "value)");
        assert_refused(f, "[Scheduler]\nMaxWorkers=2\n  MaxAttempts=4\n", 3,
                       "'MaxAttempts=4': an indented line continues the value of MaxWorkers, "
                       "expected Key=Value at the start of the line");
        snprintf(text, sizeof(text), "[Daemon]\nSocket=/%0300d\n", 0);
        assert_refused(f, text, 2, "line too long");

        /* Every bad line is reported, not only the first. */
        test_log_reset();
        assert_refused(f, "[Scheduler]\nMaxWorkers=x\nMaxAttempts=y\n[Nope]\nA=1\nB\n", 2,
                       "key MaxWorkers");
        test_assert_logged(":3: key MaxAttempts");
        test_assert_logged(":4: unknown section [Nope]");
        test_assert_logged(":6: syntax error");
        assert_int_equal(test_log_errors(), 4);

        /* Keys that are fine alone but not together. */
        write_file(f->conf, "[Memory]\nPressureStall=3000\nPressureWindow=2000\n");
        assert_int_equal(config_load(&c, f->conf), -EINVAL);
        test_assert_logged(
                "PressureStall=3000 is longer than PressureWindow=2000, expected a stall "
                "of at most the window");
}

static void test_not_a_file(void **state) {
        struct fixture *f = *state;
        struct config c;

        assert_int_equal(mkdir(f->conf, 0755), 0);
        assert_int_equal(config_load(&c, f->conf), -EISDIR);
        test_assert_logged("is a directory, expected a config file");
}

static void test_dropins(void **state) {
        struct fixture *f = *state;
        struct config c;

        write_file(f->conf, "[Scheduler]\nMaxWorkers=1\nMaxAttempts=9\n");
        /* Lexical (byte) order, whatever the order of creation. */
        write_dropin(f, "50-b.conf", "[Scheduler]\nMaxWorkers=3\n");
        write_dropin(f, "10-a.conf", "[Scheduler]\nMaxWorkers=2\n[Prover]\nThreads=4\n");
        write_dropin(f, "Z-upper.conf", "[Prover]\nThreads=5\n");
        write_dropin(f, "a-lower.conf", "[Prover]\nThreads=6\n");
        /* Not drop-ins: other suffixes, hidden files. */
        write_dropin(f, "99-z.conf.bak", "[Scheduler]\nMaxWorkers=100\n");
        write_dropin(f, ".99-hidden.conf", "[Scheduler]\nMaxWorkers=101\n");
        write_dropin(f, "README", "not a config\n");
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.max_workers, 3);
        assert_int_equal(c.max_attempts, 9);
        assert_int_equal(c.prover_threads, 6); /* 'a' (0x61) sorts after 'Z' (0x5a) */

        /* Drop-ins without the main file. */
        assert_int_equal(unlink(f->conf), 0);
        assert_int_equal(config_load(&c, f->conf), 0);
        assert_int_equal(c.max_workers, 3);
        assert_int_equal(c.max_attempts, 3);

        /* An error in a drop-in names the drop-in; the other files still load. */
        write_dropin(f, "60-bad.conf", "\n[Scheduler]\nMaxWorkers=lots\n");
        assert_int_equal(config_load(&c, f->conf), -EINVAL);
        test_assert_logged("/cuzkd.conf.d/60-bad.conf:3: key MaxWorkers: 'lots' is not");
}

static void test_parse_size(void **state) {
        static const struct {
                const char *text;
                uint64_t value;
        } good[] = {
                {"0", 0},
                {"4096", 4096},
                {"1K", 1024},
                {"64M", 64ull << 20},
                {"64MiB", 64ull << 20},
                {"64MB", 64ull << 20},
                {"3G", 3ull << 30},
                {"2T", 2ull << 40},
                {"16777215T", 16777215ull << 40},
                {"18446744073709551615", UINT64_MAX},
        };
        static const struct {
                const char *text;
                int error;
        } bad[] = {
                {"", -EINVAL},
                {"auto", -EINVAL},
                {"-1", -EINVAL},
                {" 1", -EINVAL},
                {"+1", -EINVAL},
                {"1X", -EINVAL},
                {"1.5G", -EINVAL},
                {"1GG", -EINVAL},
                {"1Gi", -EINVAL},
                {"1 G", -EINVAL},
                {"G", -EINVAL},
                {"16777216T", -ERANGE},
                {"18446744073709551616", -ERANGE},
                {"99999999999999999999K", -ERANGE},
        };
        uint64_t v;

        (void)state;
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
                v = 1;
                assert_int_equal(config_parse_size(good[i].text, false, &v), 0);
                assert_int_equal(v, good[i].value);
        }
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                v = 7;
                if (config_parse_size(bad[i].text, false, &v) != bad[i].error) {
                        print_error("config_parse_size(\"%s\") should be %d\n", bad[i].text,
                                    bad[i].error);
                        fail();
                }
                assert_int_equal(v, 7); /* untouched */
        }
        v = 1;
        assert_int_equal(config_parse_size("auto", true, &v), 0);
        assert_int_equal(v, 0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
                cmocka_unit_test_setup_teardown(test_example_config, setup, teardown),
                cmocka_unit_test_setup_teardown(test_every_key, setup, teardown),
                cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
                cmocka_unit_test_setup_teardown(test_not_a_file, setup, teardown),
                cmocka_unit_test_setup_teardown(test_dropins, setup, teardown),
                cmocka_unit_test(test_parse_size),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
