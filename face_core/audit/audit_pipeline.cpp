// audit_pipeline.cpp — the threaded audit of PGN inputs (audit_pipeline.hpp).
#include "audit/audit_pipeline.hpp"

#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "audit/piece_cut.hpp"

namespace arbiter::face {

namespace {

// The refusal of an input whose start is not text (a ZIP, an executable, a NUL byte), as
// open_input finds it by content in the first 8 KiB; nullopt for text.
std::optional<arbiter::InputError> not_text_start(std::string_view start, const std::string& name) {
    const auto src = memory_input(start.substr(0, 8192), {}, name);
    char buf[4096];
    for (;;) {
        const auto n = src->read(buf, sizeof buf);
        if (!n) return n.error().code == arbiter::InputError::Code::not_text ? std::optional(n.error()) : std::nullopt;
        if (*n == 0) return std::nullopt;
    }
}

class ChunkSource final : public ByteSource {
public:
    ChunkSource(std::string name, std::function<Expected<std::string, arbiter::InputError>()> next)
        : name_(std::move(name)), next_(std::move(next)) {}

    Expected<std::size_t, arbiter::InputError> read(char* buffer, std::size_t size) override {
        while (at_ == chunk_.size()) {
            if (done_) return std::size_t{0};
            auto next = next_();
            if (!next) {
                done_ = true;
                return Unexpected(next.error());
            }
            chunk_ = std::move(*next);
            at_ = 0;
            if (chunk_.empty()) {
                done_ = true;
                return std::size_t{0};
            }
            if (first_) {
                first_ = false;
                if (auto refused = not_text_start(chunk_, name_)) {
                    done_ = true;
                    chunk_.clear();
                    return Unexpected(std::move(*refused));
                }
            }
            consumed_ += chunk_.size();
        }
        const std::size_t n = std::min(size, chunk_.size() - at_);
        std::memcpy(buffer, chunk_.data() + at_, n);
        at_ += n;
        return n;
    }
    [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
    [[nodiscard]] std::optional<std::uint64_t> total() const noexcept override { return std::nullopt; }
    [[nodiscard]] const std::string& name() const noexcept override { return name_; }

private:
    std::string name_;
    std::function<Expected<std::string, arbiter::InputError>()> next_;
    std::string chunk_;
    std::size_t at_ = 0;
    std::uint64_t consumed_ = 0;
    bool first_ = true, done_ = false;
};

class OwnedMemory final : public ByteSource {
public:
    OwnedMemory(std::string data, std::string name)
        : data_(std::move(data)), src_(memory_input(data_, {}, std::move(name))) {}
    Expected<std::size_t, arbiter::InputError> read(char* buffer, std::size_t size) override {
        return src_->read(buffer, size);
    }
    std::string_view lend() override { return src_->lend(); }
    [[nodiscard]] std::uint64_t consumed() const noexcept override { return src_->consumed(); }
    [[nodiscard]] std::optional<std::uint64_t> total() const noexcept override { return src_->total(); }
    [[nodiscard]] const std::string& name() const noexcept override { return src_->name(); }

private:
    std::string data_;
    std::unique_ptr<ByteSource> src_;
};

}  // namespace

std::unique_ptr<ByteSource> chunk_input(std::string name,
                                        std::function<Expected<std::string, arbiter::InputError>()> next) {
    return std::make_unique<ChunkSource>(std::move(name), std::move(next));
}

std::unique_ptr<ByteSource> owned_memory_input(std::string data, std::string name) {
    return std::make_unique<OwnedMemory>(std::move(data), std::move(name));
}

namespace {

// What a format writes before its first record (face_core compiles with -Werror=switch).
std::string_view header_of(AuditFormat format) {
    switch (format) {
        case AuditFormat::csv: return csv_header;
        case AuditFormat::jsonl:
        case AuditFormat::summary: return {};
    }
    return {};
}

}  // namespace

void StreamSink::record(std::uint64_t game, std::uint64_t game_in_file, const std::string& text) {
    if (!header_written_) out_ << header_of(format_);
    header_written_ = true;
    write_numbered(out_, format_, game, game_in_file, text);
    if (!out_) throw OutputFailed{errno};
}

void StreamSink::pgn(std::string_view text) {
    if (!pgn_) return;
    pgn_->write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!*pgn_) throw OutputFailed{errno, true};
}

void StreamSink::input_failed(const arbiter::InputError& error, bool opened) {
    err_ << "arbiter: " << error.describe() << (opened ? " (the games before it were audited)" : "") << '\n';
}

void StreamSink::end(std::uint64_t games) {
    // The CSV header comes before the first row, or at the end when games were read but had no
    // row (none for an input without games, which is an error).
    if (!header_written_ && games > 0) out_ << header_of(format_);
}

class AuditPipeline::Impl {
public:
    Impl(const AuditConfig& cfg, AuditSink& sink, unsigned threads, bool progress, AuditInputs inputs)
        : cfg_(cfg), sink_(sink), inputs_(std::move(inputs)), threads_(threads), progress_(progress) {}

