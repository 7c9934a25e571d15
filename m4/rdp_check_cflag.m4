# SPDX-License-Identifier: BSD-2-Clause
# RDP_CHECK_CFLAG(FLAG, ACTION-IF-ACCEPTED): does the C compiler take FLAG
# without complaint?  -Werror makes unknown-warning diagnostics fatal.
AC_DEFUN([RDP_CHECK_CFLAG], [
	AS_VAR_PUSHDEF([cache], [rdp_cv_cflag_$1])
	AC_CACHE_CHECK([whether $CC accepts $1], [cache], [
		save_CFLAGS=$CFLAGS
		CFLAGS="$CFLAGS -Werror $1"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
			[AS_VAR_SET([cache], [yes])], [AS_VAR_SET([cache], [no])])
		CFLAGS=$save_CFLAGS
	])
	AS_VAR_IF([cache], [yes], [$2])
	AS_VAR_POPDEF([cache])
])
