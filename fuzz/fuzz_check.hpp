// fuzz_check.hpp — what the fuzz targets share: FUZZ_CHECK(condition) names the invariant that
// failed, with file and line, on stderr and aborts, so that libFuzzer saves the input and the
// replay test (replay_main.cpp) fails naming the input that broke it.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace arbiter::fuzz {

[[noreturn]] inline void invariant_failed(const char* what, const char* file, int line) {
    std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", what, file, line);
    std::abort();
}

}  // namespace arbiter::fuzz

#define FUZZ_CHECK(condition) \
    ((condition) ? static_cast<void>(0) : ::arbiter::fuzz::invariant_failed(#condition, __FILE__, __LINE__))
