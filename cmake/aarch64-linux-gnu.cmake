# Cross-compiling hotline for arm64 with Debian's gcc- and g++-aarch64-linux-gnu, the
# target's libraries from Debian's multiarch arm64 packages (libcmocka-dev:arm64
# and the others scripts/deps.sh installs), and the programs run under
# qemu-user through scripts/qemu-arm64 (the CPU model from HOTLINE_QEMU_CPU).
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)

# pkg-config: the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Host programs (objdump, python, sh) from the host; libraries and headers of the target.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# CTest runs target programs through the emulator.
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../scripts/qemu-arm64)
