// The smallest real use of the installed journal: a session stored in a fresh file, one event
// appended, the file reopened and the session replayed.
#include <arbiter/journal.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

int main() {
    namespace fs = std::filesystem;
    const fs::path path = fs::temp_directory_path() / "arbiter-journal-consumer.db";
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
    {
        auto journal = arbiter::Journal::open(path.string(), arbiter::Journal::Mode::create_if_missing);
        if (!journal) return 1;
        auto session = arbiter::JournaledSession::create(*journal, arbiter::SessionConfig{});
        if (!session) return 2;
        arbiter::Event e;
        e.type = arbiter::EventType::move;
        e.move = "e4";
        e.at_ms = 1000;
        if (session->apply(e)) return 3;
    }
    auto journal = arbiter::Journal::open(path.string(), arbiter::Journal::Mode::open_existing);
    if (!journal) return 4;
    auto session = arbiter::JournaledSession::open(*journal, 1);
    if (!session || session->session().moves().size() != 1) return 5;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
    std::puts("journal consumer: ok");
    return 0;
}
