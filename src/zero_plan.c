// SPDX-License-Identifier: MIT
/*
 * zero_plan.c - hl_zero's thresholds: the machine's description, the rules
 * that derive the thresholds from it, HOTLINE_ZERO_TUNABLES, and the
 * string that says where each threshold came from (zero_plan.h).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zero_plan.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

/* "1 MiB", "1.25 MiB", "48 KiB", "100 B": a size for the reasoning strings. */
static void size_words(size_t n, char *buf, size_t size)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
	unsigned u = 0;
	size_t scale = 1;

	while (u < 3 && n >= scale * 1024)
		scale *= 1024, u++;
	if (n % scale == 0)
		snprintf(buf, size, "%zu %s", n / scale, units[u]);
	else
		snprintf(buf, size, "%.3g %s", (double)n / (double)scale, units[u]);
}

static void set(struct hl_zero_threshold *t, size_t value, enum hl_zero_source source,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct hl_zero_threshold *t, size_t value, enum hl_zero_source source,
		const char *fmt, ...)
{
	va_list ap;

	t->value = value;
	t->source = source;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
}

/*
 * x86-64. vec_max: a quarter of L2, where vector stores stop beating
 * rep stosb on buffers in cache; on Intel with ERMS a page and 512 B
 * (4.5 KiB): rep stosb, whose fast-string stores write whole lines
 * without reading them first, clears a cold buffer faster than vector
 * stores do from a few KiB, and glibc's memset is rep stosb there too;
 * below, the vector stores are ahead hot, most of all for ends just past
 * a page (docs/zero.md). rep_max, the start of streaming stores: like
 * glibc's non-temporal threshold, a share of the last-level cache (a
 * quarter of this core's L3 instance, and never less than 3/4 of what each
 * CPU sharing it has); except on AMD family 0x19, where rep stosb beats
 * streaming stores beyond the L3 hot and cold (docs/zero.md), so there is
 * no streaming class.
 */
static void derive_x86(const struct hl_zero_machine *m, struct hl_zero_thresholds *t)
{
	const char *from = m->caches_from[0] ? m->caches_from : "unknown source";
	char l2[32], l3[32], share[32];

	if (!m->avx2) {
		set(&t->vec_max, SIZE_MAX, HL_ZERO_UNUSED,
		    "no AVX2: one variant clears every size");
		set(&t->rep_max, SIZE_MAX, HL_ZERO_UNUSED,
		    "no AVX2: one variant clears every size");
		return;
	}
	size_words(m->l2, l2, sizeof(l2));
	size_words(m->l3, l3, sizeof(l3));
	if (m->vendor == HL_ZERO_VENDOR_INTEL && m->erms)
		set(&t->vec_max, 4 * KIB + 512, HL_ZERO_DERIVED,
		    "Intel with ERMS: a page and 512 B, rep stosb beyond");
	else if (m->l2 >= 64 * KIB)
		set(&t->vec_max, m->l2 / 4, HL_ZERO_DERIVED, "L2 %s (%s) / 4", l2, from);
	else
		set(&t->vec_max, MIB / 4, HL_ZERO_DEFAULT, "L2 unknown: 1 MiB / 4");

	if (m->vendor == HL_ZERO_VENDOR_AMD && m->family == 0x19) {
		set(&t->rep_max, SIZE_MAX, HL_ZERO_DERIVED,
		    "AMD family 0x19: rep stosb beats streaming stores beyond the L3");
	} else if (m->l3 >= MIB && m->l3_sharing) {
		size_t per_cpu = m->l3 / m->l3_sharing, quarter = m->l3 / 4;
		size_t v = quarter > per_cpu / 4 * 3 ? quarter : per_cpu / 4 * 3;

		size_words(per_cpu, share, sizeof(share));
		set(&t->rep_max, v, HL_ZERO_DERIVED,
		    "max(L3 %s / 4, 3/4 x L3 per CPU %s; %u CPUs share it, %s)", l3, share,
		    m->l3_sharing, from);
	} else if (m->l3 >= MIB) {
		set(&t->rep_max, m->l3 / 4, HL_ZERO_DERIVED, "L3 %s / 4 (sharing unknown; %s)", l3,
		    from);
	} else if (m->l2 >= 64 * KIB) {
		set(&t->rep_max, m->l2 / 4 * 3, HL_ZERO_DERIVED, "no L3: 3/4 x L2 %s", l2);
	} else {
		set(&t->rep_max, 16 * MIB, HL_ZERO_DEFAULT, "caches unknown: 16 MiB");
	}
	if (t->rep_max.value < t->vec_max.value) {
		t->rep_max.value = t->vec_max.value;
		strncat(t->rep_max.why, ", raised to vec_max",
			sizeof(t->rep_max.why) - strlen(t->rep_max.why) - 1);
	}
	if (!m->erms) { /* no fast rep stosb: vector stores up to the streaming threshold */
		t->vec_max = t->rep_max;
		strncat(t->vec_max.why, "; no ERMS, vector stores up to rep_max",
			sizeof(t->vec_max.why) - strlen(t->vec_max.why) - 1);
		set(&t->rep_max, SIZE_MAX, HL_ZERO_UNUSED, "no ERMS: no rep stosb class");
	}
}

