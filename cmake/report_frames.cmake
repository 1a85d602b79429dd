# cmake/report_frames.cmake - hl_report_frames(): how src/refcount.c and src/rcuref.c are
# compiled wherever they are, the library (src/) and the bench's no-probes copy of it (bench/).
#
# The refcount and rcuref reports (their probes take the user stack, docs/trace.md) keep frame
# pointers, and call rather than jump to what they call last (a function that only jumps gets
# no frame): without them a tracer's stack walk stops at the report's own frame. Everything in
# these two files is a rare or out-of-line path; the inline fast paths are in the headers.
#
# A source file's properties belong to the directory that sets them, so each directory that
# compiles the two files calls this (a function shares its caller's directory).
function(hl_report_frames)
	set_source_files_properties(${PROJECT_SOURCE_DIR}/src/refcount.c
		${PROJECT_SOURCE_DIR}/src/rcuref.c
		PROPERTIES COMPILE_OPTIONS "-fno-omit-frame-pointer;-fno-optimize-sibling-calls")
endfunction()
