/* SPDX-License-Identifier: BSD-2-Clause */
/* -M: the multicast group of -g, as IPv6 text or perftest's 16 bytes;
 * whether the rest of the point can send to it is the rules' (-g). */
#include <string.h>

#include <rdmaperf/mcast.h>
#include <rdmaperf/params.h>

#include "opts_int.h"

int rdp_cli_set_mgid(void *base, const struct rdp_cli_opt *d, const char *arg,
		     char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;
	uint8_t mgid[16];

	(void)d;
	if (rdp_mgid_parse(arg, mgid))
		return rdp_cli_bad(err, len,
				   "-M %s is not a GID: give IPv6 text such "
				   "as ff0e::1 or ::ffff:239.1.1.1, or 16 "
				   "bytes between colons",
				   arg);
	if (!rdp_mgid_is_multicast(mgid))
		return rdp_cli_bad(err, len,
				   "-M %s is not a multicast GID: give one in "
				   "ff00::/8, or ::ffff:224.0.0.0 to "
				   "::ffff:239.255.255.255 for IPv4",
				   arg);
	memcpy(p->mgid, mgid, sizeof(p->mgid));
	return 0;
}

/* -g: the client asks for each group QP's count in the server's RESULT.
 * -R with -g: the RDMA CM joins the server's QPs to the group; the QPs
 * themselves are UD and exchanged over TCP, so nothing else of -R
 * applies (RDMA CM connects RC QPs). */
void rdp_cli_mcast_flags(struct rdp_opts *o)
{
	struct rdp_params *p = &o->params;

	if (p->flags & RDP_PARAM_MCAST)
		p->flags |= RDP_PARAM_MCAST_COUNTS;
	if ((p->flags & RDP_PARAM_MCAST) && (p->flags & RDP_PARAM_RDMA_CM)) {
		p->flags &= ~(uint32_t)RDP_PARAM_RDMA_CM;
		p->flags |= RDP_PARAM_MCAST_CM;
	}
}
