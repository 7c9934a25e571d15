/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the server's message state machine: the input is
 * what a client sends, a sequence of frames (the seeds: a whole session's
 * HELLO, PARAMS, QP_INFO and SYNC messages, and their prefixes), written
 * into one end of a channel whose other end rdp_session_serve_with()
 * serves on the fake engine, in a thread. Then the client's end closes.
 * Properties: no crash, no sanitizer report, the session ends (it never
 * waits past the channel's timeout), every connection and device the
 * fake engine opened is closed again.
 *
 * Built with -DRDP_FUZZ_REPLAY, a main() runs each file named on the
 * command line once: the plain replay binary for the seeds and crashes.
 * With RDP_FUZZ_STEPS set in the environment it prints, per file, the
 * messages the server sent back by type: how far each input got (a
 * RESULT is a point run to its end).
 *
 * Both builds link with --wrap=rdp_clock_calibrate (Makefile.am): the
 * session's 50 ms busy-wait that calibrates the cycle counter would be
 * most of each input's time, and the fake engine times nothing.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/wire.h>

#include "../fake/fake_engine.h"

#define IO_MS 200 /* a wait longer than this is the session hanging */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int __wrap_rdp_clock_calibrate(struct rdp_clock *clk);

/* What the server sent back to the last input, by message type. */
static unsigned int sent[RDP_MSG_AUTH + 1];

/* A fixed rate in place of the measured one: no input waits on it. */
int __wrap_rdp_clock_calibrate(struct rdp_clock *clk)
{
	clk->cycles_per_ns = 1;
	clk->source = "fuzz";
	return 0;
}

struct serve {
	struct rdp_opts o;
	struct rdp_oob oob;
};

static void *serve_main(void *arg)
{
	struct serve *s = arg;

	(void)rdp_session_serve_with(&s->o, &fake_engine, &s->oob);
	rdp_oob_close(&s->oob);
	return NULL;
}

/* --max-memory: the fake engine allocates the buffers a client asks for,
 * and the default 4 GiB is past libFuzzer's memory limit (2 GiB). */
static void server_opts(struct rdp_opts *o)
{
	const char *argv[] = { "rdmaperf-server", "--no-pin", "--max-memory",
			       "64M", NULL };
	char err[256];

	memset(o, 0, sizeof(*o));
	if (rdp_opts_parse_server(4, (char **)argv, o, err, sizeof(err)) !=
	    RDP_PARSE_OK)
		abort();
	o->conn.oob_timeout_ms = IO_MS;
	/* An input of a digit or three and no more waits for the rest of a
	 * perftest version string until the handshake's deadline (10 s by
	 * default): bounded like every other wait. */
	o->conn.handshake_timeout_ms = IO_MS;
}

/* The whole frames at the start of buf[0..*have), counted by type and
 * dropped; -1 once a header is not one (nothing more is counted). */
static int count_frames(uint8_t *buf, size_t *have)
{
	struct rdp_wire_hdr hdr;
	size_t at = 0, len;

	while (*have - at >= RDP_WIRE_HDR_BYTES) {
		if (rdp_wire_decode_hdr(buf + at, *have - at, &hdr))
			return -1;
		len = RDP_WIRE_HDR_BYTES + hdr.len_bytes;
		if (*have - at < len)
			break;
		if (hdr.type < sizeof(sent) / sizeof(sent[0]))
			sent[hdr.type]++;
		at += len;
	}
	memmove(buf, buf + at, *have - at);
	*have -= at;
	return 0;
}

/* Everything the server says, until it closes its end. */
static void drain(int fd)
{
	static uint8_t buf[2 * (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)];
	size_t have = 0;
	int counting = 1;
	ssize_t n;

	memset(sent, 0, sizeof(sent));
	while ((n = read(fd, buf + have, sizeof(buf) - have)) > 0) {
		have += (size_t)n;
		if (counting && count_frames(buf, &have))
			counting = 0;
		if (!counting)
			have = 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct serve s;
	struct rdp_oob client;
	pthread_t tid;

	fake_engine_reset();
	server_opts(&s.o);
	if (rdp_oob_loopback(IO_MS, &client, &s.oob))
		abort();
	if (pthread_create(&tid, NULL, serve_main, &s))
		abort();
	/* The socket's buffer holds any input libFuzzer makes (-max_len). */
	if (size && send(client.fd, data, size, MSG_NOSIGNAL) < 0 &&
	    errno != EPIPE && errno != ECONNRESET)
		abort();
	shutdown(client.fd, SHUT_WR);
	drain(client.fd);
	if (pthread_join(tid, NULL))
		abort();
	rdp_oob_close(&client);
	if (fake_engine_cfg.conns_created != fake_engine_cfg.conns_destroyed ||
	    fake_engine_cfg.devs_opened != fake_engine_cfg.devs_closed)
		abort();
	rdp_clear_error();
	return 0;
}

#ifdef RDP_FUZZ_REPLAY
static void print_steps(const char *path)
{
	const char *base = strrchr(path, '/');

	printf("%s: HELLO %u ACCEPT %u QP_INFO %u SYNC %u RESULT %u "
	       "ERROR %u\n",
	       base ? base + 1 : path, sent[RDP_MSG_HELLO],
	       sent[RDP_MSG_ACCEPT], sent[RDP_MSG_QP_INFO], sent[RDP_MSG_SYNC],
	       sent[RDP_MSG_RESULT], sent[RDP_MSG_ERROR]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static uint8_t buf[1 << 16];
	int steps = getenv("RDP_FUZZ_STEPS") != NULL;
	size_t n;
	FILE *f;
	int i;

	for (i = 1; i < argc; i++) {
		f = fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "%s: cannot open %s\n", argv[0],
				argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		if (steps)
			print_steps(argv[i]);
	}
	return 0;
}
#endif
