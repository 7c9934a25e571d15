/* SPDX-License-Identifier: BSD-2-Clause */
/* The text report: a header naming what was measured, then perftest's
 * table layout so existing eyes and scripts read it. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/mcast.h>
#include <rdmaperf/report.h>
#include <rdmaperf/stage.h>

#define RULE                                                                   \
	"---------------------------------------------------------------"      \
	"------------------------"

static void gid_line(FILE *f, const struct rdp_report_info *in)
{
	const struct rdp_conn *c = in->conn;
	char gid[64];

	if (!c->have_gid) {
		fprintf(f, " GID             : none, LID %u routed\n",
			c->dev->port.lid);
		return;
	}
	rdp_gid_format(c->gid.entry.raw, gid, sizeof(gid));
	fprintf(f, " GID             : index %d %s %s (%s)\n",
		c->gid.entry.index, rdp_gid_type_str(c->gid.entry.type), gid,
		rdp_gid_reason_str(c->gid.reason));
	fprintf(f, " Peer GID        : index %d %s\n", in->peer->gid_index,
		rdp_gid_type_str((enum rdp_gid_type)in->peer->gid_type));
}

static void size_line(FILE *f, const struct rdp_params *p)
{
	if (p->duration_s)
		fprintf(f, " Run             : %llu B messages for %u s\n",
			(unsigned long long)p->size_bytes, p->duration_s);
	else
		fprintf(f,
			" Run             : %llu B messages, %llu "
			"iterations%s\n",
			(unsigned long long)p->size_bytes,
			(unsigned long long)p->iters,
			p->num_qps > 1 ? " per QP" : "");
}

/* What "% of line rate" refers to; 0 when the port's codes are unknown. */
static double line_gbps(const struct rdp_report_info *in)
{
	const struct rdp_port_info *p = &in->conn->dev->port;

	return rdp_line_rate_gbps(p->link_layer, p->active_speed,
				  p->active_width);
}

static void link_line(FILE *f, const struct rdp_report_info *in)
{
	const struct rdp_port_info *p = &in->conn->dev->port;
	char name[48];

	rdp_link_name(p->link_layer, p->active_speed, p->active_width, name,
		      sizeof(name));
	if (line_gbps(in) > 0)
		fprintf(f, " Line rate       : %.3f Gb/s (%s)\n", line_gbps(in),
			name);
	else
		fprintf(f, " Line rate       : unknown (%s)\n", name);
}

/* How the buffers are registered: relaxed ordering, huge pages, one MR
 * per QP, on-demand paging. */
static void registration_line(FILE *f, const struct rdp_mem *m,
			      const struct rdp_params *p)
{
	fprintf(f, " Registration    : PCIe relaxed ordering %s",
		m->relaxed		      ? "requested"
		: rdp_mem_relaxed_supported() ? "off (--disable_pcie_relaxed)"
					      : "not in this libibverbs");
	if (m->hugepages)
		fprintf(f, ", host buffers in 2 MiB huge pages");
	if (p->flags & RDP_PARAM_MR_PER_QP)
		fprintf(f, ", one MR per QP");
	if (p->flags & RDP_PARAM_ODP)
		fprintf(f, ", %son-demand paging",
			p->flags & RDP_PARAM_ODP_IMPLICIT ? "implicit " : "");
	fprintf(f, "\n");
}

/* Which API the loop posted with, and why not the builders. */
static void post_line(FILE *f, const struct rdp_report_info *in)
{
	const char *why = in->params->flags & RDP_PARAM_OLD_POST_SEND
				  ? "--use_old_post_send"
				  : "the device refused extended QPs";

	if (in->dec->post_api == RDP_POST_WR)
		fprintf(f, " Posting         : ibv_wr_* builders on extended "
			   "QPs\n");
	else
		fprintf(f, " Posting         : ibv_post_send (%s)\n", why);
}

