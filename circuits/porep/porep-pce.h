/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PCE of a PoRep sector size: its circuit's shape recorded once from a
 * blank C1 and cached as a file beside the parameter files, named like them
 * ("<v28-stacked-proof-of-replication-...>.cuzk-pce-vN"), so that every
 * later proof maps it instead of synthesising the shape again. N changes
 * whenever the circuit code would record other rows, so that an old cache
 * is never read as the new circuit.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "circuits/pce.h"
#include "filecoin/porep/registered-proof.h"

#define POREP_PCE_VERSION 1u
#define POREP_PCE_PATH_MAX 4096u

/* cfg's PCE, built now. Returns 0, -EINVAL or -ENOMEM. */
int porep_pce_build(const struct porep_config *cfg, struct pce **ret);

/* dir + "/" + the cache file's name. Returns 0 or -ENAMETOOLONG. */
int porep_pce_path(const struct porep_config *cfg, const char *dir, char out[POREP_PCE_PATH_MAX]);

/*
 * The cached PCE of cfg from dir, mapped; when there is none, it is built
 * and saved there first (*ret_built says so; may be NULL). A cache file that
 * does not load (corrupt, truncated, another version) is an error naming it,
 * never silently rebuilt over. Returns 0 or a negative errno (logged).
 */
int porep_pce_open(const struct porep_config *cfg, const char *dir, struct pce **ret,
                   bool *ret_built);
