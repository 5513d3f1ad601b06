// SPDX-License-Identifier: GPL-2.0
/*
 * nsresolve - resolve paths through namei_shadow's debugfs files.
 *
 *   nsresolve [options] PATH...
 *   nsresolve [--raw|--json] --batch FILE|-
 *   nsresolve --live start [WORD...] | stop | watch [--count=N] [--interval=S]
 *
 * Each PATH is one request to /sys/kernel/debug/namei_shadow/resolve;
 * its walk is shown as a tree, as util-linux `namei -l` shows one (or as
 * JSON, one object a line, or as the module wrote it).  --batch sends a
 * file of requests, one a line, through `batch` and sums up the
 * verdicts.  --live arms and disarms live mode (`live`: the lookups
 * real programs make, walked again by the shadow) and watches what it
 * saw.  Exit status: 1 when any verdict was mismatch, 2 on a usage
 * or environment error or a request the module refused, else 0.
 *
 * NSRESOLVE_DIR overrides the debugfs directory (for tests).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define NS_DEFAULT_DIR		"/sys/kernel/debug/namei_shadow"
#define NS_DEBUGFS		"/sys/kernel/debug"
#define NS_MODULE_DIR		"/sys/module/namei_shadow"
#define NS_DEBUGFS_MAGIC	0x64626720
#define BATCH_BYTES		65536
#define BATCH_REQUESTS		4096
#define MAX_FIELDS		64
#define MAX_LINKS		64	/* bodies in one walk: at most 40 */

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)		__attribute__((format(printf, a, b)))

#define EXIT_MISMATCH		1
#define EXIT_TROUBLE		2

#define C_DIR		"\033[1;34m"
#define C_LINK		"\033[1;36m"
#define C_ERR		"\033[1;31m"
#define C_NOTE		"\033[33m"
#define C_GOOD		"\033[32m"
#define C_BAD		"\033[1;31m"
#define C_OFF		"\033[0m"

static const char *const verdicts[] = {
	"match", "mismatch", "raced", "unchecked", "divergent", "error",
};

#define NVERDICTS	ARRAY_SIZE(verdicts)
#define V_MISMATCH	1
#define V_ERROR		5

static struct {
	const char *mode;
	const char *flags;
	const char *semantics;
	const char *first;
	const char *inject;
	const char *resolve;
	const char *batch;
	const char *live;
	long count;		/* --live watch: refreshes, 0 for ever */
	double interval;	/* seconds between them */
	bool raw;
	bool json;
	bool color;
	const char *dir;
} opt;

static bool refused_any;
static bool mismatch_any;

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static noreturn void __printf(1, 2) die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("nsresolve: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_TROUBLE);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

/* A growing string. */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void __printf(2, 3) sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < (int)sizeof(small)) {
		sb_add(b, small, n);
		return;
	}
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

/* All of @fd, from offset 0 to EOF (pread: the file position is not used). */
static char *read_all(int fd, size_t *lenp)
{
	struct sbuf b = {};
	char chunk[65536];
	ssize_t n;

	sb_add(&b, "", 0);
	for (;;) {
		n = pread(fd, chunk, sizeof(chunk), b.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("reading back the result: %s", strerror(errno));
		if (!n)
			break;
		sb_add(&b, chunk, n);
	}
	if (lenp)
		*lenp = b.len;
	return b.s;
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* Undo the mountinfo escapes (space, tab, newline, backslash as \ooo). */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    is_octal(s[2]) && is_octal(s[3])) {
			*d++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* ------------------------------------------------------------------ */
/* The debugfs text: one `KIND key=value ...` record a line            */

struct field {
	const char *key;
	char *val;
};

struct line {
	char *kind;	/* request, shadow, kernel, step, ...; NULL in batch */
	char *plain;	/* the rest, when it is not key=value (verdict X) */
	struct field f[MAX_FIELDS];
	int nf;
};

/*
 * Split @s (one line, modified in place) into its fields and unescape
 * their values.  `reason=` is plain text to the end of the line.
 */
static void parse_line(char *s, struct line *l, bool has_kind)
{
	char *tok, *eq;
	size_t n;

	memset(l, 0, sizeof(*l));
	if (has_kind) {
		l->kind = s;
		n = strcspn(s, " ");
		s += n;
		if (*s)
			*s++ = '\0';
		n = strcspn(s, " ");
		eq = memchr(s, '=', n);
		if (*s && !eq) {
			l->plain = s;
			return;
		}
	}
	while (*s && l->nf < MAX_FIELDS) {
		tok = s;
		n = strcspn(s, " ");
		eq = memchr(tok, '=', n);
		if (eq && eq - tok == 6 && !strncmp(tok, "reason", 6)) {
			*eq = '\0';
			l->f[l->nf].key = tok;
			l->f[l->nf++].val = eq + 1;
			return;
		}
		s += n;
		if (*s)
			*s++ = '\0';
		if (!eq)
			continue;
		*eq = '\0';
		unescape(eq + 1);
		l->f[l->nf].key = tok;
		l->f[l->nf++].val = eq + 1;
	}
}

static const char *get(const struct line *l, const char *key)
{
	int i;

	if (!l)
		return NULL;
	for (i = 0; i < l->nf; i++)
		if (!strcmp(l->f[i].key, key))
			return l->f[i].val;
	return NULL;
}

/* All the lines of @text (modified in place); *@np of them. */
static struct line *parse_text(char *text, int *np, bool has_kind)
{
	struct line *ls = NULL;
	int n = 0, cap = 0;
	char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		if (*text) {
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				ls = xrealloc(ls, cap * sizeof(*ls));
			}
			parse_line(text, &ls[n++], has_kind);
		}
		if (!nl)
			break;
		text = nl + 1;
	}
	*np = n;
	return ls;
}