void rdp_report_header(FILE *f, const struct rdp_report_info *in)
{
	const struct rdp_conn *c = in->conn;
	const struct rdp_dev *d = c->dev;
	const struct rdp_params *p = in->params;
	char label[48], group[RDP_MGID_STR_MAX], node[16], peer_node[16];

	fprintf(f, "%s\n %-52s rdmaperf %s\n", RULE, in->ops->title,
		PACKAGE_VERSION);
	fprintf(f, " Local device    : %s port %u, %s, NUMA node %s\n", d->name,
		d->port.num, rdp_link_layer_str(d->port.link_layer),
		rdp_numa_name(d->numa_node, node, sizeof(node)));
	link_line(f, in);
	fprintf(f, " Peer device     : %s port %u on %s (%s), rdmaperf %s\n",
		in->peer->device, in->peer->port, in->peer_host->hostname,
		in->peer_addr, in->peer_host->tool_version);
	fprintf(f, " Authentication  : %s\n",
		in->authenticated ? "shared secret, proved by both sides "
				    "(HMAC-SHA256 challenge-response)"
				  : "none (the server asks for no secret)");
	fprintf(f, " Local host      : %s, %u CPUs, running on CPU %d\n",
		in->local_host->cpu_model, in->local_host->cpus, in->cpu);
	fprintf(f,
		" Peer host       : %s, %u CPUs, running on CPU %d, NUMA "
		"node %s\n",
		in->peer_host->cpu_model, in->peer_host->cpus, in->peer->cpu,
		rdp_numa_name(in->peer->numa_node, peer_node,
			      sizeof(peer_node)));
	rdp_report_placement(f, in);
	gid_line(f, in);
	fprintf(f,
		" MTU             : %u B (active %u here, %u on the "
		"peer)\n",
		c->path_mtu_bytes, d->port.active_mtu_bytes,
		in->peer->active_mtu_bytes);
	if (p->n_flow_labels) /* --flow_label's list */
		snprintf(label, sizeof(label), "s per QP (%u, first 0x%x)",
			 p->n_flow_labels, p->flow_labels[0]);
	else
		snprintf(label, sizeof(label), " 0x%x", p->flow_label);
	fprintf(f,
		" Path            : SL %u, traffic class %u, flow label%s, "
		"hop limit %u, P_Key index %u, retries %u, RNR retries %u%s, "
		"ACK timeout %u\n",
		p->sl, p->tclass, label, p->hop_limit, p->pkey_index,
		p->retry_count, p->rnr_retry,
		p->rnr_retry == 7 ? " (forever)" : "", p->qp_timeout);
	fprintf(f, " QPs             : %u %s%s, tx depth %u, signal 1 in %u",
		p->num_qps, rdp_transport_name(p->transport),
		p->flags & RDP_PARAM_RDMA_CM ? " connected by RDMA CM" : "",
		p->tx_depth, in->dec->signal_every);
	if (in->ops->flags & RDP_BENCH_RD_WINDOW)
		fprintf(f, ", %u READ/atomic in flight", in->dec->window);
	if (p->flags & (RDP_PARAM_WRITE_IMM | RDP_PARAM_SEND_IMM))
		fprintf(f, ", with immediate data");
	if (p->flags & RDP_PARAM_SRQ)
		fprintf(f, ", receives on one shared queue");
	if ((p->flags & RDP_PARAM_MCAST) && c->remote) {
		/* the group the server's QP_INFO named */
		rdp_mgid_str(c->remote[0].gid, group, sizeof(group));
		fprintf(f, ", sent to the multicast group %s (%s)", group,
			p->flags & RDP_PARAM_MCAST_CM
				? "joined through the RDMA CM"
				: "attached by MGID");
	}
	if (p->threads > 1)
		fprintf(f, ", split over %u threads (a CPU and a CQ each)",
			p->threads);
	if (p->rate_milli)
		fprintf(f, ", paced to %.3f %s by the %s",
			(double)p->rate_milli / 1000,
			rdp_rate_units_name(p->rate_units),
			in->dec->pacing == RDP_PACE_DEVICE
				? "device"
				: "loop (the device offers no packet pacing "
				  "that fits, packet_pacing_caps)");
	if (p->flags & RDP_PARAM_EVENTS)
		fprintf(f, ", completions by events (vector %u)",
			p->comp_vector);
	fprintf(f, "\n");
	size_line(f, p);
	if (in->n_sizes * in->n_qps > 1)
		fprintf(f,
			" Sweep           : %zu size(s) x %zu QP count(s); the "
			"lines above describe the first point\n",
			in->n_sizes, in->n_qps);
	if (in->ops->kind == RDP_BENCH_LAT) {
		fprintf(f,
			" Latency         : %s; %u warm-up round trips "
			"not measured\n",
			in->ops->lat_note, p->warmup_iters);
	}
	if (in->ops->flags & RDP_BENCH_INLINE)
		fprintf(f, " Inline          : %s (up to %u B on this QP)\n",
			in->dec->inline_used ? "yes" : "no",
			in->dec->inline_max_bytes);
	post_line(f, in);
	rdp_report_memory(f, in);
	if (d->mem)
		registration_line(f, d->mem, p);
	rdp_report_access(f, in);
	fprintf(f, " Clock           : %s, %.4f cycles/ns\n%s\n",
		in->clk->source, in->clk->cycles_per_ns, RULE);
}

