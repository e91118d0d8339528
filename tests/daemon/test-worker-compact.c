/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A worker's compact witness (IPC_WITNESS_COMPACT, daemon/executor/ipc-compact.h), as a
 * CUDA prover receives it:
 *   1. a synthetic PCE task synthesized both ways: the compact memfd, checked and viewed
 *      as the prover does, expands to the full form's witness memfd value for value, and
 *      a, b, c evaluated from it equal the full form's a/b/c memfd (pce_evaluate on the
 *      host from the full witness, the path every prover took before);
 *   2. the memfd is sealed and of the size the worker reports;
 *   3. a snarkjs task (no PCE) or an unknown form is refused with EINVAL;
 *   4. every way a memfd can lie is refused by the prover's check (magic, counts against
 *      the circuit, size, bits past the end, values without bits, a wrong count of
 *      values that are not bits, input 0 not ONE).
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "circuits/pce-compact.h"
#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/ipc-compact.h"
#include "daemon/worker/worker-synth.h"
#include "formats/wtns-save.h"
#include "zk/fr.h"

static char dir[] = "/tmp/test-worker-compact-XXXXXX";
static char pce_path[128], wtns_path[128];
static struct pce *pce;
static fr_t *witness;

static int group_setup(void **state) {
        struct synthetic_params p = {
                .seed = 3, .n_rows = 4096 - 40, .n_aux = SYNTHETIC_DEFAULT, .n_public = 5};

        (void)state;
        if (!mkdtemp(dir))
                return -1;
        snprintf(pce_path, sizeof(pce_path), "%s/c.pce", dir);
        snprintf(wtns_path, sizeof(wtns_path), "%s/c.wtns", dir);
        if (synthetic_params_resolve(&p) < 0 || synthetic_generate(&p, &pce, &witness) < 0 ||
            pce_save(pce, pce_path) < 0 || wtns_save(wtns_path, witness, pce->n_cols) < 0)
                return -1;
        return 0;
}

static int group_teardown(void **state) {
        (void)state;
        unlink(pce_path);
        unlink(wtns_path);
        rmdir(dir);
        pce_free(pce);
        free(witness);
        return 0;
}

static struct ipc_task synthetic_task(enum ipc_witness_form form) {
        struct ipc_task t = {.task_id = 7, .kind = JOB_SYNTHETIC_PCE, .witness_form = form};

        snprintf(t.circuit_path, sizeof(t.circuit_path), "%s", pce_path);
        snprintf(t.key_path, sizeof(t.key_path), "%s", pce_path);
        snprintf(t.witness_path, sizeof(t.witness_path), "%s", wtns_path);
        return t;
}

#define NO_OUTPUT \
        { .abc_fd = -EBADF, .w_fd = -EBADF, .compact_fd = -EBADF }

static void *map_fd(int fd, size_t bytes) {
        void *map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);

        assert_true(map != MAP_FAILED);
        return map;
}

static void test_compact_matches_full(void **state) {
        const struct ipc_task full_task = synthetic_task(IPC_WITNESS_FULL),
                              compact_task = synthetic_task(IPC_WITNESS_COMPACT);
        _cleanup_(worker_synth_output_close) struct worker_synth_output full = NO_OUTPUT,
                                                                        compact = NO_OUTPUT;
        struct ipc_compact_view view;
        (void)state;

        assert_int_equal(worker_synthesize(&full_task, &full), 0);
        assert_int_equal(worker_synthesize(&compact_task, &compact), 0);
        assert_int_equal(compact.witness_form, IPC_WITNESS_COMPACT);
        assert_int_equal(compact.abc_fd, -EBADF);
        assert_int_equal(compact.w_fd, -EBADF);
        assert_int_equal(compact.n_vars, full.n_vars);
        assert_int_equal(compact.log_domain_size, full.log_domain_size);
        /* sealed against writes, of the size reported */
        assert_int_equal(
                ipc_memfd_check(compact.compact_fd, compact.compact_bytes, "compact", false), 0);

        const size_t n = (size_t)1 << full.log_domain_size;
        const fr_t *abc = map_fd(full.abc_fd, 3 * n * sizeof(fr_t));
        const fr_t *w = map_fd(full.w_fd, full.n_vars * sizeof(fr_t));
        const void *map = map_fd(compact.compact_fd, compact.compact_bytes);
        assert_int_equal(
                ipc_compact_view(map, compact.compact_bytes, full.n_vars, "compact", &view), 0);
        /* PoRep-like: most aux are bits, so the compact form is a fraction of the full */
        assert_true(compact.compact_bytes < full.n_vars * sizeof(fr_t) / 2);

        fr_t *expanded = calloc(full.n_vars, sizeof(fr_t));
        fr_t *a = calloc(3 * n, sizeof(fr_t));
        assert_true(expanded && a);
        pce_compact_expand(&view.w, expanded);
        assert_memory_equal(expanded, w, full.n_vars * sizeof(fr_t));
        assert_int_equal(
                pce_evaluate_compact(pce, &view.w, full.log_domain_size, a, a + n, a + 2 * n), 0);
        assert_memory_equal(a, abc, 3 * n * sizeof(fr_t));
        free(expanded);
        free(a);
        ipc_compact_view_release(&view);
        munmap((void *)abc, 3 * n * sizeof(fr_t));
        munmap((void *)w, full.n_vars * sizeof(fr_t));
        munmap((void *)map, compact.compact_bytes);
}