    // Returns false when an input could not be read to its end. An exception on any thread (out
    // of memory, a failed write) stops every thread and is rethrown here; one while reading an
    // input, once the batches before it are written.
    bool run() {
        start_ = last_progress_ = std::chrono::steady_clock::now();
        if (!inputs_) total_bytes_ = known_total_bytes(cfg_.files);
        std::vector<std::thread> workers;
        bool ok = true;
        try {
            for (unsigned t = 0; t < threads_; ++t) workers.emplace_back([this] { work(); });
            for (std::size_t f = 0; !failed() && (ok || !cfg_.stop_at_read_error); ++f) {
                auto input = next_input(f);
                if (!input) break;
                ok &= read_input(std::move(*input));
            }
        } catch (...) {
            BatchResult stop;
            stop.stop = std::current_exception();
            submit_result(std::move(stop));
        }
        {
            std::lock_guard lock(mu_);
            done_reading_ = true;
        }
        work_cv_.notify_all();
        for (auto& w : workers) w.join();
        if (progress_) std::cerr << "\r\033[K";
        if (error_) std::rethrow_exception(error_);
        ok_ = ok;
        sink_.end(games_written_);
        return ok;
    }

    void stop() { fail(std::make_exception_ptr(AuditStopped{})); }
    const AuditCounts& counts() const { return total_; }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    std::uint64_t bytes() const { return bytes_read_.load(std::memory_order_relaxed); }
    std::uint64_t games_read() const { return games_written_; }
    std::uint64_t pgn_games() const { return pgn_games_; }
    bool no_games() const { return ok_ && games_written_ == 0; }
    // Without the lock, which a sink that blocks may hold.
    std::uint64_t peak_in_flight() const { return peak_in_flight_.load(std::memory_order_relaxed); }

private:
    // A batch without a game boundary grows to this much over the batch size; then it is streamed.
    static constexpr std::size_t stream_after = 4 << 20;
    // Bytes kept before the unsent text of a stream, for the boundary test to look back on.
    static constexpr std::size_t stream_context = 4096;
    static constexpr std::size_t read_chunk = 1 << 18;

    // The sum of the sizes of the inputs, when every one is a regular file (for the ETA).
    static std::uint64_t known_total_bytes(const std::vector<std::string>& files) {
        std::uint64_t total = 0;
        for (const auto& f : files) {
            std::error_code ec;
            if (f == "-" || !std::filesystem::is_regular_file(f, ec)) return 0;
            total += std::filesystem::file_size(f, ec);
            if (ec) return 0;
        }
        return total;
    }

    std::optional<AuditInput> next_input(std::size_t f) {
        if (inputs_) return inputs_();
        if (f >= cfg_.files.size()) return std::nullopt;
        return AuditInput{cfg_.files[f], {}};
    }