static const struct line *find_kind(const struct line *ls, int n,
				    const char *kind)
{
	int i;

	for (i = 0; i < n; i++)
		if (ls[i].kind && !strcmp(ls[i].kind, kind))
			return &ls[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

/* Length of the valid UTF-8 sequence at @s, or 0. */
static int utf8_len(const unsigned char *s)
{
	unsigned int c;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	c = s[0] & (0x3f >> (n - 1));
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/*
 * A JSON string.  Bytes that are not UTF-8 (names are bytes) become lone
 * surrogates \udc80-\udcff, as Python's surrogateescape maps them, so a
 * reader can get the bytes back.
 */
static void json_str(struct sbuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	sb_puts(b, "\"");
	while (*s) {
		if (*s == '"' || *s == '\\') {
			sb_printf(b, "\\%c", *s++);
		} else if (*s == '\n') {
			sb_puts(b, "\\n");
			s++;
		} else if (*s == '\t') {
			sb_puts(b, "\\t");
			s++;
		} else if (*s < 0x20) {
			sb_printf(b, "\\u%04x", *s++);
		} else {
			n = utf8_len(s);
			if (n) {
				sb_add(b, (const char *)s, n);
				s += n;
			} else {
				sb_printf(b, "\\udc%02x", *s++);
			}
		}
	}
	sb_puts(b, "\"");
}

/*
 * A number when it is all digits (no leading zero: "0755" stays a
 * string), except where the value is a name: a file may be called 42.
 */
static void json_val(struct sbuf *b, const char *key, const char *v)
{
	static const char *const names[] = {
		"name", "body", "path", "last", "reason",
	};
	size_t n = strspn(v, "0123456789"), i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(key, names[i])) {
			json_str(b, v);
			return;
		}
	}
	if (n && !v[n] && (n == 1 || v[0] != '0'))
		sb_puts(b, v);
	else
		json_str(b, v);
}

static void json_fields(struct sbuf *b, const struct line *l)
{
	int i;

	sb_puts(b, "{");
	for (i = 0; i < l->nf; i++) {
		if (i)
			sb_puts(b, ", ");
		json_str(b, l->f[i].key);
		sb_puts(b, ": ");
		json_val(b, l->f[i].key, l->f[i].val);
	}
	sb_puts(b, "}");
}

/* A line's value: its fields as an object, or its plain rest as a string. */
static void json_line(struct sbuf *b, const struct line *l)
{
	if (l->plain)
		json_str(b, l->plain);
	else
		json_fields(b, l);
}

static void json_result(const struct line *ls, int n)
{
	struct sbuf b = {};
	bool steps_done = false, any = false;
	int i, j;

	sb_puts(&b, "{");
	for (i = 0; i < n; i++) {
		bool step = !strcmp(ls[i].kind, "step");

		if (step && steps_done)
			continue;
		if (any)
			sb_puts(&b, ", ");
		any = true;
		if (!step) {
			json_str(&b, ls[i].kind);
			sb_puts(&b, ": ");
			json_line(&b, &ls[i]);
			continue;
		}
		sb_puts(&b, "\"steps\": [");
		for (j = i; j < n; j++) {
			if (strcmp(ls[j].kind, "step"))
				continue;
			if (j > i)
				sb_puts(&b, ", ");
			json_fields(&b, &ls[j]);
		}
		sb_puts(&b, "]");
		steps_done = true;
	}
	if (!steps_done && find_kind(ls, n, "walk"))
		sb_printf(&b, "%s\"steps\": []", any ? ", " : "");
	sb_puts(&b, "}\n");
	fputs(b.s, stdout);
	free(b.s);
}

/* A refused request: what was written, and the module's reason. */
static void json_refused(const char *req, const struct line *ls, int n)
{
	const struct line *err = find_kind(ls, n, "error");
	struct sbuf b = {};

	sb_puts(&b, "{\"request\": ");
	json_str(&b, req);
	sb_puts(&b, ", \"error\": ");
	if (err)
		json_line(&b, err);
	else
		sb_puts(&b, "{}");
	sb_puts(&b, "}\n");
	fputs(b.s, stdout);
	free(b.s);
}

/* ------------------------------------------------------------------ */
/* The tree                                                            */

#define E(x) { x, #x }
static const struct {
	int e;
	const char *name;
} errnos[] = {
	E(EPERM), E(ENOENT), E(EIO), E(ENXIO), E(E2BIG), E(EBADF), E(ECHILD),
	E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST), E(EXDEV),
	E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(EROFS), E(EMLINK), E(ENAMETOOLONG),
	E(ENOTEMPTY), E(ELOOP), E(EOPNOTSUPP), E(ESTALE),
	E(EOVERFLOW), E(EINTR), E(EAGAIN), E(ETIMEDOUT), E(EREMOTE),
	E(ENOMEDIUM), E(ECONNREFUSED), E(EHOSTDOWN),
};

