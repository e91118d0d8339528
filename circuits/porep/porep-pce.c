/* SPDX-License-Identifier: Apache-2.0 */
#include "porep-pce.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "circuits/cs/cs.h"
#include "circuits/pce-file.h"
#include "circuits/porep/stacked.h"
#include "common/cleanup.h"
#include "common/log.h"

int porep_pce_build(const struct porep_config *cfg, struct pce **ret) {
        _cleanup_(cs_freep) struct cs *cs = NULL;
        int r;

        assert(cfg);
        assert(ret);

        if ((r = cs_new(CS_SHAPE, &cs)) < 0 || (r = porep_circuit_shape(cs, cfg)) < 0)
                return r;
        return cs_to_pce(cs, ret);
}

int porep_pce_path(const struct porep_config *cfg, const char *dir, char out[POREP_PCE_PATH_MAX]) {
        char ext[32];

        assert(cfg && dir && out);

        snprintf(ext, sizeof(ext), ".cuzk-pce-v%u", POREP_PCE_VERSION);
        return porep_params_file_path(cfg, dir, ext, out, POREP_PCE_PATH_MAX);
}

int porep_pce_open(const struct porep_config *cfg, const char *dir, struct pce **ret,
                   bool *ret_built) {
        _cleanup_(pce_freep) struct pce *built = NULL;
        char path[POREP_PCE_PATH_MAX];
        int r;

        assert(cfg && dir && ret);

        if ((r = porep_pce_path(cfg, dir, path)) < 0)
                return log_error_errno(r, "%s: the PCE cache path is too long", dir);
        if (ret_built)
                *ret_built = false;
        if (access(path, F_OK) == 0)
                return pce_load(path, ret);
        if (errno != ENOENT)
                return log_error_errno(-errno, "%s: cannot look for the PCE cache: %m", path);

        log_info("%s: no cached PCE of %s, recording the circuit's shape", path, cfg->name);
        if ((r = porep_pce_build(cfg, &built)) < 0)
                return log_error_errno(r, "%s: recording the circuit's shape failed", cfg->name);
        if ((r = pce_save(built, path)) < 0)
                return r;
        if (ret_built)
                *ret_built = true;
        /* The mapped file rather than the heap copy: the pages are shared and
         * reclaimable, and the file is checked as every later open checks it. */
        return pce_load(path, ret);
}
