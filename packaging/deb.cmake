# packaging/deb.cmake - the Debian packages of 'make deb', by CPack's DEB generator.
#
# Three packages from the install components of CMakeLists.txt: libhotline0
# (lib: the shared library), libhotline-dev (dev: headers, static library,
# pkg-config, CMake package, man3, valgrind suppressions) and hotline-tools
# (tools: hotline-bench, hotline-sim, hotline-trace, hotline-report and its Python package,
# man1). CPack reuses the build and the install rules as they are, where a
# debian/ directory would build everything again through debhelper. What
# debhelper would add and lintian asks for is here: a copyright file and a
# changelog in each package's doc directory (HOTLINE_DEB only, so that
# 'make install' does not get them), compressed man pages (man/CMakeLists.txt),
# shlibs and the ldconfig trigger, stripped binaries, Depends from
# dpkg-shlibdeps.
# Whoever publishes the packages sets their own address (lintian refuses
# localhost and the like); the default only names the project.
set(HOTLINE_DEB_MAINTAINER "hotline developers <hotline@example.org>" CACHE STRING
	"Maintainer field of the Debian packages")

set(hl_deb_packages lib libhotline0 dev libhotline-dev tools hotline-tools)
if(HOTLINE_DEB)
	# Native package (version without a Debian revision): changelog.gz.
	string(TIMESTAMP hl_deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
	set(hl_deb_dir ${CMAKE_CURRENT_BINARY_DIR}/deb-doc)
	file(MAKE_DIRECTORY ${hl_deb_dir})
	file(WRITE ${hl_deb_dir}/changelog
		"hotline (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
		"  * Built by 'make deb' from the hotline source tree.\n\n"
		" -- ${HOTLINE_DEB_MAINTAINER}  ${hl_deb_date}\n")
	execute_process(COMMAND gzip -9nf ${hl_deb_dir}/changelog COMMAND_ERROR_IS_FATAL ANY)
	file(READ ${PROJECT_SOURCE_DIR}/LICENSE hl_license)
	string(REGEX REPLACE "\n\n" "\n.\n" hl_license_dep5 "${hl_license}")
	string(REGEX REPLACE "\n([^\n])" "\n \\1" hl_license_dep5 "${hl_license_dep5}")
	string(REGEX MATCH "Copyright[^\n]*" hl_copyright_line "${hl_license}")
	string(REGEX REPLACE "^Copyright (\\(c\\) )?" "" hl_copyright_holder "${hl_copyright_line}")
	file(WRITE ${hl_deb_dir}/copyright
		"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
		"Upstream-Name: hotline\n\n"
		"Files: *\nCopyright: ${hl_copyright_holder}\nLicense: MIT\n"
		" ${hl_license_dep5}")
	list(LENGTH hl_deb_packages n)
	math(EXPR last "${n} - 1")
	foreach(i RANGE 0 ${last} 2)
		math(EXPR j "${i} + 1")
		list(GET hl_deb_packages ${i} comp)
		list(GET hl_deb_packages ${j} pkg)
		install(FILES ${hl_deb_dir}/copyright ${hl_deb_dir}/changelog.gz
			DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${pkg} COMPONENT ${comp})
	endforeach()
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hotline)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's summary is the first line of its own description below
# (CPack would put the project's DESCRIPTION before it otherwise).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGE_CONTACT "${HOTLINE_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${HOTLINE_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib dev tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libhotline0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
# shlibs (dpkg-shlibdeps of a dependent package reads it) and the ldconfig
# trigger that Debian wants instead of the ldconfig call CPack's postinst makes.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/deb-doc/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_BINARY_DIR}/deb-doc/triggers)
set(CPACK_COMPONENT_LIB_DESCRIPTION
"kernel-style refcounts, lockrefs, queued spinlocks and zeroing (library)
hotline brings the Linux kernel's contended fast paths to user space: a
saturating reference count, a lockref (count and lock in one word), a
queued spinlock that survives preemption, and fault-tolerant zeroing.
.
This package holds the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libhotline-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_COMPONENT_DEV_DESCRIPTION
"kernel-style refcounts, lockrefs, queued spinlocks and zeroing (development)
hotline brings the Linux kernel's contended fast paths to user space.
.
This package holds the headers, the static library, the pkg-config and
CMake package files, the section 3 manual pages and the valgrind
suppressions for hl_try_zero.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME hotline-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS
	"python3, python3-matplotlib, python3-numpy, python3-scipy")
# hotline-trace attaches with bpftrace (docs/trace.md).
set(CPACK_DEBIAN_TOOLS_PACKAGE_SUGGESTS "bpftrace")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
"benchmark, many-core model and report tools of hotline
hotline-bench measures hotline's primitives against the alternatives,
hotline-sim models many threads sharing one cache line on machines you do
not have, and hotline-report turns their JSON into a Markdown report with
plots. hotline-trace prints a running program's slow-path figures from
libhotline's static probes, with bpftrace.")

include(CPack)
