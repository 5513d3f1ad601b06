# SPDX-License-Identifier: GPL-2.0
#
# Probes of the target kernel's headers, for include/ns_compat.h: each
# defines NS_COMPAT_<what> where the kernel has an older form of an API
# than the newest supported kernel.  They test for the API, never for a
# version; rules no header shows are asked of the kernel at load
# (kernel_rules.c).
# Included by the module's Kbuild and the test modules'.

# ns_has NAME,HEADER: is NAME a word of include/linux/HEADER?
ns_has = $(shell grep -s -q -w '$(1)' $(srctree)/include/linux/$(2) && echo y)
# ns_decl_has NAME,HEADER,REGEX: does the declaration of NAME in
# include/linux/HEADER (from "NAME(" to its ";", lines joined) match?
ns_lparen := (
ns_decl_has = $(shell sed -n '/[ *]$(1)$(ns_lparen)/,/;/p' $(srctree)/include/linux/$(2) | \
	tr -d '\n' | grep -q -E '$(3)' && echo y)
ns_lacks = $(if $(call ns_has,$(1),$(2)),n,y)
# ns_grep REGEX,HEADER: does a line of include/linux/HEADER match?
ns_grep = $(shell grep -s -q -E '$(1)' $(srctree)/include/linux/$(2) && echo y)
ns_revalidate_dentry_only := d_revalidate.{2}struct dentry

ccflags-$(if $(wildcard $(srctree)/include/linux/unaligned.h),n,y) += -DNS_COMPAT_ASM_UNALIGNED
ccflags-$(call ns_lacks,vfs_path_lookup,namei.h) += -DNS_COMPAT_DECLARE_VFS_PATH_LOOKUP
ccflags-$(call ns_decl_has,vfs_path_parent_lookup,namei.h,int \*type) += -DNS_COMPAT_PATH_PARENT_TYPE
ccflags-$(call ns_lacks,mnt_idmap,mount.h) += -DNS_COMPAT_MNT_USERNS
ccflags-$(call ns_lacks,inode_get_atime,fs.h) += -DNS_COMPAT_INODE_TIME_FIELDS
ccflags-$(call ns_grep,$(ns_revalidate_dentry_only),dcache.h) += -DNS_COMPAT_D_REVALIDATE_DENTRY
ccflags-$(call ns_lacks,set_default_d_op,dcache.h) += -DNS_COMPAT_SB_D_OP
ccflags-$(call ns_decl_has,d_alloc_parallel,dcache.h,wait_queue_head_t) += -DNS_COMPAT_D_ALLOC_PARALLEL_WQ
ccflags-$(call ns_lacks,start_creating_path,namei.h) += -DNS_COMPAT_KERN_PATH_CREATE
ccflags-$(call ns_lacks,file_close_fd,fdtable.h) += -DNS_COMPAT_CLOSE_FD_GET_FILE
ccflags-$(call ns_grep,^[[:space:]]*spinlock_t lock;,fs_struct.h) += -DNS_COMPAT_FS_STRUCT_SPINLOCK
ccflags-$(if $(call ns_decl_has,vfs_symlink,fs.h,delegated_inode),n,y) += -DNS_COMPAT_VFS_SYMLINK_NO_DELEG