static void test_compact_refused_without_pce(void **state) {
        struct ipc_task t = synthetic_task(IPC_WITNESS_COMPACT);
        struct worker_synth_output out = NO_OUTPUT;
        (void)state;

        t.kind = JOB_GROTH16_SNARKJS;
        assert_int_equal(worker_synthesize(&t, &out), -EINVAL);
        t = synthetic_task(IPC_WITNESS_COMPACT + 1);
        assert_int_equal(worker_synthesize(&t, &out), -EINVAL);
}

/* A writable copy of a valid layout, for the lies below. */
struct layout {
        uint8_t *bytes;
        size_t size;
        uint64_t n_vars;
        struct ipc_compact_header *h;
        uint64_t *is_bit, *bit_value;
};

static void layout_make(struct layout *l) {
        _cleanup_(pce_compact_owned_free) struct pce_compact_owned cw = {0};
        const uint64_t n_aux = pce->n_cols - 1 - pce->n_public;

        assert_int_equal(pce_compact_from_full(witness, pce->n_public, n_aux, &cw), 0);
        const uint64_t n_nums = pce_compact_nums(&cw.w);

        l->size = ipc_compact_bytes(cw.w.n_inputs, n_aux, n_nums);
        l->bytes = malloc(l->size);
        assert_non_null(l->bytes);
        ipc_compact_write(&cw.w, n_nums, l->bytes);
        l->n_vars = pce->n_cols;
        l->h = (struct ipc_compact_header *)l->bytes;
        l->is_bit = (uint64_t *)(l->bytes + sizeof(*l->h) + (pce->n_public + 1) * sizeof(fr_t));
        l->bit_value = l->is_bit + pce_bitmap_words(n_aux);
}

static int view_of(const struct layout *l, size_t size, uint64_t n_vars) {
        struct ipc_compact_view view;
        int r = ipc_compact_view(l->bytes, size, n_vars, "test", &view);

        ipc_compact_view_release(&view);
        return r;
}

static void test_view_refuses_lies(void **state) {
        struct layout l;
        (void)state;

        layout_make(&l);
        assert_int_equal(view_of(&l, l.size, l.n_vars), 0);
        assert_int_equal(view_of(&l, l.size, l.n_vars + 1), -EBADMSG);
        assert_int_equal(view_of(&l, l.size - 32, l.n_vars), -EBADMSG);
        assert_int_equal(view_of(&l, 8, l.n_vars), -EBADMSG);

        l.h->magic[0] ^= 1;
        assert_int_equal(view_of(&l, l.size, l.n_vars), -EBADMSG);
        l.h->magic[0] ^= 1;

        l.h->n_nums++; /* the size no longer matches the count */
        assert_int_equal(view_of(&l, l.size, l.n_vars), -EBADMSG);
        assert_int_equal(view_of(&l, l.size + 32, l.n_vars), -EBADMSG); /* nor the bitmaps */
        l.h->n_nums--;

        /* a value where no bit is: find an aux that is not a bit */
        uint64_t j = 0;
        while (l.is_bit[j / 64] & (UINT64_C(1) << (j % 64)))
                j++;
        l.bit_value[j / 64] ^= UINT64_C(1) << (j % 64);
        assert_int_equal(view_of(&l, l.size, l.n_vars), -EBADMSG);
        l.bit_value[j / 64] ^= UINT64_C(1) << (j % 64);

        /* a bit past the last aux (the last word is partly used) */
        const uint64_t n_aux = l.h->n_aux, last = pce_bitmap_words(n_aux) - 1;
        assert_true(n_aux % 64 != 0);
        l.is_bit[last] |= UINT64_C(1) << 63;
        assert_int_equal(view_of(&l, l.size, l.n_vars), -EBADMSG);
        l.is_bit[last] &= ~(UINT64_C(1) << 63);

        /* input 0 must be ONE */
        fr_t *inputs = (fr_t *)(l.bytes + sizeof(*l.h));
        fr_set_zero(&inputs[0]);
        assert_int_equal(view_of(&l, l.size, l.n_vars), -EBADMSG);
        fr_set_one(&inputs[0]);
        assert_int_equal(view_of(&l, l.size, l.n_vars), 0);
        free(l.bytes);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_compact_matches_full),
                cmocka_unit_test(test_compact_refused_without_pce),
                cmocka_unit_test(test_view_refuses_lies),
        };
        return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
