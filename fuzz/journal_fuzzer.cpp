// Fuzz target for opening a journal: the bytes are written to a temporary file (and, after a
// line "ARBITER-FUZZ-WAL", the rest to its `-wal` file beside it), which is opened read-only and
// then for writing, its sessions listed, loaded and replayed, and a session written to it. Whatever
// the bytes, this must hold: every refusal has a stable code and a message; a read-only open, and
// every open that is refused, leaves the file and its `-wal` byte for byte as they were; a session
// that loads replays to a session whose journaled digests match, or is refused with a code; a
// session and a move appended to a journal that opened read back from a second connection.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "arbiter/journal.hpp"
#include "fuzz_check.hpp"

namespace {

using namespace arbiter;
namespace fs = std::filesystem;

constexpr std::string_view wal_marker = "\nARBITER-FUZZ-WAL\n";

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, std::string_view data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    FUZZ_CHECK(out.good());
}

void check_error(const JournalError& e) {
    FUZZ_CHECK(code_name(e.code) != nullptr);
    FUZZ_CHECK(!e.message.empty());
}

// Lists, loads and replays what the journal holds.
void read_sessions(const Journal& j) {
    auto ids = j.sessions();
    if (!ids) return check_error(ids.error());
    std::size_t n = 0;
    for (SessionId id : *ids) {
        if (++n > 16) break;
        auto stored = j.load(id);
        if (!stored) {
            check_error(stored.error());
            continue;
        }
        FUZZ_CHECK(stored->id == id);
        FUZZ_CHECK(stored->events.size() == stored->digests.size());
        auto s = replay(*stored);
        if (!s) {
            check_error(s.error());
            continue;
        }
        FUZZ_CHECK(s->events_applied() == stored->events.size());
        if (!stored->digests.empty()) FUZZ_CHECK(s->digest() == stored->digests.back());
    }
}

// A journal that opened for writing takes a new session and a move, and a second connection
// reads them back: what an append reported as written is there.
void write_and_read_back(Journal& j, const std::string& path) {
    auto js = JournaledSession::create(j, SessionConfig{});
    if (!js) return check_error(js.error());
    Event e;
    e.type = EventType::move;
    e.move = "e4";
    if (auto err = js->apply(e)) return check_error(*err);
    auto again = Journal::open(path, Journal::Mode::read_only, 0);
    FUZZ_CHECK(again.has_value());
    auto stored = again->load(js->id());
    FUZZ_CHECK(stored.has_value());
    FUZZ_CHECK(stored->events.size() == 1 && stored->events[0] == e);
    FUZZ_CHECK(stored->digests.back() == js->session().digest());
}

struct TempJournal {
    std::string path;
    TempJournal() {
        const fs::path dir = fs::temp_directory_path() / ("arbiter-journal-fuzz-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        path = (dir / "j.arbiter").string();
        remove_files();
    }
    void remove_files() const {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
    }
    ~TempJournal() {
        remove_files();
        std::error_code ec;
        fs::remove(fs::path(path).parent_path(), ec);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const TempJournal temp;
    const std::string& path = temp.path;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string_view wal;
    const bool has_wal = text.find(wal_marker) != std::string_view::npos;
    if (has_wal) {
        const std::size_t at = text.find(wal_marker);
        wal = text.substr(at + wal_marker.size());
        text = text.substr(0, at);
    }
    temp.remove_files();
    write_bytes(path, text);
    if (has_wal) write_bytes(path + "-wal", wal);
    auto unchanged = [&] {
        FUZZ_CHECK(bytes_of(path) == text);
        if (has_wal) FUZZ_CHECK(bytes_of(path + "-wal") == wal);
    };

    {
        auto ro = Journal::open(path, Journal::Mode::read_only, 0);
        if (ro) {
            read_sessions(*ro);
        } else {
            check_error(ro.error());
        }
    }
    unchanged();
    auto rw = Journal::open(path, Journal::Mode::open_existing, 0);
    if (!rw) {
        check_error(rw.error());
        unchanged();
    } else {
        read_sessions(*rw);
        write_and_read_back(*rw, path);
    }
    temp.remove_files();
    return 0;
}