/*
 * arm64: plain stores up to max(256 B, 4 DC ZVA blocks), DC ZVA beyond;
 * MOPS for every size where the CPU has it. The cache sizes move nothing:
 * DC ZVA reads no line it writes, in cache or not (docs/zero.md).
 */
static void derive_arm64(const struct hl_zero_machine *m, struct hl_zero_thresholds *t)
{
	set(&t->rep_max, SIZE_MAX, HL_ZERO_UNUSED, "arm64: no rep stosb class");
	if (m->mops) {
		set(&t->vec_max, SIZE_MAX, HL_ZERO_UNUSED, "MOPS: mops clears every size");
	} else if (m->dczva_block >= 64 && m->dczva_block <= 2048) {
		size_t four = 4 * (size_t)m->dczva_block;

		set(&t->vec_max, four > 256 ? four : 256, HL_ZERO_DERIVED,
		    "max(256 B, 4 x DC ZVA block %u B)", m->dczva_block);
		t->vec_floor = 2 * (size_t)m->dczva_block - 1; /* dc_zva's body needs 2 blocks */
	} else {
		set(&t->vec_max, SIZE_MAX, HL_ZERO_UNUSED,
		    "DC ZVA not usable: stp clears every size");
	}
}

void hl__zero_derive(const struct hl_zero_machine *m, struct hl_zero_thresholds *t)
{
	memset(t, 0, sizeof(*t));
	if (m->isa == HL_ZERO_ISA_X86_64) {
		derive_x86(m, t);
	} else if (m->isa == HL_ZERO_ISA_AARCH64) {
		derive_arm64(m, t);
	} else {
		set(&t->vec_max, SIZE_MAX, HL_ZERO_UNUSED, "memset clears every size");
		set(&t->rep_max, SIZE_MAX, HL_ZERO_UNUSED, "memset clears every size");
	}
}

/* ---- The machine this process runs on ---- */

static void add_from(struct hl_zero_machine *m, const char *from)
{
	size_t len = strlen(m->caches_from);

	if (strstr(m->caches_from, from))
		return;
	snprintf(m->caches_from + len, sizeof(m->caches_from) - len, "%s%s", len ? "+" : "", from);
}

/* The first line of dir/name/leaf into buf; false if there is none. */
static bool read_line(const char *dir, const char *name, const char *leaf, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, leaf);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* "32768K", "1M", "512": bytes; 0 if not a size. */
static size_t parse_sysfs_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return (size_t)v;
}

/* "0-1,4,6-7": how many CPUs; 0 if not a list. */
static unsigned count_cpu_list(const char *s)
{
	unsigned n = 0;

	while (*s) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return 0;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s || hi < lo)
				return 0;
		}
		n += (unsigned)(hi - lo + 1);
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return n;
}

