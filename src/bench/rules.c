/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether a point can run, decided once for the client and the server:
 * the side's memory, the parameters against each other and the test's
 * row. Each rule's words are here and nowhere else. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/mcast.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/params.h>
#include <rdmaperf/rules.h>
#include <rdmaperf/stage.h>
#include <rdmaperf/transport.h>

/* A list of tests is at most the registry's names. */
#define TESTS_MAX 256

static int refuse(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *rdp_rules_tests(int kind, unsigned int want,
			    unsigned int refuse_bits, const char *prefix,
			    const char *last, char *buf, size_t len)
{
	const struct rdp_bench_ops *const *b, *hit[32];
	size_t n = 0, i, off = 0;

	for (b = rdp_bench_all(); *b && n < 32; b++) {
		if ((kind >= 0 && (*b)->kind != (enum rdp_bench_kind)kind) ||
		    ((*b)->flags & want) != want || ((*b)->flags & refuse_bits))
			continue;
		hit[n++] = *b;
	}
	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s",
					!i	     ? ""
					: i + 1 == n ? last
						     : ", ",
					prefix, hit[i]->name);
	return buf;
}

/* "--use_cuda=GPU or --use_rocm=GPU": every option that picks device
 * memory. */
static const char *mem_options(const char *suffix, char *buf, size_t len)
{
	const struct rdp_mem_ops *const *t;
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (t = rdp_mem_types(); *t && off < len; t++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s",
					t == rdp_mem_types() ? "" : " or ",
					(*t)->option, suffix);
	return buf;
}

int rdp_rules_check_mem(const struct rdp_rules_side *side, char *why,
			size_t len)
{
	char opts[128];

	if (side->mmap_offset && side->mem != &rdp_mem_file)
		return refuse(why, len,
			      "--mmap-offset applies to --mmap FILE: add it or "
			      "drop the offset");
	if (side->mem == &rdp_mem_file && (side->hugepages || side->bounce))
		return refuse(why, len,
			      "--mmap FILE gives host buffers of its own: "
			      "drop %s",
			      side->hugepages ? "--use_hugepages" : "--bounce");
	/* Staged buffers are host memory: huge pages apply there too. */
	if (side->hugepages && side->mem && !side->bounce)
		return refuse(why, len,
			      "--use_hugepages is for host buffers: drop it "
			      "with %s (or add --bounce)",
			      side->mem->option);
	if (side->bounce && !side->mem)
		return refuse(why, len,
			      "--bounce stages GPU data through host memory: "
			      "add %s",
			      mem_options("=GPU", opts, sizeof(opts)));
	return 0;
}

/* -b: the test's row says whether it runs both ways, with --bounce and
 * against perftest. */
static int rules_bidir(const struct rdp_params *p,
		       const struct rdp_bench_ops *ops,
		       const struct rdp_rules_side *side, char *why, size_t len)
{
	char tests[TESTS_MAX];

	if (!(p->flags & RDP_PARAM_BIDIR))
		return 0;
	if (!(ops->flags & RDP_BENCH_BIDIR))
		return refuse(why, len,
			      "%s cannot run both ways: -b applies to %s",
			      ops->name,
			      rdp_rules_tests(-1, RDP_BENCH_BIDIR, 0, "",
					      " and ", tests, sizeof(tests)));
	if (side->perftest && !(ops->flags & RDP_BENCH_PT_BIDIR))
		return refuse(why, len,
			      "-b with --perftest meets %s: drop -b for %s",
			      rdp_rules_tests(-1, RDP_BENCH_PT_BIDIR, 0, "ib_",
					      " and ", tests, sizeof(tests)),
			      ops->name);
	if (side->bounce && !(ops->flags & RDP_BENCH_BOUNCE_BIDIR))
		return refuse(why, len, "%s -b does not combine with --bounce",
			      ops->name);
	return 0;
}

/* -g: UD SENDs to a group that the server's QPs join, one way. The
 * server checks a group it was sent here too. */
