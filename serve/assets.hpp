// assets.hpp — the console's files (web/), embedded in the binary at build time by
// cmake/embed_assets.cmake, so that `arbiter serve` needs nothing on disk and works offline.
#pragma once

#include <cstddef>
#include <string>

namespace arbiter::serve {

struct Asset {
    const char* content_type;
    const char* data;
    std::size_t size;
};

/// The file served at `path` ("/index.html", "/app.js", …), or null. Only the embedded names
/// exist: a path such as "/../x" or "/%2e%2e/x" is simply not one of them.
const Asset* find_asset(const std::string& path);

}  // namespace arbiter::serve
