// SPDX-License-Identifier: MIT
// libFuzzer's driver entry point (compiler-rt, linked by `-sanitize=fuzzer`). Declared here
// so `logbook-fuzz` can keep its own `main` (harness choice, corpus replay without the
// fuzzer) and hand the rest of the command line to libFuzzer. Nothing to link otherwise.
#ifndef CLOGBOOK_FUZZER_SHIM_H
#define CLOGBOOK_FUZZER_SHIM_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