static int rules_mcast(const struct rdp_params *p,
		       const struct rdp_bench_ops *ops, char *why, size_t len)
{
	char tests[TESTS_MAX], text[RDP_MGID_STR_MAX];

	if (!(p->flags & RDP_PARAM_MCAST)) {
		if (rdp_mgid_is_set(p->mgid))
			return refuse(why, len,
				      "-M names the group of -g: add -g");
		if (p->flags & RDP_PARAM_MCAST_CM)
			return refuse(why, len,
				      "a join through the RDMA CM is -g's: "
				      "add -g");
		if (p->flags & RDP_PARAM_MCAST_COUNTS)
			return refuse(why, len,
				      "the counts of a group's QPs are -g's: "
				      "add -g");
		return 0;
	}
	if ((p->flags & RDP_PARAM_MCAST_CM) && (p->flags & RDP_PARAM_RDMA_CM))
		return refuse(why, len,
			      "-g -R joins the group through the RDMA CM and "
			      "exchanges the UD QPs over TCP: the QPs cannot "
			      "also be connected by RDMA CM");
	if (!(ops->flags & RDP_BENCH_MCAST))
		return refuse(why, len, "%s: -g (multicast) applies to %s",
			      ops->name,
			      rdp_rules_tests(-1, RDP_BENCH_MCAST, 0, "",
					      " and ", tests, sizeof(tests)));
	if (p->transport != RDP_TRANSPORT_UD)
		return refuse(why, len,
			      "-g sends to a multicast group, which takes UD "
			      "datagrams: add -c UD (-c %s connects each QP "
			      "to one peer QP)",
			      rdp_transport_name(p->transport));
	if (p->flags & RDP_PARAM_BIDIR)
		return refuse(why, len,
			      "%s -g sends one way, to the group: drop -b",
			      ops->name);
	if (p->recv_post_list > 1)
		return refuse(why, len,
			      "-g counts each QP's copies as they arrive: drop "
			      "--recv_post_list");
	if (p->threads > 1)
		return refuse(why, len,
			      "-g does not combine with --threads: every QP "
			      "of the group takes every message, whichever "
			      "thread sent it");
	if (rdp_mgid_is_set(p->mgid) && !rdp_mgid_is_multicast(p->mgid)) {
		rdp_mgid_str(p->mgid, text, sizeof(text));
		return refuse(why, len,
			      "-M %s is not a multicast GID: give one in "
			      "ff00::/8, or ::ffff:224.0.0.0 to "
			      "::ffff:239.255.255.255 for IPv4",
			      text);
	}
	return 0;
}

/* --flow_label's list: one label per QP of the point, each 20 bits (the
 * server checks a list it was sent here too). */
static int rules_flow_labels(const struct rdp_params *p, char *why, size_t len)
{
	uint32_t i;

	if (!p->n_flow_labels)
		return 0;
	if (p->n_flow_labels != p->num_qps)
		return refuse(why, len,
			      "--flow_label lists %u labels for %u QPs (-q): "
			      "give one label per QP, or one for all",
			      p->n_flow_labels, p->num_qps);
	for (i = 0; i < p->n_flow_labels; i++)
		if (p->flow_labels[i] > 0xfffff)
			return refuse(why, len,
				      "--flow_label %u (QP %u) is out of "
				      "range: use 0..1048575",
				      p->flow_labels[i], i);
	return 0;
}

/* -R: RDMA CM takes the path from the route, for RC QPs. */
static int rules_cm(const struct rdp_params *p, char *why, size_t len)
{
	if (!(p->flags & RDP_PARAM_RDMA_CM))
		return 0;
	if (p->mtu_bytes)
		return refuse(why, len,
			      "-m does not apply with -R: RDMA CM takes the "
			      "path MTU from the route (set the netdev's MTU "
			      "instead)");
	if (p->pkey_index || p->flow_label || p->n_flow_labels ||
	    p->hop_limit != 64)
		return refuse(why, len,
			      "--pkey_index, --flow_label and --hop_limit do "
			      "not apply with -R: RDMA CM takes the path from "
			      "the route");
	if (p->transport != RDP_TRANSPORT_RC)
		return refuse(why, len,
			      "-R connects RC QPs: drop -R to run -c %s (QPs "
			      "exchanged over TCP)",
			      rdp_transport_name(p->transport));
	return 0;
}

