/* SPDX-License-Identifier: Apache-2.0 */
/* The API server's loop interface (api-loop.h) on an sd-event loop. */
#pragma once

#include <systemd/sd-event.h>

#include "api/api-loop.h"

/* Fills *ret so that the server's watches become sd-event io sources of event, which
 * must outlive every watch. */
void api_sd_event_interface(sd_event *event, struct api_event_loop *ret);