    bool read_input(AuditInput input) {
        // The batches point at their input's name: a deque keeps it in place as inputs are added.
        const std::size_t f = names_.size();
        const std::string& name = names_.emplace_back(std::move(input.name));
        auto src = input.open ? input.open() : open_input(name);
        if (!src) {
            BatchResult failed;
            failed.file = f;
            failed.input_error = src.error();
            failed.opened = false;
            submit_result(std::move(failed));
            return false;
        }
        std::string pending = take_buffer();
        TextPlace at;                                         // where `pending` starts in the file
        CutRule batches(cfg_.batch_games, cfg_.batch_bytes);  // whole batches of at least batch_bytes
        pgn::BoundaryFinder boundaries;                       // the end of a streamed batch
        std::shared_ptr<Stream> stream;                       // while a batch is being streamed
        struct AbandonOnThrow {
            std::shared_ptr<Stream>& stream;
            ~AbandonOnThrow() {
                if (stream) stream->abandon();
            }
        } guard{stream};
        std::size_t context = 0;  // with a stream: bytes of `pending` already sent
        std::optional<arbiter::InputError> error;
        std::vector<char> buf(read_chunk);
        // Sends pending[context, to) into the stream.
        auto send = [&](std::size_t to) {
            const std::string_view part = std::string_view(pending).substr(context, to - context);
            at.advance(part);
            stream->push(std::string(part));
        };
        for (;;) {
            auto n = (*src)->read(buf.data(), buf.size());
            if (!n) {
                error = n.error();
                break;
            }
            if (*n == 0 || failed()) break;
            pending.append(buf.data(), *n);
            bytes_read_.fetch_add(*n, std::memory_order_relaxed);
            for (;;) {
                if (!stream) {
                    cut_batches(f, name, pending, at, batches);
                    if (pending.size() <= cfg_.batch_bytes + stream_after) break;
                    // No game boundary for megabytes: this batch is streamed to one worker.
                    stream = std::make_shared<Stream>();
                    submit(Batch{next_seq_++, f, {}, at.line, at.offset, false, std::nullopt, stream, &name});
                    context = 0;
                    boundaries.reset();
                }
                const std::size_t cut = boundaries.find(pending, std::max<std::size_t>(context, 1));
                if (cut == std::string::npos) {
                    // Send all but the last bytes (a boundary may start in them), and keep some
                    // of the text sent for the boundary test to look back on.
                    constexpr std::size_t keep = 8;
                    const std::size_t to = pending.size() > context + keep ? pending.size() - keep : context;
                    if (to > context) send(to);
                    const std::size_t from = to > stream_context ? to - stream_context : 0;
                    pending.erase(0, from);
                    context = to - from;
                    boundaries.reset();
                    break;
                }
                send(cut);
                stream->close(std::nullopt);
                stream.reset();
                pending.erase(0, cut);
                context = 0;
                boundaries.reset();
                batches.cut_made();
            }
            show_progress((*src)->consumed());
        }
        if (stream) {
            send(pending.size());
            stream->close(error);
            stream.reset();
        } else if (!pending.empty() || error) {
            submit(Batch{next_seq_++, f, std::move(pending), at.line, at.offset, false, error, nullptr, &name});
        }
        consumed_before_ += (*src)->consumed();
        return !error;
    }

    // Cuts whole batches of at least batch_bytes off the front of `pending`, at game boundaries.
    void cut_batches(std::size_t f, const std::string& name, std::string& pending, TextPlace& at, CutRule& rule) {
        for (;;) {
            const std::size_t cut = rule.cut(pending);
            if (cut == std::string::npos) return;
            // The batch keeps this buffer; the text after the cut moves to a recycled one.
            std::string rest = take_buffer();
            rest.append(pending, cut, std::string::npos);
            pending.resize(cut);
            const TextPlace batch_at = at;
            at.advance(pending);
            submit(Batch{next_seq_++, f, std::move(pending), batch_at.line, batch_at.offset, true, std::nullopt,
                         nullptr, &name});
            pending = std::move(rest);
            rule.cut_made();
        }
    }

    // A buffer for the next batch: a recycled one (its memory already mapped in) or a new one
    // with room for a whole batch, so that filling it never reallocates.
    std::string take_buffer() {
        {
            std::lock_guard lock(mu_);
            if (!spare_.empty()) {
                std::string s = std::move(spare_.back());
                spare_.pop_back();
                return s;
            }
        }
        std::string s;
        s.reserve(std::min(cfg_.batch_bytes, std::size_t{64} << 20) + 2 * read_chunk);
        return s;
    }

    // Waits for room among the batches in flight (mu_ held by `lock`); false once the run failed.
    bool wait_for_room(std::unique_lock<std::mutex>& lock, std::uint64_t seq) {
        space_cv_.wait(lock, [this] { return queue_.size() + results_.size() < 2 * threads_ + 2 || error_; });
        if (error_) return false;
        if (seq + 1 - next_write_ > peak_in_flight_) peak_in_flight_ = seq + 1 - next_write_;
        return true;
    }

