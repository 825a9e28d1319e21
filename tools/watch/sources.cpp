// sources.cpp — files, directories and polled URLs for the hall monitor.
#include "sources.hpp"

#include <httplib.h>
#include <sys/stat.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

namespace arbiter::watch {

bool is_url(const std::string& spec) noexcept { return spec.rfind("http://", 0) == 0; }

namespace {

// A file as last read: what says it may have changed, and a digest of its bytes.
struct FileSeen {
    std::int64_t mtime_ns = -1, size = -1;
    std::uint64_t inode = 0;
    std::size_t digest = 0;
    bool problem = false;
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

struct Url {
    std::string spec, host, path;
    int port = 80;
    std::thread thread;
    // Guarded by Impl::mutex.
    std::string body;
    std::size_t digest = 0;
    bool fresh = false;
    std::uint64_t attempts = 0;
    std::string problem;  // the current one, "" when the last answer was good
    bool problem_new = false;
    bool recovered = false;
};

}  // namespace

struct Sources::Impl {
    std::vector<std::string> specs;
    std::chrono::milliseconds interval;
    std::map<std::string, FileSeen> files;
    std::map<std::string, bool> missing;  // a spec not there (reported once)
    std::vector<std::unique_ptr<Url>> urls;
    std::mutex mutex;
    std::condition_variable cv;
    bool stop = false;

    void read_file(const std::string& path, std::vector<SourceText>& changed, std::vector<std::string>& problems) {
        FileSeen& seen = files[path];
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            if (!seen.problem) problems.push_back(path + ": cannot be read (" + std::strerror(errno) + ")");
            seen.problem = true;
            return;
        }
        const std::int64_t mtime = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        if (mtime == seen.mtime_ns && st.st_size == seen.size && st.st_ino == seen.inode && !seen.problem) return;
        std::ifstream in(path, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in && !in.eof()) {
            if (!seen.problem) problems.push_back(path + ": cannot be read");
            seen.problem = true;
            return;
        }
        seen.problem = false;
        seen.mtime_ns = mtime, seen.size = st.st_size, seen.inode = st.st_ino;
        const std::size_t digest = std::hash<std::string>{}(text);
        if (digest == seen.digest && !text.empty()) return;
        seen.digest = digest;
        changed.push_back({path, std::move(text)});
    }

    void fetch_loop(Url& u) {
        httplib::Client client(u.host, u.port);
        client.set_connection_timeout(std::chrono::seconds(2));
        client.set_read_timeout(std::chrono::seconds(5));
        client.set_write_timeout(std::chrono::seconds(2));
        std::chrono::milliseconds backoff = interval;
        while (true) {
            std::string problem;
            std::string body;
            if (auto res = client.Get(u.path.c_str())) {
                if (res->status == 200)
                    body = std::move(res->body);
                else
                    problem = "HTTP status " + std::to_string(res->status);
            } else {
                problem = "no answer (" + httplib::to_string(res.error()) + " error)";
            }
            std::chrono::milliseconds wait = interval;
            {
                std::lock_guard lock(mutex);
                ++u.attempts;
                if (problem.empty()) {
                    if (!u.problem.empty()) u.recovered = true;
                    u.problem.clear();
                    backoff = interval;
                    const std::size_t digest = std::hash<std::string>{}(body);
                    if (digest != u.digest || u.attempts == 1) {
                        u.digest = digest;
                        u.body = std::move(body);
                        u.fresh = true;
                    }
                } else {
                    if (problem != u.problem) u.problem_new = true;
                    u.problem = problem;
                    // Back off: twice the last wait, at most 30 s.
                    backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(30));
                    wait = backoff;
                }
            }
            cv.notify_all();
            std::unique_lock lock(mutex);
            if (cv.wait_for(lock, wait, [&] { return stop; })) return;
        }
    }
};

Sources::Sources(std::vector<std::string> specs, std::chrono::milliseconds interval) : impl_(std::make_unique<Impl>()) {
    impl_->specs = std::move(specs);
    impl_->interval = interval;
    for (const std::string& spec : impl_->specs) {
        if (!is_url(spec)) continue;
        auto u = std::make_unique<Url>();
        u->spec = spec;
        std::string rest = spec.substr(7);
        const auto slash = rest.find('/');
        u->path = slash == std::string::npos ? "/" : rest.substr(slash);
        rest = rest.substr(0, slash);
        if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
            u->port = std::atoi(rest.c_str() + colon + 1);
            rest = rest.substr(0, colon);
        }
        u->host = rest;
        impl_->urls.push_back(std::move(u));
    }
    for (auto& u : impl_->urls) {
        Url* p = u.get();
        p->thread = std::thread([this, p] { impl_->fetch_loop(*p); });
    }
}

Sources::~Sources() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stop = true;
    }
    impl_->cv.notify_all();
    for (auto& u : impl_->urls)
        if (u->thread.joinable()) u->thread.join();
}

void Sources::poll(std::vector<SourceText>& changed, std::vector<std::string>& problems, bool wait_for_urls) {
    namespace fs = std::filesystem;
    for (const std::string& spec : impl_->specs) {
        if (is_url(spec)) continue;
        std::error_code ec;
        const auto status = fs::status(spec, ec);
        if (ec || !fs::exists(status)) {
            if (!impl_->missing[spec]) problems.push_back(spec + ": not there (yet): watching for it");
            impl_->missing[spec] = true;
            continue;
        }
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
        if (ec) problems.push_back(spec + ": cannot list the directory (" + ec.message() + ")");
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) impl_->read_file(name, changed, problems);
    }
    std::unique_lock lock(impl_->mutex);
    if (wait_for_urls)
        impl_->cv.wait(lock, [&] {
            return std::all_of(impl_->urls.begin(), impl_->urls.end(), [](const auto& u) { return u->attempts > 0; });
        });
    for (auto& u : impl_->urls) {
        if (u->problem_new) problems.push_back(u->spec + ": " + u->problem + " (retrying with back-off)");
        if (u->recovered) problems.push_back(u->spec + ": answering again");
        u->problem_new = u->recovered = false;
        if (!u->fresh) continue;
        u->fresh = false;
        changed.push_back({u->spec, u->body});
    }
}

}  // namespace arbiter::watch
