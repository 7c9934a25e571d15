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
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

#include "../fake/fake_engine.h"

#define IO_MS 200 /* a wait longer than this is the session hanging */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

static void server_opts(struct rdp_opts *o)
{
	const char *argv[] = { "rdmaperf-server", "--no-pin", NULL };
	char err[256];

	memset(o, 0, sizeof(*o));
	if (rdp_opts_parse_server(2, (char **)argv, o, err, sizeof(err)) !=
	    RDP_PARSE_OK)
		abort();
	o->conn.oob_timeout_ms = IO_MS;
}

/* Everything the server says, until it closes its end. */
static void drain(int fd)
{
	uint8_t buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
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
int main(int argc, char **argv)
{
	static uint8_t buf[1 << 16];
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
	}
	return 0;
}
#endif
