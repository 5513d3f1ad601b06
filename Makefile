# SPDX-License-Identifier: GPL-2.0
#
# The out-of-tree wrapper around Kbuild (the objects are listed in
# Kbuild), plus the project's own targets:
#
#   make [KDIR=...]      build namei-shadow.ko (loads as namei_shadow)
#                        with the host's compiler against KDIR
#   make module KREL=R   build namei-shadow.ko for the Debian kernel
#                        release R (fetched), on the host or in R's own
#                        Debian build root where the host's toolchain
#                        cannot build for R; prints the .ko's path last
#   make modules_install install it into KDIR's kernel (extra/)
#   make dkms-source DESTDIR=D   the sources DKMS builds from, into D
#                        (the -dkms package's /usr/src/namei-shadow-VERSION)
#   make deb             the Debian source package and namei-shadow-dkms's
#                        .deb, in build/deb (dpkg-buildpackage), lintian'd
#   make clean
#   make run             build, boot the primary kernel in the VM, demo
#   make check           the whole test suite: the Debian kernels (6.12,
#                        6.1, 7.2) and the debug kernel, in the VM
#   make check-debug     the suite on the debug kernel only (KASAN, lockdep,
#                        PROVE_RCU, kmemleak), and its harness tests
#   make check-static    checkpatch --strict, sparse (C=2) and W=1 only
#   make bench           the shadow against the kernel on the same walks,
#                        every supported kernel, in the VM: build/bench/
#                        table.txt and a plot per kernel (see README)
#   make kernels         resolve each track to the kernel Debian ships now
#                        (tools/tracks.sh), fetch and unpack them
#   make debug-kernel-rt the debug kernel made PREEMPT_RT (not in make check)
#   make deps            apt-get install what the tools need

KDIR ?= /lib/modules/$(shell uname -r)/build
include include/ns_version.mk

# What DKMS builds from: the module's sources, its build files, and
# debian/changelog, where its version is written.
DKMS_SOURCES := Kbuild Makefile dkms.conf debian/changelog $(wildcard *.c checker/*.c \
	include/*.h include/*.mk)

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

module:
	@test -n "$(KREL)" || { echo "usage: make module KREL=<release>, e.g. KREL=7.2.13+deb14-amd64" >&2; exit 2; }
	@tools/install-deps.sh
	@tools/build-module.sh "$(KREL)"

modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build
	rm -f *.o *.ko *.mod *.mod.c .*.cmd Module.symvers modules.order

dkms-source:
	@test -n "$(DESTDIR)" || { echo "usage: make dkms-source DESTDIR=<directory>" >&2; exit 2; }
	@for f in $(DKMS_SOURCES); do install -D -m 644 $$f $(DESTDIR)/$$f || exit 1; done
	sed -i 's/#MODULE_VERSION#/$(NS_VERSION)/' $(DESTDIR)/dkms.conf

deb: deps
	tools/make-deb.sh

deps:
	tools/install-deps.sh

kernels: deps
	tools/fetch-kernel.sh

check:
	tools/check.sh

bench: deps kernels
	tools/bench.sh

check-debug:
	NS_KERNELS=$$(bash -c '. tools/lib.sh && echo $$NS_DEBUG_KERNEL') NS_STATIC=0 tools/check.sh

debug-kernel: deps
	tools/build-debug-kernel.sh

debug-kernel-rt: deps
	tools/build-debug-kernel.sh rt

check-static: deps kernels
	tools/check-static.sh

run:
	tools/run.sh

.PHONY: all module modules modules_install clean deps kernels check check-debug \
	debug-kernel debug-kernel-rt check-static run dkms-source deb