/* perftest's programs: plain verbs, on RC, one loop. */
static int rules_perftest(const struct rdp_params *p, char *why, size_t len)
{
	if ((p->flags & (RDP_PARAM_WRITE_IMM | RDP_PARAM_SEND_IMM)))
		return refuse(why, len,
			      "--perftest runs perftest's plain verbs: drop "
			      "--write_with_imm and --send_with_imm");
	if (p->transport != RDP_TRANSPORT_RC)
		return refuse(why, len,
			      "--perftest meets perftest on RC: drop -c %s, "
			      "or run rdmaperf on both sides",
			      rdp_transport_name(p->transport));
	return 0;
}

/* One loop, one receive queue, host pages: what --threads, --use-srq,
 * --odp and --mr_per_qp need of the side. */
static int rules_side(const struct rdp_params *p,
		      const struct rdp_rules_side *side, char *why, size_t len)
{
	const struct rdp_mem_ops *m = side->mem;
	int host = !m || m->host_pages;

	if (p->threads > 1 && (side->bounce || side->perftest))
		return refuse(why, len,
			      "--threads does not combine with --bounce (one "
			      "staging loop) or --perftest (perftest runs one "
			      "loop): drop one of them");
	if ((p->flags & RDP_PARAM_SRQ) && (side->bounce || side->perftest))
		return refuse(why, len,
			      "--use-srq does not combine with --bounce or "
			      "--perftest");
	if ((p->flags & RDP_PARAM_ODP) && !host)
		return refuse(why, len, "--odp pages host memory: drop %s",
			      m->option);
	if ((p->flags & RDP_PARAM_ODP) && side->perftest)
		return refuse(why, len, "--odp does not apply with --perftest");
	if ((p->flags & RDP_PARAM_MR_PER_QP) && !host)
		return refuse(why, len,
			      "--mr_per_qp registers host memory: drop %s",
			      m->option);
	if ((p->flags & RDP_PARAM_MR_PER_QP) && side->perftest)
		return refuse(why, len,
			      "--mr_per_qp does not apply with --perftest (its "
			      "peer's buffer layout is perftest's)");
	/* --bounce without device memory never gets here (check_mem). */
	if (p->transport == RDP_TRANSPORT_UD && m)
		return refuse(why, len,
			      "-c UD runs on host memory: drop %s and --bounce",
			      m->option);
	return 0;
}

/* --data_validation: the tests whose receiving side sees each message
 * complete (plain WRITEs complete only at the writer, so write_bw needs
 * --write_with_imm), one reliable loop on host memory, each message big
 * enough for its stamp, and a ring within the slot limit. */