    void submit(Batch b) {
        std::unique_lock lock(mu_);
        if (!wait_for_room(lock, b.seq)) {
            if (b.stream) b.stream->abandon();
            return;
        }
        queue_.push_back(std::move(b));
        work_cv_.notify_one();
    }

    // A result that needs no audit (an input that cannot be opened; an exception while reading,
    // `stop`, rethrown in its turn), written in its turn among the batches.
    void submit_result(BatchResult r) {
        try {
            std::unique_lock lock(mu_);
            const std::uint64_t seq = next_seq_++;
            if (!wait_for_room(lock, seq)) return;
            results_.emplace(seq, std::move(r));
            write_ready();
        } catch (...) {
            fail(std::current_exception());
        }
    }

    bool failed() {
        std::lock_guard lock(mu_);
        return error_ != nullptr;
    }

    // Records the first exception and wakes every thread so that all of them stop.
    void fail(std::exception_ptr e) {
        std::lock_guard lock(mu_);
        if (!error_) error_ = std::move(e);
        for (auto& b : queue_)
            if (b.stream) b.stream->abandon();
        queue_.clear();
        work_cv_.notify_all();
        space_cv_.notify_all();
    }

    void work() {
        GameRecord record;
        pgn::ParsedGame game;
        for (;;) {
            Batch b;
            {
                std::unique_lock lock(mu_);
                work_cv_.wait(lock, [this] { return !queue_.empty() || done_reading_ || error_; });
                if (queue_.empty() || error_) return;
                b = std::move(queue_.front());
                queue_.pop_front();
            }
            try {
                if (b.stream)
                    run_stream(b, record, game);
                else
                    run_batch(b, record, game);
            } catch (...) {
                if (b.stream) b.stream->abandon();
                fail(std::current_exception());
                return;
            }
        }
    }

    void run_batch(Batch& b, GameRecord& record, pgn::ParsedGame& game) {
        BatchResult r;
        r.file = b.file;
        r.input_error = b.error;
        audit_batch(b, cfg_, record, game, r.pgn, r.pgn_games,
                    [&](const pgn::ParsedGame& g, const audit::GameAudit& result, bool selected) {
                        ++r.games_read;
                        if (!selected) {
                            if (cfg_.format != AuditFormat::summary) r.lines.emplace_back();
                            return;
                        }
                        r.counts.add_game(g, result);
                        if (cfg_.format != AuditFormat::summary) r.lines.emplace_back(format_game(b, cfg_, g, result));
                    });
        std::unique_lock lock(mu_);
        if (spare_.size() < 2 * threads_ + 4) {
            b.text.clear();
            spare_.push_back(std::move(b.text));
        }
        results_.emplace(b.seq, std::move(r));
        write_ready();
    }

    // A streamed batch is written as its games are audited, once every batch before it is.
    void run_stream(Batch& b, GameRecord& record, pgn::ParsedGame& game) {
        {
            std::unique_lock lock(mu_);
            space_cv_.wait(lock, [&] { return next_write_ == b.seq || error_; });
            if (error_) return b.stream->abandon();
        }
        std::string pgn;
        std::uint64_t pgn_games = 0;
        audit_batch(b, cfg_, record, game, pgn, pgn_games,
                    [&](const pgn::ParsedGame& g, const audit::GameAudit& result, bool selected) {
                        const std::string text = selected ? format_game(b, cfg_, g, result) : std::string();
                        std::lock_guard lock(mu_);
                        count_game(b.file);
                        if (!text.empty()) sink_.record(games_written_, game_in_file_, text);
                        write_pgn(pgn);
                        if (selected) total_.add_game(g, result);
                    });
        std::lock_guard lock(mu_);
        write_pgn(pgn);
        pgn_games_ += pgn_games;
        if (const auto error = b.stream->error()) sink_.input_failed(*error, true);
        ++next_write_;
        write_ready();
    }

