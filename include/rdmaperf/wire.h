/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Out-of-band message codec: header + fields written one by one, big-endian,
 * through a bounds-checked cursor. Never raw structs on the wire.
 * Layer: oob
 *
 *   client                                   server
 *     | --- TCP connect ---------------------> |  --allow, handshake
 *     |                                          |  limits (session/gate)
 *     |  with --auth-file only (oob/auth.h):     |
 *     | --- AUTH 1 (client nonce) -----------> |
 *     | <-- AUTH 2 (server nonce, its proof) - |  client checks it
 *     | --- AUTH 3 (client's proof) ---------> |  server checks it
 *     |  ...and from here on, every message both |
 *     |  ways carries a MAC (session key of the  |
 *     |  secret and both nonces, direction,      |
 *     |  sequence number): one that fails ends   |
 *     |  the session before it is acted on       |
 *     | --- HELLO (version, host) -----------> |
 *     | <-- HELLO (version, host) ------------ |
 *     | --- PARAMS (test, size, qps, ...) ---> |  server allocates
 *     | <-- ACCEPT (device, port, MTU, GID, -- |  ...or ERROR
 *     |            memory, access granted)       |
 *     |  with -R only, over RDMA CM, per QP:     |
 *     | === resolve addr/route, CONNECT ======> |  server creates the QP
 *     | <== ACCEPT, ESTABLISHED =============== |  (CM moves it to RTS)
 *     | <-- QP_INFO x num_qps ---------------- |
 *     | --- QP_INFO x num_qps ---------------> |  both: RESET->INIT->RTR->RTS
 *     |                                          |  (without -R)
 *     | --- SYNC (READY) --------------------> |
 *     | <-- SYNC (READY) --------------------- |
 *     |        ... timed test over RDMA ...      |
 *     | --- SYNC (DONE) ---------------------> |
 *     | <-- SYNC (DONE) ---------------------- |  server checks its buffer
 *     | <-- RESULT (data check, counters) ---- |
 *     | --- close ---------------------------> |  server serves the next
 *
 * Either side may send ERROR (code + text) instead of any message and then
 * close; the receiver prints the text, so both sides show the real cause.
 * After AUTH 3 an ERROR is sealed like any other message; only a refusal
 * of the client's proof (AUTH 3) comes plain, and is shown as unverified.
 */
#ifndef RDMAPERF_WIRE_H
#define RDMAPERF_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/params.h>
#include <rdmaperf/qp_info.h>

#define RDP_WIRE_MAGIC 0x52445046u /* "RDPF" */
/* 2: CPU time and the received count in RESULT; path, transport and
 * pacing in PARAMS. 3: AUTH, and the access the server grants in ACCEPT.
 * 4: --threads in PARAMS
 * 5: every message after AUTH sealed with a MAC; a PARAMS may end with
 * --flow_label's list (one label per QP), only when one was given, so
 * that a message without it is unchanged (enc_params); and, before that
 * list, -g's group (16 bytes) only with RDP_PARAM_MCAST, which a server
 * that predates it refuses as a flag it does not know; an ACCEPT may end
 * with the name of the device type that holds the server's data, only
 * when its kind alone would name another (rocm, not cuda), so that one of
 * host or CUDA memory is unchanged (enc_accept); a RESULT may end with
 * tagged trailers, each only when it has something to say, so that the
 * RESULT of a plain run is unchanged: the server's time in the checks of
 * --data_validation, and each group QP's count when the client asked with
 * RDP_PARAM_MCAST_COUNTS (refused as an unknown flag by a server that
 * predates it) (enc_result) */
#define RDP_WIRE_VERSION	  5
#define RDP_WIRE_HDR_BYTES	  12
#define RDP_WIRE_MAX_PAYLOAD	  4096
#define RDP_WIRE_TEXT_MAX	  256
#define RDP_WIRE_NAME_MAX	  64
#define RDP_WIRE_GPU_MAX	  128
#define RDP_WIRE_MEM_TYPE_MAX	  16
#define RDP_WIRE_COUNTER_NAME_MAX 40
#define RDP_WIRE_MAX_COUNTERS	  64 /* 64 x 51 B fits the payload limit */
/* -g: the group's QPs whose counts a RESULT carries (48 x 12 B more) */
#define RDP_WIRE_MAX_GROUP_QPS 48

enum rdp_msg_type {
	RDP_MSG_HELLO = 1,
	RDP_MSG_PARAMS = 2,
	RDP_MSG_ACCEPT = 3,
	RDP_MSG_QP_INFO = 4,
	RDP_MSG_SYNC = 5,
	RDP_MSG_RESULT = 6,
	RDP_MSG_ERROR = 7,
	RDP_MSG_AUTH = 8,
};

enum rdp_sync_phase {
	RDP_SYNC_READY = 1,
	RDP_SYNC_DONE = 2,
};

struct rdp_wire_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	/* what follows the header: the payload, and after AUTH its 32-byte
	 * tag (oob/auth.h), at most RDP_WIRE_MAX_PAYLOAD in all */
	uint32_t len_bytes;
};

struct rdp_msg_hello {
	char tool_version[RDP_WIRE_NAME_MAX];
	char hostname[RDP_WIRE_NAME_MAX];
	char kernel[RDP_WIRE_NAME_MAX];
	char cpu_model[RDP_WIRE_NAME_MAX];
	uint32_t cpus; /* online CPUs */
};