static int rules_validate(const struct rdp_params *p,
			  const struct rdp_bench_ops *ops,
			  const struct rdp_rules_side *side, char *why,
			  size_t len)
{
	uint64_t ring = rdp_dv_ring(ops, p);
	char tests[TESTS_MAX];

	if (!(p->flags & RDP_PARAM_VALIDATE))
		return 0;
	if (!(ops->flags & RDP_BENCH_VALIDATE))
		return refuse(why, len,
			      "--data_validation checks each message of %s, "
			      "not of %s (whose buffers are checked after the "
			      "run)",
			      rdp_rules_tests(RDP_BENCH_BW, RDP_BENCH_VALIDATE,
					      0, "", " and ", tests,
					      sizeof(tests)),
			      ops->name);
	if (ops->verb == RDP_VERB_WRITE && !(p->flags & RDP_PARAM_WRITE_IMM))
		return refuse(why, len,
			      "--data_validation: a plain RDMA WRITE completes "
			      "only at the writer, so the server cannot check "
			      "each message as it lands: add --write_with_imm "
			      "(a receive completion per message)");
	if (p->transport != RDP_TRANSPORT_RC)
		return refuse(why, len,
			      "--data_validation needs -c RC: a message lost "
			      "on -c %s would shift every sequence after it",
			      rdp_transport_name(p->transport));
	if (p->size_bytes < 8)
		return refuse(why, len,
			      "--data_validation: -s %llu is too small: each "
			      "message carries its sequence and checksum in "
			      "its first 8 bytes (use -s 8 or more)",
			      (unsigned long long)p->size_bytes);
	if (ring * ((p->size_bytes + 63) & ~63ull) > RDP_MSG_MAX_BYTES)
		return refuse(why, len,
			      "--data_validation: a ring of %llu messages of "
			      "%llu B per QP (-t + -r + 1) is over 1 GiB: "
			      "lower -s, -t or -r",
			      (unsigned long long)ring,
			      (unsigned long long)p->size_bytes);
	if (side->mem)
		return refuse(
			why, len,
			"--data_validation checks each message with the "
			"CPU as it completes: host memory only, drop %s%s",
			side->mem->option, side->bounce ? " and --bounce" : "");
	if (side->perftest)
		return refuse(why, len,
			      "--data_validation: perftest's programs do not "
			      "stamp rdmaperf's sequence and checksum: drop "
			      "--data_validation or --perftest");
	if ((p->flags & (RDP_PARAM_BIDIR | RDP_PARAM_EVENTS | RDP_PARAM_LIVE |
			 RDP_PARAM_SRQ | RDP_PARAM_REVERSED)) ||
	    p->threads > 1 || p->rate_milli || p->recv_post_list > 1)
		return refuse(why, len,
			      "--data_validation runs one plain loop: drop -b, "
			      "-e, --run_infinitely, --use-srq, --threads, "
			      "--rate_limit, --reversed and --recv_post_list");
	return 0;
}

/* Does the side run a staged loop: the client always with --bounce, the
 * server where messages pass through it. */
static int staged_loop(const struct rdp_params *p,
		       const struct rdp_bench_ops *ops,
		       const struct rdp_rules_side *side)
{
	if (!side->bounce)
		return 0;
	return !side->server ||
	       rdp_stage_role(ops, p, RDP_SIDE_SERVER) != RDP_STAGE_NONE;
}

/* -e sleeps on completions: the test's row says whether it has any. */
static int rules_events(const struct rdp_params *p,
			const struct rdp_bench_ops *ops,
			const struct rdp_rules_side *side, char *why,
			size_t len)
{
	char tests[TESTS_MAX];

	if (!(p->flags & RDP_PARAM_EVENTS)) {
		if (p->comp_vector)
			return refuse(why, len,
				      "-X picks the completion vector of -e: "
				      "add -e");
		return 0;
	}
	if (!(ops->flags & RDP_BENCH_EVENTS))
		return refuse(why, len,
			      "-e: %s polls its memory for the peer's write, "
			      "with no completion to sleep on: use %s",
			      ops->name,
			      rdp_rules_tests((int)ops->kind, RDP_BENCH_EVENTS,
					      0, "", " or ", tests,
					      sizeof(tests)));
	if (ops->kind == RDP_BENCH_LAT && side->perftest)
		return refuse(why, len,
			      "-e with --perftest: perftest's ping-pong is run "
			      "polling; drop -e");
	if (staged_loop(p, ops, side))
		return refuse(why, len,
			      "-e does not combine with --bounce: the staged "
			      "loops poll");
	return 0;
}

/* Immediate data and a shared receive queue: the test's row says which
 * verb carries them. */
