/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the shadow walker: system namei_shadow, for bpftrace
 * (tracepoint:namei_shadow:<event>) and tracefs.  Off until attached
 * or enabled; off, each costs a static branch not taken.
 *
 * Every string is copied into the event (a __data_loc char[] field):
 * nothing in the ring buffer points into this module, so events stay
 * readable after rmmod.  Strings are copied with ns_tp_copy() rather
 * than __string()/__assign_str(), whose arguments changed in 6.10.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM namei_shadow

#if !defined(NS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define NS_TRACE_H

#include <linux/tracepoint.h>

#ifndef NS_TP_COPY
#define NS_TP_COPY
/* Copy @len bytes of @src and a NUL into an event's dynamic array. */
static inline void ns_tp_copy(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
}
#endif

/* A walk begins, or begins again (an RCU walk that must restart). */
TRACE_EVENT(walk_start,
	TP_PROTO(const char *path, const char *mode, const char *request,
		 unsigned int flags),
	TP_ARGS(path, mode, request, flags),
	TP_STRUCT__entry(
		__dynamic_array(char, path, strlen(path) + 1)
		__dynamic_array(char, mode, strlen(mode) + 1)
		__dynamic_array(char, request, strlen(request) + 1)
		__field(unsigned int, flags)
	),
	TP_fast_assign(
		ns_tp_copy(__get_dynamic_array(path), path, strlen(path));
		ns_tp_copy(__get_dynamic_array(mode), mode, strlen(mode));
		ns_tp_copy(__get_dynamic_array(request), request, strlen(request));
		__entry->flags = flags;
	),
	TP_printk("path=%s mode=%s request=%s flags=0x%x", __get_str(path),
		  __get_str(mode), __get_str(request), __entry->flags)
);

/*
 * One component walked: how it was found and what it is.  Emitted as
 * the step ends: the time since the walk's previous event is the step's.
 */
TRACE_EVENT(step,
	TP_PROTO(int n, const char *name, unsigned int len, const char *mode,
		 const char *how, const char *type, int err, bool seq_retry),
	TP_ARGS(n, name, len, mode, how, type, err, seq_retry),
	TP_STRUCT__entry(
		__field(int, n)
		__dynamic_array(char, name, len + 1)
		__dynamic_array(char, mode, strlen(mode) + 1)
		__dynamic_array(char, how, strlen(how) + 1)
		__dynamic_array(char, type, strlen(type) + 1)
		__field(int, err)
		__field(bool, seq_retry)
	),
	TP_fast_assign(
		__entry->n = n;
		ns_tp_copy(__get_dynamic_array(name), name, len);
		ns_tp_copy(__get_dynamic_array(mode), mode, strlen(mode));
		ns_tp_copy(__get_dynamic_array(how), how, strlen(how));
		ns_tp_copy(__get_dynamic_array(type), type, strlen(type));
		__entry->err = err;
		__entry->seq_retry = seq_retry;
	),
	TP_printk("n=%d name=%s mode=%s how=%s type=%s err=%d seq_retry=%d",
		  __entry->n, __get_str(name), __get_str(mode), __get_str(how),
		  __get_str(type), __entry->err, __entry->seq_retry)
);

/* RCU mode ends: early (a reason) or at the walk's end ("complete"). */
TRACE_EVENT(unlazy,
	TP_PROTO(const char *reason, int step, bool success),
	TP_ARGS(reason, step, success),
	TP_STRUCT__entry(
		__dynamic_array(char, reason, strlen(reason) + 1)
		__field(int, step)
		__field(bool, success)
	),
	TP_fast_assign(
		ns_tp_copy(__get_dynamic_array(reason), reason, strlen(reason));
		__entry->step = step;
		__entry->success = success;
	),
	TP_printk("reason=%s step=%d success=%d", __get_str(reason),
		  __entry->step, __entry->success)
);

/* The walk starts again, in REF mode (-ECHILD) or with LOOKUP_REVAL. */
TRACE_EVENT(restart,
	TP_PROTO(const char *reason, const char *mode),
	TP_ARGS(reason, mode),
	TP_STRUCT__entry(
		__dynamic_array(char, reason, strlen(reason) + 1)
		__dynamic_array(char, mode, strlen(mode) + 1)
	),
	TP_fast_assign(
		ns_tp_copy(__get_dynamic_array(reason), reason, strlen(reason));
		ns_tp_copy(__get_dynamic_array(mode), mode, strlen(mode));
	),
	TP_printk("reason=%s mode=%s", __get_str(reason), __get_str(mode))
);

/* A symlink pushed on the stack: the stack's depth, the walk's count. */
TRACE_EVENT(link_push,
	TP_PROTO(int depth, int total, const char *body, const char *mode),
	TP_ARGS(depth, total, body, mode),
	TP_STRUCT__entry(
		__field(int, depth)
		__field(int, total)
		__dynamic_array(char, body, strlen(body) + 1)
		__dynamic_array(char, mode, strlen(mode) + 1)
	),
	TP_fast_assign(
		__entry->depth = depth;
		__entry->total = total;
		ns_tp_copy(__get_dynamic_array(body), body, strlen(body));
		ns_tp_copy(__get_dynamic_array(mode), mode, strlen(mode));
	),
	TP_printk("depth=%d total=%d body=%s mode=%s", __entry->depth,
		  __entry->total, __get_str(body), __get_str(mode))
);

