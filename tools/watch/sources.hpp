// sources.hpp — where the hall monitor reads its PGN: files (rewritten in place, replaced by
// rename, appended), directories of .pgn files, and http:// URLs polled each on its own thread
// with back-off, so that a source that is down or slow never holds up the others.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace arbiter::watch {

/// One source's text as it is now, when it changed since the last poll.
struct SourceText {
    std::string name;  ///< the file's path or the URL
    std::string text;
};

class Sources {
public:
    /// `specs`: files, directories and http:// URLs. `interval`: how often a URL is asked.
    Sources(std::vector<std::string> specs, std::chrono::milliseconds interval);
    ~Sources();
    Sources(const Sources&) = delete;
    Sources& operator=(const Sources&) = delete;

    /// Every source whose text changed since the last poll (a file by its size, time and inode,
    /// then its bytes; a URL by its body). `problems` gets one line per new problem (a file that
    /// cannot be read, a URL that is down), not repeated while it lasts. With `wait_for_urls`,
    /// waits until every URL has been asked once (for --once).
    void poll(std::vector<SourceText>& changed, std::vector<std::string>& problems, bool wait_for_urls = false);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// True for "http://…".
bool is_url(const std::string& spec) noexcept;

}  // namespace arbiter::watch
