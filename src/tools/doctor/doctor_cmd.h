/* SPDX-License-Identifier: BSD-2-Clause */
/* The doctor's command: its options and the pair checks with a server. */
#ifndef RDMAPERF_DOCTOR_CMD_H
#define RDMAPERF_DOCTOR_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/wire.h>

struct rdp_secret;

struct doctor_opts {
	char dev[64];
	int port;
	char host[256];
	uint16_t tcp_port;
	int timeout_ms;
	int json;
	const struct rdp_secret *secret; /* --auth-file: NULL none */
};

/* What the server told and how the exchange went; filled by the probe. */
struct doctor_peer {
	int reached;   /* the OOB handshake worked */
	char addr[80]; /* "host:port" as connected */
	struct rdp_msg_hello hello;
	struct rdp_msg_accept accept;
	int have_accept;
	struct in_addr local_ipv4; /* our address towards the server */
	int have_local_ipv4;
	int rdma_ret; /* the RDMA exchange: 0 or -errno */
	int rdma_tried;
	double rtt_us; /* median round trip of the exchange */
	char why[256]; /* the cause of a failure, "" if none */
};

/*
 * Reach the server: HELLO, PARAMS for a 2-byte write_lat and its ACCEPT,
 * then that write_lat over RDMA. peer says how far it went.
 */
void rdp_doctor_probe_peer(const struct doctor_opts *o,
			   struct doctor_peer *peer);

/* The pair checks (reachability, MTU, GID type, RDMA exchange) into doc. */
void rdp_doctor_pair_checks(const struct doctor_opts *o, struct rdp_doctor *doc,
			    const struct rdp_doctor_verbs *verbs,
			    const struct doctor_peer *peer);

struct json_t;
struct rdp_topo_report;

/* Building blocks of the --json document (doctor_json.c). */
/* A string, or null for NULL or "". */
struct json_t *rdp_doctor_json_str(const char *s);
/* A NUMA node, or null for -1 (unknown). */
struct json_t *rdp_doctor_json_node(int node);
/* o when all its members went in (err 0), else NULL and o freed. */
struct json_t *rdp_doctor_json_done(struct json_t *o, int err);
/* The i-th element of the array made from "from"; NULL when out of memory. */
typedef struct json_t *rdp_doctor_json_item_fn(const void *from, size_t i);
/* [item(from, 0), ... item(from, n - 1)]; NULL when out of memory. */
struct json_t *rdp_doctor_json_array(size_t n, rdp_doctor_json_item_fn *item,
				     const void *from);

/* The "topology" object of the JSON document; null when r is NULL or not
 * loaded, NULL when out of memory. */
struct json_t *rdp_doctor_topo_json(const struct rdp_topo_report *r);

/* The --json document on stdout; 0 or -errno. */
int rdp_doctor_print_json(const struct doctor_opts *o,
			  const struct rdp_doctor *doc,
			  const struct doctor_peer *peer);

#endif /* RDMAPERF_DOCTOR_CMD_H */
