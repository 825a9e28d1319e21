// audit_pipeline_test.cpp — the audit pipeline's sink and inputs (issue 61): the records a sink
// is handed are the CLI's output whatever the threads and batch sizes; inputs given as chunks or
// as bytes read as the file; read errors among the records in their place; an exception of the
// inputs rethrown after the records before it; stop() from another thread; a sink that does not
// take its records holds the pipeline back (bounded batches in flight, bounded bytes read).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "audit/audit_pipeline.hpp"

namespace {

using namespace arbiter;
using namespace arbiter::face;

// The records (numbered as the CLI writes them) and read errors a pipeline gives, in order.
struct Collect final : AuditSink {
    std::mutex mu;
    std::vector<std::string> events;
    std::optional<std::uint64_t> ended;
    void record(std::uint64_t game, std::uint64_t game_in_file, const std::string& text) override {
        std::ostringstream line;
        write_numbered(line, AuditFormat::jsonl, game, game_in_file, text);
        std::lock_guard lock(mu);
        events.push_back(line.str());
    }
    void pgn(std::string_view) override {}
    void input_failed(const arbiter::InputError& e, bool opened) override {
        std::lock_guard lock(mu);
        events.push_back(std::string("error ") + code_name(e.code) + (opened ? " opened" : " unopened"));
    }
    void end(std::uint64_t games) override { ended = games; }
    std::size_t size() {
        std::lock_guard lock(mu);
        return events.size();
    }
    std::string joined() {
        std::string out;
        for (const auto& e : events) out += e;
        return out;
    }
};

std::string games(int n, int from = 0) {
    std::string out;
    for (int k = from; k < from + n; ++k)
        out += "[Event \"g" + std::to_string(k) + "\"]\n[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 " +
               "4. Ng1 Ng8 5. e4 {x} e5 1-0\n\n";
    return out;
}

struct TempFile {
    std::string path;
    explicit TempFile(const std::string& text, const std::string& name) {
        path = (std::filesystem::temp_directory_path() / ("arbiter_pipeline_" + name)).string();
        std::ofstream(path, std::ios::binary) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

AuditConfig config(std::vector<std::string> files, std::size_t batch_bytes, std::uint64_t batch_games = 0) {
    AuditConfig cfg;
    cfg.files = std::move(files);
    cfg.batch_bytes = batch_bytes;
    cfg.batch_games = batch_games;
    return cfg;
}

// An input of `text` handed over in chunks of `size` bytes.
AuditInput chunks(const std::string& name, std::string text, std::size_t size) {
    return {name, [name, text, size]() -> Expected<std::unique_ptr<ByteSource>, arbiter::InputError> {
                auto at = std::make_shared<std::size_t>(0);
                return chunk_input(name, [text, size, at]() -> Expected<std::string, arbiter::InputError> {
                    const std::string part = text.substr(*at, size);
                    *at += part.size();
                    return part;
                });
            }};
}

AuditInputs inputs_of(std::vector<AuditInput> inputs) {
    auto left = std::make_shared<std::vector<AuditInput>>(std::move(inputs));
    auto next = std::make_shared<std::size_t>(0);
    return [left, next]() -> std::optional<AuditInput> {
        if (*next == left->size()) return std::nullopt;
        return (*left)[(*next)++];
    };
}

TEST(AuditPipeline, TheSinkIsHandedTheStreamOutput) {
    const TempFile a(games(40), "a.pgn"), b(games(7, 100), "b.pgn");
    const AuditConfig whole = config({a.path, b.path}, 1 << 20);
    std::ostringstream want;
    AuditPipeline(whole, want, nullptr, 1, false).run();
    ASSERT_NE(want.str().find("\"game\":47,\"game_in_file\":7,"), std::string::npos);
    for (unsigned threads : {1u, 4u})
        for (std::size_t bytes : {std::size_t{1}, std::size_t{300}, std::size_t{1} << 20}) {
            const AuditConfig cfg = config({a.path, b.path}, bytes, bytes == 300 ? 3 : 0);
            Collect sink;
            AuditPipeline pipeline(cfg, sink, threads, false);
            EXPECT_TRUE(pipeline.run());
            EXPECT_EQ(sink.joined(), want.str()) << threads << " threads, " << bytes << " bytes";
            EXPECT_EQ(sink.ended, 47u);
            EXPECT_FALSE(pipeline.no_games());
            EXPECT_LE(pipeline.peak_in_flight(), AuditPipeline::in_flight_limit(threads));
        }
}

TEST(AuditPipeline, ChunksAndBytesReadAsTheFile) {
    const std::string text = games(30);
    const TempFile a(text, "c.pgn");
    std::ostringstream want;
    AuditPipeline(config({a.path, a.path, a.path}, 500), want, nullptr, 2, false).run();
    const AuditConfig cfg = config({}, 500);
    Collect sink;
    AuditPipeline pipeline(cfg, sink, 2, false,
                           inputs_of({{a.path, {}},
                                      chunks(a.path, text, 7),
                                      {a.path, [&]() -> Expected<std::unique_ptr<ByteSource>, arbiter::InputError> {
                                           return owned_memory_input(text, a.path);
                                       }}}));
    EXPECT_TRUE(pipeline.run());
    EXPECT_EQ(sink.joined(), want.str());
}

TEST(AuditPipeline, ReadErrorsComeInTheirPlace) {
    const std::string zip = std::string("PK\x03\x04", 4) + std::string(60, 'x');
    for (bool stop_at_error : {false, true}) {
        AuditConfig cfg = config({}, 100, 1);
        cfg.stop_at_read_error = stop_at_error;
        Collect sink;
        AuditPipeline pipeline(cfg, sink, 3, false,
                               inputs_of({chunks("-", games(5), 64),
                                          {"/no/such/dir/x.pgn", {}},
                                          chunks("-", zip, 1000),
                                          chunks("-", games(2), 1000)}));
        EXPECT_FALSE(pipeline.run());
        ASSERT_GE(sink.events.size(), 6u);
        EXPECT_EQ(sink.events[5], "error cannot_open unopened");
        if (stop_at_error) {
            EXPECT_EQ(sink.events.size(), 6u);  // nothing read after the input that failed
            continue;
        }
        ASSERT_EQ(sink.events.size(), 9u);
        EXPECT_EQ(sink.events[6], "error not_text opened");
        EXPECT_EQ(sink.events[8].rfind("{\"game\":7,\"game_in_file\":2,", 0), 0u) << sink.events[8];
        EXPECT_FALSE(pipeline.no_games());
    }
    Collect sink;
    AuditPipeline empty(config({}, 100), sink, 2, false, inputs_of({chunks("-", "", 10), chunks("-", "\n\n", 10)}));
    EXPECT_TRUE(empty.run());
    EXPECT_TRUE(empty.no_games());
}

TEST(AuditPipeline, AnExceptionOfTheInputsComesAfterTheRecordsBefore) {
    const AuditConfig cfg = config({}, 1, 1);
    Collect sink;
    int calls = 0;
    AuditPipeline pipeline(cfg, sink, 4, false, [&]() -> std::optional<AuditInput> {
        if (++calls == 3) throw std::runtime_error("no third input");
        return chunks("-", games(20), 50);
    });
    EXPECT_THROW(pipeline.run(), std::runtime_error);
    EXPECT_EQ(sink.events.size(), 40u);
    EXPECT_FALSE(sink.ended);
}

// An input that never ends: a game after another.
AuditInput endless(std::atomic<bool>* stopped = nullptr) {
    return {"-", [stopped]() -> Expected<std::unique_ptr<ByteSource>, arbiter::InputError> {
                auto k = std::make_shared<int>(0);
                return chunk_input("-", [k, stopped]() -> Expected<std::string, arbiter::InputError> {
                    if (stopped && *stopped) return std::string();
                    *k += 20;
                    return games(20, *k);
                });
            }};
}

TEST(AuditPipeline, StopFromAnotherThread) {
    const AuditConfig cfg = config({}, 4096);
    Collect sink;
    AuditPipeline pipeline(cfg, sink, 3, false, inputs_of({endless()}));
    std::exception_ptr thrown;
    std::thread run([&] {
        try {
            pipeline.run();
        } catch (...) {
            thrown = std::current_exception();
        }
    });
    while (sink.size() < 100) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    pipeline.stop();
    run.join();
    ASSERT_TRUE(thrown);
    EXPECT_THROW(std::rethrow_exception(thrown), AuditStopped);
}

// A sink that takes 5 records and then waits until it is let go (then stops the audit).
struct Stuck final : AuditSink {
    std::mutex mu;
    std::condition_variable cv;
    std::uint64_t records = 0;
    bool released = false;
    void record(std::uint64_t, std::uint64_t, const std::string&) override {
        std::unique_lock lock(mu);
        if (++records < 5) return;
        cv.notify_all();
        cv.wait(lock, [&] { return released; });
        throw AuditStopped{};
    }
    void pgn(std::string_view) override {}
    void input_failed(const arbiter::InputError&, bool) override {}
    void end(std::uint64_t) override {}
};

TEST(AuditPipeline, ASinkThatWaitsHoldsThePipelineBack) {
    const unsigned threads = 2;
    const AuditConfig cfg = config({}, 2048);
    Stuck sink;
    AuditPipeline pipeline(cfg, sink, threads, false, inputs_of({endless()}));
    std::thread run([&] { EXPECT_THROW(pipeline.run(), AuditStopped); });
    {
        std::unique_lock lock(sink.mu);
        sink.cv.wait(lock, [&] { return sink.records >= 5; });
    }
    // The reading stops once the batches in flight are at their bound: the bytes read settle.
    std::uint64_t bytes = 0;
    for (int k = 0; k < 100 && bytes != pipeline.bytes(); ++k) {
        bytes = pipeline.bytes();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(bytes, pipeline.bytes());
    EXPECT_LE(pipeline.peak_in_flight(), AuditPipeline::in_flight_limit(threads));
    // At most a read chunk (256 KiB) per batch in flight and a few more.
    EXPECT_LT(bytes, (AuditPipeline::in_flight_limit(threads) + 4) * (std::uint64_t{1} << 18));
    {
        std::lock_guard lock(sink.mu);
        sink.released = true;
    }
    sink.cv.notify_all();
    run.join();
}

}  // namespace
