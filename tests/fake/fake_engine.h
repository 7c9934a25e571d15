/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A fake engine for in-process session tests: devices, connections and
 * test loops in plain memory, with figures that follow from the parameters
 * alone, and switches that make one step fail.
 */
#ifndef RDMAPERF_FAKE_ENGINE_H
#define RDMAPERF_FAKE_ENGINE_H

#include <stdint.h>

#include <rdmaperf/engine_ops.h>

/* Every fake message takes this long: figures are exact. */
#define FAKE_NS_PER_MSG 100

/* --interval: the fake's run splits into this many. */
#define FAKE_INTERVALS 4

/* The only device name the fake knows, besides "" (the first). */
#define FAKE_DEV_NAME "fake0"

struct fake_engine_cfg {
	int connect_fails_port; /* conn_connect refuses on this port (-i) */
	int server_data_bad;	/* the server's verify finds a bad byte */
	int client_data_bad;	/* the client's verify finds a bad byte */
	/* the server's verify spent this long in --data_validation's
	 * checks (ns; 0: none ran) */
	uint64_t server_check_ns;
	int server_loop_fails; /* the server's loop fails (its peer died) */
	int port_down;	       /* the device's port is DOWN: opening or
				 * checking it again fails */
	/* a live client's loop runs until its peer speaks, at most this
	 * long (ms); 0: it returns at once */
	int client_live_wait_ms;
	/* the client's loop number n (from 1) raises this signal (0: none)
	 * as it runs; a loop whose run->stop is set did half its messages */
	int client_signal_at;
	int client_signal;
	int client_loops; /* counted */
	/* both sides' GID: the RoCE v2 GID of this IPv4 address (host
	 * order); 0: none */
	uint32_t gid_ipv4;
	/* the device refuses extended QPs: connections post with
	 * ibv_post_send whatever they ask for */
	int no_qp_ex;
	/* counted by the fake, both sides together */
	int conns_created;
	int conns_destroyed;
	int devs_opened;
	int devs_closed;
	int post_send_asked; /* connections asked for ibv_post_send */
};

/* Tests set the switches before a run and read the counts after. */
extern struct fake_engine_cfg fake_engine_cfg;
extern const struct rdp_engine_ops fake_engine;

/* Clear the switches and the counts. */
void fake_engine_reset(void);

#endif /* RDMAPERF_FAKE_ENGINE_H */