static int rules_imm(const struct rdp_params *p,
		     const struct rdp_bench_ops *ops, char *why, size_t len)
{
	char tests[TESTS_MAX];

	if ((p->flags & RDP_PARAM_WRITE_IMM) &&
	    !(ops->flags & RDP_BENCH_WRITE_IMM))
		return refuse(why, len, "%s: --write_with_imm applies to %s",
			      p->test,
			      rdp_rules_tests(-1, RDP_BENCH_WRITE_IMM, 0, "",
					      " and ", tests, sizeof(tests)));
	if ((p->flags & RDP_PARAM_WRITE_IMM) && (p->flags & RDP_PARAM_BIDIR))
		return refuse(why, len,
			      "%s: --write_with_imm runs one way: drop -b",
			      p->test);
	if ((p->flags & RDP_PARAM_SRQ) && !(ops->flags & RDP_BENCH_RECV))
		return refuse(why, len, "%s: --use-srq applies to %s", p->test,
			      rdp_rules_tests(-1, RDP_BENCH_RECV, 0, "",
					      " and ", tests, sizeof(tests)));
	if ((p->flags & RDP_PARAM_SEND_IMM) &&
	    !(ops->flags & RDP_BENCH_SEND_IMM))
		return refuse(why, len, "%s: --send_with_imm applies to %s",
			      p->test,
			      rdp_rules_tests(-1, RDP_BENCH_SEND_IMM, 0, "",
					      " and ", tests, sizeof(tests)));
	return 0;
}

/* --rate_limit: a bandwidth test sending at its own pace. */
static int rules_rate(const struct rdp_params *p,
		      const struct rdp_bench_ops *ops,
		      const struct rdp_rules_side *side, char *why, size_t len)
{
	if (!p->rate_milli) {
		if (p->rate_units || p->rate_type)
			return refuse(why, len,
				      "--rate_units and --rate_limit_type go "
				      "with --rate_limit");
		return 0;
	}
	if (ops->kind != RDP_BENCH_BW)
		return refuse(why, len,
			      "--rate_limit paces the bandwidth tests: a "
			      "latency test has one message in flight");
	if (p->flags & RDP_PARAM_EVENTS)
		return refuse(why, len,
			      "--rate_limit does not combine with -e: the "
			      "paced loop waits by polling the clock");
	/* The sender paces: a server sends with -b only. */
	if (staged_loop(p, ops, side) &&
	    (!side->server || (p->flags & RDP_PARAM_BIDIR)))
		return refuse(why, len,
			      "--rate_limit does not combine with --bounce");
	if (p->rate_type == RDP_RATE_HW && p->rate_units == RDP_RATE_PPS)
		return refuse(why, len,
			      "--rate_limit_type HW takes a bit rate: give "
			      "--rate_units Gbps, Mbps or MiBps");
	return 0;
}

/* --recv_post_list: chains of the receives a SEND bandwidth loop keeps
 * posted, no longer than the queue. */
static int rules_recv_list(const struct rdp_params *p,
			   const struct rdp_bench_ops *ops, char *why,
			   size_t len)
{
	char tests[TESTS_MAX];

	if (p->recv_post_list <= 1)
		return 0;
	if (ops->kind != RDP_BENCH_BW || !(ops->flags & RDP_BENCH_RECV))
		return refuse(why, len,
			      "%s: --recv_post_list chains the receives of %s",
			      ops->name,
			      rdp_rules_tests(RDP_BENCH_BW, RDP_BENCH_RECV, 0,
					      "", " and ", tests,
					      sizeof(tests)));
	if (p->recv_post_list > p->rx_depth)
		return refuse(why, len,
			      "--recv_post_list %u is more than the receive "
			      "queue's depth (-r %u): give at most %u, or a "
			      "larger -r",
			      p->recv_post_list, p->rx_depth, p->rx_depth);
	if (p->flags & RDP_PARAM_BIDIR)
		return refuse(why, len,
			      "--recv_post_list does not combine with -b: %s "
			      "-b puts each receive back as it completes",
			      ops->name);
	return 0;
}

/* --latency_gap, --burst_size, --typical_pkt_size: what each shapes must
 * be there. */
