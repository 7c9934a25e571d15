/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Link rates from the port's speed and width codes (ibv_port_attr), the
 * base of every "% of line rate" figure and of the acceptance band, and
 * the words reports use for them and for a NUMA node.
 */
#include <stdio.h>
#include <infiniband/verbs.h>

#include <rdmaperf/limits.h>

/*
 * One row per active_speed code: the lane's signalling rate, its data
 * rate on InfiniBand (8b/10b up to QDR, 64b/66b from FDR10), and the
 * Ethernet rate a RoCE driver means by it.
 */
struct speed_row {
	uint8_t code;
	const char *name;
	double signal_gbps;
	double ib_data_gbps;
	double eth_gbps;
};

static const struct speed_row speeds[] = {
	{ 1, "SDR", 2.5, 2.0, 2.5 },
	{ 2, "DDR", 5.0, 4.0, 5.0 },
	{ 4, "QDR", 10.0, 8.0, 10.0 },
	{ 8, "FDR10", 10.0, 10.0, 10.0 },
	{ 16, "FDR", 14.0, 14.0625 * 64 / 66, 14.0 },
	{ 32, "EDR", 25.0, 25.0, 25.0 },
	{ 64, "HDR", 50.0, 50.0, 50.0 },
	{ 128, "NDR", 100.0, 100.0, 100.0 },
};

static const struct speed_row *speed_row(uint8_t code)
{
	size_t i;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].code == code)
			return &speeds[i];
	return NULL;
}

unsigned int rdp_link_lanes(uint8_t width)
{
	switch (width) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

double rdp_link_signal_gbps(uint8_t speed, uint8_t width)
{
	const struct speed_row *s = speed_row(speed);

	return s ? s->signal_gbps * rdp_link_lanes(width) : 0.0;
}

double rdp_line_rate_gbps(uint8_t link_layer, uint8_t speed, uint8_t width)
{
	const struct speed_row *s = speed_row(speed);
	unsigned int n = rdp_link_lanes(width);

	if (!s || !n)
		return 0.0;
	if (link_layer != IBV_LINK_LAYER_ETHERNET)
		return s->ib_data_gbps * n;
	/* Drivers encode 1GbE and anything slower as SDR 1x. */
	if (speed == 1 && n == 1)
		return 1.0;
	return s->eth_gbps * n;
}

void rdp_link_name(uint8_t link_layer, uint8_t speed, uint8_t width, char *buf,
		   size_t len)
{
	const struct speed_row *s = speed_row(speed);
	unsigned int n = rdp_link_lanes(width);

	if (!s || !n)
		snprintf(buf, len, "speed code %u, width code %u", speed,
			 width);
	else if (link_layer == IBV_LINK_LAYER_ETHERNET)
		/* The codes only carry the Ethernet speed: name that. */
		snprintf(buf, len, "%g Gb/s Ethernet",
			 rdp_line_rate_gbps(link_layer, speed, width));
	else
		snprintf(buf, len, "%s %ux", s->name, n);
}

const char *rdp_numa_name(int node, char *buf, size_t len)
{
	if (node >= 0)
		snprintf(buf, len, "%d", node);
	else
		snprintf(buf, len, "unknown");
	return buf;
}