    // Writes the results that are next in order (mu_ held).
    void write_ready() {
        while (!results_.empty() && results_.begin()->first == next_write_) {
            BatchResult ready = std::move(results_.begin()->second);
            results_.erase(results_.begin());
            ++next_write_;
            for (const auto& l : ready.lines) {
                count_game(ready.file);
                if (l) sink_.record(games_written_, game_in_file_, *l);
            }
            write_pgn(ready.pgn);
            pgn_games_ += ready.pgn_games;
            if (cfg_.format == AuditFormat::summary) games_written_ += ready.games_read;
            total_.add(ready.counts);
            if (ready.input_error) sink_.input_failed(*ready.input_error, ready.opened);
            if (ready.stop) std::rethrow_exception(ready.stop);
        }
        space_cv_.notify_all();
    }

    // Gives (and empties) --pgn-out text to the sink (mu_ held).
    void write_pgn(std::string& text) {
        if (text.empty()) return;
        sink_.pgn(text);
        text.clear();
    }

    // The numbers of the next game written, over all inputs and in its file (mu_ held).
    void count_game(std::size_t file) {
        if (file != written_file_) {
            written_file_ = file;
            game_in_file_ = 0;
        }
        ++games_written_;
        ++game_in_file_;
    }

    // progress_line() on stderr, twice a second at most; the ETA
    // is over all the inputs (when their sizes are known) and only once a game was audited.
    void show_progress(std::uint64_t consumed) {
        if (!progress_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_progress_ < std::chrono::milliseconds(500)) return;
        std::uint64_t games;
        {
            std::lock_guard lock(mu_);
            games = total_.games;
        }
        if (games == 0) return;  // no "0 games" line first
        last_progress_ = now;
        std::fprintf(stderr, "\r\033[K%s",
                     progress_line(consumed_before_ + consumed, total_bytes_, games, seconds()).c_str());
        std::fflush(stderr);
    }

    const AuditConfig cfg_;  // a copy: the caller's may be a temporary
    AuditSink& sink_;
    AuditInputs inputs_;
    unsigned threads_;
    bool progress_;
    std::mutex mu_;
    std::condition_variable work_cv_, space_cv_;
    std::deque<Batch> queue_;
    std::deque<std::string> names_;   // the inputs' names, in order (the reading thread's)
    std::vector<std::string> spare_;  // emptied batch buffers, for reuse
    std::map<std::uint64_t, BatchResult> results_;
    std::uint64_t next_seq_ = 0, next_write_ = 0, games_written_ = 0, game_in_file_ = 0;
    std::atomic<std::uint64_t> peak_in_flight_ = 0;  // written with mu_ held
    std::size_t written_file_ = SIZE_MAX;
    bool done_reading_ = false, ok_ = false;
    std::exception_ptr error_;
    AuditCounts total_;
    std::atomic<std::uint64_t> bytes_read_ = 0;
    std::uint64_t total_bytes_ = 0, consumed_before_ = 0, pgn_games_ = 0;
    std::chrono::steady_clock::time_point start_, last_progress_{};
};

AuditPipeline::AuditPipeline(const AuditConfig& cfg, AuditSink& sink, unsigned threads, bool progress,
                             AuditInputs inputs)
    : impl_(std::make_unique<Impl>(cfg, sink, threads, progress, std::move(inputs))) {}
AuditPipeline::AuditPipeline(const AuditConfig& cfg, std::ostream& out, std::ostream* pgn, unsigned threads,
                             bool progress)
    : own_sink_(std::make_unique<StreamSink>(cfg.format, out, pgn, std::cerr)),
      impl_(std::make_unique<Impl>(cfg, *own_sink_, threads, progress, AuditInputs{})) {}
AuditPipeline::~AuditPipeline() = default;
bool AuditPipeline::run() { return impl_->run(); }
void AuditPipeline::stop() { impl_->stop(); }
const AuditCounts& AuditPipeline::counts() const { return impl_->counts(); }
double AuditPipeline::seconds() const { return impl_->seconds(); }
std::uint64_t AuditPipeline::bytes() const { return impl_->bytes(); }
std::uint64_t AuditPipeline::games_read() const { return impl_->games_read(); }
std::uint64_t AuditPipeline::pgn_games() const { return impl_->pgn_games(); }
bool AuditPipeline::no_games() const { return impl_->no_games(); }
std::uint64_t AuditPipeline::peak_in_flight() const { return impl_->peak_in_flight(); }

}  // namespace arbiter::face