static int rules_gaps(const struct rdp_params *p,
		      const struct rdp_bench_ops *ops, char *why, size_t len)
{
	if (p->latency_gap_ns && ops->kind != RDP_BENCH_LAT)
		return refuse(why, len,
			      "%s: --latency_gap pauses between the round "
			      "trips of the latency tests: drop it",
			      ops->name);
	if (p->burst_size && !p->rate_milli)
		return refuse(why, len,
			      "--burst_size shapes the pacing of --rate_limit: "
			      "add --rate_limit");
	if (p->typical_pkt_bytes && p->rate_type != RDP_RATE_HW)
		return refuse(why, len,
			      "--typical_pkt_size tunes the device's pacing: "
			      "add --rate_limit_type HW");
	return 0;
}

/* --reversed: the server runs the client's loop of a one-way bandwidth
 * test on RC, rdmaperf on both sides. */
static int rules_reversed(const struct rdp_params *p,
			  const struct rdp_bench_ops *ops,
			  const struct rdp_rules_side *side, char *why,
			  size_t len)
{
	char tests[TESTS_MAX];

	if (!(p->flags & RDP_PARAM_REVERSED))
		return 0;
	rdp_rules_tests(-1, RDP_BENCH_REVERSED, 0, "", " and ", tests,
			sizeof(tests));
	/* perftest takes --reversed on any test and swaps the processes'
	 * roles: for READ and atomics the requester moves, not the data's
	 * sender, so the same traffic is the test run from the other host. */
	if (!(ops->flags & RDP_BENCH_REVERSED) && ops->kind == RDP_BENCH_BW &&
	    (ops->verb == RDP_VERB_READ || ops->verb == RDP_VERB_ATOMIC))
		return refuse(why, len,
			      "%s: --reversed applies to %s; perftest's swaps "
			      "the two sides, so that its server posts the %s "
			      "on the client's memory: run %s with its client "
			      "on the other host for that",
			      ops->name, tests,
			      ops->verb == RDP_VERB_READ ? "READs" : "atomics",
			      ops->name);
	if (!(ops->flags & RDP_BENCH_REVERSED))
		return refuse(why, len, "%s: --reversed applies to %s",
			      ops->name, tests);
	if (p->flags & RDP_PARAM_BIDIR)
		return refuse(why, len,
			      "--reversed and -b: -b already sends both ways; "
			      "drop one of them");
	if (side->perftest)
		return refuse(why, len,
			      "--reversed with --perftest is not built in: "
			      "perftest's dialogue cannot ask its server to "
			      "send; run rdmaperf-server there");
	if (p->transport != RDP_TRANSPORT_RC)
		return refuse(why, len, "--reversed runs on RC: drop -c %s",
			      rdp_transport_name(p->transport));
	if (p->threads > 1 || side->bounce || (p->flags & RDP_PARAM_LIVE))
		return refuse(why, len,
			      "--reversed does not combine with --threads, "
			      "--bounce or --run_infinitely");
	return 0;
}

/* Device memory: --bounce needs messages to stage, and the CPU cannot
 * poll what lives on the device. */
static int rules_device(const struct rdp_bench_ops *ops,
			const struct rdp_rules_side *side, char *why,
			size_t len)
{
	char tests[TESTS_MAX];

	if (side->bounce && !(ops->flags & RDP_BENCH_BOUNCE))
		return refuse(
			why, len,
			"--bounce stages the messages of %s; %s has none to "
			"stage (%s): drop --bounce",
			rdp_rules_tests(-1, RDP_BENCH_BOUNCE, 0, "", " and ",
					tests, sizeof(tests)),
			ops->name,
			ops->kind == RDP_BENCH_LAT
				? "a round trip of one message is not a stream"
				: "its 8-byte operands are updated in place by "
				  "the NIC");
	if (side->mem && side->mem->kind != RDP_MEM_KIND_HOST &&
	    (ops->flags & RDP_BENCH_CPU_POLL))
		return refuse(why, len,
			      "%s polls its receive buffer with the CPU, which "
			      "cannot watch GPU memory: measure GPU latency "
			      "with %s, or drop %s",
			      ops->name,
			      rdp_rules_tests(RDP_BENCH_LAT, 0,
					      RDP_BENCH_CPU_POLL, "", " or ",
					      tests, sizeof(tests)),
			      side->mem->option);
	return 0;
}

