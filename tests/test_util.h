/* SPDX-License-Identifier: MIT */
/*
 * tests/test_util.h - what several test programs share. Include after
 * <cmocka.h>.
 *
 * watchdog_start(seconds, what) arms SIGALRM; if the program is still
 * running when it fires, it writes "<what>: watchdog: still running after
 * N s" to stderr and exits 1, so CTest reports a failure with a reason
 * instead of a timeout.
 *
 * assert_count(r, want) fails unless the refcount r reads exactly want,
 * printing both in decimal (cmocka would print negative ints as 64-bit hex).
 *
 * assert_lockref_count(l, want) does the same for a struct hl_lockref, and
 * assert_qspin_word(l, want) compares a whole hl_qspinlock_t word, printed
 * in hex (locked byte, pending bit and tail are easier to read that way).
 *
 * HOTLINE_TEST_SCALE=N (a positive integer; 1 if unset or empty) is the one
 * knob by which the stress tests shrink for slow runs (make test-arm64 runs
 * them under qemu with 8). test_scale() is N, times 4 in a ThreadSanitizer
 * build (HL_TSAN: several times slower per atomic operation); scaled(n) is
 * n / test_scale(), at least 1: the iteration, round and thread counts of the
 * stress tests are written scaled(COUNT), and a threshold that depends on a
 * count is scaled with it. Exhaustive sweeps (every size, alignment,
 * distance) instead visit every sweep_step()-th value past the first few,
 * and always the last: sweep_next(v, dense, last) is the value after v.
 * sweep_step() is N, or N + 1 when N is even (1 at scale 1; ThreadSanitizer
 * does not slow a sweep): an odd stride over a long enough range meets every
 * residue modulo any power of two, so every tail length and alignment class
 * is still visited. A value that is not a positive integer fails the program
 * at start with one line naming it (test_scale_check, a constructor).
 *
 * thread_state(tid) is the state letter of a thread of this process from
 * /proc/self/task/TID/stat ('R' running, 'S' sleeping, ...), '?' if it
 * cannot be read; gettid_() is the calling thread's kernel id.
 *
 * Threads. start_threads(tids, n, fn, args, size) starts n threads, the
 * i-th running fn((char *)args + i * size) (fn(NULL) if args is NULL), and
 * fails the test if one cannot be created; join_threads(tids, n) joins
 * them. Workers only count: cmocka's assertions are not thread-safe, so the
 * main thread asserts after joining. next_rand(&seed) is xorshift32, a cheap
 * per-thread sequence (seed not 0); now() is CLOCK_MONOTONIC in seconds.
 *
 * trylock_from_another_thread(lock) runs hl_qspin_trylock on a fresh
 * thread (unlocking again at once): true if the lock was free, false if it
 * is really held. qspin_wait_for_waiter(lock) polls the lock word every
 * 100 us, for up to 5 s, until another thread shows up waiting on it
 * (pending bit or a queue tail); false if none did.
 *
 * lockref_word(n) is the whole word of a lockref with count n and a free
 * lock; lockref_reset(l, n) stores it (nobody else may be using l).
 * lockref_swap_count(l, n) is for the holder of l->lock: it sets the count
 * to n, keeping the lock half as it is (waiters may queue on it meanwhile),
 * and returns the count it replaced.
 *
 * run_self_child(scenario, env_name, env_value, out, out_size, err,
 * err_size) re-executes this program as "PROGRAM --child SCENARIO", with
 * env_name set to env_value (unset if NULL) and no core dumps, and returns
 * its waitpid() status. The child's stderr is read into err and, if out is
 * not NULL, its stdout into out (else it is this program's); each is
 * NUL-terminated and cut to fit. stderr is read to its end first: for
 * children that write less than a pipe holds to stdout.
 *
 * HOTLINE_TARGET_RUN, in the environment: the command that runs a program
 * built for the target; empty or unset: run it directly. Under emulation
 * (qemu-user, where a guest cannot execve another guest binary) CTest sets it
 * to the cross-compiling emulator for every test (tests/CMakeLists.txt), and
 * run_self_child then executes "HOTLINE_TARGET_RUN PATH --child SCENARIO",
 * PATH being readlink("/proc/self/exe") (qemu answers with the guest
 * program's path). The command is split at blanks (no quoting) and looked up
 * in PATH; children inherit the variable, so they can re-execute in turn.
 * tests/build's scripts run the programs they build through it too.
 *
 * restore_default_handler is a cmocka group teardown that puts back the
 * default refcount handler, hl_refcount_set_handler(NULL).
 *
 * Faults (the tests of hl_try_zero). cmocka replaces SIGSEGV and SIGBUS
 * handlers around every test and puts them back with signal(), losing
 * SA_SIGINFO; so a program whose tests fault calls fault_handlers_setup() in
 * main (it installs fault_report, then hotline's handler on top of it with
 * hl_try_zero_prepare(), and remembers hotline's), and each test that faults
 * starts with fault_handlers_restore(). A fault hotline passes on then reaches
 * fault_report, which prints the signal, si_code, address and the last
 * fault_note(fmt, ...) (what the test was doing), and exits 1.
 *
 * map_guarded(len, prot) maps len bytes (a multiple of the page size) read-
 * write, filled with fill_pattern(), followed by one page that holds the
 * pattern too and is then given prot (PROT_NONE or PROT_READ); the guard
 * page starts at the returned pointer + len. unmap_guarded(p, len) undoes it.
 * fill_pattern(p, n, from) writes the pattern's bytes [from, from + n) to p:
 * byte i is i % 251 + 1: never 0, and no copy shifted by 1..250 bytes matches.
 * first_nonzero(p, n) is the index of the first non-zero byte, n if none;
 * first_unlike_pattern(p, n, from) the first byte that is not the pattern's.
 *
 * map_beyond_eof(&fd) makes a file (unlinked at once) of 1.5 pages in
 * $TMPDIR or /tmp and maps 3 pages of it MAP_SHARED, read-write: the second
 * page holds the end of the file, so a store anywhere in it succeeds, and the
 * third lies wholly beyond the end, where an access raises SIGBUS. The file's
 * bytes hold the pattern; *fd stays open for pread.
 *
 * zero_subjects(names, max) fills names with every variant hl_zero_supported()
 * says this CPU runs, then "auto", and returns how many; zero_use(name) is
 * hl_zero_use that fails the test unless it returns 0.
 *
 * describe_status(status, buf, size) says what a waitpid() status means
 * ("exited with 3", "killed by signal 11 (Segmentation fault)").
 *
 * children_without_sanitizer_fault_handlers() is for main, before any child
 * is started: ASan and TSan install SIGSEGV/SIGBUS handlers of their own at
 * start-up, so a child that must die of a fault as a plain program does would
 * otherwise end in the sanitizer's report. It appends handle_segv=0 and
 * handle_sigbus=0 to ASAN_OPTIONS and TSAN_OPTIONS (keeping what the Makefile
 * set) in this process's environment, which children inherit; this process's
 * sanitizer has already read its options. sanitizer_options_at_start(var) is
 * the value var had before, NULL if it was unset.
 */
