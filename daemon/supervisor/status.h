/* SPDX-License-Identifier: Apache-2.0 */
/* GetStatus: the supervisor's state (cuzkd.h) as the API's status response. */
#pragma once

#include "api/cuzk.pb-c.h"
#include "daemon/supervisor/cuzkd.h"

/* Fills response as peer may see it (NULL: everything): the ids of other users' jobs only
 * for root and AdminGroup= (job-limits.h), the counts for all. Free with
 * status_response_done(). */
int status_fill(const struct cuzkd *d, const struct api_peer *peer,
                Cuzk__V1__GetStatusResponse *response);
void status_response_done(Cuzk__V1__GetStatusResponse *response);