/* "-ENOENT" -> "No such file or directory (-ENOENT)" */
static void describe_err(const char *err, char *out, size_t size)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnos); i++) {
		if (err[0] == '-' && !strcmp(err + 1, errnos[i].name)) {
			snprintf(out, size, "%s (%s)", strerror(errnos[i].e), err);
			return;
		}
	}
	if (err[0] == '-' && strspn(err + 1, "0123456789") == strlen(err + 1) && err[1]) {
		snprintf(out, size, "%s (%s)", strerror(atoi(err + 1)), err);
		return;
	}
	snprintf(out, size, "%s", err);
}

/* The name as the terminal should see it: control characters as '?'. */
static void put_safe(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static void put_color(const char *color, const char *s)
{
	if (opt.color && color)
		fputs(color, stdout);
	put_safe(s);
	if (opt.color && color)
		fputs(C_OFF, stdout);
}

/* "dir" and "0755" -> "drwxr-xr-x"; unknown bits as '?'. */
static void mode_string(const char *type, const char *perm, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	static const struct {
		const char *type;
		char c;
	} types[] = {
		{ "reg", '-' }, { "dir", 'd' }, { "lnk", 'l' }, { "chr", 'c' },
		{ "blk", 'b' }, { "fifo", 'p' }, { "sock", 's' },
	};
	unsigned long p;
	size_t i;

	out[0] = '?';
	for (i = 0; type && i < ARRAY_SIZE(types); i++)
		if (!strcmp(type, types[i].type))
			out[0] = types[i].c;
	out[10] = '\0';
	if (!perm) {
		memset(out + 1, '?', 9);
		return;
	}
	p = strtoul(perm, NULL, 8);
	for (i = 0; i < 9; i++)
		out[1 + i] = p & (0400 >> i) ? rwx[i] : '-';
	if (p & 04000)
		out[3] = out[3] == 'x' ? 's' : 'S';
	if (p & 02000)
		out[6] = out[6] == 'x' ? 's' : 'S';
	if (p & 01000)
		out[9] = out[9] == 'x' ? 't' : 'T';
}

static char *id_name(const char *id, bool group)
{
	char buf[32];
	unsigned long v;
	struct passwd *pw;
	struct group *gr;
	char *end;

	if (!id)
		return xstrdup("?");
	errno = 0;
	v = strtoul(id, &end, 10);
	if (*end || end == id || errno)
		return xstrdup(id);
	if (group) {
		gr = getgrgid(v);
		if (gr)
			return xstrdup(gr->gr_name);
	} else {
		pw = getpwuid(v);
		if (pw)
			return xstrdup(pw->pw_name);
	}
	snprintf(buf, sizeof(buf), "%lu", v);
	return xstrdup(buf);
}

/* The components a link body walks: "../a//b/" has three. */
static int body_components(const char *body)
{
	bool in = false;
	int n = 0;

	for (; *body; body++) {
		if (*body == '/') {
			in = false;
		} else if (!in) {
			in = true;
			n++;
		}
	}
	return n;
}

static int num(const char *v)
{
	return v ? atoi(v) : 0;
}

static void show_note(const char *text)
{
	putchar(' ');
	put_color(C_NOTE, text);
}

/*
 * One line a step, as namei -l: mode, owner, group, the name indented by
 * the links it is inside.  A step after a link step walks that link's
 * body; a link stays open while its body has components left, so a
 * chain of links stays at one level and a link inside a body nests.
 */
static void show_steps(const struct line *ls, int n)
{
	int left[MAX_LINKS], depth = 0, uw = 1, gw = 1, i, j, k;
	char **users = calloc(n, sizeof(char *));
	char **groups = calloc(n, sizeof(char *));

	if (!users || !groups)
		die("out of memory");
	for (i = 0; i < n; i++) {
		if (strcmp(ls[i].kind, "step"))
			continue;
		users[i] = id_name(get(&ls[i], "uid"), false);
		groups[i] = id_name(get(&ls[i], "gid"), true);
		if ((int)strlen(users[i]) > uw)
			uw = strlen(users[i]);
		if ((int)strlen(groups[i]) > gw)
			gw = strlen(groups[i]);
	}
	for (i = 0; i < n; i++) {
		const struct line *l = &ls[i];
		const char *name, *err, *type, *body, *color = NULL;
		char mode[11], why[256];

		if (strcmp(l->kind, "step"))
			continue;
		name = get(l, "name");
		if (!name) {
			const char *at = get(l, "at");

			name = !at || !strcmp(at, "root") ? "/" :
				!strcmp(at, "cwd") ? "." : at;
		} else {
			/* links whose bodies are done no longer indent */
			for (j = k = 0; j < depth; j++)
				if (left[j])
					left[k++] = left[j];
			depth = k;
		}
		err = get(l, "err");
		type = get(l, "type");
		if (err || (type && !strcmp(type, "negative"))) {
			printf("%*s", 10 + 1 + uw + 1 + gw + 1, "");
		} else {
			mode_string(type, get(l, "perm"), mode);
			printf("%s %-*s %-*s ", mode, uw, users[i], gw, groups[i]);
		}
		printf("%*s", 2 * depth, "");
		if (err)
			color = C_ERR;
		else if (type && !strcmp(type, "dir"))
			color = C_DIR;
		else if (type && !strcmp(type, "lnk"))
			color = C_LINK;
		put_color(color, name);
		if (get(l, "name") && depth)
			left[depth - 1]--;
		body = get(l, "body");
		if (body) {
			fputs(" -> ", stdout);
			put_safe(body);
			if (depth < MAX_LINKS && body_components(body))
				left[depth++] = body_components(body);
		}
		if (num(get(l, "mounts_up")) == 1)
			show_note("[mount up]");
		else if (num(get(l, "mounts_up")) > 1)
			printf(" %s[mount up x%d]%s", opt.color ? C_NOTE : "",
			       num(get(l, "mounts_up")), opt.color ? C_OFF : "");
		if (num(get(l, "mounts_down")) == 1)
			show_note("[mount]");
		else if (num(get(l, "mounts_down")) > 1)
			printf(" %s[mount x%d]%s", opt.color ? C_NOTE : "",
			       num(get(l, "mounts_down")), opt.color ? C_OFF : "");
		if (get(l, "magic"))
			show_note("[magic: followed by the kernel]");
		if (get(l, "automount"))
			show_note("[automount]");
		if (get(l, "managed"))
			show_note("[managed: stop]");
		if (type && !strcmp(type, "negative"))
			fputs(" - negative dentry", stdout);
		if (err) {
			describe_err(err, why, sizeof(why));
			fputs(" - ", stdout);
			put_color(C_ERR, why);
		}
		putchar('\n');
	}
	for (i = 0; i < n; i++) {
		free(users[i]);
		free(groups[i]);
	}
	free(users);
	free(groups);
}

/* " key=value" for each of @keys that @l has. */
static void show_fields(const struct line *l, const char *const *keys)
{
	const char *v;

	for (; *keys; keys++) {
		v = get(l, *keys);
		if (!v)
			continue;
		printf(" %s=", *keys);
		put_safe(v);
	}
}

static void show_answer(const struct line *l)
{
	static const char *const keys[] = {
		"err", "action", "path", "type", "last", "last_type",
		"divergence", "oracle", "reason", NULL,
	};

	if (!l)
		return;
	fputs(l->kind, stdout);
	show_fields(l, keys);
	putchar('\n');
}

static void show_result(const char *path, const struct line *ls, int n)
{
	static const char *const walk_keys[] = {
		"mode", "unlazy", "restarts", "restart", "inject", "scope", "steps", NULL,
	};
	const struct line *walk = find_kind(ls, n, "walk");
	const struct line *v = find_kind(ls, n, "verdict");
	const char *verdict = v && v->plain ? v->plain : "?";

	fputs("f: ", stdout);
	put_safe(path);
	putchar('\n');
	show_steps(ls, n);
	if (walk) {
		fputs("walk", stdout);
		show_fields(walk, walk_keys);
		if (get(walk, "steps_shown") && get(walk, "steps") &&
		    strcmp(get(walk, "steps_shown"), get(walk, "steps")))
			printf(" steps_shown=%s", get(walk, "steps_shown"));
		show_fields(walk, (const char *const []){ "links", NULL });
		putchar('\n');
	}
	show_answer(find_kind(ls, n, "shadow"));
	show_answer(find_kind(ls, n, "kernel"));
	show_answer(find_kind(ls, n, "kernel-again"));
	fputs("verdict ", stdout);
	put_color(!strcmp(verdict, "match") ? C_GOOD :
		  !strcmp(verdict, "mismatch") ? C_BAD : C_NOTE, verdict);
	putchar('\n');
}

/* ------------------------------------------------------------------ */
/* The environment                                                     */

static noreturn void die_root(const char *what)
{
	die("%s: permission denied: %s", what,
	    "namei_shadow's debugfs files are root-only: run nsresolve as root");
}

/*
 * The module loaded, debugfs mounted, its directory there and ours to
 * use: or say which of these is not so, and what to do about it.
 */
static void check_environment(void)
{
	char parent[4096], *slash;
	struct statfs sf;

	if (access(NS_MODULE_DIR, F_OK))
		die("the namei_shadow module is not loaded (no %s): modprobe namei_shadow",
		    NS_MODULE_DIR);
	if (!statfs(opt.dir, &sf)) {
		if ((unsigned long)sf.f_type != NS_DEBUGFS_MAGIC)
			die("%s is not on debugfs (statfs f_type 0x%lx, not 0x%x): %s %s",
			    opt.dir, (unsigned long)sf.f_type, NS_DEBUGFS_MAGIC,
			    "is debugfs mounted? mount -t debugfs none",
			    NS_DEBUGFS);
		return;
	}
	if (errno == EACCES || errno == EPERM)
		die_root(opt.dir);
	if (errno != ENOENT)
		die("%s: %s", opt.dir, strerror(errno));
	snprintf(parent, sizeof(parent), "%s", opt.dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = '\0';
	if (statfs(parent, &sf) || (unsigned long)sf.f_type != NS_DEBUGFS_MAGIC)
		die("debugfs is not mounted on %s (no %s there): %s %s",
		    parent, opt.dir, "mount -t debugfs none", NS_DEBUGFS);
	die("%s is missing although the module is loaded: %s", opt.dir,
	    "is NSRESOLVE_DIR right?");
}

static int open_file(const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", opt.dir, name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == EACCES || errno == EPERM)
		die_root(path);
	if (errno == ENOENT && !strcmp(name, "batch"))
		die("%s: no such file: %s", path,
		    "this namei_shadow has no batch interface (a newer one has)");
	die("%s: %s", path, strerror(errno));
}

/* ------------------------------------------------------------------ */
/* One path through resolve                                            */

static void resolve_one(const char *path, bool not_first)
{
	struct sbuf req = {};
	struct line *ls;
	bool refused;
	char *text;
	int fd, n;
	ssize_t w;
	const struct line *v;

	if (opt.mode)
		sb_printf(&req, "mode=%s ", opt.mode);
	if (opt.flags)
		sb_printf(&req, "flags=%s ", opt.flags);
	if (opt.semantics)
		sb_printf(&req, "semantics=%s ", opt.semantics);
	if (opt.first)
		sb_printf(&req, "first=%s ", opt.first);
	if (opt.inject)
		sb_printf(&req, "inject=%s ", opt.inject);
	if (opt.resolve)
		sb_printf(&req, "resolve=%s ", opt.resolve);
	sb_printf(&req, "path=%s", path);
	/* one trailing newline is dropped: so a path may end in one */
	sb_puts(&req, "\n");

	fd = open_file("resolve");
	do {
		w = write(fd, req.s, req.len);
	} while (w < 0 && errno == EINTR);
	refused = w < 0;
	if (!refused && (size_t)w != req.len)
		die("short write to resolve (%zd of %zu bytes)", w, req.len);
	text = read_all(fd, NULL);
	close(fd);

	if (opt.raw)
		fputs(text, stdout);
	else if (not_first && !opt.json)
		putchar('\n');
	ls = parse_text(text, &n, true);
	req.s[req.len - 1] = '\0';
	if (refused) {
		refused_any = true;
		if (opt.json) {
			json_refused(req.s, ls, n);
		} else if (!opt.raw) {
			const struct line *e = find_kind(ls, n, "error");

			fputs("f: ", stdout);
			put_safe(path);
			printf("\nrefused err=%s reason=%s\n",
			       get(e, "err") ? get(e, "err") : "?",
			       get(e, "reason") ? get(e, "reason") : "?");
		}
	} else {
		v = find_kind(ls, n, "verdict");
		if (v && v->plain && !strcmp(v->plain, "mismatch"))
			mismatch_any = true;
		if (opt.json)
			json_result(ls, n);
		else if (!opt.raw)
			show_result(path, ls, n);
	}
	free(ls);
	free(text);
	free(req.s);
}

/* ------------------------------------------------------------------ */
/* Many requests through batch                                         */

struct listed {
	long n;
	long line;
	char *text;
};

static struct {
	long counts[NVERDICTS];
	long done;
	long total;
	long writes;
	struct listed *list;	/* mismatches and errors, in order */
	long nlist;
	long cap;
} bt;

static void batch_list(long n, long line, const char *text)
{
	if (bt.nlist == bt.cap) {
		bt.cap = bt.cap ? bt.cap * 2 : 16;
		bt.list = xrealloc(bt.list, bt.cap * sizeof(*bt.list));
	}
	bt.list[bt.nlist].n = n;
	bt.list[bt.nlist].line = line;
	bt.list[bt.nlist++].text = xstrdup(text);
}

static int verdict_index(const char *v)
{
	size_t i;

	for (i = 0; v && i < NVERDICTS; i++)
		if (!strcmp(v, verdicts[i]))
			return i;
	return -1;
}

static void progress(bool last)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (last) {
		fputc('\n', stderr);
		return;
	}
	fprintf(stderr, "\r%ld/%ld requests, %ld mismatch%s", bt.done,
		bt.total, bt.counts[V_MISMATCH],
		bt.counts[V_MISMATCH] == 1 ? "" : "es");
}

/* One write of @count requests; @lines: their line numbers in the input. */
static void batch_write(int fd, const char *buf, size_t len, int count,
			const long *lines)
{
	const struct line *summary = NULL;
	long before[NVERDICTS];
	struct line *ls;
	char *text, *copy;
	int n, i, k, werr, got = 0;
	ssize_t w;

	do {
		w = write(fd, buf, len);
	} while (w < 0 && errno == EINTR);
	werr = errno;
	text = read_all(fd, NULL);
	if (w < 0) {
		ls = parse_text(text, &n, true);
		die("the batch write was refused: %s: err=%s reason=%s",
		    strerror(werr), get(find_kind(ls, n, "error"), "err") ?: "?",
		    get(find_kind(ls, n, "error"), "reason") ?: "?");
	}
	if ((size_t)w != len)
		die("the batch write stopped after %zd of %zu bytes", w, len);
	bt.writes++;
	if (opt.raw)
		fputs(text, stdout);
	memcpy(before, bt.counts, sizeof(before));
	copy = xstrdup(text);
	ls = parse_text(copy, &n, false);
	for (i = 0; i < n; i++) {
		const char *ln = get(&ls[i], "n"), *verdict;
		long global;
		int idx;

		if (!ln) {
			if (get(&ls[i], "requests"))
				summary = &ls[i];
			continue;
		}
		idx = atoi(ln);
		if (idx < 1 || idx > count)
			die("the module answered request n=%s of a write of %d", ln, count);
		got++;
		global = bt.done + idx;
		verdict = get(&ls[i], "verdict");
		k = verdict_index(verdict);
		if (k < 0)
			die("request n=%s: unknown verdict %s", ln, verdict ?: "(none)");
		bt.counts[k]++;
		if (k == V_MISMATCH) {
			struct sbuf t = {};

			sb_printf(&t, "mismatch n=%ld line=%ld shadow=%s kernel=%s path=",
				  global, lines[idx - 1], get(&ls[i], "shadow") ?: "?",
				  get(&ls[i], "kernel") ?: "?");
			sb_puts(&t, get(&ls[i], "path") ?: "?");
			batch_list(global, lines[idx - 1], t.s);
			free(t.s);
			mismatch_any = true;
		} else if (k == V_ERROR) {
			struct sbuf t = {};

			sb_printf(&t, "error n=%ld line=%ld err=%s reason=%s", global,
				  lines[idx - 1], get(&ls[i], "err") ?: "?",
				  get(&ls[i], "reason") ?: "?");
			batch_list(global, lines[idx - 1], t.s);
			free(t.s);
		}
	}
	if (got != count)
		die("the module answered %d of the %d requests of a batch write", got, count);
	/* the summary line is the module's count: it must agree with ours */
	if (!summary)
		die("no summary line after a batch write");
	if (num(get(summary, "requests")) != count)
		die("the batch summary says requests=%s, %d were sent",
		    get(summary, "requests"), count);
	for (k = 0; k < (int)NVERDICTS; k++) {
		if (num(get(summary, verdicts[k])) != bt.counts[k] - before[k])
			die("the batch summary says %s=%s, its lines %ld",
			    verdicts[k], get(summary, verdicts[k]) ?: "(none)",
			    bt.counts[k] - before[k]);
	}
	bt.done += count;
	progress(false);
	free(ls);
	free(copy);
	free(text);
}

static char *read_input(const char *name, size_t *lenp)
{
	struct sbuf b = {};
	char chunk[65536];
	ssize_t n;
	int fd;

	fd = strcmp(name, "-") ? open(name, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0)
		die("%s: %s", name, strerror(errno));
	sb_add(&b, "", 0);
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("%s: %s", name, strerror(errno));
		if (!n)
			break;
		sb_add(&b, chunk, n);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*lenp = b.len;
	return b.s;
}

static void batch_summary(void)
{
	struct sbuf b = {};
	long i;
	size_t k;

	if (opt.json) {
		sb_printf(&b, "{\"requests\": %ld, \"writes\": %ld", bt.total, bt.writes);
		for (k = 0; k < NVERDICTS; k++)
			sb_printf(&b, ", \"%s\": %ld", verdicts[k], bt.counts[k]);
		sb_puts(&b, ", \"listed\": [");
		for (i = 0; i < bt.nlist; i++) {
			if (i)
				sb_puts(&b, ", ");
			json_str(&b, bt.list[i].text);
		}
		sb_puts(&b, "]}\n");
		fputs(b.s, stdout);
		free(b.s);
		return;
	}
	printf("batch requests=%ld writes=%ld\n", bt.total, bt.writes);
	for (k = 0; k < NVERDICTS; k++)
		printf("%s %ld\n", verdicts[k], bt.counts[k]);
	for (i = 0; i < bt.nlist; i++) {
		put_safe(bt.list[i].text);
		putchar('\n');
	}
}

static void run_batch(void)
{
	long lines[BATCH_REQUESTS], lineno = 0;
	size_t len, used = 0, ll;
	char *in, *p, *nl, *out;
	int fd, count = 0;

	in = read_input(opt.batch, &len);
	for (p = in; p < in + len; p = nl + 1) {
		nl = memchr(p, '\n', in + len - p);
		if (!nl)
			nl = in + len;
		bt.total += nl > p;
	}
	out = xrealloc(NULL, BATCH_BYTES);
	fd = open_file("batch");
	progress(false);
	for (p = in; p < in + len; p = nl + 1) {
		nl = memchr(p, '\n', in + len - p);
		if (!nl)
			nl = in + len;
		lineno++;
		ll = nl - p;
		if (!ll)
			continue;
		if (ll + 1 > BATCH_BYTES)
			die("line %ld: %zu bytes, longer than a batch write (%d)",
			    lineno, ll, BATCH_BYTES);
		if (memchr(p, '\0', ll))
			die("line %ld: holds a NUL byte", lineno);
		if (used + ll + 1 > BATCH_BYTES || count == BATCH_REQUESTS) {
			batch_write(fd, out, used, count, lines);
			used = 0;
			count = 0;
		}
		memcpy(out + used, p, ll);
		out[used + ll] = '\n';
		used += ll + 1;
		lines[count++] = lineno;
	}
	if (count)
		batch_write(fd, out, used, count, lines);
	close(fd);
	if (bt.total)
		progress(true);
	batch_summary();
	free(out);
	free(in);
}

/* ------------------------------------------------------------------ */
/* Live mode                                                           */

/* live start|stop WORDS: one write; the module's reason on a refusal. */
static void live_command(const char *cmd, char **words, int n)
{
	struct sbuf b = {};
	struct line *ls;
	char *text;
	int fd, i, nl;

	sb_puts(&b, cmd);
	for (i = 0; i < n; i++) {
		sb_puts(&b, " ");
		sb_puts(&b, words[i]);
	}
	fd = open_file("live");
	if (write(fd, b.s, b.len) >= 0) {
		close(fd);
		free(b.s);
		return;
	}
	lseek(fd, 0, SEEK_SET);
	text = read_all(fd, NULL);
	ls = parse_text(text, &nl, true);
	die("live %s: refused: %s (%s)", b.s,
	    get(find_kind(ls, nl, "error"), "reason") ?: strerror(errno),
	    get(find_kind(ls, nl, "error"), "err") ?: "?");
}

/* The counter @key of `live`'s text (a "key value" line), or 0. */
static long live_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ' ')
			return strtol(p + n + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static double pct(long part, long whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/* One summary of what live mode saw: as `watch` refreshes it. */
static void live_summary(const char *text)
{
	static const char *const why[] = {
		"lookup-flags", "root-given", "start-changed", "task-exiting",
		"open-created", "open-exec", "open-checks-not-repeatable",
		"first-walk-unwitnessed", "check-unchecked", "self-marks-full",
	};
	long seen = live_value(text, "seen"), shadowed = live_value(text, "shadowed");
	long rcu = live_value(text, "shadow_mode rcu"), ref = live_value(text, "shadow_mode ref");
	long reval = live_value(text, "shadow_mode reval");
	long krcu = live_value(text, "kernel_rcu_walks"), kleft = live_value(text, "kernel_rcu_left");
	long mismatch = live_value(text, "verdict_mismatch");
	size_t i, n = strcspn(text, "\n");

	printf("%.*s\n", (int)n, text);
	printf("lookups   seen %ld  taken %ld  shadowed %ld  dropped %ld  rate-limited %ld  outside under= %ld\n",
	       seen, live_value(text, "sampled"), shadowed, live_value(text, "dropped"),
	       live_value(text, "rate_limited"), live_value(text, "filtered"));
	printf("verdicts  match %ld  raced %ld  %smismatch %ld%s  unchecked %ld",
	       live_value(text, "verdict_match"), live_value(text, "verdict_raced"),
	       mismatch && opt.color ? C_BAD : "", mismatch, mismatch && opt.color ? C_OFF : "",
	       live_value(text, "verdict_unchecked"));
	for (i = 0; i < ARRAY_SIZE(why); i++) {
		char key[64];
		long v;

		snprintf(key, sizeof(key), "unchecked %s", why[i]);
		v = live_value(text, key);
		if (v)
			printf(" (%s %ld)", why[i], v);
	}
	printf("\nshadow    completed in rcu %.1f%%  ref %.1f%%  reval %.1f%%  (checked again %ld)\n",
	       pct(rcu, rcu + ref + reval), pct(ref, rcu + ref + reval),
	       pct(reval, rcu + ref + reval), live_value(text, "checked_again"));
	printf("kernel    lookups begun in RCU mode %ld, restarted in REF mode %ld (%.1f%%)\n",
	       krcu, kleft, pct(kleft, krcu));
	if (mismatch)
		mismatch_any = true;
}

static char *live_read(void)
{
	int fd = open_file("live");
	char *text = read_all(fd, NULL);

	close(fd);
	return text;
}

/* --live watch: the summary, refreshed, until Ctrl-C or --count. */
static void live_watch(void)
{
	bool clear = isatty(STDOUT_FILENO);
	struct timespec ts = {
		.tv_sec = (time_t)opt.interval,
		.tv_nsec = (long)((opt.interval - (time_t)opt.interval) * 1e9),
	};
	long i;
	char *text;

	for (i = 0; !opt.count || i < opt.count; i++) {
		if (i)
			nanosleep(&ts, NULL);
		text = live_read();
		if (clear)
			fputs("\033[H\033[2J", stdout);
		live_summary(text);
		if (!clear && (!opt.count || i + 1 < opt.count))
			putchar('\n');
		fflush(stdout);
		free(text);
	}
}

/* ------------------------------------------------------------------ */

static const char synopsis[] =
	"usage: nsresolve [options] PATH...\n"
	"       nsresolve [--raw|--json] --batch FILE|-\n"
	"       nsresolve --live start [WORD...] | stop | watch\n";

static noreturn void print_help(void)
{
	fputs(synopsis, stdout);
	fputs("\n"
	      "Resolves each PATH by namei_shadow's walker and by the kernel\n"
	      "(/sys/kernel/debug/namei_shadow/resolve) and shows the walk.\n"
	      "\n"
	      "  --mode=lookup|parent|mountpoint|open   the request's mode\n"
	      "  --flags=F,F,...     follow, nofollow, directory, empty, reval,\n"
	      "                      nocheck; creat, excl, path, trunc, wronly,\n"
	      "                      rdwr with --mode=open\n"
	      "  --semantics=4.2     Linux 4.2's answer where it differs\n"
	      "  --first=shadow      walk the shadow before the kernel\n"
	      "  --inject=WHAT@N     fail one check at step N (dseq, legitimize,\n"
	      "                      echild-permission, miss, estale)\n"
	      "  --resolve=R,R,...   openat2's scopes: beneath, in_root, no_xdev,\n"
	      "                      no_magiclinks, no_symlinks, cached\n"
	      "  --raw               the module's text, unchanged\n"
	      "  --json              one JSON object a line\n"
	      "  --batch FILE|-      requests, one a line, through batch\n"
	      "  --live start [WORD...]   arm live mode: the lookups programs\n"
	      "                      make, walked again; words comm=, pid=, tgid=,\n"
	      "                      cgroup=, under=, kinds=, sample=, rate=\n"
	      "  --live stop         disarm it\n"
	      "  --live watch        what it saw, refreshed (--interval=S, 1;\n"
	      "                      --count=N refreshes, then exit)\n"
	      "  --color=auto|always|never   colour (auto: on a terminal,\n"
	      "                      unless NO_COLOR is set or TERM=dumb)\n"
	      "  -h, --help          this text\n"
	      "\n"
	      "Exit status: 0; 1 when a verdict was mismatch; 2 on a usage or\n"
	      "environment error, or a request the module refused.\n"
	      "NSRESOLVE_DIR overrides " NS_DEFAULT_DIR ".\n", stdout);
	exit(0);
}

/* A usage error: what is wrong, the synopsis, exit status 2. */
static noreturn void __printf(1, 2) bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("nsresolve: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s(nsresolve --help tells more)\n", synopsis);
	exit(EXIT_TROUBLE);
}

static void run_live(int argc, char **argv)
{
	if (!strcmp(opt.live, "start")) {
		live_command("start", argv, argc);
		printf("live mode armed%s%s: nsresolve --live watch shows what it sees\n",
		       argc ? " for " : "", argc ? argv[0] : "");
	} else if (!strcmp(opt.live, "stop")) {
		if (argc)
			bad_usage("--live stop takes no words");
		live_command("stop", NULL, 0);
	} else {
		if (argc)
			bad_usage("--live watch takes no words (--count=N, --interval=S)");
		live_watch();
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "flags", required_argument, NULL, 'f' },
		{ "at", required_argument, NULL, 'a' },
		{ "semantics", required_argument, NULL, 's' },
		{ "first", required_argument, NULL, 'F' },
		{ "inject", required_argument, NULL, 'i' },
		{ "resolve", required_argument, NULL, 'R' },
		{ "raw", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "batch", required_argument, NULL, 'b' },
		{ "live", required_argument, NULL, 'L' },
		{ "count", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'I' },
		{ "color", optional_argument, NULL, 'c' },
		{ "colour", optional_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *color = "auto", *no_color, *term;
	bool request_opts = false;
	char *end;
	int c, i;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (strcmp(optarg, "lookup") && strcmp(optarg, "parent") &&
			    strcmp(optarg, "mountpoint") && strcmp(optarg, "open")) {
				bad_usage("--mode=%s: must be %s", optarg,
					  "lookup, parent, mountpoint or open");
			}
			opt.mode = optarg;
			request_opts = true;
			break;
		case 'f':
			opt.flags = optarg;
			request_opts = true;
			break;
		case 'a':
			bad_usage("--at is not supported");
		case 's':
			opt.semantics = optarg;
			request_opts = true;
			break;
		case 'F':
			opt.first = optarg;
			request_opts = true;
			break;
		case 'i':
			opt.inject = optarg;
			request_opts = true;
			break;
		case 'R':
			opt.resolve = optarg;
			request_opts = true;
			break;
		case 'r':
			opt.raw = true;
			break;
		case 'j':
			opt.json = true;
			break;
		case 'b':
			opt.batch = optarg;
			break;
		case 'L':
			if (strcmp(optarg, "start") && strcmp(optarg, "stop") &&
			    strcmp(optarg, "watch"))
				bad_usage("--live %s: must be start, stop or watch", optarg);
			opt.live = optarg;
			break;
		case 'n':
			opt.count = strtol(optarg, &end, 10);
			if (*end || opt.count < 1)
				bad_usage("--count=%s: a number of refreshes, 1 or more", optarg);
			break;
		case 'I':
			opt.interval = strtod(optarg, &end);
			if (*end || !(opt.interval > 0))
				bad_usage("--interval=%s: seconds, more than 0", optarg);
			break;
		case 'c':
			color = optarg ? optarg : "always";
			if (strcmp(color, "auto") && strcmp(color, "always") &&
			    strcmp(color, "never")) {
				bad_usage("--color=%s: must be auto, always or never",
					  color);
			}
			break;
		case 'h':
			print_help();
		default:
			bad_usage("unknown option");
		}
	}
	if (opt.raw && opt.json)
		bad_usage("--raw and --json exclude each other");
	if (opt.live && (opt.batch || request_opts || opt.raw || opt.json))
		bad_usage("--live takes no --batch, --mode, --raw, ... with it");
	if (!opt.live && (opt.count || opt.interval))
		bad_usage("--count and --interval are for --live watch");
	if (opt.batch && (optind < argc || request_opts))
		bad_usage("--batch takes whole requests from its file: %s",
			  "no PATH, --mode, --flags, ... with it");
	if (!opt.batch && !opt.live && optind == argc)
		bad_usage("no PATH given");
	if (!opt.interval)
		opt.interval = 1;
	/* auto: a terminal that shows colour, and no NO_COLOR (no-color.org) */
	no_color = getenv("NO_COLOR");
	term = getenv("TERM");
	opt.color = !strcmp(color, "always") ||
		(!strcmp(color, "auto") && isatty(STDOUT_FILENO) &&
		 !(no_color && *no_color) && !(term && !strcmp(term, "dumb")));
	opt.dir = getenv("NSRESOLVE_DIR");
	if (!opt.dir || !*opt.dir)
		opt.dir = NS_DEFAULT_DIR;

	check_environment();
	if (opt.live)
		run_live(argc - optind, argv + optind);
	else if (opt.batch)
		run_batch();
	else
		for (i = optind; i < argc; i++)
			resolve_one(argv[i], i > optind);
	if (fflush(stdout) || ferror(stdout))
		die("writing the output: %s", strerror(errno));
	if (refused_any)
		return EXIT_TROUBLE;
	return mismatch_any ? EXIT_MISMATCH : 0;
}