bool hl__zero_machine_sysfs(struct hl_zero_machine *m, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		char level[16], type[32], size[32], shared[256];
		size_t bytes;

		if (strncmp(e->d_name, "index", 5) != 0 ||
		    !read_line(dir, e->d_name, "level", level, sizeof(level)) ||
		    !read_line(dir, e->d_name, "type", type, sizeof(type)) ||
		    !read_line(dir, e->d_name, "size", size, sizeof(size)))
			continue;
		bytes = parse_sysfs_size(size);
		if (!bytes || strcmp(type, "Instruction") == 0)
			continue;
		if (strcmp(level, "1") == 0 && !m->l1d) {
			m->l1d = bytes;
		} else if (strcmp(level, "2") == 0 && !m->l2) {
			m->l2 = bytes;
		} else if (strcmp(level, "3") == 0 && !m->l3) {
			m->l3 = bytes;
			if (read_line(dir, e->d_name, "shared_cpu_list", shared, sizeof(shared)))
				m->l3_sharing = count_cpu_list(shared);
		} else {
			continue;
		}
		found = true;
	}
	closedir(d);
	if (found)
		add_from(m, "sysfs");
	return found;
}

void hl__zero_machine_probe(const struct hl_cpu *cpu, struct hl_zero_machine *m)
{
	const struct {
		int name;
		size_t *into;
	} conf[] = {
		{_SC_LEVEL1_DCACHE_SIZE, &m->l1d},
		{_SC_LEVEL2_CACHE_SIZE, &m->l2},
		{_SC_LEVEL3_CACHE_SIZE, &m->l3},
	};
	bool from_sysconf = false;

	memset(m, 0, sizeof(*m));
	if (strcmp(cpu->arch, "x86_64") == 0)
		m->isa = HL_ZERO_ISA_X86_64;
	else if (strcmp(cpu->arch, "aarch64") == 0)
		m->isa = HL_ZERO_ISA_AARCH64;
	if (strcmp(cpu->vendor, "GenuineIntel") == 0)
		m->vendor = HL_ZERO_VENDOR_INTEL;
	else if (strcmp(cpu->vendor, "AuthenticAMD") == 0 ||
		 strcmp(cpu->vendor, "HygonGenuine") == 0)
		m->vendor = HL_ZERO_VENDOR_AMD;
	m->family = cpu->family;
	m->model = cpu->model_id;
	m->erms = cpu->erms;
	m->fsrm = cpu->fsrm;
	m->avx2 = cpu->avx2;
	m->avx512 = cpu->avx512f && cpu->avx512vl && cpu->avx512bw;
	m->mops = cpu->mops;
	m->dczva_block = cpu->dczva_block;

	hl_arch_zero_caches(m);
	if (!m->l1d || !m->l2 || !m->l3)
		hl__zero_machine_sysfs(m, "/sys/devices/system/cpu/cpu0/cache");
	for (size_t i = 0; i < sizeof(conf) / sizeof(conf[0]); i++) {
		long v = *conf[i].into ? 0 : sysconf(conf[i].name);

		if (v > 0) {
			*conf[i].into = (size_t)v;
			from_sysconf = true;
		}
	}
	if (from_sysconf)
		add_from(m, "sysconf");
}

/* ---- HOTLINE_ZERO_TUNABLES ---- */

