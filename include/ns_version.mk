# SPDX-License-Identifier: GPL-2.0
#
# The version of namei_shadow: the one in debian/changelog's first line,
# the one place it is written.  The module's Kbuild (MODULE_VERSION),
# the Makefile (make deb, make dkms-source) and, through them, dkms.conf
# take it from here.  debian/changelog travels with the DKMS sources.

ns_changelog := $(dir $(lastword $(MAKEFILE_LIST)))../debian/changelog
# "namei-shadow (0.17.0) unstable; urgency=medium" -> 0.17.0
NS_VERSION := $(shell head -n 1 $(ns_changelog) | cut -d'(' -f2 | cut -d')' -f1)