/* A latency in the table's unit: microseconds, or CPU cycles with -C. */
static double lat_val(const struct rdp_report_info *in, double ns)
{
	return in->cycles ? ns * in->clk->cycles_per_ns : ns / 1e3;
}

static const char *lat_unit(const struct rdp_report_info *in)
{
	return in->cycles ? "cycles" : "usec";
}

void rdp_report_table_head(FILE *f, const struct rdp_report_info *in)
{
	char c[7][40];
	const char *u = lat_unit(in);

	const char *unit = in->gbits ? "Gb/sec" : "MiB/sec";
	char peak[32], avg[32];

	if (in->ops->kind == RDP_BENCH_BW) {
		snprintf(peak, sizeof(peak), "BW peak[%s]", unit);
		snprintf(avg, sizeof(avg), "BW average[%s]", unit);
		fprintf(f, " %-10s %-14s %-19s %-22s %s%s\n", "#bytes",
			"#iterations", peak, avg, "MsgRate[Mpps]",
			line_gbps(in) > 0 ? "   LineRate[%]" : "");
		return;
	}
	snprintf(c[0], sizeof(c[0]), "t_min[%s]", u);
	snprintf(c[1], sizeof(c[1]), "t_max[%s]", u);
	snprintf(c[2], sizeof(c[2]), "t_typical[%s]", u);
	snprintf(c[3], sizeof(c[3]), "t_avg[%s]", u);
	snprintf(c[4], sizeof(c[4]), "t_stdev[%s]", u);
	snprintf(c[5], sizeof(c[5]), "99%% percentile[%s]", u);
	snprintf(c[6], sizeof(c[6]), "99.9%% percentile[%s]", u);
	fprintf(f, " %-10s %-12s %-12s %-12s %-16s %-12s %-14s %-21s %s\n",
		"#bytes", "#iterations", c[0], c[1], c[2], c[3], c[4], c[5],
		c[6]);
}

double rdp_report_mibps(double gbps)
{
	return gbps * 1e9 / 8.0 / 1048576.0;
}

/* Gb/s is 10^9 bits; the alternative is 2^20 bytes per second. */
static double bw_unit(const struct rdp_report_info *in, double gbps)
{
	return in->gbits ? gbps : rdp_report_mibps(gbps);
}

/* --threads: a row per thread ahead of the sum, with its CPU, QPs and
 * the span of its loop from the first thread's start. */
