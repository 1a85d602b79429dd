# Thin wrapper over CMake: the commands README.md documents.
#
#   make test         build; run every test: normal build, ASan+UBSan build,
#                     and the threaded tests under ThreadSanitizer
#   make test-arm64   cross-build for arm64 and run every test under qemu-user,
#                     on a CPU model with LSE atomics and on an ARMv8.0 one
#                     without (docs/arm64.md)
#   make test-x86-amd build again and run every test under qemu-user as an
#                     AMD x86-64 CPU with AVX2 and without AVX-512: the AMD
#                     rules of the plans and the AVX2 variants, which this
#                     host may not take (README.md, "make test-x86-amd")
#   make bench        build (release); run the default benchmark suite (with
#                     --until-decided=60), then
#                     hotline-sim's many-core sweeps (scripts/sim-sweep.sh);
#                     write out/report.md, plots and raw JSON
#   make bench-quick  the same with every scenario in --quick mode (and
#                     shorter simulated runs)
#   make install      cmake --install into PREFIX (default /usr/local): the
#                     library, the four tools, the man pages
#   make deb          the Debian packages libhotline0, libhotline-dev and
#                     hotline-tools (CPack, packaging/deb.cmake) in
#                     build-deb/packages/
#   make test-deb     make deb, then check them (tests/install/deb.sh:
#                     contents, lintian, unpacked and used)
#   make verify       model-check the primitives with GenMC under the rc11
#                     and imm memory models (scripts/verify.sh,
#                     docs/verification.md); GENMC_SRC=PATH (a GenMC source
#                     tarball or tree) builds GenMC once into a cache
#
# Missing Debian packages are installed when run as root (scripts/deps.sh),
# or the exact apt-get line is printed.

JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX  ?= /usr/local
PYTHON  ?= /usr/bin/python3
OUT     ?= out
CMAKE   ?= cmake
CTEST   ?= ctest

# Sanitizer runs: any report fails the test.
# The ASan+UBSan build at -O1, as ASan's own documentation advises: two to five
# times faster than -O0, and LeakSanitizer then sees what -O0 keeps alive in
# dead stack slots (two leaks on exit-2 paths were found that way).
ASAN_CFLAGS ?= -g -O1
SAN_ENV := ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# make test-arm64: qemu's CPU models, one with LSE atomics (and, from qemu 8.2
# on, MOPS) and one plain ARMv8.0; and HOTLINE_TEST_SCALE, the one knob by
# which the stress tests divide their iteration counts under emulation (under
# either emulator: make test-x86-amd's CTest is QEMU_CTEST too).
ARM64_LSE_CPU   ?= max
ARM64_V80_CPU   ?= cortex-a57
ARM64_TEST_SCALE ?= 8
QEMU_CTEST = HOTLINE_TEST_SCALE=$(ARM64_TEST_SCALE) $(CTEST) --output-on-failure -j$(JOBS)

# make test-x86-amd: the qemu CPU model, and what test_cpu must then find
# (vendor, hex family and model, the flags that are true; TCG in qemu 7.2 has
# AVX2 but no AVX-512 and no FSRM). -mstackrealign: qemu-user 7.2 enters
# signal handlers with the stack 16-byte aligned where the ABI has it 8 off
# (16n + 8), and gcc's aligned SSE stores to the stack then fault.
X86_AMD_CPU    ?= max,vendor=AuthenticAMD,family=25,model=1
X86_AMD_EXPECT ?= AuthenticAMD 19 1 erms avx2
.PHONY: all build test test-release test-asan test-tsan test-arm64 test-arm64-lse \
	test-arm64-v80 build-arm64 test-x86-amd build-x86-amd bench bench-quick install deb \
	test-deb verify clean

all: build

build:
	@scripts/deps.sh bench
	$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
	$(CMAKE) --build build -j$(JOBS)

test: test-release test-asan test-tsan
	@echo "make test: all three builds passed"

test-release:
	@scripts/deps.sh test
	$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
	$(CMAKE) --build build -j$(JOBS)
	cd build && $(CTEST) --output-on-failure -j$(JOBS)

test-asan:
	@scripts/deps.sh test
	$(CMAKE) -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHOTLINE_SANITIZE=address,undefined \
		-DCMAKE_C_FLAGS_DEBUG="$(ASAN_CFLAGS)"
	$(CMAKE) --build build-asan -j$(JOBS)
	cd build-asan && $(SAN_ENV) $(CTEST) --output-on-failure -j$(JOBS) -LE nosan