#ifndef HOTLINE_TESTS_TEST_UTIL_H
#define HOTLINE_TESTS_TEST_UTIL_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <hotline/compiler.h>	/* HL_TSAN */
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

/* ---- HOTLINE_TEST_SCALE ---- */

/* HOTLINE_TEST_SCALE as given (1 if unset or empty); exits with one line if not a positive integer. */
static inline long test_env_scale(void)
{
	static long scale;
	const char *v = getenv("HOTLINE_TEST_SCALE");
	char *end;
	long n = 1;

	if (scale)
		return scale;
	if (v && *v) {
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || end == v || *end || n < 1 || n > 1000000) {
			fprintf(stderr, "%s: HOTLINE_TEST_SCALE=%s: expected a positive integer "
				"(at most 1000000)\n", program_invocation_short_name, v);
			exit(1);
		}
	}
	return scale = n;
}

static inline long test_scale(void)
{
#ifdef HL_TSAN
	return 4 * test_env_scale();
#else
	return test_env_scale();
#endif
}

__attribute__((constructor)) static void test_scale_check(void)
{
	test_env_scale();
}

static inline long scaled(long n)
{
	return n / test_scale() > 0 ? n / test_scale() : 1;
}

static inline size_t sweep_step(void)
{
	return (size_t)(test_env_scale() | 1);
}

/*
 * The value after v in a sweep up to last: v + 1 below dense, then every
 * sweep_step()-th value, and last itself (v + 1 > last ends the sweep).
 */
static inline size_t sweep_next(size_t v, size_t dense, size_t last)
{
	if (v + 1 < dense || v >= last)
		return v + 1;
	return v + sweep_step() < last ? v + sweep_step() : last;
}

static char watchdog_msg[256];
static size_t watchdog_len;

static void watchdog_fire(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, watchdog_msg, watchdog_len) < 0)
		_exit(2);
	_exit(1);
}