static void thread_rows(FILE *f, const struct rdp_report_info *in,
			const struct rdp_result *r)
{
	const struct rdp_thread_result *t;
	char name[16], cpu[16];
	uint32_t i;

	for (i = 0; i < r->n_threads; i++) {
		t = &r->threads[i];
		snprintf(name, sizeof(name), "[T%u]", i);
		if (t->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "CPU %d", t->cpu);
		else
			snprintf(cpu, sizeof(cpu), "not pinned");
		fprintf(f,
			" %-10s %-14llu %-19.2f %-22.2f %.6f   %s, QPs %u-%u, "
			"%.3f-%.3f s\n",
			name, (unsigned long long)t->msgs,
			bw_unit(in, t->bw_peak_gbps),
			bw_unit(in, t->bw_avg_gbps), t->msg_rate_mpps, cpu,
			t->first_qp, t->first_qp + t->num_qps - 1, t->start_s,
			t->end_s);
	}
}

void rdp_report_per_qp(FILE *f, const struct rdp_report_info *in,
		       const struct rdp_result *r)
{
	const struct rdp_qp_result *q;
	char name[16];
	uint32_t i;

	for (i = 0; i < r->n_per_qp; i++) {
		q = &r->per_qp[i];
		snprintf(name, sizeof(name), "[QP%u]", q->index);
		fprintf(f,
			" %-10s %-14llu %-19s %-22.2f %.6f   qp 0x%x, flow "
			"label %u\n",
			name, (unsigned long long)q->msgs, "-",
			bw_unit(in, q->bw_gbps),
			r->elapsed_ns > 0
				? (double)q->msgs * 1e3 / r->elapsed_ns
				: 0.0,
			q->qp_num, q->flow_label);
	}
}

/* A point a signal cut short says so on its row. */
static void row_end(FILE *f, const struct rdp_result *r)
{
	fprintf(f, "%s\n", r->interrupted ? "  (interrupted)" : "");
}

void rdp_report_row(FILE *f, const struct rdp_report_info *in,
		    const struct rdp_result *r)
{
	if (in->ops->kind == RDP_BENCH_BW) {
		thread_rows(f, in, r);
		fprintf(f, " %-10llu %-14llu %-19.2f %-22.2f %.6f",
			(unsigned long long)r->size_bytes,
			(unsigned long long)r->msgs,
			bw_unit(in, r->bw_peak_gbps),
			bw_unit(in, r->bw_avg_gbps), r->msg_rate_mpps);
		if (line_gbps(in) > 0)
			fprintf(f, "%*s%.2f", r->msg_rate_mpps < 10 ? 8 : 7, "",
				100 * r->bw_avg_gbps / line_gbps(in));
		if (r->n_threads)
			fprintf(f,
				"   [SUM] over %.3f-%.3f s, when all %u ran "
				"(%.1f %% of the span), %llu msgs in it",
				r->window_start_s, r->window_end_s,
				r->n_threads, r->overlap_pct,
				(unsigned long long)r->window_msgs);
		row_end(f, r);
		return;
	}
	fprintf(f,
		" %-10llu %-12llu %-12.3f %-12.3f %-16.3f %-12.3f "
		"%-14.3f %-21.3f %.3f",
		(unsigned long long)r->size_bytes, (unsigned long long)r->msgs,
		lat_val(in, r->lat.min_ns), lat_val(in, r->lat.max_ns),
		lat_val(in, r->lat.median_ns), lat_val(in, r->lat.avg_ns),
		lat_val(in, r->lat.stdev_ns), lat_val(in, r->lat.p99_ns),
		lat_val(in, r->lat.p999_ns));
	row_end(f, r);
}

static void cpu_line(FILE *f, const char *who, const struct rdp_cpu_cost *c,
		     uint64_t msgs)
{
	double busy = c->user_s + c->sys_s;

	fprintf(f, " CPU %-12s: user %.3f s, system %.3f s, %.1f%% of one CPU",
		who, c->user_s, c->sys_s,
		c->wall_s > 0 ? 100 * busy / c->wall_s : 0.0);
	if (msgs)
		fprintf(f, ", %.3f us a message", busy * 1e6 / (double)msgs);
	if (c->host_busy_pct >= 0)
		fprintf(f, "; host %.1f%% busy", c->host_busy_pct);
	fprintf(f, "\n");
}