test-tsan:
	@scripts/deps.sh test
	$(CMAKE) -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHOTLINE_SANITIZE=thread
	$(CMAKE) --build build-tsan -j$(JOBS)
	cd build-tsan && $(SAN_ENV) $(CTEST) --output-on-failure -j$(JOBS) -L threaded

# One cross build; its programs choose LSE or exclusives at run time, so the
# same binaries run on both models. HOTLINE_EXPECT_LSE tells test_cpu which
# answer hl_cpu() must give on each.
build-arm64:
	@scripts/deps.sh arm64
	$(CMAKE) -S . -B build-arm64 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake
	$(CMAKE) --build build-arm64 -j$(JOBS)

test-arm64: test-arm64-lse test-arm64-v80
	@echo "make test-arm64: both CPU models passed"

test-arm64-lse: build-arm64
	cd build-arm64 && HOTLINE_QEMU_CPU=$(ARM64_LSE_CPU) HOTLINE_EXPECT_LSE=1 $(QEMU_CTEST)

test-arm64-v80: build-arm64
	cd build-arm64 && HOTLINE_QEMU_CPU=$(ARM64_V80_CPU) HOTLINE_EXPECT_LSE=0 $(QEMU_CTEST)

# hotline-sim's operations per run: about 20 s for the three sweeps here
# (make bench), 10 s in bench-quick. The sweeps' list is in scripts/sim-sweep.sh;
# it prints the JSON files it wrote, which go to the report with bench.json.
SIM_OPS ?= 200000

# make bench: where a question of the report cannot tell at this noise, more
# repetitions, within this many seconds for the whole run (bench/README.md,
# "Until decided"; 60 s: the suite with it stays within its 10 minutes on
# the slowest machine measured, an Intel Xeon, family 6 model 0xcf).
UNTIL_DECIDED ?= 60

build-x86-amd:
	@scripts/deps.sh x86emu
	$(CMAKE) -S . -B build-x86-amd -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_CROSSCOMPILING_EMULATOR=$(CURDIR)/scripts/qemu-x86 \
		-DCMAKE_C_FLAGS=-mstackrealign -DCMAKE_CXX_FLAGS=-mstackrealign
	$(CMAKE) --build build-x86-amd -j$(JOBS)

test-x86-amd: build-x86-amd
	cd build-x86-amd && HOTLINE_QEMU_CPU=$(X86_AMD_CPU) \
		HOTLINE_EXPECT_X86="$(X86_AMD_EXPECT)" $(QEMU_CTEST)

bench: BENCH_FLAGS = --until-decided=$(UNTIL_DECIDED)
bench-quick: BENCH_FLAGS = --quick
bench-quick: SIM_OPS = 100000
bench bench-quick: build
	@mkdir -p $(OUT)
	./build/bench/hotline-bench all $(BENCH_FLAGS) --json $(OUT)/bench.json
	scripts/sim-sweep.sh --ops $(SIM_OPS) --jobs $(JOBS) --bench $(OUT)/bench.json \
		./build/sim/hotline-sim $(OUT) >$(OUT)/sim.list
	$(PYTHON) tools/hotline-report $(OUT)/bench.json $$(cat $(OUT)/sim.list) -o $(OUT)
	@echo "report: $(OUT)/report.md"

install: build
	$(CMAKE) --install build --prefix $(PREFIX)

# A build of its own for /usr (multiarch libdir), with Debian's doc files and
# compressed man pages; tests off (the package is what make test tested).
deb:
	@scripts/deps.sh deb
	$(CMAKE) -S . -B build-deb -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
		-DHOTLINE_DEB=ON -DHOTLINE_BUILD_TESTS=OFF
	$(CMAKE) --build build-deb -j$(JOBS)
	rm -rf build-deb/packages
	cd build-deb && cpack -G DEB
	@ls build-deb/packages/*.deb

test-deb: deb
	sh tests/install/deb.sh build-deb/packages $(CURDIR)

# GenMC is built (once, GENMC_SRC) into a cache outside the clone; without
# it the script says in one line how to get it and fails.
verify:
	GENMC_SRC="$(GENMC_SRC)" JOBS=$(JOBS) scripts/verify.sh

clean:
	rm -rf build build-asan build-tsan build-arm64 build-x86-amd build-deb $(OUT)
