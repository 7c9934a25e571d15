/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Port counters and hw_counters (and the netdev's error and pause
 * statistics, ethtool.c) before and after each test point, their deltas,
 * and what a rise of each means; the report words them.
 */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/counters.h>

#define PORT_DIR "/sys/class/infiniband/%s/ports/%d"

static void read_dir(const struct rdp_sysfs *fs, const char *dev, int port,
		     const char *sub, struct rdp_counters *out)
{
	char names[RDP_COUNTERS_MAX][RDP_SYSFS_NAME_MAX]; /* 10 KiB */
	struct rdp_counter *c;
	uint64_t v;
	size_t i, n;

	if (rdp_sysfs_list(fs, names, RDP_COUNTERS_MAX, &n, PORT_DIR "/%s", dev,
			   port, sub))
		return;
	for (i = 0; i < n && out->n < RDP_COUNTERS_MAX; i++) {
		/* "lifespan" is a setting, not a count. */
		if (strlen(names[i]) >= RDP_COUNTER_NAME_MAX ||
		    !strcmp(names[i], "lifespan") ||
		    rdp_sysfs_read_u64(fs, &v, PORT_DIR "/%s/%s", dev, port,
				       sub, names[i]))
			continue;
		c = &out->c[out->n++];
		memcpy(c->name, names[i], strlen(names[i]) + 1);
		c->hw = sub[0] == 'h' ? RDP_CTR_SRC_HW : RDP_CTR_SRC_PORT;
		c->value = v;
	}
}

void rdp_counters_snapshot(const struct rdp_sysfs *fs, const char *dev,
			   int port, struct rdp_counters *out)
{
	out->n = 0;
	read_dir(fs, dev, port, "counters", out);
	read_dir(fs, dev, port, "hw_counters", out);
}

static const struct rdp_counter *find(const struct rdp_counters *s,
				      const struct rdp_counter *like)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->c[i].hw == like->hw && !strcmp(s->c[i].name, like->name))
			return &s->c[i];
	return NULL;
}

void rdp_counters_delta(const struct rdp_counters *before,
			const struct rdp_counters *after,
			struct rdp_counters *out)
{
	const struct rdp_counter *b;
	struct rdp_counter *d;
	size_t i;

	out->n = 0;
	for (i = 0; i < after->n; i++) {
		b = find(before, &after->c[i]);
		if (!b)
			continue;
		d = &out->c[out->n++];
		*d = after->c[i];
		d->value = after->c[i].value >= b->value
				   ? after->c[i].value - b->value
				   : after->c[i].value;
	}
}

/* Counters that mean loss, retries or congestion, across mlx5, rxe and
 * the IB port counters, with what a rise means. */
void rdp_ctr_begin(struct rdp_ctr_pair *p, const char *dev, int port)
{
	rdp_sysfs_init(&p->fs, NULL);
	snprintf(p->dev, sizeof(p->dev), "%s", dev);
	p->port = port;
	p->have_local = p->have_peer = 0;
	p->local.n = p->peer.n = 0;
	rdp_counters_snapshot(&p->fs, p->dev, p->port, &p->before);
	rdp_ethtool_snapshot(&p->fs, p->dev, p->port, &p->before);
}

void rdp_ctr_end(struct rdp_ctr_pair *p)
{
	rdp_counters_snapshot(&p->fs, p->dev, p->port, &p->after);
	rdp_ethtool_snapshot(&p->fs, p->dev, p->port, &p->after);
	rdp_counters_delta(&p->before, &p->after, &p->local);
	p->have_local = 1;
}
