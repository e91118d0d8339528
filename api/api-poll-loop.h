/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small poll()-based loop implementing struct api_event_loop, for tests and
 * tools that have no sd-event loop. One thread runs it; api_poll_loop_quit()
 * may be called from any thread.
 */
#pragma once

#include "api/api-loop.h"

struct api_poll_loop;

int api_poll_loop_new(struct api_poll_loop **ret);
void api_poll_loop_free(struct api_poll_loop *loop);
/* The interface to hand to api_server_new(); valid while loop lives. */
const struct api_event_loop *api_poll_loop_interface(struct api_poll_loop *loop);
/* Waits at most timeout_ms (-1: no limit) and dispatches what is ready once.
 * Returns 0, or -ECANCELED once api_poll_loop_quit() was called. */
int api_poll_loop_run_once(struct api_poll_loop *loop, int timeout_ms);
/* Dispatches until api_poll_loop_quit(); returns 0, or a negative errno when
 * poll() fails. */
int api_poll_loop_run(struct api_poll_loop *loop);
/* Makes the running (or next) api_poll_loop_run() return. Thread-safe. */
void api_poll_loop_quit(struct api_poll_loop *loop);