/* A symlink done with (its body walked, or the walk ended). */
TRACE_EVENT(link_pop,
	TP_PROTO(int depth),
	TP_ARGS(depth),
	TP_STRUCT__entry(
		__field(int, depth)
	),
	TP_fast_assign(
		__entry->depth = depth;
	),
	TP_printk("depth=%d", __entry->depth)
);

/* A mount crossed: "down" onto what is mounted, "up" to the mountpoint. */
TRACE_EVENT(mount,
	TP_PROTO(const char *direction, const char *mode, dev_t dev),
	TP_ARGS(direction, mode, dev),
	TP_STRUCT__entry(
		__dynamic_array(char, direction, strlen(direction) + 1)
		__dynamic_array(char, mode, strlen(mode) + 1)
		__field(unsigned int, major)
		__field(unsigned int, minor)
	),
	TP_fast_assign(
		ns_tp_copy(__get_dynamic_array(direction), direction, strlen(direction));
		ns_tp_copy(__get_dynamic_array(mode), mode, strlen(mode));
		__entry->major = MAJOR(dev);
		__entry->minor = MINOR(dev);
	),
	TP_printk("direction=%s mode=%s dev=%u:%u", __get_str(direction),
		  __get_str(mode), __entry->major, __entry->minor)
);

/* The request's verdict: the shadow's answer against the kernel's. */
TRACE_EVENT(verdict,
	TP_PROTO(const char *path, const char *verdict, int shadow_err,
		 int kernel_err, bool checked, const char *mode,
		 const char *unlazy),
	TP_ARGS(path, verdict, shadow_err, kernel_err, checked, mode, unlazy),
	TP_STRUCT__entry(
		__dynamic_array(char, path, strlen(path) + 1)
		__dynamic_array(char, verdict, strlen(verdict) + 1)
		__field(int, shadow_err)
		__field(int, kernel_err)
		__field(bool, checked)
		__dynamic_array(char, mode, strlen(mode) + 1)
		__dynamic_array(char, unlazy, strlen(unlazy) + 1)
	),
	TP_fast_assign(
		ns_tp_copy(__get_dynamic_array(path), path, strlen(path));
		ns_tp_copy(__get_dynamic_array(verdict), verdict, strlen(verdict));
		__entry->shadow_err = shadow_err;
		__entry->kernel_err = kernel_err;
		__entry->checked = checked;
		ns_tp_copy(__get_dynamic_array(mode), mode, strlen(mode));
		ns_tp_copy(__get_dynamic_array(unlazy), unlazy, strlen(unlazy));
	),
	TP_printk("path=%s verdict=%s shadow_err=%d kernel_err=%d checked=%d mode=%s unlazy=%s",
		  __get_str(path), __get_str(verdict), __entry->shadow_err,
		  __entry->kernel_err, __entry->checked, __get_str(mode),
		  __get_str(unlazy))
);

/*
 * Live mode found a mismatch: who asked (comm, pid, the kernel function
 * that called the walk), the walk's kind, the request line that replays
 * it through `resolve`, and both answers' errnos.
 */
TRACE_EVENT(live_mismatch,
	TP_PROTO(const char *comm, int pid, unsigned long caller, const char *kind,
		 const char *replay, int shadow_err, int kernel_err),
	TP_ARGS(comm, pid, caller, kind, replay, shadow_err, kernel_err),
	TP_STRUCT__entry(
		__dynamic_array(char, comm, strlen(comm) + 1)
		__field(int, pid)
		__field(unsigned long, caller)
		__dynamic_array(char, kind, strlen(kind) + 1)
		__dynamic_array(char, replay, strcspn(replay, "\n") + 1)
		__field(int, shadow_err)
		__field(int, kernel_err)
	),
	TP_fast_assign(
		ns_tp_copy(__get_dynamic_array(comm), comm, strlen(comm));
		__entry->pid = pid;
		__entry->caller = caller;
		ns_tp_copy(__get_dynamic_array(kind), kind, strlen(kind));
		ns_tp_copy(__get_dynamic_array(replay), replay, strcspn(replay, "\n"));
		__entry->shadow_err = shadow_err;
		__entry->kernel_err = kernel_err;
	),
	TP_printk("comm=%s pid=%d caller=%pS kind=%s shadow_err=%d kernel_err=%d %s",
		  __get_str(comm), __entry->pid, (void *)__entry->caller,
		  __get_str(kind), __entry->shadow_err, __entry->kernel_err,
		  __get_str(replay))
);

#endif /* NS_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ns_trace
#include <trace/define_trace.h>