/* The server's view of its side, for the client's report. */
struct rdp_msg_accept {
	char device[RDP_WIRE_NAME_MAX];
	uint8_t port;
	uint8_t link_layer; /* IBV_LINK_LAYER_* */
	uint8_t gid_type;   /* enum rdp_gid_type */
	int32_t gid_index;  /* -1 when no GID is used (IB, no GRH) */
	uint32_t active_mtu_bytes;
	int32_t numa_node; /* NIC's node, -1 unknown */
	int32_t cpu;	   /* the CPU serving this client, -1 unknown */
	uint16_t cm_port;  /* -R: RDMA CM port to connect to, else 0 */
	uint32_t cm_nonce; /* -R: echoed in each CM connect request */
	/* where the server runs this client's test (sys/placement) */
	uint8_t place_mode; /* enum rdp_place_mode */
	uint8_t cross_numa; /* its CPUs are off the NIC's node */
	int32_t place_node; /* node of its CPUs and memory, -1 unknown */
	char cpus[RDP_WIRE_NAME_MAX]; /* its CPU list, "" unknown */
	/* its buffers (mem/stage.c); unknown values read as unknown */
	uint8_t mem_kind;  /* enum rdp_mem_kind */
	uint8_t mem_path;  /* enum rdp_mem_path of the registered buffer */
	uint8_t mem_stage; /* enum rdp_stage_role of the server in this test */
	char mem_gpu[RDP_WIRE_GPU_MAX];	    /* "GPU 0 NVIDIA H200 (...)" */
	char mem_bus_id[RDP_WIRE_NAME_MAX]; /* "0000:3b:00.0", "" host */
	/* IBV_ACCESS_* its buffer is registered with for this test: local
	 * write, and what it grants the client (remote write, read,
	 * atomic) */
	uint32_t mr_access;
	/* the device type of its data by name ("rocm"), sent only when the
	 * kind alone would name another (the first device type): "" else */
	char mem_type[RDP_WIRE_MEM_TYPE_MAX];
};

struct rdp_msg_sync {
	uint32_t phase; /* enum rdp_sync_phase */
	uint64_t count; /* DONE: operations the client posted, all QPs */
};

/* One port counter's change over a test: hw_counters/ or counters/. */
struct rdp_wire_counter {
	char name[RDP_WIRE_COUNTER_NAME_MAX];
	uint8_t hw;
	uint64_t value;
};

struct rdp_msg_result {
	int32_t status; /* 0 data ok, else -errno */
	uint64_t checked_bytes;
	uint64_t bad_offset; /* first mismatch, when status != 0 */
	/* -b: what the server itself sent, for the client's RX figures */
	uint64_t tx_msgs;
	uint64_t tx_bytes;
	uint64_t tx_elapsed_ns;
	uint64_t tx_peak_kbps;
	/* SEND tests: the messages the server received, the count a lossy
	 * transport's loss is measured from */
	uint64_t rx_msgs;
	/* the sender's CPU over the test: its process, and its host's busy
	 * share in 1/100 % (-1: unknown) */
	uint64_t cpu_wall_ns; /* the region measured */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	int32_t host_busy_cpct;
	/* the sender's port counter deltas over the test, bounded */
	uint16_t n_counters;
	struct rdp_wire_counter counters[RDP_WIRE_MAX_COUNTERS];
	/* --data_validation: the server's time in its checks of each
	 * message, sent only when it checked (not 0) */
	uint64_t check_ns;
	/* -g with RDP_PARAM_MCAST_COUNTS: what each QP of the group
	 * received, the first RDP_WIRE_MAX_GROUP_QPS of them; on the wire
	 * only when n_group is not 0 */
	uint16_t n_group;
	uint32_t group_qpn[RDP_WIRE_MAX_GROUP_QPS];
	uint64_t group_msgs[RDP_WIRE_MAX_GROUP_QPS];
};

struct rdp_msg_error {
	int32_t code; /* negative errno of the failure */
	char text[RDP_WIRE_TEXT_MAX];
};

#define RDP_AUTH_NONCE_BYTES 32
#define RDP_AUTH_MAC_BYTES   32 /* HMAC-SHA256 */

/* The shared-secret handshake's three steps (oob/auth.h): each carries a
 * nonce and a proof, zero where its step has none. */
enum rdp_auth_step {
	RDP_AUTH_CLIENT_NONCE = 1,
	RDP_AUTH_SERVER_PROOF = 2,
	RDP_AUTH_CLIENT_PROOF = 3,
};

struct rdp_msg_auth {
	uint8_t step; /* enum rdp_auth_step */
	uint8_t nonce[RDP_AUTH_NONCE_BYTES];
	uint8_t mac[RDP_AUTH_MAC_BYTES];
};

struct rdp_msg {
	uint16_t type; /* enum rdp_msg_type */
	union {
		struct rdp_msg_hello hello;
		struct rdp_params params;
		struct rdp_msg_accept accept;
		struct rdp_qp_info qp_info;
		struct rdp_msg_sync sync;
		struct rdp_msg_result result;
		struct rdp_msg_error error;
		struct rdp_msg_auth auth;
	} u;
};

/* Encode header and payload into buf; *len_out = total bytes. */
int rdp_wire_encode(const struct rdp_msg *msg, uint8_t *buf, size_t cap,
		    size_t *len_out);

/*
 * Decode and validate a header: -EBADMSG bad magic (only hdr->magic is
 * set), -EPROTONOSUPPORT other version and -EMSGSIZE payload over the limit
 * (hdr is filled, so the caller can name what it got).
 */
int rdp_wire_decode_hdr(const uint8_t *buf, size_t len,
			struct rdp_wire_hdr *hdr);

/* Decode a payload of the given type; trailing or missing bytes: -EBADMSG. */
int rdp_wire_decode_body(uint16_t type, const uint8_t *buf, size_t len,
			 struct rdp_msg *msg);

const char *rdp_wire_type_str(uint16_t type);

#endif /* RDMAPERF_WIRE_H */