/* "256K", "16M", "1G", "4096": bytes, at least 1; false if not that. */
static bool parse_size(const char *s, size_t len, size_t *out)
{
	size_t v = 0, i, shift = 0;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		size_t digit = (size_t)(s[i] - '0');

		if (v > (SIZE_MAX - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	if (i == 0)
		return false;
	if (i + 1 == len) {
		if (s[i] == 'K')
			shift = 10;
		else if (s[i] == 'M')
			shift = 20;
		else if (s[i] == 'G')
			shift = 30;
		else
			return false;
	} else if (i != len) {
		return false;
	}
	if (v > SIZE_MAX >> shift)
		return false;
	*out = v << shift;
	return true;
}

/* s[0..n) for a message: at most 32 bytes, each unclear byte as \xNN, so the line stays one. */
static const char *shown(const char *s, size_t n, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < n && i < 32 && o + 8 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c > ' ' && c < 0x7f && c != '\\') {
			out[o++] = (char)c;
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	if (n > 32 && o + 4 < size)
		out[o++] = '.', out[o++] = '.', out[o++] = '.';
	out[o] = '\0';
	return out;
}

/* A threshold's value as HOTLINE_ZERO_TUNABLES writes it: bytes, or "max" for never. */
static void size_text(size_t v, char *buf, size_t size)
{
	if (v == SIZE_MAX)
		snprintf(buf, size, "max");
	else
		snprintf(buf, size, "%zu", v);
}

bool hl__zero_tunables(const char *value, struct hl_zero_thresholds *t, char *err, size_t err_size)
{
	struct hl_zero_thresholds next = *t;
	bool seen[2] = {false, false};
	const char *p = value;

	if (!*value) {
		snprintf(err, err_size, "empty (expected vec_max=SIZE:rep_max=SIZE)");
		return false;
	}
	for (;;) {
		size_t item = strcspn(p, ":"), name = strcspn(p, "=:"), v;
		char show[160];
		int which = -1;

		if (name == 3 + 4 && strncmp(p, "vec_max", 7) == 0)
			which = 0;
		else if (name == 3 + 4 && strncmp(p, "rep_max", 7) == 0)
			which = 1;
		if (which < 0) {
			snprintf(err, err_size,
				 "unknown tunable '%s' (expected vec_max or rep_max)",
				 shown(p, name, show, sizeof(show)));
			return false;
		}
		if (seen[which]) {
			snprintf(err, err_size, "%.7s given twice", p);
			return false;
		}
		seen[which] = true;
		if (item - name == 4 && strncmp(p + name + 1, "max", 3) == 0) {
			v = SIZE_MAX; /* never switch: what the tuner prints for no crossover */
		} else if (name == item || !parse_size(p + name + 1, item - name - 1, &v) || !v) {
			snprintf(err, err_size,
				 "%s: not a size of 1 or more (digits, then K, M, G or nothing) "
				 "nor max",
				 shown(p, item, show, sizeof(show)));
			return false;
		}
		set(which ? &next.rep_max : &next.vec_max, v, HL_ZERO_TUNABLE,
		    "HOTLINE_ZERO_TUNABLES");
		if (!p[item])
			break;
		p += item + 1;
	}
	if (next.vec_max.value < t->vec_floor) {
		snprintf(err, err_size,
			 "vec_max %zu is below %zu, the least this CPU's plan allows (2 DC ZVA "
			 "blocks - 1)",
			 next.vec_max.value, t->vec_floor);
		return false;
	}
	if (next.vec_max.value > next.rep_max.value) {
		char vec[32], rep[32];

		size_text(next.vec_max.value, vec, sizeof(vec));
		size_text(next.rep_max.value, rep, sizeof(rep));
		snprintf(err, err_size, "vec_max %s is above rep_max %s", vec, rep);
		return false;
	}
	*t = next;
	return true;
}

static const char *source_name(enum hl_zero_source s)
{
	switch (s) {
	case HL_ZERO_DERIVED: return "derived";
	case HL_ZERO_TUNABLE: return "tunable";
	case HL_ZERO_UNUSED: return "unused";
	default: return "default";
	}
}

int hl__zero_sources(const struct hl_zero_thresholds *t, char *buf, size_t size)
{
	const struct {
		const char *name;
		const struct hl_zero_threshold *th;
	} list[] = {{"vec_max", &t->vec_max}, {"rep_max", &t->rep_max}};
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < 2; i++) {
		const struct hl_zero_threshold *th = list[i].th;
		char value[32];
		int n;

		size_text(th->value, value, sizeof(value));
		n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
			     "%s%s=%s (%s%s%s)", i ? "; " : "", list[i].name, value,
			     source_name(th->source), th->source == HL_ZERO_TUNABLE ? "" : ": ",
			     th->source == HL_ZERO_TUNABLE ? "" : th->why);
		if (n < 0)
			return n;
		len += (size_t)n;
	}
	return (int)len;
}
