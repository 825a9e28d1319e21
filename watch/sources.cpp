// sources.cpp — files, directories, polled URLs and streams for the hall monitor.
#include "sources.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "poll_loop.hpp"
#include "url_feed.hpp"

namespace arbiter::watch {

bool is_url(const std::string& spec) noexcept {
    auto starts = [&](std::string_view p) {
        if (spec.size() < p.size()) return false;
        for (std::size_t i = 0; i < p.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(spec[i])) != p[i]) return false;
        return true;
    };
    return starts("http://") || starts("https://");
}

namespace {

// A file as last read: what says it may have changed, and a digest of its bytes.
struct FileSeen {
    std::int64_t mtime_ns = -1, size = -1;
    std::uint64_t inode = 0;
    std::size_t digest = 0;
    bool problem = false;
    bool read = false;  // read once at least: its deletion is news
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

struct Sources::Impl {
    std::vector<std::string> specs;
    SourceOptions options;
    std::map<std::string, FileSeen> files;
    std::map<std::string, bool> missing;  // a spec not there (reported once)
    Bell bell;                            // before the feeds that ring it: it outlives them
    std::vector<std::unique_ptr<UrlFeed>> urls;
    std::unique_ptr<PollLoop> loop;  // after the feeds it asks: gone before them

    void read_file(const std::string& path, std::vector<SourceText>& changed, std::vector<SourceProblem>& problems) {
        FileSeen& seen = files[path];
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            if (!seen.problem) problems.push_back({path, path + ": cannot be read (" + std::strerror(errno) + ")"});
            seen.problem = true;
            return;
        }
        const std::int64_t mtime = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        if (mtime == seen.mtime_ns && st.st_size == seen.size && st.st_ino == seen.inode && !seen.problem) return;
        std::ifstream in(path, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in && !in.eof()) {
            if (!seen.problem) problems.push_back({path, path + ": cannot be read"});
            seen.problem = true;
            return;
        }
        if (seen.problem) problems.push_back({path, path + ": readable again", false});
        seen.problem = false;
        seen.read = true;
        seen.mtime_ns = mtime, seen.size = st.st_size, seen.inode = st.st_ino;
        const std::size_t digest = std::hash<std::string>{}(text);
        if (digest == seen.digest && !text.empty()) return;
        seen.digest = digest;
        changed.push_back({path, std::move(text)});
    }

    // A file read before that is no longer there: gone, once (it is new again if it comes back).
    void forget(const std::string& path, std::vector<std::string>& gone) {
        const auto it = files.find(path);
        if (it == files.end()) return;
        if (it->second.read) gone.push_back(path);
        files.erase(it);
    }
};

Sources::Sources(std::vector<std::string> specs, std::vector<std::string> streams, SourceOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->options = options;
    std::set<std::string> asked;  // the same URL twice is one feed
    auto add_url = [&](const std::string& spec, UrlFeed::Mode mode) {
        std::string error;
        const auto url = parse_url(spec, error);
        if (!url) throw std::invalid_argument(spec + ": " + error);
        if (!asked.insert((mode == UrlFeed::Mode::stream ? "stream " : "") + url->text()).second) return;
        impl_->urls.push_back(std::make_unique<UrlFeed>(spec, *url, mode, impl_->options, impl_->bell));
    };
    for (const std::string& spec : specs) {
        if (is_url(spec))
            add_url(spec, UrlFeed::Mode::polled);
        else if (std::find(impl_->specs.begin(), impl_->specs.end(), spec) == impl_->specs.end())
            impl_->specs.push_back(spec);
    }
    for (const std::string& spec : streams) add_url(spec, UrlFeed::Mode::stream);
    std::vector<UrlFeed*> feeds;
    for (const auto& u : impl_->urls) feeds.push_back(u.get());
    if (!feeds.empty()) {
        // The loop's tick: a hundredth of a second, less for a shorter interval (a fortieth of it).
        PollLoop::Options po{.tls = options.tls};
        po.tick = std::clamp(options.interval / 40, std::chrono::milliseconds(1), std::chrono::milliseconds(10));
        impl_->loop = std::make_unique<PollLoop>(feeds, po);
    }
}

Sources::~Sources() = default;

void Sources::wait(std::chrono::steady_clock::time_point until) { impl_->bell.wait(until); }

void Sources::wake() { impl_->bell.ring(); }

void Sources::poll(std::vector<SourceText>& changed, std::vector<SourceProblem>& problems,
                   std::vector<std::string>& gone) {
    namespace fs = std::filesystem;
    for (const std::string& spec : impl_->specs) {
        std::error_code ec;
        const auto status = fs::status(spec, ec);
        if (ec || !fs::exists(status)) {
            if (!impl_->missing[spec])
                problems.push_back(
                    {spec, spec + (impl_->options.once ? ": not there" : ": not there (yet): watching for it")});
            impl_->missing[spec] = true;
            impl_->forget(spec, gone);
            continue;
        }
        if (impl_->missing[spec] && impl_->files.count(spec) == 0 && !fs::is_directory(status))
            problems.push_back({spec, spec + ": there now", false});
        impl_->missing[spec] = false;
        if (!fs::is_directory(status)) {
            impl_->read_file(spec, changed, problems);
            continue;
        }
        std::vector<std::string> names;
        for (fs::directory_iterator it(spec, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code fe;
            if (!it->is_regular_file(fe) || fe) continue;
            if (lower(it->path().extension().string()) != ".pgn") continue;
            names.push_back(it->path().string());
        }
        if (ec) {
            problems.push_back({spec, spec + ": cannot list the directory (" + ec.message() + ")"});
            continue;
        }
        std::sort(names.begin(), names.end());
        // Files of this directory read before and no longer listed are gone.
        const std::string prefix = (fs::path(spec) / "").string();
        std::vector<std::string> before;
        for (const auto& [path, seen] : impl_->files)
            if (path.rfind(prefix, 0) == 0 && path.find('/', prefix.size()) == std::string::npos)
                before.push_back(path);
        for (const std::string& path : before)
            if (!std::binary_search(names.begin(), names.end(), path)) impl_->forget(path, gone);
        for (const std::string& name : names) impl_->read_file(name, changed, problems);
    }
    if (impl_->options.once) {
        // Every URL asked once; a stream read until it is silent (bounded: its own timeouts).
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        for (auto& u : impl_->urls) u->wait_answered(until);
    }
    for (auto& u : impl_->urls) u->take(changed, problems, gone);
}

}  // namespace arbiter::watch
