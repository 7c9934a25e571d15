/* SPDX-License-Identifier: BSD-2-Clause */
/* What params.h computes from the test parameters: --rate_limit in the
 * units the loop paces by and the device takes. */
#include <stdint.h>

#include <rdmaperf/params.h>

const char *rdp_rate_units_name(uint32_t units)
{
	static const char *const names[RDP_RATE_UNITS_COUNT] = { "Gb/s", "Mb/s",
								 "MiB/s",
								 "pps" };

	return units < RDP_RATE_UNITS_COUNT ? names[units] : "?";
}

double rdp_rate_msgs_per_s(const struct rdp_params *p)
{
	double v = (double)p->rate_milli / 1000, bits = 8.0 * p->size_bytes;

	switch (p->rate_units) {
	case RDP_RATE_GBPS:
		return v * 1e9 / bits;
	case RDP_RATE_MBPS:
		return v * 1e6 / bits;
	case RDP_RATE_MIBPS:
		return v * 1048576 / (double)p->size_bytes;
	default:
		return v;
	}
}

uint64_t rdp_rate_kbps(const struct rdp_params *p)
{
	double kbps = rdp_rate_msgs_per_s(p) * 8.0 * p->size_bytes / 1e3;

	return kbps >= 1 && kbps < 4e9 ? (uint64_t)kbps : 0;
}