/* --use-null-mr: the keys name a null MR that keeps nothing, so only a
 * test whose data nobody reads runs, on one plain MR. */
static int rules_null_mr(const struct rdp_params *p,
			 const struct rdp_bench_ops *ops,
			 const struct rdp_rules_side *side, char *why,
			 size_t len)
{
	char tests[TESTS_MAX];
	const char *other = p->flags & RDP_PARAM_MR_PER_QP ? "--mr_per_qp"
			    : p->flags & RDP_PARAM_ODP	   ? "--odp"
			    : side->bounce		   ? "--bounce"
			    : side->perftest		   ? "--perftest"
							   : NULL;

	if (!(p->flags & RDP_PARAM_NULL_MR))
		return 0;
	if (!(ops->flags & RDP_BENCH_NULL_MR))
		return refuse(why, len,
			      "--use-null-mr discards what is written and "
			      "reads zeros: it runs %s, not %s, whose data is "
			      "read",
			      rdp_rules_tests(-1, RDP_BENCH_NULL_MR, 0, "",
					      " and ", tests, sizeof(tests)),
			      ops->name);
	if (other)
		return refuse(why, len,
			      "--use-null-mr puts one null MR in place of the "
			      "buffer's: drop %s",
			      other);
	return 0;
}

/* -O: half the QPs on each port, so two QPs at least; a bandwidth test,
 * on QPs this side builds itself. */
static int rules_dualport(const struct rdp_params *p,
			  const struct rdp_bench_ops *ops,
			  const struct rdp_rules_side *side, char *why,
			  size_t len)
{
	if (!(p->flags & RDP_PARAM_DUALPORT))
		return 0;
	if (ops->kind != RDP_BENCH_BW)
		return refuse(why, len,
			      "-O (--dualport) spreads a bandwidth test's QPs "
			      "over two ports: %s is a latency test",
			      ops->name);
	if (p->num_qps < 2)
		return refuse(why, len,
			      "-O (--dualport) puts half the QPs on each "
			      "port: give -q 2 or more");
	if (p->flags & RDP_PARAM_RDMA_CM || side->perftest)
		return refuse(why, len,
			      "-O (--dualport) does not combine with %s: drop "
			      "one",
			      side->perftest ? "--perftest" : "-R");
	return 0;
}

int rdp_rules_check(const struct rdp_params *p, const struct rdp_bench_ops *ops,
		    const struct rdp_rules_side *side, char *why, size_t len)
{
	int ret = rdp_rules_check_mem(side, why, len);

	if (!ret)
		ret = rules_bidir(p, ops, side, why, len);
	if (!ret)
		ret = rules_mcast(p, ops, why, len);
	if (!ret)
		ret = rules_cm(p, why, len);
	if (!ret)
		ret = rules_flow_labels(p, why, len);
	if (!ret && side->perftest)
		ret = rules_perftest(p, why, len);
	if (!ret)
		ret = rules_side(p, side, why, len);
	if (!ret)
		ret = rules_events(p, ops, side, why, len);
	if (!ret)
		ret = rules_imm(p, ops, why, len);
	if (!ret)
		ret = rules_null_mr(p, ops, side, why, len);
	if (!ret)
		ret = rules_dualport(p, ops, side, why, len);
	if (!ret)
		ret = rules_rate(p, ops, side, why, len);
	if (!ret)
		ret = rules_recv_list(p, ops, why, len);
	if (!ret)
		ret = rules_gaps(p, ops, why, len);
	if (!ret)
		ret = rules_reversed(p, ops, side, why, len);
	if (!ret)
		ret = rules_device(ops, side, why, len);
	if (!ret)
		ret = rules_validate(p, ops, side, why, len);
	if (!ret)
		ret = rdp_bench_validate(ops, p, why, len);
	return ret;
}