void rdp_report_cpu(FILE *f, const struct rdp_report_info *in,
		    const struct rdp_result *r)
{
	if (r->cpu.have)
		cpu_line(f, "here", &r->cpu, r->msgs);
	if (r->peer_cpu.have)
		cpu_line(f,
			 in->rx_from && !strcmp(in->rx_from, "the client")
				 ? "client"
				 : "server",
			 &r->peer_cpu, r->msgs);
}

void rdp_report_footer(FILE *f, const struct rdp_report_info *in)
{
	(void)in;
	fprintf(f, "%s\n", RULE);
}

void rdp_report_intervals(FILE *f, const struct rdp_report_info *in,
			  const struct rdp_result *r)
{
	double t = 0, gbps;
	size_t k;

	for (k = 0; k < r->n_intervals; k++, t += r->interval_s) {
		gbps = (double)r->interval_bytes[k] * 8 / (r->interval_s * 1e9);
		fprintf(f, "   [%7.2f-%7.2f s] %12.2f %s %14.6f Mpps\n", t,
			t + r->interval_s, bw_unit(in, gbps),
			in->gbits ? "Gb/sec " : "MiB/sec",
			(double)r->interval_bytes[k] / (double)r->size_bytes /
				(r->interval_s * 1e6));
	}
}

void rdp_report_live(FILE *f, const struct rdp_report_info *in,
		     const struct rdp_live_point *pt)
{
	fprintf(f,
		"   [%7.2f-%7.2f s] %12.2f %s %14.6f Mpps  %llu msgs, %llu "
		"in all\n",
		pt->start_s, pt->end_s, bw_unit(in, pt->bw_gbps),
		in->gbits ? "Gb/sec " : "MiB/sec", pt->msg_rate_mpps,
		(unsigned long long)pt->msgs,
		(unsigned long long)pt->total_msgs);
	fflush(f);
}

void rdp_report_samples(FILE *f, const struct rdp_report_info *in,
			const struct rdp_result *r)
{
	uint64_t i;

	fprintf(f, "   every sample [%s], in the order measured:\n",
		lat_unit(in));
	for (i = 0; i < r->n_samples; i++)
		fprintf(f, "   %llu %.3f\n", (unsigned long long)i + 1,
			lat_val(in, r->samples_ns[i]));
}

void rdp_report_histogram(FILE *f, const struct rdp_report_info *in,
			  const struct rdp_result *r)
{
	double step = (r->hist_hi_ns - r->hist_lo_ns) / RDP_HIST_BUCKETS;
	uint64_t most = 1;
	size_t b;
	int bar;

	for (b = 0; b <= RDP_HIST_BUCKETS; b++)
		if (r->hist[b] > most)
			most = r->hist[b];
	fprintf(f, "   latency histogram, %zu samples [%s]:\n", r->lat.n,
		lat_unit(in));
	for (b = 0; b <= RDP_HIST_BUCKETS; b++) {
		bar = (int)(50 * r->hist[b] / most);
		if (b < RDP_HIST_BUCKETS)
			fprintf(f, "   %10.3f - %-10.3f",
				lat_val(in, r->hist_lo_ns + step * (double)b),
				lat_val(in, r->hist_lo_ns +
						    step * (double)(b + 1)));
		else
			fprintf(f, "   %10.3f and above  ",
				lat_val(in, r->hist_hi_ns));
		fprintf(f, " %10llu %.*s\n", (unsigned long long)r->hist[b],
			bar,
			"##################################################");
	}
}

double rdp_report_rate_achieved(const struct rdp_params *p,
				const struct rdp_result *r)
{
	switch (p->rate_units) {
	case RDP_RATE_GBPS:
		return r->bw_avg_gbps;
	case RDP_RATE_MBPS:
		return r->bw_avg_gbps * 1e3;
	case RDP_RATE_MIBPS:
		return rdp_report_mibps(r->bw_avg_gbps);
	default:
		return r->msg_rate_mpps * 1e6;
	}
}

const char *rdp_report_pacing_name(enum rdp_pacing pacing)
{
	switch (pacing) {
	case RDP_PACE_DEVICE:
		return "device";
	case RDP_PACE_SOFTWARE:
		return "software";
	default:
		return "none";
	}
}

