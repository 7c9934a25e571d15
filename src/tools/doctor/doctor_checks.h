/* SPDX-License-Identifier: BSD-2-Clause */
/* Check groups of the doctor, shared by the files that compute them. */
#ifndef RDMAPERF_DOCTOR_CHECKS_H
#define RDMAPERF_DOCTOR_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/log.h>

struct rdp_sysfs;
struct in_addr;

void rdp_doctor_check_rate(const struct rdp_sysfs *fs, struct rdp_doctor *doc);
void rdp_doctor_check_gids(struct rdp_doctor *doc,
			   const struct in_addr *local_ipv4);
void rdp_doctor_check_pcie(const struct rdp_sysfs *fs, struct rdp_doctor *doc);
void rdp_doctor_check_numa(const struct rdp_sysfs *fs, struct rdp_doctor *doc);
void rdp_doctor_check_memlock(const struct rdp_sysfs *fs,
			      struct rdp_doctor *doc);
void rdp_doctor_check_governor(const struct rdp_sysfs *fs,
			       struct rdp_doctor *doc);
void rdp_doctor_check_cstates(const struct rdp_sysfs *fs,
			      struct rdp_doctor *doc);
void rdp_doctor_check_rdma_cm(const struct rdp_sysfs *fs,
			      struct rdp_doctor *doc);

#endif /* RDMAPERF_DOCTOR_CHECKS_H */