static inline void watchdog_start(unsigned int seconds, const char *what)
{
	int n = snprintf(watchdog_msg, sizeof(watchdog_msg),
			 "%s: watchdog: still running after %u s; probably stuck\n", what, seconds);

	watchdog_len = n < 0 ? 0 : (size_t)n < sizeof(watchdog_msg) ? (size_t)n :
								     sizeof(watchdog_msg) - 1;
	signal(SIGALRM, watchdog_fire);
	alarm(seconds);
}

#define assert_count(r, want)								\
	do {										\
		int got_ = hl_refcount_read(r), want_ = (want);				\
		if (got_ != want_)							\
			fail_msg("count is %d, expected %d (%s)", got_, want_, #want);	\
	} while (0)

#define assert_lockref_count(l, want)							\
	do {										\
		int got_ = hl_lockref_count(l), want_ = (want);				\
		if (got_ != want_)							\
			fail_msg("lockref count is %d, expected %d (%s)", got_, want_,	\
				 #want);						\
	} while (0)

#define assert_qspin_word(l, want)							\
	do {										\
		unsigned int got_ = atomic_load(&(l)->val), want_ = (want);		\
		if (got_ != want_)							\
			fail_msg("lock word is 0x%08x, expected 0x%08x (%s)", got_, want_,	\
				 #want);						\
	} while (0)

static inline int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

static inline char thread_state(int tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "tid (comm) S ...": comm may hold spaces and parentheses; the last ')' ends it. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

/* ---- Threads ---- */

static inline void start_threads(pthread_t *tids, int n, void *(*fn)(void *), void *args,
				 size_t arg_size)
{
	for (int i = 0; i < n; i++) {
		void *arg = args ? (char *)args + (size_t)i * arg_size : NULL;
		int err = pthread_create(&tids[i], NULL, fn, arg);

		if (err)
			fail_msg("pthread_create of thread %d of %d: %s", i, n, strerror(err));
	}
}

static inline void join_threads(pthread_t *tids, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(pthread_join(tids[i], NULL), 0);
}

static inline unsigned int next_rand(unsigned int *s)
{
	unsigned int x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- A qspinlock seen from another thread ---- */

struct qspin_probe {
	hl_qspinlock_t *lock;
	bool got;
};

static inline void *qspin_probe_fn(void *arg)
{
	struct qspin_probe *p = arg;

	p->got = hl_qspin_trylock(p->lock);
	if (p->got)
		hl_qspin_unlock(p->lock);
	return NULL;
}

static inline bool trylock_from_another_thread(hl_qspinlock_t *lock)
{
	struct qspin_probe p = { .lock = lock, .got = false };
	pthread_t tid;

	assert_int_equal(pthread_create(&tid, NULL, qspin_probe_fn, &p), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return p.got;
}

static inline bool qspin_wait_for_waiter(hl_qspinlock_t *lock)
{
	struct timespec tick = { 0, 100 * 1000 };

	for (int i = 0; i < 50000; i++) {
		if (atomic_load(&lock->val) & ~HL_QSPIN_LOCKED_MASK)
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

/* ---- Lockref words ---- */

static inline uint64_t lockref_word(int n)
{
	struct hl_lockref t = HL_LOCKREF_INIT(n);

	return atomic_load(&t.lock_count);
}

static inline void lockref_reset(struct hl_lockref *l, int n)
{
	atomic_store(&l->lock_count, lockref_word(n));
}

static inline int lockref_swap_count(struct hl_lockref *l, int n)
{
	uint64_t count_mask = lockref_word(-1);
	uint64_t old = atomic_load(&l->lock_count);
	struct hl_lockref was;

	while (!atomic_compare_exchange_weak(&l->lock_count, &old,
					     (old & ~count_mask) | lockref_word(n)))
		;
	atomic_init(&was.lock_count, old);
	return hl_lockref_count(&was);
}

/* ---- This program, re-executed as a child ---- */

static inline void read_to_end(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
}

/*
 * Replace this process by this program with argv[1...] (argv[0] is a name for
 * it): directly, or, when HOTLINE_TARGET_RUN is set and not empty, through
 * that command, with this program's real path. Returns only if exec failed.
 */
static inline void exec_self(char *const argv[])
{
	const char *run = getenv("HOTLINE_TARGET_RUN");
	static char cmd[4096], path[4096];
	char *words[64];
	int n = 0, argc = 0;
	ssize_t len;

	if (!run || !*run) {
		execv("/proc/self/exe", argv);
		return;
	}
	/* Under qemu-user this is the guest program's path, not qemu's. */
	len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (len <= 0)
		return;
	path[len] = '\0';
	snprintf(cmd, sizeof(cmd), "%s", run);
	while (argv[argc])
		argc++;
	for (char *save, *w = strtok_r(cmd, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n + argc + 1 >= 64)
			return;		/* more words than anyone needs: fail as exec would */
		words[n++] = w;
	}
	if (n == 0)
		return;
	words[n++] = path;
	for (int i = 1; i < argc; i++)
		words[n++] = argv[i];
	words[n] = NULL;
	execvp(words[0], words);
}

static inline int run_self_child(const char *scenario, const char *env_name, const char *env_value,
				 char *out, size_t out_size, char *err, size_t err_size)
{
	int out_fds[2] = { -1, -1 }, err_fds[2];
	int status;
	pid_t pid;

	if (out)
		assert_int_equal(pipe(out_fds), 0);
	assert_int_equal(pipe(err_fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		char *argv[] = { program_invocation_short_name, "--child", (char *)scenario, NULL };

		setrlimit(RLIMIT_CORE, &no_core);	/* a child that aborts need not dump core */
		if (out) {
			dup2(out_fds[1], STDOUT_FILENO);
			close(out_fds[0]);
			close(out_fds[1]);
		}
		dup2(err_fds[1], STDERR_FILENO);
		close(err_fds[0]);
		close(err_fds[1]);
		if (env_value)
			setenv(env_name, env_value, 1);
		else
			unsetenv(env_name);
		exec_self(argv);
		_exit(127);
	}
	if (out)
		close(out_fds[1]);
	close(err_fds[1]);
	read_to_end(err_fds[0], err, err_size);
	if (out)
		read_to_end(out_fds[0], out, out_size);
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	return status;
}

/* ---- cmocka group setup and teardown ---- */

static inline int restore_default_handler(void **state)
{
	(void)state;
	hl_refcount_set_handler(NULL);
	return 0;
}

/* ---- Faults: the tests of hl_try_zero ---- */

static char fault_what[512];
static struct sigaction fault_hotline_segv, fault_hotline_bus;

#define fault_note(...) snprintf(fault_what, sizeof(fault_what), __VA_ARGS__)

/* Append v in hex (base 16) or decimal to *p; async-signal-safe. */
static inline void fault_put_num(char **p, unsigned long v, unsigned int base)
{
	char digits[24];
	int n = 0;

	if (base == 16) {
		*(*p)++ = '0';
		*(*p)++ = 'x';
	}
	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		*(*p)++ = digits[--n];
}

static inline void fault_put_str(char **p, const char *s, size_t max)
{
	while (*s && max--)
		*(*p)++ = *s++;
}

static inline void fault_report(int sig, siginfo_t *si, void *uc)
{
	char msg[1024], *p = msg;

	(void)uc;
	fault_put_str(&p, program_invocation_short_name, 64);
	fault_put_str(&p, ": unexpected ", 64);
	fault_put_str(&p, sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "signal ", 16);
	if (sig != SIGSEGV && sig != SIGBUS)
		fault_put_num(&p, (unsigned long)sig, 10);
	fault_put_str(&p, " (si_code ", 16);
	if (si->si_code < 0) {
		*p++ = '-';
		fault_put_num(&p, (unsigned long)-(long)si->si_code, 10);
	} else {
		fault_put_num(&p, (unsigned long)si->si_code, 10);
	}
	fault_put_str(&p, ") at ", 16);
	fault_put_num(&p, (unsigned long)(uintptr_t)si->si_addr, 16);
	fault_put_str(&p, " that hl_try_zero's handler passed on, while: ", 64);
	fault_put_str(&p, fault_what, sizeof(fault_what));
	*p++ = '\n';
	if (write(STDERR_FILENO, msg, (size_t)(p - msg)) < 0)
		_exit(2);
	_exit(1);
}

static inline void fault_handlers_setup(void)
{
	struct sigaction sa = { .sa_sigaction = fault_report, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL) ||
	    hl_try_zero_prepare() != 0) {
		fprintf(stderr, "%s: cannot install the fault handlers: %s\n",
			program_invocation_short_name, strerror(errno));
		exit(1);
	}
	sigaction(SIGSEGV, NULL, &fault_hotline_segv);
	sigaction(SIGBUS, NULL, &fault_hotline_bus);
}

static inline void fault_handlers_restore(void)
{
	sigaction(SIGSEGV, &fault_hotline_segv, NULL);
	sigaction(SIGBUS, &fault_hotline_bus, NULL);
}

static inline size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* The pattern repeats every 251 bytes: write one period, then copy what is written. */
static inline void fill_pattern(unsigned char *p, size_t n, size_t from)
{
	size_t done = n < 251 ? n : 251;

	for (size_t i = 0; i < done; i++)
		p[i] = (unsigned char)((from + i) % 251 + 1);
	while (done < n) {
		size_t c = n - done < done ? n - done : done;

		memcpy(p + done, p, c);
		done += c;
	}
}

static inline size_t first_nonzero(const unsigned char *p, size_t n)
{
	static const unsigned char zeros[4096];
	size_t i = 0;

	for (; i + sizeof(zeros) <= n; i += sizeof(zeros))
		if (memcmp(p + i, zeros, sizeof(zeros)))
			break;
	for (; i < n; i++)
		if (p[i])
			return i;
	return n;
}

static inline size_t first_unlike_pattern(const unsigned char *p, size_t n, size_t from)
{
	size_t i = 0, head = n < 251 ? n : 251;

	for (; i < head; i++)
		if (p[i] != (unsigned char)((from + i) % 251 + 1))
			return i;
	/* p[0, 251) is right: each later 251-byte block must equal it */
	for (; i + 251 <= n; i += 251)
		if (memcmp(p + i, p, 251))
			break;
	for (; i < n; i++)
		if (p[i] != (unsigned char)((from + i) % 251 + 1))
			return i;
	return n;
}

static inline unsigned char *map_guarded(size_t len, int prot)
{
	size_t page = page_size();
	unsigned char *p = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail_msg("mmap of %zu bytes: %s", len + page, strerror(errno));
	fill_pattern(p, len + page, 0);
	if (mprotect(p + len, page, prot))
		fail_msg("mprotect of the guard page: %s", strerror(errno));
	return p;
}

static inline void unmap_guarded(unsigned char *p, size_t len)
{
	munmap(p, len + page_size());
}

static inline unsigned char *map_beyond_eof(int *fd)
{
	const char *dir = getenv("TMPDIR");
	size_t page = page_size();
	char path[4096];
	unsigned char *p;

	snprintf(path, sizeof(path), "%s/hotline-test-XXXXXX", dir && *dir ? dir : "/tmp");
	*fd = mkstemp(path);
	if (*fd < 0)
		fail_msg("mkstemp(%s): %s", path, strerror(errno));
	unlink(path);
	if (ftruncate(*fd, (off_t)(page + page / 2)))
		fail_msg("ftruncate: %s", strerror(errno));
	p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED)
		fail_msg("mmap of 3 pages of a file of 1.5: %s", strerror(errno));
	fill_pattern(p, page + page / 2, 0);
	return p;
}

static inline int zero_subjects(const char **names, int max)
{
	const char *name;
	int n = 0;

	for (unsigned int i = 0; (name = hl_zero_variant_name(i)) && n < max - 1; i++)
		if (hl_zero_supported(name))
			names[n++] = name;
	names[n++] = "auto";
	return n;
}

static inline void zero_use(const char *name)
{
	if (hl_zero_use(name) != 0)
		fail_msg("hl_zero_use(\"%s\") returned -1, expected 0 (hl_zero_supported says %s)",
			 name, hl_zero_supported(name) ? "true" : "false");
}

static inline const char *describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "ended with status 0x%x", status);
	return buf;
}

static char sanitizer_asan_options[1024], sanitizer_tsan_options[1024];
static bool sanitizer_asan_set, sanitizer_tsan_set;

static inline const char *sanitizer_options_at_start(const char *var)
{
	if (strcmp(var, "ASAN_OPTIONS") == 0)
		return sanitizer_asan_set ? sanitizer_asan_options : NULL;
	return sanitizer_tsan_set ? sanitizer_tsan_options : NULL;
}

static inline void children_without_sanitizer_fault_handlers(void)
{
	static const char *const vars[] = { "ASAN_OPTIONS", "TSAN_OPTIONS" };
	char *saved[] = { sanitizer_asan_options, sanitizer_tsan_options };
	bool *set[] = { &sanitizer_asan_set, &sanitizer_tsan_set };
	char value[1100];

	for (int i = 0; i < 2; i++) {
		const char *was = getenv(vars[i]);

		*set[i] = was != NULL;
		snprintf(saved[i], sizeof(sanitizer_asan_options), "%s", was ? was : "");
		snprintf(value, sizeof(value), "%s%shandle_segv=0:handle_sigbus=0", saved[i],
			 *saved[i] ? ":" : "");
		setenv(vars[i], value, 1);
	}
}

#endif /* HOTLINE_TESTS_TEST_UTIL_H */