void rdp_report_rate(FILE *f, const struct rdp_params *p,
		     const struct rdp_result *r)
{
	double asked = (double)p->rate_milli / 1000;
	double got = rdp_report_rate_achieved(p, r);
	char burst[48] = "";

	if (p->burst_size) /* --burst_size */
		snprintf(burst, sizeof(burst), ", in bursts of %u messages",
			 p->burst_size);
	fprintf(f,
		"   Rate            : asked %.3f %s, achieved %.3f %s (%.1f "
		"%%), paced by the %s%s\n",
		asked, rdp_rate_units_name(p->rate_units), got,
		rdp_rate_units_name(p->rate_units), 100 * got / asked,
		r->dec.pacing == RDP_PACE_DEVICE ? "device" : "loop", burst);
}

/* -g: a row per QP of the group under the loss line, each of which
 * should have taken a copy of every message sent. */
static void rdp_report_group_rows(FILE *f, const struct rdp_result *r)
{
	const struct rdp_qp_result *q;
	uint64_t lost;
	char name[16];
	uint32_t i;

	for (i = 0; i < r->n_group; i++) {
		q = &r->group[i];
		lost = r->sent_msgs > q->msgs ? r->sent_msgs - q->msgs : 0;
		snprintf(name, sizeof(name), "[QP%u]", q->index);
		fprintf(f,
			"   %-16s: %llu of %llu copies received, %llu lost "
			"(%.3f %%), the server's qp 0x%x\n",
			name, (unsigned long long)q->msgs,
			(unsigned long long)r->sent_msgs,
			(unsigned long long)lost,
			r->sent_msgs
				? 100.0 * (double)lost / (double)r->sent_msgs
				: 0.0,
			q->qp_num);
	}
}

void rdp_report_loss(FILE *f, const struct rdp_result *r)
{
	uint64_t lost = rdp_result_lost(r), want = rdp_result_expected(r);

	if (r->group_qps) {
		fprintf(f,
			"   Loss            : %llu of %llu copies never arrived "
			"(%.3f %%): %llu messages sent to a group of %u QP%s, "
			"counted by the receiver\n",
			(unsigned long long)lost, (unsigned long long)want,
			want ? 100.0 * (double)lost / (double)want : 0.0,
			(unsigned long long)r->sent_msgs, r->group_qps,
			r->group_qps == 1 ? "" : "s");
		rdp_report_group_rows(f, r);
		return;
	}
	fprintf(f,
		"   Loss            : %llu of %llu messages sent never arrived "
		"(%.3f %%), counted by the receiver\n",
		(unsigned long long)lost, (unsigned long long)r->sent_msgs,
		r->sent_msgs ? 100.0 * (double)lost / (double)r->sent_msgs
			     : 0.0);
}

void rdp_report_bidir(FILE *f, const struct rdp_report_info *in,
		      const struct rdp_result *r)
{
	const char *unit = in->gbits ? "Gb/sec" : "MiB/sec";

	fprintf(f,
		"   TX (this side)  : %llu msgs, peak %.2f, average %.2f %s, "
		"%.6f Mpps\n",
		(unsigned long long)r->msgs, bw_unit(in, r->bw_peak_gbps),
		bw_unit(in, r->bw_avg_gbps), unit, r->msg_rate_mpps);
	fprintf(f,
		"   RX (%s) : %llu msgs, peak %.2f, average %.2f %s, "
		"%.6f Mpps\n",
		in->rx_from ? in->rx_from : "the server",
		(unsigned long long)r->rx_msgs, bw_unit(in, r->rx_bw_peak_gbps),
		bw_unit(in, r->rx_bw_avg_gbps), unit, r->rx_msg_rate_mpps);
}

void rdp_report_reversed(FILE *f, const struct rdp_result *r)
{
	fprintf(f,
		"   Direction       : the server sent, this side received "
		"(--reversed): the row is the server's %llu messages\n",
		(unsigned long long)r->msgs);
}
